"""FIDE Tournament Report File interchange: the library functions behind
``goledger import trf`` and ``goledger export trf`` (spec ``formats/trf.md``).

* :func:`import_trf` — one TRF → one new ledger, atomically, with a report; every bye,
  forfeit and withdrawal lands in its FIDE category (see :mod:`goledger.formats.trf_read`);
* :func:`export_trf` — a ledger → TRF bytes (see :mod:`goledger.formats.trf_write`).
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

from goledger.errors import FormatError, GoledgerError
from goledger.formats.importing import default_ledger_path, write_new_ledger
from goledger.formats.report import InterchangeReport

__all__ = ["ExportOutcome", "ImportOutcome", "export_trf", "import_trf"]

PathLike = str | os.PathLike[str]


class ImportOutcome(msgspec.Struct, kw_only=True):
    db: str
    events: int
    report: InterchangeReport

    @property
    def message(self) -> str:
        counts = self.report.counts
        kinds = ("players", "games", "forfeits", "byes", "full-point byes", "half-point byes", "zero-point byes",
                 "withdrawals", "announced byes")
        parts = [f"{counts[k]['recorded']} {k}" for k in kinds if k in counts and counts[k]["recorded"]]
        return f"imported {self.report.source} into {self.db}: {', '.join(parts)} ({self.events} events)"


class ExportOutcome(msgspec.Struct, kw_only=True):
    data: bytes
    output: str | None
    report: InterchangeReport


def _write_report(report: InterchangeReport, path: PathLike | None) -> None:
    if path is not None:
        Path(path).write_bytes(report.to_json() + b"\n")


def import_trf(
    file: PathLike,
    db: PathLike | None = None,
    report: PathLike | None = None,
    strict: bool = False,
    allow_errors: bool = False,
    policy: str = "fide-2024",
    *,
    actor: str = "import",
    reason: str = "",
) -> ImportOutcome:
    """Create a new ledger from a TRF file (default ledger: ``<file stem>.db``).

    The tournament gets ``policy`` (default ``fide-2024``, what FIDE's TieBreakServer
    computes). ``report`` receives the import report as JSON, also when the import is
    refused; ``strict`` refuses on any warning; errors (asymmetric pairings, unknown
    opponents, impossible result pairs) refuse it unless ``allow_errors``.
    """
    from goledger.formats.trf_read import MAX_FILE_BYTES, read_trf

    source = Path(file)
    try:
        size = source.stat().st_size
        if size > MAX_FILE_BYTES:
            raise FormatError(f"{source} is {size} bytes; a TRF file is refused above {MAX_FILE_BYTES} bytes")
        data = source.read_bytes()
    except FileNotFoundError:
        raise FormatError(f"no such file: {source}") from None
    except IsADirectoryError:
        raise FormatError(f"{source} is a folder, not a TRF file") from None
    except OSError as exc:
        raise FormatError(f"cannot read {source}: {exc.strerror}") from None
    try:
        result = read_trf(data, str(source), policy)
    except FormatError as exc:
        failed = InterchangeReport(format="trf", source=str(source))
        failed.error("refused", exc.message)
        _write_report(failed, report)
        raise
    target = Path(db) if db is not None else default_ledger_path(source)
    try:
        records = write_new_ledger(result.events, target, result.report, strict=strict, allow_errors=allow_errors,
                                   actor=actor, reason=reason or f"import trf {source.name}")
    except GoledgerError:
        _write_report(result.report, report)
        raise
    _write_report(result.report, report)
    return ImportOutcome(db=str(target), events=len(records), report=result.report)


def export_trf(
    db: PathLike,
    output: PathLike | None = None,
    upto: int | None = None,
    policy: str | None = None,
    lossless: bool = False,
    crlf: bool = False,
    ratings: bool = False,
) -> ExportOutcome:
    """Write the ledger (as of event ``upto``) as a TRF. Points and ranks follow ``policy``
    (default: the tournament's). ``lossless`` writes back records an import kept verbatim;
    ``crlf`` ends lines with CR LF; ``ratings`` writes non-FIDE ratings in the rating column."""
    from goledger.formats.trf_write import write_trf
    from goledger.ledger.store import Ledger
    from goledger.replay.load import load_state

    with Ledger.open(db) as ledger:
        state = load_state(ledger, upto=upto)
    if state.settings is None:
        raise FormatError(f"{db} has no tournament to export (its log has no TournamentCreated event)")
    data, report = write_trf(state, policy, lossless, crlf, ratings, source=str(db))
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
