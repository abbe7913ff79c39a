"""The state without one event (``replay/without.py``), built from the final state, scores as
the refold of the log without that event: same players, games, byes and settings (sequence
numbers aside), and the same standings, its round table derived from the final one."""

from __future__ import annotations

import msgspec
import pytest

from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.replay.fold.state import TournamentState, fold
from goledger.replay.fold.without import PlayerEvents, scoring_state_without
from goledger.replay.scoring import rounds
from goledger.replay.scoring.policies import get_policy
from goledger.replay.scoring.standings import standings
from tests.replay.test_incremental_tables import events_with_every_kind


def scored(state: TournamentState) -> dict[str, object]:
    """What scoring reads of a state, without the sequence numbers of its events."""
    games = {r: {t: msgspec.structs.replace(g, paired_seq=0, result_seq=None) for t, g in tables.items()}
             for r, tables in state.games.items() if tables}
    players = {pid: msgspec.structs.replace(p, registered_seq=0) for pid, p in state.players.items()}
    return {"players": players, "games": games, "byes": state.byes, "table_of": state.table_of,
            "settings": state.settings, "round_settings": state.round_settings}


def with_corner_cases(seed: int) -> list[ev.Event]:
    """A congress with every kind of late event, and results given twice, corrected back and
    forth, recorded on a table paired again, and own events of a player given in a row."""
    out = events_with_every_kind(seed)
    state = fold(out)
    game = next(iter(state.games[2].values()))
    pid = next(iter(state.players))
    out += [
        ev.ResultCorrected(round=2, table=game.table, result=Result.BLACK),
        ev.ResultCorrected(round=2, table=game.table, result=Result.WHITE, by_default=True),
        ev.GamePaired(round=2, table=game.table, white=game.black, black=game.white),
        ev.ResultRecorded(round=2, table=game.table, result=Result.JIGO),
        ev.ResultCorrected(round=9, table=1, result=Result.BLACK),  # no such game
        ev.PlayerWithdrew(player_id=pid, from_round=3),
        ev.PlayerWithdrew(player_id=pid, from_round=4),
        ev.PlayerReinstated(player_id=pid, from_round=5),
        ev.ParticipationChanged(player_id=pid, round=2, participating=False, points2=0),
        ev.PlayerUpdated(player_id=pid, changes={"rank": "2d", "surname": "Renamed"}),
    ]
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_state_without_an_event_scores_as_the_refold(seed: int) -> None:
    events = with_corner_cases(seed)
    final = fold(events)
    index = PlayerEvents(events)
    policy = get_policy("opengotha")
    local = 0
    rounds._CACHE.clear()
    table = rounds.round_table(final, policy, final.settings_for_round(5), 5)
    expected_final = standings(final, 5, policy)
    for seq in range(1, len(events) + 1):
        found = scoring_state_without(final, index, seq)
        if found is None:
            continue
        local += 1
        state, touched, own = found
        refold = fold([*events[:seq - 1], *events[seq:]])
        assert scored(state) == scored(refold), (seq, type(events[seq - 1]).__name__)
        rounds.derive_table(table, state, touched, own)
        assert standings(state, 5, policy).rows == standings(fold([*events[:seq - 1], *events[seq:]]), 5,
                                                               policy).rows, seq
    assert local > 100
    assert standings(final, 5, policy).rows == expected_final.rows  # the final state is untouched


def test_events_with_effects_beyond_one_key_are_refolded() -> None:
    events = with_corner_cases(1)
    final = fold(events)
    index = PlayerEvents(events)
    for seq, event in enumerate(events, start=1):
        if isinstance(event, ev.TournamentCreated | ev.RulesChanged | ev.PlayerRegistered | ev.GamePaired
                      | ev.ByeAssigned | ev.PairingRemoved):
            assert scoring_state_without(final, index, seq) is None, seq
