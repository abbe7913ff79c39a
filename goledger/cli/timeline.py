"""Disputes on the command line (issue 42): ``goledger timeline PLAYER`` and ``goledger
dispute-sheet PLAYER`` (thin shells over :func:`goledger.audit.timeline.timeline` and
:func:`goledger.audit.disputes.dispute_sheet`); ``goledger what-if --event SEQ`` is in
:mod:`goledger.cli.audit`."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from goledger.cli.common import (
    DbOption,
    JsonOption,
    LanguageOption,
    PlayerArg,
    default_db,
    echo,
    fail,
    output_language,
    print_json,
    render_text_table,
)
from goledger.nogc import one_shot

if TYPE_CHECKING:
    from goledger.audit.timeline import Timeline

__all__ = ["dispute_sheet", "render_timeline", "timeline"]

RoundOpt = Annotated[int | None, typer.Option("--round", "-r", help="After this round (default: latest paired).")]


def render_timeline(result: Timeline) -> None:
    """Print ``goledger timeline``: a row per round, then each event that moved him, in words."""
    from goledger.i18n import gettext
    from goledger.ledger.values import format_points
    from goledger.outputs import shown

    echo(gettext("Timeline of %(player)s (%(id)s) · standings after round %(round)d · policy %(policy)s") % {
        "player": shown(result.name), "id": result.player_id, "round": result.round, "policy": result.policy})
    rows = [[str(p.round), "–" if p.place is None else str(p.place),
             *(format_points(p.values[c], result.scales.get(c, 1)) or "0" if c in p.values else "–"
               for c in result.criteria)] for p in result.rounds]
    echo(render_text_table([gettext("Round"), gettext("Place"), *result.criteria], rows,
                           set(range(2 + len(result.criteria)))))
    if not result.entries:
        echo(gettext("No event since round 1 moved his place or values."))
    for e in result.entries:
        before = "–" if e.before is None else str(e.before.place)
        after = "–" if e.after is None else str(e.after.place)
        echo("")
        echo(gettext("Event %(seq)d, after round %(round)d: %(what)s") % {"seq": e.seq, "round": e.after_round,
                                                                          "what": shown(e.what)})
        echo("  " + gettext("place %(before)s → %(after)s") % {"before": before, "after": after} + "; "
             + ", ".join(f"{c} {a} → {b}" for c, a, b in e.changed))
        for text in (e.rule, e.relation):
            if text:
                echo("  " + shown(text))
        if e.actor or e.reason:
            echo("  " + gettext("Recorded at %(time)s by %(actor)s.") % {
                "time": e.recorded_at[:19].replace("T", " "), "actor": shown(e.actor) or "–"}
                 + (" " + gettext("Reason given: %(reason)s") % {"reason": shown(e.reason)} if e.reason else ""))
        echo("  " + gettext("what if it had not happened: goledger what-if --event %(seq)d") % {"seq": e.seq})


@one_shot  # a one-shot read of a whole log: no cyclic garbage worth a collection pass
def timeline(
    player: PlayerArg,
    round_: RoundOpt = None,
    language: LanguageOption = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """A player's place and values after each round, and every event since that moved them, in words."""
    from goledger.audit.timeline import timeline as timeline_view

    with output_language(db, language, as_json):
        result = timeline_view(db or default_db(), player, round_)
        if as_json:
            print_json(result.to_dict())
        else:
            render_timeline(result)


@one_shot  # a one-shot read of a whole log: no cyclic garbage worth a collection pass
def dispute_sheet(
    player: PlayerArg,
    event: Annotated[int | None, typer.Option(
        "--event", help="The disputed event's number (default: the latest event of his timeline).")] = None,
    fmt: Annotated[str, typer.Option(
        "--format", "-f", help="text, html (one A4 page with print CSS) or json.")] = "text",
    language: LanguageOption = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """One page for the player: the standings around him with and without the event, the event, the rule,
    his values term by term, and the ledger's head to re-check with verify."""
    from goledger.audit.disputes import dispute_sheet as sheet_view
    from goledger.render.dispute_sheet import render_html, render_text

    chosen = "json" if as_json else fmt
    if chosen not in ("text", "html", "json"):
        fail(f"unknown format {fmt!r}; use text, html or json", 2)
    with output_language(db, language, chosen == "json"):
        sheet = sheet_view(db or default_db(), player, event)
        if chosen == "json":
            print_json(sheet.to_dict())
        elif chosen == "html":
            sys.stdout.buffer.write(render_html(sheet))
            sys.stdout.flush()
        else:
            echo(render_text(sheet))
