"""Incremental replay (``replay/rounds.py``): a per-round table derived from an earlier one
while a state is walked forward equals the table built from scratch, after every event and
after runs of events, under several policies — and the audits that use it give the same
results as without it."""

from __future__ import annotations

import random
from collections.abc import Iterator

import msgspec
import pytest

from benchmarks.generate import generate_events
from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.replay.fold.state import TournamentState, apply, fold
from goledger.replay.scoring import rounds
from goledger.replay.scoring.policies import get_policy

FIELDS = ("status", "game", "opp", "res2", "hd", "smms", "listed", "nbw2", "mms2", "unpaired_nbw2", "unpaired_mms2")


def events_with_every_kind(seed: int) -> list[ev.Event]:
    """A generated congress, then late corrections of every kind the fold knows."""
    rng = random.Random(seed)
    out = generate_events(40, 5, seed)
    state = fold(out)
    ids = list(state.players)
    games = [g for r in sorted(state.games) for g in state.games[r].values()]
    g1, g2 = rng.sample(games, 2)
    byes = [(r, pid) for r, given in state.byes.items() for pid in given]
    out += [
        ev.PairingRemoved(round=g1.round, table=g1.table),
        ev.GamePaired(round=g1.round, table=g1.table + 100, white=g1.black, black=g1.white, handicap=2),
        ev.ResultRecorded(round=g1.round, table=g1.table + 100, result=Result.JIGO),
        ev.GamePaired(round=g2.round, table=g2.table, white=g2.black, black=g2.white),  # replaces a table
        ev.ResultCorrected(round=g2.round, table=g2.table, result=Result.BOTH_WIN, by_default=True),
        ev.PlayerUpdated(player_id=ids[3], changes={"rank": "6d"}),
        ev.PlayerUpdated(player_id=ids[4], changes={"mm_correction": 2}),
        ev.PlayerUpdated(player_id=ids[8], changes={"surname": "Renamed"}),  # names and the tie order move
        ev.ParticipationChanged(player_id=ids[5], round=5, participating=False, points2=1),
        ev.PlayerWithdrew(player_id=ids[6], from_round=4),
        ev.PlayerReinstated(player_id=ids[6], from_round=5),
        ev.PlayerRegistered(player_id="p9999", surname="Late", first_name="Comer", rank="3k"),
        ev.ByeAssigned(round=5, player_id="p9999", points2=2),
        ev.ByeAssigned(round=5, player_id=ids[7]),  # a second bye in a round
        ev.PairingConstraintSet(player_a=ids[0], player_b=ids[1], constraint="forbidden"),
    ]
    if byes:
        r, pid = byes[0]
        out.append(ev.ByeRemoved(round=r, player_id=pid))
    out.append(ev.RulesChanged(changes={"mms2_absent": 0}))
    out.append(ev.ResultCorrected(round=g1.round, table=g1.table + 100, result=Result.WHITE))
    return out


def tracked_points(events: list[ev.Event], rng: random.Random, skip: float
                   ) -> Iterator[tuple[int, ev.Event, TournamentState]]:
    """``(i, event, state)`` at the points an audit's forward pass looks at, on one tracked
    state (:func:`rounds.note_event` before each event): after every event once the
    tournament exists, but for runs of events between the points, as in a bisection (an
    event is passed with probability ``skip``; the first two and the last are never)."""
    state = TournamentState()
    rounds.track(state)
    try:
        for i, event in enumerate(events):
            rounds.note_event(state, event)
            apply(state, event)
            if state.settings is None or (i > 1 and rng.random() < skip and i != len(events) - 1):
                continue
            yield i, event, state
    finally:
        rounds.untrack(state)


def same(a: rounds.RoundTable, b: rounds.RoundTable) -> list[str]:
    return [name for name in FIELDS if msgspec.to_builtins(getattr(a, name)) != msgspec.to_builtins(getattr(b, name))
            or list(getattr(a, name)) != list(getattr(b, name))]


@pytest.mark.parametrize("policy", ["opengotha", "egf", "macmahon"])
@pytest.mark.parametrize("seed", [1, 2])
def test_derived_tables_equal_fresh_ones(policy: str, seed: int) -> None:
    pol = get_policy(policy)
    if policy == "egf":
        pol = pol.with_overrides({"not_assigned": "absent", "withdrawn": "zero"})
    events = events_with_every_kind(seed)
    base = fold(events[:1])
    derived = 0
    for i, event, state in tracked_points(events, random.Random(seed), 0.6):
        settings = state.settings_for_round(5)
        before = len(rounds._CACHE)
        table = rounds.round_table(state, pol, settings, 5)
        fresh = rounds.RoundTable(state, pol, settings, rounds.table_size(state, 5))
        assert not same(table, fresh), (i, type(event).__name__, same(table, fresh))
        assert table.names() == fresh.names(), (i, type(event).__name__)  # shared or rebuilt from the parent's
        derived += before > 0
    assert derived > 20
    assert base.settings is not None


def test_a_copy_derives_from_its_origin() -> None:
    events = events_with_every_kind(3)
    pol = get_policy("opengotha")
    origin = fold(events[:300])
    settings = origin.settings_for_round(5)
    rounds._CACHE.clear()
    rounds.round_table(origin, pol, settings, 5)
    state = fold((), start=origin)
    rounds.track(state, origin)
    try:
        for event in events[300:340]:
            rounds.note_event(state, event)
            apply(state, event)
        table = rounds.round_table(state, pol, state.settings_for_round(5), 5)
    finally:
        rounds.untrack(state)
    fresh = rounds.RoundTable(state, pol, state.settings_for_round(5), rounds.table_size(state, 5))
    assert table.state is state and not same(table, fresh)


def test_a_derived_table_keeps_opengotha_start_scores_from_30k() -> None:
    """Under ``quirk_mm_zero_30k`` the start scores ignore the tournament's McMahon zero, in
    a derived table as in a fresh one (both read ``Rules.start_settings``)."""
    events = events_with_every_kind(1)
    created = events[0]
    assert isinstance(created, ev.TournamentCreated)
    events[0] = ev.TournamentCreated(settings=msgspec.structs.replace(created.settings, mm_zero="20k"))
    pol = get_policy("opengotha")
    rounds._CACHE.clear()
    derived = 0
    for i, event, state in tracked_points(events, random.Random(1), 0.0):
        settings = state.settings_for_round(5)
        before = len(rounds._CACHE)
        table = rounds.round_table(state, pol, settings, 5)
        fresh = rounds.RoundTable(state, pol, settings, rounds.table_size(state, 5))
        assert not same(table, fresh), (i, type(event).__name__, same(table, fresh))
        derived += before > 0
    assert derived > 20
