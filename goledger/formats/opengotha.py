"""OpenGotha XML interchange: the library functions behind ``goledger import opengotha``
and ``goledger export opengotha`` (spec ``formats/opengotha-xml.md``).

* :func:`import_opengotha` — one file → one new ledger, atomically, with a report;
* :func:`migrate_opengotha` — many files (or folders of them) → one ledger each; a file
  that fails never stops the others;
* :func:`export_opengotha` — a ledger → OpenGotha XML bytes (dataVersion 201, UTF-8).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

import msgspec

from goledger.errors import FormatError, GoledgerError
from goledger.formats.importing import ImportRefused, default_ledger_path, write_new_ledger
from goledger.formats.report import InterchangeReport

__all__ = [
    "ExportOutcome",
    "ImportOutcome",
    "MigrationItem",
    "export_opengotha",
    "import_opengotha",
    "migrate_opengotha",
    "opengotha_sources",
]

PathLike = str | os.PathLike[str]


class ImportOutcome(msgspec.Struct, kw_only=True):
    """A finished import: where the ledger is, how many events it holds, and the report."""

    db: str
    events: int
    report: InterchangeReport

    @property
    def message(self) -> str:
        counts = self.report.counts
        parts = [f"{counts[k]['recorded']} {k}" for k in ("players", "games", "byes", "teams") if k in counts]
        held = ", ".join(parts) or "parameters only"
        return f"imported {self.report.source} into {self.db}: {held} ({self.events} events)"


def _refusal(source: Path, exc: FormatError) -> InterchangeReport:
    failed = InterchangeReport(format="opengotha", source=str(source))
    failed.error("refused", exc.message)
    return failed


def _write_report(report: InterchangeReport, path: PathLike | None) -> None:
    if path is not None:
        Path(path).write_bytes(report.to_json() + b"\n")


def import_opengotha(
    file: PathLike,
    db: PathLike | None = None,
    report: PathLike | None = None,
    strict: bool = False,
    allow_errors: bool = False,
    *,
    actor: str = "import",
    reason: str = "",
) -> ImportOutcome:
    """Create a new ledger from an OpenGotha save file, in one transaction.

    ``db`` defaults to ``<file stem>.db`` in the current folder. ``report``, when given,
    receives the import report as JSON — also when the import is refused. With
    ``strict`` any warning refuses the import; unless ``allow_errors``, any error (an
    unresolvable player reference, an unreadable round number) refuses it. A refusal
    raises :class:`~goledger.errors.FormatError` (``ImportRefused`` carries the report)
    and leaves no ledger file behind.
    """
    from goledger.formats.opengotha_read import FILE_KIND, MAX_FILE_BYTES, read_opengotha
    from goledger.formats.xmlsafe import check_size

    source = Path(file)
    try:
        if source.is_file():
            check_size(source.stat().st_size, str(source), MAX_FILE_BYTES, FILE_KIND)
        data = source.read_bytes()
    except FileNotFoundError:
        raise FormatError(f"no such file: {source}") from None
    except IsADirectoryError:
        raise FormatError(f"{source} is a folder; to import every file in it use --into DIR") from None
    except OSError as exc:
        raise FormatError(f"cannot read {source}: {exc.strerror}") from None
    except FormatError as exc:
        _write_report(_refusal(source, exc), report)
        raise
    try:
        result = read_opengotha(data, source=str(source))
    except FormatError as exc:
        _write_report(_refusal(source, exc), report)
        raise
    target = Path(db) if db is not None else default_ledger_path(source)
    try:
        records = write_new_ledger(
            result.events, target, result.report, strict=strict, allow_errors=allow_errors, actor=actor,
            reason=reason or f"import opengotha {source.name}",
        )
    except GoledgerError:
        _write_report(result.report, report)
        raise
    _write_report(result.report, report)
    return ImportOutcome(db=str(target), events=len(records), report=result.report)


# --------------------------------------------------------------------------- migration


class MigrationItem(msgspec.Struct, kw_only=True):
    """One file of a migration: its ledger (or why it failed) and its counts."""

    source: str
    db: str
    status: Literal["imported", "failed"]
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
) -> list[MigrationItem]:
    """Import every file of ``sources`` (files or folders) into ``into/<stem>.db``, writing
    each report next to it as ``<stem>.report.json``.

    A file that fails (unreadable, refused, target exists) is listed as ``failed`` with
    the reason; the others go on. ``progress`` is called before (item ``None``) and after
    each file.
    """
    folder = Path(into)
    if folder.exists() and not folder.is_dir():
        raise FormatError(f"--into {folder} is a file, not a folder")
    files = opengotha_sources(sources)
    if not files:
        raise FormatError("no OpenGotha file to migrate (give files, or folders holding *.xml files)")
    folder.mkdir(parents=True, exist_ok=True)
    items: list[MigrationItem] = []
    for file in files:
        if progress is not None:
            progress(file, None)
        db = folder / f"{file.stem}.db"
        report_path = folder / f"{file.stem}.report.json"
        try:
            outcome = import_opengotha(file, db, report_path, strict, allow_errors, actor=actor)
        except GoledgerError as exc:
            rep: InterchangeReport | None = getattr(exc, "report", None)
            item = MigrationItem(
                source=str(file), db=str(db), status="failed", message=exc.message,
                report=str(report_path) if report_path.exists() else "",
                **(_counts(rep) if rep is not None else {}),
            )
        else:
            item = MigrationItem(
                source=str(file), db=outcome.db, status="imported", message=outcome.message,
                report=str(report_path), **_counts(outcome.report),
            )
        items.append(item)
        if progress is not None:
            progress(file, item)
    return items


def _counts(report: InterchangeReport) -> dict[str, Any]:
    def recorded(kind: str) -> int:
        return report.counts.get(kind, {}).get("recorded", 0)

    return dict(
        players=recorded("players"), games=recorded("games"), byes=recorded("byes"),
        warnings=len(report.warnings), errors=len(report.errors),
    )


# --------------------------------------------------------------------------- export


class ExportOutcome(msgspec.Struct, kw_only=True):
    """An export: the XML bytes, where they were written (if anywhere) and the report."""

    data: bytes
    output: str | None
    report: InterchangeReport


def export_opengotha(db: PathLike, output: PathLike | None = None, upto: int | None = None) -> ExportOutcome:
    """Write the ledger (as of event ``upto``, default the head) as an OpenGotha save file.

    Returns the bytes; with ``output`` they are also written there (atomically: a
    temporary file renamed into place).
    """
    from goledger.formats.opengotha_write import write_opengotha
    from goledger.ledger.store import Ledger
    from goledger.replay.load import load_state

    with Ledger.open(db) as ledger:
        state = load_state(ledger, upto=upto)
    if state.settings is None:
        raise FormatError(f"{db} has no tournament to export (its log has no TournamentCreated event)")
    data, report = write_opengotha(state, source=str(db))
    if output is not None:
        target = Path(output)
        if not target.parent.exists():
            raise FormatError(f"cannot write {target}: folder {target.parent} does not exist")
        temp = target.with_name(f".{target.name}.writing-{os.getpid()}")
        try:
            temp.write_bytes(data)
            os.replace(temp, target)
        finally:
            temp.unlink(missing_ok=True)
    return ExportOutcome(data=data, output=None if output is None else str(output), report=report)


__all__ += ["ImportRefused"]
