"""Checking in (issue 46, point 2): the deciders and the status view, folded in memory.

:func:`tests.commands.conftest.refusal_open`: round 1 paired, Dias (p0004) absent in round 2,
Chen (p0003) withdrew from round 3."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from goledger.commands.checking_in import decide_absent_unchecked, decide_check_in
from goledger.ledger import events as ev
from goledger.replay.fold.state import TournamentState, fold
from goledger.replay.scoring.check_ins import check_in_status, next_round

from .conftest import refusal_open, refused

Then = Callable[..., TournamentState]


def _with(setting: str, *more: ev.Event) -> TournamentState:
    events = refusal_open(*more)
    created = events[0]
    assert isinstance(created, ev.TournamentCreated)
    settings = msgspec.structs.replace(created.settings, check_in=setting)
    return fold([ev.TournamentCreated(settings=settings), *events[1:]])


def test_a_check_in_is_an_event_and_the_status_says_so(state: TournamentState, then: Then) -> None:
    assert next_round(state) == 2
    assert decide_check_in(state, "p0001", 2) == [ev.CheckedIn(player_id="p0001", round=2)]
    after = then(ev.CheckedIn(player_id="p0001", round=2))
    status = check_in_status(after, 2)
    assert status.checked_in == ("p0001",)
    assert status.absent == ("p0004",)
    assert status.waiting == ("p0002", "p0003", "p0005")
    assert not status.paired and status.required == "no"


def test_an_absence_takes_the_check_in_back_and_a_check_in_cancels_the_absence(then: Then) -> None:
    later = then(ev.CheckedIn(player_id="p0001", round=2),
                 ev.ParticipationChanged(player_id="p0001", round=2, participating=False))
    assert "p0001" in check_in_status(later, 2).absent
    assert decide_check_in(later, "p0001", 2) == [
        ev.ParticipationChanged(player_id="p0001", round=2, participating=True),
        ev.CheckedIn(player_id="p0001", round=2)]


def test_check_in_is_refused_once_paired_withdrawn_or_twice(state: TournamentState, then: Then) -> None:
    assert "already paired" in refused(lambda: decide_check_in(state, "p0001", 1))
    assert "withdrew from round 3" in refused(lambda: decide_check_in(state, "p0003", 3))
    assert "outside 1..3" in refused(lambda: decide_check_in(state, "p0001", 4))
    twice = then(ev.CheckedIn(player_id="p0002", round=2))
    assert "already checked in for round 2" in refused(lambda: decide_check_in(twice, "p0002", 2))
    assert "no player matches" in refused(lambda: decide_check_in(state, "nobody", 2))


def test_once_means_a_check_in_counts_for_the_later_rounds() -> None:
    once = _with("once", ev.CheckedIn(player_id="p0002", round=2))
    assert "p0002" in check_in_status(once, 3).checked_in
    assert "already checked in for round 3" in refused(lambda: decide_check_in(once, "p0002", 3))
    every = _with("every", ev.CheckedIn(player_id="p0002", round=2))
    assert "p0002" in check_in_status(every, 3).waiting
    assert check_in_status(every, 3).required == "every"


def test_mark_the_others_absent_records_one_absence_per_waiting_player(then: Then) -> None:
    after = then(ev.CheckedIn(player_id="p0001", round=2))
    assert decide_absent_unchecked(after, 2) == [
        ev.ParticipationChanged(player_id=pid, round=2, participating=False) for pid in ("p0002", "p0003", "p0005")]
    done = then(ev.CheckedIn(player_id="p0001", round=2),
                *decide_absent_unchecked(after, 2))
    assert check_in_status(done, 2).waiting == ()
    assert "nobody to mark absent" in refused(lambda: decide_absent_unchecked(done, 2))
    assert "already paired" in refused(lambda: decide_absent_unchecked(done, 1))


def test_a_check_in_of_an_unknown_player_in_an_old_log_is_ignored_and_named() -> None:
    state = fold(refusal_open(ev.CheckedIn(player_id="p0099", round=2)))
    assert state.check_ins == {}
    assert any("unknown player p0099" in a.message for a in state.anomalies)
