"""The places page of a knockout (``goledger standings --format html``) from the one HTML
renderer (issue 28, item 4: Jinja2 with autoescaping): the same table as the places' JSON,
row by row, names escaped, in the tournament's language."""

from __future__ import annotations

import json
from pathlib import Path

from lxml import html

from goledger import commands as rec

from ..conftest import run_cli
from ..systems_support import new_event, play_out


def test_places_page_is_the_places_table(tmp_path: Path) -> None:
    db = new_event(tmp_path, "knockout", 6, None)
    rec.register(db, "<script>alert(1)</script>", "Evil", "1k")  # registered after the draw: not placed
    play_out(db, max_rounds=2)
    data = json.loads(run_cli("standings", "--json", "--db", db).out)
    page = run_cli("standings", "--format", "html", "--db", db)
    assert page.code == 0, page.err
    assert "<script>" not in page.out
    root = html.fromstring(page.out)
    assert root.get("lang") == "en" and root.findtext(".//h1") == "Places" == root.findtext(".//title")
    cells = [[td.text_content() for td in tr.findall("td")] for tr in root.findall(".//table[@id='places']/tbody/tr")]
    assert cells == [["in" if r["active"] else ("=" if r["shared"] else "") + str(r["place"]), r["player_id"],
                      r["name"], r["why"]] for r in data["rows"]]
    assert [p.text_content() for p in root.findall("body/p")][1:] == data["notes"]
    assert run_cli("change-rules", "language=de", "--db", db).code == 0
    german = html.fromstring(run_cli("standings", "--format", "html", "--db", db).out)
    assert german.get("lang") == "de" and german.findtext(".//h1") == "Plätze"
    assert [th.text for th in german.findall(".//th")] == ["Platz", "ID", "Name", "Grund"]
