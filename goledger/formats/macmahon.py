"""MacMahon interchange: the library functions behind ``goledger import macmahon``,
``goledger export macmahon`` and ``goledger import macmahon-players``
(spec ``formats/macmahon.md``).

* :func:`import_macmahon` — a MacMahon 3.x XML file → a new ledger, atomically, with a report
  (the ledger's default policy is ``macmahon`` with the file's own walllist criteria);
* :func:`export_macmahon` — a ledger → a MacMahon 3.10 XML file, with a report;
* :func:`import_macmahon_players` — MacMahon's plain participant list → registrations
  appended to an existing ledger (see :mod:`goledger.formats.macmahon_players`).
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

from goledger.errors import FormatError, GoledgerError
from goledger.formats.importing import default_ledger_path, write_new_ledger
from goledger.formats.report import InterchangeReport

__all__ = ["ExportOutcome", "ImportOutcome", "export_macmahon", "import_macmahon", "read_source"]

PathLike = str | os.PathLike[str]


class ImportOutcome(msgspec.Struct, kw_only=True):
    """A finished import: where the ledger is, how many events it holds, and the report."""

    db: str
    events: int
    report: InterchangeReport

    @property
    def message(self) -> str:
        counts = self.report.counts
        parts = [f"{counts[k]['recorded']} {k}" for k in ("players", "games", "byes", "absences") if k in counts]
        return f"imported {self.report.source} into {self.db}: " + ", ".join(parts) + f" ({self.events} events)"


class ExportOutcome(msgspec.Struct, kw_only=True):
    """A finished export: the bytes (also written to ``output`` when given) and the report."""

    data: bytes
    output: str | None
    report: InterchangeReport

    @property
    def message(self) -> str:
        counts = self.report.counts
        parts = [f"{counts[k]['recorded']} {k}" for k in ("players", "games", "byes") if k in counts]
        where = self.output or "standard output"
        return f"exported {', '.join(parts)} to {where} (MacMahon 3.10 XML)"


def write_report(report: InterchangeReport, path: PathLike | None) -> None:
    """Write a report as JSON when a path is given."""
    if path is not None:
        Path(path).write_bytes(report.to_json() + b"\n")


def read_source(file: PathLike) -> bytes:
    """The bytes of an input file, or a ``FormatError`` naming why they cannot be read."""
    source = Path(file)
    try:
        return source.read_bytes()
    except FileNotFoundError:
        raise FormatError(f"no such file: {source}") from None
    except IsADirectoryError:
        raise FormatError(f"{source} is a folder, not a file") from None
    except OSError as exc:
        raise FormatError(f"cannot read {source}: {exc.strerror}") from None


def import_macmahon(
    file: PathLike,
    db: PathLike | None = None,
    report: PathLike | None = None,
    strict: bool = False,
    allow_errors: bool = False,
    *,
    actor: str = "import",
    reason: str = "",
) -> ImportOutcome:
    """Create a new ledger from a MacMahon XML file, in one transaction.

    ``db`` defaults to ``<file stem>.db`` in the current folder. ``report``, when given,
    receives the import report as JSON — also when the import is refused. With ``strict``
    any warning refuses the import; unless ``allow_errors``, any error (an unknown
    participant Id, a participant without level…) refuses it. Nothing is written then.
    """
    from goledger.formats.macmahon_read import read_macmahon

    source = Path(file)
    data = read_source(source)
    try:
        result = read_macmahon(data, source=str(source))
    except FormatError as exc:
        failed = InterchangeReport(format="macmahon", source=str(source))
        failed.error("refused", exc.message)
        write_report(failed, report)
        raise
    target = Path(db) if db is not None else default_ledger_path(source)
    try:
        records = write_new_ledger(
            result.events, target, result.report, strict=strict, allow_errors=allow_errors, actor=actor,
            reason=reason or f"import macmahon {source.name}",
        )
    except GoledgerError:
        write_report(result.report, report)
        raise
    write_report(result.report, report)
    return ImportOutcome(db=str(target), events=len(records), report=result.report)


def export_macmahon(
    db: PathLike,
    output: PathLike | None = None,
    report: PathLike | None = None,
    as_of: int | None = None,
) -> ExportOutcome:
    """Write the ledger (as of event ``as_of``) as a MacMahon 3.10 XML file.

    Returns the bytes; writes them to ``output`` when given (atomically: a temporary file
    renamed into place). ``report`` receives the export report as JSON.
    """
    from goledger.formats.macmahon_write import write_macmahon
    from goledger.replay.views import state_as_of

    state = state_as_of(db, as_of)
    data, rep = write_macmahon(state, source=str(db))
    write_report(rep, report)
    if output is not None:
        target = Path(output)
        temp = target.with_name(f".{target.name}.exporting-{os.getpid()}")
        try:
            temp.write_bytes(data)
            os.replace(temp, target)
        except OSError as exc:
            temp.unlink(missing_ok=True)
            raise FormatError(f"cannot write {target}: {exc.strerror}") from None
    return ExportOutcome(data=data, output=str(output) if output is not None else None, report=rep)
