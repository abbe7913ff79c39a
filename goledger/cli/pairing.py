"""Pairing commands: thin shells over :mod:`goledger.commands.pairing` and
:mod:`goledger.commands.constraints` (same names, same arguments): ``pair-round``,
``unpair-round``, ``explain-pairing``, ``forbid``, ``fix-pairing``, ``fix-table``."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from goledger.cli.common import (
    ActorOption,
    DbOption,
    ExpectedHeadOption,
    JsonOption,
    LanguageOption,
    PlayerArg,
    ReasonOption,
    default_db,
    echo,
    output_language,
    print_json,
    render_text_table,
    report_outcome,
    run,
)

RoundArg = Annotated[int, typer.Argument(metavar="R", help="Round number (1-based).")]


def _name(player: dict[str, str]) -> str:
    return f"{player['id']} {player['surname']} {player['first_name']}".rstrip()


def _print_pairing(data: dict[str, Any], message: str) -> None:
    rows = [[str(g["table"]), _name(g["white"]), _name(g["black"]), str(g["handicap"]), g["komi"]]
            for g in data["games"]]
    echo(render_text_table(["table", "white", "black", "hcp", "komi"], rows, right={0, 3}))
    if data["bye"] is not None:
        echo(f"bye: {_name(data['bye'])}")
    for entry in data.get("not_paired", []):
        echo(f"not paired: {_name(entry['player'])}: {entry['why']}")
    echo(message)


def _print_check(report: Any) -> None:
    if not report.rounds:
        echo("no RoundPaired event to check")
    for r in report.rounds:
        state = "in force" if r.in_force else "superseded"
        if r.ok:
            echo(f"round {r.round} (event {r.seq}, {r.engine}, {state}): re-derived exactly")
        else:
            echo(f"round {r.round} (event {r.seq}, {r.engine}, {state}): {len(r.differences)} difference(s)")
            for d in r.differences:
                echo(f"  - {d}")


def register_commands(app: typer.Typer) -> None:
    """Attach the pairing commands to ``app``."""

    @app.command("pair-round")
    def pair_round(
        round_: RoundArg,
        dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the pairing, write nothing.")] = False,
        engine: Annotated[str | None, typer.Option(help="Pairing engine (default: the system's).")] = None,
        seed: Annotated[int | None, typer.Option(help="Seed of every random choice (default 0).")] = None,
        players: Annotated[str | None, typer.Option(help="Pair only these players, comma-separated.")] = None,
        check: Annotated[bool, typer.Option(
            "--check", help="Re-derive every stored pairing of the round (0: all rounds) and report differences.")
        ] = False,
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        reason: ReasonOption = "",
        expected_head: ExpectedHeadOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Pair a round automatically: games, colours, handicap, komi, tables and the bye."""
        from goledger import commands

        path = db or default_db()
        if check:
            report = run(lambda: commands.check_pairings(path, round_ or None))
            if as_json:
                print_json(report.to_dict())
            else:
                _print_check(report)
            if not report.ok:
                raise typer.Exit(1)
            return
        chosen = [p.strip() for p in players.split(",") if p.strip()] if players is not None else None
        outcome = run(lambda: commands.pair_round(
            path, round_, dry_run=dry_run, engine=engine, seed=seed, players=chosen, expected_head=expected_head,
            actor=actor, reason=reason))
        if as_json:
            print_json(outcome.to_dict())
        else:
            seqs = outcome.seqs
            where = f" (events {seqs[0]}–{seqs[-1]})" if seqs else ""
            _print_pairing(outcome.to_dict(), outcome.message + where)

    @app.command("unpair-round")
    def unpair_round(
        round_: RoundArg,
        reason: Annotated[str, typer.Option("--reason", help="Why the round is paired again (kept in the log).")],
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        expected_head: ExpectedHeadOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Remove every pairing of a round so that it can be paired again."""
        from goledger import commands

        report_outcome(run(lambda: commands.unpair_round(
            db or default_db(), round_, reason, expected_head=expected_head, actor=actor)), as_json)

    @app.command("explain-pairing")
    def explain_pairing(
        round_: RoundArg,
        player: Annotated[str | None, typer.Argument(help="Only this player's game.")] = None,
        language: LanguageOption = None,
        db: DbOption = None,  # type: ignore[assignment]
        as_json: JsonOption = False,
    ) -> None:
        """The pairing report: per game the players, their score groups, draw-ups, same club or
        country, handicap and why, colours, repeats and the weight terms in words; per round a
        summary and the other optimal pairings found."""
        from goledger.commands.pairing_report import pairing_report, report_lines

        with output_language(db, language, as_json):
            result = run(lambda: pairing_report(db or default_db(), round_, player))
            if as_json:
                print_json(result.to_dict())
                return
            for line in report_lines(result):
                echo(line)

    @app.command()
    def forbid(
        player_a: PlayerArg,
        player_b: PlayerArg,
        from_round: Annotated[int | None, typer.Option("--from-round", help="First round it binds.")] = None,
        until_round: Annotated[int | None, typer.Option(
            "--until-round", help="Last round it binds (\"not before round R\": R − 1).")] = None,
        lift: Annotated[bool, typer.Option("--lift", help="Take the constraint back.")] = False,
        unwanted: Annotated[bool, typer.Option("--unwanted", help="Only avoid the pair, as a repeat.")] = False,
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        reason: ReasonOption = "",
        expected_head: ExpectedHeadOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Forbid (or only avoid) pairing two players, e.g. family members."""
        from goledger import commands

        report_outcome(run(lambda: commands.forbid(
            db or default_db(), player_a, player_b, from_round, until_round, lift, unwanted, actor=actor,
            reason=reason, expected_head=expected_head)), as_json)

    @app.command("fix-pairing")
    def fix_pairing(
        player_a: PlayerArg,
        player_b: PlayerArg,
        round_: Annotated[int, typer.Option("--round", "-r", help="Round number (1-based).")],
        table: Annotated[int | None, typer.Option(help="Table of the game.")] = None,
        lift: Annotated[bool, typer.Option("--lift", help="Take the fixed pairing back.")] = False,
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        reason: ReasonOption = "",
        expected_head: ExpectedHeadOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Fix a game of a round for pair-round to place first (e.g. a top board)."""
        from goledger import commands

        report_outcome(run(lambda: commands.fix_pairing(
            db or default_db(), player_a, player_b, round_, table, lift, actor=actor, reason=reason,
            expected_head=expected_head)), as_json)

    @app.command("fix-table")
    def fix_table(
        player: PlayerArg,
        table: Annotated[int | None, typer.Option(help="The table (omit with --lift).")] = None,
        from_round: Annotated[int, typer.Option("--from-round", help="First round it binds.")] = 1,
        lift: Annotated[bool, typer.Option("--lift", help="Let the engine choose his table again.")] = False,
        db: DbOption = None,  # type: ignore[assignment]
        actor: ActorOption = "",
        reason: ReasonOption = "",
        expected_head: ExpectedHeadOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Make a player play at a given table from a round on."""
        from goledger import commands
        from goledger.cli.common import fail

        if (table is None) != lift:
            fail("give --table N, or --lift to free the player's table", 2)
        report_outcome(run(lambda: commands.fix_table(
            db or default_db(), player, None if lift else table, from_round, actor=actor, reason=reason,
            expected_head=expected_head)), as_json)
