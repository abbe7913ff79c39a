"""The desk (``goledger serve``, issue 17) in process, through Starlette's test client:
every page and API call, the refusals (no token 401, bad CSRF 403, stale head 409, invalid
input 400, oversized upload 413), and that the API returns what the CLI's ``--json`` prints."""

from __future__ import annotations

import json
import re
import shutil
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jinja2")
pytest.importorskip("multipart")

with warnings.catch_warnings():  # Starlette 1.x suggests httpx2; httpx is what the test client uses here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from goledger import commands
from goledger.ledger.store import Ledger
from goledger.web import create_app

from ..conftest import REPO, run_cli

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TOKEN = "director-token-for-tests"
SAMPLE = REPO / "samples" / "sample.db"


def head(db: Path) -> int:
    with Ledger.open(db) as ledger:
        return ledger.head().seq


def csrf_of(text: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', text)
    assert found, "the page has no CSRF field"
    return found.group(1)


def head_of(text: str) -> int:
    found = re.search(r'name="expected_head" value="(\d+)"', text)
    assert found, "the page's forms carry no head"
    return int(found.group(1))


class Desk:
    """A logged-in browser on a desk: ``post(action, **fields)`` submits a form with the
    page's CSRF token and (unless given) the head the page was rendered at."""

    def __init__(self, db: Path, **options: Any) -> None:
        self.db = db
        self.client = TestClient(create_app(db, TOKEN, poll=0.05, **options))
        page = self.client.get("/login")
        self.csrf = csrf_of(page.text)
        r = self.client.post("/login", data={"csrf": self.csrf, "token": TOKEN, "next": "/desk", "desk": "t"},
                             follow_redirects=False)
        assert r.status_code == 303, r.text
        self.csrf = csrf_of(self.client.get("/login").text)  # the login issued a new session

    def page(self, url: str) -> Any:
        r = self.client.get(url)
        assert r.status_code == 200, (url, r.status_code, r.text[:500])
        return r

    def post(self, action: str, *, expected_head: int | None = None, headers: dict[str, str] | None = None,
             **fields: str) -> Any:
        data = {"csrf": self.csrf, "expected_head": str(head(self.db) if expected_head is None else expected_head),
                "back": "/desk", **fields}
        return self.client.post(f"/desk/do/{action}", data=data, follow_redirects=False, headers=headers or {})


@pytest.fixture
def fresh(tmp_path: Path) -> Path:
    """A new 3-round McMahon with four players."""
    db = tmp_path / "t.db"
    commands.new(db, "Desk Cup", 3, "mcmahon", "3d", "20k", None, None, "7.5")
    for surname, first, rank in (("Sato", "Ken", "2d"), ("Ito", "Mai", "1k"), ("Abe", "Jo", "4k"),
                                 ("Mori", "Aya", "5k")):
        commands.register(db, surname, first, rank)
    return db


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    db = tmp_path / "sample.db"
    shutil.copy(SAMPLE, db)
    return db


def test_public_pages_need_no_token_and_director_pages_do(sample: Path) -> None:
    client = TestClient(create_app(sample, TOKEN))
    for url in ("/", "/?round=2", "/standings", "/standings?round=3", "/player/p0001", "/print/pairings/1",
                "/print/slips/1", "/print/players", "/print/wall?round=3", "/api/head", "/api/standings",
                "/api/pairings?round=1", "/static/htmx.min.js", "/static/htmx.LICENSE"):
        assert client.get(url).status_code == 200, url
    page = client.get("/")
    assert "data-live" in page.text and "/static/htmx.min.js" in page.text and "cdn" not in page.text.lower()
    for url in ("/desk", "/desk/players", "/desk/round/1", "/desk/round/1/results", "/desk/standings",
                "/desk/explain?player=p0001", "/desk/audit", "/desk/settings", "/desk/files", "/desk/export/trf",
                "/desk/report", "/desk/verify", "/desk/log"):
        r = client.get(url)
        assert r.status_code == 401, url
        assert 'name="token"' in r.text
    r = client.post("/login", data={"csrf": csrf_of(client.get("/login").text), "token": "wrong-token"})
    assert r.status_code == 401 and "not the director token" in r.text
    assert client.get("/desk").status_code == 401


def test_every_director_page_renders_and_no_get_writes(sample: Path) -> None:
    desk = Desk(sample)
    before = head(sample)
    pages = ("/desk", "/desk/players", "/desk/players?q=sato&round=2", "/desk/round/1", "/desk/round/5",
             "/desk/round/2/results", "/desk/standings", "/desk/standings?round=2&as_of=30&criteria=MMS,SOSM",
             "/desk/explain?player=p0001&round=3", "/desk/audit", "/desk/audit?view=diff&from=10",
             "/desk/audit?view=what-if&without=12,14-15", "/desk/audit?view=history&player=p0001",
             "/desk/settings", "/desk/files", "/desk/verify", "/desk/log?after=5", "/print/wall")
    for url in pages:
        desk.page(url)
    assert "ok: " in desk.page("/desk/verify").text
    report = desk.page("/desk/report")
    assert report.headers["content-type"].startswith("text/html") and "<html" in report.text.lower()
    assert head(sample) == before, "a GET wrote to the ledger"
    # refusals of reads: the library's sentence, 400
    r = desk.client.get("/desk/explain?player=Nobody")
    assert r.status_code == 400 and "Nobody" in r.text
    assert desk.client.get("/desk/round/9").status_code == 400
    assert desk.client.get("/desk/audit?view=what-if&without=a-b").status_code == 400
    assert desk.client.get("/api/standings?round=x").status_code == 400


def test_csrf_is_checked_on_every_form(fresh: Path) -> None:
    desk = Desk(fresh)
    before = head(fresh)
    data = {"expected_head": str(before), "surname": "Kato", "rank": "3k"}
    assert desk.client.post("/desk/do/register", data=data).status_code == 403
    assert desk.client.post("/desk/do/register", data={**data, "csrf": "forged"}).status_code == 403
    other = TestClient(create_app(fresh, TOKEN))  # another browser's token does not fit this session
    other_csrf = csrf_of(other.get("/login").text)
    assert desk.client.post("/desk/do/register", data={**data, "csrf": other_csrf}).status_code == 403
    assert desk.client.post("/login", data={"token": TOKEN}).status_code == 403
    assert desk.client.post("/logout", data={}).status_code == 403
    assert head(fresh) == before
    # a logged-out browser with a valid CSRF token still needs the director token
    anon = TestClient(create_app(fresh, TOKEN))
    anon_csrf = csrf_of(anon.get("/login").text)
    assert anon.post("/desk/do/register", data={**data, "csrf": anon_csrf}).status_code == 401
    assert head(fresh) == before


def test_register_refusal_stale_head_and_retry(fresh: Path) -> None:
    desk = Desk(fresh)
    page = desk.page("/desk/players")
    rendered_at = head_of(page.text)
    r = desk.post("register", expected_head=rendered_at, surname="Kato", first_name="Rin", rank="3k", country="JP",
                  back="/desk/players")
    assert r.status_code == 303 and r.headers["location"] == "/desk/players"  # the message is the server's
    assert "Kato Rin" in desk.page(r.headers["location"]).text
    assert head(fresh) == rendered_at + 1
    # invalid input: the library's sentence, nothing written
    r = desk.post("register", surname="Bad", rank="99x")
    assert r.status_code == 400 and "99x" in r.text and "Nothing was written" in r.text
    assert head(fresh) == rendered_at + 1
    # stale: the form was rendered before Kato's registration, which it does not depend on
    r = desk.post("register", expected_head=rendered_at, surname="Ueda", rank="2k")
    assert r.status_code == 303, r.text
    assert head(fresh) == rendered_at + 2
    # a form that depends on the whole ledger (the rules) is refused, in browser words, with a retry
    r = desk.post("change-rules", expected_head=rendered_at, settings="komi=6.5", back="/desk/settings")
    assert r.status_code == 409
    assert "recorded after this page was shown" in r.text and "--retry" not in r.text
    assert 'name="retry" value="1"' in r.text  # a registration touches nothing the rules form does
    retry = {k: v for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', r.text)}
    assert retry["expected_head"] == str(rendered_at) and retry["retry"] == "1"
    r = desk.client.post("/desk/do/change-rules", data=retry, follow_redirects=False)
    assert r.status_code == 303, r.text
    state = desk.client.get("/api/standings")  # still readable
    assert state.status_code == 200
    assert head(fresh) == rendered_at + 3


def test_bulk_paste_registers_all_or_nothing(fresh: Path) -> None:
    desk = Desk(fresh)
    before = head(fresh)
    pasted = "Kato|Rin|3k|JP|Tokyo\nUeda\tSora\t12k\tJP\nSato|Ken|2d\n"
    r = desk.post("bulk-register", list=pasted, back="/desk/players")
    assert r.status_code == 303, r.text
    assert "registered 2 players" in desk.page(r.headers["location"]).text
    names = {p["surname"] for p in _players(desk)}
    assert {"Kato", "Ueda"} <= names
    after = head(fresh)
    assert after > before
    r = desk.post("bulk-register", list="Good|One|3k\nBad|Two|strong\n")
    assert r.status_code == 400 and "nothing was written" in r.text
    assert head(fresh) == after
    assert desk.post("bulk-register", list="  ").status_code == 400
    r = desk.post("update-player", player="Kato Rin", club="Osaka", status="preliminary")
    assert r.status_code == 303 and "Osaka" in desk.page("/desk/players?q=kato").text
    assert desk.post("update-player", player="Kato Rin", club="Osaka").status_code == 400  # changes nothing
    assert desk.post("update-player", player="Kato Rin", status="maybe").status_code == 400


def _players(desk: Desk) -> list[dict[str, str]]:
    rows = re.findall(r"<tr><td>(p\d{4})</td><td>([^<]+?)(?: <span|</td>)", desk.page("/desk/players").text)
    return [{"id": pid, "surname": name.split()[0]} for pid, name in rows]


def test_round_pairing_results_corrections_by_forms(fresh: Path) -> None:
    desk = Desk(fresh)
    assert desk.post("pair", round="1", white="p0001", black="p0002", back="/desk/round/1").status_code == 303
    assert desk.post("pair", round="1", white="Abe", black="Mori Aya", handicap="1").status_code == 303
    r = desk.post("pair", round="1", white="p0001", black="p0003")
    assert r.status_code == 400 and "Nothing was written" in r.text
    page = desk.page("/desk/round/1").text
    assert "Sato Ken" in page and "Still to pair (0)" in page
    # a swap: unpair table 2, pair it again the other way round
    assert desk.post("unpair", round="1", table="2").status_code == 303
    assert desk.post("pair", round="1", white="p0004", black="p0003", table="2").status_code == 303
    # fast result entry through htmx: a fragment with the new head and the focus back in the field
    results = desk.page("/desk/round/1/results").text
    hx = {"HX-Request": "true"}
    r = desk.post("result", expected_head=head_of(results), headers=hx, round="1", fragment="results", entry="1 w")
    assert r.status_code == 200 and 'id="entry"' in r.text and "round 1 table 1: Sato Ken (white) won" in r.text
    assert head_of(r.text) == head(fresh) and "autofocus" in r.text
    r = desk.post("result", headers=hx, round="1", fragment="results", entry="1 b")
    assert r.status_code == 409 and "already has a result" in r.text and 'id="correction-form"' in r.text
    r = desk.post("result", headers=hx, round="1", fragment="results", entry="nonsense")
    assert r.status_code == 400 and "not a result entry" in r.text
    r = desk.post("result", headers=hx, round="1", fragment="results", entry="2 =!")
    assert r.status_code == 200 and "jigo between Mori Aya (white) and Abe Jo (black) (by default)" in r.text
    # correction with a reason (refused without one)
    assert desk.post("correct", round="1", table="1", result="black").status_code == 400
    r = desk.post("correct", round="1", table="1", result="black", reason="slip swapped")
    assert r.status_code == 303
    data = json.loads(desk.client.get("/api/pairings?round=1").text)
    assert [g["table"] for g in data["games"]] == [1, 2]
    assert data["games"][1]["white"] == {"id": "p0004", "surname": "Mori", "first_name": "Aya"}
    # absences, byes and withdrawals through the one player form
    assert desk.post("player", what="absent", player="p0001", round="2").status_code == 303
    assert desk.post("player", what="withdraw", player="Mori", round="3", reason="went home").status_code == 303
    assert desk.post("player", what="bye", player="p0002", round="2").status_code == 303
    assert desk.post("player", what="fly", player="p0002", round="2").status_code == 400
    text = desk.page("/desk/players?round=2").text
    assert "from round 3" in text
    # publish and the rules
    assert desk.post("publish", round="1", note="after round 1").status_code == 303
    assert desk.post("change-rules", settings="mm_bar=2d", reason="bar lowered").status_code == 303
    assert desk.post("change-rules", settings="no equals sign").status_code == 400
    assert desk.post("nonexistent").status_code == 404
    assert desk.client.post("/desk/do/register", data={"csrf": desk.csrf, "surname": "X", "rank": "1k"},
                            follow_redirects=False).status_code == 400  # no head
    log = desk.page("/desk/log").text
    assert "desk t" in log and "slip swapped" in log


def test_stale_results_per_game(fresh: Path) -> None:
    """Issue 32: a result for another table from a stale page is recorded without a question;
    the same table is refused in words, with keep and replace."""
    desk = Desk(fresh)
    commands.pair(fresh, 1, "p0001", "p0002")
    commands.pair(fresh, 1, "p0003", "p0004")
    seen = head(fresh)
    commands.result(fresh, 1, 1, "white", actor="desk-b")  # another desk, same table
    hx = {"HX-Request": "true"}
    r = desk.post("result", expected_head=seen, headers=hx, round="1", fragment="results", entry="1 B+2.5")
    assert r.status_code == 409 and "desk-b" in r.text and 'id="retry"' not in r.text
    assert "white won" in r.text and "Sato Ken" in r.text and "p0001" not in r.text.split('id="conflict"')[1][:600]
    assert 'id="keep"' in r.text and 'id="replace"' in r.text
    replace = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">',
                              r.text.split('id="replace-form"')[1].split("</form>")[0]))
    assert replace["result"] == "B+2.5" and replace["table"] == "1" and replace["expected_head"] == str(seen + 1)
    # the correction in the page (issue 43, item 6): old → new, and the reason to edit before replacing
    assert re.search(r'id="conflict-old">white won</span> → <strong id="conflict-new">black won</strong>', r.text)
    reason = re.search(r'<input name="reason" id="conflict-reason"[^>]* value="([^"]+)"', r.text)
    assert reason and "another desk" in reason.group(1)
    replace["reason"] = reason.group(1)
    assert head(fresh) == seen + 1
    # another table from the same stale page: recorded at once
    r = desk.post("result", expected_head=seen, headers=hx, round="1", fragment="results", entry="2 W+R")
    assert r.status_code == 200 and "round 1 table 2: Abe Jo (white) won by resignation" in r.text
    assert head(fresh) == seen + 2
    # replace: a correction with a reason, against the head the refusal saw... which moved again
    # (table 2's result): still recorded, nothing about table 1 changed since
    r = desk.client.post("/desk/do/correct", data=replace, headers=hx)
    assert r.status_code == 200, r.text
    state = desk.client.get("/api/pairings?round=1").json()
    assert state["games"][0]["table"] == 1
    from goledger.replay.views import state_as_of

    assert state_as_of(fresh, None).games[1][1].result.value == "black"


@pytest.mark.parametrize("entry, word", [("8 W+R", "Player14 (white) won by resignation"),
                                         ("9 B+2.5", "Player17 (black) won by 2.5 points"),
                                         ("10 0-0", "both lose: Player18 (white) and Player19 (black)"),
                                         ("11 1-0", "Player20 (white) won"), ("12=", "jigo between Player22"),
                                         ("13 b!", "Player25 (black) won by default"),
                                         ("7 siyah", "Player13 (black) won"), ("6 fehér", "Player10 (white) won"),
                                         ("5 Weiß", "Player08 (white) won"), ("4 noir", "Player07 (black) won"),
                                         ("3 berabere", "jigo between Player04")])
def test_fast_entry_takes_every_result_notation(tmp_path: Path, entry: str, word: str) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "Notation Cup", 1, "mcmahon", "3d", "20k", None, None, "7.5")
    for i in range(26):
        commands.register(db, f"Player{i:02d}", "", "5k")
    for t in range(1, 14):
        commands.pair(db, 1, f"p{2 * t - 1:04d}", f"p{2 * t:04d}", t)
    desk = Desk(db)
    r = desk.post("result", headers={"HX-Request": "true"}, round="1", fragment="results", entry=entry)
    assert r.status_code == 200 and f"table {entry.split()[0].rstrip('=')}: {word}" in r.text, r.text[:400]


def test_api_matches_the_cli_json(sample: Path) -> None:
    client = TestClient(create_app(sample, TOKEN))
    for query, args in (("?round=2", ["--round", "2"]), ("", []), ("?round=3&criteria=MMS,SOSM", [
            "--round", "3", "--criteria", "MMS,SOSM"]), ("?as_of=40", ["--as-of", "40"])):
        api = client.get("/api/standings" + query)
        cli = run_cli("standings", *args, "--json", "--db", sample)
        assert cli.code == 0, cli.err
        assert api.text == cli.out, query
    assert client.get("/api/standings?round=99").status_code == 400
    pairings = json.loads(client.get("/api/pairings?round=1").text)
    assert set(pairings) == {"round", "engine", "total_weight", "bye", "games"}
    game = pairings["games"][0]
    assert set(game) == {"table", "white", "black", "handicap", "komi"}
    assert set(game["white"]) == {"id", "surname", "first_name"}
    assert client.get("/api/pairings?round=0").status_code == 400


def test_api_results_token_head_and_input(fresh: Path) -> None:
    commands.pair(fresh, 1, "p0001", "p0002")
    commands.pair(fresh, 1, "p0003", "p0004")
    client = TestClient(create_app(fresh, TOKEN))
    seen = head(fresh)
    body = {"round": 1, "table": 1, "result": "white", "expected_head": seen}
    assert client.post("/api/results", json=body).status_code == 401
    assert client.post("/api/results", json=body, headers={"Authorization": "Bearer nope"}).status_code == 401
    auth = {"Authorization": f"Bearer {TOKEN}"}
    assert client.post("/api/results", content=b"{", headers=auth).status_code == 400
    assert client.post("/api/results", json={"round": 1}, headers=auth).status_code == 400
    assert client.post("/api/results", json={**body, "table": "1"}, headers=auth).status_code == 400
    assert client.post("/api/results", json={**body, "result": "maybe"}, headers=auth).status_code == 400
    assert head(fresh) == seen
    r = client.post("/api/results", json=body, headers=auth)
    assert r.status_code == 200
    out = json.loads(r.text)
    assert out["message"] == "round 1 table 1: Sato Ken (white) won"
    assert out["events"][0]["payload"]["type"] == "ResultRecorded"
    assert set(out["events"][0]) >= {"seq", "type", "payload", "actor", "hash", "prev_hash"}
    r = client.post("/api/results", json={**body, "table": 2}, headers=auth)  # stale, another table: recorded
    assert r.status_code == 200, r.text
    r = client.post("/api/results", json={**body, "result": "black"}, headers=auth)  # stale, the same table
    assert r.status_code == 409 and r.json()["code"] == "conflict" and r.json()["head"] == seen + 2
    assert "white won" in r.json()["error"]
    browser = Desk(fresh)  # the director cookie does not open the API (it carries no CSRF token)
    assert browser.client.post("/api/results", json={**body, "round": 2, "expected_head": seen + 2}).status_code == 401
    assert head(fresh) == seen + 2


def test_uploads_are_limited_and_read_by_the_formats(tmp_path: Path, sample: Path) -> None:
    from goledger.formats.opengotha import export_opengotha

    xml = export_opengotha(sample).data
    db = tmp_path / "new.db"
    desk = Desk(db, max_upload=len(xml) + 4096)
    assert desk.client.get("/desk", follow_redirects=False).headers["location"] == "/desk/new"
    assert desk.client.get("/").status_code == 200  # players' view before any tournament
    r = desk.client.post("/desk/import", data={"csrf": desk.csrf, "format": "opengotha"},
                         files={"file": ("big.xml", b"x" * (len(xml) + 8192), "application/xml")})
    assert r.status_code == 413 and not db.exists()
    r = desk.client.post("/desk/import", data={"csrf": desk.csrf, "format": "opengotha"},
                         files={"file": ("junk.xml", b"<not-gotha/>", "application/xml")})
    assert r.status_code == 400 and not db.exists()
    r = desk.client.post("/desk/import", data={"csrf": desk.csrf, "format": "nope"},
                         files={"file": ("t.xml", xml, "application/xml")})
    assert r.status_code == 400
    r = desk.client.post("/desk/import", data={"csrf": desk.csrf, "format": "opengotha"},
                         files={"file": ("", b"", "application/octet-stream")})
    assert r.status_code == 400 and "choose the file to import" in r.text and not db.exists()
    r = desk.client.post("/desk/import", data={"csrf": desk.csrf, "format": "opengotha"},
                         files={"file": ("sample.xml", xml, "application/xml")}, follow_redirects=False)
    assert r.status_code == 303 and db.exists()
    assert "imported" in desk.page(r.headers["location"]).text
    r = desk.client.post("/desk/import", data={"csrf": desk.csrf, "format": "opengotha"},
                         files={"file": ("sample.xml", xml, "application/xml")})
    assert r.status_code == 400 and "already exists" in r.text
    download = desk.page("/desk/export/opengotha")
    assert download.content == export_opengotha(db).data
    assert "attachment" in download.headers["content-disposition"]
    assert desk.client.get("/desk/export/pdf").status_code == 404
    # a participant list by upload
    r = desk.client.post("/desk/players/upload", data={"csrf": desk.csrf, "expected_head": str(head(db))},
                         files={"file": ("", b"", "text/plain")})
    assert r.status_code == 400 and "choose the participant list to upload" in r.text
    r = desk.client.post("/desk/players/upload", data={"csrf": desk.csrf, "expected_head": str(head(db))},
                         files={"file": ("list.txt", b"Newman|Ann|6k|GB\n", "text/plain")},
                         follow_redirects=False)
    assert r.status_code == 303 and "registered 1" in desk.page(r.headers["location"]).text


def test_new_tournament_from_the_desk(tmp_path: Path) -> None:
    db = tmp_path / "cup.db"
    desk = Desk(db)
    page = desk.page("/desk/new").text
    assert "New tournament" in page
    r = desk.client.post("/desk/new", data={"csrf": desk.csrf, "name": "Cup", "rounds": "x"})
    assert r.status_code == 400 and not db.exists()
    r = desk.client.post("/desk/new", data={"csrf": desk.csrf, "name": "Cup", "rounds": "4", "system": "swiss"},
                         follow_redirects=False)
    assert r.status_code == 303 and db.exists()
    assert "Cup" in desk.page("/desk").text


def test_server_sent_events_report_the_head_and_end(fresh: Path) -> None:
    client = TestClient(create_app(fresh, TOKEN, poll=0.02))
    with client.stream("GET", "/events/head?lifetime=0.2") as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        text = "".join(r.iter_text())
    assert f"event: head\ndata: {head(fresh)}\n\n" in text


def test_serve_refuses_bad_options(tmp_path: Path) -> None:
    r = run_cli("serve", "--db", tmp_path / "t.db", "--port", "0", "--token", "long-enough-token")
    assert r.code == 1 and "port 0" in r.err
    r = run_cli("serve", "--db", tmp_path / "t.db", "--token", "short")
    assert r.code == 1 and "at least 8" in r.err
    r = run_cli("serve", "--db", tmp_path / "missing" / "t.db", "--token", "long-enough-token")
    assert r.code == 1 and "does not exist" in r.err


def test_names_are_escaped_everywhere(fresh: Path) -> None:
    commands.register(fresh, "<script>alert(1)</script>", "&amp;", "3k", club='"><img src=x>')
    desk = Desk(fresh)
    for url in ("/desk/players", "/print/players", "/standings", "/desk/standings"):
        text = desk.page(url).text
        assert "<script>alert" not in text and "<img src=x>" not in text, url
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in desk.page("/desk/players").text


def test_pair_round_page_with_the_pairing_engine(fresh: Path) -> None:
    """The round page's engine part: the preview (a dry run) and the pairing itself, through
    :func:`goledger.commands.pairing.pair_round` (a colleague's module; skipped without it)."""
    pytest.importorskip("goledger.commands.pairing")
    desk = Desk(fresh)
    before = head(fresh)
    preview = desk.page("/desk/round/1?preview=1").text
    assert 'id="preview-table"' in preview and head(fresh) == before
    r = desk.post("pair-round", round="1", back="/desk/round/1")
    assert r.status_code == 303, r.text
    games = json.loads(desk.client.get("/api/pairings?round=1").text)["games"]
    assert len(games) == 2


def test_public_pages_are_rendered_once_per_head(fresh: Path) -> None:
    commands.pair(fresh, 1, "p0001", "p0002")
    client = TestClient(create_app(fresh, TOKEN))
    first = client.get("/?round=1").text
    assert client.get("/?round=1").text == first and "1-0" not in first
    commands.result(fresh, 1, 1, "white")
    again = client.get("/?round=1").text
    assert "1-0" in again and f'data-head="{head(fresh)}"' in again


def test_round_page_shows_the_pairing_constraints(fresh: Path) -> None:
    from goledger.ledger import events as ev

    with Ledger.open(fresh) as ledger:
        ledger.append([ev.PairingConstraintSet(player_a="p0001", player_b="p0002", constraint="forbidden")])
    text = Desk(fresh).page("/desk/round/1").text
    assert "Sato Ken – Ito Mai: never paired" in text  # the constraint in words, as on /desk/constraints
