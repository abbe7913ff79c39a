"""``goledger freeze`` / ``unfreeze`` through the CLI (issue 47, item 5): after a freeze,
identity corrections are recorded and anything that would change a standing is refused with
one sentence, exit 1 and the log unchanged, until an unfreeze with a reason."""

from __future__ import annotations

import json
from pathlib import Path

from goledger.commands.freezing import decide_freeze
from goledger.commands.frozen import check_frozen
from goledger.errors import CommandRejected
from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.replay.fold.state import fold

from ..conftest import run_cli


def _tournament(tmp_path: Path) -> Path:
    db = tmp_path / "t.db"
    steps = [["new", "--name", "Cup", "--rounds", "1", "--system", "mcmahon", "--bar", "3d", "--floor", "20k"],
             ["register", "--surname", "Sato", "--first-name", "Ken", "--rank", "2d"],
             ["register", "--surname", "Ito", "--first-name", "Mai", "--rank", "1k"],
             ["register", "--surname", "Abe", "--first-name", "Jo", "--rank", "3k"],
             ["register", "--surname", "Kim", "--first-name", "Min", "--rank", "4k"],
             ["pair", "--round", "1", "--white", "Sato", "--black", "Ito"],
             ["pair", "--round", "1", "--white", "Abe", "--black", "Kim"],
             ["result", "--round", "1", "--table", "1", "white"]]
    for step in steps:
        result = run_cli(*step, "--db", db, cwd=tmp_path)
        assert result.code == 0, (step, result)
    return db


def _log_length(db: Path, cwd: Path) -> int:
    return len(json.loads(run_cli("log", "--db", db, "--json", cwd=cwd).out))


def test_freeze_accepts_identity_corrections_and_refuses_what_moves_a_place(tmp_path: Path) -> None:
    db = _tournament(tmp_path)
    early = run_cli("freeze", "--db", db, "--reason", "final", cwd=tmp_path)
    assert early.code == 1 and "round 1 has 1 game(s) without a result (table 2)" in early.err
    assert run_cli("result", "--round", "1", "--table", "2", "black", "--db", db, cwd=tmp_path).code == 0
    no_reason = run_cli("freeze", "--db", db, cwd=tmp_path)
    assert no_reason.code == 1 and "--reason" in no_reason.err
    frozen = run_cli("freeze", "--db", db, "--reason", "prize giving", cwd=tmp_path)
    assert frozen.code == 0 and "standings frozen after round 1: prize giving" in frozen.out
    before = run_cli("standings", "--db", db, "--json", cwd=tmp_path).out
    for change in (["--surname", "Satō"], ["--club", "Tokyo"], ["--egd-pin", "12345678"], ["--country", "JP"]):
        accepted = run_cli("update-player", "Sato", *change, "--db", db, cwd=tmp_path)
        assert accepted.code == 0, (change, accepted)
    length = _log_length(db, tmp_path)
    refused = [["correct", "--round", "1", "--table", "1", "black", "--reason", "slip"],
               ["update-player", "Ito", "--rank", "5d"],
               ["register", "--surname", "Late", "--first-name", "Lou", "--rank", "5k", "--force"],
               ["change-rules", "criteria=NBW,Rank"]]
    for command in refused:
        result = run_cli(*command, "--db", db, cwd=tmp_path)
        assert result.code == 1, (command, result)
        assert "the standings are frozen (event 10: prize giving) and this would change them" in result.err
    as_json = run_cli("correct", "--round", "1", "--table", "1", "black", "--reason", "slip", "--json", "--db", db,
                      cwd=tmp_path)
    assert as_json.code == 1 and json.loads(as_json.err)["code"] == "rejected"
    assert _log_length(db, tmp_path) == length
    after = json.loads(run_cli("standings", "--db", db, "--json", cwd=tmp_path).out)
    assert [(r["player_id"], r["place"]) for r in after["rows"]] == \
        [(r["player_id"], r["place"]) for r in json.loads(before)["rows"]]
    assert after["rows"][0]["surname"] == "Satō"
    silent = run_cli("unfreeze", "--db", db, cwd=tmp_path)
    assert silent.code == 1 and "say why the standings are unfrozen" in silent.err
    assert run_cli("unfreeze", "--db", db, "--reason", "appeal upheld", cwd=tmp_path).code == 0
    corrected = run_cli("correct", "--round", "1", "--table", "1", "black", "--reason", "slip", "--db", db,
                        cwd=tmp_path)
    assert corrected.code == 0, corrected
    log = json.loads(run_cli("log", "--db", db, "--json", cwd=tmp_path).out)
    assert [e["type"] for e in log if "Standings" in e["type"]] == ["StandingsFrozen", "StandingsUnfrozen"]


def test_an_event_that_changes_no_standing_passes_a_freeze() -> None:
    state = fold([ev.TournamentCreated(settings=ev.TournamentSettings(name="T", rounds=1)),
                  ev.PlayerRegistered(player_id="p0001", surname="Sato", rank="2d"),
                  ev.PlayerRegistered(player_id="p0002", surname="Ito", rank="1k"),
                  ev.GamePaired(round=1, table=1, white="p0001", black="p0002"),
                  ev.ResultRecorded(round=1, table=1, result=Result.WHITE)])
    state = fold(decide_freeze(state, "done"), start=state)
    check_frozen(state, [ev.RoundShown(round=1)])  # no standing moves: accepted
    check_frozen(state, [ev.PlayerUpdated(player_id="p0002", changes={"first_name": "Mai"})])
    try:
        check_frozen(state, [ev.ResultCorrected(round=1, table=1, result=Result.BLACK)])
    except CommandRejected as exc:
        assert "event 6: done" in exc.message
    else:
        raise AssertionError("a correction that swaps the places passed the freeze")
