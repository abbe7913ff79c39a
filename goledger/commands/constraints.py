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

from typing import Literal, Unpack

from goledger.commands.checks import check_round, check_table
from goledger.commands.recording import Outcome, PathLike, Plumbing, first_event, record
from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.ledger import events as ev
from goledger.replay.fold.players import find_player
from goledger.replay.fold.state import TournamentState

__all__ = ["decide_fix_pairing", "decide_fix_table", "decide_forbid", "fix_pairing", "fix_table", "forbid"]


def decide_forbid(state: TournamentState, player_a: str, player_b: str, from_round: int | None = None,
                  until_round: int | None = None, lift: bool = False, unwanted: bool = False) -> list[ev.Event]:
    """The ``PairingConstraintSet`` forbidding (``unwanted``: avoiding) the pair in rounds
    ``from_round``..``until_round``, or lifting it (``lift``). Refuses the same player twice,
    rounds out of range or reversed, and a change that changes nothing."""
    a, b = find_player(state, player_a), find_player(state, player_b)
    if a.id == b.id:
        raise CommandRejected(say("%(player)s is named twice", player=f"{a.id} {a.full_name}"))
    for r in (from_round, until_round):
        if r is not None:
            check_round(state, r)
    if from_round is not None and until_round is not None and until_round < from_round:
        raise CommandRejected(say("round %(until)d comes before round %(start)d", until=until_round, start=from_round))
    current = state.pairing_constraints.get(min(a.id, b.id), {}).get(max(a.id, b.id))
    if lift:
        if current is None:
            raise CommandRejected(say("%(a)s and %(b)s have no pairing constraint", a=f"{a.id} {a.full_name}",
                                  b=f"{b.id} {b.full_name}"))
        return [ev.PairingConstraintSet(player_a=a.id, player_b=b.id, constraint="none")]
    kind: Literal["unwanted", "forbidden"] = "unwanted" if unwanted else "forbidden"
    bounds = state.constraint_rounds.get(min(a.id, b.id), {}).get(max(a.id, b.id))
    same_bounds = (bounds or [None, None]) == [from_round, until_round]
    if current == kind and same_bounds:
        pair = {"a": f"{a.id} {a.full_name}", "b": f"{b.id} {b.full_name}"}
        raise CommandRejected(say("%(a)s and %(b)s are already forbidden", **pair) if kind == "forbidden"
                              else say("%(a)s and %(b)s are already unwanted", **pair))
    return [ev.PairingConstraintSet(player_a=a.id, player_b=b.id, constraint=kind, from_round=from_round,
                                    until_round=until_round)]


def forbid_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``p0001 Abe Ann and p0002 Abe Bo: pairing forbidden from round 2``."""
    event = first_event(events, ev.PairingConstraintSet)
    a, b = state.players[event.player_a], state.players[event.player_b]
    pair = f"{a.id} {a.full_name} and {b.id} {b.full_name}"
    if event.constraint == "none":
        return say("%(pair)s: pairing constraint lifted", pair=pair)
    said = say("%(pair)s: pairing forbidden", pair=pair) if event.constraint == "forbidden" else say(
        "%(pair)s: pairing unwanted", pair=pair)
    if event.from_round is not None and event.until_round is not None:
        return say("%(said)s from round %(start)d until round %(until)d", said=said, start=event.from_round,
                   until=event.until_round)
    if event.from_round is not None:
        return say("%(said)s from round %(start)d", said=said, start=event.from_round)
    if event.until_round is not None:
        return say("%(said)s until round %(until)d", said=said, until=event.until_round)
    return said


def forbid(
    db: PathLike,
    player_a: str,
    player_b: str,
    from_round: int | None = None,
    until_round: int | None = None,
    lift: bool = False,
    unwanted: bool = False,
    **plumbing: Unpack[Plumbing],
) -> Outcome:
    """Forbid pairing ``player_a`` with ``player_b`` (:func:`decide_forbid`; ``unwanted``: only
    avoid it, as a repeat is avoided): "not before round R" is ``until_round = R − 1``."""
    return record(db, lambda state: decide_forbid(state, player_a, player_b, from_round, until_round, lift,
                                                  unwanted), forbid_message, **plumbing)


def decide_fix_pairing(state: TournamentState, player_a: str, player_b: str, round_: int, table: int | None = None,
                       lift: bool = False) -> list[ev.Event]:
    """The ``PairingFixed`` of the pair in ``round_`` (at ``table`` if given) for
    ``pair-round`` to place first, or its lifting (``lift``). Refuses a forbidden pair, a round
    already holding a game of either player, a table below 1, and a pairing that would undo
    another fixed pairing or fixed table (:func:`_check_fixed_elsewhere`)."""
    check_round(state, round_)
    a, b = find_player(state, player_a), find_player(state, player_b)
    if a.id == b.id:
        raise CommandRejected(say("%(player)s cannot play himself", player=f"{a.id} {a.full_name}"))
    x, y = sorted((a.id, b.id))
    if lift:
        if state.fixed_pairs.get(round_, {}).get(x, (None,))[0] != y:
            raise CommandRejected(say("round %(round)d has no fixed pairing of %(a)s and %(b)s",
                                      round=round_, a=a.id, b=b.id))
        return [ev.PairingFixed(round=round_, player_a=x, player_b=y, lifted=True)]
    check_table(table)
    if state.constraint_in(a.id, b.id, round_) == "forbidden":
        raise CommandRejected(say("%(a)s and %(b)s must not be paired in round %(round)d", a=f"{a.id} {a.full_name}",
                                  b=f"{b.id} {b.full_name}", round=round_))
    for p in (a, b):
        game = state.game_of(p.id, round_)
        if game is not None:
            raise CommandRejected(say("%(player)s is already paired in round %(round)d (table %(table)d)",
                                      player=f"{p.id} {p.full_name}", round=round_, table=game.table))
    _check_fixed_elsewhere(state, round_, x, y, table)
    return [ev.PairingFixed(round=round_, player_a=x, player_b=y, table=table)]


def _check_fixed_elsewhere(state: TournamentState, round_: int, x: str, y: str, table: int | None) -> None:
    """Refuse a fixed pairing that would quietly undo another (issue 40, item 6): the same pair
    fixed as it is, a player already fixed against someone else in the round, the table of
    another fixed pair, or a table fixed for another player (``fix-table``)."""
    fixed = state.fixed_pairs.get(round_, {})
    if fixed.get(x) == (y, table):
        if table is not None:
            raise CommandRejected(say("round %(round)d: %(a)s and %(b)s are already fixed to play at table "
                                      "%(table)d", round=round_, a=x, b=y, table=table))
        raise CommandRejected(say("round %(round)d: %(a)s and %(b)s are already fixed to play", round=round_,
                                  a=x, b=y))
    for a, (b, at) in sorted(fixed.items()):
        if {a, b} == {x, y}:
            continue
        if {a, b} & {x, y}:
            raise CommandRejected(say("round %(round)d: %(a)s and %(b)s are already fixed to play; lift that "
                                      "first (%(command)s)", round=round_, a=a, b=b,
                                      command=f"goledger fix-pairing {a} {b} --round {round_} --lift"))
        if table is not None and at == table:
            raise CommandRejected(say("round %(round)d table %(table)d is already fixed for %(a)s and %(b)s; "
                                      "choose another table or lift that first (%(command)s)", round=round_,
                                      table=table, a=a, b=b,
                                      command=f"goledger fix-pairing {a} {b} --round {round_} --lift"))
    if table is not None:
        for other in sorted(state.fixed_tables):
            if other not in (x, y) and state.fixed_table(other, round_) == table:
                raise CommandRejected(say("round %(round)d table %(table)d is fixed for %(player)s "
                                          "(goledger fix-table); choose another table", round=round_,
                                          table=table, player=other))


def fix_pairing(
    db: PathLike,
    player_a: str,
    player_b: str,
    round: int,  # noqa: A002 - the CLI option is --round
    table: int | None = None,
    lift: bool = False,
    **plumbing: Unpack[Plumbing],
) -> Outcome:
    """Fix the game of ``player_a`` and ``player_b`` in ``round`` (:func:`decide_fix_pairing`)."""

    def describe(state: TournamentState, events: list[ev.Event]) -> str:
        a, b = find_player(state, player_a), find_player(state, player_b)
        if lift:
            return say("round %(round)d: fixed pairing of %(a)s and %(b)s lifted", round=round,
                       a=f"{a.id} {a.full_name}", b=f"{b.id} {b.full_name}")
        if table is not None:
            return say("round %(round)d: %(a)s and %(b)s will play at table %(table)d", round=round,
                       a=f"{a.id} {a.full_name}", b=f"{b.id} {b.full_name}", table=table)
        return say("round %(round)d: %(a)s and %(b)s will play", round=round, a=f"{a.id} {a.full_name}",
                   b=f"{b.id} {b.full_name}")

    return record(db, lambda state: decide_fix_pairing(state, player_a, player_b, round, table, lift), describe,
                  **plumbing)


def decide_fix_table(state: TournamentState, player: str, table: int | None, from_round: int = 1) -> list[ev.Event]:
    """The ``TableFixed`` of ``player`` at ``table`` from ``from_round`` on (``None`` lifts it).
    Refuses a table below 1, another player or a fixed pair of a later round fixed to that
    table, and a change that changes nothing."""
    check_round(state, from_round)
    p = find_player(state, player)
    check_table(table)
    if state.fixed_table(p.id, from_round) == table:
        player = f"{p.id} {p.full_name}"
        raise CommandRejected(say("%(player)s is already at table %(table)d from round %(round)d", player=player,
                                  table=table, round=from_round) if table else
                              say("%(player)s is already free from round %(round)d", player=player,
                                  round=from_round))
    if table is not None:
        for other in state.fixed_tables:
            if other != p.id and state.fixed_table(other, from_round) == table:
                raise CommandRejected(say("table %(table)d is already fixed for %(player)s from round %(round)d",
                                          table=table, player=other, round=from_round))
        for round_, pairs in sorted(state.fixed_pairs.items()):
            for a, (b, at) in sorted(pairs.items()):
                if round_ >= from_round and at == table and p.id not in (a, b):
                    raise CommandRejected(say("round %(round)d table %(table)d is already fixed for %(a)s and "
                                              "%(b)s (goledger fix-pairing); choose another table",
                                              round=round_, table=table, a=a, b=b))
    return [ev.TableFixed(player_id=p.id, table=table, from_round=from_round)]


def fix_table_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``p0003 Abe Ann plays at table 1 from round 2``."""
    event = first_event(events, ev.TableFixed)
    p = state.players[event.player_id]
    player = f"{p.id} {p.full_name}"
    if event.table is not None:
        return say("%(player)s plays at table %(table)d from round %(round)d", player=player, table=event.table,
                   round=event.from_round)
    return say("%(player)s is no longer fixed to a table from round %(round)d", player=player,
               round=event.from_round)


def fix_table(
    db: PathLike,
    player: str,
    table: int | None,
    from_round: int = 1,
    **plumbing: Unpack[Plumbing],
) -> Outcome:
    """From ``from_round`` on, ``player`` plays at ``table`` (:func:`decide_fix_table`)."""
    return record(db, lambda state: decide_fix_table(state, player, table, from_round), fix_table_message,
                  **plumbing)
