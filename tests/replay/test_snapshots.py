"""The state snapshot cache is never trusted: cached and fresh folds agree after random event
sequences, and a wrong snapshot is detected and dropped (DESIGN §4; performance issue item 3)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.ledger.values import Result
from goledger.replay.fold.state import TournamentState, fold
from goledger.replay.loading import snapshots
from goledger.replay.loading.load import fresh_state, load_state

PLAYERS = [f"p{i:04d}" for i in range(1, 7)]
pid = st.sampled_from(PLAYERS)
rnd = st.integers(1, 4)
table = st.integers(1, 4)
event = st.one_of(
    st.builds(ev.PlayerUpdated, player_id=pid, changes=st.fixed_dictionaries({"club": st.text(max_size=3)})),
    st.builds(ev.PlayerWithdrew, player_id=pid, from_round=rnd),
    st.builds(ev.PlayerReinstated, player_id=pid, from_round=rnd),
    st.builds(ev.ParticipationChanged, player_id=pid, round=rnd, participating=st.booleans(),
              points2=st.one_of(st.none(), st.integers(0, 2))),
    st.builds(ev.ByeAssigned, round=rnd, player_id=pid),
    st.builds(ev.ByeRemoved, round=rnd, player_id=pid),
    st.builds(ev.GamePaired, round=rnd, table=table, white=pid, black=pid, handicap=st.integers(0, 9)),
    st.builds(ev.PairingRemoved, round=rnd, table=table),
    st.builds(ev.ResultRecorded, round=rnd, table=table, result=st.sampled_from(list(Result)),
              by_default=st.booleans()),
    st.builds(ev.ResultCorrected, round=rnd, table=table, result=st.sampled_from(list(Result))),
    st.builds(ev.RulesChanged, changes=st.fixed_dictionaries({"mms2_absent": st.integers(0, 2)}),
              from_round=st.one_of(st.none(), rnd)),
)

START: list[ev.Event] = [ev.TournamentCreated(settings=ev.TournamentSettings(name="prop", rounds=4))] + [
    ev.PlayerRegistered(player_id=p, surname=f"S{p}", rank="1k") for p in PLAYERS
]


def encoded(state: TournamentState) -> bytes:
    return msgspec.msgpack.encode(state)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batches=st.lists(st.lists(event, max_size=12), min_size=1, max_size=6))
def test_cached_fold_equals_fresh_fold(tmp_path_factory: pytest.TempPathFactory,
                                       monkeypatch: pytest.MonkeyPatch, batches: list[list[ev.Event]]) -> None:
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 2)
    path = tmp_path_factory.mktemp("snap") / "t.db"
    with Ledger.create(path) as ledger:
        ledger.append(START)
        for batch in batches:
            ledger.append(batch)
            cached = load_state(ledger)  # may write a snapshot
            assert encoded(cached) == encoded(fold(ledger.events()))
            head = ledger.head().seq
            for upto in {1, head // 2 or 1, head}:
                assert encoded(load_state(ledger, upto)) == encoded(fold(ledger.events(upto=upto)))
            with ledger.writing() as tx:  # the command path reads through the cache too
                assert encoded(load_state(tx)) == encoded(cached)
        assert snapshots.check_snapshot(ledger) == ""


def _ledger_with_snapshot(path: Path, monkeypatch: pytest.MonkeyPatch) -> Ledger:
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 1)
    ledger = Ledger.create(path)
    ledger.append(START)
    ledger.append([ev.GamePaired(round=1, table=1, white="p0001", black="p0002"),
                   ev.ResultRecorded(round=1, table=1, result=Result.WHITE)])
    load_state(ledger)
    assert ledger.cache_get("state") is not None
    return ledger


def test_a_wrong_snapshot_is_reported_as_tampering_and_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            cli) -> None:
    ledger = _ledger_with_snapshot(tmp_path / "t.db", monkeypatch)
    seq, key, _ = ledger.cache_get("state")  # type: ignore[misc]
    wrong = fold(START)  # a state that is not the state at `seq`
    wrong.seq = seq
    data = msgspec.msgpack.encode(wrong)
    fingerprint, head_hash, _, seal = key.split(":")  # even with a matching digest (the seal cannot be made)
    forged = f"{fingerprint}:{head_hash}:{hashlib.sha256(data).hexdigest()}:{seal}"
    ledger.cache_put("state", seq, forged, data)
    ledger.close()
    res = cli("verify", "--db", tmp_path / "t.db")
    assert res.code == 1 and "differs from a fresh fold of the log: the cache was tampered with" in res.err, res
    with Ledger.open(tmp_path / "t.db") as again:
        assert again.cache_get("state") is not None  # kept for inspection
        assert fresh_state(again).games[1][1].result is Result.WHITE


def test_a_snapshot_of_another_chain_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ledger = _ledger_with_snapshot(tmp_path / "t.db", monkeypatch)
    seq, key, data = ledger.cache_get("state")  # type: ignore[misc]
    fingerprint, head_hash, digest = key.split(":")[:3]
    ledger.cache_put("state", seq, f"{fingerprint}:{'0' * 64}:{digest}", data)
    assert snapshots._load(ledger) is None
    ledger.cache_put("state", seq, f"{'f' * 32}:{head_hash}:{digest}", data)
    assert snapshots._load(ledger) is None
    ledger.cache_put("state", seq, f"{fingerprint}:{head_hash}", data)  # a snapshot without digest: never used
    assert snapshots._load(ledger) is None
    ledger.cache_put("state", seq, key, b"garbage")
    assert snapshots._load(ledger) is None
    assert load_state(ledger).games[1][1].result is Result.WHITE
    ledger.close()
