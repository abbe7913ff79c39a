"""Unit commands of a Pair Go or Rengo tournament: thin shells over :mod:`goledger.commands.units`
and :mod:`goledger.systems.unit_views` (``unit add|remove|list``)."""

from __future__ import annotations

from typing import Annotated, Unpack

import typer

from goledger.cli.common import (
    DbOption,
    JsonOption,
    Shared,
    default_db,
    echo,
    print_json,
    recorded,
    render_text_table,
    shared_options,
)

unit_app = typer.Typer(help="Units (pairs, Rengo teams) of a Pair Go or Rengo tournament: add, remove, list.",
                       no_args_is_help=True)


@unit_app.command("add")
@shared_options()
def add(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The unit's name.")],
    members: Annotated[list[str], typer.Argument(metavar="PLAYER...", help="Its players (id, PIN or name), in their "
                                                 "order of play.")],
    sex: Annotated[str, typer.Option("--sex", help="Each member's sex, F or M, in order (Pair Go: F,M or M,F).")]
    = "",
    **shared: Unpack[Shared],
) -> None:
    """Form a unit of registered players."""
    from goledger.commands.units import unit_add

    recorded(unit_add, name, members, [s for s in sex.split(",") if s.strip()], **shared)


@unit_app.command("remove")
@shared_options()
def remove(
    unit: Annotated[str, typer.Argument(metavar="UNIT", help="Unit id (u001) or name.")],
    **shared: Unpack[Shared],
) -> None:
    """Dissolve a unit that has not played."""
    from goledger.commands.units import unit_remove

    recorded(unit_remove, unit, **shared)


@unit_app.command("list")
def list_units(
    as_of: Annotated[int | None, typer.Option("--as-of", help="As of this event sequence number.")] = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """Every unit with its strength and its players in their order of play."""
    from goledger.systems.unit_views import unit_list

    data = unit_list(db or default_db(), as_of)
    if as_json:
        print_json(data)
        return
    rows = [[u["id"], u["name"], u["rank"], u["plays_as"],
             ", ".join(f"{m['name']} {m['rank']}" + (f" ({m['sex']})" if m["sex"] else "") for m in u["members"])]
            for u in data["units"]]
    echo(render_text_table(["id", "unit", "rank", "plays as", "members"], rows))
