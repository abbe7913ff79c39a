"""An event and its consequences: what a what-if leaves out with it (issue 42, docs/disputes.md).

"What if this had not happened?" leaves out an event **and every event that exists only
because of it**. An event exists only because of another when it refers to a fact the other
made, or undoes it, so that without the other it would be meaningless (the commands would
have refused it):

* a **registration**: every later event of that player (his updates, withdrawals, absences,
  byes) and every game he was paired in, with its consequences;
* a **game** (``GamePaired``): its results, corrections, hand edits (``GameEdited``,
  ``GameMoved``) and its removal (``PairingRemoved``), until its table is paired again; a
  ``RoundPaired``: the games and byes it made in the same stretch of the log, with theirs;
* a **result** (``ResultRecorded``): the corrections of that result, until the game is paired
  again (a correction only exists because there was a result to correct; a correction of a
  correction leaves the first result standing, so a correction has no such consequence);
* a **withdrawal**: the reinstatement that undoes it (the next ``PlayerReinstated`` of the
  same player);
* a **bye**: its removal; an **absence**: the cancellation of it (the next
  ``ParticipationChanged`` of the same player and round that says present).

The relation is closed: the consequences of a consequence are consequences too. Pairings of
later rounds made while the event was in force are *kept*: they depended on it (a withdrawn
player is not paired), but no one can say which games would have been played instead, so the
what-if keeps the games that were played and scores the rounds the player missed as the
rules score a round without a game. The page says so (docs/disputes.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goledger.ledger import events as ev

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["consequences"]

_GAME_FACTS = (ev.ResultRecorded, ev.ResultCorrected, ev.GameEdited, ev.GameMoved, ev.PairingRemoved)


def _game_consequences(events: Sequence[ev.Event], seq: int, round_: int, table: int) -> list[int]:
    """The events about the game paired at ``seq`` (round, table), until that table is paired again."""
    out: list[int] = []
    for later, event in enumerate(events[seq:], start=seq + 1):
        if isinstance(event, ev.GamePaired) and (event.round, event.table) == (round_, table):
            break
        if isinstance(event, _GAME_FACTS) and (event.round, event.table) == (round_, table):
            out.append(later)
            if isinstance(event, ev.PairingRemoved):
                break
        elif isinstance(event, ev.TablesRenumbered) and event.round == round_:
            break  # the game may be at another table from here: stop following it
    return out


def _corrections(events: Sequence[ev.Event], seq: int, round_: int, table: int) -> list[int]:
    out: list[int] = []
    for later, event in enumerate(events[seq:], start=seq + 1):
        if isinstance(event, ev.GamePaired | ev.PairingRemoved) and (event.round, event.table) == (round_, table):
            break
        if isinstance(event, ev.ResultCorrected) and (event.round, event.table) == (round_, table):
            out.append(later)
    return out


def _player_consequences(events: Sequence[ev.Event], seq: int, player_id: str) -> list[int]:
    out: list[int] = []
    for later, event in enumerate(events[seq:], start=seq + 1):
        own = getattr(event, "player_id", None) == player_id
        if own or (isinstance(event, ev.GamePaired) and player_id in (event.white, event.black)):
            out.append(later)
    return out


def _direct(events: Sequence[ev.Event], seq: int) -> list[int]:
    """The events that exist only because of event ``seq`` (one step; see the module doc)."""
    event = events[seq - 1]
    match event:
        case ev.PlayerRegistered(player_id=pid):
            return _player_consequences(events, seq, pid)
        case ev.GamePaired(round=r, table=t):
            return _game_consequences(events, seq, r, t)
        case ev.RoundPaired(round=r):
            made = []
            for later, other in enumerate(events[seq:], start=seq + 1):
                if isinstance(other, ev.GamePaired | ev.ByeAssigned) and other.round == r:
                    made.append(later)
                else:
                    break
            return made
        case ev.ResultRecorded(round=r, table=t):
            return _corrections(events, seq, r, t)
        case ev.PlayerWithdrew(player_id=pid):
            for later, other in enumerate(events[seq:], start=seq + 1):
                if isinstance(other, ev.PlayerReinstated) and other.player_id == pid:
                    return [later]
            return []
        case ev.ByeAssigned(round=r, player_id=pid):
            for later, other in enumerate(events[seq:], start=seq + 1):
                if isinstance(other, ev.ByeRemoved) and (other.round, other.player_id) == (r, pid):
                    return [later]
            return []
        case ev.ParticipationChanged(round=r, player_id=pid, participating=False):
            for later, other in enumerate(events[seq:], start=seq + 1):
                if isinstance(other, ev.ParticipationChanged) and (other.round, other.player_id) == (r, pid):
                    return [later] if other.participating else []
            return []
    return []


def consequences(events: Sequence[ev.Event], seq: int) -> tuple[int, ...]:
    """Event ``seq`` (1-based) and every event that exists only because of it, transitively,
    in log order (see the module doc).

    >>> from goledger.ledger.values import Result
    >>> log = [ev.PlayerWithdrew(player_id="p1", from_round=3),
    ...        ev.GamePaired(round=3, table=1, white="p2", black="p3"),
    ...        ev.ResultRecorded(round=3, table=1, result=Result.WHITE),
    ...        ev.ResultCorrected(round=3, table=1, result=Result.BLACK),
    ...        ev.PlayerReinstated(player_id="p1", from_round=4)]
    >>> consequences(log, 1), consequences(log, 2), consequences(log, 3), consequences(log, 4)
    ((1, 5), (2, 3, 4), (3, 4), (4,))
    """
    found = {seq}
    todo = [seq]
    while todo:
        for later in _direct(events, todo.pop()):
            if later not in found:
                found.add(later)
                todo.append(later)
    return tuple(sorted(found))
