"""OpenGotha import → export → import over every real file: the two ledgers hold the same
events (payloads equal; the SourceImported file name and hash aside), and exporting the
second ledger gives the same bytes as exporting the first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lxml import etree

from goledger.formats.opengotha import export_opengotha, import_opengotha
from goledger.ledger.store import Ledger

from ..conftest import needs_shared
from ..opengotha_files import file_ids, shared_opengotha_files

FILES = shared_opengotha_files()


def payloads(db: Path) -> list[tuple[str, dict[str, object]]]:
    with Ledger.open(db) as ledger:
        records = list(ledger.records())
    out = []
    for record in records:
        payload = json.loads(record.payload)
        if record.type == "SourceImported":
            payload.pop("filename")
            payload.pop("sha256")
        out.append((record.type, payload))
    return out


@needs_shared
@pytest.mark.parametrize("path", FILES, ids=file_ids(FILES))
def test_import_export_import_keeps_every_event(path: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "first.db", tmp_path / "second.db"
    import_opengotha(path, first)
    exported = export_opengotha(first, tmp_path / "out.xml")
    assert (tmp_path / "out.xml").read_bytes() == exported.data
    import_opengotha(tmp_path / "out.xml", second)
    assert payloads(second) == payloads(first)
    assert export_opengotha(second).data == exported.data


@needs_shared
@pytest.mark.parametrize("path", FILES[:: max(1, len(FILES) // 12)], ids=file_ids(FILES[:: max(1, len(FILES) // 12)]))
def test_export_is_what_opengotha_351_writes(path: Path, tmp_path: Path) -> None:
    """UTF-8, dataVersion 201, the writer's element order, alphabetical attributes, every
    attribute of every player and game, 20-character participation, upper-case ranks."""
    import_opengotha(path, tmp_path / "t.db")
    data = export_opengotha(tmp_path / "t.db").data
    assert data.startswith(b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<Tournament ')
    data.decode("utf-8")
    root = etree.fromstring(data)
    assert root.get("dataVersion") == "201"
    order = [child.tag for child in root]
    expected = ["Players", "Games", "ByePlayers", "Teams", "TournamentParameterSet", "TeamTournamentParameterSet",
                "ClubsGroups"]
    assert order == [tag for tag in expected if tag in order]
    assert order[:2] == ["Players", "Games"] and "TournamentParameterSet" in order
    for el in root.iter():
        assert list(el.attrib) == sorted(el.attrib), el.tag
    player_attrs = {"agaExpirationDate", "agaId", "club", "country", "egfPin", "ffgLicence", "ffgLicenceStatus",
                    "firstName", "grade", "name", "participating", "rank", "rating", "ratingOrigin",
                    "registeringStatus", "smmsCorrection"}
    for player in root.iter("Player"):
        assert player_attrs <= set(player.attrib)
        assert len(player.get("participating")) >= 20
        assert player.get("rank") == player.get("rank").upper()
    for game in root.iter("Game"):
        assert set(game.attrib) == {"blackPlayer", "handicap", "knownColor", "result", "roundNumber", "tableNumber",
                                    "whitePlayer"}
    criteria = root.find("TournamentParameterSet/PlacementParameterSet/PlacementCriteria")
    assert [c.get("number") for c in criteria] == ["1", "2", "3", "4", "5", "6"]


@needs_shared
def test_settings_are_the_files_parameters(shared: Path, tmp_path: Path) -> None:
    """TournamentSettings equal what OpenGotha itself loaded (oracle meta.json)."""
    from goledger.ledger.values import Rank
    from goledger.replay.loading.load import load_state

    checked = 0
    for meta_path in sorted((shared / "oracle" / "outputs").glob("*.meta.json")):
        meta = json.loads(meta_path.read_text())
        db = tmp_path / f"{meta_path.name}.db"
        import_opengotha(shared / "oracle" / "inputs" / meta["input"], db)
        with Ledger.open(db) as ledger:
            s = load_state(ledger).settings
        assert s is not None
        assert Rank.parse(s.mm_bar) == Rank.parse(meta["genMMBar"])
        assert Rank.parse(s.mm_floor) == Rank.parse(meta["genMMFloor"])
        assert Rank.parse(s.mm_zero) == Rank.parse(meta["genMMZero"])
        assert (s.nbw2_absent, s.nbw2_bye, s.mms2_absent, s.mms2_bye) == (
            meta["genNBW2ValueAbsent"], meta["genNBW2ValueBye"], meta["genMMS2ValueAbsent"], meta["genMMS2ValueBye"])
        assert s.round_down is meta["genRoundDownNBWMMS"]
        assert s.not_played_as_half is meta["genCountNotPlayedGamesAsHalfPoint"]
        assert list(s.criteria) == [c for c in meta["placementCriteria"] if c != "NULL"]
        assert [Rank.parse(c) for c in s.category_limits] == [Rank.parse(c) for c in meta["lowerCategoryLimits"]]
        assert s.rounds == meta["numberOfRounds"] and s.name == meta["name"] and s.short_name == meta["shortName"]
        system = {"MCMAHON": "mcmahon", "SWISS": "swiss", "SWISSCAT": "swisscat", "CUP": "cup"}[meta["tournamentType"]]
        assert s.system == system
        checked += 1
    assert checked >= 30


@needs_shared
def test_players_carry_the_files_values(shared: Path, tmp_path: Path) -> None:
    """Ranks as OpenGotha read them (oracle CSV ``rankInt``), ratings as the file's integers,
    registering status, and the key OpenGotha built for each player."""
    import csv

    from goledger.formats.opengotha.keys import player_key
    from goledger.ledger.values import Rank
    from goledger.replay.loading.load import load_state

    for stem in ("egc-2011", "reedmcmahon-r3", "malavasi-2024", "cnj-2020-u12", "toulouse-2024"):
        source = shared / "oracle" / "inputs" / f"{stem}.xml"
        import_opengotha(source, tmp_path / f"{stem}.db")
        with Ledger.open(tmp_path / f"{stem}.db") as ledger:
            players = list(load_state(ledger).players.values())
        with open(shared / "oracle" / "outputs" / f"{stem}.csv", encoding="utf-8") as fh:
            oracle = {(r["name"], r["firstName"]): r for r in csv.DictReader(fh) if r["round"] == "1"}
        root = etree.parse(str(source), etree.XMLParser(resolve_entities=False, load_dtd=False)).getroot()
        ratings = [int(p.get("rating")) for p in root.iter("Player")]
        assert [p.rating for p in players] == ratings
        for player in players:
            row = oracle[(player.surname, player.first_name)]
            assert Rank.parse(player.rank).value == int(row["rankInt"])
            assert player.status == ("preliminary" if row["registeringStatus"] == "PRE" else "final")
            assert player_key(player.surname, player.first_name) == row["key"]


def test_unknown_game_attributes_are_kept_and_written_back(tmp_path: Path) -> None:
    """A ``<Game>`` attribute OpenGotha 3.51 does not write (a later version's) is reported,
    kept verbatim in the ledger, and written back on export; the MacMahon export, which has no
    place for it, says so."""
    from goledger.formats.macmahon import export_macmahon

    from ..gen_files import opengotha_xml

    source = opengotha_xml(6, 2, seed=3)
    marked = source.replace(b"<Game ", b'<Game timeSpent="01:23" ', 1)
    path = tmp_path / "later.xml"
    path.write_bytes(marked)
    outcome = import_opengotha(path, tmp_path / "later.db")
    notes = [e.message for e in outcome.report.warnings]
    assert "unknown game attribute timeSpent='01:23' kept verbatim, not interpreted" in notes
    exported = export_opengotha(tmp_path / "later.db", tmp_path / "again.xml")
    games = etree.fromstring(exported.data).iter("Game")
    assert [g.get("timeSpent") for g in games].count("01:23") == 1
    again = import_opengotha(tmp_path / "again.xml", tmp_path / "again.db")
    with Ledger.open(tmp_path / "later.db") as first, Ledger.open(again.db) as second:
        assert first.events()[2:] == second.events()[2:]
    to_macmahon = export_macmahon(tmp_path / "later.db")
    assert any("opengotha.Game.timeSpent" in e.message for e in to_macmahon.report.warnings)
