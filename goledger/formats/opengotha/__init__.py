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
from goledger.formats.exporting import ExportOutcome, finish_export, state_to_export
from goledger.formats.importing import ImportOutcome, ImportRefused, import_file
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
) -> ImportOutcome:
    """Create a new ledger from an OpenGotha save file, in one transaction.

    ``db`` defaults to ``<file stem>.db`` in the current folder. ``report``, when given,
    receives the import report as JSON — also when the import is refused. With
    ``strict`` any warning refuses the import; unless ``allow_errors``, any error (an
    unresolvable player reference, an unreadable round number) refuses it. A refusal
    raises :class:`~goledger.errors.FormatError` (``ImportRefused`` carries the report)
    and leaves no ledger file behind.
    """
    from goledger.formats.opengotha.read import FILE_KIND, MAX_FILE_BYTES, read_opengotha

    return import_file(file, db, report, format="opengotha", read=lambda data, name: read_opengotha(data, source=name),
                       max_bytes=MAX_FILE_BYTES, kind=FILE_KIND,
                       folder_hint="; to import every file in it use --into DIR", strict=strict,
                       allow_errors=allow_errors, actor=actor, reason=reason, force=force)


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
    each report next to it as ``<stem>.report.json``. Two files with the same stem get
    distinct names (``<stem>-2``…, said in the item's message); nothing is written through
    a symbolic link (``into`` itself or one planted in it), nor over an existing file.

    A file that fails (unreadable, refused, target exists) is listed as ``failed`` with
    the reason; the others go on. ``progress`` is called before (item ``None``) and after
    each file.
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
        try:
            for planted in (db, report_path):
                if planted.is_symlink():
                    raise FormatError(f"{planted} is a symbolic link planted in the folder; nothing is written "
                                      "through it")
            outcome = import_opengotha(file, db, report_path, strict, allow_errors, actor=actor)
        except GoledgerError as exc:
            rep: InterchangeReport | None = getattr(exc, "report", None)
            item = MigrationItem(
                source=str(file), db=str(db), status="failed", message=exc.message + renamed,
                report=str(report_path) if report_path.exists() else "",
                **(_counts(rep) if rep is not None else {}),
            )
        else:
            item = MigrationItem(
                source=str(file), db=outcome.db, status="imported", message=outcome.message + renamed,
                report=str(report_path), **_counts(outcome.report),
            )
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

    data, export_report = write_opengotha(state_to_export(db, upto), source=str(db))
    return finish_export(data, export_report, output, report, db=db, force=force)

