"""``goledger import trf`` and ``goledger export trf``: thin shells over
:mod:`goledger.formats.trf` (same names, same arguments)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from goledger.cli.common import DbOption, JsonOption, default_db, echo, errors_as_exit, print_json
from goledger.cli.interchange_opengotha import print_report


def register_import(import_app: typer.Typer) -> None:
    @import_app.command("trf")
    def import_trf_cmd(
        path: Annotated[Path, typer.Argument(help="FIDE Tournament Report File (TRF-16, TRF(x), TRF-2026).")],
        db: DbOption = None,  # type: ignore[assignment]
        policy: Annotated[str, typer.Option(help="Rule policy of the new tournament.")] = "fide-2024",
        report: Annotated[
            Path | None, typer.Option("--report", help="Write the import report as JSON to this file.")
        ] = None,
        strict: Annotated[bool, typer.Option("--strict", help="Refuse the import on any warning.")] = False,
        allow_errors: Annotated[
            bool, typer.Option("--allow-errors", help="Write the ledger even if some items could not be mapped.")
        ] = False,
        quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the summary line.")] = False,
        as_json: JsonOption = False,
    ) -> None:
        """Create a new ledger from a TRF file (default ledger: <file stem>.db)."""
        from goledger.formats.importing import ImportRefused
        from goledger.formats.trf import import_trf

        with errors_as_exit():
            try:
                outcome = import_trf(path, db, report, strict, allow_errors, policy)
            except ImportRefused as exc:
                if not as_json and not quiet:
                    print_report(exc.report, stream=sys.stderr)
                raise
        if as_json:
            print_json({"db": outcome.db, "events": outcome.events, "report": outcome.report.to_dict()})
            return
        if not quiet:
            print_report(outcome.report)
        echo(outcome.message)


def register_export(export_app: typer.Typer) -> None:
    @export_app.command("trf")
    def export_trf_cmd(
        db: DbOption = None,  # type: ignore[assignment]
        output: Annotated[
            Path | None, typer.Option("--output", "-o", help="Write to this file (default: standard output).")
        ] = None,
        upto: Annotated[int | None, typer.Option("--as-of", help="Export the ledger as of this event.")] = None,
        policy: Annotated[str | None, typer.Option(help="Policy for points and ranks (default: the tournament's).")]
        = None,
        lossless: Annotated[bool, typer.Option("--lossless", help="Write back records an import kept verbatim.")]
        = False,
        crlf: Annotated[bool, typer.Option("--crlf", help="End lines with CR LF.")] = False,
        ratings: Annotated[bool, typer.Option("--ratings", help="Write non-FIDE ratings in the rating column.")]
        = False,
        report: Annotated[
            Path | None, typer.Option("--report", help="Write the export report as JSON to this file.")
        ] = None,
    ) -> None:
        """Write the ledger as a FIDE Tournament Report File (UTF-8)."""
        from goledger.formats.trf import export_trf

        with errors_as_exit():
            outcome = export_trf(db or default_db(), output, upto, policy, lossless, crlf, ratings)
        if report is not None:
            report.write_bytes(outcome.report.to_json() + b"\n")
        if output is None:
            sys.stdout.buffer.write(outcome.data)
            sys.stdout.flush()
            if outcome.report.entries:
                print_report(outcome.report, stream=sys.stderr)
        else:
            if outcome.report.entries:
                print_report(outcome.report)
            echo(f"wrote {output} ({len(outcome.data)} bytes)")


def register_commands(app: typer.Typer) -> None:
    """No top-level commands: this module only adds ``import``/``export`` subcommands."""
