"""`goledger what-if`: filtered, re-ruled or extended event lists, never written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import msgspec
import pytest

from goledger import audit
from goledger.errors import CommandRejected, FormatError
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.replay.fold.state import fold
from goledger.replay.scoring.standings import standings

from ..audit_support import file_digest, ledger_events

CRITERIA = ["MMS", "NBW"]


def test_without_an_event_equals_a_ledger_recorded_without_it(club: tuple[Path, dict[str, int]]) -> None:
    """Leaving out the correction gives exactly the standings of the same events without it."""
    path, notable = club
    events = ledger_events(path)
    seq = notable["correction"]
    result = audit.what_if(path, [seq], criteria=CRITERIA)
    expected = standings(fold(events[: seq - 1] + events[seq:]), 4, None, CRITERIA)
    assert result.hypothetical.to_dict() | {"as_of_seq": 0} == expected.to_dict() | {"as_of_seq": 0}
    assert result.actual.to_dict() == standings(fold(events), 4, None, CRITERIA).to_dict()
    assert result.hypothetical.as_of_seq == len(events) - 1 and result.without == (seq,)
    game = fold(events).games[2][3]
    assert {game.white, game.black} <= {c.player_id for c in result.changes}
    assert not result.anomalies


def test_without_the_withdrawal_and_with_another_policy(club: tuple[Path, dict[str, int]]) -> None:
    path, notable = club
    result = audit.what_if(path, [notable["withdrawal"]], criteria=CRITERIA)
    change = {c.player_id: c for c in result.changes}["p0001"]
    # withdrawn rounds score like absences (½ MMS each, rounded down); not assigned, nothing
    assert change.before.values["MMS"] - change.after.values["MMS"] == 2
    egf = audit.what_if(path, policy="egf", criteria=CRITERIA)
    assert egf.hypothetical.policy == "egf" and egf.actual.policy == "opengotha"
    direct = standings(fold(ledger_events(path)), 4, "egf", CRITERIA)
    assert egf.hypothetical.to_dict()["rows"] == direct.to_dict()["rows"]


def test_added_events_extend_the_log(club: tuple[Path, dict[str, int]], tmp_path: Path) -> None:
    path, _ = club
    state = fold(ledger_events(path))
    game = state.games[4][1]
    flipped = game.result.flipped()
    extra = tmp_path / "extra.json"
    extra.write_bytes(msgspec.json.encode([ev.ResultCorrected(round=4, table=1, result=flipped, reason="appeal")]))
    result = audit.what_if(path, add=extra, criteria=CRITERIA)
    assert result.added == 1 and not result.without
    changed = {c.player_id: c for c in result.changes}
    winner_now = game.white if game.result.value == "white" else game.black
    assert changed[winner_now].after.values["NBW"] == changed[winner_now].before.values["NBW"] - 2


def test_removing_a_pairing_keeps_the_fold_total_and_reports_the_orphans(club: tuple[Path, dict[str, int]]) -> None:
    path, _ = club
    events = ledger_events(path)
    paired = next(i for i, e in enumerate(events, start=1) if isinstance(e, ev.GamePaired) and e.round == 4)
    result = audit.what_if(path, [paired], criteria=CRITERIA)
    assert any("has no table" in note for note in result.anomalies)


def test_refusals(club: tuple[Path, dict[str, int]], tmp_path: Path) -> None:
    path, _ = club
    with pytest.raises(CommandRejected, match=r"--without 999 is outside the ledger's events 1\.\.61"):
        audit.what_if(path, [3, 999])
    with pytest.raises(CommandRejected, match="needs --without, --add or --policy"):
        audit.what_if(path)
    with pytest.raises(CommandRejected, match="holds no tournament"):
        audit.what_if(path, [1], criteria=CRITERIA)
    bad = tmp_path / "bad.json"
    bad.write_text('[{"type": "ResultRecorded", "round": 1}]')
    with pytest.raises(FormatError, match="item 1 is not a valid event"):
        audit.what_if(path, add=bad)
    bad.write_text('{"type": "Checkpoint"}')
    with pytest.raises(FormatError, match="must hold a JSON list of events"):
        audit.what_if(path, add=bad)
    bad.write_text("[1,")
    with pytest.raises(FormatError, match="is not JSON"):
        audit.what_if(path, add=bad)


def test_cli_what_if_writes_nothing_and_prints_both_sides(cli, club: tuple[Path, dict[str, int]],
                                                          tmp_path: Path) -> None:
    source, notable = club
    path = tmp_path / "t.db"
    shutil.copy(source, path)
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps([{"type": "PlayerUpdated", "player_id": "p0002", "changes": {"mm_correction": 1}}]))
    before = file_digest(path)
    res = cli("what-if", "--db", path, "--without", f"{notable['withdrawal']},{notable['correction']}",
              "--add", extra, "--policy", "egf", "--criteria", "MMS,NBW", "--json")
    assert res.code == 0, res.err
    assert file_digest(path) == before
    with Ledger.open(path) as ledger:
        assert ledger.head().seq == notable["head"] and ledger.verify().ok
    data = json.loads(res.out)
    plain = cli("standings", "--db", path, "--criteria", "MMS,NBW", "--json")
    actual = json.loads(plain.out)
    before = file_digest(path)  # `standings` may store its result in the ledger's projection cache
    assert data["actual"] == actual
    assert set(data) >= {"round", "as_of_seq", "policy", "criteria", "rows", "actual"}
    assert data["policy"] == "egf" and data["without"] == sorted([notable["withdrawal"], notable["correction"]])
    assert data["added"] == 1 and data["as_of_seq"] == notable["head"] - 2 + 1
    row = {r["player_id"]: r for r in data["rows"]}["p0002"]
    real = {r["player_id"]: r for r in actual["rows"]}["p0002"]
    assert row["values"]["MMS"] == real["values"]["MMS"] + 1
    text = cli("what-if", "--db", path, "--without", str(notable["correction"]), "--criteria", "MMS,NBW")
    assert text.code == 0 and "real → what-if" in text.out and "nothing was written" in text.out
    assert file_digest(path) == before
    res = cli("what-if", "--db", path, "--without", "x1")
    assert res.code == 1 and "'x1' is not an event sequence number" in res.err
