"""The desk's New tournament form (issue 43 item 1, ``web/new_tournament.py``): every system
named in words with the fields it asks for, rounds computed where the system computes them,
the EGD class of the thinking time, and what the form posts recorded as ``goledger new`` would."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from goledger.replay.views import state_as_of
from goledger.systems.registry import SYSTEMS

from .test_web import Desk

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
warnings.filterwarnings("ignore", category=DeprecationWarning)

TIME = {"time": "canadian", "main_time": "60", "byo_yomi": "300", "stones": "15", "fischer": "10"}


def test_every_system_is_offered_by_name_with_its_fields(tmp_path: Path) -> None:
    desk = Desk(tmp_path / "t.db")
    page = desk.page("/desk/new").text
    for name in SYSTEMS:
        assert f'<option value="{name}"' in page
    assert ">Double knockout<" in page and ">Cup (OpenGotha)<" in page
    knockout = desk.page("/desk/new?system=knockout").text
    assert 'id="rounds-rule"' in knockout and "⌈log₂ N⌉" in knockout and 'name="rounds"' not in knockout
    assert 'name="third_place"' in knockout and 'name="jigo"' in knockout
    teams = desk.page("/desk/new?system=team-swiss").text
    assert 'name="boards"' in teams and 'name="rounds"' in teams and 'name="third_place"' not in teams
    robin = desk.page("/desk/new?system=round-robin").text
    assert "N − 1 rounds" in robin
    french = desk.client.get("/desk/new?system=paramus&lang=fr").text
    assert 'name="jigo"' in french and 'value="replay"' not in french  # a Paramus game is never replayed
    assert desk.client.get("/desk/new?system=nonsense").status_code == 400


def test_the_egd_class_follows_the_time_fields(tmp_path: Path) -> None:
    desk = Desk(tmp_path / "t.db")
    assert "EGD class A (adjusted time 80 min)" in desk.page("/desk/new").text
    line = desk.page("/desk/new/class?time=byo-yomi&main_time=40&byo_yomi=30").text
    assert line == "EGD class B (adjusted time 62 min)"
    assert "no EGD class" in desk.page("/desk/new/class?time=sudden-death&main_time=20").text
    assert "main time" in desk.page("/desk/new/class?time=fischer&main_time=x").text


def test_a_knockout_made_in_the_form_is_what_goledger_new_makes(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    desk = Desk(db)
    fields = {"csrf": desk.csrf, "system": "knockout", "name": "Coupe", "third_place": "yes", "jigo": "white",
              "method": "fold", "seeding": "rank", "komi": "6.5", "country": "fr", "location": "Paris",
              "begin_date": "2026-12-05", "end_date": "2026-12-06", "handicap_ceiling": "0", **TIME}
    bad = desk.client.post("/desk/new", data={**fields, "country": "France"}, follow_redirects=False)
    assert bad.status_code == 400 and "two-letter country code" in bad.text and not db.exists()
    r = desk.client.post("/desk/new", data=fields, follow_redirects=False)
    assert r.status_code == 303, r.text
    settings = state_as_of(db).settings
    assert settings is not None and settings.system == "knockout"
    assert settings.system_options == {"jigo": "white", "third_place": True, "rounds_at_draw": True}
    assert (settings.komi, settings.location, settings.begin_date, settings.extras) == (
        "6.5", "Paris", "2026-12-05", {"egd.country": "FR"})
    assert settings.time is not None and (settings.time.system, settings.time.canadian_seconds) == ("canadian", 300)
    assert settings.handicap.ceiling == 0


def test_a_team_swiss_asks_for_boards_and_rounds(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    desk = Desk(db)
    fields = {"csrf": desk.csrf, "system": "team-swiss", "name": "Teams", "rounds": "3", "boards": "3",
              "komi": "7.5", "time": ""}
    r = desk.client.post("/desk/new", data=fields, follow_redirects=False)
    assert r.status_code == 303, r.text
    settings = state_as_of(db).settings
    assert settings is not None and settings.rounds == 3 and settings.system_options == {"boards": 3}
    assert settings.time is None


def test_the_handicap_systems_ask_for_their_own_rules(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    desk = Desk(db)
    page = desk.page("/desk/new?system=continuous-handicap").text
    assert 'name="ranking"' in page and 'name="max_games_per_pair"' in page and 'name="max_handicap"' not in page
    assert 'name="max_handicap"' in desk.page("/desk/new?system=handicap").text
    fields = {"csrf": desk.csrf, "system": "handicap", "name": "Hcp", "rounds": "4", "komi": "0.5", "time": "",
              "max_rank_difference": "5", "handicap_correction_stones": "1", "max_handicap": "6",
              "handicap_komi": "0.5"}
    assert desk.client.post("/desk/new", data=fields, follow_redirects=False).status_code == 303
    settings = state_as_of(db).settings
    assert settings is not None and settings.system_options == {
        "max_rank_difference": 5, "handicap_correction": 1, "max_handicap": 6}


@pytest.mark.parametrize(("language", "venue", "standing"), [("tr", "Yer", "Sıra"), ("hu", "Helyszín", "Helyezés")])
def test_the_venue_is_not_called_a_standing_place(tmp_path: Path, language: str, venue: str, standing: str) -> None:
    """"Place" is two words in Turkish and Hungarian: where the tournament is played (the New
    form's field), and a player's place in the standings."""
    import re

    page = Desk(tmp_path / "t.db").client.get(f"/desk/new?lang={language}").text
    label = re.search(r"<label>([^<]*)<input name=\"location\"", page)
    assert label is not None and label[1].strip() == venue and standing not in label[1], page[:300]
