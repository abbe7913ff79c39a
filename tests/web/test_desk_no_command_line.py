"""No desk page or refusal names a command line or a server path (issue 43, item 6), over
HTTP on a running ``goledger serve`` with a populated ledger: every GET route of the app
(its parameters filled from the ledger), in each language of the desk, and the refusals the desk's forms produce (each
action posted empty, then wrong in the ways a volunteer gets it wrong) are scanned for
``goledger `` and for a ``/``-rooted file path in what the page shows."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import pytest

from goledger import commands
from goledger.ledger.store import Ledger

from ..desk_server import DeskServer
from .test_web_attacks import logged_in

pytest.importorskip("httpx")

_HIDDEN = re.compile(r"<(script|style)\b.*?</\1>|<!--.*?-->", re.S | re.I)
_SHOWN_ATTRIBUTES = re.compile(r'\b(?:value|placeholder|title|alt|aria-label)="([^"]*)"')
_TAG = re.compile(r"<[^>]+>")


def _command_pattern() -> re.Pattern[str]:
    """``goledger`` followed by one of its commands (the brand in a title is no command)."""
    from goledger.commands.table import COMMANDS, SHARED_GROUPS

    names = sorted({*(c.name.split(" ", 1)[0] for c in COMMANDS), *SHARED_GROUPS}, key=len, reverse=True)
    return re.compile(r"\bgoledger\s+(?:" + "|".join(map(re.escape, names)) + r")\b")


_COMMAND = _command_pattern()


def _bare_pattern() -> re.Pattern[str]:
    """A command's own hyphenated name standing alone in the text (``change-rules
    check_in=every``): no word of any language, so only the command line's (but *check-in*,
    an English word the English desk uses)."""
    from goledger.commands.table import COMMANDS

    names = sorted({c.name.split(" ", 1)[0] for c in COMMANDS if "-" in c.name.split(" ", 1)[0]}
                   - {"check-in", "check-ins"}, key=len, reverse=True)
    return re.compile(r"(?<![\w/-])(?:" + "|".join(map(re.escape, names)) + r")(?![\w-])")


_BARE = _bare_pattern()
_PATH = re.compile(r"(?<![\w.:/~])/(?:[\w.+-]+/)+[\w.+-]*")
"""A ``/``-rooted path of two parts or more (``/tmp/x/t.db``, ``/home/me/.local/share/…``)."""


def shown_text(html: str) -> str:
    """What a page shows: its text and the attributes a reader sees, without scripts, styles,
    comments, links' targets and forms' actions."""
    html = _HIDDEN.sub(" ", html)
    shown_tags = " ".join(t for t in _TAG.findall(html) if 'type="hidden"' not in t)
    attributes = " ".join(_SHOWN_ATTRIBUTES.findall(shown_tags))
    return _TAG.sub(" ", html) + " " + attributes


def problems(html: str, server_paths: list[str]) -> list[str]:
    """Every command line and server path the page shows (empty: none)."""
    text = shown_text(html)
    found = [m.group(0) for m in _COMMAND.finditer(text)]
    found += [m.group(0) for m in _BARE.finditer(_COMMAND.sub(" ", text))]
    found += [m.group(0) for m in _PATH.finditer(text)]
    found += [p for p in server_paths if p in html]
    return found


def test_the_scan_finds_what_it_looks_for() -> None:
    """The scan is no tautology: each kind of hit is found, and links are not hits."""
    assert problems('<p>use `goledger correct`</p>', []) == ["goledger correct"]
    assert problems('<p class="x">no store at /home/td/.local/share/goledger/ratings.db</p>', []) == [
        "/home/td/.local/share/goledger/ratings.db"]
    assert problems('<input value="goledger pair-round 2">', []) == ["goledger pair-round"]
    assert problems("<p>(check-in is not required: change-rules check_in=every)</p>", []) == ["change-rules"]
    assert problems('<a href="/desk/round/1">Round 1</a> <form action="/desk/do/result"><input type="hidden" '
                    'name="back" value="/desk/round/1"></form>', []) == []
    assert problems('<p>saved</p><!-- /srv/t.db -->', ["/srv/t.db"]) == ["/srv/t.db"]
    assert problems("<title>goledger · Cup</title><p>goledger\n Players</p>", []) == []  # the brand is no command


def _ledger(tmp: Path) -> Path:
    db = tmp / "scan.db"
    commands.new(db, "Scan Cup", 3, "mcmahon", "3d", "20k", None, None, "7.5")
    for surname, first, rank in [("Sato", "Ken", "2d"), ("Ito", "Aya", "1k"), ("Mori", "Jo", "3k"),
                                 ("Abe", "Rin", "5k"), ("Kato", "Yu", "8k"), ("Ueda", "Mai", "10k")]:
        commands.register(db, surname, first, rank)
    commands.pair_round(db, 1, seed=1)
    commands.result(db, 1, 1, "w")
    commands.result(db, 1, 2, "b")
    return db


def _head(db: Path) -> int:
    with Ledger.open(db) as ledger:
        return ledger.head().seq


def _routes(db: Path) -> list[str]:
    """Every GET route of the desk's app, its parameters filled from the ledger."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.routing import Route

        from goledger.web import create_app

        app: Any = create_app(db, "unused-token")
    while not hasattr(app, "routes"):
        app = app.app
    fill = {"round": "1", "pid": "p0001", "seq": str(_head(db)), "fmt": "opengotha", "key": "no-such-key"}
    paths = []
    for route in app.routes:
        if isinstance(route, Route) and "GET" in (route.methods or ()) and route.path != "/events/head":
            paths.append(re.sub(r"\{(\w+)(?::\w+)?\}", lambda m: fill[m.group(1)], route.path))
    return paths


def test_no_desk_page_or_refusal_names_a_command_line_or_a_server_path(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    db = _ledger(tmp_path)
    store = tmp_path / "no-store" / "ratings.db"
    monkeypatch.setenv("GOLEDGER_RATINGS", str(store))  # no list imported yet: the desk says so in its words
    server_paths = [str(tmp_path), str(store)]
    routes = _routes(db)
    assert len(routes) >= 40, routes
    extra = ["/desk/ratings/search?q=duman", "/api/ratings/search?q=duman", "/desk/round/3", "/desk/round/3/results",
             "/desk/explain?player=p0001", "/desk/players?q=sato&round=2", "/desk/export/egd", "/desk/export/nothing"]
    hits: dict[str, list[str]] = {}
    with DeskServer(db) as desk:
        client, csrf = logged_in(desk.url)
        for language in ("en", "tr", "hu", "fr", "de"):  # every catalog's words
            for path in routes + extra:
                r = client.get(path + ("&" if "?" in path else "?") + f"lang={language}")
                assert r.status_code < 500, (path, r.status_code, r.text[:300])
                if "html" in r.headers.get("content-type", "") and (found := problems(r.text, server_paths)):
                    hits[f"{path} ({language})"] = found
        refusals = _refusals(db)
        for language in ("en", "tr"):
            client.get(f"/desk?lang={language}")  # the refusals in the chosen language (its cookie)
            for action, fields in refusals:
                page = client.get("/desk/players").text
                head = re.search(r'name="expected_head" value="(\d+)"', page)
                assert head
                r = client.post(f"/desk/do/{action}", data={"csrf": csrf, "expected_head": head.group(1),
                                                             "back": "/desk", **fields})
                assert r.status_code in (400, 404, 409), (action, fields, r.status_code, r.text[:300])
                if found := problems(r.text, server_paths):
                    hits[f"POST {action} {fields} ({language})"] = found
        for path, files in [("/desk/import", {"file": ("t.xml", b"<not a tournament/>")}),
                            ("/desk/players/upload", {"file": ("p.txt", b"\x00\x01 not a list")})]:
            r = client.post(path, data={"csrf": csrf, "expected_head": str(_head(db)), "back": "/desk",
                                        "format": "opengotha"}, files=files)
            assert r.status_code in (400, 413), (path, r.status_code, r.text[:300])
            if found := problems(r.text, server_paths):
                hits[f"POST {path}"] = found
        r = client.post("/desk/new", data={"csrf": csrf, "name": "", "rounds": "x", "system": "mcmahon"})
        if found := problems(r.text, server_paths):
            hits["POST /desk/new"] = found
    assert len(refusals) >= 25
    assert not hits, "\n".join(f"{k}: {v}" for k, v in hits.items())


def _refusals(db: Path) -> list[tuple[str, dict[str, str]]]:
    """Forms a volunteer gets wrong: every action of the desk posted empty, then the refusals
    whose library sentence names a command (a result on a table that has one, a correction
    of a game without one, a pairing of players already paired, an unknown setting…)."""
    from goledger.web.actions import ACTIONS

    wrong: list[tuple[str, dict[str, str]]] = [(name, {}) for name in sorted(ACTIONS)]
    wrong += [
        ("result", {"round": "1", "entry": "1 b"}),
        ("result", {"round": "1", "table": "2", "result": "white"}),
        ("correct", {"round": "1", "table": "3", "result": "white", "reason": "slip"}),
        ("pair", {"round": "1", "white": "p0001", "black": "p0002"}),
        ("pair-round", {"round": "1"}),
        ("pair-round", {"round": "3"}),
        ("unpair-round", {"round": "2"}),
        ("change-rules", {"settings": "nonsense=1"}),
        ("change-rules", {"settings": "criteria=NOPE"}),
        ("change-rules", {"settings": "rounds=0"}),
        ("register", {"surname": "Sato", "first_name": "Ken", "rank": "2d"}),
        ("player", {"what": "withdraw", "player": "p0001", "round": "1"}),
        ("player", {"what": "absent", "player": "nobody", "round": "1"}),
        ("update-player", {"player": "p0001"}),
        ("unit-add", {"members": "p0001 p0002"}),
        ("show-round", {"round": "3"}),
        ("publish", {"round": "9"}),
    ]
    return wrong
