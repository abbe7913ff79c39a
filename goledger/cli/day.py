"""The director's day (issue 20): printouts (``pairings``, ``players``, ``wall-list``) and
``unregister``; thin shells over :mod:`goledger.replay.views`,
:mod:`goledger.render.printouts` and :mod:`goledger.commands.unregistration`."""

from __future__ import annotations

import sys
from typing import Annotated, Any, Unpack

import typer

from goledger.cli.common import (
    Common,
    DbOption,
    JsonOption,
    LanguageOption,
    PlayerArg,
    ReasonOption,
    Shared,
    default_db,
    fail,
    output_language,
    recorded,
    shared_options,
)

PrintFormat = Annotated[str, typer.Option(
    "--format", "-f", help="table (text), csv, html (a self-contained page with print CSS) or json.")]
AsOfOption = Annotated[int | None, typer.Option("--as-of", help="As of this event sequence number.")]


def emit(sheet: Any, data: dict[str, Any], fmt: str, as_json: bool) -> None:
    """Write a printout in ``fmt`` (``--json`` is ``--format json``)."""
    from goledger.render.printouts import FORMATS, render

    chosen = "json" if as_json else fmt
    if chosen not in FORMATS:
        fail(f"unknown format {fmt!r}; use {', '.join(FORMATS)}", 2)
    sys.stdout.buffer.write(render(sheet, chosen, data))
    sys.stdout.flush()


def pairings(
    round_: Annotated[int, typer.Option("--round", "-r", help="Round number (1-based).")],
    as_of: AsOfOption = None,
    fmt: PrintFormat = "table",
    language: LanguageOption = None,
    by: Annotated[str, typer.Option("--by", help="table (the desk's list) or name (for the wall).")] = "table",
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """The pairing list of a round: table, white, black, ranks, handicap, komi, result
    (``--by name``: every player alphabetically with his table, colour and opponent)."""
    from goledger.render.printouts import pairing_by_name_sheet, pairing_sheet
    from goledger.replay.views import pairings as pairings_view

    if by not in ("table", "name"):
        fail(f"--by {by!r}: list the pairings by table or by name", 2)
    with output_language(db, language, as_json or fmt == "json"):
        result = pairings_view(db or default_db(), round_, as_of)
        emit(pairing_by_name_sheet(result) if by == "name" else pairing_sheet(result), result.to_dict(), fmt,
             as_json)


def slips(
    round_: Annotated[int, typer.Option("--round", "-r", help="Round number (1-based).")],
    per_page: Annotated[int, typer.Option("--per-page", help="Slips to an A4 sheet: 4 or 8.")] = 4,
    as_of: AsOfOption = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="html (a page to print) or json.")] = "html",
    language: LanguageOption = None,
    url: Annotated[str | None, typer.Option("--url", help="Print each player's personal link (QR code) at this "
                                                          "address of the desk (issue 46).")] = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """Result slips of a round, 4 or 8 to an A4 sheet: table number, names, ranks, colours,
    handicap, komi and a result box (with --url: both players' personal links)."""
    from goledger.cli.common import print_json
    from goledger.render.printouts import render_slips as slips_html
    from goledger.replay.views import pairings as pairings_view

    chosen = "json" if as_json else fmt
    if chosen not in ("html", "json"):
        fail(f"unknown format {fmt!r}; use html or json", 2)
    with output_language(db, language, chosen == "json"):
        result = pairings_view(db or default_db(), round_, as_of)
        links = None
        if url is not None and chosen == "html":
            from goledger.render.welcome import key_links

            ids = [pid for row in result.rows for pid in (row.white_id, row.black_id)]
            links = {c.player_id: c for c in key_links(db or default_db(), url, ids)}
        page = slips_html(result, per_page, links)
    if chosen == "json":
        print_json({**result.to_dict(), "per_page": per_page})
        return
    sys.stdout.buffer.write(page)
    sys.stdout.flush()


def players(
    as_of: AsOfOption = None,
    fmt: PrintFormat = "table",
    language: LanguageOption = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """The registration list: status, rank, country, club and the rounds each player plays
    (sorted in the alphabet of the language)."""
    from goledger.render.printouts import player_sheet
    from goledger.replay.views import players as players_view

    with output_language(db, language, as_json or fmt == "json"):
        result = players_view(db or default_db(), as_of)
        emit(player_sheet(result), result.to_dict(), fmt, as_json)


def wall_list(
    round_: Annotated[int | None, typer.Option("--round", "-r", help="After this round (default: latest).")] = None,
    as_of: AsOfOption = None,
    policy: Annotated[str | None, typer.Option(help="Rule policy (default: the tournament's).")] = None,
    criteria: Annotated[str | None, typer.Option(help="Criteria, comma-separated.")] = None,
    fmt: PrintFormat = "table",
    language: LanguageOption = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """The wall list: standings with country, club, status and per-round cells (12+/w2)."""
    from goledger.render.printouts import wall_sheet
    from goledger.systems.views import wall_list as wall_view

    crit = [c.strip() for c in criteria.split(",") if c.strip()] if criteria else None
    data = as_json or fmt == "json"
    with output_language(db, language, data) as chosen:
        alphabet = chosen if not data and (language or chosen != "en") else None  # a page in a language
        result = wall_view(db or default_db(), round_, as_of, policy, crit, alphabet)
        emit(wall_sheet(result), result.to_dict(), fmt, as_json)


@shared_options()
def show_round(
    round_: Annotated[int, typer.Argument(help="Round number (1-based).", metavar="ROUND")],
    **shared: Unpack[Shared],
) -> None:
    """Show a round's pairing to the players (with change-rules pairings_visible=manual)."""
    from goledger.commands.show_round import show_round as show_round_command

    recorded(show_round_command, round_, **shared)


@shared_options()
def unregister(player: PlayerArg, reason: ReasonOption = "", **shared: Unpack[Common]) -> None:
    """Cancel a mistaken registration (no game, no bye yet): he leaves every view."""
    from goledger.commands.unregistration import unregister as unregister_command

    recorded(unregister_command, player, reason, **shared)
