"""Pairing constraints as events (issue 15): forbidden pairs (family, couples), "not before
round R", fixed pairings (a pair at a table) and fixed tables (a player at a given table).

Every pairing engine honours them: a forbidden pair gets no edge in the matching, fixed pairs
are placed first, fixed tables are given first. Manual ``goledger pair`` refuses a forbidden
pair unless ``--force``. Each constraint binds future pairings only; games already paired stay.

>>> from goledger import commands
>>> callable(commands.forbid) and callable(commands.fix_pairing) and callable(commands.fix_table)
True
"""

from __future__ import annotations

from typing import Any, Literal

from goledger.commands.record import Outcome, PathLike, _check_round, _run
from goledger.errors import CommandRejected
from goledger.ledger import events as ev
from goledger.replay.players import find_player

__all__ = ["fix_pairing", "fix_table", "forbid"]


def forbid(
    db: PathLike,
    player_a: str,
    player_b: str,
    from_round: int | None = None,
    until_round: int | None = None,
    lift: bool = False,
    unwanted: bool = False,
    *,
    actor: str = "",
    reason: str = "",
    expected_head: int | None = None,
) -> Outcome:
    """Forbid pairing ``player_a`` with ``player_b`` (``unwanted``: only avoid it, as a repeat
    is avoided), in rounds ``from_round``..``until_round`` (either end open): "not before round
    R" is ``until_round = R − 1``. ``lift`` takes the constraint back. Refuses the same player
    twice, rounds out of range or reversed, and a change that changes nothing."""

    def build(state: Any) -> tuple[list[ev.Event], str]:
        a, b = find_player(state, player_a), find_player(state, player_b)
        if a.id == b.id:
            raise CommandRejected(f"{a.id} {a.full_name} is named twice")
        for r in (from_round, until_round):
            if r is not None:
                _check_round(state, r)
        if from_round is not None and until_round is not None and until_round < from_round:
            raise CommandRejected(f"round {until_round} comes before round {from_round}")
        current = state.pairing_constraints.get(min(a.id, b.id), {}).get(max(a.id, b.id))
        if lift:
            if current is None:
                raise CommandRejected(f"{a.id} {a.full_name} and {b.id} {b.full_name} have no pairing constraint")
            event = ev.PairingConstraintSet(player_a=a.id, player_b=b.id, constraint="none")
            return [event], f"{a.id} {a.full_name} and {b.id} {b.full_name}: pairing constraint lifted"
        kind: Literal["unwanted", "forbidden"] = "unwanted" if unwanted else "forbidden"
        bounds = state.constraint_rounds.get(min(a.id, b.id), {}).get(max(a.id, b.id))
        same_bounds = (bounds or [None, None]) == [from_round, until_round]
        if current == kind and same_bounds:
            raise CommandRejected(f"{a.id} {a.full_name} and {b.id} {b.full_name} are already {kind}")
        event = ev.PairingConstraintSet(player_a=a.id, player_b=b.id, constraint=kind, from_round=from_round,
                                        until_round=until_round)
        scope = (f" from round {from_round}" if from_round is not None else "") + (
            f" until round {until_round}" if until_round is not None else "")
        return [event], f"{a.id} {a.full_name} and {b.id} {b.full_name}: pairing {kind}{scope}"

    return _run(db, build, actor=actor, reason=reason, expected_head=expected_head, retry=False)


def fix_pairing(
    db: PathLike,
    player_a: str,
    player_b: str,
    round: int,  # noqa: A002 - the CLI option is --round
    table: int | None = None,
    lift: bool = False,
    *,
    actor: str = "",
    reason: str = "",
    expected_head: int | None = None,
) -> Outcome:
    """Fix the game of ``player_a`` and ``player_b`` in ``round`` (at ``table`` if given) for
    ``pair-round`` to place first; ``lift`` takes it back. Refuses a forbidden pair, a round
    already holding a game of either player, and a table below 1."""

    def build(state: Any) -> tuple[list[ev.Event], str]:
        _check_round(state, round)
        a, b = find_player(state, player_a), find_player(state, player_b)
        if a.id == b.id:
            raise CommandRejected(f"{a.id} {a.full_name} cannot play himself")
        x, y = sorted((a.id, b.id))
        if lift:
            if state.fixed_pairs.get(round, {}).get(x, (None,))[0] != y:
                raise CommandRejected(f"round {round} has no fixed pairing of {a.id} and {b.id}")
            return [ev.PairingFixed(round=round, player_a=x, player_b=y, lifted=True)], (
                f"round {round}: fixed pairing of {a.id} {a.full_name} and {b.id} {b.full_name} lifted")
        if table is not None and table < 1:
            raise CommandRejected(f"table {table} must be 1 or more")
        if state.constraint_in(a.id, b.id, round) == "forbidden":
            raise CommandRejected(f"{a.id} {a.full_name} and {b.id} {b.full_name} must not be paired in round {round}")
        for p in (a, b):
            game = state.game_of(p.id, round)
            if game is not None:
                raise CommandRejected(f"{p.id} {p.full_name} is already paired in round {round} (table {game.table})")
        at = f" at table {table}" if table is not None else ""
        return [ev.PairingFixed(round=round, player_a=x, player_b=y, table=table)], (
            f"round {round}: {a.id} {a.full_name} and {b.id} {b.full_name} will play{at}")

    return _run(db, build, actor=actor, reason=reason, expected_head=expected_head, retry=False)


def fix_table(
    db: PathLike,
    player: str,
    table: int | None,
    from_round: int = 1,
    *,
    actor: str = "",
    reason: str = "",
    expected_head: int | None = None,
) -> Outcome:
    """From ``from_round`` on, ``player`` plays at ``table`` (``None`` lifts it). Refuses a
    table below 1, another player fixed to that table, and a change that changes nothing."""

    def build(state: Any) -> tuple[list[ev.Event], str]:
        _check_round(state, from_round)
        p = find_player(state, player)
        if table is not None and table < 1:
            raise CommandRejected(f"table {table} must be 1 or more")
        if state.fixed_table(p.id, from_round) == table:
            raise CommandRejected(f"{p.id} {p.full_name} is already {'at table ' + str(table) if table else 'free'} "
                                  f"from round {from_round}")
        if table is not None:
            for other in state.fixed_tables:
                if other != p.id and state.fixed_table(other, from_round) == table:
                    raise CommandRejected(f"table {table} is already fixed for {other} from round {from_round}")
        event = ev.TableFixed(player_id=p.id, table=table, from_round=from_round)
        what = f"plays at table {table}" if table is not None else "is no longer fixed to a table"
        return [event], f"{p.id} {p.full_name} {what} from round {from_round}"

    return _run(db, build, actor=actor, reason=reason, expected_head=expected_head, retry=False)
