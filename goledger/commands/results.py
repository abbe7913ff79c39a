"""Results of games: ``goledger result``, ``correct`` and ``unpair``.

A result takes every notation of :data:`~goledger.ledger.result_notation.RESULT_HELP`; a
Go-style margin (``B+2.5``, ``W+R``) is kept on the event as an annotation, and ``W+F`` /
``B+F`` (won by forfeit) records the result by default. A result is recorded once
(:func:`decide_result`) and changed only by a correction with a reason
(:func:`decide_correct`); a withdrawn player's game takes no result. Removing a pairing
(:func:`decide_unpair`) takes its result with it; both stay in the log.
"""

from __future__ import annotations

from typing import Unpack

from goledger.commands.checks import check_system, game_at
from goledger.commands.recording import Appending, Outcome, PathLike, Plumbing, first_event, record
from goledger.describe.events import result_word
from goledger.describe.results import outcome_words
from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.ledger import events as ev
from goledger.ledger.result_notation import parse_result_notation
from goledger.ledger.values import Result
from goledger.outputs import one_line
from goledger.replay.fold.state import GameState, TournamentState

__all__ = [
    "correct",
    "correct_message",
    "decide_correct",
    "decide_result",
    "decide_unpair",
    "result",
    "result_message",
    "unpair",
    "unpair_message",
]


def parse_notation(text: str | Result, by_default: bool) -> tuple[Result, str, bool]:
    """(result, margin, by_default) of a typed result (:mod:`goledger.ledger.result_notation`);
    ``W+F``/``B+F`` (won by forfeit) records the result by default."""
    if isinstance(text, Result):
        return text, "", by_default
    try:
        notation = parse_result_notation(text)
    except ValueError as exc:
        raise CommandRejected(str(exc)) from None
    return notation.result, notation.margin, by_default or notation.forfeit


def _recordable(text: str | Result, by_default: bool) -> tuple[Result, str, bool]:
    outcome = parse_notation(text, by_default)
    if outcome[0] is Result.UNKNOWN:
        raise CommandRejected(say("'unknown' is not a result to record; correct a wrong result instead"))
    return outcome


def _check_result_players(state: TournamentState, game: GameState) -> None:
    for pid in (game.white, game.black):
        p = state.players[pid]
        if p.is_withdrawn(game.round):
            raise CommandRejected(say("%(id)s %(name)s withdrew from round %(round)d", id=p.id, name=p.full_name,
                                      round=p.withdrawn_from))


class ResultAlreadyRecorded(CommandRejected):
    """A result entered for a game that has one: the command line's sentence names
    ``goledger correct``; the desk says it in its own words (:attr:`round`, :attr:`table`,
    :attr:`result`)."""

    def __init__(self, round_: int, table: int, result: Result) -> None:
        super().__init__(say("round %(round)d table %(table)d already has a result (%(result)s); use "
                             "`goledger correct`", round=round_, table=table, result=result_word(result.value)))
        self.round, self.table, self.result = round_, table, result


def decide_result(state: TournamentState, round_: int, table: int, result: str | Result,
                  by_default: bool = False) -> list[ev.Event]:
    """The ``ResultRecorded`` of the game at (``round_``, ``table``). Refuses ``unknown``, a
    game that already has a result (correct it instead), a withdrawn player's game and what
    the tournament system forbids."""
    outcome, margin, by_default = _recordable(result, by_default)
    game = game_at(state, round_, table)
    _check_result_players(state, game)
    if game.result is not Result.UNKNOWN:
        raise ResultAlreadyRecorded(round_, table, game.result)
    event = ev.ResultRecorded(round=round_, table=table, result=outcome, by_default=by_default, margin=margin)
    check_system(state, event)
    return [event]


def _names(state: TournamentState, round_: int, table: int) -> tuple[str, str]:
    """The names of the white and the black player of a game (their ids when unknown)."""
    game = state.games[round_][table]
    return tuple(state.players[p].full_name if p in state.players else p  # type: ignore[return-value]
                 for p in (game.white, game.black))


def result_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``round 1 table 4: Altan Kuntay (black) won by resignation``: the board, then who won
    and how (:func:`goledger.describe.results.outcome_words`), in the language written in, so
    that whoever typed it sees the winner he meant (issue 40, item 4)."""
    event = first_event(events, ev.ResultRecorded)
    white, black = _names(state, event.round, event.table)
    return say("round %(round)d table %(table)d: %(outcome)s", round=event.round, table=event.table,
               outcome=outcome_words(event.result, event.margin, event.by_default, white, black))


def result(
    db: PathLike,
    round: int,  # noqa: A002
    table: int,
    result: str,
    by_default: bool = False,
    **plumbing: Unpack[Plumbing],
) -> Outcome:
    """Record the result of a game that has none yet (:func:`decide_result`; use
    :func:`correct` to change one)."""
    _recordable(result, by_default)  # a notation is refused before the ledger is opened
    return record(db, lambda state: decide_result(state, round, table, result, by_default), result_message,
                  **plumbing)


def _correctable(text: str | Result, by_default: bool, reason: str) -> tuple[Result, str, bool]:
    outcome = parse_notation(text, by_default)
    if not reason.strip():
        raise CommandRejected(say("a correction needs a reason"))
    return outcome


def decide_correct(state: TournamentState, round_: int, table: int, result: str | Result, reason: str,
                   by_default: bool = False) -> list[ev.Event]:
    """The ``ResultCorrected`` of the game at (``round_``, ``table``), with ``reason``.
    Refuses a correction without a reason, of a game without a result, one that changes
    nothing, a withdrawn player's game (unless the result becomes ``unknown``) and what the
    tournament system forbids."""
    outcome, margin, by_default = _correctable(result, by_default, reason)
    game = game_at(state, round_, table)
    if game.result is Result.UNKNOWN:
        raise CommandRejected(say("round %(round)d table %(table)d has no result yet; record it with "
                                  "`goledger result`", round=round_, table=table))
    if game.result is outcome and game.by_default == by_default:
        raise CommandRejected(
            say("round %(round)d table %(table)d already has the result %(result)s by default; nothing to correct",
                round=round_, table=table, result=result_word(outcome.value)) if by_default else
            say("round %(round)d table %(table)d already has the result %(result)s; nothing to correct",
                round=round_, table=table, result=result_word(outcome.value)))
    if outcome is not Result.UNKNOWN:
        _check_result_players(state, game)
    event = ev.ResultCorrected(round=round_, table=table, result=outcome, by_default=by_default, reason=reason,
                               margin=margin)
    check_system(state, event)
    return [event]


def correct_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``round 3 table 2: white → black: Berg Anna (black) won (scoring sheet misread)``: the
    change, then who won now (:func:`goledger.describe.results.outcome_words`)."""
    event = first_event(events, ev.ResultCorrected)
    before = state.games[event.round][event.table].result
    white, black = _names(state, event.round, event.table)
    return say("round %(round)d table %(table)d: %(before)s → %(after)s: %(outcome)s (%(reason)s)",
               round=event.round, table=event.table, before=result_word(before.value),
               after=result_word(event.result.value),
               outcome=outcome_words(event.result, event.margin, event.by_default, white, black),
               reason=one_line(event.reason))


def correct(
    db: PathLike,
    round: int,  # noqa: A002
    table: int,
    result: str,
    reason: str,
    by_default: bool = False,
    **plumbing: Unpack[Appending],
) -> Outcome:
    """Replace a recorded result, with a reason (:func:`decide_correct`)."""
    _correctable(result, by_default, reason)  # refused before the ledger is opened
    return record(db, lambda state: decide_correct(state, round, table, result, reason, by_default),
                  correct_message, reason=reason, **plumbing)


def decide_unpair(state: TournamentState, round_: int, table: int) -> list[ev.Event]:
    """The ``PairingRemoved`` of the game at (``round_``, ``table``)."""
    game_at(state, round_, table)
    return [ev.PairingRemoved(round=round_, table=table)]


def unpair_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``round 2 table 5 (p0003 vs p0011) unpaired``."""
    event = first_event(events, ev.PairingRemoved)
    game = state.games[event.round][event.table]
    return say("round %(round)d table %(table)d (%(white)s vs %(black)s) unpaired", round=event.round,
               table=event.table, white=game.white, black=game.black)


def unpair(
    db: PathLike,
    round: int,  # noqa: A002
    table: int,
    **plumbing: Unpack[Plumbing],
) -> Outcome:
    """Remove a pairing (:func:`decide_unpair`; its result, if any, goes with it)."""
    return record(db, lambda state: decide_unpair(state, round, table), unpair_message, **plumbing)
