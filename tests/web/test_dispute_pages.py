"""The desk's dispute pages (issue 42) through the ASGI app: public timeline and what-if for a
player and for a director, the desk's what-if behind the director's login and linked from
every log row and the audit views, the dispute sheet printout (the CLI's bytes and a print
button), the raw JSON closed and with names unescaped, and every page in Turkish."""

from __future__ import annotations

import re
import shutil
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():  # Starlette 1.x suggests httpx2; httpx is what the test client uses here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from goledger import commands
from goledger.audit.disputes import dispute_sheet
from goledger.i18n import use_language
from goledger.render.dispute_sheet import render_html
from goledger.web import create_app
from goledger.web.timeline_pages import without_free_texts

from .test_web import TOKEN, Desk

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def club_copy(tmp_path: Path, club: tuple[Path, dict[str, int]]) -> tuple[Path, dict[str, int]]:
    path, notable = club
    copy = tmp_path / "club.db"
    shutil.copy(path, copy)
    commands.update_player(copy, "p0002", surname="Szűcs", first_name="Róbert", actor="td")
    return copy, notable


def test_a_player_reaches_the_what_if_from_his_timeline(club_copy: tuple[Path, dict[str, int]]) -> None:
    db, notable = club_copy
    seq = notable["withdrawal"]
    anon = TestClient(create_app(db, TOKEN))
    page = anon.get("/player/p0002")
    assert 'href="/player/p0002/timeline"' in page.text
    line = anon.get("/player/p0002/timeline")
    assert line.status_code == 200
    assert f'href="/player/p0002/what-if/{seq}"' in line.text and "Szűcs Róbert" in line.text
    assert "<details>" in line.text and "<details open" not in line.text
    assert "\\u" not in line.text  # names unescaped in the raw JSON
    what = anon.get(f"/player/p0002/what-if/{seq}")
    assert what.status_code == 200
    assert 'class="num changed"' in what.text and 'id="verdict"' in what.text
    assert f'href="/print/dispute-sheet/p0002/{seq}"' in what.text
    tr = anon.get(f"/player/p0002/what-if/{seq}?lang=tr")
    assert "Bu olmasaydı ne olurdu?" in tr.text and "turnuvadan çekilmişti" in tr.text
    sheet = anon.get(f"/print/dispute-sheet/p0002/{seq}?lang=hu")
    assert sheet.status_code == 200 and "data-print" in sheet.text
    with use_language("hu"):
        cli_sheet = dispute_sheet(db, "p0002", seq)
        assert cli_sheet.what_if.reason == "called away"
        without_free_texts(cli_sheet.what_if)  # the players' view shows no director's free text
        cli_bytes = render_html(cli_sheet)
    assert sheet.content.replace(re.search(rb'<p class="no-print">.*?</script>\n?', sheet.content, re.S)
                                 .group(0), b"") == cli_bytes  # type: ignore[union-attr]
    for text in (line.text, what.text, tr.text, sheet.text):
        assert "called away" not in text and "test" not in re.sub(r"<[^>]*>", "", text).split()
    assert anon.get("/player/nobody/timeline").status_code in (400, 404)
    # the players' view computes the what-if of no event a timeline does not show
    for url in ("/player/p0002/what-if/5", "/print/dispute-sheet/p0002/5", "/player/p0002/what-if/0",
                "/player/p0002/what-if/99999999999999999999999", "/player/p0002/what-if/" + "9" * 5000):
        refused = anon.get(url)
        assert refused.status_code == 400, url
        # in Hungarian: the ?lang=hu above is kept in the reader's cookie (issue 44: refusals are catalog messages)
        assert any(why in refused.text for why in ("idővonalán", "kívül esik", "whole number", "egész szám")), url
    assert anon.get(f"/desk/what-if/{seq}").status_code == 401


def test_the_director_has_a_what_if_on_every_log_row_and_audit_page(club_copy: tuple[Path, dict[str, int]]) -> None:
    db, notable = club_copy
    desk = Desk(db)
    log = desk.page("/desk/log").text
    assert f'href="/desk/what-if/{notable["withdrawal"]}"' in log and 'href="/desk/what-if/2"' in log
    page = desk.page(f"/desk/what-if/{notable['correction']}").text
    assert "result corrected" in page and 'id="what-if"' in page
    history = desk.page("/desk/audit?view=history&player=p0002").text
    assert f'href="/desk/what-if/{notable["withdrawal"]}"' in history
    assert "<details open" not in history and "Szűcs" in history.split('id="audit-json"')[1]
    diff = desk.page(f"/desk/audit?view=diff&from={notable['withdrawal'] - 1}").text
    assert f'href="/desk/what-if/{notable["withdrawal"]}"' in diff
    # the desk's explain page: his name in the question, opponents by name, no formula or spec
    # reference on the page, its JSON closed and with names as they are
    explained = desk.page("/desk/explain?player=p0002").text
    assert re.search(r"<h1>Why is Szűcs Róbert at place \d+\?</h1>", explained)
    shown = explained.split('id="explain-json"')[0]
    assert "§" not in shown and "clamp(" not in shown and "<td>Abe Jo</td>" in shown
    assert "Szűcs" in explained.split('id="explain-json"')[1] and "\\u0171" not in explained
        # a director's own requests of the public pages are computed for him, with who and why
    assert "called away" in desk.page(f"/player/p0002/what-if/{notable['withdrawal']}").text
    assert "called away" in desk.page("/player/p0002/timeline").text
    assert "called away" in desk.page(f"/print/dispute-sheet/p0002/{notable['withdrawal']}").text
