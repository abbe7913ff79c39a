"""The desk's settings form (issue 43, item 2) over HTTP on a running ``goledger serve``: the
rules in force in typed inputs, a change previewed (who changes place, which round's pairing
is affected) before anything is written, "Record" appending exactly what ``goledger
change-rules`` appends for the same words, and a value outside its domain refused in one
sentence in the page with nothing written."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from goledger import commands
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.replay.loading.load import load_state
from goledger.replay.scoring.standings import standings
from tests.desk_server import TOKEN, DeskServer
from tests.web.test_web_pair_round import Director, head, play

RANKS = ["4d", "2d", "1k", "3k", "6k", "9k"]


def mcmahon_played(db: Path, surname: str = "Rules") -> Path:
    """A McMahon of six (bar 3d, floor 20k, players ``Player0 SURNAME``…) whose round 1 is
    paired and played (white wins)."""
    commands.new(db, f"{surname} Cup", 4, "mcmahon", "3d", "20k", None, None, "7.5")
    for k, rank in enumerate(RANKS):
        commands.register(db, f"Player{k}", surname, rank)
    commands.pair_round(db, 1)
    play(db, 1)
    return db


@pytest.fixture
def played(tmp_path: Path) -> Path:
    return mcmahon_played(tmp_path / "rules.db")


def form_fields(page: str) -> dict[str, str]:
    """The settings form's fields as a browser sends them: each select's chosen option, each
    input's value, each ticked check box."""
    found = re.search(r'<form method="get" action="/desk/settings" id="settings-form">(.*?)</form>', page, re.S)
    assert found, "the settings page has its form"
    fields: dict[str, str] = {}
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', found.group(1), re.S):
        chosen = re.search(r'<option value="([^"]*)" selected', body) or re.search(r'<option value="([^"]*)"', body)
        assert chosen
        fields[name] = html.unescape(chosen.group(1))
    for tag in re.findall(r"<input [^>]*>", found.group(1)):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        assert name
        if 'type="checkbox"' not in tag:
            fields[name.group(1)] = html.unescape(value.group(1)) if value else ""
        elif " checked" in tag and value:
            fields[name.group(1)] = value.group(1)
    return fields


def record_form(page: str) -> dict[str, str]:
    found = re.search(r'<form method="post" action="/desk/do/change-rules" class="inline" id="record-form">(.*?)'
                      r"</form>", page, re.S)
    assert found, "the preview offers Record"
    return {k: html.unescape(v) for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"',
                                                       found.group(1))}


def places(db: Path) -> dict[str, int]:
    state = load_state(Ledger.open(db))
    return {row.player_id: row.place for row in standings(state, 1).rows}


def rules_events(db: Path) -> list[ev.RulesChanged]:
    with Ledger.open(db) as ledger:
        return [r.event for r in ledger.records() if isinstance(r.event, ev.RulesChanged)]


def cli_change_rules(db: Path, words: list[str]) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, "-m", "goledger", "change-rules", *words, "--db", str(db)],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_form_shows_the_rules_in_force_and_previews_before_recording(played: Path, tmp_path: Path) -> None:
    copy = tmp_path / "cli.db"
    shutil.copy(played, copy)
    with DeskServer(played) as desk:
        director = Director(desk)
        page = director.client.get("/desk/settings").text
        fields = form_fields(page)
        assert [fields[f"criterion{i}"] for i in (1, 2, 3, 4)] == ["MMS", "SOSM", "SOSOSM", ""]
        assert "SOSM: sum of the opponents&#39; McMahon scores" in page
        assert (fields["mm_bar"], fields["mm_floor"], fields["withdrawn"]) == ("3d", "20k", "absent")
        assert (fields["hd_threshold"], fields["hd_ceiling"], fields["paiMaSeedSystem2"]) == ("1d", "9", "SPLITANDSLIP")
        assert 'id="advanced"' in page and 'name="settings"' in page  # the raw box, under Advanced
        # the form sent back as it is: nothing changes, nothing is offered to record
        same = director.client.get("/desk/settings", params=fields).text
        assert "nothing changes: every value is the one in force" in same and 'id="record-form"' not in same
        # a lower bar, withdrawn players at zero: previewed, nothing written yet
        before_head, before = head(played), places(played)
        shown = director.client.get("/desk/settings", params={**fields, "mm_bar": "5k", "withdrawn": "zero"})
        assert shown.status_code == 200 and head(played) == before_head
        moves = re.findall(r"<tr><td>(Player\d) Rules</td><td class=\"num\">(\d+)</td><td class=\"num\">(\d+)</td>",
                           shown.text)
        assert moves, "a lower bar moves players"
        assert f"{len(moves)} players change place in the standings after round 1" in shown.text
        assert "The pairing of round 2, not paired yet, is affected" in shown.text
        words = record_form(shown.text)["settings"].splitlines()
        assert words == ["mm_bar=5k", "withdrawn=zero"]
        # Record: the change the CLI appends for the same words, and the moves the preview showed
        done = director.client.post("/desk/do/change-rules", data=record_form(shown.text))
        assert done.status_code == 303 and head(played) == before_head + 1
        cli_change_rules(copy, words)
        assert [e.changes for e in rules_events(played)] == [e.changes for e in rules_events(copy)]
        after = places(played)
        by_id = {p.surname: p.id for p in load_state(Ledger.open(played)).players.values()}
        moved = [(name, before[pid], after[pid]) for name, pid in by_id.items() if before[pid] != after[pid]]
        assert sorted((name, int(b), int(a)) for name, b, a in moves) == sorted(moved)
        assert form_fields(director.client.get("/desk/settings").text)["mm_bar"] == "5k"


def test_a_pairing_parameter_is_previewed_recorded_and_used_by_the_next_pairing(played: Path) -> None:
    with DeskServer(played) as desk:
        director = Director(desk)
        fields = form_fields(director.client.get("/desk/settings").text)
        shown = director.client.get("/desk/settings", params={**fields, "paiMaSeedSystem2": "SPLITANDFOLD",
                                                              "hd_ceiling": "0"}).text
        assert "<code>paiMaSeedSystem2</code></td><td>SPLITANDSLIP</td><td>SPLITANDFOLD</td>" in shown
        assert "<code>hdCeiling</code></td><td>9</td><td>0</td>" in shown
        assert "The pairing of round 2, not paired yet, is affected" in shown
        assert "Nobody changes place in the standings after round 1." in shown
        assert director.client.post("/desk/do/change-rules", data=record_form(shown)).status_code == 303
        status, body = desk.post("/api/pair-round", json.dumps({"round": 2}).encode(),
                                 {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
        assert status == 200, body
        with Ledger.open(played) as ledger:
            paired = [r.event for r in ledger.records() if isinstance(r.event, ev.RoundPaired)][-1]
        assert paired.round == 2
        assert paired.parameters["paiMaSeedSystem2"] == "SPLITANDFOLD" and paired.parameters["hdCeiling"] == "0"
        # every other parameter in force stayed as it was (OpenGotha's McMahon defaults)
        assert paired.parameters["paiMaSeedSystem1"] == "SPLITANDRANDOM"
        assert all(g.handicap == 0 for g in load_state(Ledger.open(played)).games_of_round(2))


@pytest.mark.parametrize(("field", "value", "sentence"), [
    ("mm_bar", "12d", "mm_bar '12d' is not one of the values offered"),
    ("nbw2_bye", "3", "nbw2_bye '3' is not a whole number in 0..2"),
    ("criterion2", "MMS", "the criterion MMS is chosen twice"),
    ("criterion1", "NOPE", "unknown criterion"),
    ("paiBaBalanceWB", "-5", "paiBaBalanceWB '-5' is not a whole number"),
    ("mm_floor", "4d", "the McMahon floor 4d is above the bar 3d"),
])
def test_a_value_outside_its_domain_is_one_sentence_and_nothing_is_written(
        played: Path, field: str, value: str, sentence: str) -> None:
    with DeskServer(played) as desk:
        director = Director(desk)
        fields = form_fields(director.client.get("/desk/settings").text)
        before = head(played)
        shown = director.client.get("/desk/settings", params={**fields, field: value})
        assert shown.status_code == 200 and head(played) == before
        problem = re.search(r'<p class="msg refused" id="settings-problem">(.*?)</p>', shown.text)
        assert problem and sentence in html.unescape(problem.group(1)), problem
        assert 'id="record-form"' not in shown.text


def test_nobody_but_the_director_sees_the_form(played: Path) -> None:
    with DeskServer(played) as desk:
        anonymous = httpx.get(f"{desk.url}/desk/settings?preview=1&mm_bar=5k", timeout=30)
        assert anonymous.status_code == 401 and 'id="settings-form"' not in anonymous.text


def test_the_form_speaks_the_page_language(played: Path) -> None:
    """Each criterion's meaning, the labels and a refusal of the form in the page's language."""
    with DeskServer(played) as desk:
        director = Director(desk)
        page = director.client.get("/desk/settings?lang=tr").text
        assert "SOSM: rakiplerin McMahon puanlarının toplamı" in page and "Değişikliği önizle" in page
        fields = form_fields(page)
        twice = director.client.get("/desk/settings", params={**fields, "criterion2": "MMS", "lang": "tr"}).text
        assert "MMS ölçütü iki kez seçilmiş" in twice
        german = director.client.get("/desk/settings?lang=de").text
        assert "SOSM: Summe der McMahon-Punkte der Gegner" in german


def test_the_preview_as_json(played: Path) -> None:
    with DeskServer(played) as desk:
        director = Director(desk)
        fields = form_fields(director.client.get("/desk/settings").text)
        data = director.client.get("/desk/settings", params={**fields, "mm_bar": "5k", "format": "json"}).json()
        assert data["settings"] == ["mm_bar=5k"] and data["preview"]["changes"] == {"mm_bar": "5k"}
        assert data["preview"]["pairing_round"] == 2 and data["rules"]["mm_bar"] == "3d"
        moved = {m["player_id"]: (m["before"], m["after"]) for m in data["preview"]["moves"]}
        page = director.client.get("/desk/settings", params={**fields, "mm_bar": "5k"}).text
        assert f"{len(moved)} players change place" in page
        bad = director.client.get("/desk/settings", params={**fields, "nbw2_bye": "7", "format": "json"})
        assert bad.status_code == 400 and bad.json() == {"error": "nbw2_bye '7' is not a whole number in 0..2"}


def test_a_one_round_swiss_takes_a_change(tmp_path: Path) -> None:
    """OpenGotha's default last round of the first seeding system (2) is beyond a one-round
    tournament's rounds: the form shows it and still takes a change."""
    db = tmp_path / "one.db"
    commands.new(db, "One Round", 1, "swiss")
    for k, rank in enumerate(RANKS[:2]):
        commands.register(db, f"Player{k}", "One", rank)
    with DeskServer(db) as desk:
        director = Director(desk)
        fields = form_fields(director.client.get("/desk/settings").text)
        assert fields["paiMaLastRoundForSeedSystem1"] == "2"
        data = director.client.get("/desk/settings", params={**fields, "withdrawn": "zero", "format": "json"})
        assert data.status_code == 200 and data.json()["settings"] == ["withdrawn=zero"]
        # before any game: the starting order is what moves (all tied on NBW; by rank, the 2d is second)
        shown = director.client.get("/desk/settings", params={**fields, "criterion1": "Rank", "criterion2": "",
                                                              "criterion3": ""}).text
        assert "1 player changes place in the starting order:" in shown
        assert re.search(r'<td>Player1 One</td><td class="num">1</td><td class="num">2</td>', shown)
