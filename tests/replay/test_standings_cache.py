"""The standings cache is never trusted: cached and freshly computed standings agree after
random event sequences, a wrong entry is found by ``verify`` and dropped, and an entry of
another head or other code is ignored (DESIGN §4; performance issue 9, item 3)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goledger.commands import verify
from goledger.errors import GoledgerError
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.ledger.values import Result
from goledger.replay.fold.state import fold
from goledger.replay.scoring.standings import standings
from goledger.replay.views import standings as standings_view
from goledger.replay.views import standings_cache

from .test_snapshots import START, event

REQUESTS = [
    (None, None, None),
    (2, None, None),
    (4, "egf", ["MMS", "SOSM"]),
    (3, "opengotha", ["NBW", "DC", "SOSW", "SOSOSW"]),
    (None, None, ["MMS", "SDC", "SODOSM"]),
    (9, None, None),  # outside the tournament's rounds: refused, never cached
]


def fresh(path: Path, round_: int | None, policy: str | None, criteria: list[str] | None) -> bytes | str:
    with Ledger.open(path) as ledger:
        state = fold(ledger.events())
    try:
        return msgspec.msgpack.encode(standings(state, round_, policy, criteria))
    except GoledgerError as exc:
        return exc.message


def through_cache(path: Path, round_: int | None, policy: str | None, criteria: list[str] | None) -> bytes | str:
    try:
        return msgspec.msgpack.encode(standings_view(path, round_, None, policy, criteria))
    except GoledgerError as exc:
        return exc.message


@pytest.fixture(autouse=True)
def cache_small_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(standings_cache, "MIN_PLAYERS", 0)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batches=st.lists(st.lists(event, max_size=10), min_size=1, max_size=5),
       asked=st.lists(st.sampled_from(REQUESTS), min_size=1, max_size=4))
def test_cached_standings_equal_fresh_standings(tmp_path_factory: pytest.TempPathFactory,
                                                batches: list[list[ev.Event]],
                                                asked: list[tuple[int | None, str | None, list[str] | None]]) -> None:
    path = tmp_path_factory.mktemp("standings") / "t.db"
    with Ledger.create(path) as ledger:
        ledger.append(START)
    for batch in batches:
        with Ledger.open(path) as ledger:
            ledger.append(batch)
        for request in asked:
            expected = fresh(path, *request)
            assert through_cache(path, *request) == expected  # computed (and stored) …
            assert through_cache(path, *request) == expected  # … then read back
        with Ledger.open(path) as ledger:
            stored = ledger.cache_names(standings_cache.PREFIX)
            head = ledger.head().seq
            assert all(ledger.cache_get(name)[0] == head for name in stored)  # type: ignore[index]
    assert verify(path).notes == ()


def _cached(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "t.db"
    with Ledger.create(path) as ledger:
        ledger.append(START)
        ledger.append([ev.GamePaired(round=1, table=1, white="p0001", black="p0002"),
                       ev.ResultRecorded(round=1, table=1, result=Result.WHITE)])
    standings_view(path, 1)
    name = standings_cache.entry_name(1, None, None)
    with Ledger.open(path) as ledger:
        assert ledger.cache_get(name) is not None
    return path, name


def test_a_wrong_entry_is_never_used_and_verify_reports_it(tmp_path: Path, cli) -> None:
    path, name = _cached(tmp_path)
    with Ledger.open(path) as ledger:
        seq, key, data = ledger.cache_get(name)  # type: ignore[misc]
        wrong = msgspec.msgpack.decode(data, type=standings_cache.Standings)
        wrong.rows[0].values["MMS"] += 2
        ledger.cache_put(name, seq, key, msgspec.msgpack.encode(wrong))  # bytes no longer match their digest
    assert standings_view(path, 1).rows[0].values["MMS"] == wrong.rows[0].values["MMS"] - 2  # never used
    res = cli("verify", "--db", path)
    assert res.code == 1 and "do not match their stored digest: the cache was tampered with" in res.err, res
    with Ledger.open(path) as ledger:  # kept for inspection
        assert ledger.cache_names(standings_cache.PREFIX) == [name]
        bad = msgspec.msgpack.encode(wrong)
        fingerprint, head_hash, _, seal = key.split(":")  # the digest recomputed, the seal cannot be
        ledger.cache_put(name, seq, f"{fingerprint}:{head_hash}:{hashlib.sha256(bad).hexdigest()}:{seal}", bad)
    assert standings_view(path, 1).rows[0].values["MMS"] == wrong.rows[0].values["MMS"] - 2  # never used either
    res = cli("verify", "--db", path)
    assert res.code == 1 and "differ from a fresh computation from the log" in res.err, res


def test_an_entry_of_another_head_or_other_code_is_ignored(tmp_path: Path) -> None:
    path, name = _cached(tmp_path)
    with Ledger.open(path) as ledger:
        seq, key, data = ledger.cache_get(name)  # type: ignore[misc]
        wrong = msgspec.msgpack.decode(data, type=standings_cache.Standings)
        wrong.rows[0].values["MMS"] += 2
        bad = msgspec.msgpack.encode(wrong)
        fingerprint, head_hash, _, _ = key.split(":")
        digest = hashlib.sha256(bad).hexdigest()
        for stale_key in (f"{fingerprint}:{'0' * 64}:{digest}", f"{'f' * 32}:{head_hash}:{digest}"):
            ledger.cache_put(name, seq, stale_key, bad)
            assert standings_view(path, 1).rows[0].values["MMS"] == wrong.rows[0].values["MMS"] - 2
        ledger.cache_put(name, seq, key, b"garbage")
        assert standings_view(path, 1).rows[0].values["MMS"] == wrong.rows[0].values["MMS"] - 2
        ledger.append([ev.PlayerUpdated(player_id="p0003", changes={"club": "x"})])
    standings_view(path, 1)  # a new head: the old entries are dropped when the new one is stored
    with Ledger.open(path) as ledger:
        assert [ledger.cache_get(n)[0] for n in ledger.cache_names(standings_cache.PREFIX)] == [  # type: ignore[index]
            ledger.head().seq]


def test_a_small_field_is_not_stored_and_its_file_is_left_alone(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(standings_cache, "MIN_PLAYERS", 7)  # START registers 6 players
    path = tmp_path / "t.db"
    with Ledger.create(path) as ledger:
        ledger.append(START)
    before = path.read_bytes()
    assert standings_view(path).as_of_seq == len(START)
    assert path.read_bytes() == before
    with Ledger.open(path) as ledger:
        assert ledger.cache_names(standings_cache.PREFIX) == []
