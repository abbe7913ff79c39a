"""Players report their results through a running ``goledger serve`` (issue 46, items 3–5):
the report page and its post for the key's player alone, the desk's reconciliation page and
its one-click approval, the actors in the log, and the abuse rules (another game, another
round, a closed round, wrong keys answered byte for byte like unknown ones, the rate limits)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest

from goledger import commands
from goledger.keys import ensure_keys, revoke_key

from ..desk_server import DeskServer
from .test_web_attacks import csrf_of, logged_in


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Four players, round 1 paired by hand: table 1 Abe (W) – Ban, table 2 Cal (W) – Dan."""
    path = tmp_path / "reports.db"
    commands.new(path, "Report Open", 3)
    for surname in ("Abe", "Ban", "Cal", "Dan"):
        commands.register(path, surname, "Jo", "3k")
    commands.pair(path, 1, "p0001", "p0002", table=1)
    commands.pair(path, 1, "p0003", "p0004", table=2)
    return path


def _log(db: Path) -> list[tuple[str, dict[str, object], str]]:
    return [(r.type, {k: v for k, v in json.loads(r.payload).items() if k != "type"}, r.actor)
            for r in commands.log(db)]


def _main(html: str) -> str:
    found = re.search(r"<main>.*</main>", html, re.S)
    assert found, html[:300]
    return found.group(0)


def report(client: httpx.Client, key: str, outcome: str, **fields: str) -> httpx.Response:
    """Open the key's report page, then post ``outcome`` from it (its hidden fields, unless given)."""
    page = client.get(f"/k/{key}/result")
    form = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page.text))
    return client.post(f"/k/{key}/result", data={**form, "outcome": outcome, **fields})


def test_two_agreeing_reports_wait_for_the_desks_one_click(db: Path) -> None:
    keys = ensure_keys(db)
    with DeskServer(db) as desk, httpx.Client(base_url=desk.url, timeout=30) as abe, \
            httpx.Client(base_url=desk.url, timeout=30) as ban:
        page = abe.get(f"/k/{keys['p0001']}/result")
        assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
        assert "Ban Jo" in page.text and 'id="won"' in page.text
        done = report(abe, keys["p0001"], "won", margin="R")
        assert done.status_code == 200, done.text
        assert 'data-claim="won"' in done.text
        assert _log(db)[-1] == ("ResultClaimed", {"round": 1, "table": 1, "player_id": "p0001", "opponent": "p0002",
                                                  "outcome": "won", "margin": "R"}, "player p0001")
        assert report(ban, keys["p0002"], "lost").status_code == 200
        report(abe, keys["p0003"], "won")  # table 2: Cal says he won, Dan says so too: a disagreement
        report(ban, keys["p0004"], "won")
        assert not [t for t, _, _ in _log(db) if t == "ResultRecorded"], "approve (the default) waits for the desk"

        director, _ = logged_in(desk.url)
        assert httpx.get(f"{desk.url}/desk/reports/1").status_code == 401
        view = director.get("/desk/reports/1").text
        assert 'id="report-1" data-status="agree"' in view and 'id="report-2" data-status="disagree"' in view
        assert "Approve all agreeing (1)" in view
        form = re.search(r'<form method="post" action="/desk/do/approve-reports" id="approve-all">(.*?)</form>',
                         view, re.S)
        assert form
        fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(1)))
        approved = director.post("/desk/do/approve-reports", data=fields)
        assert approved.status_code == 200, approved.text
        assert _log(db)[-1] == ("ResultRecorded", {"round": 1, "table": 1, "result": "white", "by_default": False,
                                                   "margin": "R"}, "players p0001 p0002 (approved by desk web)")
        view = director.get("/desk/reports/1").text
        assert 'id="report-1" data-status="recorded"' in view and 'id="report-2" data-status="disagree"' in view
        assert 'id="recorded"' in ban.get(f"/k/{keys['p0002']}/result").text
        again = ban.post(f"/k/{keys['p0002']}/result", data={
            "csrf": csrf_of(ban.get(f"/k/{keys['p0002']}").text), "round": "1", "opponent": "p0001",
            "outcome": "won", "expected_head": str(len(_log(db)))})
        assert again.status_code == 400 and "only the desk can correct" in again.text


def test_under_record_the_second_report_records_the_result_with_both_players(db: Path) -> None:
    commands.change_rules(db, {"player_reports": "record"})
    keys = ensure_keys(db)
    with DeskServer(db) as desk, httpx.Client(base_url=desk.url, timeout=30) as phone:
        assert report(phone, keys["p0004"], "jigo").status_code == 200
        done = report(phone, keys["p0003"], "jigo")
        assert done.status_code == 200 and 'id="recorded"' in done.text
    assert [(t, a) for t, _, a in _log(db)[-3:]] == [("ResultClaimed", "player p0004"),
                                                     ("ResultClaimed", "player p0003"),
                                                     ("ResultRecorded", "players p0003 p0004")]


def test_a_key_reports_its_own_game_only_and_only_while_the_round_is_open(db: Path) -> None:
    keys = ensure_keys(db)
    with DeskServer(db) as desk, httpx.Client(base_url=desk.url, timeout=30) as phone:
        other_game = report(phone, keys["p0001"], "won", opponent="p0004")
        assert other_game.status_code == 400 and "paired again" in other_game.text
        other_round = report(phone, keys["p0001"], "won", round="2")
        assert other_round.status_code == 400 and "no game to report in round 2" in other_round.text
        assert report(phone, keys["p0001"], "won", player_id="p0003").status_code == 200
        assert [p["player_id"] for t, p, _ in _log(db) if t == "ResultClaimed"] == ["p0001"]
        commands.pair(db, 2, "p0001", "p0003", table=1)  # round 2 paired: round 1 closes
        late = phone.post(f"/k/{keys['p0002']}/result", data={
            "csrf": csrf_of(phone.get(f"/k/{keys['p0002']}").text), "round": "1", "opponent": "p0001",
            "outcome": "lost", "expected_head": str(len(_log(db)))})
        assert late.status_code == 400 and "round 1 is closed (round 2 is paired)" in late.text
    assert [p["player_id"] for t, p, _ in _log(db) if t == "ResultClaimed"] == ["p0001"]


def test_wrong_revoked_and_unknown_keys_get_the_same_bytes(db: Path) -> None:
    keys = ensure_keys(db)
    revoke_key(db, "p0002")
    with DeskServer(db) as desk, httpx.Client(base_url=desk.url, timeout=30) as phone:
        phone.get("/")  # one session cookie for every request below
        answers = []
        for key in ("A" * 24, keys["p0002"], "x", keys["p0001"][:-1] + ("B" if keys["p0001"][-1] != "B" else "C")):
            got = phone.get(f"/k/{key}/result")
            posted = phone.post(f"/k/{key}/result", data={"csrf": "x", "outcome": "won", "round": "1"})
            answers += [(got.status_code, _main(got.text)), (posted.status_code, _main(posted.text))]
        assert len(set(answers)) == 1 and answers[0][0] == 404
        assert (404, _main(phone.get("/k/" + "A" * 24).text)) == answers[0], "the key page's own answer"


def test_reports_are_rate_limited_per_key(db: Path) -> None:
    keys = ensure_keys(db)
    with DeskServer(db) as desk, httpx.Client(base_url=desk.url, timeout=30) as phone:
        statuses = [report(phone, keys["p0001"], outcome).status_code
                    for outcome in ("won", "lost", "won", "lost", "won", "lost", "won")]
        assert statuses == [200] * 6 + [429]
        other = report(phone, keys["p0002"], "lost")
        assert other.status_code == 200, "another key from the same address is not held back"
        assert "Retry-After" in report(phone, keys["p0001"], "lost").headers
