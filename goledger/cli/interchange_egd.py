"""``goledger export egd``, ``goledger validate egd`` and ``goledger import egd``: thin shells
over :mod:`goledger.formats.egd` (same names, same arguments)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from goledger.cli.common import DbOption, JsonOption, default_db, fail
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
from goledger.cli.ratings import RatingsOption


def validate_egd(
    file: Annotated[Path, typer.Argument(help="EGD result table (.h9).")],
    as_json: JsonOption = False,
) -> None:
    """Check an EGD result table before uploading it: every problem with its line number.
    Exits 1 when a rule of the format is broken (warnings alone exit 0)."""
    from goledger.formats import egd

    show_validation(egd.validate_egd(file), as_json=as_json)


def export_egd(
    output: OutputOption = None,
    round_: Annotated[int | None, typer.Option("--round", "-r", help="Export rounds 1..R (default: the last "
                                                                      "round with a played game).")] = None,
    encoding: Annotated[str, typer.Option(help="utf-8, or latin-1 (transliterates what it cannot hold).")]
    = "utf-8",
    forfeits: Annotated[str, typer.Option(help="free: free-round cells (0+/0-); marked: 'opp+!w0' cells.")]
    = "free",
    egd_class: Annotated[str | None, typer.Option("--class", help="EGF class A, B, C or D (default: computed "
                                                                   "from the time settings).")] = None,
    country: Annotated[str | None, typer.Option(help="Tournament country for PC[] (default: from the ledger).")]
    = None,
    report: ReportOption = None,
    with_preview: Annotated[bool, typer.Option("--with-preview", help="Add each player's expected GoR change "
                                                                      "(rating-preview) to the report.")] = False,
    db: DbOption = None,  # type: ignore[assignment]
    force: ForceOption = False,
    check: Annotated[bool, typer.Option("--check", help="Add to the report what the EGD will reject "
                                                         "(goledger egd-check's findings).")] = False,
    ratings: RatingsOption = None,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Write the results as an EGD table (T-file) the European Go Database accepts."""
    from goledger.formats import egd

    if forfeits not in ("free", "marked"):
        fail(f"--forfeits must be free or marked, not {forfeits!r}", 2)
    run_export(lambda: egd.export_egd(db or default_db(), output, round_, encoding, forfeits,  # type: ignore[arg-type]
                                      egd_class, country, report, with_preview, force, check=check,
                                      ratings=ratings),
               as_json=as_json, quiet=quiet)


def import_egd(
    file: Annotated[Path, typer.Argument(help="EGD result table (.h9).")],
    db: NewDbOption = None,
    report: ReportOption = None,
    force: ForceOption = False,
    strict: StrictOption = False,
    allow_errors: AllowErrorsOption = False,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Create a ledger from an EGD table (players, games, results, colours, handicaps, free rounds)."""
    from goledger.formats import egd

    run_import(lambda: egd.import_egd(file, db, report, strict, allow_errors, force=force),
               as_json=as_json, quiet=quiet)
