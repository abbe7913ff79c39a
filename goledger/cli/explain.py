"""``goledger explain``: why a player has his values and place (thin shell over
:func:`goledger.replay.views.explain`)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from goledger.cli.common import (
    DbOption,
    JsonOption,
    LanguageOption,
    default_db,
    echo,
    output_language,
    print_json,
)


def render_explanation(result: Any) -> None:
    """Print a :class:`~goledger.replay.scoring.explain.PlayerExplanation` for a director."""
    from goledger.i18n import gettext, pgettext
    from goledger.ledger.values import format_points
    from goledger.outputs import shown

    names = result.names

    def who(pid: str | None) -> str:
        return f"{shown(names.get(pid, pid))} ({pid})" if pid else ""

    echo(gettext("%(player)s after round %(round)d · policy %(policy)s · criteria %(criteria)s · as of event "
                 "%(seq)d") % {"player": who(result.player_id), "round": result.round, "policy": result.policy,
                                "criteria": "/".join(result.criteria), "seq": result.as_of_seq})
    place = result.place
    if place.place is None:
        echo(gettext("Place: none — %(why)s") % {"why": place.note})
    else:
        if place.tied_with:
            echo(gettext("Place %(place)d (shared with %(players)s)") % {
                "place": place.place, "players": ", ".join(who(p) for p in place.tied_with)})
        else:
            echo(gettext("Place %(place)d") % {"place": place.place})
        for label, n in ((pgettext("the neighbour placed", "above"), place.above),
                         (pgettext("the neighbour placed", "below"), place.below)):
            if n is None:
                continue
            if n.criterion is None:
                why = gettext("equal on every criterion")
            else:
                why = gettext("separated by %(criterion)s: %(mine)s against %(theirs)s") % {
                    "criterion": n.criterion, "mine": format_points(n.player_value, n.scale),
                    "theirs": format_points(n.neighbour_value, n.scale)}
            echo("  " + gettext("%(label)s: %(name)s (%(id)s), place %(place)d — %(why)s") % {
                "label": label, "name": shown(n.name), "id": n.player_id, "place": n.place, "why": why})
    if result.withdrawal:
        echo(gettext("Withdrawn: %(why)s") % {"why": shown(result.withdrawal)})
    for e in result.explanations:
        echo("")
        echo(f"{e.criterion} = {format_points(e.value, e.scale)}   ({e.rule})")
        for t in e.terms:
            where = pgettext("column head of round N", "R%(round)d") % {"round": t.round} if t.round is not None \
                else "  "
            parts = [t.source]
            if t.opponent:
                parts.append(gettext("vs %(opponent)s") % {"opponent": who(t.opponent)})
            detail = t.detail or {}
            if "colour" in detail:
                parts.append(detail["colour"])
            if detail.get("handicap"):
                parts.append(gettext("handicap %(stones)s") % {"stones": detail["handicap"]})
            if "opponent_value2" in detail:
                parts.append(gettext("opponent's value %(value)s") % {
                    "value": format_points(detail["opponent_value2"], 2)})
            if detail.get("handicap_correction2"):
                parts.append(gettext("handicap correction %(value)s") % {
                    "value": format_points(detail["handicap_correction2"], 2)})
            if "group" in detail:
                parts.append(gettext("group %(players)s") % {"players": ", ".join(who(p) for p in detail["group"])})
            echo(f"  {where:>4} {format_points(t.value, e.scale):>8}  {' · '.join(parts)}")
            if t.rule:
                echo(f"       {'':>8}  ↳ {t.rule}")


def explain(
    player: Annotated[str, typer.Argument(help="Player id (p0001), EGD PIN, or unique name.")] = "",
    team: Annotated[str | None, typer.Option("--team", help="Explain this team's team criteria instead.")]
    = None,
    criterion: Annotated[str | None, typer.Option("--criterion", "-c", help="Only this criterion.")] = None,
    round_: Annotated[int | None, typer.Option("--round", "-r", help="After this round (default: latest).")] = None,
    as_of: Annotated[int | None, typer.Option("--as-of", help="As of this event sequence number.")] = None,
    policy: Annotated[str | None, typer.Option(help="Rule policy (default: the tournament's).")] = None,
    criteria: Annotated[str | None, typer.Option(help="Placement criteria, comma-separated.")] = None,
    language: LanguageOption = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """Explain a player's values term by term, and what separates him from his neighbours."""
    if team is not None:
        from goledger.cli.teams import show_team_explanation

        with output_language(db, language, as_json):
            show_team_explanation(db, team, round_, as_of, as_json)
        return
    if not player:
        from goledger.cli.common import fail

        fail("name a player, or a team with --team")
    with output_language(db, language, as_json):
        from goledger.replay.views import explain as explain_view

        crit = [c.strip() for c in criteria.split(",") if c.strip()] if criteria else None
        result = explain_view(db or default_db(), player, criterion, round_, as_of, policy, crit)
        if as_json:
            print_json(result.to_dict())
        else:
            render_explanation(result)
