"""Every page of the desk escapes what an old ledger may hold (issue 27, §7): names, clubs,
the tournament's name and location, reasons, team names and an event's envelope written
before the domains refused control characters (ESC, BEL, NUL, SOH, U+202E RIGHT-TO-LEFT
OVERRIDE), appended to the ledger directly as an older goledger did. Each GET route of the
desk is fetched (the director logged in; routes a later change adds are fetched with their
path parameters filled in, so they are covered too): none may answer 500 or write one of
those characters raw into HTML, text, CSV or XML; JSON must parse (it escapes C0 controls
itself)."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from goledger import commands
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger

pytest.importorskip("starlette")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.routing import Route
    from starlette.testclient import TestClient

from goledger.web import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TOKEN = "escape-test-director-token"
EVIL = "Evil\x1b]0;pwn\x07\u202e\x00\x01"
RAW = ("\x1b", "\x07", "\x00", "\x01", "\u202e")


@pytest.fixture(scope="module")
def old(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("old") / "old.db"
    commands.new(db, "Old Open", 3)
    commands.register(db, "Plain", "Ann", "3d")
    with Ledger.open(db) as ledger, ledger.writing() as tx:
        tx.append([
            ev.RulesChanged(changes={"name": f"Cup {EVIL}", "location": EVIL, "director": EVIL}),
            ev.PlayerRegistered(player_id="p0002", surname=EVIL, first_name=EVIL, rank="3d", club=EVIL,
                                country="-x"),
            ev.PlayerRegistered(player_id="p0003", surname="Third", first_name=EVIL, rank="2k", club=EVIL),
            ev.PlayerRegistered(player_id="p0004", surname="Fourth", first_name="Dee", rank="5k"),
            ev.GamePaired(round=1, table=1, white="p0001", black="p0002"),
            ev.GamePaired(round=1, table=2, white="p0003", black="p0004"),
            ev.ResultRecorded(round=1, table=1, result="white"),
            ev.ResultRecorded(round=1, table=2, result="black"),
            ev.ResultCorrected(round=1, table=2, result="white", reason=EVIL),
            ev.PlayerWithdrew(player_id="p0004", from_round=2, reason=EVIL),
        ], actor=EVIL, reason=EVIL)
    return db


@pytest.fixture(scope="module")
def old_league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A team league whose second team and its players were written with such characters."""
    from goledger.commands.teams import pair_teams, team_add, team_assign

    db = tmp_path_factory.mktemp("league") / "league.db"
    commands.new(db, "Old League", 2, "team-swiss", options={"boards": 2})
    for surname, rank in (("Sato", "2d"), ("Ito", "1k"), ("Abe", "4k"), ("Mori", "5k")):
        commands.register(db, surname, "X", rank)
    team_add(db, "Lions")
    team_add(db, "Tigers")
    for team, pid, board in (("Lions", "p0001", 1), ("Lions", "p0002", 2), ("Tigers", "p0003", 1),
                             ("Tigers", "p0004", 2)):
        team_assign(db, team, pid, board)
    pair_teams(db, 1, "Lions", "Tigers")
    with Ledger.open(db) as ledger, ledger.writing() as tx:
        tx.append([
            ev.PlayerRegistered(player_id="p0005", surname=EVIL, first_name=EVIL, rank="3k", club=EVIL),
            ev.PlayerRegistered(player_id="p0006", surname="Sixth", first_name=EVIL, rank="6k"),
            ev.TeamRegistered(team_id="t9", name=f"Team {EVIL}", short_name=EVIL),
            ev.TeamMemberAssigned(team_id="t9", player_id="p0005", board=1),
            ev.TeamMemberAssigned(team_id="t9", player_id="p0006", board=2),
        ], actor=EVIL, reason=EVIL)
        table_events = [ev.ResultRecorded(round=1, table=t, result="white") for t in (1, 2)]
        tx.append(table_events, actor=EVIL, reason=EVIL)  # type: ignore[arg-type]
    return db


def director(db: Path) -> Any:
    client = TestClient(create_app(db, TOKEN))
    page = client.get("/login").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    assert csrf
    r = client.post("/login", data={"csrf": csrf.group(1), "token": TOKEN, "next": "/desk"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return client


FILL = {"pid": ["p0002", "p0003", "p0005"], "round": ["1", "2"], "fmt": ["opengotha", "macmahon", "egd", "trf"]}
"""Values of the path parameters (any other parameter: ``x``)."""
QUERIES = {
    "/desk/explain": ["player=p0002", "player=p0003&round=1"],
    "/desk/audit": ["view=history&player=p0002", "view=diff&from=3", "view=what-if&without=10",
                    "view=what-if&without=13"],
    "/desk/round/{round:int}/game": ["table=1", "table=2"],
    "/player/{pid}": [""],
    "/api/ratings/search": ["q=Evil"],
    "/desk/ratings/search": ["q=Evil"],
    "/desk/log": ["", "after=2"],
    "/api/standings": ["", "as_of=9"],
    "/standings": ["", "round=1"],
    "/": ["", "round=1"],
    "/find": ["q=Evil", "q=Third", "q=" + quote(EVIL)],  # the query itself is shown back
    "/api/find": ["q=Evil"],
}
"""Query strings worth fetching besides none."""
STREAMS = re.compile(r"^/events/")


def urls(app: Any) -> list[str]:
    inner = app
    while not hasattr(inner, "routes"):
        inner = inner.app
    out = []
    for route in inner.routes:
        if not isinstance(route, Route) or "GET" not in (route.methods or ()) or STREAMS.match(route.path):
            continue
        paths = [route.path]
        for name in re.findall(r"{(\w+)(?::\w+)?}", route.path):
            paths = [re.sub(r"{" + name + r"(?::\w+)?}", value, p) for p in paths for value in FILL.get(name, ["x"])]
        for path in paths:
            out += [f"{path}?{q}" if q else path for q in QUERIES.get(route.path, [""])]
    return out


@pytest.mark.parametrize("which", ["individual", "teams"])
def test_every_page_of_the_desk_escapes_what_an_old_ledger_holds(which: str, request: pytest.FixtureRequest) -> None:
    client = director(request.getfixturevalue("old" if which == "individual" else "old_league"))
    fetched = urls(client.app)
    assert len(fetched) > 40
    leaks, failures = [], []
    for url in fetched:
        r = client.get(url)
        if r.status_code >= 500:
            failures.append((url, r.status_code, r.text[:200]))
            continue
        media = r.headers.get("content-type", "")
        if media.startswith("application/json"):
            json.loads(r.text)
            continue
        found = [c for c in RAW if c in r.text]
        if found:
            at = min(r.text.index(c) for c in found)
            leaks.append((url, found, r.text[max(0, at - 80):at + 20]))
    assert not failures, failures
    assert not leaks, leaks


def test_the_escaped_names_are_shown_not_dropped(old: Path) -> None:
    client = director(old)
    for url in ("/desk/players", "/", "/player/p0002", "/print/players"):
        text = client.get(url).text
        assert "Evil\\x1b]0;pwn\\x07\\u202e\\x00\\x01" in text, url


CLI_HTML = [
    ["standings", "--format", "html"], ["standings", "--format", "html", "--wall"], ["players", "--format", "html"],
    ["pairings", "--round", "1", "--format", "html"], ["wall-list", "--format", "html"],
    ["crosstable", "--format", "html"], ["rating-preview", "--format", "html"], ["report", "--html", "{out}/r.html"],
    ["export", "macmahon", "-o", "{out}/m.xml"], ["export", "opengotha", "-o", "{out}/o.xml"],
]
CLI_TEAMS = [
    ["team", "pairings", "--round", "1", "--format", "html"], ["team", "sheets", "--round", "1", "--format", "html"],
    ["team", "crosstable", "--format", "html"], ["standings", "--format", "html"], ["team", "list"],
]


@pytest.mark.parametrize("which", ["individual", "teams"])
def test_every_html_printout_of_the_command_line_escapes_what_an_old_ledger_holds(
        which: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    from ..conftest import run_cli

    db = request.getfixturevalue("old" if which == "individual" else "old_league")
    for argv in CLI_HTML if which == "individual" else CLI_TEAMS:
        argv = [a.replace("{out}", str(tmp_path)) for a in argv]
        done = run_cli(*argv, "--db", db)
        assert done.code == 0 and "Traceback" not in done.err, (argv, done)
        text = done.out + "".join(f.read_text(encoding="utf-8", errors="replace") for f in tmp_path.iterdir())
        for f in tmp_path.iterdir():
            f.unlink()
        assert not [c for c in RAW if c in text], argv
        assert "Evil\\x1b]0;pwn\\x07\\u202e\\x00\\x01" in text or argv[0] == "rating-preview", argv
