"""``goledger import macmahon``, ``goledger import macmahon-players`` and ``goledger export
macmahon``: thin shells over :mod:`goledger.formats.macmahon` and
:mod:`goledger.formats.macmahon.players` (same names, same arguments)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from goledger.cli.common import ActorOption, DbOption, JsonOption, ReasonOption, default_db
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


def import_macmahon(
    file: Annotated[Path, typer.Argument(help="MacMahon 3.x tournament file (.xml).")],
    db: NewDbOption = None,
    report: ReportOption = None,
    force: ForceOption = False,
    strict: StrictOption = False,
    allow_errors: AllowErrorsOption = False,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Create a new ledger from a MacMahon XML file (default ledger: <file stem>.db). Its
    standings default to the macmahon policy and the file's walllist criteria."""
    from goledger.formats.macmahon import import_macmahon

    run_import(lambda: import_macmahon(file, db, report, strict, allow_errors, force=force),
               as_json=as_json, quiet=quiet)


def import_macmahon_players(
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
    from goledger.formats.macmahon.players import import_macmahon_players

    run_import(lambda: import_macmahon_players(file, db or default_db(), report, strict, allow_errors, force,
                                               actor=actor or "import", reason=reason),
               as_json=as_json, quiet=quiet)


def export_macmahon(
    output: OutputOption = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_of: AsOfOption = None,
    report: ReportOption = None,
    force: ForceOption = False,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Write the ledger as a MacMahon 3.10 XML file."""
    from goledger.formats.macmahon import export_macmahon

    run_export(lambda: export_macmahon(db or default_db(), output, report, as_of, force), as_json=as_json,
               quiet=quiet)
