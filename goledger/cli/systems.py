"""Tournament-system views: ``goledger bracket`` and the places that ``goledger standings``
shows for knockouts, double knockouts, Paramus, matches and continuous handicap events (thin
shells over :mod:`goledger.systems.views`)."""

from __future__ import annotations

import sys
from typing import Annotated, Any

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


def render_places(places: Any, fmt: str) -> None:
    """A system's places as a table (``Pl``, id, name, why), JSON, CSV or an HTML page."""
    from goledger.i18n import gettext, pgettext

    if fmt == "json":
        print_json(places.to_dict())
        return
    if fmt == "csv":
        from goledger.outputs import csv_text

        sys.stdout.write(csv_text([["place", "shared", "still_in", "player_id", "name", "why"],
                                   *([row.place, row.shared, row.active, row.player_id, row.name, row.why]
                                     for row in places.rows)]))
        return
    if fmt == "html":
        from goledger.render.bracket import places_page

        sys.stdout.buffer.write(places_page(places, gettext("Places")))
        sys.stdout.flush()
        return
    if fmt != "table":
        fail(f"unknown format {fmt!r} for a {places.system}'s places; use table, json, csv or html", 2)
    rows: list[list[str]] = []
    previous = None
    for row in places.rows:
        shown = pgettext("still in the bracket", "in") if row.active else (
            f"={row.place}" if row.shared else str(row.place))
        rows.append([shown if row.place != previous else "", row.player_id, row.name, row.why])
        previous = row.place
    heading = (gettext("Places (%(system)s, final, after round %(round)d)") if places.finished
               else gettext("Places (%(system)s, so far, after round %(round)d)")) % {
                   "system": places.system, "round": places.round}
    echo(render_text_table([pgettext("short for place", "Pl"), gettext("Id"), gettext("Name"), gettext("Why")], rows,
                           {0}, heading))
    for note in places.notes:
        echo(note)


def show_system_places(db: Any, round_: int | None, as_of: int | None, fmt: str) -> bool:
    """Print the system's places and return ``True``, or return ``False`` when the system's
    places are the standings (McMahon, Swiss, round robin, handicap…)."""
    from goledger.systems.views import places

    result = places(db or default_db(), round_, as_of)
    if result is None:
        return False
    render_places(result, fmt)
    return True


def place(
    player: PlayerArg,
    round_: Annotated[int | None, typer.Option("--round", "-r", help="After this round (default: latest).")] = None,
    as_of: Annotated[int | None, typer.Option("--as-of", help="As of this event sequence number.")] = None,
    language: LanguageOption = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """Why a player has his place in a knockout, double knockout, Paramus, match or
    continuous handicap tournament."""
    with output_language(db, language, as_json):
        from goledger.systems.views import explain_place

        text = explain_place(db or default_db(), player, round_, as_of)
        if as_json:
            print_json({"player": player, "explanation": text})
        else:
            echo(text)


def bracket(
    round_: Annotated[int | None, typer.Option("--round", "-r", help="After this round (default: latest).")] = None,
    as_of: Annotated[int | None, typer.Option("--as-of", help="As of this event sequence number.")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="text or html (a self-contained HTML/SVG page).")]
    = "text",
    language: LanguageOption = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """The bracket of a knockout or double knockout, or the ladder of a Paramus."""
    with output_language(db, language, as_json or fmt == "json"):
        from goledger.systems.views import bracket as bracket_view

        view = bracket_view(db or default_db(), as_of, round_)
        if as_json or fmt == "json":
            print_json(view.to_dict())
            return
        if fmt == "html":
            from goledger.render.bracket import bracket_page

            sys.stdout.buffer.write(bracket_page(view))
            sys.stdout.flush()
            return
        if fmt != "text":
            fail(f"unknown format {fmt!r}; use text, html or json", 2)
        from goledger.render.bracket import bracket_text

        echo(bracket_text(view))
