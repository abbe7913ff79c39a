"""What can still be trusted in a damaged, truncated or tampered ledger file
(``goledger verify --repair-report``).

This is store-level forensics: it knows the file layout and the hash chain
(``sha256-chain-v1``, see :mod:`goledger.ledger.store`) and nothing of Go. Unlike
:meth:`Ledger.open <goledger.ledger.store.Ledger.open>`, which refuses any file it cannot
fully trust, :func:`repair_report` reads whatever can be read, never writes, and says:

* whether the file is a goledger ledger at all (missing, not SQLite, another program's
  database, a newer store schema);
* whether the file itself is damaged: SQLite cannot read some pages (a truncated copy, a
  disk error). A truncated file is read from a patched **in-memory copy** whose header
  claims only the pages that are present, so the events before the damage are still read;
* every event that breaks the chain: a gap in the sequence numbers, a ``prev_hash`` that
  does not link, a content that does not match its hash (altered), a payload this goledger
  cannot decode (e.g. an event schema newer than this program), a row that cannot be read;
* whether the append-only triggers are still there, unchanged;
* optionally, where a **published head** (a hash the director announced) lies in the file.

**Trust rule.** Events ``1..trusted_upto`` are trusted: they were read, each links to its
predecessor and recomputes to its stored hash. The first finding ends the trusted part.
The chain cannot show a log that was rewritten *together with* its hashes (someone with
write access can recompute them all): only a published head or checkpoint rules that out,
which is why the report looks the published head up when one is given and says so when
the triggers are gone.
"""

from __future__ import annotations

import sqlite3
import struct
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal
from urllib.parse import quote

import msgspec

from goledger.ledger.events import decode_event
from goledger.ledger.store import (
    GENESIS_HASH,
    HASH_ALGORITHM,
    STORE_FORMAT,
    STORE_SCHEMA_VERSION,
    Record,
    chain_hash,
    protection_problems,
    read_only_folder,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

__all__ = ["EventFinding", "RepairReport", "repair_report"]

FindingKind = Literal["unreadable", "gap", "unlinked", "altered", "undecodable"]

MAX_FINDINGS: Final = 50
"""Findings listed in the report (all of them are counted)."""

UNREADABLE_RUN: Final = 64
"""Consecutive unreadable sequence numbers after which the rest of the log is given up."""

_MAGIC: Final = b"SQLite format 3\x00"
_COLUMNS: Final = "seq, type, schema_version, payload, recorded_at, actor, reason, prev_hash, hash"


class EventFinding(msgspec.Struct, frozen=True):
    """One event that breaks the chain: its sequence number, what is wrong, in a sentence."""

    seq: int
    kind: FindingKind
    detail: str


class RepairReport(msgspec.Struct, frozen=True, kw_only=True):
    """What :func:`repair_report` found. ``verdict`` is the one sentence to read first."""

    path: str
    ok: bool
    verdict: str
    ledger: bool
    """The file is a goledger ledger this program can judge (layout and versions known)."""
    damage: str = ""
    """What is wrong with the file itself (empty when SQLite reads every page)."""
    events_read: int = 0
    events_claimed: int | None = None
    """The highest sequence number the file's index claims, when that can be read."""
    trusted_upto: int = 0
    trusted_head: str = GENESIS_HASH
    """Hash of event ``trusted_upto``: compare it with a published head."""
    stored_head: str = ""
    """Hash of the last event that could be read."""
    findings: tuple[EventFinding, ...] = ()
    findings_total: int = 0
    protection: str = ""
    """A sentence when the append-only triggers were removed or changed."""
    published_head: str = ""
    published_head_seq: int | None = None
    """The event whose hash is the published head (``None``: not in the file)."""
    notes: tuple[str, ...] = ()


# --------------------------------------------------------------------------- opening


def _open_readonly(path: Path) -> sqlite3.Connection:
    """The file read-only; in a read-only folder (where a WAL file's ``-shm`` cannot be made)
    its main file alone (``immutable``), unless a non-empty ``-wal`` holds more."""
    alone = read_only_folder(path) and not (Path(f"{path}-wal").is_file() and Path(f"{path}-wal").stat().st_size)
    conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro{'&immutable=1' if alone else ''}", uri=True,
                           isolation_level=None)
    conn.text_factory = bytes
    conn.execute("PRAGMA trusted_schema = OFF")
    return conn


def _open_patched_copy(data: bytes) -> tuple[sqlite3.Connection, str]:
    """An in-memory copy of a damaged file whose header claims only the pages present."""
    raw_size = struct.unpack(">H", data[16:18])[0]
    page_size = 65536 if raw_size == 1 else raw_size
    if page_size < 512 or page_size & (page_size - 1):
        raise sqlite3.DatabaseError("the SQLite header is damaged (invalid page size)")
    claimed = struct.unpack(">I", data[28:32])[0]
    pages = len(data) // page_size
    patched = bytearray(data[: pages * page_size])
    patched[28:32] = struct.pack(">I", pages)
    patched[18:20] = b"\x01\x01"  # WAL mode cannot be opened in memory: read it as a rollback-journal file
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.deserialize(bytes(patched))
    conn.text_factory = bytes
    conn.execute("PRAGMA trusted_schema = OFF")
    conn.execute("PRAGMA query_only = ON")
    if claimed > pages:
        what = f"the file is truncated: {pages} of the {claimed} pages its header claims are present"
    else:
        what = "SQLite reports the file as damaged"
    return conn, what


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return "" if value is None else str(value)


# --------------------------------------------------------------------------- reading rows


def _rows(conn: sqlite3.Connection, findings: list[EventFinding]) -> Iterator[tuple]:
    """Every readable event row in order. An unreadable stretch is skipped row by row and
    becomes one ``unreadable`` finding; after :data:`UNREADABLE_RUN` consecutive failures the
    rest of the log is given up."""
    last = 0
    bad_from: int | None = None
    error = ""
    while True:
        try:
            for row in conn.execute(f"SELECT {_COLUMNS} FROM events WHERE seq > ? ORDER BY seq", (last,)):
                if bad_from is not None:
                    stretch = f"event {bad_from}" if row[0] == bad_from + 1 else f"events {bad_from}..{row[0] - 1}"
                    findings.append(EventFinding(bad_from, "unreadable", f"{stretch} cannot be read ({error})"))
                    bad_from = None
                yield row
                last = row[0]
            if bad_from is not None:
                findings.append(EventFinding(bad_from, "unreadable",
                                             f"nothing can be read from event {bad_from} on ({error})"))
            return
        except sqlite3.DatabaseError as exc:
            error = str(exc)
            if bad_from is None:
                bad_from = last + 1
            last += 1
            if last - bad_from + 1 >= UNREADABLE_RUN:
                findings.append(EventFinding(
                    bad_from, "unreadable", f"nothing can be read from event {bad_from} on ({error}); the rest of "
                    "the log is lost",
                ))
                return


def _claimed(conn: sqlite3.Connection) -> int | None:
    try:
        row = conn.execute("SELECT MAX(seq) FROM events").fetchone()
    except sqlite3.DatabaseError:
        return None
    return row[0] if row and isinstance(row[0], int) else None


# --------------------------------------------------------------------------- the report


def _refusal(path: Path, verdict: str, *, damage: str = "") -> RepairReport:
    return RepairReport(path=str(path), ok=False, verdict=verdict, ledger=False, damage=damage)


def repair_report(
    path: str | Path,
    published_head: str | None = None,
    watch: Callable[[Record], None] | None = None,
) -> RepairReport:
    """Read ``path`` as far as it can be read and say which events can be trusted.

    ``published_head`` (a hash the director announced, or its first hex digits) is looked
    up among the events read.
    ``watch`` is called with every *trusted* record, in order (the command layer uses it to
    name checkpoints and the last trusted event). Never writes to the file.
    """
    target = Path(path)
    if not target.is_file():
        return _refusal(target, f"there is no file at {target}")
    try:
        with open(target, "rb") as fh:
            magic = fh.read(len(_MAGIC))
    except OSError as exc:
        return _refusal(target, f"{target} cannot be read: {exc.strerror}")
    if magic != _MAGIC:
        return _refusal(target, f"{target} is not an SQLite database, so not a goledger ledger: nothing in it "
                        "can be trusted as one")
    damage = ""
    conn: sqlite3.Connection | None = None
    try:
        conn = _open_readonly(target)
        meta_rows = conn.execute("SELECT key, value FROM meta").fetchall()
        conn.execute("SELECT seq FROM events ORDER BY seq LIMIT 1").fetchall()
    except sqlite3.DatabaseError as exc:
        if conn is not None:
            conn.close()
            conn = None
        if "no such table" in str(exc):
            return _refusal(target, f"{target} is an SQLite database of another program, not a goledger ledger")
        first_error = str(exc)
        try:
            conn, damage = _open_patched_copy(target.read_bytes())
            meta_rows = conn.execute("SELECT key, value FROM meta").fetchall()
        except (sqlite3.DatabaseError, struct.error, OSError) as again:
            if conn is not None:
                conn.close()
            return _refusal(
                target, f"{target} is damaged beyond reading ({first_error}): no event in it can be trusted",
                damage=f"SQLite cannot read the file ({again})",
            )
        damage = f"{damage} ({first_error})"
    try:
        return _report(target, conn, meta_rows, damage, published_head, watch)
    finally:
        conn.close()


def _report(
    target: Path,
    conn: sqlite3.Connection,
    meta_rows: list[tuple],
    damage: str,
    published_head: str | None,
    watch: Callable[[Record], None] | None,
) -> RepairReport:
    refusal = _layout_refusal(target, meta_rows)
    if refusal is not None:
        return refusal
    protection = _protection_problem(conn)
    findings: list[EventFinding] = []
    trusted_upto = 0
    trusted_head = GENESIS_HASH
    trusted = True
    prev_stored = GENESIS_HASH
    expected = 1
    read = 0
    stored_head = ""
    published_seq: int | None = None
    for row in _rows(conn, findings):
        read += 1
        seq, type_b, version_v, payload_b, recorded_b, actor_b, reason_b, prev_b, hash_b = row
        type_name, prev_hash, stored = _text(type_b), _text(prev_b), _text(hash_b)
        payload = payload_b if isinstance(payload_b, bytes) else str(payload_b).encode("utf-8")
        stored_head = stored
        if published_head and published_seq is None and stored.startswith(published_head):
            published_seq = seq
        problem: EventFinding | None = None
        if findings and findings[-1].kind == "unreadable" and findings[-1].seq == expected:
            expected, prev_stored = seq, prev_hash  # after an unreadable stretch: nothing to link to
        if seq != expected:
            lost = f"event {expected}" if seq == expected + 1 else f"events {expected}..{seq - 1}"
            problem = EventFinding(expected, "gap", f"{lost} are missing (the log jumps to event {seq})")
        elif prev_hash != prev_stored:
            problem = EventFinding(seq, "unlinked", f"event {seq} ({type_name}) does not link to event {seq - 1} "
                                   "(its prev_hash differs): events were removed, inserted or rewritten")
        else:
            computed = chain_hash(prev_hash, seq, type_name, version_v if isinstance(version_v, int) else -1,
                                  payload, _text(recorded_b), _text(actor_b), _text(reason_b))
            if computed != stored:
                problem = EventFinding(seq, "altered", f"event {seq} ({type_name}) was altered: its content no "
                                       "longer matches its hash")
            else:
                try:
                    decode_event(type_name, version_v, payload)
                except (ValueError, TypeError, msgspec.ValidationError, msgspec.DecodeError) as exc:
                    problem = EventFinding(seq, "undecodable", f"event {seq} ({type_name}) cannot be read by this "
                                           f"goledger: {exc}")
        if problem is not None:
            findings.append(problem)
        if findings:
            trusted = False
        if trusted:
            trusted_upto, trusted_head = seq, stored
            if watch is not None:
                watch(Record(seq, type_name, version_v, payload.decode("utf-8"), _text(recorded_b),
                             _text(actor_b), _text(reason_b), prev_hash, stored))
        prev_stored = stored
        expected = seq + 1

    claimed = _claimed(conn)
    lost_tail = bool(findings) and findings[-1].kind == "unreadable" and findings[-1].seq >= expected
    if claimed is not None and claimed >= expected and not lost_tail:
        findings.append(EventFinding(expected, "unreadable", f"the file's index claims events up to {claimed}, "
                                     f"but nothing from event {expected} on can be read"))
    ok = not findings and not protection and not damage
    notes = _published_notes(published_head, published_seq, trusted_upto)
    verdict = _verdict(target, read, trusted_upto, findings, protection, damage)
    return RepairReport(
        path=str(target), ok=ok, verdict=verdict, ledger=True, damage=damage, events_read=read,
        events_claimed=claimed, trusted_upto=trusted_upto, trusted_head=trusted_head, stored_head=stored_head,
        findings=tuple(findings[:MAX_FINDINGS]), findings_total=len(findings), protection=protection,
        published_head=published_head or "", published_head_seq=published_seq, notes=tuple(notes),
    )


def _layout_refusal(target: Path, meta_rows: list[tuple]) -> RepairReport | None:
    """A refusal when the file is not a goledger ledger this version can judge (another program's
    database, a newer store schema, an unknown layout or hash algorithm); None when it is."""
    meta = {_text(k): _text(v) for k, v in meta_rows}
    if meta.get("format") != STORE_FORMAT:
        return _refusal(target, f"{target} is an SQLite database of another program, not a goledger ledger")
    try:
        version = int(meta.get("store_schema_version", "0"))
    except ValueError:
        version = -1
    if version > STORE_SCHEMA_VERSION:
        return _refusal(
            target, f"{target} was written by a newer goledger (store schema {version}; this one reads up to "
            f"{STORE_SCHEMA_VERSION}): upgrade goledger to judge it",
        )
    if version < 1 or meta.get("hash_algorithm") != HASH_ALGORITHM:
        return _refusal(target, f"{target} has an unknown store layout or hash algorithm "
                        f"({meta.get('hash_algorithm', 'none')!r}); this goledger cannot judge it")
    return None


def _protection_problem(conn: sqlite3.Connection) -> str:
    """What is wrong with the append-only triggers, in one sentence; empty when they are intact."""
    protection = ""
    try:
        missing, altered = protection_problems(conn)
    except sqlite3.DatabaseError as exc:
        missing, altered = (), ()
        protection = f"the triggers cannot be read ({exc})"
    if missing or altered:
        parts = [f"removed: {', '.join(missing)}"] if missing else []
        parts += [f"changed: {', '.join(altered)}"] if altered else []
        protection = (
            f"the append-only triggers were tampered with ({'; '.join(parts)}), so the file was edited outside "
            "goledger; a log rewritten together with its hashes would still verify, so compare the trusted head "
            "with a published head or checkpoint"
        )
    return protection


def _published_notes(published_head: str | None, published_seq: int | None, trusted_upto: int) -> list[str]:
    """Where a published head stands against what was read: nowhere, in the trusted part, or after it."""
    notes: list[str] = []
    if published_head:
        if published_seq is None:
            notes.append(f"the published head {published_head[:16]}… is not the hash of any event read from the "
                         "file: the log was rewritten, or the head comes from another ledger or a lost part")
        elif published_seq <= trusted_upto:
            notes.append(f"the published head is event {published_seq}: events 1..{published_seq} are exactly "
                         "what was published")
        else:
            notes.append(f"the published head is event {published_seq}, after the trusted part: the events up to "
                         "it were stored, but the chain breaks before it")
    return notes


def _verdict(target: Path, read: int, trusted_upto: int, findings: list[EventFinding], protection: str,
             damage: str) -> str:
    if not findings:
        if read == 0 and not damage:
            base = f"{target} holds no event"
        else:
            base = f"all {read} events of {target} can be trusted as stored"
        if damage:
            base = f"events 1..{read} of {target} can be trusted, but {damage.split(' (')[0]}"
        if protection:
            base += ", but its append-only triggers were tampered with: compare its head with a published one"
        return base
    first = findings[0]
    trusted = f"events 1..{trusted_upto} can be trusted" if trusted_upto else "no event can be trusted"
    return f"{trusted}; from event {first.seq} on the log cannot be: {first.detail}"
