"""``goledger import ffg``, ``goledger export ffg`` and ``goledger export aga``: thin shells over
:mod:`goledger.formats.ffg` and :mod:`goledger.formats.aga` (same names, same arguments), and
``validate ffg`` and ``validate aga`` (the table of commands puts them in the ``validate`` group)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from goledger.cli.common import DbOption, JsonOption, default_db
from goledger.cli.interchange import (
    AllowErrorsOption,
    ForceOption,
    NewDbOption,
    OutputOption,
    QuietOption,
    ReportOption,
    StrictOption,
    run_export,
    run_import,
    show_validation,
)


def validate_ffg(
    file: Annotated[Path, typer.Argument(help="FFG results file (.tou).")],
    as_json: JsonOption = False,
) -> None:
    """Check an FFG .tou file before sending it: every problem with its line number.
    Exits 1 on an error (warnings alone exit 0)."""
    from goledger.formats import ffg

    show_validation(ffg.validate_ffg(file), as_json=as_json)


def validate_aga(
    file: Annotated[Path, typer.Argument(help="AGA rating report (TOURNEY / PLAYERS / GAMES).")],
    as_json: JsonOption = False,
) -> None:
    """Check an AGA rating report before sending it: every problem with its line number.
    Exits 1 on an error (warnings alone exit 0)."""
    from goledger.formats import aga

    show_validation(aga.validate_aga(file), as_json=as_json)


def export_ffg(
    output: OutputOption = None,
    round_: Annotated[int | None, typer.Option("--round", "-r", help="Standings after round R (default: the "
                                                                      "last round with a game).")] = None,
    report: ReportOption = None,
    db: DbOption = None,  # type: ignore[assignment]
    force: ForceOption = False,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Write the results as an FFG .tou file (French federation's rating)."""
    from goledger.formats import ffg

    run_export(lambda: ffg.export_ffg(db or default_db(), output, round_, report, force),
               as_json=as_json, quiet=quiet)


def export_aga(
    output: OutputOption = None,
    rules: Annotated[str, typer.Option(help="The rules of play named in the header (AGA, Japanese, Ing…).")]
    = "AGA",
    report: ReportOption = None,
    db: DbOption = None,  # type: ignore[assignment]
    force: ForceOption = False,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Write the rated games as an AGA rating report (TOURNEY / PLAYERS / GAMES)."""
    from goledger.formats import aga

    run_export(lambda: aga.export_aga(db or default_db(), output, rules, report, force),
               as_json=as_json, quiet=quiet)


def import_ffg(
    file: Annotated[Path, typer.Argument(help="FFG results file (.tou).")],
    db: NewDbOption = None,
    report: ReportOption = None,
    force: ForceOption = False,
    strict: StrictOption = False,
    allow_errors: AllowErrorsOption = False,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Create a ledger from an FFG .tou file: players in the file's places, games, results, handicaps."""
    from goledger.formats import ffg

    run_import(lambda: ffg.import_ffg(file, db, report, strict, allow_errors, force=force),
               as_json=as_json, quiet=quiet)
