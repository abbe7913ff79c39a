"""MacMahon's plain participant list appended to an existing ledger, and the fold of the
two events the MacMahon interchange added (PairingAnnotated, PairingConstraintSet)."""

from __future__ import annotations

from pathlib import Path

import pytest

from goledger import commands
from goledger.errors import FormatError
from goledger.formats.importing import ImportRefused
from goledger.formats.macmahon.players import import_macmahon_players
from goledger.ledger import events as ev
from goledger.replay.fold.state import fold
from goledger.replay.views import state_as_of

LIST = """\
surname|first name|strength|country|club|rating|EGD PIN|registration|rounds
# a comment
Muster | Anna | 3k | de | Berlin | 1930 | 012345678 | f | 1101
Cecil||15 kyu
Kim|Minji|33k|kr||||P|
Ohne|Verein|2D|DE|||||x-x
"""


def _ledger(tmp_path: Path) -> Path:
    db = tmp_path / "t.db"
    commands.new(db, "Cup", 4)
    commands.register(db, "Already", "Here", "1d", egd_pin="11111111")
    return db


def test_a_list_appends_registrations_and_absences(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    source = tmp_path / "players.txt"
    source.write_text(LIST, encoding="utf-8")
    outcome = import_macmahon_players(source, db)
    assert outcome.report.counts["players"] == {"read": 4, "recorded": 4}
    assert [r.type for r in outcome.records][:2] == ["SourceImported", "PlayerRegistered"]
    state = state_as_of(db)
    p = {x.surname: x for x in state.players.values()}
    anna = p["Muster"]
    assert (anna.id, anna.first_name, anna.rank, anna.country, anna.club, anna.rating, anna.egd_pin) == (
        "p0002", "Anna", "3k", "DE", "Berlin", 1930, "12345678")
    assert (anna.status, anna.start_number, sorted(anna.absences)) == ("final", 2, [3])
    assert (p["Cecil"].rank, p["Cecil"].first_name) == ("15k", "")
    kim = p["Kim"]
    assert (kim.rank, kim.status, kim.extras) == ("30k", "preliminary", {"macmahon.GoLevel": "33k"})
    assert (p["Ohne"].rank, sorted(p["Ohne"].absences)) == ("2d", [2])
    assert any(e.kind == "header" for e in outcome.report.entries)


def test_registered_players_are_skipped_so_a_list_can_be_imported_again(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    source = tmp_path / "players.txt"
    source.write_text(LIST + "Again|X|5k|||||\nHere|Again|5k||||11111111\n", encoding="utf-8")
    first = import_macmahon_players(source, db)
    assert first.report.counts["players"] == {"read": 6, "recorded": 5}
    assert any("11111111 is already registered (p0001)" in e.message for e in first.report.warnings)
    second = import_macmahon_players(source, db)
    assert second.records == [] and second.report.counts["players"]["recorded"] == 0
    assert len(second.report.warnings) == 6
    with pytest.raises(ImportRefused, match="--strict"):
        import_macmahon_players(source, db, strict=True)
    assert len(state_as_of(db).players) == 6


def test_a_bad_line_refuses_the_whole_list(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    source = tmp_path / "players.txt"
    source.write_text("Good|One|3k\nBad|Level|40k\nBad|Country|3k|Germany\nBad|Rating|3k|de||high\n"
                      "Bad|Flag|3k||||||1?1\n|NoSurname|3k\n", encoding="utf-8")
    head = state_as_of(db).seq
    with pytest.raises(ImportRefused) as refused:
        import_macmahon_players(source, db, tmp_path / "report.json")
    messages = [e.message for e in refused.value.report.errors]
    assert len(messages) == 5
    assert "illegal Kyu Go rank '40'" in messages[0] and "two-letter code" in messages[1]
    assert "not an integer" in messages[2] and "round flag '?'" in messages[3] and messages[4] == "no surname"
    assert state_as_of(db).seq == head  # nothing written
    assert not (tmp_path / "report.json").exists()  # a refusal writes nothing, its report neither
    outcome = import_macmahon_players(source, db, tmp_path / "report.json", allow_errors=True)
    assert (tmp_path / "report.json").exists()
    assert [p.surname for p in state_as_of(db).players.values()] == ["Already", "Good"]
    assert outcome.report.counts["players"] == {"read": 6, "recorded": 1}


def test_refusals_name_the_problem(tmp_path: Path) -> None:
    source = tmp_path / "players.txt"
    source.write_bytes("Müller|Hans|3k\n".encode("latin-1"))
    db = _ledger(tmp_path)
    with pytest.raises(FormatError, match="not UTF-8 \\(line 1\\)"):
        import_macmahon_players(source, db)
    with pytest.raises(FormatError, match="does not exist"):
        import_macmahon_players(source, tmp_path / "none.db")


def test_cli_macmahon_players(tmp_path: Path, cli) -> None:
    db = _ledger(tmp_path)
    source = tmp_path / "players.txt"
    source.write_text(LIST, encoding="utf-8")
    done = cli("import", "macmahon-players", source, "--db", db)
    assert done.code == 0, done.err
    assert "registered 4 of 4 listed players" in done.out
    bad = tmp_path / "bad.txt"
    bad.write_text("X|Y|zz\n", encoding="utf-8")
    refused = cli("import", "macmahon-players", bad, "--db", db)
    assert refused.code == 1 and "could not be imported" in refused.err


def test_fold_of_pairing_annotations_and_constraints() -> None:
    state = fold([
        ev.TournamentCreated(settings=ev.TournamentSettings(name="t", rounds=2)),
        *(ev.PlayerRegistered(player_id=f"p000{i}", surname=s, rank="1k") for i, s in enumerate("ABC", start=1)),
        ev.GamePaired(round=1, table=1, white="p0001", black="p0002"),
        ev.PairingAnnotated(round=1, table=1, result_points=3, extras={"macmahon.Comment": "x"}),
        ev.ByeAssigned(round=1, player_id="p0003"),
        ev.PairingAnnotated(round=1, table=2, bye="p0003", extras={"macmahon.BoardNumberFixed": "true"}),
        ev.PairingAnnotated(round=2, table=1),  # no game there
        ev.PairingAnnotated(round=2, table=1, bye="p0001"),  # no bye there
        ev.PairingConstraintSet(player_a="p0002", player_b="p0001", constraint="unwanted"),
        ev.PairingConstraintSet(player_a="p0003", player_b="p0001", constraint="forbidden"),
        ev.PairingConstraintSet(player_a="p0003", player_b="p0001", constraint="none"),
        ev.PairingConstraintSet(player_a="p0003", player_b="p0003", constraint="unwanted"),
    ])
    game = state.games[1][1]
    assert (game.result_points, game.extras) == (3, {"macmahon.Comment": "x"})
    assert state.bye_details[1]["p0003"].table == 2
    assert state.pairing_constraints == {"p0001": {"p0002": "unwanted"}}
    assert [a.message for a in state.anomalies] == [
        "PairingAnnotated: round 2 has no table 1",
        "PairingAnnotated: p0001 has no bye in round 2",
        "PairingConstraintSet names p0003 twice",
    ]
    later = fold([ev.GamePaired(round=1, table=1, white="p0002", black="p0001"),
                  ev.ByeRemoved(round=1, player_id="p0003")], start=state)
    assert later.games[1][1].extras == {} and later.games[1][1].result_points == 0  # a new pairing
    assert later.bye_details == {}
