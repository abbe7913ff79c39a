"""Recording commands: thin shells over :mod:`goledger.commands`, one module-level
function each with the library function's name and arguments (``db`` is ``--db``).

The options every recording command shares (``--db``, ``--actor``, ``--reason``,
``--expected-head``, ``--retry``, ``--json``) are declared once
(:func:`goledger.cli.common.shared_options`); a command function takes them as
``**shared`` and hands them to :func:`goledger.cli.common.recorded` with its own arguments.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Unpack

import typer

from goledger.cli.common import (
    Common,
    PlayerArg,
    ReasonOption,
    Shared,
    default_db,
    fail,
    recorded,
    shared_options,
)
from goledger.commands import table

RoundOption = Annotated[int, typer.Option("--round", "-r", help="Round number (1-based).")]
TableOption = Annotated[int, typer.Option("--table", "-t", help="Table number.")]
ByDefaultOption = Annotated[bool, typer.Option("--by-default", help="Forfeit / administrative result.")]
RatingsOption = Annotated[Path | None, typer.Option(
    "--ratings", help="Ratings store (default: $GOLEDGER_RATINGS, else the user data directory).",
    show_default=False)]
SettingsArg = Annotated[list[str], typer.Argument(
    metavar="KEY=VALUE...",
    help="Settings to change, as `goledger settings` lists them: policy=egf, criteria=MMS,SOSM,SOSOSM, mm_bar=3d, "
         "mms2_absent=0, withdrawn=zero (a policy field); a structured value as JSON.")]

RESULT_FORMS = (
    "white: w, white, 1-0, W+, W+R (resignation), W+T (time), W+2.5 (points), W+F (forfeit: by default); "
    "black: b, black, 0-1, B+, B+R, B+T, B+2.5, B+F; jigo: jigo, =, draw, 0.5-0.5, ½-½; both-lose: both-lose, 0-0; "
    "both-win: both-win, 1-1; or a result word of any language goledger speaks: beyaz, siyah, berabere, fehér, "
    "fekete, döntetlen, blanc, noir, nulle, weiß, schwarz, remis. A bare 0 or 1 is refused (0-1 or jigo? 1-0?). "
    "A Go margin is kept on the event as an annotation."
)
"""The result notations (goledger.ledger.result_notation; a test checks each one parses)."""


def parse_settings(texts: list[str]) -> dict[str, object]:
    """``KEY=VALUE`` words to the ``changes`` of :func:`~goledger.commands.change_rules`
    (:func:`goledger.commands.settings_text.parse_settings`); a malformed word exits 2.

    >>> parse_settings(["policy=egf", "criteria=MMS, SOSM", "mms2_absent=0", "komi=6.5"])
    {'policy': 'egf', 'criteria': ['MMS', 'SOSM'], 'mms2_absent': 0, 'komi': '6.5'}
    """
    from goledger.commands.settings_text import parse_settings as parse
    from goledger.errors import CommandRejected

    try:
        return parse(texts)
    except CommandRejected as exc:
        fail(exc.message, 2)


def system_options(option: list[str] | None, boards: int | None) -> dict[str, str]:
    """``--option NAME=VALUE`` words (and ``--boards N``) to the system options of ``new``;
    a word without ``=`` is refused."""
    options: dict[str, str] = {}
    for text in option or []:
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            fail(f"--option {text!r} is not NAME=VALUE")
        options[key.strip()] = value.strip()
    if boards is not None:
        options["boards"] = str(boards)
    return options


@shared_options()
def change_rules(
    settings: SettingsArg,
    from_round: Annotated[int | None, typer.Option(
        "--from-round", help="Apply from this round on (default: retroactively, to every round).")] = None,
    **shared: Unpack[Shared],
) -> None:
    """Change tournament settings: rule policy, criteria, bar, bye and absence values…"""
    from goledger.commands.rules import change_rules as command

    recorded(command, parse_settings(settings), from_round, **shared)


@shared_options(without=("expected_head", "retry"))
def new(
    name: Annotated[str, typer.Option("--name", help="Tournament name.")],
    rounds: Annotated[int | None, typer.Option("--rounds", help=(
        "Number of rounds (knockout, double-knockout, paramus, round-robin: computed from the entrants "
        "at the draw when not given)."))] = None,
    system: Annotated[str, typer.Option(help="mcmahon, swiss, swisscat, cup, round-robin, knockout, "
                                        "double-knockout, paramus, match, handicap, continuous-handicap, "
                                        "team-swiss, team-mcmahon, pairgo, rengo2 or rengo3.")]
    = "mcmahon",
    bar: Annotated[str | None, typer.Option(help="McMahon bar (e.g. 4d).")] = None,
    floor: Annotated[str | None, typer.Option(help="McMahon floor (e.g. 20k).")] = None,
    policy: Annotated[str | None, typer.Option(help="Rule policy (default opengotha).")] = None,
    criteria: Annotated[str | None, typer.Option(help="Placement criteria, comma-separated.")] = None,
    komi: Annotated[str, typer.Option(help="Komi, e.g. 7.5.")] = "7.5",
    short_name: Annotated[str, typer.Option(help="Short name.")] = "",
    location: Annotated[str, typer.Option(help="Place.")] = "",
    begin_date: Annotated[str, typer.Option(help="First day, YYYY-MM-DD.")] = "",
    end_date: Annotated[str, typer.Option(help="Last day, YYYY-MM-DD.")] = "",
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="A system option NAME=VALUE (repeatable), e.g. method=slide.")] = None,
    boards: Annotated[int | None, typer.Option(
        "--boards", help="Team tournaments: players per team (same as --option boards=N).")] = None,
    time: Annotated[str | None, typer.Option(
        "--time", help="Overtime: sudden-death, byo-yomi, canadian or fischer (default: not known).")] = None,
    main_time: Annotated[int | None, typer.Option("--main-time", help="Main thinking time, minutes.")] = None,
    byo_yomi: Annotated[int | None, typer.Option(
        "--byo-yomi", help="Byo-yomi period, seconds (Canadian: seconds for --stones stones).")] = None,
    periods: Annotated[int | None, typer.Option("--periods", help="Number of byo-yomi periods.")] = None,
    stones: Annotated[int | None, typer.Option("--stones", help="Canadian: stones per period.")] = None,
    fischer: Annotated[int | None, typer.Option("--fischer", help="Fischer increment, seconds.")] = None,
    handicap_correction: Annotated[int | None, typer.Option(
        "--handicap-correction", help="Stones subtracted from the rank difference (default 1).")] = None,
    handicap_ceiling: Annotated[int | None, typer.Option(
        "--handicap-ceiling", help="Most handicap stones (default 9; 0: even games).")] = None,
    handicap_threshold: Annotated[str | None, typer.Option(
        "--handicap-threshold", help="Rank from which games are even (default 1d).")] = None,
    handicap_on: Annotated[str | None, typer.Option(
        "--handicap-on", help="Handicap from mms (default) or rank.")] = None,
    language: Annotated[str | None, typer.Option(
        "--language", help="Language of printouts and the desk: en (default), tr, hu, fr or de.")] = None,
    country: Annotated[str, typer.Option("--country", help="Country of play, a two-letter code (EGD PC[]).")] = "",
    **shared: Unpack[Shared],
) -> None:
    """Create a new ledger file for a tournament."""
    from goledger.commands.creation import new as command

    crit = [c.strip() for c in criteria.split(",") if c.strip()] if criteria else None
    options = system_options(option, boards)
    recorded(command, name, rounds, system, bar, floor, policy, crit, komi, short_name, location, begin_date,
             end_date, options, time, main_time, byo_yomi, periods, stones, fischer, handicap_correction,
             handicap_ceiling, handicap_threshold, handicap_on, language, country, **shared)


@shared_options(last=("joins_round",))
def register(
    surname: Annotated[str, typer.Option("--surname", help="Family name (from the rating list with --egd-pin).")]
    = "",
    rank: Annotated[str, typer.Option("--rank", help="Rank: 30k..1k, 1d..9d, 1p..9p (from the list's grade "
                                                     "with --egd-pin).")] = "",
    first_name: Annotated[str, typer.Option("--first-name", help="Given name.")] = "",
    country: Annotated[str, typer.Option(help="Two-letter country code.")] = "",
    club: Annotated[str, typer.Option(help="Club.")] = "",
    egd_pin: Annotated[str, typer.Option("--egd-pin", help="EGD PIN (8 digits): the fields not given come from "
                                                           "the ratings store's list.")] = "",
    rating: Annotated[int | None, typer.Option(help="Rating (EGF GoR scale).")] = None,
    grade: Annotated[str, typer.Option(help="Grade as professed, verbatim.")] = "",
    mm_correction: Annotated[int, typer.Option("--mm-correction", help="McMahon correction -1..2.")] = 0,
    preliminary: Annotated[bool, typer.Option(help="Preliminary registration.")] = False,
    force: Annotated[bool, typer.Option(help="Register a namesake of a registered player, a PIN under "
                                             "a name that differs from the list's, or a player once the last "
                                             "round is paired.")] = False,
    from_file: Annotated[Path | None, typer.Option(
        "--from-file", help="Register every row of a CSV file (columns pin, surname, first_name, rank, "
                            "country, club, rating, grade): all or nothing, with each row's decision.")] = None,
    ratings: RatingsOption = None,
    joins_round: Annotated[int | None, typer.Option(
        "--joins-round", help="First round he plays: absent before it (default: absent in the rounds "
                              "already paired).")] = None,
    **shared: Unpack[Shared],
) -> None:
    """Register a player: typed, by EGD PIN from the rating list, or each row of a CSV file (late: absent)."""
    from goledger.commands.players import register as command

    if from_file is not None:
        from goledger.cli.registration import register_from_file

        register_from_file(from_file, shared.get("db") or default_db(), ratings, force, preliminary,
                           shared.get("actor", ""), shared.get("reason", ""), shared.get("expected_head"),
                           shared.get("as_json", False))
        return
    recorded(command, surname, first_name, rank, country, club, egd_pin, rating, grade, mm_correction,
             preliminary, force, ratings=ratings, joins_round=joins_round, **shared)


@shared_options()
def update_player(
    player: PlayerArg,
    surname: Annotated[str | None, typer.Option(help="New family name.")] = None,
    first_name: Annotated[str | None, typer.Option("--first-name", help="New given name.")] = None,
    rank: Annotated[str | None, typer.Option(help="New rank.")] = None,
    country: Annotated[str | None, typer.Option(help="New country code.")] = None,
    club: Annotated[str | None, typer.Option(help="New club.")] = None,
    egd_pin: Annotated[str | None, typer.Option("--egd-pin", help="New EGD PIN.")] = None,
    rating: Annotated[int | None, typer.Option(help="New rating.")] = None,
    mm_correction: Annotated[int | None, typer.Option("--mm-correction", help="McMahon correction.")] = None,
    preliminary: Annotated[bool | None, typer.Option("--preliminary/--final", help="Registration status.")] = None,
    from_ratings: Annotated[bool, typer.Option(
        "--from-ratings", help="Refresh country, club, rank, grade and rating from the ratings store's list "
                               "(by his EGD PIN); the event records the list.")] = False,
    ratings: RatingsOption = None,
    **shared: Unpack[Shared],
) -> None:
    """Change a player's attributes, or refresh them from the rating list."""
    from goledger.commands.players import update_player as command

    recorded(command, player, surname, first_name, rank, country, club, egd_pin, rating, mm_correction,
             preliminary, from_ratings=from_ratings, ratings=ratings, **shared)


@shared_options()
def withdraw(
    player: PlayerArg,
    from_round: Annotated[int, typer.Option("--from-round", help="First round he no longer plays.")],
    reason: ReasonOption = "",
    **shared: Unpack[Common],
) -> None:
    """A player leaves the tournament from a round on."""
    from goledger.commands.withdrawals import withdraw as command

    recorded(command, player, from_round, reason, **shared)


@shared_options()
def reinstate(
    player: PlayerArg,
    from_round: Annotated[int, typer.Option("--from-round", help="First round he plays again.")],
    **shared: Unpack[Shared],
) -> None:
    """Undo a withdrawal from a round on."""
    from goledger.commands.withdrawals import reinstate as command

    recorded(command, player, from_round, **shared)


@shared_options()
def absent(
    player: PlayerArg,
    round: RoundOption,  # noqa: A002
    points: Annotated[str | None, typer.Option(help="Its own value: 0, 0.5 or 1 (default: the policy's).")] = None,
    **shared: Unpack[Shared],
) -> None:
    """Record an announced absence for a round."""
    from goledger.commands.absences import absent as command

    recorded(command, player, round, points, **shared)


@shared_options()
def present(player: PlayerArg, round: RoundOption, **shared: Unpack[Shared]) -> None:  # noqa: A002
    """Cancel an announced absence."""
    from goledger.commands.absences import present as command

    recorded(command, player, round, **shared)


@shared_options()
def bye(
    player: PlayerArg,
    round: RoundOption,  # noqa: A002
    force: Annotated[bool, typer.Option(
        help="Allow a second bye (in the round or for the player), an absent or withdrawn player.")] = False,
    **shared: Unpack[Shared],
) -> None:
    """Give a player the bye of a round."""
    from goledger.commands.absences import bye as command

    recorded(command, player, round, force, **shared)


@shared_options()
def unbye(player: PlayerArg, round: RoundOption, **shared: Unpack[Shared]) -> None:  # noqa: A002
    """Take back a bye."""
    from goledger.commands.absences import unbye as command

    recorded(command, player, round, **shared)


def _pair_json(outcome: Any) -> dict[str, Any]:
    from goledger.cli.common import outcome_json

    return {**outcome_json(outcome), "dry_run": outcome.dry_run, "game": outcome.game}


@shared_options()
def pair(
    round: RoundOption,  # noqa: A002
    players: Annotated[list[str] | None, typer.Argument(
        metavar="[PLAYER PLAYER]",
        help="The two players; the tournament's rule gives colours, handicap and komi (as pair-round).")] = None,
    white: Annotated[str | None, typer.Option("--white", help="White player (colours by hand).")] = None,
    black: Annotated[str | None, typer.Option("--black", help="Black player (colours by hand).")] = None,
    table: Annotated[int | None, typer.Option(help="Table (default: the first free one).")] = None,
    handicap: Annotated[int | None, typer.Option(
        help="Handicap stones for Black, by hand (default: the tournament's rule).")] = None,
    komi: Annotated[str | None, typer.Option(help="Komi of this game, by hand (default: the rule's).")] = None,
    color_known: Annotated[bool, typer.Option("--color-known/--color-unknown", help="Colours known?")] = True,
    force: Annotated[bool, typer.Option(
        help="Allow a repeat, a forbidden pair, an absent or withdrawn player (the event says so).")] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show the game, record nothing.")] = False,
    **shared: Unpack[Shared],
) -> None:
    """Pair two players in a round: `pair -r 3 A B` by the tournament's rule, or --white A --black B."""
    from goledger.commands import hand

    recorded(hand.pair, round, white, black, table, handicap, komi, color_known, force, players or [], dry_run,
             show=_pair_json, **shared)


@shared_options()
def edit_game(
    round: RoundOption,  # noqa: A002
    table: Annotated[int, typer.Option("--table", "-t", help="Table of the game.")],
    swap_colours: Annotated[bool, typer.Option("--swap-colours", help="Swap White and Black.")] = False,
    handicap: Annotated[int | None, typer.Option(help="New handicap, 0..9.")] = None,
    komi: Annotated[str | None, typer.Option(help="New komi of this game, e.g. 6.5.")] = None,
    move_to: Annotated[int | None, typer.Option(
        "--move-to", help="Move the game to this table (swapping with a game already there).")] = None,
    force: Annotated[bool, typer.Option(
        help="Edit a game that has a result (the result stays with the players).")] = False,
    **shared: Unpack[Shared],
) -> None:
    """Edit a game by hand: swap colours, change handicap or komi, move it to another table."""
    from goledger.commands import hand

    recorded(hand.edit_game, round, table, swap_colours, handicap, komi, move_to, force, **shared)


@shared_options()
def renumber_tables(
    round: RoundOption,  # noqa: A002
    start: Annotated[int, typer.Option(help="First table number (e.g. 25 for a second room).")] = 1,
    skip: Annotated[str | None, typer.Option(help="Tables that do not exist, comma-separated: 3,7.")] = None,
    keep_order: Annotated[bool, typer.Option(
        "--keep-order", help="Keep the games' order, only shift the numbers.")] = False,
    **shared: Unpack[Shared],
) -> None:
    """Renumber a round's tables in OpenGotha's order (best score, then rating); results follow their game."""
    from goledger.commands import hand

    recorded(hand.renumber_tables, round, start, skip, keep_order, **shared)


@shared_options()
def unpair(round: RoundOption, table: TableOption, **shared: Unpack[Shared]) -> None:  # noqa: A002
    """Remove a pairing."""
    from goledger.commands.results import unpair as command

    recorded(command, round, table, **shared)


@shared_options()
def result(
    round: RoundOption,  # noqa: A002
    table: TableOption,
    result: Annotated[str, typer.Argument(metavar="RESULT", help=RESULT_FORMS)],
    by_default: ByDefaultOption = False,
    **shared: Unpack[Shared],
) -> None:
    """Record the result of a game."""
    from goledger.commands.results import result as command

    recorded(command, round, table, result, by_default, **shared)


@shared_options()
def correct(
    round: RoundOption,  # noqa: A002
    table: TableOption,
    result: Annotated[str, typer.Argument(metavar="RESULT", help="The right result. " + RESULT_FORMS)],
    reason: Annotated[str, typer.Option("--reason", help="Why the result is corrected.")],
    by_default: ByDefaultOption = False,
    **shared: Unpack[Common],
) -> None:
    """Correct a recorded result (the old one stays in the log)."""
    from goledger.commands.results import correct as command

    recorded(command, round, table, result, reason, by_default, **shared)


COMMANDS = tuple(globals()[command.function] for command in table.of_module("record"))
"""Every recording command, in the order ``goledger --help`` lists them (from the table of commands)."""
