"""Every director page behind the one guard (issue 28, item 3): each GET route under ``/desk``
answers an anonymous browser 401 with the login form, and the director 200 or a refusal in
words, never a crash; the public pages need no token."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.routing import Route
    from starlette.testclient import TestClient

from goledger import commands
from goledger.web import create_app

TOKEN = "director-token-for-route-tests"


def _routes(app: object) -> list[Route]:
    inner = app
    while not hasattr(inner, "routes"):  # DeskGuard → language middleware → Starlette
        inner = inner.app  # type: ignore[attr-defined]
    return [r for r in inner.routes if isinstance(r, Route)]  # type: ignore[attr-defined]


def _path(route: Route) -> str:
    return re.sub(r"\{[^}]+\}", lambda m: "opengotha" if m.group(0) == "{fmt}" else "1", route.path)


@pytest.fixture
def desk(tmp_path: Path) -> TestClient:
    db = tmp_path / "routes.db"
    commands.new(db, "Route Cup", 2, "mcmahon", "3d", "20k", None, None, "7.5")
    for name in ("Ito", "Sato"):
        commands.register(db, name, "X", "1k")
    commands.pair(db, 1, "p0001", "p0002", 1, 0)
    return TestClient(create_app(db, TOKEN))


def test_every_desk_page_needs_the_director_and_only_the_director(desk: TestClient) -> None:
    pages = [r for r in _routes(desk.app) if r.path.startswith("/desk") and "GET" in (r.methods or ())]
    assert len(pages) >= 18, [r.path for r in pages]
    for route in pages:
        anonymous = desk.get(_path(route), follow_redirects=False)
        assert anonymous.status_code == 401 and 'id="token"' in anonymous.text, (route.path, anonymous.status_code)
    login = desk.post("/login", data={"token": TOKEN, "next": "/desk",
                                      "csrf": re.search(r'name="csrf" value="([^"]+)"',
                                                        desk.get("/login").text).group(1)},  # type: ignore[union-attr]
                      follow_redirects=False)
    assert login.status_code == 303
    for route in pages:
        seen = desk.get(_path(route), follow_redirects=False)
        assert seen.status_code in (200, 303, 400, 404), (route.path, seen.status_code)


def test_the_public_pages_need_no_token(desk: TestClient) -> None:
    for path in ("/", "/standings", "/player/p0001", "/find?q=ito", "/api/find?q=ito", "/api/standings",
                 "/api/pairings", "/print/pairings/1", "/print/slips/1", "/print/players", "/print/wall", "/teams"):
        assert desk.get(path).status_code in (200, 400), path


def test_refusals_reach_the_page_through_the_exception_handler(desk: TestClient) -> None:
    """A library refusal raised by any route is a 400 page (JSON under /api/) in its own words;
    a form with a wrong CSRF token is 403."""
    api = desk.get("/api/pairings?round=9")
    assert api.status_code == 400 and "outside 1..2" in api.json()["error"]
    page = desk.get("/print/pairings/9")
    assert page.status_code == 400 and "outside 1..2" in page.text and "<html" in page.text
    bad = desk.get("/api/standings?round=x")
    assert bad.status_code == 400 and "whole number" in bad.json()["error"]
    form = desk.post("/login", data={"token": TOKEN, "csrf": "not-this-one"}, follow_redirects=False)
    assert form.status_code == 403 and "CSRF" in form.text
