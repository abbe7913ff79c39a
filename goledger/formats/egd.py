"""The EGD result format: library functions behind ``goledger export|validate|import egd``.

* :func:`export_egd` — a ledger's results as an EGD table (``goledger export egd``);
* :func:`validate_egd` — every rule of the format checked, problem by problem, with line
  numbers (``goledger validate egd``);
* :func:`import_egd` — a new ledger rebuilt from an EGD table (``goledger import egd``).

The parts live in small modules: :mod:`~goledger.formats.egd_syntax` (lines, tags, cells),
:mod:`~goledger.formats.egd_validate`, :mod:`~goledger.formats.egd_read`,
:mod:`~goledger.formats.egd_write` and :mod:`~goledger.formats.egd_class` (EGF class).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import msgspec

from goledger.errors import FormatError
from goledger.formats.report import InterchangeReport

if TYPE_CHECKING:
    from goledger.formats.egd_validate import ValidationResult

ForfeitMode = Literal["free", "marked"]

__all__ = ["ExportResult", "ImportResult", "export_egd", "import_egd", "validate_egd"]

PathLike = str | os.PathLike[str]

MAX_EGD_BYTES = 16 * 1024 * 1024
"""EGD tables are small (EGC 2011: 114 KB); anything far larger is not one."""


class ExportResult(msgspec.Struct, frozen=True):
    """The bytes written (also to ``output`` when given) and the export report."""

    data: bytes
    report: InterchangeReport


class ImportResult(msgspec.Struct, frozen=True):
    """The ledger created, how many events it holds, and the import report."""

    db: str
    events: int
    report: InterchangeReport


def _read_file(path: PathLike) -> bytes:
    file = Path(path)
    if not file.is_file():
        raise FormatError(f"{file} does not exist or is not a file")
    if file.stat().st_size > MAX_EGD_BYTES:
        raise FormatError(f"{file} is larger than {MAX_EGD_BYTES // (1024 * 1024)} MB: not an EGD result table")
    return file.read_bytes()


def _write_report(report: InterchangeReport, path: PathLike | None) -> None:
    if path is not None:
        Path(path).write_bytes(report.to_json() + b"\n")


def export_egd(
    db: PathLike,
    output: PathLike | None = None,
    round: int | None = None,  # noqa: A002 - the CLI option is --round
    encoding: str = "utf-8",
    forfeits: ForfeitMode = "free",
    egd_class: str | None = None,
    country: str | None = None,
    report: PathLike | None = None,
) -> ExportResult:
    """Write the ledger ``db`` as an EGD table (to ``output`` if given) and its export report
    (as JSON to ``report`` if given). See :mod:`goledger.formats.egd_write` for the rules."""
    from goledger.formats.egd_write import write_egd
    from goledger.replay.views import state_as_of

    state = state_as_of(db)
    data, export_report = write_egd(state, round, encoding, forfeits, egd_class, country, source=str(db))
    if output is not None:
        target = Path(output)
        temp = target.with_name(f".{target.name}.writing-{os.getpid()}")
        temp.write_bytes(data)
        os.replace(temp, target)
    _write_report(export_report, report)
    return ExportResult(data, export_report)


def validate_egd(file: PathLike) -> ValidationResult:
    """Check an EGD table against every rule of the format (see
    :mod:`goledger.formats.egd_validate` for the rules and problem codes)."""
    from goledger.formats.egd_syntax import decode_egd, parse_table
    from goledger.formats.egd_validate import validate_table

    text, encoding, _bom = decode_egd(_read_file(file))
    return validate_table(parse_table(text, str(file), encoding))


def import_egd(
    file: PathLike,
    db: PathLike | None = None,
    report: PathLike | None = None,
    strict: bool = False,
) -> ImportResult:
    """Create a new ledger (default ``<file stem>.db``) from an EGD table, all or nothing.

    The import report goes to ``report`` (JSON) when given, whether the import succeeds or
    is refused (an error in the report refuses it; with ``strict`` a warning too)."""
    from goledger.formats.egd_read import read_egd
    from goledger.formats.importing import ImportRefused, default_ledger_path, write_new_ledger

    data = _read_file(file)
    events, import_report = read_egd(data, str(file))
    target = Path(db) if db is not None else default_ledger_path(file)
    try:
        records = write_new_ledger(events, target, import_report, strict=strict)
    except ImportRefused:
        _write_report(import_report, report)
        raise
    _write_report(import_report, report)
    return ImportResult(str(target), len(records), import_report)
