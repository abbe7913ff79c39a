"""``goledger explain``: why a player has his values and place (thin shell over
:func:`goledger.replay.views.explain`)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from goledger.cli.common import (
    DbOption,
    JsonOption,
    LanguageOption,
    PlayerArg,
    default_db,
    echo,
    output_language,
    print_json,
    run,
)


def render_explanation(result: Any) -> None:
    """Print a :class:`~goledger.replay.explain.PlayerExplanation` for a director."""
    from goledger.ledger.values import format_points
    from goledger.outputs import shown

    names = result.names

    def who(pid: str | None) -> str:
        return f"{shown(names.get(pid, pid))} ({pid})" if pid else ""

    echo(f"{who(result.player_id)} after round {result.round} · policy {result.policy} · "
         f"criteria {'/'.join(result.criteria)} · as of event {result.as_of_seq}")
    place = result.place
    if place.place is None:
        echo(f"Place: none — {place.note}")
    else:
        shared = f" (shared with {', '.join(who(p) for p in place.tied_with)})" if place.tied_with else ""
        echo(f"Place {place.place}{shared}")
        for label, n in (("above", place.above), ("below", place.below)):
            if n is None:
                continue
            if n.criterion is None:
                why = "equal on every criterion"
            else:
                why = (f"separated by {n.criterion}: {format_points(n.player_value, n.scale)} against "
                       f"{format_points(n.neighbour_value, n.scale)}")
            echo(f"  {label}: {shown(n.name)} ({n.player_id}), place {n.place} — {why}")
    if result.withdrawal:
        echo(f"Withdrawn: {shown(result.withdrawal)}")
    for e in result.explanations:
        echo("")
        echo(f"{e.criterion} = {format_points(e.value, e.scale)}   ({e.rule})")
        for t in e.terms:
            where = f"R{t.round}" if t.round is not None else "  "
            parts = [t.source]
            if t.opponent:
                parts.append(f"vs {who(t.opponent)}")
            detail = t.detail or {}
            if "colour" in detail:
                parts.append(detail["colour"])
            if detail.get("handicap"):
                parts.append(f"handicap {detail['handicap']}")
            if "opponent_value2" in detail:
                parts.append(f"opponent's value {format_points(detail['opponent_value2'], 2)}")
            if detail.get("handicap_correction2"):
                parts.append(f"handicap correction {format_points(detail['handicap_correction2'], 2)}")
            if "group" in detail:
                parts.append("group " + ", ".join(who(p) for p in detail["group"]))
            echo(f"  {where:>4} {format_points(t.value, e.scale):>8}  {' · '.join(parts)}")
            if t.rule:
                echo(f"       {'':>8}  ↳ {t.rule}")


def register_commands(app: typer.Typer) -> None:
    @app.command()
    def explain(
        player: PlayerArg,
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
        with output_language(db, language, as_json):
            from goledger.replay.views import explain as explain_view

            crit = [c.strip() for c in criteria.split(",") if c.strip()] if criteria else None
            result = run(lambda: explain_view(db or default_db(), player, criterion, round_, as_of, policy, crit))
            if as_json:
                print_json(result.to_dict())
            else:
                render_explanation(result)
