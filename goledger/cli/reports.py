"""Players' own result reports at the command line (issue 46): ``goledger reports`` (a round's
games by what their players reported) and ``goledger approve-reports`` (record the agreeing
ones); thin shells over :func:`goledger.replay.scoring.reports.round_reports` and
:func:`goledger.commands.approve_reports`. Players report from their phones
(``/k/KEY/result``), never from here."""

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
    shared_options,
)

RoundOption = Annotated[int, typer.Option("--round", "-r", help="Round number (1-based).")]


def reports(round_: RoundOption, db: DbOption = None, as_json: JsonOption = False) -> None:  # type: ignore[assignment]
    """A round's games by what their players reported from their phones: agree, disagree,
    one report, none, recorded (both claims shown)."""
    import msgspec

    from goledger.replay.views import REPORT_STATUSES as STATUSES
    from goledger.replay.views import round_reports, state_as_of

    state = state_as_of(db or default_db())
    if not 1 <= round_ <= state.rounds:
        _refuse(f"round {round_} is outside 1..{state.rounds} of this tournament")
    rows = round_reports(state, round_)
    if as_json:
        print_json({"round": round_, "games": msgspec.to_builtins(rows)})
        return
    for status in STATUSES:
        chosen = [r for r in rows if r.status == status]
        echo(f"{status}: {len(chosen)}")
        for r in chosen:
            claims = " / ".join(f"{c.outcome}{'+' + c.margin if c.margin else ''}" if c else "-"
                                for c in (r.white_claim, r.black_claim))
            echo(f"  table {r.table}: {state.players[r.white].full_name} – {state.players[r.black].full_name}: "
                 f"{claims}" + (f" → {r.claimed.value}" if r.claimed else ""))


def _refuse(message: str) -> None:
    from goledger.errors import CommandRejected

    raise CommandRejected(message)


@shared_options()
def approve_reports(
    round_: RoundOption,
    table: Annotated[int | None, typer.Option("--table", "-t", help="Only this table (default: all agreeing).")]
    = None,
    **shared: Unpack[Shared],
) -> None:
    """Record the results both players of a game reported alike in a round (each result's
    actor names both players and you)."""
    from goledger.commands.player_reports import approve_reports as command

    recorded(command, round_, () if table is None else (table,), **shared)
