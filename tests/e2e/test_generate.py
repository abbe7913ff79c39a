"""The benchmark generator (performance issue 9, item 1): a realistic congress from a seed,
written both as a ledger and as OpenGotha XML that imports back to the same standings."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from benchmarks.generate import generate_events, main, write_ledger, write_opengotha
from goledger.formats.opengotha import import_opengotha
from goledger.ledger import events as ev
from goledger.replay.scoring.standings import standings
from goledger.replay.views import state_as_of


def test_generated_congress_has_what_a_congress_has() -> None:
    events = generate_events(400, 10, seed=5)
    assert events == generate_events(400, 10, seed=5)  # deterministic per seed
    assert events != generate_events(400, 10, seed=6)
    kinds = Counter(type(e).__name__ for e in events)
    assert kinds["PlayerRegistered"] == 400
    assert 400 * 4 // 100 <= kinds["ParticipationChanged"] <= 400 * 6 // 100  # ~5 % announced absences
    assert 1 <= kinds["PlayerWithdrew"] <= 2
    assert kinds["ResultCorrected"] >= 1
    games = [e for e in events if isinstance(e, ev.GamePaired)]
    results = [e for e in events if isinstance(e, ev.ResultRecorded)]
    assert len(results) == len(games)
    assert 0.002 <= sum(r.by_default for r in results) / len(results) <= 0.03  # ~1 % forfeits
    assert any(g.handicap for g in games)
    settings = events[0].settings  # type: ignore[attr-defined]
    assert (settings.system, settings.mm_bar, settings.mm_floor) == ("mcmahon", "4d", "20k")
    byes = Counter(e.round for e in events if isinstance(e, ev.ByeAssigned))
    for round_ in range(1, 11):
        paired = 2 * sum(1 for g in games if g.round == round_)
        assert byes[round_] == (1 if (paired + byes[round_]) % 2 else 0)
    assert not any(g.white == g.black for g in games)


def test_ledger_and_opengotha_xml_give_the_same_standings(tmp_path: Path) -> None:
    db, xml, back = tmp_path / "g.db", tmp_path / "g.xml", tmp_path / "back.db"
    write_ledger(generate_events(120, 6, seed=2), db, batch=500)
    write_opengotha(db, xml)
    import_opengotha(xml, back)
    ours, theirs = state_as_of(db), state_as_of(back)
    for round_ in range(1, 7):
        a = standings(ours, round_, "opengotha", ["MMS", "SOSM", "SOSOSM"])
        b = standings(theirs, round_, "opengotha", ["MMS", "SOSM", "SOSOSM"])
        assert [(r.place, r.surname, r.first_name, r.values) for r in a.rows] == [
            (r.place, r.surname, r.first_name, r.values) for r in b.rows]


def test_command_line_writes_both(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["--players", "30", "--rounds", "3", "--db", str(tmp_path / "c.db"),
                 "--xml", str(tmp_path / "c.xml")]) == 0
    out = capsys.readouterr().out
    assert "30 players × 3 rounds" in out and "OpenGotha XML" in out
    assert (tmp_path / "c.xml").read_bytes().startswith(b"<?xml")
