"""``goledger freeze`` and ``goledger unfreeze``: the standings frozen after the last round
(issue 47, item 5; pairgoth's "freeze standings"), docs/freeze.md.

Freezing is an event (``StandingsFrozen``, with the director's reason), and so is unfreezing
(``StandingsUnfrozen``, a reason required too), so the log says who froze the standings, when
and why. While they are frozen, :func:`check_frozen` — called by the one write path,
:func:`goledger.commands.recording.record`, on every decided command
(:func:`goledger.commands.frozen.check_frozen`) — accepts:

* a correction of a player's identity: ``update-player`` changing only the surname, first
  name, club, country, EGD PIN or other identifiers (``ids``), which no criterion reads;
* any other event that leaves every standing as it was: every player's place and every
  criterion value at the tournament's last round, computed before and after (showing a
  round, a checkpoint…);

and refuses anything else — a result, a correction, a rank, a new player, a rule — in one
sentence naming the freeze, until ``goledger unfreeze --reason …``.
"""

from __future__ import annotations

from typing import Unpack

from goledger.commands.recording import Appending, Outcome, PathLike, first_event, record
from goledger.errors import CommandRejected
from goledger.i18n import N_
from goledger.i18n.messages import say, say_at
from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.replay.fold.state import TournamentState

__all__ = ["decide_freeze", "decide_unfreeze", "freeze", "freeze_message", "unfreeze", "unfreeze_message"]


def decide_freeze(state: TournamentState, reason: str) -> list[ev.Event]:
    """``StandingsFrozen(reason)``; refused without a reason, when already frozen, before any
    game, and while a game of the last played round has no result.

    >>> from goledger.replay.fold.state import fold
    >>> s = fold([ev.TournamentCreated(settings=ev.TournamentSettings(name="T", rounds=1)),
    ...           ev.PlayerRegistered(player_id="p0001", surname="Sato", rank="2d"),
    ...           ev.PlayerRegistered(player_id="p0002", surname="Ito", rank="1k"),
    ...           ev.GamePaired(round=1, table=1, white="p0001", black="p0002")])
    >>> decide_freeze(s, "final")
    Traceback (most recent call last):
    ...
    goledger.errors.CommandRejected: round 1 has 1 game(s) without a result (table 1): record them before freezing
    """
    if not reason.strip():
        raise CommandRejected(say_at("say why the standings are frozen: --reason TEXT",
                                     N_("say why the standings are frozen: fill in the reason")))
    if state.frozen is not None:
        raise CommandRejected(say("the standings are already frozen (event %(event)d: %(reason)s)",
                                  event=state.frozen[0], reason=state.frozen[1]))
    last = state.last_round_with_games()
    if not last:
        raise CommandRejected(say("no game has been paired yet: there are no standings to freeze"))
    open_tables = [g.table for g in state.games_of_round(last) if g.result is Result.UNKNOWN]
    if open_tables:
        raise CommandRejected(say("round %(round)d has %(n)d game(s) without a result (table %(tables)s): record them "
                                  "before freezing", round=last, n=len(open_tables),
                                  tables=", ".join(map(str, open_tables))))
    return [ev.StandingsFrozen(reason=reason.strip())]


def decide_unfreeze(state: TournamentState, reason: str) -> list[ev.Event]:
    """``StandingsUnfrozen(reason)``; refused when not frozen or without a reason."""
    if state.frozen is None:
        raise CommandRejected(say("the standings are not frozen"))
    if not reason.strip():
        raise CommandRejected(say_at("say why the standings are unfrozen: --reason TEXT",
                                     N_("say why the standings are unfrozen: fill in the reason")))
    return [ev.StandingsUnfrozen(reason=reason.strip())]


def freeze_message(state: TournamentState, events: list[ev.Event]) -> str:
    reason = first_event(events, ev.StandingsFrozen).reason
    return say("standings frozen after round %(round)d: %(reason)s", round=state.last_round_with_games(), reason=reason)


def unfreeze_message(state: TournamentState, events: list[ev.Event]) -> str:
    return say("standings unfrozen: %(reason)s", reason=first_event(events, ev.StandingsUnfrozen).reason)


def freeze(db: PathLike, reason: str = "", **plumbing: Unpack[Appending]) -> Outcome:
    """Freeze the standings (:func:`decide_freeze`); the reason is also the envelope's."""
    return record(db, lambda state: decide_freeze(state, reason), freeze_message, reason=reason, **plumbing)


def unfreeze(db: PathLike, reason: str = "", **plumbing: Unpack[Appending]) -> Outcome:
    """Unfreeze the standings (:func:`decide_unfreeze`)."""
    return record(db, lambda state: decide_unfreeze(state, reason), unfreeze_message, reason=reason, **plumbing)
