"""Recording commands: the happy path through the CLI, and refusals of issue 2 item 6 through
the CLI (message, exit code 1, event count unchanged). The rules of results, corrections,
withdrawals, absences and byes are tested on their deciders in memory (``tests/commands/``);
a few of each stay here, through the door the director uses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from goledger import commands
from goledger.ledger.store import Ledger
from goledger.replay.loading.load import load_state


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A 3-round McMahon with five players: round 1 paired (table 1 has a result), P5 has the
    bye, P4 is absent in round 2, P3 withdrew from round 3."""
    path = tmp_path / "t.db"
    commands.new(path, "Refusal Open", 3)
    for surname, first, rank, pin in [("Ali", "Veli", "3d", "12345678"), ("Berg", "Anna", "1k", ""),
                                      ("Chen", "Li", "5k", ""), ("Dias", "Rui", "10k", ""),
                                      ("Eko", "Sam", "15k", "")]:
        commands.register(path, surname, first, rank, egd_pin=pin)
    commands.pair(path, 1, "p0001", "p0002")
    commands.pair(path, 1, "p0003", "p0004", handicap=2)
    commands.bye(path, "p0005", 1)
    commands.result(path, 1, 1, "white")
    commands.absent(path, "p0004", 2)
    commands.withdraw(path, "p0003", 3, "flight home")
    return path


def count(path: Path) -> int:
    with Ledger.open(path) as led:
        return led.head().seq


REFUSALS = [
    (["register", "--surname", "Zed", "--rank", "3x"], "'3x' is not a rank"),
    (["register", "--surname", "Zed", "--rank", "10d"], "'10d' is not a rank"),
    (["register", "--surname", "New", "--rank", "1d", "--egd-pin", "12345678"],
     "EGD PIN 12345678 is already registered for p0001 Ali Veli"),
    (["register", "--surname", "berg", "--first-name", "ANNA", "--rank", "2k"],
     "berg ANNA is already registered as p0002; use --force"),
    (["update-player", "Nobody"], "update-player needs at least one field"),
    (["update-player", "Nobody", "--club", "X"], "no player matches 'Nobody'"),
    (["update-player", "p0002", "--rank", "1k"], "p0002 Berg Anna already has these values"),
    (["withdraw", "p0001", "--from-round", "1"], "p0001 Ali Veli is paired in round 1 (table 1)"),
    (["reinstate", "p0001", "--from-round", "2"], "p0001 Ali Veli has not withdrawn"),
    (["absent", "p0001", "--round", "1"], "p0001 Ali Veli is paired in round 1 (table 1)"),
    (["absent", "p0002", "--round", "2", "--points", "0.3"], "'0.3' is not a whole or half point"),
    (["present", "p0001", "--round", "2"], "p0001 Ali Veli is not marked absent in round 2"),
    (["bye", "p0004", "--round", "2"], "p0004 Dias Rui is marked absent in round 2"),
    (["unbye", "p0001", "--round", "1"], "p0001 Ali Veli has no bye in round 1"),
    (["pair", "--round", "1", "--white", "p0005", "--black", "p0001"], "p0005 Eko Sam holds the bye of round 1"),
    (["pair", "--round", "1", "--white", "p0001", "--black", "p0005"], "p0001 Ali Veli is already paired in round 1"),
    (["pair", "--round", "2", "--white", "p0001", "--black", "p0004"], "p0004 Dias Rui is marked absent in round 2"),
    (["pair", "--round", "3", "--white", "p0003", "--black", "p0001"], "p0003 Chen Li withdrew from round 3"),
    (["pair", "--round", "2", "--white", "p0001", "--black", "Ali Veli"], "p0001 Ali Veli cannot play himself"),
    (["pair", "--round", "4", "--white", "p0001", "--black", "p0002"], "round 4 is outside 1..3"),
    (["pair", "--round", "2", "--white", "p0001", "--black", "p0002", "--handicap", "12"],
     "handicap 12 is outside 0..9"),
    (["pair", "--round", "2", "--white", "p0001", "--black", "p0002", "--komi", "6.3"], "must be a whole or half"),
    (["unpair", "--round", "2", "--table", "1"], "round 2 is not paired yet"),
    (["result", "--round", "1", "--table", "7", "white"], "round 1 has no table 7"),
    (["result", "--round", "1", "--table", "2", "maybe"], "'maybe' is not a result"),
    (["correct", "--round", "1", "--table", "1", "black", "--reason", " "], "a correction needs a reason"),
    (["register", "--surname", "Ok", "--rank", "1d", "--expected-head", "3"], "the ledger changed since event 3"),
]


@pytest.mark.parametrize(("args", "message"), REFUSALS, ids=[" ".join(a[:3]) for a, _ in REFUSALS])
def test_refusals_name_the_problem_and_write_nothing(db: Path, cli, args: list[str], message: str) -> None:
    before = count(db)
    res = cli(*args, "--db", db)
    assert res.code == 1, res
    assert res.err.startswith("error: ") and message in res.err, res.err
    assert res.err.count("\n") == 1, "one sentence, one line"
    assert "Traceback" not in res.err
    assert count(db) == before


def test_missing_ledger_and_non_ledger_are_refused(tmp_path: Path, cli) -> None:
    res = cli("standings", "--db", tmp_path / "nope.db")
    assert res.code == 1 and "no ledger at" in res.err
    junk = tmp_path / "junk.db"
    junk.write_text("hello")
    res = cli("register", "--surname", "A", "--rank", "1d", "--db", junk)
    assert res.code == 1 and "is not a goledger ledger" in res.err
    assert junk.read_text() == "hello"
    res = cli("new", "--name", "X", "--rounds", "3", "--db", junk)
    assert res.code == 1 and "already exists" in res.err


def test_usage_errors_exit_2(tmp_path: Path, cli) -> None:
    assert cli("pair", "--round", "x", "--db", tmp_path / "t.db").code == 2
    assert cli("frobnicate").code == 2


def test_tour_through_the_cli(tmp_path: Path, cli) -> None:
    db = tmp_path / "tour.db"
    assert cli("new", "--name", "Tour", "--rounds", "2", "--bar", "2d", "--floor", "20k", "--db", db).code == 0
    for name, rank in (("Sato Ken", "2d"), ("Ito Mai", "1k"), ("Abe Jo", "4k")):
        surname, first = name.split()
        assert cli("register", "--surname", surname, "--first-name", first, "--rank", rank, "--db", db).code == 0
    assert cli("pair", "-r", "1", "--white", "Sato Ken", "--black", "Ito, Mai", "--db", db).code == 0
    assert cli("bye", "Abe", "-r", "1", "--db", db).code == 0
    assert cli("result", "-r", "1", "-t", "1", "black", "--db", db).code == 0
    res = cli("correct", "-r", "1", "-t", "1", "white", "--reason", "scorer swapped colours", "--db", db,
              "--json")
    assert res.code == 0
    appended = json.loads(res.out)["events"]
    assert appended[0]["type"] == "ResultCorrected" and appended[0]["reason"] == "scorer swapped colours"
    assert appended[0]["payload"]["result"] == "white"
    log = json.loads(cli("log", "--json", "--db", db).out)
    assert [e["type"] for e in log] == ["TournamentCreated"] + ["PlayerRegistered"] * 3 + [
        "GamePaired", "ByeAssigned", "ResultRecorded", "ResultCorrected"]
    assert all(set(e) >= {"seq", "hash", "prev_hash", "recorded_at", "actor", "payload"} for e in log)
    state = load_state(Ledger.open(db))
    assert state.games[1][1].result.value == "white"
    out = json.loads(cli("standings", "--criteria", "MMS,NBW", "--json", "--db", db).out)
    rows = {r["surname"]: r for r in out["rows"]}
    # bar 2d, zero 30k: Sato 2d → 31 +1 win; Ito 1k → 29; Abe 4k → 26 + bye 1
    assert rows["Sato"]["values"] == {"MMS": 32, "NBW": 1}
    assert rows["Ito"]["values"] == {"MMS": 29, "NBW": 0}
    assert rows["Abe"]["values"] == {"MMS": 27, "NBW": 1}
    assert [r["place"] for r in out["rows"]] == [1, 2, 3]
    assert out["as_of_seq"] == 8 and out["criteria"] == ["MMS", "NBW"]
