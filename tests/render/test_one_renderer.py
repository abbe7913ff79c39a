"""One HTML renderer, one stylesheet (issue 28, item 4): no module of ``goledger/render`` or
``goledger/web`` builds HTML with lxml (its builder, its trees, its serializer: lxml stays for the
XML formats); every self-contained page carries the one stylesheet
(``render/templates/goledger.css``) and no Python module holds CSS of its own; the desk's print
pages, fetched over HTTP from a running server, are the bytes the command line writes for the
same printout, with the print button the printed page hides."""

from __future__ import annotations

import ast
import re
import socket
import threading
import time
import urllib.request
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from lxml import html

from goledger import commands

from ..conftest import REPO, run_cli

PACKAGE = REPO / "goledger"


def _imported(path: Path) -> set[str]:
    """Every module ``path`` imports, inside functions and under ``TYPE_CHECKING`` too."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
    return out


def _modules(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (PACKAGE / folder).rglob("*.py"))


def test_no_module_of_render_or_web_writes_html_with_lxml() -> None:
    found = {}
    for path in _modules("render", "web"):
        name = path.relative_to(REPO).as_posix()
        lxml = sorted(m for m in _imported(path) if m == "lxml" or m.startswith("lxml."))
        if lxml:
            found[name] = lxml
    assert not found, f"HTML is written by the templates of goledger/render/html.py, not lxml: {found}"
    serializing = re.compile(r"\betree\.|html\.builder|\bE\.[A-Z]+\(|tostring\(")
    assert not [p for p in _modules("render", "web") if serializing.search(p.read_text(encoding="utf-8"))]


def test_the_one_stylesheet_is_the_only_css_of_the_self_contained_pages() -> None:
    templates = PACKAGE / "render" / "templates"
    styles = {p.name: re.findall(r"<style.*?</style>", p.read_text(encoding="utf-8"), re.S)
              for p in templates.glob("*.html")}
    styles = {name: found for name, found in styles.items() if found}
    assert {"page.html", "report_page.html"} <= set(styles), "the two skeletons (printouts, reports)"
    assert all(found == ['<style>{% include "goledger.css" %}</style>'] for found in styles.values()), styles
    css_in_python = [p.relative_to(REPO).as_posix() for p in _modules("render", "web", "cli")
                     if re.search(r"@media print|@page|font-family:", p.read_text(encoding="utf-8"))]
    assert not css_in_python, css_in_python


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("one") / "day.db"
    commands.new(db, 'Cup <b>"&"</b>', 3, "mcmahon", "3d", "20k", None, None, "6.5")
    for i, name in enumerate(("Sato", "<script>alert(1)</script>", "O'Neil & Sons", "Ito", "Abe")):
        commands.register(db, name, "Ken", f"{i + 1}k", "JP", "<club>")
    commands.pair(db, 1, "p0001", "p0002", 1, 0)
    commands.pair(db, 1, "p0003", "p0004", 2, 2)
    commands.result(db, 1, 1, "white")
    return db


def _style(page: bytes) -> str:
    return str(html.fromstring(page).findtext(".//style"))


def test_every_page_carries_the_same_stylesheet(day: Path, tmp_path: Path) -> None:
    from goledger.render.html import stylesheet

    portrait = stylesheet()
    assert "@media print" in portrait and "svg text" in portrait
    assert "A4 landscape" in stylesheet("landscape") and "margin: 8mm" in stylesheet("slips")
    for words, paper in ((["pairings", "-r", "1", "-f", "html"], "portrait"), (["slips", "-r", "1"], "slips")):
        got = run_cli(*words, "--db", day)
        assert got.code == 0, got.err
        assert _style(got.out.encode()) == stylesheet(paper), words
    ko = tmp_path / "ko.db"
    commands.new(ko, "KO", None, "knockout")
    for name in ("A", "B", "C", "D"):
        commands.register(ko, name, "X", "1d")
    for words in (["bracket", "-f", "html"], ["standings", "-f", "html"]):
        got = run_cli(*words, "--db", ko)
        assert got.code == 0, got.err
        assert _style(got.out.encode()) == portrait, words


class _Served:
    """``goledger serve``'s app under uvicorn on 127.0.0.1, in a thread."""

    def __init__(self, db: Path) -> None:
        uvicorn = pytest.importorskip("uvicorn")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from goledger.web import create_app
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        self.url = f"http://127.0.0.1:{port}"
        self.server = uvicorn.Server(uvicorn.Config(create_app(db, "one-renderer-token", lifetime=20),
                                                    host="127.0.0.1", port=port, log_level="warning",
                                                    lifespan="off", timeout_graceful_shutdown=1))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> _Served:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "uvicorn did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def served(day: Path) -> Iterator[_Served]:
    pytest.importorskip("starlette")
    with _Served(day) as running:
        yield running


@pytest.mark.parametrize(("url", "words"), [
    ("/print/pairings/1", ["pairings", "-r", "1", "-f", "html"]),
    ("/print/pairings/1?by=name", ["pairings", "-r", "1", "--by", "name", "-f", "html"]),
    ("/print/slips/1?per_page=8", ["slips", "-r", "1", "--per-page", "8"]),
    ("/print/wall?round=1", ["wall-list", "-r", "1", "-f", "html"]),
    ("/print/players", ["players", "-f", "html"]),
])
def test_a_desk_print_page_is_the_command_lines_page(served: _Served, day: Path, url: str,
                                                      words: list[str]) -> None:
    from goledger.web.print_pages import print_button

    with urllib.request.urlopen(served.url + url, timeout=10) as r:
        desk = r.read()
    cli = run_cli(*words, "--db", day)
    assert cli.code == 0, cli.err
    button = print_button()
    assert desk.count(button) == 1 and desk.replace(button, b"", 1) == cli.out.encode()
    assert b"<script>alert" not in desk and b"&lt;script&gt;alert(1)&lt;/script&gt;" in desk
    # the button is not printed: its class is hidden by the stylesheet's print rules
    hidden = re.search(r"@media print \{.*?\n  nav, \.no-print \{ display: none; \}", _style(desk), re.S)
    assert hidden and button.startswith(b'<p class="no-print">')
