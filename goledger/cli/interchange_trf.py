"""``goledger import trf`` and ``goledger export trf``: thin shells over
:mod:`goledger.formats.trf` (same names, same arguments)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from goledger.cli.common import DbOption, JsonOption, default_db
from goledger.cli.interchange import (
    AllowErrorsOption,
    AsOfOption,
    ForceOption,
    NewDbOption,
    OutputOption,
    QuietOption,
    ReportOption,
    StrictOption,
    run_export,
    run_import,
)


def import_trf(
    path: Annotated[Path, typer.Argument(help="FIDE Tournament Report File (TRF-16, TRF(x), TRF-2026).")],
    db: NewDbOption = None,
    policy: Annotated[str, typer.Option(help="Rule policy of the new tournament.")] = "fide-2024",
    report: ReportOption = None,
    force: ForceOption = False,
    strict: StrictOption = False,
    allow_errors: AllowErrorsOption = False,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Create a new ledger from a TRF file (default ledger: <file stem>.db)."""
    from goledger.formats.trf import import_trf

    run_import(lambda: import_trf(path, db, report, strict, allow_errors, policy, force=force),
               as_json=as_json, quiet=quiet)


def export_trf(
    db: DbOption = None,  # type: ignore[assignment]
    output: OutputOption = None,
    upto: AsOfOption = None,
    policy: Annotated[str | None, typer.Option(help="Policy for points and ranks (default: the tournament's).")]
    = None,
    lossless: Annotated[bool, typer.Option("--lossless", help="Write back records an import kept verbatim.")]
    = False,
    crlf: Annotated[bool, typer.Option("--crlf", help="End lines with CR LF.")] = False,
    ratings: Annotated[bool, typer.Option("--ratings", help="Write non-FIDE ratings in the rating column.")]
    = False,
    report: ReportOption = None,
    force: ForceOption = False,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Write the ledger as a FIDE Tournament Report File (UTF-8)."""
    from goledger.formats.trf import export_trf

    run_export(lambda: export_trf(db or default_db(), output, upto, policy, lossless, crlf, ratings, report, force),
               as_json=as_json, quiet=quiet)
