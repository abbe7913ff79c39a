"""The ratings store: one SQLite file per machine holding the current list of each source
(issue 34, point 1).

Where: ``--ratings PATH``, else ``$GOLEDGER_RATINGS``, else ``ratings.db`` in the user data
directory (``platformdirs.user_data_path("goledger")``: ``~/.local/share/goledger`` on
Linux). The file is a plain SQLite database whose tables are laid out exactly as sqlite-utils
lays them out (a test checks it), so sqlite-utils and Datasette read it as any database; like
the ledger store, it is written with the standard ``sqlite3`` module: importing sqlite-utils
costs 90 ms of CPU even without numpy, more than a tenth of a whole ``ratings import``
(whose target is ten times a loop that only splits the file's lines).

Tables:

* ``lists``: one row per imported list (source, date, SHA-256, player count, the unparsed
  lines as JSON, file name, time of import), ``current`` = 1 for the list searches use;
* ``players``: the list's players (``list`` = the list's id), with ``name_key``, the folded
  words of the name (:func:`goledger.ratings.names.name_key`);
* ``players_fts``: an FTS5 index of ``name_key`` (external content: the ``players`` rows);
* ``vocab``: the distinct folded words of the current list by length, for the typo search.

Replacing a list is atomic: one transaction deletes the old list's rows, writes the new ones,
makes the new list current and rebuilds the full-text index. A reader sees the old list or
the new one, never half of one (SQLite's WAL mode gives every read transaction one snapshot,
and the old list stays readable until the commit). Re-importing the list already
current (same source, same SHA-256) writes nothing; a list older than the current one is
refused.
"""

from __future__ import annotations

import datetime
import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from goledger.errors import CommandRejected
from goledger.i18n import N_
from goledger.i18n.messages import say, say_at
from goledger.ratings.model import DuplicatePin, ListInfo, ListRef, ParsedList, RatedPlayer, Unparsed
from goledger.ratings.names import collapse, name_key, tokens

__all__ = [
    "ENV_VAR",
    "ImportOutcome",
    "Match",
    "RatingsStore",
    "SearchResult",
    "check_not_a_ledger",
    "default_path",
    "drop_list",
    "import_json",
    "info_json",
    "list_info",
    "match_json",
    "ratings_path",
    "save_list",
    "search",
    "search_json",
]

ENV_VAR: Final = "GOLEDGER_RATINGS"
_SCHEMA_VERSION: Final = 1

PathLike = str | os.PathLike[str]


def default_path() -> Path:
    """``$GOLEDGER_RATINGS``, else ``ratings.db`` in the user data directory."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env)
    # platformdirs loads late: only the default folder needs it
    import platformdirs

    return platformdirs.user_data_path("goledger", appauthor=False) / "ratings.db"


def ratings_path(path: PathLike | None) -> Path:
    """The store's path: ``path`` when given, else :func:`default_path`."""
    return Path(path) if path else default_path()


@dataclass(frozen=True, slots=True, kw_only=True)
class ImportOutcome:
    """What ``ratings import`` did: ``imported`` (first list of its source), ``replaced``
    (a newer list took the place of ``previous``) or ``unchanged`` (the same file again)."""

    status: Literal["imported", "replaced", "unchanged"]
    info: ListInfo
    path: str
    previous: ListRef | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Match:
    """One search result: the list's player and how close his name is (100: exact)."""

    player: RatedPlayer
    score: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchResult:
    ref: ListRef
    matches: list[Match]




def _now() -> str:
    return datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


_SCHEMA: Final = (
    'CREATE TABLE "lists" (\n   "id" INTEGER PRIMARY KEY,\n   "source" TEXT,\n   "date" TEXT,\n   "sha256" TEXT,\n'
    '   "players" INTEGER,\n   "unparsed" TEXT,\n   "file" TEXT,\n   "imported_at" TEXT,\n   "current" INTEGER\n)',
    'CREATE INDEX "idx_lists_source_current"\n    ON "lists" ("source", "current")',
    'CREATE TABLE "players" (\n   "id" INTEGER PRIMARY KEY,\n   "list" INTEGER,\n   "pin" TEXT,\n   "surname" TEXT,\n'
    '   "first_name" TEXT,\n   "country" TEXT,\n   "club" TEXT,\n   "grade" TEXT,\n   "promotion" TEXT,\n'
    '   "gor" INTEGER,\n   "nt" INTEGER,\n   "last_tournament" TEXT,\n   "last_date" TEXT,\n   "line" INTEGER,\n'
    '   "name_key" TEXT\n)',
    'CREATE INDEX "idx_players_list_pin"\n    ON "players" ("list", "pin")',
    'CREATE TABLE "vocab" (\n   "list" INTEGER,\n   "length" INTEGER,\n   "tokens" TEXT,\n'
    '   PRIMARY KEY ("list", "length")\n)',
    "CREATE VIRTUAL TABLE players_fts USING fts5(name_key, content='players', content_rowid='id', "
    "tokenize='unicode61 remove_diacritics 0', detail=column, columnsize=0)",
)
"""The tables, exactly as sqlite-utils lays them out (``tests/ratings/test_ratings.py`` checks it
against ``sqlite_utils.Database.create_table``), and the full-text index: term and prefix
queries only, so no word positions (``detail=column``) and no column sizes."""


def _create_schema(conn: sqlite3.Connection) -> None:
    """The tables, unless the store has them."""
    have = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    if "lists" in have:
        return
    conn.execute("BEGIN IMMEDIATE")
    for statement in _SCHEMA:
        conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {_SCHEMA_VERSION}")
    conn.execute("COMMIT")


def _key(name: str) -> str:
    """:func:`~goledger.ratings.names.name_key`, at once for the usual ASCII list entry."""
    if name.isascii() and name.replace(" ", "").isalnum():
        return name.lower().strip()
    return name_key(name)


def _vocab_rows(list_id: int, keys: list[str]) -> list[dict[str, Any]]:
    """The distinct words by length (``length`` -1 holds the words :func:`collapse`
    changes, as ``collapsed:word`` pairs)."""
    words = set(" ".join(keys).split())
    by_len: dict[int, list[str]] = {}
    for w in words:
        by_len.setdefault(len(w), []).append(w)
    rows = [{"list": list_id, "length": n, "tokens": " ".join(sorted(ws))} for n, ws in sorted(by_len.items())]
    pairs = sorted(f"{collapse(w)}:{w}" for w in words if ("ae" in w or "oe" in w or "ue" in w))
    rows.append({"list": list_id, "length": -1, "tokens": " ".join(pairs)})
    return rows


_OWN_TABLES: Final = frozenset({"lists", "players", "vocab", "players_fts", "players_fts_data", "players_fts_idx",
                                 "players_fts_docsize", "players_fts_config", "players_fts_content",
                                 "sqlite_stat1", "sqlite_stat4", "sqlite_sequence"})
"""The tables a ratings store holds: a file with any other table is not one (a ledger has
``meta`` and ``events``), and nothing is written into it."""

_COMPANIONS: Final = ("-wal", "-shm", "-journal")


def _same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file: by name, through a symbolic link, or as one
    inode (a hard link): ``st_dev`` and ``st_ino``."""
    try:
        sa, sb = a.stat(), b.stat()
    except (OSError, RuntimeError):
        return os.path.abspath(a) == os.path.abspath(b)
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def _is_ledger(path: Path) -> bool:
    """Whether ``path`` is a goledger ledger by its content (a ``meta`` and an ``events``
    table), opened read-only."""
    try:
        with open(path, "rb") as fh:
            if fh.read(16) != b"SQLite format 3\x00":
                return False
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except (OSError, sqlite3.Error):
        return False
    try:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error:
        return False
    finally:
        conn.close()
    return {"meta", "events"} <= names


def check_not_a_ledger(target: Path) -> None:
    """Refuse, in one sentence, to write a ratings store at ``target`` when it is a ledger or
    a ledger's SQLite companion, however named: the ledger named by ``$GOLEDGER_DB`` (the same
    file by name, link or inode), a file that is a ledger by content (through any symbolic or
    hard link: ``--ratings``, ``$GOLEDGER_RATINGS``, a ``ratings.db`` link in the data folder),
    or the ``-wal``/``-shm``/``-journal`` of one."""
    ledger = os.environ.get("GOLEDGER_DB")
    if ledger:
        for name in (ledger, *(ledger + suffix for suffix in _COMPANIONS)):
            if _same_file(target, Path(name)):
                raise CommandRejected(say("%(target)s is the ledger %(ledger)s (or one of its files), not a ratings "
                                          "store; nothing was written", target=str(target), ledger=ledger))
    if _is_ledger(target):
        raise CommandRejected(say("%(target)s is a goledger ledger, not a ratings store; nothing was written",
                                  target=str(target)))
    for suffix in _COMPANIONS:
        if target.name.endswith(suffix):
            base = target.with_name(target.name[:-len(suffix)])
            if _is_ledger(base):
                raise CommandRejected(say("%(target)s is a file SQLite keeps beside the ledger %(base)s, not a "
                                          "ratings store; nothing was written", target=str(target), base=str(base)))


def _check_tables(conn: sqlite3.Connection, target: Path) -> None:
    """Refuse a file (as opened: whatever link led there) holding a table a ratings store
    has not, before anything is written into it."""
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if {"meta", "events"} <= names:
        raise CommandRejected(say("%(target)s is a goledger ledger, not a ratings store; nothing was written",
                                  target=str(target)))
    if names - _OWN_TABLES:
        raise CommandRejected(say("%(target)s is another SQLite database (it holds the table %(table)r), not a "
                                  "ratings store; nothing was written", target=str(target),
                                  table=sorted(names - _OWN_TABLES)[0]))


def _open_for_writing(target: Path) -> sqlite3.Connection:
    """A connection to the store at ``target``, checked not to be a ledger or another
    database (:func:`check_not_a_ledger`, then the tables of the file as opened) before any
    write, a pragma included."""
    check_not_a_ledger(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(target, isolation_level=None)
    except (OSError, sqlite3.Error) as exc:
        raise CommandRejected(say("cannot write the ratings store %(target)s: %(error)s", target=str(target),
                                  error=str(exc))) from None
    try:
        _check_tables(conn, target)
    except sqlite3.Error as exc:
        conn.close()
        raise CommandRejected(say("%(target)s is not a ratings store (%(error)s); nothing was written",
                                  target=str(target), error=str(exc))) from None
    except CommandRejected:
        conn.close()
        raise
    return conn


def save_list(parsed: ParsedList, file_name: str, path: PathLike | None = None, replace: bool = False) -> ImportOutcome:
    """Store ``parsed`` as the current list of its source (module docstring: no-op, atomic
    replacement, refusal of an older list unless ``replace``). The store is never a ledger
    (:func:`check_not_a_ledger`)."""

    target = ratings_path(path)
    ref = parsed.ref
    conn = _open_for_writing(target)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA busy_timeout=10000")
        conn.execute("PRAGMA synchronous=NORMAL")  # a copy of a public file: WAL's safe, cheaper sync
        _create_schema(conn)
        row = conn.execute("SELECT id, date, sha256 FROM lists WHERE source = ? AND current = 1",
                           (ref.source,)).fetchone()
        previous = ListRef(source=ref.source, date=row[1], sha256=row[2]) if row else None
        if previous is not None and previous.sha256 == ref.sha256:
            return ImportOutcome(status="unchanged", info=_info(conn, ref.source), path=str(target), previous=previous)
        if previous is not None and previous.date > ref.date and not replace:
            raise CommandRejected(say_at(
                "the store already holds a newer %(source)s list (%(held)s) than this one (%(date)s); nothing was "
                "imported (give --replace to put this one in its place, or 'goledger ratings drop --source "
                "%(source)s' first)",
                N_("the store already holds a newer %(source)s list (%(held)s) than this one (%(date)s); nothing "
                   "was imported"), source=ref.source, held=previous.date, date=ref.date))
        keys = [_key(f"{r[1]} {r[2]}") for r in parsed.rows]
        # One transaction: a reader sees the old list until the commit, then the new one.
        conn.execute("BEGIN IMMEDIATE")
        old = [r[0] for r in conn.execute("SELECT id FROM lists WHERE source = ?", (ref.source,))]
        conn.execute('DROP INDEX "idx_players_list_pin"')  # built once after the rows: twice as fast
        for old_id in old:
            conn.execute("DELETE FROM players WHERE list = ?", (old_id,))
            conn.execute("DELETE FROM vocab WHERE list = ?", (old_id,))
            conn.execute("DELETE FROM lists WHERE id = ?", (old_id,))
        cursor = conn.execute(
            "INSERT INTO lists (source, date, sha256, players, unparsed, file, imported_at, current) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, 1)",
            (ref.source, ref.date, ref.sha256, len(parsed.rows),
             json.dumps(_unparsed_record(parsed), ensure_ascii=False), file_name, _now()))
        list_id = int(cursor.lastrowid or 0)
        conn.executemany(
            "INSERT INTO players (list, pin, surname, first_name, country, club, grade, promotion, gor, nt, "
            "last_tournament, last_date, line, name_key) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [(list_id, *row, key) for row, key in zip(parsed.rows, keys, strict=True)])
        conn.executemany("INSERT INTO vocab (list, length, tokens) VALUES (:list, :length, :tokens)",
                         _vocab_rows(list_id, keys))
        conn.execute(_SCHEMA[3])  # the index again
        conn.execute("INSERT INTO players_fts(players_fts) VALUES ('rebuild')")
        conn.execute("COMMIT")
        return ImportOutcome(status="replaced" if previous else "imported", info=_info(conn, ref.source),
                             path=str(target), previous=previous)
    except sqlite3.Error as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise CommandRejected(say("cannot write the ratings store %(target)s: %(error)s", target=str(target),
                                  error=str(exc))) from None
    finally:
        conn.close()


def _unparsed_record(parsed: ParsedList) -> dict[str, Any]:
    """What ``lists.unparsed`` holds: the unparsed lines kept, how many there are, and the
    duplicate PINs (a store written before issue 41 holds the list of lines alone)."""
    return {"lines": parsed.unparsed_lines or len(parsed.unparsed), "kept": unparsed_json(parsed.unparsed),
            "duplicate_pins": [{"pin": d.pin, "lines": list(d.lines)} for d in parsed.duplicate_pins]}


def _info(conn: sqlite3.Connection, source: str) -> ListInfo:
    row = conn.execute("SELECT source, date, sha256, players, unparsed, file, imported_at FROM lists "
                       "WHERE source = ? AND current = 1", (source,)).fetchone()
    if row is None:
        raise CommandRejected(say("the ratings store holds no %(source)s list; import one with "
                                  "'goledger ratings import FILE --source %(source)s'", source=source))
    record = json.loads(row[4])
    if isinstance(record, list):  # written before issue 41
        record = {"lines": len(record), "kept": record, "duplicate_pins": []}
    return ListInfo(ref=ListRef(source=row[0], date=row[1], sha256=row[2]), players=row[3],
                    unparsed=[Unparsed(line=u["line"], text=u["text"], why=u["why"]) for u in record["kept"]],
                    file=row[5], imported_at=row[6], unparsed_lines=int(record["lines"]),
                    duplicate_pins=tuple(DuplicatePin(pin=d["pin"], lines=tuple(d["lines"]))
                                         for d in record["duplicate_pins"]))


def drop_list(source: str = "egd", path: PathLike | None = None) -> ListInfo:
    """``goledger ratings drop``: remove the current list of ``source`` from the store (one
    transaction: its players, words and row), returning what it was; refuses a store holding
    no such list, and a path that is not a ratings store (:func:`check_not_a_ledger`)."""
    target = ratings_path(path)
    if not target.is_file():
        raise CommandRejected(say("no ratings store at %(target)s; nothing to drop", target=str(target)))
    conn = _open_for_writing(target)
    try:
        conn.execute("PRAGMA busy_timeout=10000")
        if "lists" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}:
            raise CommandRejected(say("the ratings store %(target)s holds no %(source)s list; nothing was dropped",
                                      target=str(target), source=source))
        conn.execute("BEGIN IMMEDIATE")
        try:
            info = _info(conn, source)
        except CommandRejected:
            raise CommandRejected(say("the ratings store %(target)s holds no %(source)s list; nothing was dropped",
                                      target=str(target), source=source)) from None
        for (old_id,) in conn.execute("SELECT id FROM lists WHERE source = ?", (source,)).fetchall():
            conn.execute("DELETE FROM players WHERE list = ?", (old_id,))
            conn.execute("DELETE FROM vocab WHERE list = ?", (old_id,))
            conn.execute("DELETE FROM lists WHERE id = ?", (old_id,))
        conn.execute("INSERT INTO players_fts(players_fts) VALUES ('rebuild')")
        conn.execute("COMMIT")
        return info
    except sqlite3.Error as exc:
        raise CommandRejected(say("cannot write the ratings store %(target)s: %(error)s", target=str(target),
                                  error=str(exc))) from None
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        conn.close()


_COLUMNS: Final = ("pin, surname, first_name, country, club, grade, promotion, gor, nt, last_tournament, "
                   "last_date, line, name_key")

# scoring (see RatingsStore.search)
_PREFIX, _TYPO, _MISSING, _EXTRA = 5, 10, 30, 2


def _player_of(row: tuple[Any, ...]) -> RatedPlayer:
    return RatedPlayer(pin=row[0], surname=row[1], first_name=row[2], country=row[3], club=row[4], grade=row[5],
                       promotion=row[6], gor=row[7], nt=row[8], last_tournament=row[9], last_date=row[10],
                       line=row[11])


_LETTERS: Final = "abcdefghijklmnopqrstuvwxyz0123456789"
"""What a folded word is made of (:func:`goledger.ratings.names.tokens`)."""


def _one_edit(word: str) -> set[str]:
    """Every spelling at optimal-string-alignment distance at most 1 from ``word``: itself,
    one letter deleted, two neighbours swapped, one letter replaced or inserted.

    >>> sorted(w for w in _one_edit("kovacs") if w in {"kovac", "kovasc", "kovaks", "kovacsz", "kovacs", "vokacs"})
    ['kovac', 'kovacs', 'kovacsz', 'kovaks', 'kovasc']
    """
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    out = {word}
    out.update(a + b[1:] for a, b in splits if b)
    out.update(a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1)
    out.update(a + c + b[1:] for a, b in splits if b for c in _LETTERS)
    out.update(a + c + b for a, b in splits for c in _LETTERS)
    return out


class _Vocabulary:
    """The distinct words of one list, by length, and the German collapse pairs. Each
    length's words are split into a list only when a search asks for that length: a search
    from the command line reads the three or four lengths it needs, not the list's 40 000
    words (splitting them all cost more than the search itself)."""

    def __init__(self, rows: list[tuple[int, str]]) -> None:
        self._text: dict[int, str] = {}
        self._split: dict[int, frozenset[str]] = {}
        self.collapsed: dict[str, list[str]] = {}
        for length, text in rows:
            if length == -1:
                for pair in text.split():
                    c, _, w = pair.partition(":")
                    self.collapsed.setdefault(c, []).append(w)
            else:
                self._text[length] = text

    def of_length(self, n: int) -> frozenset[str]:
        """The list's words of ``n`` letters."""
        found = self._split.get(n)
        if found is None:
            found = self._split[n] = frozenset(self._text.get(n, "").split())
        return found

    def has(self, word: str) -> bool:
        return word in self.of_length(len(word))

    def same(self, word: str) -> dict[str, int]:
        """The list's words spelled as ``word`` (up to accents and German ``ae``/``ä``/``a``),
        each at cost 0."""
        found: dict[str, int] = {}
        if self.has(word):
            found[word] = 0
        folded = collapse(word)
        if folded != word and self.has(folded):
            found[folded] = 0
        for w in self.collapsed.get(folded, ()):
            found[w] = 0
        return found

    def typos(self, word: str) -> dict[str, int]:
        """The list's words one typo from ``word`` (a letter missing, added or wrong, or two
        neighbours swapped: the optimal-string-alignment distance 1), for words of 3 letters
        or more, each at cost :data:`_TYPO`. Every spelling one edit away is made and looked
        up among the list's words of its length (some 40 per letter of ``word``, each a set
        lookup), so no list word is compared letter by letter and no library is loaded."""
        found: dict[str, int] = {}
        if len(word) >= 3:
            for candidate in _one_edit(word):
                if self.has(candidate):
                    found[candidate] = _TYPO
        return found


class RatingsStore:
    """A read connection to the store (``sqlite3``, read-only). Keeps each list's vocabulary
    once loaded, so repeated searches (the desk) cost only their own queries."""

    def __init__(self, path: PathLike | None = None) -> None:
        self.path = ratings_path(path)
        if not self.path.is_file():
            raise CommandRejected(say("no ratings store at %(target)s; import a list first with "
                                      "'goledger ratings import FILE'", target=str(self.path)))
        try:
            self._conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None,
                                         check_same_thread=False)
            self._conn.execute("PRAGMA busy_timeout=10000")
        except sqlite3.Error as exc:
            raise CommandRejected(say("cannot read the ratings store %(target)s: %(error)s", target=str(self.path),
                                      error=str(exc))) from None
        self._vocab: dict[int, _Vocabulary] = {}

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> RatingsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _current(self, source: str) -> tuple[int, ListRef]:
        try:
            row = self._conn.execute("SELECT id, source, date, sha256 FROM lists WHERE source = ? AND current = 1",
                                     (source,)).fetchone()
        except sqlite3.Error as exc:
            raise CommandRejected(say("%(target)s is not a ratings store (%(error)s)", target=str(self.path),
                                      error=str(exc))) from None
        if row is None:
            raise CommandRejected(say("the ratings store %(target)s holds no %(source)s list; import one with "
                                      "'goledger ratings import FILE --source %(source)s'", target=str(self.path),
                                      source=source))
        return row[0], ListRef(source=row[1], date=row[2], sha256=row[3])

    def info(self, source: str = "egd") -> ListInfo:
        """The current list of ``source``: date, SHA-256, players, unparsed lines."""
        return _info(self._conn, source)

    def sources(self) -> list[str]:
        try:
            return [r[0] for r in self._conn.execute("SELECT source FROM lists WHERE current = 1 ORDER BY source")]
        except sqlite3.Error as exc:
            raise CommandRejected(say("%(target)s is not a ratings store (%(error)s)", target=str(self.path),
                                      error=str(exc))) from None

    def lookup(self, pin: str, source: str = "egd") -> tuple[ListRef, RatedPlayer | None]:
        """The current list and the player with this PIN in it (``None``: not in the list)."""
        self._conn.execute("BEGIN")
        try:
            list_id, ref = self._current(source)
            rows = self._conn.execute(f"SELECT {_COLUMNS} FROM players WHERE list = ? AND pin = ? ORDER BY line",
                                      (list_id, pin)).fetchall()
        finally:
            self._conn.execute("COMMIT")
        if len(rows) > 1:
            lines = [str(r[11]) for r in rows]
            raise CommandRejected(say_at(
                "PIN %(pin)s is on %(count)d lines of the %(source)s list of %(date)s (lines %(lines)s and %(last)s: "
                "%(names)s); the list cannot say who he is, so give the names, rank and rating without --egd-pin, "
                "or ask the EGD",
                N_("PIN %(pin)s is on %(count)d lines of the %(source)s list of %(date)s (lines %(lines)s and "
                   "%(last)s: %(names)s); the list cannot say who he is, so give the names, rank and rating without "
                   "the EGD PIN, or ask the EGD"), pin=pin, count=len(rows), source=ref.source, date=ref.date,
                lines=", ".join(lines[:-1]), last=lines[-1], names=" / ".join(_player_of(r).full_name for r in rows)))
        return ref, (_player_of(rows[0]) if rows else None)

    def search(self, query: str, limit: int = 10, country: str | None = None, source: str = "egd",
               prefix: bool = True) -> SearchResult:
        """The list's players whose name is closest to ``query``, best first.

        The query's words are folded (:mod:`goledger.ratings.names`) and taken in any order
        (``Barkin Celebican``, ``Celebican, Barkin``). Each word is looked up as spelled
        (:meth:`_Vocabulary.same`; with ``prefix`` the last one also as the beginning of a
        word, for search as you type); the full-text index gives the players having a word
        of every lookup (of any, when no one has all). When a word is no word of the list or
        nobody has them all, the words one typo away are added (:meth:`_Vocabulary.typos`)
        and the index asked again. A player's score is 100 less 30 per query word he lacks,
        10 per typo, 5 per word only begun and 2 per word of his name the query does not
        say; a word of one letter beside others is an initial (``Duman M.``, ``Tara S``: any
        word of the name it begins, at the cost of a word only begun); ties are ordered by the
        words spelled exactly as said, the rarity of the words matched among the candidates
        (a surname few have before a common first name),
        closeness in length, then the most recent last appearance first, so homonyms come
        together, the active one first."""
        words = tokens(query)
        if limit < 1 or not words:
            return SearchResult(ref=self._current(source)[1], matches=[])
        self._conn.execute("BEGIN")
        try:
            list_id, ref = self._current(source)
            if len(words) == 1 and len(words[0]) == 8 and words[0].isdigit():
                row = self._conn.execute(f"SELECT {_COLUMNS} FROM players WHERE list = ? AND pin = ?",
                                         (list_id, words[0])).fetchone()
                return SearchResult(ref=ref, matches=[Match(player=_player_of(row), score=100)] if row else [])
            vocab = self._vocab.get(list_id)
            if vocab is None:
                vocab = _Vocabulary(list(self._conn.execute("SELECT length, tokens FROM vocab WHERE list = ?",
                                                            (list_id,))))
                self._vocab = {list_id: vocab}
            typing = prefix and not query[-1:].isspace() and query.rstrip()[-1:] not in (",", ".")
            args: tuple[Any, ...] = (list_id, country.upper()) if country else (list_id,)
            expansions = [vocab.same(w) for w in words]
            begun = _begun(words, typing)
            # no OR of the words yet: a player lacking a word scores at most 70, which asks for
            # the typo step below anyway, and that asks the index again
            matches = _ranked(words, expansions, self._candidates(words, expansions, begun, args, any_word=False),
                              begun, limit)
            if not matches or matches[0].score < 100 - _MISSING + 1 or any(not e for e in expansions):
                # a word no entry has as said: one typo away, then
                for w, found in zip(words, expansions, strict=True):
                    found.update({t: c for t, c in vocab.typos(w).items() if t not in found})
                matches = _ranked(words, expansions, self._candidates(words, expansions, begun, args), begun,
                                  limit)
        finally:
            self._conn.execute("COMMIT")
        return SearchResult(ref=ref, matches=matches)

    def _candidates(self, words: list[str], expansions: list[dict[str, int]], begun: frozenset[int],
                    args: tuple[Any, ...], any_word: bool = True) -> list[tuple[Any, ...]]:
        """The rows having a word of every expansion (with ``any_word``, of any when no row
        has all); a word in ``begun`` also as the beginning of a word."""
        groups = []
        for i, (w, found) in enumerate(zip(words, expansions, strict=True)):
            terms = [f'"{t}"' for t in sorted(found)]
            if i in begun:
                terms.append(f'"{w}"*')
            if terms:
                groups.append("(" + " OR ".join(terms) + ")")
        if not groups:
            return []
        # the index first (CROSS JOIN fixes the order): never a scan of the list
        sql = (f"SELECT {', '.join('p.' + c.strip() for c in _COLUMNS.split(','))} FROM players_fts "
               "CROSS JOIN players p ON p.id = players_fts.rowid WHERE players_fts MATCH ? AND p.list = ?"
               + (" AND p.country = ?" if len(args) > 1 else "") + " LIMIT 5000")
        rows = self._conn.execute(sql, (" AND ".join(groups), *args)).fetchall()
        if not rows and len(groups) > 1 and any_word:
            rows = self._conn.execute(sql, (" OR ".join(groups), *args)).fetchall()
        return rows


def _begun(words: list[str], typing: bool) -> frozenset[int]:
    """The query words that may be only the beginning of a name's word: the last one while
    typing (two letters or more), and every initial, a single letter beside other words."""
    begun = {i for i, w in enumerate(words) if len(w) == 1 and w.isalpha() and len(words) > 1}
    if typing and len(words[-1]) >= 2:
        begun.add(len(words) - 1)
    return frozenset(begun)


def _ranked(words: list[str], expansions: list[dict[str, int]], rows: list[tuple[Any, ...]], begun: frozenset[int],
            limit: int) -> list[Match]:
    """Score and order candidate rows (:meth:`RatingsStore.search`)."""
    said = set(words)
    length = len(" ".join(words))
    scored: list[tuple[int, tuple[int, int], str, str, tuple[Any, ...]]] = []
    matched: list[list[int]] = []
    for row in rows:
        entry = row[12].split()
        used = [False] * len(entry)
        penalty = 0
        hits = []
        for i, (w, found) in enumerate(zip(words, expansions, strict=True)):
            best, at = _MISSING, -1
            for j, e in enumerate(entry):
                if used[j]:
                    continue
                cost = found.get(e)
                if cost is None and i in begun and e.startswith(w):
                    cost = _PREFIX
                if cost is not None and cost < best:
                    best, at = cost, j
                    if cost == 0:
                        break
            if at >= 0:
                used[at] = True
                hits.append(i)
            penalty += best
        penalty += _EXTRA * used.count(False)
        closeness = (len(said.intersection(entry)), -abs(len(row[12]) - length))  # spelled as said, then length
        scored.append((max(0, 100 - penalty), closeness, row[10], row[0], row))
        matched.append(hits)
    # A word few candidates have says more than a common one (Kovacs more than Peter).
    often = [0] * len(words)
    for hits in matched:
        for i in hits:
            often[i] += 1
    rarity = [sum(1 / often[i] for i in hits) for hits in matched]
    order = sorted(range(len(scored)), key=lambda k: (-scored[k][0], -scored[k][1][0], -rarity[k],
                                                      -scored[k][1][1], _negated(scored[k][2]), scored[k][3]))
    return [Match(player=_player_of(scored[k][4]), score=scored[k][0]) for k in order[:limit]]


def _negated(date: str) -> str:
    """A sort key ordering ISO dates newest first (no date last)."""
    return "".join(chr(0x7F - ord(c)) for c in date) if date else "\x7f"


# --------------------------------------------------------------------------- library entry points

MAX_QUERY: Final = 200
"""The longest query read (a name said at the desk is far shorter)."""


def list_info(ratings: PathLike | None = None, source: str = "egd") -> ListInfo:
    """``goledger ratings info``: the current list of ``source`` in the store."""
    with RatingsStore(ratings) as store:
        return store.info(source)


def search(query: str, limit: int = 10, country: str | None = None, ratings: PathLike | None = None,
           source: str = "egd") -> SearchResult:
    """``goledger ratings search``: :meth:`RatingsStore.search` with its arguments checked."""
    if len(query) > MAX_QUERY:
        raise CommandRejected(say("the query is %(length)d characters long; at most %(most)d are read",
                                  length=len(query), most=MAX_QUERY))
    if not 1 <= limit <= 1000:
        raise CommandRejected(say("--limit %(limit)d is outside 1..1000", limit=limit))
    if country is not None and not (len(country) == 2 and country.isascii() and country.isalpha()):
        raise CommandRejected(say("country %(country)r must be a two-letter code such as TR", country=country[:20]))
    with RatingsStore(ratings) as store:
        return store.search(query, limit, country, source)


def ref_json(ref: ListRef) -> dict[str, Any]:
    return {"source": ref.source, "date": ref.date, "sha256": ref.sha256}


def match_json(match: Match) -> dict[str, Any]:
    p = match.player
    return {"pin": p.pin, "surname": p.surname, "first_name": p.first_name, "country": p.country, "club": p.club,
            "grade": p.grade, "gor": p.gor, "last_tournament": p.last_tournament, "score": match.score}


def search_json(result: SearchResult) -> dict[str, Any]:
    """The JSON of a search (the CLI's ``--json`` and the desk's ``/api/ratings/search``)."""
    return {"list": ref_json(result.ref), "matches": [match_json(m) for m in result.matches]}


def unparsed_json(unparsed: list[Unparsed]) -> list[dict[str, Any]]:
    return [{"line": u.line, "text": u.text, "why": u.why} for u in unparsed]


def duplicates_json(info: ListInfo) -> list[dict[str, Any]]:
    return [{"pin": d.pin, "lines": list(d.lines)} for d in info.duplicate_pins]


def import_json(outcome: ImportOutcome) -> dict[str, Any]:
    """``ratings import --json``: the list's identity, its player count, the unparsed lines
    kept and their count, and the duplicate PINs."""
    info = outcome.info
    return {**ref_json(info.ref), "players": info.players, "unparsed": unparsed_json(info.unparsed),
            "status": outcome.status, "store": outcome.path, "unparsed_lines": info.unparsed_lines,
            "duplicate_pins": duplicates_json(info)}


def info_json(info: ListInfo, path: str) -> dict[str, Any]:
    return {**ref_json(info.ref), "players": info.players, "unparsed": info.unparsed_lines, "file": info.file,
            "imported_at": info.imported_at, "store": path, "unparsed_lines": info.unparsed_lines,
            "duplicate_pins": duplicates_json(info)}
