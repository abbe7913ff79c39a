"""The reader's language wins on every public page (issue 44, item 4), through a running
``goledger serve``: on each players' page (read from the app's routes, so a new one is checked
by itself), the login and the New-tournament form, the switcher's choice kept in a cookie comes
first, then the browser's ``Accept-Language`` (q-values, ``hu-HU`` read as ``hu``), then the
tournament's language; every answer says so with ``Vary: Accept-Language, Cookie``, and the
page cache (answered before routing the second time) never hands one reader's language to
another. The director's pages follow the director's choice, else the tournament's, never the
browser's."""

from __future__ import annotations

import re
import urllib.error
import urllib.request

import pytest

from goledger import commands

from ..desk_server import TOKEN, DeskServer, free_port

pytest.importorskip("starlette")


def _get(base: str, path: str, headers: dict[str, str]) -> tuple[int, str, dict[str, str]]:
    request = urllib.request.Request(base + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=20) as r:
            return r.status, r.read().decode(), {k.lower(): v for k, v in r.headers.items()}
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(), {k.lower(): v for k, v in e.headers.items()}


def _lang(body: str) -> str:
    found = re.search(r'<html lang="([a-z]+)"', body)
    assert found is not None, body[:300]
    return found.group(1)


def _vary(headers: dict[str, str]) -> set[str]:
    return {v.strip().lower() for v in headers.get("vary", "").split(",") if v.strip()}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    db = tmp_path_factory.mktemp("reader") / "kupa.db"
    commands.new(db, "Ankara Kupası", 2, "mcmahon", "3d", "20k", None, None, "6.5", language="tr")
    for surname, first in (("Csizmadia", "György"), ("Erdoğan", "Özgür"), ("Jeon", "Sang Youn"), ("Sütő", "Lőrinc")):
        commands.register(db, surname, first, "2k")
    commands.pair_round(db, 1)
    commands.result(db, 1, 1, "white")
    players = free_port()
    with DeskServer(db, public_port=players) as running:
        running.players = f"http://127.0.0.1:{players}"  # type: ignore[attr-defined]
        yield running


def _reader_paths(server: DeskServer) -> list[str]:
    from goledger.web import create_app

    from .test_web_routes import _routes

    seq = len(commands.log(server.db))
    paths = []
    for route in _routes(create_app(server.db, "x")):
        skipped = ("/desk", "/api/", "/events/", "/print/", "/k/")
        if "GET" not in (route.methods or ()) or route.path.startswith(skipped):
            continue
        paths.append(route.path.replace("{pid}", "p0001").replace("{round:int}", "1")
                     .replace("{seq:int}", str(seq)))
    return [*(p if p != "/find" else "/find?q=Csiz" for p in paths), "/desk/new"]


def _players_port(server: DeskServer) -> str:
    """The players' view's own port (``serve --public-port``), once it answers."""
    import socket
    import time

    base: str = server.players  # type: ignore[attr-defined]
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), timeout=1):
                return base
        except OSError:
            assert time.monotonic() < deadline, "the players' port did not start"
            time.sleep(0.05)


@pytest.mark.parametrize("door", ["desk", "players' port"])
def test_cookie_then_accept_language_then_the_tournament_on_every_public_page(server: DeskServer, door: str) -> None:
    paths = _reader_paths(server)
    assert {"/", "/standings", "/player/p0001", "/find?q=Csiz", "/teams", "/login", "/desk/new"} <= set(paths)
    base = server.url
    if door != "desk":  # the players' view alone: no login, no director's form
        base = _players_port(server)
        paths = [p for p in paths if p not in ("/login", "/desk/new")]
    for path in paths:
        for _ in range(2):  # the second time from the page cache, answered before routing
            status, body, headers = _get(base, path, {"Accept-Language": "hu-HU,hu;q=0.9,en;q=0.5"})
            assert status in (200, 400, 401), (path, status)
            assert _lang(body) == "hu", path
            assert {"accept-language", "cookie"} <= _vary(headers), (path, headers.get("vary"))
            assert _lang(_get(base, path, {"Accept-Language": "de;q=0.3, fr-CH;q=0.8, xx"})[1]) == "fr", path
            assert _lang(_get(base, path, {"Accept-Language": "ja, *;q=0.1"})[1]) == "tr", path  # the tournament's
            assert _lang(_get(base, path, {"Accept-Language": "hu", "Cookie": "goledger_lang=de"})[1]) == "de", path
            assert _lang(_get(base, path, {"Accept-Language": "hu", "Cookie": "goledger_lang=xx"})[1]) == "hu", path
        status, body, headers = _get(base, path + ("&" if "?" in path else "?") + "lang=de",
                                     {"Accept-Language": "hu"})
        assert _lang(body) == "de" and "goledger_lang=de" in headers.get("set-cookie", ""), path


def test_the_directors_pages_follow_his_choice_not_the_browser(server: DeskServer) -> None:
    director = {"Authorization": f"Bearer {TOKEN}"}
    for path in ("/desk", "/desk/players", "/desk/standings"):
        status, body, headers = _get(server.url, path, {**director, "Accept-Language": "hu"})
        assert status == 200 and _lang(body) == "tr", path  # the tournament's, not the browser's
        assert "cookie" in _vary(headers), path
        chosen = _get(server.url, path, {**director, "Accept-Language": "hu", "Cookie": "goledger_lang=fr"})[1]
        assert _lang(chosen) == "fr", path
