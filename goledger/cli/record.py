"""Recording commands: thin shells over :mod:`goledger.commands.record` (same names, same
arguments)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from goledger.cli.common import (
    ActorOption,
    DbOption,
    ExpectedHeadOption,
    JsonOption,
    PlayerArg,
    ReasonOption,
    RetryOption,
    default_db,
    fail,
    report_outcome,
    run,
)

RoundOption = Annotated[int, typer.Option("--round", "-r", help="Round number (1-based).")]
SettingsArg = Annotated[list[str], typer.Argument(
    metavar="KEY=VALUE...",
    help="Settings to change, as `goledger settings` lists them: policy=egf, criteria=MMS,SOSM,SOSOSM, mm_bar=3d, "
         "mms2_absent=0, withdrawn=zero (a policy field); a structured value as JSON.")]


def parse_settings(texts: list[str]) -> dict[str, object]:
    """``KEY=VALUE`` words to the ``changes`` of :func:`~goledger.commands.record.change_rules`
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




RESULT_FORMS = (
    "white: w, white, 1-0, W+, W+R (resignation), W+T (time), W+2.5 (points), W+F (forfeit: by default); "
    "black: b, black, 0-1, B+, B+R, B+T, B+2.5, B+F; jigo: jigo, =, draw, 0.5-0.5, ½-½; both-lose: both-lose, 0-0; "
    "both-win: both-win, 1-1. A Go margin is kept on the event as an annotation."
)
"""The result notations (goledger.ledger.result_notation; a test checks each one parses)."""


def register_commands(app: typer.Typer) -> None:
    """Attach every recording command to ``app``."""

    @app.command("change-rules")
    def change_rules(
        settings: SettingsArg,
        from_round: Annotated[int | None, typer.Option(
            "--from-round", help="Apply from this round on (default: retroactively, to every round).")] = None,
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        reason: ReasonOption = "",
        expected_head: ExpectedHeadOption = None,
        retry: RetryOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """Change tournament settings: rule policy, criteria, bar, bye and absence values…"""
        from goledger import commands

        changes = parse_settings(settings)
        report_outcome(
            run(lambda: commands.change_rules(
                db or default_db(), changes, from_round, actor=actor, reason=reason,
                expected_head=expected_head, retry=retry,
            )),
            as_json,
        )

    @app.command()
    def new(
        name: Annotated[str, typer.Option("--name", help="Tournament name.")],
        rounds: Annotated[int | None, typer.Option("--rounds", help=(
            "Number of rounds (knockout, double-knockout, paramus, round-robin: computed from the entrants "
            "at the draw when not given)."))] = None,
        system: Annotated[str, typer.Option(help="mcmahon, swiss, swisscat, cup, round-robin, knockout, "
                                            "double-knockout, paramus, match, handicap, continuous-handicap, "
                                            "team-swiss or team-mcmahon.")]
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
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        reason: ReasonOption = "",
        as_json: JsonOption = False,
    ) -> None:
        """Create a new ledger file for a tournament."""
        from goledger import commands

        crit = [c.strip() for c in criteria.split(",") if c.strip()] if criteria else None
        options: dict[str, str] = {}
        for text in option or []:
            key, sep, value = text.partition("=")
            if not sep or not key.strip():
                fail(f"--option {text!r} is not NAME=VALUE")
            options[key.strip()] = value.strip()
        if boards is not None:
            options["boards"] = str(boards)
        report_outcome(
            run(lambda: commands.new(
                db or default_db(), name, rounds, system, bar, floor, policy, crit, komi, short_name,
                location, begin_date, end_date, options, time, main_time, byo_yomi, periods, stones, fischer,
                handicap_correction, handicap_ceiling, handicap_threshold, handicap_on, language, actor=actor,
                reason=reason,
            )),
            as_json,
        )

    @app.command()
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
        force: Annotated[bool, typer.Option(help="Register a namesake of a registered player, or a PIN under "
                                                 "a name that differs from the list's.")] = False,
        from_file: Annotated[Path | None, typer.Option(
            "--from-file", help="Register every row of a CSV file (columns pin, surname, first_name, rank, "
                                "country, club, rating, grade): all or nothing, with each row's decision.")] = None,
        ratings: Annotated[Path | None, typer.Option(
            "--ratings", help="Ratings store (default: $GOLEDGER_RATINGS, else the user data directory).",
            show_default=False)] = None,
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        reason: ReasonOption = "",
        expected_head: ExpectedHeadOption = None,
        retry: RetryOption = False,
        as_json: JsonOption = False,
        joins_round: Annotated[int | None, typer.Option(
            "--joins-round", help="First round he plays: absent before it (default: absent in the rounds "
                                  "already paired).")] = None,
    ) -> None:
        """Register a player: typed, by EGD PIN from the rating list, or each row of a CSV file (late: absent)."""
        from goledger import commands

        if from_file is not None:
            from goledger.cli.registration import register_from_file

            register_from_file(from_file, db or default_db(), ratings, force, preliminary, actor, reason,
                               expected_head, as_json)
            return
        report_outcome(
            run(lambda: commands.register(
                db or default_db(), surname, first_name, rank, country, club, egd_pin, rating, grade,
                mm_correction, preliminary, force, actor=actor, reason=reason,
                expected_head=expected_head, retry=retry, ratings=ratings, joins_round=joins_round,
            )),
            as_json,
        )

    @app.command("update-player")
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
        ratings: Annotated[Path | None, typer.Option(
            "--ratings", help="Ratings store (default: $GOLEDGER_RATINGS, else the user data directory).",
            show_default=False)] = None,
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        reason: ReasonOption = "",
        expected_head: ExpectedHeadOption = None,
        retry: RetryOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """Change a player's attributes, or refresh them from the rating list."""
        from goledger import commands

        report_outcome(
            run(lambda: commands.update_player(
                db or default_db(), player, surname, first_name, rank, country, club, egd_pin, rating,
                mm_correction, preliminary, actor=actor, reason=reason, expected_head=expected_head, retry=retry,
                from_ratings=from_ratings, ratings=ratings,
            )),
            as_json,
        )

    @app.command()
    def withdraw(
        player: PlayerArg,
        from_round: Annotated[int, typer.Option("--from-round", help="First round he no longer plays.")],
        reason: ReasonOption = "",
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        expected_head: ExpectedHeadOption = None,
        retry: RetryOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """A player leaves the tournament from a round on."""
        from goledger import commands

        report_outcome(
            run(lambda: commands.withdraw(
                db or default_db(), player, from_round, reason, actor=actor, expected_head=expected_head, retry=retry,
            )),
            as_json,
        )

    @app.command()
    def reinstate(
        player: PlayerArg,
        from_round: Annotated[int, typer.Option("--from-round", help="First round he plays again.")],
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        reason: ReasonOption = "",
        expected_head: ExpectedHeadOption = None,
        retry: RetryOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """Undo a withdrawal from a round on."""
        from goledger import commands

        report_outcome(
            run(lambda: commands.reinstate(
                db or default_db(), player, from_round, actor=actor, reason=reason,
                expected_head=expected_head, retry=retry,
            )),
            as_json,
        )

    @app.command()
    def absent(
        player: PlayerArg,
        round_: RoundOption,
        points: Annotated[str | None, typer.Option(help="Its own value: 0, 0.5 or 1 (default: the policy's).")] = None,
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        reason: ReasonOption = "",
        expected_head: ExpectedHeadOption = None,
        retry: RetryOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """Record an announced absence for a round."""
        from goledger import commands

        report_outcome(
            run(lambda: commands.absent(
                db or default_db(), player, round_, points, actor=actor, reason=reason,
                expected_head=expected_head, retry=retry,
            )),
            as_json,
        )

    @app.command()
    def present(
        player: PlayerArg,
        round_: RoundOption,
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        reason: ReasonOption = "",
        expected_head: ExpectedHeadOption = None,
        retry: RetryOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """Cancel an announced absence."""
        from goledger import commands

        report_outcome(
            run(lambda: commands.present(
                db or default_db(), player, round_, actor=actor, reason=reason,
                expected_head=expected_head, retry=retry,
            )),
            as_json,
        )

    @app.command()
    def bye(
        player: PlayerArg,
        round_: RoundOption,
        force: Annotated[bool, typer.Option(
            help="Allow a second bye (in the round or for the player), an absent or withdrawn player.")] = False,
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        reason: ReasonOption = "",
        expected_head: ExpectedHeadOption = None,
        retry: RetryOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """Give a player the bye of a round."""
        from goledger import commands

        report_outcome(
            run(lambda: commands.bye(
                db or default_db(), player, round_, force, actor=actor, reason=reason,
                expected_head=expected_head, retry=retry,
            )),
            as_json,
        )

    @app.command()
    def unbye(
        player: PlayerArg,
        round_: RoundOption,
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        reason: ReasonOption = "",
        expected_head: ExpectedHeadOption = None,
        retry: RetryOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """Take back a bye."""
        from goledger import commands

        report_outcome(
            run(lambda: commands.unbye(
                db or default_db(), player, round_, actor=actor, reason=reason,
                expected_head=expected_head, retry=retry,
            )),
            as_json,
        )

    @app.command()
    def pair(
        round_: RoundOption,
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
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        reason: ReasonOption = "",
        expected_head: ExpectedHeadOption = None,
        retry: RetryOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """Pair two players in a round: `pair -r 3 A B` by the tournament's rule, or --white A --black B."""
        from goledger import commands

        outcome = run(lambda: commands.pair(
            db or default_db(), round_, white, black, table, handicap, komi, color_known, force, players or [],
            dry_run, actor=actor, reason=reason, expected_head=expected_head, retry=retry,
        ))
        if as_json:
            from goledger.cli.common import outcome_json, print_json

            print_json({**outcome_json(outcome), "dry_run": outcome.dry_run, "game": outcome.game})
        else:
            report_outcome(outcome, False)

    @app.command("edit-game")
    def edit_game(
        round_: RoundOption,
        table: Annotated[int, typer.Option("--table", "-t", help="Table of the game.")],
        swap_colours: Annotated[bool, typer.Option("--swap-colours", help="Swap White and Black.")] = False,
        handicap: Annotated[int | None, typer.Option(help="New handicap, 0..9.")] = None,
        komi: Annotated[str | None, typer.Option(help="New komi of this game, e.g. 6.5.")] = None,
        move_to: Annotated[int | None, typer.Option(
            "--move-to", help="Move the game to this table (swapping with a game already there).")] = None,
        force: Annotated[bool, typer.Option(
            help="Edit a game that has a result (the result stays with the players).")] = False,
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        reason: ReasonOption = "",
        expected_head: ExpectedHeadOption = None,
        retry: RetryOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """Edit a game by hand: swap colours, change handicap or komi, move it to another table."""
        from goledger import commands

        report_outcome(
            run(lambda: commands.edit_game(
                db or default_db(), round_, table, swap_colours, handicap, komi, move_to, force, actor=actor,
                reason=reason, expected_head=expected_head, retry=retry,
            )),
            as_json,
        )

    @app.command("renumber-tables")
    def renumber_tables(
        round_: RoundOption,
        start: Annotated[int, typer.Option(help="First table number (e.g. 25 for a second room).")] = 1,
        skip: Annotated[str | None, typer.Option(help="Tables that do not exist, comma-separated: 3,7.")] = None,
        keep_order: Annotated[bool, typer.Option(
            "--keep-order", help="Keep the games' order, only shift the numbers.")] = False,
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        reason: ReasonOption = "",
        expected_head: ExpectedHeadOption = None,
        retry: RetryOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """Renumber a round's tables in OpenGotha's order (best score, then rating); results follow their game."""
        from goledger import commands

        report_outcome(
            run(lambda: commands.renumber_tables(
                db or default_db(), round_, start, skip, keep_order, actor=actor, reason=reason,
                expected_head=expected_head, retry=retry,
            )),
            as_json,
        )

    @app.command()
    def unpair(
        round_: RoundOption,
        table: Annotated[int, typer.Option("--table", "-t", help="Table number.")],
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        reason: ReasonOption = "",
        expected_head: ExpectedHeadOption = None,
        retry: RetryOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """Remove a pairing."""
        from goledger import commands

        report_outcome(
            run(lambda: commands.unpair(
                db or default_db(), round_, table, actor=actor, reason=reason,
                expected_head=expected_head, retry=retry,
            )),
            as_json,
        )

    @app.command()
    def result(
        round_: RoundOption,
        table: Annotated[int, typer.Option("--table", "-t", help="Table number.")],
        outcome: Annotated[str, typer.Argument(metavar="RESULT", help=RESULT_FORMS)],
        by_default: Annotated[bool, typer.Option("--by-default", help="Forfeit / administrative result.")] = False,
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        reason: ReasonOption = "",
        expected_head: ExpectedHeadOption = None,
        retry: RetryOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """Record the result of a game."""
        from goledger import commands

        report_outcome(
            run(lambda: commands.result(
                db or default_db(), round_, table, outcome, by_default, actor=actor, reason=reason,
                expected_head=expected_head, retry=retry,
            )),
            as_json,
        )

    @app.command()
    def correct(
        round_: RoundOption,
        table: Annotated[int, typer.Option("--table", "-t", help="Table number.")],
        outcome: Annotated[str, typer.Argument(metavar="RESULT", help="The right result. " + RESULT_FORMS)],
        reason: Annotated[str, typer.Option("--reason", help="Why the result is corrected.")],
        by_default: Annotated[bool, typer.Option("--by-default", help="Forfeit / administrative result.")] = False,
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        expected_head: ExpectedHeadOption = None,
        retry: RetryOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """Correct a recorded result (the old one stays in the log)."""
        from goledger import commands

        report_outcome(
            run(lambda: commands.correct(
                db or default_db(), round_, table, outcome, reason, by_default, actor=actor,
                expected_head=expected_head, retry=retry,
            )),
            as_json,
        )
