"""OpenGotha mapping rules on small files written here (spec formats/opengotha-xml.md):
player keys, results and forfeits, colours, byes, absences, duplicate tables, verbatim
values, defaults, teams, unresolved references, --strict, and the export of a ledger
made with goledger commands."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from lxml import etree

from goledger import commands
from goledger.errors import FormatError
from goledger.formats.importing import ImportRefused
from goledger.formats.opengotha import export_opengotha, import_opengotha
from goledger.formats.opengotha.read import read_opengotha
from goledger.formats.opengotha.write import write_opengotha
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.ledger.values import Result
from goledger.replay.fold.state import TournamentState, fold
from goledger.replay.loading.load import load_state

PLAYERS = """
<Player name="Kirca" firstName="Berkan" rank="2d" grade=" 3K" rating="2150" ratingOrigin="FFG : -131"
        participating="10111000000000000000" registeringStatus="FIN" smmsCorrection="1" egfPin="12345678 "
        ffgLicence="1800014" ffgLicenceStatus="L" country="tr" club="Istanbul" userName=""/>
<Player name="de Vries" firstName="Jan" rank="99K" rating="-900" ratingOrigin="INI"
        participating="11111111111111111111" registeringStatus="PRE" smmsCorrection="0" shoeSize="44"/>
<Player name="Nemo" firstName="André" rank="2P" rating="2700" ratingOrigin="EGF"
        participating="11111111111111111111" registeringStatus="FIN" smmsCorrection="0"/>
<Player name="Smith" firstName="Ann" rank="15K" rating="1100" ratingOrigin="MAN"
        participating="11x11111111111111111" registeringStatus="FIN" smmsCorrection="0"/>
"""

GAMES = """
<Game roundNumber="1" tableNumber="1" whitePlayer="KİRCABERKAN" blackPlayer="DEVRIESJAN" handicap="0"
      knownColor="false" result="RESULT_WHITEWINS_BYDEF"/>
<Game roundNumber="1" tableNumber="1" whitePlayer="Nemo André" blackPlayer="SMITHANN" handicap="9"
      knownColor="true" result="RESULT_BOTHLOSE"/>
<Game roundNumber="2" tableNumber="3" whitePlayer="NEMOANDRÉ" blackPlayer="KIRCABERKAN" result="RESULT_BOTHWIN"/>
<Game roundNumber="3" tableNumber="1" whitePlayer="SMITHANN" blackPlayer="NEMOANDRÉ" result="RESULT_UNKNOWN"/>
"""

PARAMETERS = """
<TournamentParameterSet>
<GeneralParameterSet name="Rules Cup" shortName="rules" numberOfRounds="3" genMMBar="3D" genMMFloor="20k"
    genNBW2ValueBye="2" genMMS2ValueBye="2" genMMS2ValueAbsent="1" komi="6.5" numberOfCategories="2"
    complementaryTimeSystem="FISCHER" fischerTime="20" bInternetGame="true" numberOfBZHGroups="1">
<Categories><Category number="1" lowerLimit="1D"/></Categories>
</GeneralParameterSet>
<HandicapParameterSet hdBase="RANK" hdCeiling="0" hdCorrection="2" hdNoHdRankThreshold="30k"/>
<PlacementParameterSet><PlacementCriteria>
<PlacementCriterion number="1" name="NBW"/><PlacementCriterion number="2" name="NULL"/>
<PlacementCriterion number="3" name="SOSWM1"/><PlacementCriterion number="4" name="NULL"/>
<PlacementCriterion number="5" name="NULL"/><PlacementCriterion number="6" name="NULL"/>
</PlacementCriteria></PlacementParameterSet>
<PairingParameterSet paiBaRandom="7" paiSePreferMMSDiffRatherThanSameClubsGroup="2"/>
</TournamentParameterSet>
"""


def sample(players: str = PLAYERS, games: str = GAMES, extra: str = "", root_attrs: str = 'dataVersion="201"',
           parameters: str = PARAMETERS) -> bytes:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<Tournament {root_attrs} saveDT="20240101120000">\n'
        f"<Players>{players}</Players>\n<Games>{games}</Games>\n"
        '<ByePlayers><ByePlayer player="DEVRIESJAN" roundNumber="2"/><ByePlayer player="SMITHANN" roundNumber="2"/>'
        f"</ByePlayers>\n{extra}{parameters}</Tournament>\n"
    ).encode()


@pytest.fixture(scope="module")
def read() -> tuple[list[ev.Event], TournamentState]:
    result = read_opengotha(sample(), source="rules.xml")
    return result.events, fold(result.events)


def messages(data: bytes) -> list[str]:
    return [f"{e.severity}: {e.message}" for e in read_opengotha(data, source="t.xml").report.entries]


def test_event_order(read: tuple[list[ev.Event], TournamentState]) -> None:
    events, _ = read
    names = [type(e).__name__ for e in events]
    assert names[:2] == ["TournamentCreated", "SourceImported"]
    assert names[2:6] == ["PlayerRegistered"] * 4
    summary = events[1].summary  # type: ignore[attr-defined]
    assert summary["players"] == 4 and summary["games"] == 4 and summary["byes"] == 2


def test_players_keep_every_attribute(read: tuple[list[ev.Event], TournamentState]) -> None:
    _, state = read
    kirca, vries, nemo, smith = state.players.values()
    assert (kirca.rank, kirca.grade, kirca.rating, kirca.rating_origin) == ("2d", " 3K", 2150, "FFG")
    assert kirca.extras["opengotha.Player.ratingOrigin"] == "FFG : -131"
    assert kirca.egd_pin == "12345678 " and kirca.country == "tr" and kirca.club == "Istanbul"
    assert kirca.ids == {"ffg_licence": "1800014", "ffg_licence_status": "L"}
    assert kirca.mm_correction == 1 and kirca.start_number == 1
    assert kirca.absences == {2: None}  # flags past round 3 do not count
    assert kirca.extras["opengotha.Player.participating"] == "10111000000000000000"
    assert (vries.rank, vries.status, vries.extras["opengotha.Player.rank"]) == ("30k", "preliminary", "99K")
    assert vries.extras["opengotha.Player.shoeSize"] == "44"
    assert (nemo.rank, nemo.extras["opengotha.Player.rank"], nemo.grade) == ("7d", "2P", "7D")
    assert smith.absences == {} and smith.extras["opengotha.Player.participating"] == "11x11111111111111111"


def test_games_results_and_forfeits(read: tuple[list[ev.Event], TournamentState]) -> None:
    _, state = read
    games = {(g.round, g.table): g for g in state.all_games()}
    assert set(games) == {(1, 1), (1, 2), (2, 3), (3, 1)}
    g = games[(1, 1)]
    assert (g.white, g.black, g.result, g.by_default, g.color_known) == ("p0001", "p0002", Result.WHITE, True, False)
    g = games[(1, 2)]  # the duplicate table 1 is renumbered, not overwritten
    assert (g.white, g.black, g.handicap, g.result, g.by_default) == ("p0003", "p0004", 9, Result.BOTH_LOSE, False)
    assert games[(2, 3)].result is Result.BOTH_WIN
    assert games[(3, 1)].result is Result.UNKNOWN and games[(3, 1)].result_seq is None
    assert state.byes == {2: {"p0002": None, "p0004": None}}


def test_settings(read: tuple[list[ev.Event], TournamentState]) -> None:
    _, state = read
    s = state.settings
    assert s is not None
    assert (s.name, s.rounds, s.mm_bar, s.mm_floor, s.mm_zero, s.komi) == ("Rules Cup", 3, "3d", "20k", "30k", "6.5")
    assert (s.nbw2_bye, s.nbw2_absent, s.mms2_bye, s.mms2_absent) == (2, 0, 2, 1)
    assert s.internet is True and s.time.system == "fischer" and s.time.fischer_seconds == 20
    assert s.category_limits == ("1d",) and s.system == "swiss"
    assert s.criteria == ("NBW", "SOSW-1")
    assert s.extras["opengotha.PlacementParameterSet.criteria"] == "NBW,NULL,SOSWM1,NULL,NULL,NULL"
    assert s.handicap == ev.HandicapSettings(based_on_mms=False, no_handicap_threshold="30k", correction=2, ceiling=0)
    assert s.pairing["paiBaRandom"] == "7" and s.pairing["paiMaSeedSystem2"] == "SPLITANDFOLD"
    assert s.pairing["paiSePreferMMSDiffRatherThanSameClubsGroup"] == "2"
    assert s.extras["opengotha.Tournament.saveDT"] == "20240101120000"
    assert s.extras["opengotha.GeneralParameterSet.numberOfBZHGroups"] == "1"
    assert s.extras["opengotha.DPParameterSet.gameFormat"] == "full"
    assert s.extras["opengotha.TeamPlacementParameterSet.criteria"] == "TEAMP,BDW,BDW3U,BDW2U,BDW1U,MNR"
    assert "opengotha.Tournament.dataVersion" not in s.extras


def test_report_names_every_normalisation_and_inconsistency() -> None:
    found = "\n".join(messages(sample()))
    for expected in [
        "warning: table 1 of round 1 used twice",
        "warning: round 2 has 2 bye players (DEVRIESJAN, SMITHANN); OpenGotha keeps only the last",
        "warning: Kirca Berkan is paired in round 2 where the file marks him absent",
        "warning: unknown player attribute shoeSize='44' kept verbatim",
        "criterion 'SOSWM1' (pairgoth's name) read as SOSW-1",
        "Turkish-locale OpenGotha",
        "matched after removing spaces and upper-casing",
        "bInternetGame (OpenGotha 3.51.05+) read as bInternet",
        "hdBase='RANK' (OpenGotha 3.51.05+) read as hdBasedOnMMS",
        "club longer than 4 characters",
        "<PairingParameterSet> lacks",
        "no <DPParameterSet>",
    ]:
        assert expected in found, expected
    assert not [m for m in messages(sample()) if m.startswith("error")]


def test_turkish_and_obsolete_keys_and_unresolved(tmp_path: Path) -> None:
    games = ('<Game roundNumber="1" tableNumber="1" whitePlayer="NEMOANDRE" blackPlayer="SMITH-ANN" '
             'result="RESULT_BLACKWINS"/>'
             '<Game roundNumber="1" tableNumber="2" whitePlayer="NOBODYHERE" blackPlayer="DEVRIESJAN" '
             'result="RESULT_WHITEWINS"/>')
    data = sample(games=games)
    found = messages(data)
    assert "warning: white player 'NEMOANDRE' matched only by OpenGotha's obsolete A-Z key form" in found
    assert "error: white player 'NOBODYHERE' matches no player" in found
    with pytest.raises(ImportRefused, match=r"could not be imported .*NOBODYHERE.*nothing was written"):
        (tmp_path / "t.xml").write_bytes(data)
        import_opengotha(tmp_path / "t.xml", tmp_path / "t.db")
    assert not list(tmp_path.glob("*.db*")) and not list(tmp_path.glob(".t.db*"))
    outcome = import_opengotha(tmp_path / "t.xml", tmp_path / "t.db", allow_errors=True)
    with Ledger.open(outcome.db) as ledger:
        state = load_state(ledger)
    placeholder = state.players["p0005"]
    assert placeholder.surname == "NOBODYHERE" and placeholder.status == "preliminary"
    assert state.games[1][2].white == "p0005"  # the game is kept, not dropped


def test_data_version_200_shifts_ratings_only_when_explicit() -> None:
    old = fold(read_opengotha(sample(root_attrs='dataVersion="200"'), source="t.xml").events)
    absent = fold(read_opengotha(sample(root_attrs=""), source="t.xml").events)
    assert [p.rating for p in old.players.values()] == [2949, 1150, 2949, 2949]  # +2050, capped at 2949
    assert [p.rating for p in absent.players.values()] == [2150, -900, 2700, 1100]


def test_missing_parameters_take_reader_defaults() -> None:
    state = fold(read_opengotha(sample(parameters=""), source="t.xml").events)
    s = state.settings
    assert s is not None
    assert (s.name, s.short_name, s.location, s.rounds, s.komi) == ("default Name", "defaultshortname", "Paris", 5,
                                                                      "7.5")
    assert (s.mm_bar, s.mm_floor, s.nbw2_bye, s.mms2_bye, s.mms2_absent) == ("4d", "20k", 0, 0, 0)
    assert s.handicap == ev.HandicapSettings() and s.criteria == ()


def test_teams_clubs_groups_and_categories_round_trip() -> None:
    extra = ('<Teams><Team teamName="Blue" teamNumber="2"><Board boardNumber="1" player="KIRCABERKAN" roundNumber="1"/>'
             '<Board boardNumber="2" player="DEVRIESJAN" roundNumber="1"/></Team>'
             '<Team teamName="Old style" teamNumber="1"><Board boardNumber="1" player="SMITHANN"/></Team></Teams>'
             '<ClubsGroups><ClubsGroup name="south"><Club name="Tls"/><Club name="Mrs"/></ClubsGroup></ClubsGroups>')
    events = read_opengotha(sample(extra=extra), source="t.xml").events
    state = fold(events)
    blue, old = state.teams.values()
    assert (blue.name, blue.number, blue.members) == ("Blue", 2, [("p0001", 1, 1), ("p0002", 2, 1)])
    assert old.members == [("p0004", 1, None)]
    assert json.loads(state.settings.extras["opengotha.ClubsGroups.groups"]) == [["south", ["Tls", "Mrs"]]]
    data, _ = write_opengotha(state)
    again = read_opengotha(data, source="again.xml").events
    strip = [msgspec.to_builtins(e) for e in events[2:]]
    assert [msgspec.to_builtins(e) for e in again[2:]] == strip
    assert msgspec.to_builtins(again[0]) == msgspec.to_builtins(events[0])
    root = etree.fromstring(data)
    assert [b.get("roundNumber") for b in root.iter("Board")] == ["1", "1", None]
    assert root.find("TournamentParameterSet/GeneralParameterSet/Categories/Category").get("lowerLimit") == "1D"


def test_strict_refuses_on_warnings(tmp_path: Path) -> None:
    (tmp_path / "t.xml").write_bytes(sample())
    with pytest.raises(ImportRefused, match="refused by --strict") as caught:
        import_opengotha(tmp_path / "t.xml", tmp_path / "t.db", report=tmp_path / "r.json", strict=True)
    assert not (tmp_path / "t.db").exists() and not (tmp_path / "r.json").exists()
    report = json.loads(caught.value.report.to_json())
    assert report["counts"]["games"] == {"read": 4, "recorded": 4}
    assert any(e["kind"] == "inconsistency" for e in report["entries"])


def test_wrong_root_is_refused() -> None:
    with pytest.raises(FormatError, match="root element is <Tournoi>, not <Tournament>"):
        read_opengotha(b"<Tournoi/>", source="t.xml")


def test_export_of_a_ledger_made_with_commands(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "Club Night", 3, bar="2d", floor="25k")
    commands.register(db, "Ali", "Veli", "3d", egd_pin="12345678", rating=2250)
    commands.register(db, "Berg", "Anna", "1k")
    commands.register(db, "Chen", "Li", "2p")
    commands.pair(db, 1, "p0001", "p0002", handicap=0)
    commands.result(db, 1, 1, "black", by_default=True)
    commands.bye(db, "p0003", 1)
    commands.absent(db, "p0002", 2)
    commands.withdraw(db, "p0001", 3)
    outcome = export_opengotha(db, tmp_path / "out.xml")
    root = etree.fromstring(outcome.data)
    players = {p.get("name"): p for p in root.iter("Player")}
    assert players["Ali"].get("participating") == "11011111111111111111"  # withdrawn from round 3
    assert players["Berg"].get("participating")[:3] == "101"
    assert players["Berg"].get("rating") == "2000" and players["Chen"].get("rank") == "7D"
    game = next(root.iter("Game"))
    assert (game.get("whitePlayer"), game.get("blackPlayer"), game.get("result")) == (
        "ALIVELI", "BERGANNA", "RESULT_BLACKWINS_BYDEF")
    assert next(root.iter("ByePlayer")).get("player") == "CHENLI"
    general = root.find("TournamentParameterSet/GeneralParameterSet")
    assert (general.get("genMMBar"), general.get("genMMFloor"), general.get("numberOfRounds")) == ("2D", "25K", "3")
    notes = " ".join(e.message for e in outcome.report.entries)
    assert "withdrawal from round 3 written as absences" in notes and "professional rank 2p written as 7D" in notes
    again = import_opengotha(tmp_path / "out.xml", tmp_path / "again.db")
    with Ledger.open(again.db) as ledger:
        state = load_state(ledger)
    # goledger's own file carries the withdrawal (issue 40): it comes back as one, not as absences
    assert state.players["p0001"].absences == {} and state.players["p0001"].withdrawn_from == 3
    assert next(p for p in state.players.values() if p.surname == "Chen").rank == "2p"  # grade 2P read back
    assert state.games[1][1].result is Result.BLACK and state.games[1][1].by_default


def test_bye_and_game_in_the_same_round_is_reported() -> None:
    games = GAMES + ('<Game roundNumber="2" tableNumber="4" whitePlayer="SMITHANN" blackPlayer="DEVRIESJAN" '
                     'result="RESULT_EQUAL"/>')
    found = messages(sample(games=games))
    assert "warning: Smith Ann has the bye of round 2 and a game in it" in found
    assert "warning: de Vries Jan has the bye of round 2 and a game in it" in found
