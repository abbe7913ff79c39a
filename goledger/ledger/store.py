"""The append-only, hash-chained event store: one SQLite file per tournament (DESIGN §4).

The store knows nothing of Go. It keeps envelopes (sequence number, type, schema version,
canonical JSON payload, time, actor, reason) in a ``STRICT`` table that SQLite itself
refuses to rewrite: ``BEFORE UPDATE`` and ``BEFORE DELETE`` triggers abort, and a
``BEFORE INSERT`` trigger refuses a row that does not extend the chain head.

**Hash chain** (algorithm ``sha256-chain-v1``, recorded in ``meta``)::

    hash(n) = SHA-256( prev_hash(n) as ASCII hex
                       ‖ canonical JSON of {actor, payload, prev_hash, reason,
                                            recorded_at, schema_version, seq, type} )

with keys sorted, no whitespace, the payload embedded verbatim, and ``prev_hash(1)`` = 64
zeros. ``verify`` recomputes it and names the first event that does not match.

**Appends** run inside ``BEGIN IMMEDIATE``: the head is read inside the write lock and
compared with the caller's expected head, so two processes writing the same file never
interleave or lose an event (a caller that names what its write depends on
is refused only when a record appended since touches it: :func:`touching`, the one
conflict rule); a crash leaves either the whole batch or nothing (SQLite's
atomic commit, WAL journal, ``synchronous=FULL``). A new ledger that starts with events
(``goledger new``, imports, copies) is written by :meth:`Ledger.create_complete`: a hidden
partial file linked into place only when complete, so a killed process leaves the whole
ledger or no file.

**Refusals.** :meth:`Ledger.open` refuses a missing file, a non-SQLite file, another
program's database, a newer store schema, and a ledger whose append-only triggers were
removed or replaced (``verify`` opens such a file anyway to report on it); any SQLite error
met later while reading (a truncated or corrupted file) becomes a :class:`LedgerError`
naming the file. :mod:`goledger.ledger.repair` reads what a damaged file still holds.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import sqlite3
import time
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import msgspec

from goledger.errors import LedgerError, Problem, StaleHeadError
from goledger.ledger.events import Event, canonical_bytes, decode_event, decode_rows
from goledger.nogc import nogc

__all__ = [
    "GENESIS_HASH",
    "HASH_ALGORITHM",
    "STORE_SCHEMA_VERSION",
    "Envelope",
    "Head",
    "KeysOf",
    "Ledger",
    "Record",
    "VerifyReport",
    "chain_hash",
    "damaged",
    "foreign_objects",
    "peek_head",
    "protection_problems",
    "remove_stale_partials",
    "touching",
]

STORE_FORMAT: Final = "goledger-ledger"
STORE_SCHEMA_VERSION: Final = 1
HASH_ALGORITHM: Final = "sha256-chain-v1"
GENESIS_HASH: Final = "0" * 64

_TABLES: Final = {
    "meta": 'CREATE TABLE "meta" (\n   "key" TEXT PRIMARY KEY,\n   "value" TEXT NOT NULL\n) STRICT',
    "events": (
        'CREATE TABLE "events" (\n   "seq" INTEGER PRIMARY KEY,\n   "type" TEXT NOT NULL,\n'
        '   "schema_version" INTEGER NOT NULL,\n   "payload" TEXT NOT NULL,\n   "recorded_at" TEXT NOT NULL,\n'
        '   "actor" TEXT NOT NULL,\n   "reason" TEXT NOT NULL,\n   "prev_hash" TEXT NOT NULL,\n'
        '   "hash" TEXT NOT NULL\n) STRICT'
    ),
    "projection_cache": (
        'CREATE TABLE "projection_cache" (\n   "name" TEXT PRIMARY KEY,\n   "seq" INTEGER NOT NULL,\n'
        '   "head" TEXT NOT NULL,\n   "data" BLOB NOT NULL\n) STRICT'
    ),
}
"""The tables of a new ledger, in the exact DDL sqlite-utils writes for them (DESIGN §4;
``tests/ledger/test_store.py`` checks the two agree), so sqlite-utils and Datasette read a ledger
like any database. Written directly, through ``sqlite3``: importing sqlite-utils (90–150 ms)
costs more than everything else an import does, and these three statements are all the
store would use it for."""

_TRIGGERS: Final = {
    "events_append_only_update": (
        "CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events BEGIN "
        "SELECT RAISE(ABORT, 'goledger: the event log is append-only: UPDATE is refused'); END"
    ),
    "events_append_only_delete": (
        "CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events BEGIN "
        "SELECT RAISE(ABORT, 'goledger: the event log is append-only: DELETE is refused'); END"
    ),
    "events_extend_chain": (
        "CREATE TRIGGER events_extend_chain BEFORE INSERT ON events "
        "WHEN NEW.seq IS NOT (SELECT COALESCE(MAX(seq), 0) + 1 FROM events) "
        f"OR NEW.prev_hash IS NOT COALESCE((SELECT hash FROM events ORDER BY seq DESC LIMIT 1), '{GENESIS_HASH}') "
        "BEGIN SELECT RAISE(ABORT, 'goledger: an event must extend the chain head'); END"
    ),
    "meta_append_only_update": (
        "CREATE TRIGGER meta_append_only_update BEFORE UPDATE ON meta BEGIN "
        "SELECT RAISE(ABORT, 'goledger: ledger metadata is write-once: UPDATE is refused'); END"
    ),
    "meta_append_only_delete": (
        "CREATE TRIGGER meta_append_only_delete BEFORE DELETE ON meta BEGIN "
        "SELECT RAISE(ABORT, 'goledger: ledger metadata is write-once: DELETE is refused'); END"
    ),
}


class _HashedEnvelope(msgspec.Struct, frozen=True):
    """The envelope fields covered by the hash, in sorted order."""

    actor: str
    payload: msgspec.Raw
    prev_hash: str
    reason: str
    recorded_at: str
    schema_version: int
    seq: int
    type: str


_ENVELOPE_ENCODER: Final = msgspec.json.Encoder()


def chain_hash(
    prev_hash: str,
    seq: int,
    type_name: str,
    schema_version: int,
    payload: bytes,
    recorded_at: str,
    actor: str,
    reason: str,
) -> str:
    """The ``sha256-chain-v1`` hash of one envelope (see the module docstring)."""
    envelope = _HashedEnvelope(
        actor=actor,
        payload=msgspec.Raw(payload),
        prev_hash=prev_hash,
        reason=reason,
        recorded_at=recorded_at,
        schema_version=schema_version,
        seq=seq,
        type=type_name,
    )
    return hashlib.sha256(prev_hash.encode("ascii") + _ENVELOPE_ENCODER.encode(envelope)).hexdigest()


class Head(msgspec.Struct, frozen=True):
    """The chain head: the last sequence number (0 for an empty log) and its hash."""

    seq: int
    hash: str


class Record(msgspec.Struct, frozen=True):
    """One stored event with its envelope. ``event`` decodes (and upcasts) the payload."""

    seq: int
    type: str
    schema_version: int
    payload: str
    recorded_at: str
    actor: str
    reason: str
    prev_hash: str
    hash: str

    @property
    def event(self) -> Event:
        return decode_event(self.type, self.schema_version, self.payload)


class Envelope(msgspec.Struct, frozen=True):
    """What an event is stored as, without its place in a chain (see
    :meth:`Transaction.append_envelopes`). A :class:`Record` has the same fields."""

    type: str
    schema_version: int
    payload: str
    recorded_at: str
    actor: str
    reason: str


class VerifyReport(msgspec.Struct, frozen=True):
    """What ``verify`` found. ``trusted_upto`` is the last sequence number whose whole chain
    checks out; ``first_bad_seq`` the first one that does not (``None`` when all is well)."""

    ok: bool
    events: int
    head: str
    trusted_upto: int
    first_bad_seq: int | None = None
    problem: str = ""
    missing_triggers: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    altered_triggers: tuple[str, ...] = ()


Clock = Callable[[], str]

KeysOf = Callable[[Record], Collection[Hashable]]
"""What a stored record touches, as opaque keys (the store compares them, never reads them);
it may raise on a record it cannot read."""


def touching(records: Iterable[Record], keys: Collection[Hashable] | None, keys_of: KeysOf) -> list[Record]:
    """The conflict rule, the only one: the ``records`` (appended since a writer's expected head)
    that touch ``keys``, what the write depends on. ``None`` means the whole ledger: every record
    touches it. Otherwise a record touches when ``keys_of(record)`` meets ``keys``, and also when
    ``keys_of`` cannot read it (an undecodable record: what it changed is unknown, so a write that
    depends on anything is not made against it). Nothing touches an empty ``keys``.

    >>> r = Record(5, "X", 1, "{}", "", "", "", "", "")
    >>> [x.seq for x in touching([r], {"a"}, lambda rec: {"a", "b"})], touching([r], {"c"}, lambda rec: {"a"})
    ([5], [])
    >>> def unreadable(rec: Record) -> set[str]:
    ...     raise ValueError("unknown event type")
    >>> [x.seq for x in touching([r], {"c"}, unreadable)], touching([r], set(), unreadable)
    ([5], [])
    """
    if keys is None:
        return list(records)
    if not keys:
        return []
    found = []
    for record in records:
        try:
            touched = not set(keys).isdisjoint(keys_of(record))
        except Exception:  # any record keys_of cannot read counts as touching (the rule above)
            touched = True
        if touched:
            found.append(record)
    return found


_SECOND: list[Any] = [None, ""]  # the last whole second seen, and its text


def utc_now() -> str:
    """Current UTC time, ISO 8601 with microseconds and a ``Z`` (what
    ``datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")`` writes, four times faster: the
    date and time are formatted once per second, and a bulk append stamps tens of thousands
    of events)."""
    second, micro = divmod(time.time_ns() // 1000, 1_000_000)
    if second != _SECOND[0]:
        _SECOND[0], _SECOND[1] = second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
    return f"{_SECOND[1]}.{micro:06d}Z"


_PARTIAL: Final = ".partial-"


def _alive(pid: int) -> bool:
    """Whether a process runs (POSIX); elsewhere every process is assumed alive."""
    if os.name != "posix":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale_partials(target: Path) -> list[Path]:
    """Remove the partial files (and their journals) that killed writers left next to
    ``target``: those whose process no longer runs. Returns what was removed."""
    prefix = f".{target.name}{_PARTIAL}"
    removed: list[Path] = []
    if not target.parent.is_dir():
        return removed
    with os.scandir(target.parent) as entries:  # names only: a folder of 500 ledgers is opened 500 times
        names = [entry.name for entry in entries if entry.name.startswith(prefix)]
    for candidate in (target.parent / name for name in names):
        pid_text = candidate.name[len(prefix):].split("-", 1)[0]
        if not pid_text.isdigit() or (int(pid_text) != os.getpid() and _alive(int(pid_text))):
            continue
        candidate.unlink(missing_ok=True)
        removed.append(candidate)
    return removed


def _link_new(temp: Path, target: Path) -> None:
    """Give the finished ``temp`` its name ``target`` without ever replacing a file."""
    try:
        os.link(temp, target)
    except FileExistsError:
        raise LedgerError(Problem("%(path)s appeared while it was being written; nothing was written",
                                  path=str(target))) from None
    except OSError:  # no hard links here (FAT, some network shares)
        if target.exists():
            raise LedgerError(Problem("%(path)s appeared while it was being written; nothing was written",
                                      path=str(target))) from None
        os.replace(temp, target)
    if os.name == "posix":
        try:
            fd = os.open(target.parent, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError:
            pass


def _normalised_sql(sql: str) -> str:
    return " ".join(sql.split())


def protection_problems(conn: sqlite3.Connection) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The append-only triggers that are missing, and those present under their name but
    with other SQL (a trigger replaced by a no-op protects nothing)."""
    present = {
        (name.decode("utf-8", "replace") if isinstance(name, bytes) else name):
        (sql.decode("utf-8", "replace") if isinstance(sql, bytes) else sql)
        for name, sql in conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
    }
    missing = tuple(name for name in _TRIGGERS if name not in present)
    altered = tuple(
        name for name, sql in _TRIGGERS.items()
        if name in present and _normalised_sql(present[name] or "") != _normalised_sql(sql)
    )
    return missing, altered


SQLITE_INTERNAL_TABLES: Final = frozenset({"sqlite_stat1", "sqlite_stat2", "sqlite_stat3", "sqlite_stat4"})
"""Tables SQLite creates itself (``ANALYZE`` writes ``sqlite_stat1``, and ``sqlite_stat4``
when compiled with it). No statement can create a table of that name otherwise, and their
rows only choose query plans, so they are not foreign objects. (``sqlite_sequence`` is
not listed: it exists only beside an ``AUTOINCREMENT`` table, which goledger never creates.)"""


def foreign_objects(conn: sqlite3.Connection) -> tuple[str, ...]:
    """Schema objects goledger did not create, or whose definition changed, each as a phrase
    (``"trigger hide_results (not created by goledger)"``, ``"table events (definition
    changed)"``). The schema is checked whole: an extra ``BEFORE INSERT … RAISE(IGNORE)``
    trigger would make a command report an event it never stored, an extra view or index
    could shadow what tools read. Missing or changed append-only triggers are reported by
    :func:`protection_problems`; the SQLite indexes of the primary keys are goledger's, and
    SQLite's statistics tables (:data:`SQLITE_INTERNAL_TABLES`) are SQLite's."""
    found: list[str] = []
    for kind, name, table, sql in conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"):
        kind, name, table = (v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
                             for v in (kind, name, table))
        text = sql.decode("utf-8", "replace") if isinstance(sql, bytes) else sql
        if kind == "table" and name in _TABLES:
            if _normalised_sql(text or "") != _normalised_sql(_TABLES[name]):
                found.append(f"table {name} (definition changed)")
        elif kind == "trigger" and name in _TRIGGERS:
            continue  # protection_problems judges these
        elif kind == "index" and name.startswith("sqlite_autoindex_") and table in _TABLES and text is None:
            continue
        elif kind == "table" and name in SQLITE_INTERNAL_TABLES:
            continue  # SQLite's own statistics (ANALYZE): they steer the query planner, never a result
        else:
            found.append(f"{kind} {name} (not created by goledger)")
    return tuple(found)


def _why(target: Path, exc: BaseException) -> str:
    """SQLite's reason for a failed write, saying "the disk is full" when it is (SQLite says
    "disk I/O error" when a full tmpfs cannot grow its shared-memory file)."""
    # shutil (with bz2, lzma, zlib) loads late: only a failed write asks the disk
    import shutil

    try:
        full = shutil.disk_usage(target.parent).free < 256 * 1024
    except OSError:
        full = False
    if "full" in str(exc):
        return Problem("the disk is full")
    return Problem("the disk is full (%(error)s)", error=str(exc)) if full else str(exc)


def _not_written(target: Path, exc: BaseException) -> LedgerError:
    """The refusal for a new ledger SQLite could not write (a full disk, most often): one
    sentence; the caller has removed what it began."""
    return LedgerError(Problem("cannot create %(path)s: %(why)s; nothing was written", path=str(target),
                               why=_why(target, exc)))


def damaged(path: Path, exc: BaseException) -> LedgerError:
    """The refusal for a file SQLite cannot read any more (one sentence)."""
    return LedgerError(Problem("%(path)s is damaged and cannot be read (%(why)s); `goledger verify --repair-report "
                               "--db %(path)s` shows which events can still be trusted", path=str(path), why=str(exc)))


def _sqlite_header(path: Path) -> bool:
    """Whether ``path`` starts as an SQLite file does. Only for a file SQLite has refused as
    not a database: no connection of this process holds a lock on such a file, so closing
    this descriptor cancels none (see :meth:`Ledger.open`)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None, timeout=60.0, check_same_thread=False)
    conn.execute("PRAGMA busy_timeout = 60000")
    return conn


def read_only_folder(path: Path) -> bool:
    """Whether ``path``'s folder cannot be written in (a read-only mount, or a folder without
    write permission): SQLite cannot create a WAL ledger's ``-shm`` and ``-wal`` there."""
    folder = path.parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return True
    except (OSError, AttributeError):  # pragma: no cover (no statvfs on Windows)
        pass
    return not os.access(folder, os.W_OK)


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A ledger in a read-only folder, read from its main file alone (SQLite ``immutable``:
    nothing is created beside it). Refused, as "read-only folder", when a non-empty ``-wal``
    holds events the main file may not have yet: those could not be read."""
    wal = Path(f"{path}-wal")
    try:
        pending = wal.stat().st_size > 0
    except OSError:
        pending = False
    if pending:
        raise LedgerError(Problem("%(path)s is in a read-only folder and its journal %(journal)s holds events not yet "
                                  "in the file, which cannot be read there; copy the folder somewhere writable to read "
                                  "it", path=str(path), journal=wal.name))
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True, isolation_level=None,
                           check_same_thread=False)
    return conn


class Ledger:
    """An open ledger file. Use :meth:`create` for a new file and :meth:`open` for an
    existing one; both refuse anything that is not a goledger ledger they can trust."""

    def __init__(self, path: Path, conn: sqlite3.Connection, read_only: bool = False) -> None:
        self.path = path
        self._conn = conn
        self.read_only = read_only
        """Opened in a read-only folder (:func:`read_only_folder`): read from the main file
        alone, and every write refused as "read-only folder"."""

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    def create(cls, path: str | os.PathLike[str], *, shown_as: Path | None = None) -> Ledger:
        """Create a new, empty ledger file. Refuses to touch an existing file; one SQLite
        cannot write (a full disk) is removed with its companions and refused in one sentence
        naming ``shown_as`` (the name a partial file will be given) or the file."""
        target = Path(path)
        shown = shown_as if shown_as is not None else target
        if target.exists() or target.is_symlink():
            raise LedgerError(Problem("%(path)s already exists; a new ledger needs a new file", path=str(target)))
        if not target.parent.exists():
            raise LedgerError(Problem("cannot create %(path)s: folder %(folder)s does not exist", path=str(target),
                                      folder=str(target.parent)))
        try:  # created exclusively, never through a link planted under its name
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666))
        except FileExistsError:
            raise LedgerError(Problem("%(path)s already exists; a new ledger needs a new file",
                                      path=str(target))) from None
        except OSError as exc:
            raise LedgerError(Problem("cannot create %(path)s: %(why)s",
                                      path=str(target), why=str(exc.strerror))) from None
        try:
            conn = _connect(target)
        except sqlite3.Error as exc:
            target.unlink(missing_ok=True)
            raise _not_written(shown, exc) from None
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("BEGIN IMMEDIATE")
            for sql in _TABLES.values():
                conn.execute(sql)
            conn.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [
                    ("format", STORE_FORMAT),
                    ("store_schema_version", str(STORE_SCHEMA_VERSION)),
                    ("hash_algorithm", HASH_ALGORITHM),
                    ("created_at", utc_now()),
                ],
            )
            for sql in _TRIGGERS.values():
                conn.execute(sql)
            conn.execute("COMMIT")
            cls._tune(conn)
        except BaseException as exc:
            try:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            conn.close()
            for leftover in (target, *(Path(f"{target}{suffix}") for suffix in ("-wal", "-shm", "-journal"))):
                leftover.unlink(missing_ok=True)
            if isinstance(exc, sqlite3.Error):
                raise _not_written(shown, exc) from None
            raise
        return cls(target, conn)

    @classmethod
    def create_complete(
        cls,
        path: str | os.PathLike[str],
        events: Sequence[Event],
        *,
        actor: str = "",
        reason: str = "",
        clock: Clock = utc_now,
    ) -> list[Record]:
        """Create a new ledger file already holding ``events`` — all of them or no file at
        all, even if the process is killed at any point.

        The ledger is written to a hidden partial file next to ``path``
        (``.<name>.partial-<pid>``), fully checkpointed, closed, and only then linked to
        ``path`` — a hard link, which refuses to replace a file that appeared meanwhile
        (``os.replace`` where the file system has no hard links). A partial file left by a
        killed process is removed by the next creation or opening of the same ledger."""
        return cls._create_complete(
            Path(path), lambda ledger: ledger.append(events, actor=actor, reason=reason, clock=clock)
        )

    @classmethod
    def create_complete_from(cls, path: str | os.PathLike[str], envelopes: Sequence[Envelope]) -> list[Record]:
        """:meth:`create_complete` for stored envelopes appended verbatim (a copy of a log)."""

        def write(ledger: Ledger) -> list[Record]:
            with ledger.writing() as tx:
                return tx.append_envelopes(envelopes)

        return cls._create_complete(Path(path), write)

    @classmethod
    def _create_complete(cls, target: Path, write: Callable[[Ledger], list[Record]]) -> list[Record]:
        if target.exists():
            raise LedgerError(Problem("%(path)s already exists; a new ledger needs a new file", path=str(target)))
        if not target.parent.is_dir():
            raise LedgerError(Problem("cannot create %(path)s: folder %(folder)s does not exist", path=str(target),
                                      folder=str(target.parent)))
        remove_stale_partials(target)
        # the partial file's name is unpredictable (pid, for remove_stale_partials, then random)
        temp = target.with_name(f".{target.name}{_PARTIAL}{os.getpid()}-{secrets.token_hex(8)}")
        sidecars = (temp, Path(f"{temp}-wal"), Path(f"{temp}-shm"), Path(f"{temp}-journal"))
        for leftover in sidecars:
            leftover.unlink(missing_ok=True)
        try:
            ledger = cls.create(temp, shown_as=target)
            ledger.path = target  # what its messages name: the partial file is nobody's business
            try:
                records = write(ledger)
                busy = ledger._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
                if busy:
                    raise LedgerError(Problem("cannot finish writing %(path)s: its journal could not be checkpointed",
                                              path=str(target)))
            except sqlite3.Error as exc:  # a full disk: nothing is left behind
                raise _not_written(target, exc) from None
            finally:
                ledger.close()
            _link_new(temp, target)
        except OSError as exc:
            raise LedgerError(Problem("cannot create %(path)s: %(why)s; nothing was written", path=str(target),
                                      why=str(exc.strerror or exc))) from None
        finally:
            for leftover in sidecars:
                leftover.unlink(missing_ok=True)
        return records

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, check_protection: bool = True) -> Ledger:
        """Open an existing ledger, refusing a missing file, a non-SQLite file, a SQLite
        file that is not a goledger ledger, one written by a newer goledger, a damaged one,
        and (unless ``check_protection`` is false, as ``verify`` does to report on it) one
        whose append-only triggers were removed or changed."""
        target = Path(path)
        if not target.is_file():
            raise LedgerError(Problem("no ledger at %(path)s (create one with `goledger new` or an import)",
                                      path=str(target)))
        # The file's header is read by SQLite, never through a descriptor of our own: closing
        # any descriptor of the file cancels the POSIX locks every other connection of this
        # process holds on it (SQLite's "How To Corrupt An SQLite Database File", 2.2), and
        # another process may then checkpoint under a reader, or write beside a writer, of
        # this one (the desk reads in threads while its workers append).
        if not os.access(target, os.R_OK):
            raise LedgerError(Problem("cannot read %(path)s: Permission denied", path=str(target)))
        if target.stat().st_size < 16:
            raise LedgerError(Problem("%(path)s is not a goledger ledger (not an SQLite database)", path=str(target)))
        conn = _connect(target)
        read_only = False
        try:
            try:
                meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            except sqlite3.OperationalError:
                if not read_only_folder(target):
                    raise
                conn.close()  # a WAL ledger whose companions cannot be made: its main file alone
                conn, read_only = _connect_read_only(target), True
                meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.DatabaseError as exc:
            conn.close()
            if "file is not a database" in str(exc) and not _sqlite_header(target):
                raise LedgerError(Problem("%(path)s is not a goledger ledger (not an SQLite database)",
                                          path=str(target))) from None
            if "no such table" in str(exc):
                raise LedgerError(Problem("%(path)s is an SQLite database but not a goledger ledger",
                                          path=str(target))) from None
            raise damaged(target, exc) from None
        except (ValueError, TypeError):
            conn.close()
            raise LedgerError(Problem("%(path)s is an SQLite database but not a goledger ledger",
                                      path=str(target))) from None
        if meta.get("format") != STORE_FORMAT:
            conn.close()
            raise LedgerError(Problem("%(path)s is an SQLite database but not a goledger ledger", path=str(target)))
        try:
            version = int(meta.get("store_schema_version", "0"))
        except ValueError:
            version = -1
        if version > STORE_SCHEMA_VERSION:
            conn.close()
            raise LedgerError(
                f"{target} was written by a newer goledger (store schema {version}, this one "
                f"reads up to {STORE_SCHEMA_VERSION}); upgrade goledger to read it"
            )
        if version < 1 or meta.get("hash_algorithm") != HASH_ALGORITHM:
            conn.close()
            raise LedgerError(Problem("%(path)s has an unknown store layout or hash algorithm; refusing to use it",
                                      path=str(target)))
        if check_protection:
            try:
                missing, altered = protection_problems(conn)
            except sqlite3.DatabaseError as exc:
                conn.close()
                raise damaged(target, exc) from None
            try:
                foreign = foreign_objects(conn)
            except sqlite3.DatabaseError as exc:
                conn.close()
                raise damaged(target, exc) from None
            if foreign:
                conn.close()
                raise LedgerError(
                    f"{target} holds schema objects goledger did not create or changed ({'; '.join(foreign)}), so "
                    "a command could report what it did not store; refusing to use it (`goledger verify --db "
                    f"{target}` reports it; remove them with the sqlite3 tool to use the file again)"
                )
            if missing or altered:
                # the error path may afford a full check: name an altered event when there is one
                try:
                    report = cls(target, conn)._verify()
                except sqlite3.DatabaseError as exc:
                    conn.close()
                    raise damaged(target, exc) from None
                conn.close()
                if report.first_bad_seq is not None:
                    trusted = f"; events 1..{report.trusted_upto} can be trusted" if report.trusted_upto else ""
                    raise LedgerError(report.problem + trusted)
                parts = [f"{', '.join(missing)} removed"] if missing else []
                parts += [f"{', '.join(altered)} changed"] if altered else []
                noun = "trigger" if len(missing) + len(altered) == 1 else "triggers"
                raise LedgerError(
                    f"{target} has lost its append-only protection ({noun} {'; '.join(parts)}), so it may have been "
                    f"edited outside goledger; `goledger verify --repair-report --db {target}` shows which events "
                    "can be trusted"
                )
        if read_only:
            return cls(target, conn, read_only=True)
        try:
            cls._tune(conn)
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise damaged(target, exc) from None
        try:
            remove_stale_partials(target)  # a second name a killed creation left for this very file
        except OSError:
            pass
        return cls(target, conn)

    @staticmethod
    def _tune(conn: sqlite3.Connection) -> None:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ reading

    def meta(self) -> dict[str, str]:
        try:
            return dict(self._conn.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, exc) from None

    def head(self) -> Head:
        try:
            return _read_head(self._conn)
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, exc) from None

    def records(self, after: int = 0, upto: int | None = None) -> Iterator[Record]:
        """Stored events with ``after < seq <= upto``, in order."""
        try:
            yield from _records(self._conn, after, upto)
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, exc) from None

    def events(self, after: int = 0, upto: int | None = None) -> list[Event]:
        """Decoded events with ``after < seq <= upto``, in order (the fast path for replay)."""
        try:
            return _decode_rows(self._conn, after, upto)
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, exc) from None

    def events_of_types(self, types: Sequence[str], upto: int | None = None) -> list[Event]:
        """Decoded events with ``seq <= upto`` whose type is one of ``types``, in order: what a
        projection that depends on those alone folds (a tournament's settings, from the two
        events that set them), without decoding the rest of the log."""
        try:
            return _decode_rows(self._conn, 0, upto, types)
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, exc) from None

    # ------------------------------------------------------------------ writing

    @contextmanager
    def writing(self, expected_head: int | None = None, *, keys_of: KeysOf | None = None) -> Iterator[Transaction]:
        """Hold the write lock (``BEGIN IMMEDIATE``) while the caller reads, validates and
        appends. With ``expected_head`` (the sequence number the caller last saw) a moved
        head raises :class:`StaleHeadError` naming what was appended since, unless
        ``keys_of`` is given: then the caller decides against the new state and names what
        that decision depends on with :meth:`Transaction.depend`, which refuses the write,
        still inside the lock, when a record appended since touches it (:func:`touching`)."""
        conn = self._conn
        if self.read_only:
            raise LedgerError(Problem("%(path)s is in a read-only folder; nothing can be recorded there (copy it to a "
                                      "folder you can write in)", path=str(self.path)))
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise LedgerError(Problem("cannot lock %(path)s for writing: %(why)s",
                                      path=str(self.path), why=str(exc))) from None
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, exc) from None
        try:
            try:
                head = _read_head(conn)
            except sqlite3.DatabaseError as exc:
                raise damaged(self.path, exc) from None
            tx = Transaction(conn, head, expected_head, keys_of)
            if expected_head is not None and expected_head > tx.head.seq:
                raise StaleHeadError(
                    f"expected head {expected_head} is beyond the ledger's last event {tx.head.seq}: is this the "
                    "ledger you read it from?", expected=expected_head,
                )
            if expected_head is not None and tx.head.seq != expected_head and keys_of is None:
                records = tuple(_records(conn, expected_head, None))
                since = [f"{r.seq} {r.type}" for r in records]
                shown = ", ".join(since[:5]) + (f" and {len(since) - 5} more" if len(since) > 5 else "")
                raise StaleHeadError(
                    f"the ledger changed since event {expected_head}: {len(since)} event(s) were "
                    f"appended ({shown}); review them, or repeat with --retry to re-check and append",
                    expected=expected_head, since=records, head=tx.head.seq,
                )
            yield tx
            conn.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise LedgerError(Problem("cannot write to %(path)s (%(why)s); nothing was written", path=str(self.path),
                                      why=_why(self.path, exc))) from None
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def append(
        self,
        events: Sequence[Event],
        *,
        expected_head: int | None = None,
        actor: str = "",
        reason: str = "",
        clock: Clock = utc_now,
    ) -> list[Record]:
        """Append events as one transaction (all or nothing) and return their records."""
        with self.writing(expected_head) as tx:
            return tx.append(events, actor=actor, reason=reason, clock=clock)

    # ------------------------------------------------------------------ cache (projections)

    def hash_at(self, seq: int) -> str | None:
        """The stored hash of event ``seq`` (``None`` when there is no such event)."""
        try:
            return _hash_at(self._conn, seq)
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, exc) from None

    def cache_get(self, name: str) -> tuple[int, str, bytes] | None:
        """A cached projection blob with the (seq, key) it was stored under, if any."""
        return _cache_get(self._conn, name)

    def cache_put(self, name: str, seq: int, key: str, data: bytes, *, stale_prefix: str = "") -> None:
        """Store a projection blob. Caches are never trusted: readers check ``key``. With
        ``stale_prefix``, cached blobs whose name starts with it and that were stored at
        another sequence number are dropped first (they can never be used again)."""
        _cache_put(self._conn, name, seq, key, data, stale_prefix)

    def cache_names(self, prefix: str) -> list[str]:
        """Names of the cached projections starting with ``prefix``."""
        try:
            rows = self._conn.execute(
                "SELECT name FROM projection_cache WHERE substr(name, 1, ?) = ? ORDER BY name", (len(prefix), prefix)
            ).fetchall()
        except sqlite3.OperationalError:
            return []
        return [row[0] for row in rows]

    def cache_drop(self, names: Sequence[str]) -> None:
        """Drop the cached projections ``names`` (a missed drop costs nothing)."""
        if not names:
            return
        self._conn.execute("PRAGMA busy_timeout = 50")
        try:
            self._conn.executemany("DELETE FROM projection_cache WHERE name = ?", [(n,) for n in names])
        except sqlite3.OperationalError:
            pass  # read-only file or locked by another writer
        finally:
            self._conn.execute("PRAGMA busy_timeout = 60000")

    def cache_clear(self) -> None:
        try:
            self._conn.execute("DELETE FROM projection_cache")
        except sqlite3.OperationalError:
            pass

    # ------------------------------------------------------------------ integrity

    def verify(self) -> VerifyReport:
        """Recompute the whole chain and check the triggers are still in place, unchanged."""
        try:
            return self._verify()
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, exc) from None

    def read_verified(self) -> tuple[VerifyReport, list[Record], list[Event]]:
        """:meth:`verify`, then every record and decoded event, read once: the records and
        events the verification went through. When it fails, they are read again as
        :meth:`records` and :meth:`events` give them (which refuses what cannot be decoded)."""
        records: list[Record] = []
        events: list[Event] = []
        try:
            report = self._verify(records, events)
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, exc) from None
        if not report.ok or len(events) != report.events:
            return report, list(self.records()), self.events()
        return report, records, events

    def _verify(self, records: list[Record] | None = None, events: list[Event] | None = None) -> VerifyReport:
        conn = self._conn
        missing, altered = protection_problems(conn)
        foreign = foreign_objects(conn)
        prev = GENESIS_HASH
        expected_seq = 1
        count = 0
        for rec in _records(conn, 0, None):
            problem = ""
            if rec.seq != expected_seq:
                problem = f"sequence gap: expected event {expected_seq}, found {rec.seq}"
            elif rec.prev_hash != prev:
                problem = f"event {rec.seq} does not link to event {rec.seq - 1} (prev_hash differs)"
            else:
                computed = chain_hash(
                    prev, rec.seq, rec.type, rec.schema_version, rec.payload.encode("utf-8"),
                    rec.recorded_at, rec.actor, rec.reason,
                )
                if computed != rec.hash:
                    problem = f"event {rec.seq} ({rec.type}) was altered: its hash does not match its content"
                else:
                    try:
                        event = rec.event  # decoding is the check
                    except (ValueError, msgspec.ValidationError, msgspec.DecodeError) as exc:
                        problem = f"event {rec.seq} ({rec.type}) cannot be decoded: {exc}"
                    else:
                        if records is not None and events is not None:
                            records.append(rec)
                            events.append(event)
            if problem:
                return VerifyReport(
                    ok=False, events=_count(conn), head=_read_head(conn).hash,
                    trusted_upto=expected_seq - 1, first_bad_seq=expected_seq if rec.seq != expected_seq else rec.seq,
                    problem=problem, missing_triggers=missing, altered_triggers=altered,
                )
            prev = rec.hash
            expected_seq += 1
            count += 1
        if missing or altered or foreign:
            parts = []
            if foreign:
                parts.append("schema objects goledger did not create or changed: " + "; ".join(foreign))
            if missing:
                parts.append("the append-only triggers were removed: " + ", ".join(missing))
            if altered:
                parts.append("the append-only triggers were changed: " + ", ".join(altered))
            return VerifyReport(
                ok=False, events=count, head=prev, trusted_upto=count, problem="; ".join(parts),
                missing_triggers=missing, altered_triggers=altered,
            )
        return VerifyReport(ok=True, events=count, head=prev, trusted_upto=count)


class Transaction:
    """The write lock held by :meth:`Ledger.writing`: read what is there, then append."""

    def __init__(self, conn: sqlite3.Connection, head: Head, expected: int | None = None,
                 keys_of: KeysOf | None = None) -> None:
        self._conn = conn
        self.head = head
        self.expected = expected
        self._keys_of = keys_of
        self._since: tuple[Record, ...] | None = None

    @property
    def since(self) -> tuple[Record, ...]:
        """The records appended after the writer's expected head (none without one, or when
        the head has not moved)."""
        if self._since is None:
            moved = self.expected is not None and self.expected < self.head.seq
            self._since = tuple(_records(self._conn, self.expected or 0, None)) if moved else ()
        return self._since

    def depend(self, keys: Collection[Hashable] | None) -> None:
        """Refuse this write with :class:`StaleHeadError` (``since``: the touching records,
        ``head``: the head now) when a record appended after the expected head touches
        ``keys`` (:func:`touching`; ``None``: the whole ledger). Called before appending by a
        writer that let the head move (:meth:`Ledger.writing` with ``keys_of``)."""
        if not self.since:
            return
        if self._keys_of is None:
            raise LedgerError("a write that names its dependencies needs `keys_of` in Ledger.writing")
        found = tuple(touching(self.since, keys, self._keys_of))
        if found:
            raise StaleHeadError(
                f"the ledger changed since event {self.expected}: {len(found)} event(s) appended since touch "
                f"what this write depends on (the first is event {found[0].seq})",
                expected=self.expected, since=found, head=self.since[-1].seq,
            )

    def events(self, after: int = 0, upto: int | None = None) -> list[Event]:
        return _decode_rows(self._conn, after, upto)

    def records(self, after: int = 0) -> Iterator[Record]:
        return _records(self._conn, after, None)

    def hash_at(self, seq: int) -> str | None:
        return _hash_at(self._conn, seq)

    def cache_get(self, name: str) -> tuple[int, str, bytes] | None:
        return _cache_get(self._conn, name)

    def cache_put(self, name: str, seq: int, key: str, data: bytes) -> None:
        _cache_put(self._conn, name, seq, key, data)

    def append(
        self, events: Sequence[Event], *, actor: str = "", reason: str = "", clock: Clock = utc_now
    ) -> list[Record]:
        prev, seq = self.head.hash, self.head.seq
        out: list[Record] = []
        for event in events:
            seq += 1
            payload = canonical_bytes(event)
            type_name = event.type_name()
            version = type(event).schema_version
            recorded_at = clock()
            digest = chain_hash(prev, seq, type_name, version, payload, recorded_at, actor, reason)
            out.append(
                Record(seq, type_name, version, payload.decode("utf-8"), recorded_at, actor, reason, prev, digest)
            )
            prev = digest
        return self._insert(out)

    def _insert(self, records: list[Record]) -> list[Record]:
        """Insert records already chained onto the head, and move the head to the last one."""
        self._conn.executemany(
            f"INSERT INTO events ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [tuple(msgspec.structs.astuple(r)) for r in records],
        )
        if records:
            self.head = Head(records[-1].seq, records[-1].hash)
        return records

    def append_envelopes(self, envelopes: Sequence[Envelope]) -> list[Record]:
        """Append stored envelopes verbatim — type, schema version, payload bytes, time, actor
        and reason as given — chained onto the head (copying or salvaging a log: an envelope
        appended at its original position gets its original hash back)."""
        prev, seq = self.head.hash, self.head.seq
        out: list[Record] = []
        for env in envelopes:
            seq += 1
            digest = chain_hash(prev, seq, env.type, env.schema_version, env.payload.encode("utf-8"),
                                env.recorded_at, env.actor, env.reason)
            out.append(Record(seq, env.type, env.schema_version, env.payload, env.recorded_at, env.actor,
                              env.reason, prev, digest))
            prev = digest
        return self._insert(out)


_COLUMNS: Final = "seq, type, schema_version, payload, recorded_at, actor, reason, prev_hash, hash"


def peek_head(path: str | os.PathLike[str]) -> tuple[str, Head] | None:
    """The hash of the first event and the head of the ledger at ``path``, read from the main
    file alone (SQLite ``immutable``: no journal or WAL file is created or read) without any of
    :meth:`Ledger.open`'s checks; ``None`` when that cannot be read (not a ledger, damaged) or
    when a non-empty WAL file holds events the main file may not have yet. A cheap "has this
    ledger changed?" for readers of many ledgers (the federation archive), which open it with
    :meth:`Ledger.open` when it has; it vouches for nothing."""
    target = Path(path).resolve()
    try:
        if os.path.getsize(f"{target}-wal") > 0:
            return None
    except OSError:
        pass  # no WAL file: the main file is the whole ledger
    try:
        conn = sqlite3.connect(f"{target.as_uri()}?mode=ro&immutable=1", uri=True)
    except (sqlite3.Error, ValueError):
        return None
    try:
        first = conn.execute("SELECT hash FROM events WHERE seq = 1").fetchone()
        return (first[0], _read_head(conn)) if first else None
    except sqlite3.Error:
        return None
    finally:
        conn.close()


def _read_head(conn: sqlite3.Connection) -> Head:
    row = conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    return Head(row[0], row[1]) if row else Head(0, GENESIS_HASH)


def _hash_at(conn: sqlite3.Connection, seq: int) -> str | None:
    row = conn.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
    return row[0] if row else None


def _cache_get(conn: sqlite3.Connection, name: str) -> tuple[int, str, bytes] | None:
    try:
        row = conn.execute("SELECT seq, head, data FROM projection_cache WHERE name = ?", (name,)).fetchone()
    except sqlite3.OperationalError:
        return None
    return (row[0], row[1], row[2]) if row else None


def _cache_put(conn: sqlite3.Connection, name: str, seq: int, key: str, data: bytes, stale_prefix: str = "") -> None:
    """Write a cache row without waiting on a busy file: a missed cache write costs nothing."""
    conn.execute("PRAGMA busy_timeout = 50")
    try:
        if stale_prefix:
            conn.execute(
                "DELETE FROM projection_cache WHERE substr(name, 1, ?) = ? AND seq != ?",
                (len(stale_prefix), stale_prefix, seq),
            )
        conn.execute(
            "INSERT OR REPLACE INTO projection_cache (name, seq, head, data) VALUES (?, ?, ?, ?)",
            (name, seq, key, data),
        )
    except sqlite3.OperationalError:
        pass  # read-only file or locked by another writer
    finally:
        conn.execute("PRAGMA busy_timeout = 60000")


def _count(conn: sqlite3.Connection) -> int:
    return conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]


def _records(conn: sqlite3.Connection, after: int, upto: int | None) -> Iterator[Record]:
    sql = f"SELECT {_COLUMNS} FROM events WHERE seq > ?"
    args: list[int] = [after]
    if upto is not None:
        sql += " AND seq <= ?"
        args.append(upto)
    for row in conn.execute(sql + " ORDER BY seq", args):
        yield Record(*row)


@nogc
def _decode_rows(conn: sqlite3.Connection, after: int, upto: int | None,
                 types: Sequence[str] | None = None) -> list[Event]:
    sql = "SELECT type, schema_version, payload FROM events WHERE seq > ?"
    args: list[int | str] = [after]
    if upto is not None:
        sql += " AND seq <= ?"
        args.append(upto)
    if types is not None:
        sql += f" AND type IN ({', '.join('?' * len(types))})"
        args.extend(types)
    rows = conn.execute(sql + " ORDER BY seq", args).fetchall()
    try:
        return decode_rows(rows)
    except (ValueError, msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise _unreadable_event(conn, after, upto, exc) from None


def _unreadable_event(conn: sqlite3.Connection, after: int, upto: int | None, exc: Exception) -> LedgerError:
    """The refusal naming the first stored event this goledger cannot decode."""
    for rec in _records(conn, after, upto):
        try:
            decode_event(rec.type, rec.schema_version, rec.payload)
        except (ValueError, msgspec.ValidationError, msgspec.DecodeError) as first:
            return LedgerError(
                f"event {rec.seq} ({rec.type}) cannot be read by this goledger: {first}; "
                "`goledger verify --repair-report` shows which events can be trusted"
            )
    return LedgerError(f"the ledger holds an event this goledger cannot read ({exc}); run `goledger verify`")
