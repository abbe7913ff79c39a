"""A player's key through a running ``goledger serve`` (issue 46): his page, his check-in and
his absence, recorded for him alone with the actor ``player <id>``; every wrong key answered
alike; the director's key desk and the round page's "mark the others absent"."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest

from goledger import commands
from goledger.keys import ensure_keys, issue_key, player_for_key

from ..desk_server import DeskServer
from .test_web_attacks import csrf_of, logged_in


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "keys.db"
    commands.new(path, "Key Open", 3)
    for surname in ("Abe", "Ban", "Cal", "Dan", "Eko"):
        commands.register(path, surname, "Jo", "3k")
    commands.change_rules(path, {"check_in": "every"})
    return path


def _log(db: Path) -> list[tuple[str, dict[str, object], str]]:
    return [(r.type, {k: v for k, v in json.loads(r.payload).items() if k != "type"}, r.actor)
            for r in commands.log(db)]


def _main(html: str) -> str:
    found = re.search(r"<main>.*</main>", html, re.S)
    assert found, html[:300]
    return found.group(0)


def _answer(client: httpx.Client, key: str, answer: str, round_: int = 1, **extra: str) -> httpx.Response:
    page = client.get(f"/k/{key}")
    return client.post(f"/k/{key}/check-in", data={"csrf": csrf_of(page.text), "round": str(round_),
                                                   "answer": answer, **extra})


def test_a_player_checks_in_and_announces_his_absence_with_his_own_key(db: Path) -> None:
    keys = ensure_keys(db)
    with DeskServer(db) as desk, httpx.Client(base_url=desk.url, timeout=30) as phone:
        page = phone.get(f"/k/{keys['p0001']}", headers={"Accept-Language": "tr-TR,tr;q=0.9"})
        assert page.status_code == 200
        assert page.headers["cache-control"] == "no-store"
        assert "1. turda oynayacağım" in page.text and 'data-standing="waiting"' in page.text
        done = _answer(phone, keys["p0001"], "play", player="p0003")  # a field naming another player: ignored
        assert done.status_code == 200, done.text
        assert 'data-standing="checked in"' in done.text
        assert _log(db)[-1] == ("CheckedIn", {"player_id": "p0001", "round": 1}, "player p0001")

        with httpx.Client(base_url=desk.url, timeout=30) as other:
            away = _answer(other, keys["p0002"], "absent")
            assert away.status_code == 200 and 'data-standing="absent"' in away.text
        assert _log(db)[-1] == ("ParticipationChanged", {"player_id": "p0002", "round": 1, "participating": False,
                                                         "points2": None}, "player p0002")
        twice = _answer(phone, keys["p0001"], "play")
        assert twice.status_code == 400 and "already checked in" in twice.text
        assert sum(1 for t, _, _ in _log(db) if t == "CheckedIn") == 1
        assert {p["player_id"] for t, p, _ in _log(db) if t in ("CheckedIn", "ParticipationChanged")} == {
            "p0001", "p0002"}, "the key acted for its own player only"

        director, csrf = logged_in(desk.url)
        round_page = director.get("/desk/round/1").text
        assert 'id="check-in-warning"' in round_page and "Mark the others absent (3)" in round_page
        marked = director.post("/desk/do/absent-unchecked", data={"csrf": csrf, "round": "1", "back": "/desk/round/1",
                                                                  "expected_head": str(len(_log(db)))})
        assert marked.status_code == 200, marked.text
        absences = [(p["player_id"], a) for t, p, a in _log(db)[-3:] if t == "ParticipationChanged"]
        assert [pid for pid, _ in absences] == ["p0003", "p0004", "p0005"]
        assert all(actor.startswith("desk") for _, actor in absences)
        assert 'id="check-in-warning"' not in director.get("/desk/round/1").text
        late = director.post("/desk/do/check-in", data={"csrf": csrf, "round": "1", "player": "Cal",
                                                        "back": "/desk/round/1", "expected_head": str(len(_log(db)))})
        assert late.status_code == 200, late.text
        assert [(t, p["player_id"]) for t, p, _ in _log(db)[-2:]] == [("ParticipationChanged", "p0003"),
                                                                     ("CheckedIn", "p0003")]
        assert _log(db)[-1][2].startswith("desk"), "the desk checked him in: the log says so"


def test_every_wrong_key_gets_the_same_answer_and_writes_nothing(db: Path) -> None:
    keys = ensure_keys(db)
    revoked = keys["p0001"]
    issue_key(db, "p0001")
    commands.unregister(db, "p0005", "entered twice")
    wrong = [revoked, "B" * 24, "short", "A" * 24, "x" * 2000, "%2e%2e", keys["p0005"]]
    before = _log(db)
    with DeskServer(db) as desk, httpx.Client(base_url=desk.url, timeout=30) as phone:
        answers = {(r.status_code, _main(r.text)) for r in (phone.get(f"/k/{k}") for k in wrong)}
        assert len(answers) == 1
        status, body = answers.pop()
        assert status == 404 and 'id="unknown-key"' in body
        csrf = csrf_of(phone.get(f"/k/{keys['p0002']}").text)
        posted = {(r.status_code, _main(r.text)) for r in (
            phone.post(f"/k/{k}/check-in", data={"csrf": csrf, "round": "1", "answer": "play"}) for k in wrong)}
        assert posted == {(404, body)}
        no_csrf = phone.post(f"/k/{keys['p0002']}/check-in", data={"round": "1", "answer": "play"})
        assert no_csrf.status_code == 403
        bad = phone.post(f"/k/{keys['p0002']}/check-in", data={"csrf": csrf, "round": "1e9", "answer": "play"})
        assert bad.status_code == 400
        foreign = phone.post(f"/k/{keys['p0002']}/check-in", headers={"Origin": "http://evil.example"},
                             data={"csrf": csrf, "round": "1", "answer": "play"})
        assert foreign.status_code == 403
        large = phone.post(f"/k/{keys['p0002']}/check-in", data={"csrf": csrf, "round": "1", "answer": "play",
                                                                 "pad": "x" * 20_000})
        assert large.status_code == 413, "a key page's body is bounded like a login's (16 KB)"
    assert _log(db) == before


def test_the_key_desk_is_the_directors_alone(db: Path) -> None:
    with DeskServer(db) as desk, httpx.Client(base_url=desk.url, timeout=30) as anyone:
        for path in ("/desk/keys", "/desk/keys/welcome", "/desk/keys/slips/1"):
            assert anyone.get(path).status_code == 401, path
        csrf = csrf_of(anyone.get("/login").text)
        refused = anyone.post("/desk/keys/do", data={"csrf": csrf, "what": "reissue", "player": "p0001"})
        assert refused.status_code == 401
    assert player_for_key(db, "A" * 24) is None and not (db.parent / "keys.db.keys").exists()


def test_the_director_prints_reissues_and_revokes_at_the_desk(db: Path) -> None:
    commands.pair(db, 1, "p0001", "p0002", 1, 0)
    with DeskServer(db) as desk:
        director, csrf = logged_in(desk.url)
        sheet = director.get("/desk/keys/welcome", params={"url": "https://go.example.org", "layout": "a6"})
        assert sheet.status_code == 200 and sheet.text.count("<svg") == 5 and "size: A6" in sheet.text
        links = re.findall(r"https://go\.example\.org/k/([A-Za-z0-9_-]{24})", sheet.text)
        assert len(set(links)) == 5
        slips = director.get("/desk/keys/slips/1", params={"url": "https://go.example.org"})
        assert slips.text.count("<svg") == 2
        old = ensure_keys(db)["p0001"]
        assert old in slips.text
        page = director.get("/desk/keys").text
        assert 'id="key-p0001"' in page and old not in page, "the key desk lists, it does not show secrets"
        director.post("/desk/keys/do", data={"csrf": csrf, "what": "reissue", "player": "p0001"})
        new = ensure_keys(db)["p0001"]
        assert new != old and director.get(f"/k/{old}").status_code == 404
        assert director.get(f"/k/{new}").status_code == 200
        lost = director.get("/desk/keys/welcome", params={"player": "p0001", "url": "https://go.example.org"}).text
        assert lost.count("<svg") == 1 and f"https://go.example.org/k/{new}" in lost
        director.post("/desk/keys/do", data={"csrf": csrf, "what": "revoke", "player": "p0001"})
        assert director.get(f"/k/{new}").status_code == 404
        player_page = director.get(f"/k/{ensure_keys(db)['p0002']}").text
        assert 'id="current-game"' in player_page and "Abe Jo" in player_page
