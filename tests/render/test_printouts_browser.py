"""The printouts' HTML pages in a real headless Chromium (issue 20: "the HTML pages are checked
in a real headless browser by a screenshot test").

Each self-contained page the CLI writes — wall list, pairing list, player list, crosstable,
standings and the audit report — is opened from a file, on screen and with print media
emulated, screenshotted and checked: it renders the tournament's title and its rows, loads
nothing from the network (every request is counted), and the print stylesheet hides nothing
that a printed wall list needs. Skips where Debian's ``/usr/bin/chromium`` is missing (CI
installs it).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.conftest import run_cli

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (/usr/bin/chromium)")
playwright_api = pytest.importorskip("playwright.async_api")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

PAGES: dict[str, list[str]] = {
    "wall": ["wall-list", "--format", "html"],
    "pairings": ["pairings", "--round", "2", "--format", "html"],
    "players": ["players", "--format", "html"],
    "crosstable": ["crosstable", "--format", "html"],
    "standings": ["standings", "--format", "html"],
}


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A small McMahon paired by pair-round with a withdrawal and a handicap game, and every
    printout written to a file."""
    folder = tmp_path_factory.mktemp("printouts")
    db = folder / "cup.db"
    steps = [["new", "--name", "Spring Cup", "--rounds", "3", "--bar", "2d", "--floor", "15k"]]
    for surname, rank in [("Sato", "3d"), ("Müller", "2d"), ("García", "1k"), ("Novák", "3k"), ("Dubois", "5k"),
                          ("Rossi", "8k"), ("Nagy", "10k"), ("Kim", "12k")]:
        steps.append(["register", "--surname", surname, "--first-name", "A", "--rank", rank])
    for round_ in (1, 2):
        steps.append(["pair-round", str(round_)])
        steps += [["result", "--round", str(round_), "--table", str(t), "white" if t % 2 else "black"]
                  for t in range(1, 5)]
    steps.append(["withdraw", "Rossi", "--from-round", "3", "--reason", "ill"])
    for words in steps:
        got = run_cli(*words, "--db", db)
        assert got.code == 0, (words, got.err)
    out: dict[str, Path] = {}
    for name, words in PAGES.items():
        got = run_cli(*words, "--db", db)
        assert got.code == 0, (words, got.err)
        out[name] = folder / f"{name}.html"
        out[name].write_text(got.out, encoding="utf-8")
    report = folder / "report.html"
    got = run_cli("report", "--html", report, "--db", db)
    assert got.code == 0, got.err
    out["report"] = report
    return out


async def _render(path: Path, media: str, shot: Path) -> tuple[str, str, int]:
    async with playwright_api.async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = await browser.new_page(viewport={"width": 1000, "height": 1400})
            requests: list[str] = []
            page.on("request", lambda r: requests.append(r.url))
            await page.emulate_media(media=media)  # type: ignore[arg-type]
            await page.goto(path.as_uri())
            await page.screenshot(path=str(shot), full_page=True)
            title = await page.title()
            text = await page.inner_text("body")
            outside = [u for u in requests if not u.startswith(("file:", "data:", "about:"))]
            return title, text, len(outside)
        finally:
            await browser.close()


@pytest.mark.parametrize("media", ["screen", "print"])
@pytest.mark.parametrize("name", [*PAGES, "report"])
def test_the_page_renders_its_tournament_offline(pages: dict[str, Path], name: str, media: str,
                                                 tmp_path: Path) -> None:
    shot = tmp_path / f"{name}-{media}.png"
    title, text, outside = asyncio.run(_render(pages[name], media, shot))
    assert outside == 0, "a printout loads nothing from the network"
    assert "Spring Cup" in title + text
    assert "Müller" in text and "Sato" in text, text[:500]
    assert shot.stat().st_size > 10_000  # a rendered page, not a blank one
    if name == "wall":
        assert "withdrawn from round 3" in text
