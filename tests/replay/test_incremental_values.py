"""Incremental criteria (``ScoringContext.dirty``, ``Criterion.depth``): while a state is
walked forward, the SOS family's values at a point are the previous point's updated for the
players whose rows changed and their opponents (one and two steps away); they must equal the
values computed from scratch after every event and every run of events, under every policy
option they read."""

from __future__ import annotations

import random

import pytest

from goledger.replay.fold.state import apply, fold
from goledger.replay.scoring import rounds
from goledger.replay.scoring.policies import get_policy
from goledger.replay.scoring.scoring import ScoringContext
from goledger.replay.scoring.standings import rank_players, standings
from tests.replay.test_incremental_tables import events_with_every_kind, tracked_points

SOS_FAMILY = ["MMS", "SOSM", "SOSM-1", "SOSM-2", "SODOSM", "SOSOSM", "NBW", "SOSW", "SOSW-1", "SOSW-2", "SODOSW",
              "SOSOSW", "SOSTS"]

POLICIES = {
    "opengotha": {},
    "egf": {"not_assigned": "absent", "withdrawn": "zero"},
    "macmahon": {},
    "half-point option": {"not_played_as_half": True},
    "decisive wins, no handicap term": {"sodos_weighting": "decisive-wins", "sos_handicap_correction": False},
}


def table_of(result: object) -> list[tuple[str, int, tuple[int, ...]]]:
    rows = result.rows  # type: ignore[attr-defined]
    return [(row.player_id, row.place, tuple(row.values.values())) for row in rows]


@pytest.mark.parametrize("name", sorted(POLICIES))
@pytest.mark.parametrize("seed", [1, 2])
def test_updated_values_equal_fresh_ones(name: str, seed: int) -> None:
    base = "egf" if name == "egf" else "macmahon" if name == "macmahon" else "opengotha"
    policy = get_policy(base).with_overrides(POLICIES[name])
    events = events_with_every_kind(seed)
    followed = 0
    rounds._CACHE.clear()
    for i, event, state in tracked_points(events, random.Random(seed), 0.5):
        for round_ in (2, 5):
            ctx = ScoringContext(state, round_, policy, SOS_FAMILY)
            followed += ctx.dirty(0) is not None
            incremental = table_of(rank_players(ctx, SOS_FAMILY))
            fresh = table_of(standings(fold(events[: i + 1]), round_, policy, SOS_FAMILY))
            assert incremental == fresh, (i, type(event).__name__, round_)
    assert followed > 40  # the updates were exercised, not only full computations


def test_dirty_players_reach_two_steps() -> None:
    """After one result, depth 0 holds the two players, depth 1 adds their opponents, depth 2
    the opponents' opponents; a context that follows no other has no dirty set."""
    events = events_with_every_kind(1)
    policy = get_policy("opengotha")
    cut = next(i for i, e in enumerate(events) if type(e).__name__ == "ResultRecorded" and getattr(e, "round", 0) == 3)
    state = fold(events[:cut])
    rounds._CACHE.clear()
    first = ScoringContext(state, 5, policy, ["SOSOSM"])
    assert first.dirty(0) is None
    rank_players(first, ["SOSOSM"])
    rounds.track(state)
    try:
        rounds.note_event(state, events[cut])
        apply(state, events[cut])
        ctx = ScoringContext(state, 5, policy, ["SOSOSM"])
    finally:
        rounds.untrack(state)
    game = state.games[3][events[cut].table]  # type: ignore[attr-defined]
    d0, d1, d2 = ctx.dirty(0), ctx.dirty(1), ctx.dirty(2)
    assert d0 == {game.white, game.black}
    assert d0 is not None and d1 is not None and d2 is not None
    opponents = {o for p in d0 for o in ctx.table.opp[p][:5] if o is not None}
    assert d1 == d0 | opponents
    assert d0 < d1 < d2 < set(state.players)


CRITERIA_LISTS = [
    ["MMS", "SOSM", "SOSOSM"],
    ["NBW", "SOSW", "SOSOSW", "SODOSW"],
    ["MMS", "DC", "SOSM-2", "Rating"],
    ["MMS", "SOSM-1", "SODOSM", "CUSSM"],
    ["SOSOSM", "SOSM"],
    [],
]


@pytest.mark.parametrize("criteria", CRITERIA_LISTS, ids=lambda c: "-".join(c) or "none")
@pytest.mark.parametrize("sharing", ["all-criteria", "none"])
def test_one_players_row_is_his_row_of_the_whole_table(criteria: list[str], sharing: str) -> None:
    """``standings(..., only=[p])`` (``goledger history``'s evaluation) gives each player the
    place and values of the whole table, at several points of a tournament, ties included."""
    events = events_with_every_kind(4)
    policy = get_policy("opengotha").with_overrides({"place_sharing": sharing})
    checked = 0
    for cut in (150, 400, len(events)):
        state = fold(events[:cut])
        for round_ in (1, 3, 5):
            rounds._CACHE.clear()
            whole = standings(state, round_, policy, criteria)
            for row in whole.rows:
                rounds._CACHE.clear()  # no shared context: the focus path computes on its own
                alone = standings(state, round_, policy, criteria, only=[row.player_id])
                assert [(r.player_id, r.place, r.values) for r in alone.rows] == [
                    (row.player_id, row.place, row.values)], (cut, round_, row.player_id)
                checked += 1
    assert checked > 200
    unlisted = standings(fold(events[:150]), 1, policy, criteria, only=["nobody"])
    assert unlisted.rows == []
