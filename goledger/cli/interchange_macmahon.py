"""``goledger import macmahon``, ``goledger import macmahon-players`` and ``goledger export
macmahon``: thin shells over :mod:`goledger.formats.macmahon` and
:mod:`goledger.formats.macmahon_players` (same names, same arguments)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from goledger.cli.common import (
    ActorOption,
    DbOption,
    JsonOption,
    ReasonOption,
    default_db,
    echo,
    errors_as_exit,
    print_json,
)

ReportOption = Annotated[Path | None, typer.Option("--report", help="Write the report as JSON to this file.")]
StrictOption = Annotated[bool, typer.Option("--strict", help="Refuse the import on any warning.")]
AllowErrorsOption = Annotated[
    bool, typer.Option("--allow-errors", help="Write the ledger even if some items could not be mapped.")
]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="Print only the summary line.")]


def _print_report(report: object, stream: object = None) -> None:
    from goledger.cli.interchange_opengotha import print_report

    print_report(report, stream=stream)


def register_import(import_app: typer.Typer) -> None:
    @import_app.command("macmahon")
    def import_macmahon_cmd(
        file: Annotated[Path, typer.Argument(help="MacMahon 3.x tournament file (.xml).")],
        db: DbOption = None,  # type: ignore[assignment]
        report: ReportOption = None,
        strict: StrictOption = False,
        allow_errors: AllowErrorsOption = False,
        quiet: QuietOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """Create a new ledger from a MacMahon XML file (default ledger: <file stem>.db). Its
        standings default to the macmahon policy and the file's walllist criteria."""
        from goledger.formats.importing import ImportRefused
        from goledger.formats.macmahon import import_macmahon

        with errors_as_exit():
            try:
                outcome = import_macmahon(file, db, report, strict, allow_errors)
            except ImportRefused as exc:
                if not as_json and not quiet:
                    _print_report(exc.report, stream=sys.stderr)
                raise
        if as_json:
            print_json({"db": outcome.db, "events": outcome.events, "report": outcome.report.to_dict()})
            return
        if not quiet:
            _print_report(outcome.report)
        echo(outcome.message)

    @import_app.command("macmahon-players")
    def import_macmahon_players_cmd(
        file: Annotated[Path, typer.Argument(help="Participant list: surname|first name|strength|country|club|"
                                                  "rating|EGD PIN|f or p|round flags, UTF-8.")],
        db: DbOption = None,  # type: ignore[assignment]
        report: ReportOption = None,
        strict: StrictOption = False,
        allow_errors: Annotated[
            bool, typer.Option("--allow-errors", help="Register the readable lines even if some lines are invalid.")
        ] = False,
        force: Annotated[bool, typer.Option("--force", help="Register namesakes of registered players.")] = False,
        actor: ActorOption = "import",
        reason: ReasonOption = "",
        quiet: QuietOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """Register the players of a MacMahon participant list in an existing ledger (one
        transaction; already registered players are skipped)."""
        from goledger.formats.importing import ImportRefused
        from goledger.formats.macmahon_players import import_macmahon_players

        with errors_as_exit():
            try:
                outcome = import_macmahon_players(file, db or default_db(), report, strict, allow_errors, force,
                                                  actor=actor or "import", reason=reason)
            except ImportRefused as exc:
                if not as_json and not quiet:
                    _print_report(exc.report, stream=sys.stderr)
                raise
        if as_json:
            print_json({"db": outcome.db, "events": len(outcome.records), "report": outcome.report.to_dict()})
            return
        if not quiet:
            _print_report(outcome.report)
        echo(outcome.message)


def register_export(export_app: typer.Typer) -> None:
    @export_app.command("macmahon")
    def export_macmahon_cmd(
        output: Annotated[
            Path | None, typer.Option("--output", "-o", help="Write to this file (default: standard output).")
        ] = None,
        db: DbOption = None,  # type: ignore[assignment]
        as_of: Annotated[int | None, typer.Option("--as-of", help="As of this event sequence number.")] = None,
        report: ReportOption = None,
        quiet: QuietOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """Write the ledger as a MacMahon 3.10 XML file."""
        from goledger.formats.macmahon import export_macmahon

        with errors_as_exit():
            outcome = export_macmahon(db or default_db(), output, report, as_of)
        if output is None:
            sys.stdout.buffer.write(outcome.data)
            sys.stdout.flush()
            if not quiet:
                _print_report(outcome.report, stream=sys.stderr)
            return
        if as_json:
            print_json({"output": outcome.output, "report": outcome.report.to_dict()})
            return
        if not quiet:
            _print_report(outcome.report)
        echo(outcome.message)


def register_commands(app: typer.Typer) -> None:
    """No top-level commands: this module only adds ``import``/``export`` subcommands."""
