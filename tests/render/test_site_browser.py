"""A results site (``goledger site``) browsed offline in a real headless Chromium from
``file://`` (issue 47, item 4): every request the pages make is refused unless it is a file of
the site, and the browser follows the links from the root to the standings, a round, the
players, the crosstable and another language."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from ..conftest import run_cli
from .test_site import _cup

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("/usr/bin/chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.async_api")

from playwright.async_api import async_playwright  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


async def _browse(root: Path) -> dict[str, object]:
    seen: dict[str, object] = {"outside": []}
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        context = await browser.new_context(offline=True)

        async def guard(route: object) -> None:
            url = route.request.url  # type: ignore[attr-defined]
            if url.startswith(root.as_uri()):
                await route.continue_()  # type: ignore[attr-defined]
            else:
                seen["outside"].append(url)  # type: ignore[attr-defined]
                await route.abort()  # type: ignore[attr-defined]

        await context.route("**/*", guard)
        page = await context.new_page()
        await page.goto((root / "index.html").as_uri())
        seen["languages"] = await page.locator("#site-languages a").all_inner_texts()
        await page.click("#site-languages a[hreflang=en]")
        await page.click("#site-pages a[href='standings.html']")
        seen["standings_url"] = page.url
        seen["first"] = await page.locator("table tbody tr").first.inner_text()
        seen["footer"] = await page.locator("footer.site-head").inner_text()
        await page.click("nav.site-nav a[href='round-1.html']")
        seen["round"] = await page.locator("table tbody tr").first.inner_text()
        await page.click("nav.site-nav a[href='players.html']")
        seen["players"] = await page.locator("table tbody tr").count()
        await page.click("nav.site-nav a[href='crosstable.html']")
        seen["cross_title"] = await page.locator("h1").inner_text()
        await page.click("nav.site-nav a[hreflang=fr]")
        seen["fr_url"] = page.url
        seen["fr_title"] = await page.locator("h1").inner_text()
        seen["fr_lang"] = await page.locator("html").get_attribute("lang")
        await browser.close()
    return seen


def test_the_site_is_browsed_offline_from_file_urls(tmp_path: Path) -> None:
    db = _cup(tmp_path)
    assert run_cli("site", "web", "--db", db, cwd=tmp_path).code == 0
    last = json.loads(run_cli("log", "--db", db, "--json", cwd=tmp_path).out)[-1]
    seen = asyncio.run(_browse(tmp_path / "web"))
    assert seen["outside"] == []
    assert seen["languages"] == ["English", "Türkçe", "Magyar", "Français", "Deutsch"]
    assert str(seen["standings_url"]).endswith("/web/en/standings.html")
    assert "Sato Ken" in str(seen["first"])
    assert f"event {last['seq']}, hash {last['hash']}" in str(seen["footer"])
    assert "Sato Ken" in str(seen["round"]) and "Müller Jan" in str(seen["round"])
    assert seen["players"] == 4
    assert "crosstable" in str(seen["cross_title"]).lower()
    assert str(seen["fr_url"]).endswith("/web/fr/crosstable.html") and seen["fr_lang"] == "fr"
    assert "grille après la ronde 1" in str(seen["fr_title"])
