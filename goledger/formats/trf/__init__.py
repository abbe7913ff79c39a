"""FIDE Tournament Report File interchange: the library functions behind
``goledger import trf`` and ``goledger export trf`` (spec ``formats/trf.md``).

* :func:`import_trf` — one TRF → one new ledger, atomically, with a report; every bye,
  forfeit and withdrawal lands in its FIDE category (see :mod:`goledger.formats.trf.read`);
* :func:`export_trf` — a ledger → TRF bytes (see :mod:`goledger.formats.trf.write`).
"""

from __future__ import annotations

import os

from goledger.formats.exporting import ExportOutcome, finish_export, state_to_export
from goledger.formats.importing import ImportOutcome, import_file

__all__ = ["ExportOutcome", "ImportOutcome", "export_trf", "import_trf"]

PathLike = str | os.PathLike[str]


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
    force: bool = False,
) -> ImportOutcome:
    """Create a new ledger from a TRF file (default ledger: ``<file stem>.db``).

    The tournament gets ``policy`` (default ``fide-2024``, what FIDE's TieBreakServer
    computes). ``report`` receives the import report as JSON, also when the import is
    refused; ``strict`` refuses on any warning; errors (asymmetric pairings, unknown
    opponents, impossible result pairs) refuse it unless ``allow_errors``.
    """
    # a format's facade loads only the half (read, write) a function runs
    from goledger.formats.trf.read import MAX_FILE_BYTES, read_trf

    return import_file(file, db, report, format="trf", read=lambda data, name: read_trf(data, name, policy),
                       max_bytes=MAX_FILE_BYTES, kind="TRF files", strict=strict, allow_errors=allow_errors,
                       actor=actor, reason=reason, force=force)


def export_trf(
    db: PathLike,
    output: PathLike | None = None,
    upto: int | None = None,
    policy: str | None = None,
    lossless: bool = False,
    crlf: bool = False,
    ratings: bool = False,
    report: PathLike | None = None,
    force: bool = False,
) -> ExportOutcome:
    """Write the ledger (as of event ``upto``) as a TRF. Points and ranks follow ``policy``
    (default: the tournament's). ``lossless`` writes back records an import kept verbatim;
    ``crlf`` ends lines with CR LF; ``ratings`` writes non-FIDE ratings in the rating column;
    ``report`` receives the export report as JSON."""
    from goledger.formats.trf.write import write_trf

    data, export_report = write_trf(state_to_export(db, upto), policy, lossless, crlf, ratings, source=str(db))
    return finish_export(data, export_report, output, report, db=db, force=force)
