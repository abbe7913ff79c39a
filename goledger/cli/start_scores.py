"""``goledger start-scores`` (view) and ``goledger start-groups`` (record): McMahon start
scores with grouped McMahon, the EGF super-group rule and the bar-size warning."""

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
    warn,
)


def start_scores(
    round_: Annotated[int | None, typer.Option("--round", "-r", help="Settings of this round (default: latest).")]
    = None,
    as_of: Annotated[int | None, typer.Option("--as-of", help="As of this event sequence number.")] = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """Every player's McMahon start score and where it comes from (bar, floor, group,
    super-group, correction), with the warnings of the founding documents."""
    from goledger.replay.views import start_scores_view

    table = start_scores_view(db or default_db(), round_, as_of)
    if as_json:
        print_json(table.to_dict())
        return
    rows = [[r.player_id, f"{r.surname} {r.first_name}".strip() + ("" if r.taking_part else " (withdrawn)"),
             r.rank, str(r.rating or ""), r.source, str(r.base), "+1" if r.super_group else "",
             f"{r.correction:+d}" if r.correction else "", str(r.start)]
            for r in table.rows]
    groups = ", ".join(f"{g['lowest']}-{g['highest']}={g['score']}" for g in table.groups) or "none"
    title = (f"Start scores ({table.system}, bar {table.bar}, floor {table.floor}, zero {table.zero}; groups "
             f"{groups}; super-group rule {'on' if table.super_group_rule else 'off'}; {table.summary()})")
    echo(render_text_table(["Id", "Name", "Rank", "Rating", "From", "Base", "Super", "Corr", "Start"], rows,
                           {3, 5, 6, 7, 8}, title))
    for warning in table.warnings:
        warn(warning)


@shared_options()
def start_groups(
    groups: Annotated[str | None, typer.Option("--groups", help="Start scores by rank range, e.g. "
                                               "'5d-9d=33,1d-4d=31' ('' removes them).")] = None,
    super_group: Annotated[bool | None, typer.Option("--super-group/--no-super-group",
                                                     help="EGF super-group rule on or off.")] = None,
    from_round: Annotated[int | None, typer.Option("--from-round", help="From this round on (default: "
                                                   "retroactive).")] = None,
    **shared: Unpack[Shared],
) -> None:
    """Set grouped McMahon start scores and/or the EGF super-group rule."""
    from goledger.commands.start_rules import start_groups as start_groups_command

    recorded(start_groups_command, groups, super_group, from_round, **shared)
