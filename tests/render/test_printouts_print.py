"""The printouts of the day in Chromium's print media (issue 32, item 5): result slips make
⌈games / 4⌉ or ⌈games / 8⌉ A4 pages; the wall list of 760 players and 10 rounds prints in
landscape with every name and club on one line and nothing beyond the page's width; the pairing
list by name too. EGC 2011 when ``../shared`` is here (its real names), else a generated
congress of the same size. Skips without Debian's ``/usr/bin/chromium``."""

from __future__ import annotations

import asyncio
import math
import re
from pathlib import Path

import pytest

from goledger import commands

from ..conftest import SHARED, run_cli

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (/usr/bin/chromium)")
playwright_api = pytest.importorskip("playwright.async_api")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
MM = 96 / 25.4
"""CSS pixels per millimetre."""
EGC = "lucvannier_opengotha__egc2011.xml"


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


async def _print(path: Path, width_mm: float) -> tuple[bytes, dict[str, int]]:
    """The page printed to PDF (its own @page size), and in print media at the printable
    width: the document's width and how many never-wrapping cells take more than one line."""
    async with playwright_api.async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = await browser.new_page(viewport={"width": round(width_mm * MM), "height": 1000})
            await page.goto(path.as_uri())
            await page.emulate_media(media="print")
            facts = await page.evaluate("""() => {
                let wrapped = 0, cells = 0;
                for (const td of document.querySelectorAll('td.nowrap, .slip-name')) {
                    if (!td.textContent.trim()) continue;
                    cells += 1;
                    const range = document.createRange(); range.selectNodeContents(td);
                    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                    if (tops.size > 1) wrapped += 1;
                }
                return {width: document.documentElement.scrollWidth, viewport: window.innerWidth, wrapped, cells};
            }""")
            pdf = await page.pdf(prefer_css_page_size=True, print_background=False)
            return pdf, facts
        finally:
            await browser.close()


@pytest.fixture(scope="module")
def congress(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("congress")
    db = folder / "congress.db"
    source = SHARED / "realdata" / "opengotha" / EGC if SHARED is not None else None
    if source is not None and source.exists():
        from goledger.formats.opengotha import import_opengotha

        import_opengotha(source, db)
    else:
        from benchmarks.generate import generate_events, write_ledger

        write_ledger(generate_events(760, 10, 1), db)
    return db


def _write(folder: Path, name: str, *words: str | Path) -> Path:
    got = run_cli(*words)
    assert got.code == 0, (words, got.err)
    path = folder / name
    path.write_text(got.out, encoding="utf-8")
    return path


@pytest.mark.parametrize("per_page", [4, 8])
def test_slips_fill_a4_pages(tmp_path: Path, per_page: int) -> None:
    db = tmp_path / "slips.db"
    commands.new(db, "Slip Cup", 1, "mcmahon", "3d", "20k", None, None, "7.5")
    for i in range(26):
        commands.register(db, f"Surname{i:02d}", "Firstname-Quite-Long", "5k")
    for t in range(1, 14):
        commands.pair(db, 1, f"p{2 * t - 1:04d}", f"p{2 * t:04d}", t, 0)
    page = _write(tmp_path, "slips.html", "slips", "-r", "1", "--per-page", str(per_page), "--db", db)
    pdf, facts = asyncio.run(_print(page, 194))
    assert pdf_pages(pdf) == math.ceil(13 / per_page)
    assert facts["wrapped"] == 0 and facts["cells"] == 26
    assert facts["width"] <= facts["viewport"]


def test_the_wall_list_of_760_players_prints_landscape_on_one_line(congress: Path, tmp_path: Path) -> None:
    page = _write(tmp_path, "wall.html", "wall-list", "-f", "html", "--db", congress)
    pdf, facts = asyncio.run(_print(page, 297 - 20))  # A4 landscape less the 10 mm margins
    assert facts["cells"] >= 760 and facts["wrapped"] == 0, facts
    assert facts["width"] <= facts["viewport"], f"the wall list is wider than the page: {facts}"
    media = re.search(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)", pdf)
    assert media is not None and float(media.group(1)) > float(media.group(2)), "not landscape"
    assert 10 <= pdf_pages(pdf) <= 40


def test_the_pairing_list_by_name_prints_on_one_line(congress: Path, tmp_path: Path) -> None:
    page = _write(tmp_path, "byname.html", "pairings", "-r", "10", "--by", "name", "-f", "html", "--db", congress)
    pdf, facts = asyncio.run(_print(page, 210 - 20))
    assert facts["cells"] >= 400 and facts["wrapped"] == 0, facts
    assert facts["width"] <= facts["viewport"], facts
    assert pdf_pages(pdf) >= 5
