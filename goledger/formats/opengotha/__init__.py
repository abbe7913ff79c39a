"""OpenGotha XML interchange: the library functions behind ``goledger import opengotha``
and ``goledger export opengotha`` (spec ``formats/opengotha-xml.md``).

* :func:`import_opengotha` — one file → one new ledger, atomically, with a report;
* :func:`migrate_opengotha` — many files (or folders of them) → one ledger each; a file
  that fails never stops the others;
* :func:`export_opengotha` — a ledger → OpenGotha XML bytes (dataVersion 201, UTF-8).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from goledger.errors import FormatError, GoledgerError
from goledger.formats.exporting import ExportOutcome, finish_export, state_to_export
from goledger.formats.importing import ImportOutcome, ImportRefused, import_file
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from goledger.formats.report import InterchangeReport

__all__ = [
    "ExportOutcome",
    "ImportOutcome",
    "ImportRefused",
    "MigrationItem",
    "export_opengotha",
    "import_opengotha",
    "migrate_opengotha",
    "opengotha_sources",
]

PathLike = str | os.PathLike[str]


def import_opengotha(
    file: PathLike,
    db: PathLike | None = None,
    report: PathLike | None = None,
    strict: bool = False,
    allow_errors: bool = False,
    *,
    actor: str = "import",
    reason: str = "",
    force: bool = False,
    report_refusals: bool = False,
) -> ImportOutcome:
    """Create a new ledger from an OpenGotha save file, in one transaction.

    ``db`` defaults to ``<file stem>.db`` in the current folder. ``report``, when given,
    receives the import report as JSON when the ledger is written (a refusal writes it only
    with ``report_refusals``, as a folder migration asks). With
    ``strict`` any warning refuses the import; unless ``allow_errors``, any error (an
    unresolvable player reference, an unreadable round number) refuses it. A refusal
    raises :class:`~goledger.errors.FormatError` (``ImportRefused`` carries the report)
    and leaves no ledger file behind.
    """
    # a format's facade loads only the half (read, write) a function runs
    from goledger.formats.opengotha.read import FILE_KIND, MAX_FILE_BYTES, read_opengotha

    def read(data: bytes, name: str) -> Any:
        result = read_opengotha(data, source=name)
        result.events = [_with_hash(e, data) for e in result.events]
        return result

    return import_file(file, db, report, format="opengotha", read=read,
                       max_bytes=MAX_FILE_BYTES, kind=FILE_KIND,
                       folder_hint="; to import every file in it use --into DIR", strict=strict,
                       allow_errors=allow_errors, actor=actor, reason=reason, force=force,
                       report_refusals=report_refusals)


def _with_hash(event: Any, data: bytes) -> Any:
    """The import's ``SourceImported`` event with the SHA-256 of the file's bytes (how a
    migration knows a ledger is up to date with its source)."""

    if isinstance(event, ev.SourceImported) and not event.sha256:
        return msgspec.structs.replace(event, sha256=hashlib.sha256(data).hexdigest())
    return event


def source_hash(db: PathLike) -> str:
    """The SHA-256 of the file a ledger was imported from (its first ``SourceImported``
    event), ``""`` when it records none."""

    with Ledger.open(db) as ledger:
        for event in ledger.events(upto=3):
            if isinstance(event, ev.SourceImported):
                return event.sha256
    return ""


# --------------------------------------------------------------------------- migration


class MigrationItem(msgspec.Struct, kw_only=True):
    """One file of a migration: its ledger (or why it failed) and its counts."""

    source: str
    db: str
    status: Literal["imported", "replaced", "up-to-date", "outdated", "failed"]
    players: int = 0
    games: int = 0
    byes: int = 0
    warnings: int = 0
    errors: int = 0
    message: str = ""
    report: str = ""


def opengotha_sources(paths: Iterable[PathLike]) -> list[Path]:
    """The files to migrate: each file as given, and the ``*.xml`` files of each folder
    (not recursive, sorted by name)."""
    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            out.extend(sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() == ".xml"))
        else:
            out.append(path)
    return out


def migrate_opengotha(
    sources: Sequence[PathLike],
    into: PathLike,
    strict: bool = False,
    allow_errors: bool = False,
    *,
    progress: Callable[[Path, MigrationItem | None], None] | None = None,
    actor: str = "import",
    force: bool = False,
) -> list[MigrationItem]:
    """Import every file of ``sources`` (files or folders) into ``into/<stem>.db``, writing
    each report next to it as ``<stem>.report.json``. Two files with the same stem get
    distinct names (``<stem>-2``…, said in the item's message); nothing is written through
    a symbolic link (``into`` itself or one planted in it), nor over an existing file.

    A ledger that already exists is ``up-to-date`` when it was imported from the same bytes
    (the SHA-256 its ``SourceImported`` event records) and is left alone; otherwise it is
    ``outdated`` and left alone too, unless ``force``, which replaces it (``replaced``; events
    recorded in it since the import are lost — the old file is kept as ``<stem>.db.bak``
    until the new one is complete). A file that fails (unreadable, refused) is listed as
    ``failed`` with the reason; the others go on. ``progress`` is called before (item
    ``None``) and after each file.
    """
    folder = Path(into)
    if folder.is_symlink():
        raise FormatError(f"--into {folder} is a symbolic link; give the folder itself")
    if folder.exists() and not folder.is_dir():
        raise FormatError(f"--into {folder} is a file, not a folder")
    files = opengotha_sources(sources)
    if not files:
        raise FormatError("no OpenGotha file to migrate (give files, or folders holding *.xml files)")
    folder.mkdir(parents=True, exist_ok=True)
    items: list[MigrationItem] = []
    used: set[str] = set()
    for file in files:
        if progress is not None:
            progress(file, None)
        stem = _distinct_stem(file.stem, used)
        renamed = f" (written as {stem}.db: another file of the archive is named {file.stem})" if stem != file.stem \
            else ""
        db = folder / f"{stem}.db"
        report_path = folder / f"{stem}.report.json"
        backup: Path | None = None
        try:
            for planted in (db, report_path):
                if planted.is_symlink():
                    raise FormatError(f"{planted} is a symbolic link planted in the folder; nothing is written "
                                      "through it")
            if db.exists():
                item = _existing(file, db, report_path, force)
                if item is not None:
                    items.append(item)
                    if progress is not None:
                        progress(file, item)
                    continue
                backup = db.with_name(db.name + ".bak")
                os.replace(db, backup)
            # The folder's <stem>.report.json belongs to this migration: a new or replaced ledger
            # writes its report over the one a failed or older import left.
            outcome = import_opengotha(file, db, report_path, strict, allow_errors, actor=actor, force=True,
                                       report_refusals=True)
        except GoledgerError as exc:
            if backup is not None and not db.exists():
                os.replace(backup, db)
                backup = None
            rep: InterchangeReport | None = getattr(exc, "report", None)
            item = MigrationItem(
                source=str(file), db=str(db), status="failed", message=exc.message + renamed,
                report=str(report_path) if report_path.exists() else "",
                **(_counts(rep) if rep is not None else {}),
            )
        else:
            item = MigrationItem(
                source=str(file), db=outcome.db, status="replaced" if backup is not None else "imported",
                message=outcome.message + renamed, report=str(report_path), **_counts(outcome.report),
            )
            if backup is not None:
                backup.unlink(missing_ok=True)
        items.append(item)
        if progress is not None:
            progress(file, item)
    return items


def _distinct_stem(stem: str, used: set[str]) -> str:
    """``stem``, or ``stem-2``, ``stem-3``… when another file of the archive had it (case
    folded, for case-insensitive file systems); records the one returned in ``used``."""
    candidate, n = stem, 1
    while candidate.casefold() in used:
        n += 1
        candidate = f"{stem}-{n}"
    used.add(candidate.casefold())
    return candidate


def _existing(file: Path, db: Path, report_path: Path, force: bool) -> MigrationItem | None:
    """The item for a source whose ledger exists: up to date, outdated, or ``None`` (with
    ``force``: to be replaced)."""
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise FormatError(f"cannot read {file}: {exc.strerror}") from None
    recorded = source_hash(db)
    if recorded == hashlib.sha256(data).hexdigest():
        counts = _recorded_counts(db)
        return MigrationItem(source=str(file), db=str(db), status="up-to-date", report=str(report_path),
                             message=f"{db.name} is up to date with {file.name} (same SHA-256); left as it is",
                             **counts)
    if force:
        return None
    why = "records no source hash" if not recorded else "was imported from a different version of the file"
    return MigrationItem(source=str(file), db=str(db), status="outdated", report=str(report_path),
                         message=f"{db.name} exists and {why}; --force replaces it", **_recorded_counts(db))


def _recorded_counts(db: Path) -> dict[str, Any]:
    """Players, games and byes as an existing ledger's import summary recorded them."""

    counts: dict[str, Any] = {}
    with Ledger.open(db) as ledger:
        for event in ledger.events(upto=3):
            if isinstance(event, ev.SourceImported):
                s = event.summary
                counts = dict(players=s.get("players", 0), games=s.get("games", 0), byes=s.get("byes", 0))
                break
    report = db.with_name(db.name.removesuffix(".db") + ".report.json")
    try:
        entries = msgspec.json.decode(report.read_bytes()).get("entries", [])
        counts["warnings"] = sum(1 for e in entries if e.get("severity") == "warning")
        counts["errors"] = sum(1 for e in entries if e.get("severity") == "error")
    except (OSError, msgspec.DecodeError, AttributeError):
        pass  # the report is gone or foreign: counts from the ledger alone
    return counts


def _counts(report: InterchangeReport) -> dict[str, Any]:
    def recorded(kind: str) -> int:
        return report.counts.get(kind, {}).get("recorded", 0)

    return dict(
        players=recorded("players"), games=recorded("games"), byes=recorded("byes"),
        warnings=len(report.warnings), errors=len(report.errors),
    )


# --------------------------------------------------------------------------- export


def export_opengotha(
    db: PathLike, output: PathLike | None = None, upto: int | None = None, report: PathLike | None = None,
    force: bool = False,
) -> ExportOutcome:
    """Write the ledger (as of event ``upto``, default the head) as an OpenGotha save file.

    Returns the bytes; with ``output`` they are also written there (atomically: a
    temporary file renamed into place); ``report`` receives the export report as JSON.
    """
    from goledger.formats.opengotha.write import write_opengotha
    from goledger.replay.scoring.units import is_unit_tournament, unit_state

    state = state_to_export(db, upto)
    data, export_report = write_opengotha(unit_state(state), source=str(db))
    if is_unit_tournament(state):
        assert state.settings is not None
        export_report.warning(
            "units", f"OpenGotha has no {state.settings.system} tournament: each unit is written as one player "
            "named after it (first name: its members' surnames), with its rank and rating (the members' "
            "mean), as a McMahon or Swiss tournament; the members' own registrations and sexes are not in the file")
    return finish_export(data, export_report, output, report, db=db, force=force)

