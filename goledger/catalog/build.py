"""Building and refreshing the federation archive (``goledger catalog build``, issue 22).

:func:`build` reads every ledger it is given (files, or folders searched for ``*.db``), and
writes one row set per tournament into the archive with sqlite-utils: the tables of
:mod:`goledger.catalog.schema`, with the ledger's own standings after every round
(:func:`goledger.replay.scoring.standings.standings`, every criterion of the tournament).

Refresh is incremental: a tournament is keyed by its id (the hash of its first event) and its
chain head. When the archive already holds that tournament at that head (read through a
read-only connection, :func:`goledger.ledger.store.peek_head`), the ledger is not even opened
for reading its events; when the head moved, the tournament's rows are deleted and written again, in one
transaction, and no other tournament's row is touched. Ledgers are only read: the catalog
folds their events itself and never writes a snapshot or a standings cache into them.
"""

from __future__ import annotations

import os
import re
import sqlite3
import unicodedata
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from goledger.catalog.metadata import is_metadata, write_metadata
from goledger.catalog.schema import CHILD_TABLES, INDEXES, TABLES, VIEWS
from goledger.errors import GoledgerError
from goledger.ledger import events as ev
from goledger.ledger.store import STORE_FORMAT, Ledger, peek_head
from goledger.ledger.values import Rank, RankError
from goledger.outputs import LEDGER_COMPANIONS, check_output
from goledger.replay.fold.state import TournamentState, fold
from goledger.replay.scoring.registries import check_registered
from goledger.replay.scoring.standings import standings
from goledger.replay.scoring.units import unit_state

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = ["BuildSummary", "build", "check_targets", "ledger_files", "name_key", "tournament_rows"]

PathLike = str | os.PathLike[str]


class BuildSummary(msgspec.Struct, kw_only=True):
    """What a build did: tournaments in the archive afterwards, how many were (re)written and
    how many were already current, the ledgers that failed (path and reason), and the rows
    written per table."""

    tournaments: int
    refreshed: int
    unchanged: int
    failed: list[dict[str, str]]
    rows_written: dict[str, int]
    archive: str
    metadata: str

    def to_dict(self) -> dict[str, Any]:
        return {"tournaments": self.tournaments, "refreshed": self.refreshed, "unchanged": self.unchanged,
                "failed": self.failed, "rows_written": self.rows_written, "archive": self.archive,
                "metadata": self.metadata}


def name_key(surname: str, first_name: str) -> str:
    """A player's name for linking across tournaments: letters folded to ASCII (anyascii),
    lower case, every run of other characters one space, surname first.

    >>> name_key("Ødegaard", "Zoë"), name_key("O'Brien ", "Seán"), name_key("Łukasz", "")
    ('odegaard zoe', 'o brien sean', 'lukasz')
    """
    # anyascii and sqlite_utils load late: only a catalog build needs them
    from anyascii import anyascii

    text = anyascii(unicodedata.normalize("NFC", f"{surname} {first_name}")).lower()
    return re.sub(r"[^a-z0-9]+", " ", text).strip()


def _resolved(path: Path) -> Path | None:
    """``path`` with every symbolic link resolved, or ``None`` for a link loop."""
    try:
        return path.resolve()
    except (RuntimeError, OSError):  # "Symlink loop" (Python 3.11 raises RuntimeError)
        return None


def ledger_files(sources: Sequence[PathLike], exclude: Path | None = None) -> list[Path]:
    """The ledger files of ``sources``: files as given, folders searched (recursively) for
    ``*.db``, hidden and partial files skipped, each file once, ``exclude`` (the archive) left out.
    A symbolic link loop stays in the list, to be reported as that file's failure."""
    found: list[Path] = []
    seen: set[Path] = set()
    excluded = _resolved(exclude) if exclude is not None else None
    for source in map(Path, sources):
        candidates = sorted(p for p in source.rglob("*.db") if not p.name.startswith(".")) if source.is_dir() \
            else [source]
        for path in candidates:
            resolved = _resolved(path) or Path(os.path.abspath(path))
            if resolved in seen or (excluded is not None and resolved == excluded):
                continue
            seen.add(resolved)
            found.append(path)
    return found


def _is_goledger_ledger(path: Path) -> bool:
    """Whether ``path`` (links followed) is a goledger ledger: an SQLite file whose ``meta``
    table names the ledger format. Read through a read-only, immutable connection."""

    try:
        with open(path, "rb") as fh:
            if fh.read(16) != b"SQLite format 3\x00":
                return False
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    except (OSError, RuntimeError, ValueError, sqlite3.Error):
        return False
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
    except sqlite3.Error:
        return False
    finally:
        conn.close()
    return bool(row) and row[0] == STORE_FORMAT


def _archive_problem(path: Path) -> str | None:
    """Why the existing file ``path`` cannot be refreshed as an archive, or ``None``: an
    archive is an SQLite file holding the archive's ``tournaments`` table (or an empty file),
    never a ledger and never another database."""
    if path.stat().st_size == 0:
        return None
    if _is_goledger_ledger(path):
        return f"{path} is a goledger ledger, not an archive; an archive is never written into a ledger"
    try:
        with open(path, "rb") as fh:
            if fh.read(16) != b"SQLite format 3\x00":
                return f"{path} is not an archive (not an SQLite database); choose another -o file"
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
        try:
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    except (OSError, sqlite3.Error) as exc:
        return f"{path} is not an archive this command can write: {exc}"
    if tables and "tournaments" not in tables:
        return f"{path} is another SQLite database, not an archive; choose another -o file"
    return None


def check_targets(sources: Sequence[PathLike], output: PathLike, metadata: PathLike | None = None) -> tuple[
        Path, Path, bool]:
    """Refuse, before anything is written, an archive or metadata file that would clobber
    what must not be clobbered (:mod:`goledger.outputs`' rules): the archive is not one of the
    input ledgers (by name, link or inode), not a symbolic link, not a ledger anywhere, not
    another file, and its SQLite companions are not links; the metadata file is not the
    archive, an input or a ledger, and an existing one is replaced only when it is a plain
    file holding the metadata this command writes (a planted link is never followed).
    Returns the archive path, the metadata path and whether that file may be replaced."""

    target = Path(output)
    inputs = ledger_files(sources, exclude=target)
    if target.is_symlink():
        raise GoledgerError(f"-o {target} is a symbolic link; the archive is written only to a plain file "
                            "(links are never followed)")
    check_output(target, inputs, force=True, what="archive")
    for suffix in LEDGER_COMPANIONS:
        companion = target.with_name(target.name + suffix)
        if companion.is_symlink():
            raise GoledgerError(f"{companion} is a symbolic link; refusing to let SQLite write through it")
    if target.exists():
        problem = _archive_problem(target)
        if problem:
            raise GoledgerError(problem)
    meta_path = Path(metadata) if metadata is not None else target.parent / "metadata.json"
    check_output(meta_path, [target, *inputs], force=True, what="Datasette metadata")
    replace = False
    if meta_path.is_symlink():
        raise GoledgerError(f"{meta_path} is a symbolic link; the metadata is written only to a plain file "
                            "(links are never followed): remove it or give --metadata")
    if meta_path.exists():
        if not is_metadata(meta_path):
            raise GoledgerError(f"{meta_path} exists and is not a metadata file this command wrote; remove it "
                                "or give --metadata another file")
        replace = True
    return target, meta_path, replace


def _create_archive(target: Path) -> None:
    """Create the empty archive file exclusively (``O_EXCL``, no link followed), so that
    SQLite then opens the very file this command created."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        os.close(os.open(target, flags, 0o666))
    except FileExistsError:
        raise GoledgerError(f"{target} appeared while the archive was being created; run the build again") \
            from None
    except OSError as exc:
        raise GoledgerError(f"cannot create {target}: {exc.strerror}") from None


def _rank_value(text: str) -> int | None:
    try:
        return Rank.parse(text).value
    except RankError:
        return None


def _points_text(value: int, scale: int) -> str:
    """Exact decimal text of ``value / scale`` (scales are 1, 2, 4…: always a finite decimal)."""
    if value % scale == 0:
        return str(value // scale)

    return str(Decimal(value) / Decimal(scale))


def tournament_rows(path: Path, records: Sequence[Any], events: Sequence[ev.Event], state: TournamentState,
                    tid: int = 1, first_player: int = 1) -> dict[str, list[dict[str, Any]]]:
    """Every archive row of one tournament (table → rows), from its ledger's records, events
    and folded state; the tournament gets the archive id ``tid`` and its players the ids
    ``first_player``, ``first_player + 1``… in registration order."""
    settings = state.settings
    if settings is None:
        raise GoledgerError("the ledger holds no tournament yet")
    state = unit_state(state)  # a Pair Go or Rengo tournament's players are its units (docs/pairgo.md)
    ids = {pid: first_player + i for i, pid in enumerate(state.players)}
    key = ids.__getitem__
    corrected = {(e.round, e.table) for e in events if isinstance(e, ev.ResultCorrected)}
    source = next((e for e in events if isinstance(e, ev.SourceImported)), None)
    last = state.last_round_with_games()
    per_round = {r: standings(state, r) for r in range(1, last + 1)}
    final = per_round.get(last)
    final_place = {row.player_id: row.place for row in final.rows} if final else {}
    games_count = sum(len(t) for t in state.games.values())
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in TABLES}
    rows["tournaments"].append({
        "id": tid, "ledger_id": records[0].hash, "name": settings.name, "short_name": settings.short_name,
        "location": settings.location,
        "begin_date": settings.begin_date, "end_date": settings.end_date, "system": settings.system,
        "policy": final.policy if final else settings.policy,
        "criteria": ",".join(final.criteria if final else settings.criteria), "rounds": settings.rounds,
        "rounds_played": last, "board_size": settings.board_size, "internet": int(settings.internet),
        "ledger_path": str(path.resolve()), "head_seq": records[-1].seq, "head_hash": records[-1].hash,
        "source_format": source.format if source else "", "source_file": source.filename if source else "",
        "source_sha256": source.sha256 if source else "", "players": len(state.players), "games": games_count,
        "catalogued_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    })
    for pid, p in state.players.items():
        rows["players"].append({
            "id": key(pid), "tournament_id": tid, "player_id": pid, "name": p.full_name, "surname": p.surname,
            "first_name": p.first_name, "name_key": name_key(p.surname, p.first_name), "rank": p.rank,
            "rank_value": _rank_value(p.rank), "grade": p.grade, "rating": p.rating, "country": p.country.upper(),
            "club": p.club, "egd_pin": p.egd_pin, "status": p.status, "withdrawn_from": p.withdrawn_from,
            "final_place": final_place.get(pid),
        })
        for rnd, points2 in sorted(p.absences.items()):
            rows["absences"].append({"tournament_id": tid, "round": rnd, "player": key(pid), "kind": "absent",
                                     "points2": points2})
        if p.withdrawn_from is not None:
            for rnd in range(p.withdrawn_from, settings.rounds + 1):
                rows["absences"].append({"tournament_id": tid, "round": rnd, "player": key(pid), "kind": "withdrawn",
                                         "points2": None})
    for rnd in sorted(state.games):
        for table, g in sorted(state.games[rnd].items()):
            rows["games"].append({
                "tournament_id": tid, "round": rnd, "table_number": table,
                "white": key(g.white), "black": key(g.black), "handicap": g.handicap, "komi": g.komi,
                "result": g.result.value, "by_default": int(g.by_default), "corrected": int((rnd, table) in corrected),
                "color_known": int(g.color_known),
            })
    for rnd in sorted(state.byes):
        for pid, points2 in sorted(state.byes[rnd].items()):
            rows["byes"].append({"tournament_id": tid, "round": rnd, "player": key(pid), "points2": points2})
    for rnd, ranked in per_round.items():
        for row in ranked.rows:
            for position, criterion in enumerate(ranked.criteria):
                value, scale = row.values[criterion], ranked.scales[criterion]
                rows["standings"].append({
                    "tournament_id": tid, "round": rnd,
                    "final": int(rnd == last), "player": key(row.player_id), "place": row.place,
                    "criterion": criterion, "position": position, "value": value, "scale": scale,
                    "text": _points_text(value, scale),
                })
    for r in records:
        rows["events"].append({"tournament_id": tid, "seq": r.seq, "type": r.type,
                               "recorded_at": r.recorded_at, "actor": r.actor, "reason": r.reason, "hash": r.hash})
    return rows


def _ensure_schema(db: Any) -> None:
    """Create what is missing: tables, indexes, the full-text index on names, views."""
    existing = set(db.table_names())
    for name, spec in TABLES.items():
        if name not in existing:
            db[name].create(spec["columns"], pk=spec.get("pk"), foreign_keys=spec.get("foreign_keys", ()))
    for table, columns, unique in INDEXES:
        db[table].create_index(columns, unique=unique, if_not_exists=True)
    if "players_fts" not in existing:
        db["players"].enable_fts(["name", "name_key", "club"], create_triggers=True)
    views = {row[0]: row[1] for row in db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'view'")}
    for name, sql in VIEWS.items():
        if views.get(name) != f'CREATE VIEW "{name}" AS {sql.strip()}':
            db.create_view(name, sql.strip(), replace=True)


def _heads(db: Any) -> dict[str, tuple[str, str, int]]:
    """Ledger id → (head hash, ledger path, archive id) of every catalogued tournament."""
    return {row[0]: (row[1], row[2], row[3])
            for row in db.execute("SELECT ledger_id, head_hash, ledger_path, id FROM tournaments")}


def build(sources: Sequence[PathLike], output: PathLike, metadata: PathLike | None = None,
          progress: Callable[[Path, bool], None] | None = None) -> BuildSummary:
    """Build or refresh the archive ``output`` from the ledgers of ``sources`` (files or
    folders), and write the Datasette ``metadata`` file (default: ``metadata.json`` beside the
    archive). ``progress(path, done)`` is called before and after each ledger."""
    import sqlite_utils


    target = Path(output)
    if target.exists() and target.is_dir():
        raise GoledgerError(f"-o {target} is a folder, not an archive file")
    if not target.parent.exists():
        raise GoledgerError(f"cannot write {target}: folder {target.parent} does not exist")
    target, meta_path, replace_metadata = check_targets(sources, target, metadata)
    files = ledger_files(sources, exclude=target)
    created = not target.exists()
    if created:
        _create_archive(target)
    db: Any = None
    try:
        db = sqlite_utils.Database(target)
        db.execute("PRAGMA foreign_keys=ON")
        with db.atomic():
            _ensure_schema(db)
    except sqlite3.DatabaseError as exc:
        if created:  # a new archive that could not be written (a full disk): nothing is left behind
            if db is not None:
                db.close()
            for leftover in (target, *(Path(f"{target}{suffix}") for suffix in ("-wal", "-shm", "-journal"))):
                leftover.unlink(missing_ok=True)
            raise GoledgerError(f"cannot create the archive {target}: {exc}; nothing was written") from None
        raise GoledgerError(f"{target} is not an archive this command can write: {exc}") from None
    heads = _heads(db)
    refreshed = unchanged = 0
    failed: list[dict[str, str]] = []
    written = {name: 0 for name in TABLES}
    taken: dict[str, Path] = {}
    for path in files:
        if progress is not None:
            progress(path, False)
        try:
            outcome = _catalogue(db, path, heads, taken, written)
        except (GoledgerError, sqlite3.DatabaseError, OSError) as exc:
            failed.append({"path": str(path), "error": getattr(exc, "message", None) or str(exc)})
        else:
            if outcome:
                refreshed += 1
            else:
                unchanged += 1
        if progress is not None:
            progress(path, True)
    total = db.execute("SELECT COUNT(*) FROM tournaments").fetchone()[0]
    db.close()
    write_metadata(meta_path, target, protect=[target, *files], replace=replace_metadata)
    return BuildSummary(tournaments=total, refreshed=refreshed, unchanged=unchanged, failed=failed,
                        rows_written=written, archive=str(target), metadata=str(meta_path))


def _catalogue(db: Any, path: Path, heads: dict[str, tuple[str, str, int]],
               taken: dict[str, Path], written: dict[str, int]) -> bool:
    """Write one ledger's rows unless the archive holds its head already; ``True`` when written."""
    if path.is_symlink() and _resolved(path) is None:
        raise GoledgerError(f"{path} is a symbolic link loop (it never reaches a file)")
    if not path.is_file():
        raise GoledgerError(f"{path} is not a file")
    peeked = peek_head(path)
    if peeked is not None and peeked[0] not in taken:
        known = heads.get(peeked[0])
        if known is not None and known[0] == peeked[1].hash and known[1] == str(path.resolve()):
            taken[peeked[0]] = path
            return False  # the archive holds this head: nothing to read
    with Ledger.open(path) as ledger:
        head = ledger.head()
        if head.seq == 0:
            raise GoledgerError(f"{path} holds no events")
        ledger_id = next(iter(ledger.records(0, 1))).hash
        if ledger_id in taken:
            raise GoledgerError(f"{path} is the same tournament as {taken[ledger_id]} (a copy of one ledger?); "
                                "catalogued once")
        taken[ledger_id] = path
        known = heads.get(ledger_id)
        if known is not None and known[0] == head.hash and known[1] == str(path.resolve()):
            return False
        records = list(ledger.records())
        events = ledger.events()
    state = fold(events, check=check_registered)
    with db.atomic():
        if known is not None:
            tid = known[2]
            for name in CHILD_TABLES:
                db.execute(f"DELETE FROM [{name}] WHERE tournament_id = ?", (tid,))
            db.execute("DELETE FROM tournaments WHERE id = ?", (tid,))
        else:
            tid = db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM tournaments").fetchone()[0]
        first_player = db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM players").fetchone()[0]
        rows = tournament_rows(path, records, events, state, tid, first_player)
        for name in ("tournaments", *reversed(CHILD_TABLES)):
            if rows[name]:
                db[name].insert_all(rows[name], batch_size=2000)
                written[name] += len(rows[name])
    heads[ledger_id] = (head.hash, str(path.resolve()), tid)
    return True
