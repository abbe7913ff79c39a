"""Pairing commands: thin shells over :mod:`goledger.commands.pairing` and
:mod:`goledger.commands.constraints` (same names, same arguments): ``pair-round``,
``unpair-round``, ``explain-pairing``, ``forbid``, ``fix-pairing``, ``fix-table``; one
module-level function each, the recording commands' shared options declared once
(:func:`goledger.cli.common.shared_options`)."""

from __future__ import annotations

from typing import Annotated, Any, Unpack

import typer

from goledger.cli.common import (
    Common,
    DbOption,
    JsonOption,
    LanguageOption,
    PlayerArg,
    Shared,
    default_db,
    echo,
    fail,
    output_language,
    print_json,
    recorded,
    render_text_table,
    shared_options,
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
        repeats = sum(r.in_force and r.round in (x.round, x.earlier_round) for x in report.repeats)
        if r.ok and repeats:
            echo(f"round {r.round} (event {r.seq}, {r.engine}, {state}): re-derived, but {repeats} of its games "
                 "repeat a game of another round")
        elif r.ok:
            echo(f"round {r.round} (event {r.seq}, {r.engine}, {state}): re-derived exactly")
        else:
            echo(f"round {r.round} (event {r.seq}, {r.engine}, {state}): {len(r.differences)} difference(s)")
            for d in r.differences:
                echo(f"  - {d}")
    for repeat in report.repeats:
        echo(f"repeated game: {repeat.sentence}")


def _print_outcome(outcome: Any) -> None:
    seqs = outcome.seqs
    where = f" (events {seqs[0]}–{seqs[-1]})" if seqs else ""
    _print_pairing(outcome.to_dict(), outcome.message + where)


def _check(round_: int, db: Any, as_json: bool) -> None:
    """``pair-round R --check``: re-derive the stored pairings; exit 1 on a difference."""
    from goledger import commands

    report = commands.check_pairings(db or default_db(), round_ or None)
    if as_json:
        print_json(report.to_dict())
    else:
        _print_check(report)
    if not report.ok:
        raise typer.Exit(1)


@shared_options(without=("retry",))
def pair_round(
    round_: RoundArg,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the pairing, write nothing.")] = False,
    engine: Annotated[str | None, typer.Option(help="Pairing engine (default: the system's).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of every random choice (default 0).")] = None,
    players: Annotated[str | None, typer.Option(help="Pair only these players, comma-separated.")] = None,
    check: Annotated[bool, typer.Option(
        "--check", help="Re-derive every stored pairing of the round (0: all rounds) and report differences "
                        "and games repeated between rounds.")
    ] = False,
    force: Annotated[bool, typer.Option(
        "--force", help="Pair even though an earlier round is not paired or has a game without a result.")
    ] = False,
    **shared: Unpack[Shared],
) -> None:
    """Pair a round automatically: games, colours, handicap, komi, tables and the bye."""
    from goledger import commands

    if check:
        _check(round_, shared.get("db"), shared.get("as_json", False))
        return
    chosen = [p.strip() for p in players.split(",") if p.strip()] if players is not None else None
    from goledger.cli.keys import warn_unchecked

    warn_unchecked(shared.get("db"), round_)  # check-in required and missing: said, never refused (issue 46)
    recorded(commands.pair_round, round_, dry_run=dry_run, engine=engine, seed=seed, players=chosen, force=force,
             show=lambda outcome: outcome.to_dict(), text=_print_outcome, **shared)


@shared_options(without=("retry",))
def unpair_round(
    round_: RoundArg,
    reason: Annotated[str, typer.Option("--reason", help="Why the round is paired again (kept in the log).")],
    **shared: Unpack[Common],
) -> None:
    """Remove every pairing of a round so that it can be paired again."""
    from goledger import commands

    recorded(commands.unpair_round, round_, reason, **shared)


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
        result = pairing_report(db or default_db(), round_, player)
        if as_json:
            print_json(result.to_dict())
            return
        for line in report_lines(result):
            echo(line)


@shared_options(without=("retry",))
def forbid(
    player_a: PlayerArg,
    player_b: PlayerArg,
    from_round: Annotated[int | None, typer.Option("--from-round", help="First round it binds.")] = None,
    until_round: Annotated[int | None, typer.Option(
        "--until-round", help="Last round it binds (\"not before round R\": R − 1).")] = None,
    lift: Annotated[bool, typer.Option("--lift", help="Take the constraint back.")] = False,
    unwanted: Annotated[bool, typer.Option("--unwanted", help="Only avoid the pair, as a repeat.")] = False,
    **shared: Unpack[Shared],
) -> None:
    """Forbid (or only avoid) pairing two players, e.g. family members."""
    from goledger import commands

    recorded(commands.forbid, player_a, player_b, from_round, until_round, lift, unwanted, **shared)


@shared_options(without=("retry",))
def fix_pairing(
    player_a: PlayerArg,
    player_b: PlayerArg,
    round_: Annotated[int, typer.Option("--round", "-r", help="Round number (1-based).")],
    table: Annotated[int | None, typer.Option(help="Table of the game.")] = None,
    lift: Annotated[bool, typer.Option("--lift", help="Take the fixed pairing back.")] = False,
    **shared: Unpack[Shared],
) -> None:
    """Fix a game of a round for pair-round to place first (e.g. a top board)."""
    from goledger import commands

    recorded(commands.fix_pairing, player_a, player_b, round_, table, lift, **shared)


@shared_options(without=("retry",))
def fix_table(
    player: PlayerArg,
    table: Annotated[int | None, typer.Option(help="The table (omit with --lift).")] = None,
    from_round: Annotated[int, typer.Option("--from-round", help="First round it binds.")] = 1,
    lift: Annotated[bool, typer.Option("--lift", help="Let the engine choose his table again.")] = False,
    **shared: Unpack[Shared],
) -> None:
    """Make a player play at a given table from a round on."""
    from goledger import commands

    if (table is None) != lift:
        fail("give --table N, or --lift to free the player's table", 2)
    recorded(commands.fix_table, player, None if lift else table, from_round, **shared)
