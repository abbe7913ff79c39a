"""Result slips that fit the longest names and fill their sheet (issue 44, item 5), in Chromium's
print media at A4's printable width: 4 to a sheet are full-width strips one above the other, 8
are two columns of four. The field is the longest names of EGC 2011 (760 players) when
``../shared`` is here, with the names the native review saw cut ("Karaerkek Ker…"): every name
is shown whole (nothing cut or hidden, each word's boxes on one line), each slip's content spans
at least three quarters of its height, and the slips cover the sheet's height. Skips without
Debian's ``/usr/bin/chromium``, as :mod:`tests.render.test_printouts_print` (whose helpers it uses)."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

import pytest

from goledger import commands

from ..phone_support import field
from .test_printouts_print import ARGS, CHROMIUM, MM, _write, pdf_pages, playwright_api

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (/usr/bin/chromium)")

MEASURE = """() => {
  const names = [...document.querySelectorAll('.slip-name')].filter(td => td.textContent.trim());
  const cut = [], broken = [];
  for (const td of names) {
    const hidden = getComputedStyle(td).textOverflow === 'ellipsis';
    if (td.scrollWidth > td.clientWidth + 1 || hidden) cut.push(td.textContent);
    const text = td.firstChild;
    for (const m of text.data.matchAll(/[^\\s-]+/g)) {
      const range = document.createRange();
      range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
  }
  const spans = [];
  for (const slip of document.querySelectorAll('.slips:first-of-type .slip')) {
    const box = slip.getBoundingClientRect(), kids = [...slip.children].map(k => k.getBoundingClientRect());
    const style = getComputedStyle(slip);
    const inner = box.height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    spans.push((Math.max(...kids.map(k => k.bottom)) - Math.min(...kids.map(k => k.top))) / inner);
  }
  const sheet = document.querySelector('.slips').getBoundingClientRect();
  const first = [...document.querySelectorAll('.slips:first-of-type .slip')];
  const rows = new Set(first.map(s => Math.round(s.getBoundingClientRect().top)));
  const covered = [...rows].length * document.querySelector('.slip').getBoundingClientRect().height / sheet.height;
  return {names: names.length, cut, broken, spans, covered, width: document.documentElement.scrollWidth,
          viewport: window.innerWidth};
}"""


async def _measure(path: Path) -> tuple[bytes, dict]:
    async with playwright_api.async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = await browser.new_page(viewport={"width": round(194 * MM), "height": round(281 * MM)})
            await page.goto(path.as_uri())
            await page.emulate_media(media="print")
            facts = await page.evaluate(MEASURE)
            return await page.pdf(prefer_css_page_size=True, print_background=False), facts
        finally:
            await browser.close()


@pytest.mark.parametrize("per_page", [4, 8])
def test_slips_show_the_longest_names_whole_and_fill_the_sheet(tmp_path: Path, per_page: int) -> None:
    db = tmp_path / "slips.db"
    commands.new(db, "Avrupa Go Kongresi", 1, "mcmahon", "3d", "20k", None, None, "6.5", language="tr")
    names = field(10)
    names = names[: len(names) // 2 * 2]
    for surname, first, _ in names:
        commands.register(db, surname, first, "5k", force=True)
    tables = len(names) // 2
    for t in range(1, tables + 1):
        commands.pair(db, 1, f"p{2 * t - 1:04d}", f"p{2 * t:04d}", t, 0)
    page = _write(tmp_path, "slips.html", "slips", "-r", "1", "--per-page", str(per_page), "--db", db)
    pdf, facts = asyncio.run(_measure(page))
    assert pdf_pages(pdf) == math.ceil(tables / per_page)
    assert facts["names"] == len(names)
    assert facts["cut"] == [] and facts["broken"] == [], facts
    assert min(facts["spans"]) >= 0.75, facts["spans"]  # no slip three quarters empty
    assert facts["covered"] >= 0.9, facts["covered"]  # the slips fill the sheet's height
    assert facts["width"] <= facts["viewport"]
