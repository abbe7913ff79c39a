"""MacMahon XML: the writer against spec §B, losslessness, byte stability, the pairgoth
dialect, refusals and the CLI."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest
from lxml import etree

from goledger import commands
from goledger.errors import FormatError
from goledger.formats.importing import ImportRefused
from goledger.formats.macmahon import export_macmahon, import_macmahon, layout
from goledger.formats.macmahon.read import DIALECT_PAIRGOTH, read_macmahon
from goledger.formats.macmahon.write import write_macmahon
from goledger.replay.fold.state import fold
from goledger.replay.views import state_as_of

from ..conftest import needs_shared
from ..macmahon_samples import HAND_BUILT, MINIMAL

OBJECTS = ("Tournament", "Walllist", "SortCriterionDescriptor", "Country", "Club", "IndividualParticipant",
           "GoPlayer", "TournamentRound", "Pairing", "UnwantedPairing", "MakePairingSeedingPlacementCriterion")


def _export(text: str) -> tuple[bytes, object]:
    result = read_macmahon(text.encode("utf-8"), source="t.xml")
    return write_macmahon(fold(result.events))


def _reimport(data: bytes) -> bytes:
    result = read_macmahon(data, source="again.xml")
    assert not result.report.errors and not result.report.warnings, result.report.render()
    return write_macmahon(fold(result.events))[0]


def _board_numbers_accepted(round_el: etree._Element) -> bool:
    """MacMahon 3.10's reader (spec §B.5): fixed pairings first by number, the others in file
    order; a counter from 1 jumps to each fixed number; a non-fixed number must equal it."""
    pairings = round_el.findall("Pairing")
    fixed = sorted(int(p.findtext("BoardNumber")) for p in pairings
                   if p.findtext("BoardNumberFixed") == "true" and int(p.findtext("BoardNumber")) > 0)
    loose = [int(p.findtext("BoardNumber")) for p in pairings
             if not (p.findtext("BoardNumberFixed") == "true" and int(p.findtext("BoardNumber")) > 0)]
    counter = 1
    for number in fixed:
        counter = number + 1
    for number in loose:
        if number != counter:
            return False
        counter += 1
    return True


def test_export_of_an_imported_file_is_the_file_itself_but_for_known_normalisations() -> None:
    data, report = _export(HAND_BUILT)
    changed = [line for line in difflib.unified_diff(HAND_BUILT.splitlines(), data.decode("utf-8").splitlines(),
                                                     lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    carried = [line for line in changed if line.startswith("+<!-- goledger ")]  # after </Tournament>
    assert [line.split()[2] for line in carried] == ["rules", "places", "status"]
    assert [line for line in changed if line not in carried] == [
        "-  <VersionSaved>MacMahon 3.10</VersionSaved>",
        "+  <VersionSaved>goledger 0.1.0</VersionSaved>",
        # the player's club is added to the country table it needs (spec §B.12)
        '+    <Club typeversion="1">',
        "+      <Name>Hamburg</Name>",
        "+      <EGDName>Hamb</EGDName>",
        "+    </Club>",
        "-      <EgdPin>012345678</EgdPin>",  # MacMahon reads an integer too (spec §B.8)
        "+      <EgdPin>12345678</EgdPin>",
        "-      <GoLevel>5K</GoLevel>",  # levels are written in lower case (spec §1.1)
        "+      <GoLevel>5k</GoLevel>",
    ]
    assert not report.errors and not report.warnings  # type: ignore[attr-defined]


def test_export_follows_the_rules_macmahon_reader_needs() -> None:
    data, _ = _export(HAND_BUILT)
    text = data.decode("utf-8")
    assert text.startswith('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<Tournament typeversion="9">\n')
    root = etree.fromstring(data)
    for el in root.iter():
        if el.tag in OBJECTS and el.getparent() is not None and el.getparent().tag == "GoPlayer":
            assert el.get("typeversion") is None  # the player's <Country>/<Club> are plain text
        elif el.tag in OBJECTS:
            assert el.get("typeversion") == layout.TYPEVERSIONS[el.tag], el.tag
    # element order (spec §B.1, §B.16)
    tags = [c.tag for c in root]
    scalars = [row[0] for row in layout.TOURNAMENT if row[0] in tags]
    assert tags[: len(scalars)] == scalars
    tail = [t for t in tags[len(scalars):] if t != "PrintWalllistLandscape"]
    blocks = [t for i, t in enumerate(tail) if i == 0 or tail[i - 1] != t]
    assert blocks == ["Walllist", "Country", "DefaultCountry", "IndividualParticipant", "TournamentRound",
                      "UnwantedPairing"]
    assert tags.index("Name") < tags.index("Country") and tags.index("AllowJigo") < tags.index("TournamentRound")
    # CDATA only in MacMahon's CDATA elements, inline (spec §B.7)
    assert set(re.findall(r"<(\w+)><!\[CDATA\[", text)) <= layout.CDATA_ELEMENTS
    assert "<Name>Germany</Name>" in text and "<Name>Berlin</Name>" in text
    assert re.search(r"<\w+>\s+<!\[CDATA\[", text) is None
    assert "<![CDATA[]]>" not in text  # empty strings are omitted (spec §B.6)
    # every round, byes without White/Result (spec §B.4), accepted board numbers (§B.5)
    rounds = root.findall("TournamentRound")
    assert [r.findtext("RoundNumber") for r in rounds] == ["1", "2", "3"]
    for r in rounds:
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", r.findtext("LastUpdated") or "")
        assert _board_numbers_accepted(r)
        for p in r.findall("Pairing"):
            if p.findtext("PairingWithBye") == "true":
                assert [c.tag for c in p] == ["ForcedPairing", "PairingWithBye", "Black", "BoardNumber",
                                              "BoardNumberFixed", "CreationTime"]
            else:
                assert p.findtext("Result") in layout.RESULTS
    assert rounds[0].findall("Pairing")[2].findtext("Result") == "½-½"
    for level in root.iter("GoLevel"):
        assert level.text == level.text.lower()


@pytest.mark.parametrize("text", [HAND_BUILT, MINIMAL], ids=["hand-built", "minimal"])
def test_export_import_export_is_byte_stable(text: str) -> None:
    first, _ = _export(text)
    assert _reimport(first) == first


def _commands_ledger(tmp_path: Path) -> Path:
    """A ledger made with commands only, as from OpenGotha: no MacMahon values at all."""
    db = tmp_path / "t.db"
    commands.new(db, "Club Cup", 4, bar="3d", floor="25k", komi="6.5", begin_date="2026-03-07")
    for surname, rank, country, club, pin in (
        ("Ahn", "4d", "KR", "", "12345678"), ("Bauer", "2k", "DE", "Hamb", ""), ("Costa", "8k", "PT", "Lisb", ""),
        ("Dubois", "12k", "FR", "Pari", "09876543"), ("Evans", "20k", "", "", ""), ("Fabre", "28k", "FR", "", ""),
    ):
        commands.register(db, surname, "X", rank, country=country, club=club, egd_pin=pin)
    commands.update_player(db, "Costa", mm_correction=1)
    commands.change_rules(db, {"mms2_absent": 0, "internet": True})
    commands.pair(db, 1, "Ahn", "Bauer", handicap=0)
    commands.pair(db, 1, "Costa", "Dubois", table=4, handicap=2)
    commands.pair(db, 1, "Evans", "Fabre", table=5, handicap=0)
    commands.result(db, 1, 1, "white")
    commands.result(db, 1, 4, "black", by_default=True)
    commands.result(db, 1, 5, "jigo")
    commands.absent(db, "Fabre", 2)
    commands.bye(db, "Evans", 2)
    commands.pair(db, 2, "Bauer", "Ahn", handicap=0, force=True)  # rematches, on purpose
    commands.pair(db, 2, "Dubois", "Costa", handicap=0, force=True)
    commands.result(db, 2, 1, "both-lose")
    commands.withdraw(db, "Dubois", 3)
    commands.pair(db, 3, "Ahn", "Costa", handicap=0)
    return db


def test_a_ledger_without_macmahon_values_exports_and_is_stable(tmp_path: Path) -> None:
    db = _commands_ledger(tmp_path)
    outcome = export_macmahon(db, tmp_path / "out.xml")
    data = (tmp_path / "out.xml").read_bytes()
    assert outcome.data == data
    root = etree.fromstring(data)
    assert root.findtext("CurrentRoundNumber") == "3" and root.findtext("TakeCurrentRoundInAccount") == "false"
    assert (root.findtext("UpperMacMahonBarLevel"), root.findtext("LowerMacMahonBarLevel")) == ("3d", "25k")
    assert root.findtext("AllowJigo") == "false"  # komi 6.5
    assert [c.findtext("InternetCode") for c in root.findall("Country")] == ["de", "fr", "kr", "pt"]
    assert root.find("Country[InternetCode='fr']/Club/Name").text == "Pari"
    r1, r2, _r3, r4 = root.findall("TournamentRound")
    assert [p.findtext("BoardNumber") for p in r1.findall("Pairing")] == ["1", "4", "5"]
    assert all(p.findtext("BoardNumberFixed") == "true" for p in r1.findall("Pairing"))  # table numbers kept
    first = r1.findall("Pairing")[0]
    assert (first.findtext("Black"), first.findtext("White"), first.findtext("Result")) == ("2", "1", "0-1")
    referee = r1.findall("Pairing")[1]
    assert (referee.findtext("Result"), referee.findtext("ResultByReferee"), referee.findtext("Handicap")) == (
        "1-0", "true", "2")
    bye = r2.find("Pairing[PairingWithBye='true']")
    assert bye.find("White") is None and bye.findtext("Black") == "5"
    assert r4.find("Pairing") is None and r4.findtext("LastUpdated") == "2026-03-07 00:00:00"
    participants = {p.findtext("GoPlayer/Surname"): p for p in root.findall("IndividualParticipant")}
    assert [n.text for n in participants["Dubois"].findall("NotPlayingInRound")] == ["3", "4"]  # withdrew
    assert [n.text for n in participants["Fabre"].findall("NotPlayingInRound")] == ["2"]
    assert participants["Costa"].findtext("ScoreAdjustmentValue") == "4"
    assert participants["Dubois"].findtext("GoPlayer/EgdPin") == "9876543"
    messages = " ".join(e.message for e in outcome.report.entries)
    assert "komi 6.5" in messages and "leading zero" in messages and "withdrawal from round 3" in messages
    assert "mms2_absent 0" in messages and "internet have no place" in messages
    assert _reimport(data) == data


def test_export_import_keeps_games_results_byes_absences_and_standings(tmp_path: Path) -> None:
    db = _commands_ledger(tmp_path)
    before = state_as_of(db)
    data = export_macmahon(db).data
    after = fold(read_macmahon(data, source="x.xml").events)
    key = {pid: p.surname for pid, p in before.players.items()}
    key2 = {pid: p.surname for pid, p in after.players.items()}
    assert sorted(key.values()) == sorted(key2.values())

    def games(state, names):
        return sorted((g.round, g.table, names[g.white], names[g.black], g.handicap, g.result, g.by_default)
                      for g in state.all_games())

    assert games(before, key) == games(after, key2)
    assert {r: {key[p] for p in b} for r, b in before.byes.items()} == {r: {key2[p] for p in b}
                                                                          for r, b in after.byes.items()}
    from goledger.replay.scoring.standings import standings

    crit = ["MM-Score", "MM-ScoreX", "MM-Points", "MM-SOS", "MM-SOSOS", "MM-SODOS"]
    for r in range(0, 5):
        a = standings(before, r, "macmahon", crit)
        b = standings(after, r, "macmahon", crit)
        assert [(x.place, x.surname, x.values) for x in a.rows] == [(x.place, x.surname, x.values) for x in b.rows]


def test_board_numbers_macmahon_would_renumber_are_written_fixed() -> None:
    # Non-fixed boards 2 and 1 in round 1 (not consecutive in file order for MacMahon): the
    # writer keeps the ledger's table numbers by writing them fixed.
    text = HAND_BUILT.replace("<BoardNumber>2</BoardNumber>\n      <BoardNumberFixed>false",
                              "<BoardNumber>4</BoardNumber>\n      <BoardNumberFixed>false", 1)
    result = read_macmahon(text.encode(), source="t.xml")
    assert any("not consecutive" in e.message for e in result.report.warnings)
    data, report = write_macmahon(fold(result.events))
    r1 = etree.fromstring(data).find("TournamentRound")
    assert [(p.findtext("BoardNumber"), p.findtext("BoardNumberFixed")) for p in r1.findall("Pairing")] == [
        ("1", "true"), ("3", "true"), ("4", "true")]
    assert _board_numbers_accepted(r1)
    assert any(e.kind == "renumbered" for e in report.entries)


# --------------------------------------------------------------------------- reading


@needs_shared
def test_pairgoth_dialect_is_read_and_reported(shared: Path) -> None:
    data = (shared / "realdata/macmahon/ffrgo_pairgoth__sample-tournament.xml").read_bytes()
    result = read_macmahon(data, source="sample.xml")
    report = result.report
    assert report.dialect == DIALECT_PAIRGOTH
    assert any(e.kind == "dialect" and "not MacMahon's own layout" in e.message for e in report.warnings)
    state = fold(result.events)
    assert state.settings.name == "Test MacMahon Tournament" and state.settings.rounds == 3
    assert (state.settings.mm_bar, state.settings.mm_floor) == ("1d", "20k")
    assert state.settings.criteria == ("MM-Score", "MM-SOS", "MM-SOSOS")
    assert state.settings.handicap.ceiling == 0  # HandicapUsed false
    players = {p.surname: p for p in state.players.values()}
    assert players["Brown"].status == "preliminary" and players["Brown"].country == "UK"
    assert players["White"].extras["macmahon.SuperBarMember"] == "true"
    games = {(g.round, g.table): (players_of(state, g.black), players_of(state, g.white), g.result.value)
             for g in state.all_games()}
    assert games == {(1, 1): ("Jones", "Smith", "black"), (1, 2): ("Brown", "White", "white"),
                     (2, 1): ("Smith", "Jones", "white")}
    assert {players_of(state, p) for p in state.byes[2]} == {"White"}
    assert sorted(players["Brown"].absences) == [2]
    exported = write_macmahon(state)[0]
    assert etree.fromstring(exported).tag == "Tournament" and _reimport(exported) == exported


def players_of(state, pid: str) -> str:
    return state.players[pid].surname


def test_a_file_that_is_not_macmahon_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="root element is <Players>"):
        read_macmahon(b"<Players/>", source="x.xml")
    with pytest.raises(FormatError, match="OpenGotha file"):
        read_macmahon(b'<Tournament dataVersion="201"><Players/></Tournament>', source="og.xml")
    with pytest.raises(FormatError, match="entities"):
        read_macmahon(b'<!DOCTYPE x [<!ENTITY a "b">]><Tournament>&a;</Tournament>', source="evil.xml")


def test_an_unknown_participant_id_refuses_the_import_and_writes_nothing(tmp_path: Path) -> None:
    bad = MINIMAL.replace("<Black>2</Black><White>1</White>", "<Black>9</Black><White>1</White>")
    source = tmp_path / "bad.xml"
    source.write_text(bad, encoding="utf-8")
    with pytest.raises(ImportRefused, match="no participant's Id") as caught:
        import_macmahon(source, tmp_path / "bad.db", tmp_path / "report.json")
    assert not (tmp_path / "bad.db").exists() and not (tmp_path / "report.json").exists()
    assert "no participant's Id" in caught.value.report.to_json().decode()
    outcome = import_macmahon(source, tmp_path / "bad.db", tmp_path / "report.json", allow_errors=True)
    assert b"no participant's Id" in (tmp_path / "report.json").read_bytes()
    assert outcome.report.counts["games"] == {"read": 2, "recorded": 1}


def test_foreign_values_are_read_with_warnings() -> None:
    text = (MINIMAL.replace("<Result>1-0</Result>", "<Result>B+</Result>")
            .replace("<Id>2</Id>", "<Id> 2 </Id>")
            .replace("<TakeCurrentRoundInAccount>true", "<TakeCurrentRoundInAccount>True"))
    result = read_macmahon(text.encode(), source="t.xml")
    messages = [e.message for e in result.report.warnings]
    assert any("'B+' read as black" in m for m in messages)
    assert any("spaces around the number" in m for m in messages)
    assert any("MacMahon reads it as false" in m for m in messages)
    state = fold(result.events)
    assert state.games[1][1].result.value == "black"


def test_encodings() -> None:
    latin = MINIMAL.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"').replace("Muster", "Müßig")
    latin = latin.replace("½-½", "&#189;-&#189;")
    result = read_macmahon(latin.encode("latin-1"), source="latin.xml")
    state = fold(result.events)
    assert state.players["p0001"].surname == "Müßig" and state.games[2][1].result.value == "jigo"
    assert not result.report.warnings
    undeclared = MINIMAL.replace('<?xml version="1.0" encoding="UTF-8"?>\n', "").replace("Muster", "Müßig")
    repaired = read_macmahon(undeclared.replace("½-½", "0-1").encode("cp1252"), source="cp.xml")
    assert fold(repaired.events).players["p0001"].surname == "Müßig"
    assert any(e.kind == "encoding" for e in repaired.report.warnings)


def test_values_the_policy_cannot_follow_are_reported() -> None:
    text = (HAND_BUILT.replace("<RatingDeterminesStartScore>false", "<RatingDeterminesStartScore>true")
            .replace("<Boardsize>19", "<Boardsize>13"))
    warnings = [e.message for e in read_macmahon(text.encode(), source="t.xml").report.warnings]
    assert any("RatingDeterminesStartScore is on" in m for m in warnings)
    assert any("13×13 board are in MacMahon's own units" in m for m in warnings)


def test_absent_elements_read_as_macmahon_reads_them() -> None:
    state = fold(read_macmahon(MINIMAL.encode(), source="t.xml").events)
    x = state.settings.extras
    assert x["macmahon.HandicapIncludeInTieBreakers"] == "false"
    assert x["macmahon.HalfScoreGroupsRoundDownNotJigo"] == "false"
    assert x["macmahon.HandicapLimitValue"] == "0"
    assert x["macmahon.Walllist.ShowHandicap"] == "false"
    assert state.settings.board_size == 19  # Boardsize 0: the ledger keeps 19, MacMahon's 0 is kept too
    assert x["macmahon.Boardsize"] == "0"


# --------------------------------------------------------------------------- CLI


def test_cli_import_standings_export(tmp_path: Path, cli) -> None:
    source = tmp_path / "hand.xml"
    source.write_text(HAND_BUILT, encoding="utf-8")
    db = tmp_path / "hand.db"
    done = cli("import", "macmahon", source, "--db", db, "--report", tmp_path / "r.json")
    assert done.code == 0, done.err
    assert "7 players, 7 games, 6 results, 1 byes, 5 absences" in done.out and (tmp_path / "r.json").exists()
    table = cli("standings", "--db", db, "--format", "csv")
    assert table.code == 0, table.err
    lines = table.out.splitlines()
    assert lines[0].endswith("MM-Score,MM-SOS,MM-SOSOS")
    assert lines[1].split(",")[2:] == ["Zander", "Anna", "4d", "12345678", "24.5", "49", "157.5"]
    out = tmp_path / "out.xml"
    exported = cli("export", "macmahon", "--db", db, "-o", out)
    assert exported.code == 0, exported.err
    stdout = cli("export", "macmahon", "--db", db, "--quiet")
    assert stdout.code == 0 and stdout.out.encode("utf-8") == out.read_bytes()
    again = cli("import", "macmahon", tmp_path / "nothing.xml", "--db", tmp_path / "n.db")
    assert again.code == 1 and "no such file" in again.err
    twice = cli("import", "macmahon", source, "--db", db)
    assert twice.code == 1 and "already exists" in twice.err
