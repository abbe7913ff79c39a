"""``goledger site DIR``: a thin shell over :func:`goledger.render.site.site`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from goledger.cli.common import DbOption, JsonOption, default_db, echo, print_json


def site(
    folder: Annotated[Path, typer.Argument(help="The site's folder (created when missing; updated in place).")],
    languages: Annotated[str | None, typer.Option(
        "--languages", help="Comma-separated languages (default: the tournament's first, then en, tr, hu, fr, de).")]
    = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """Write the tournament as a static results site (standings, rounds, players, crosstable,
    wall list) in several languages; run it again after each event: only changed pages are
    rewritten. It works from file:// and from any static host, and names the ledger's head hash."""
    from goledger.render.site import site as build

    outcome = build(db or default_db(), folder, languages)
    print_json(outcome.to_dict()) if as_json else echo(outcome.message)
