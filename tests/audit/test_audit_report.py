"""`goledger report --html`: one self-contained file holding every player and every event."""

from __future__ import annotations

import shutil
from pathlib import Path

import lxml.html
import pytest

from goledger import commands
from goledger.commands.publish import publish
from goledger.ledger.store import Ledger
from goledger.replay.fold.state import fold
from goledger.replay.scoring.standings import standings

from ..conftest import REPO

SAMPLE = REPO / "samples" / "sample.db"
HOSTILE = '<script>alert("x")</script> & <b>Co</b>'


@pytest.fixture(scope="module")
def sample_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The bundled sample, published after round 5, then corrected, with a late registration
    whose name is markup, and a rule change; and its report."""
    folder = tmp_path_factory.mktemp("report")
    db = folder / "sample.db"
    shutil.copy(SAMPLE, db)
    publish(db, 5, "prize giving")
    commands.correct(db, 5, 3, "black", "appeal")
    commands.register(db, HOSTILE, "Zoë", "12k", club='"quoted" & <club>', force=True)  # a late entry: issue 40, item 6
    commands.change_rules(db, {"mms2_absent": 0}, reason="absences worth nothing")
    html = folder / "report.html"
    from goledger.render.audit_report import report

    summary = report(db, html, top=6)
    # 130 events: the late registration after round 5 comes with its five absences (issue 31)
    assert summary["events"] == 130 and summary["audited"] == 4 and summary["published"] == 1
    return db, html


def test_the_report_needs_no_network_and_no_script(sample_report: tuple[Path, Path]) -> None:
    _, html = sample_report
    raw = html.read_text(encoding="utf-8")
    assert raw.startswith("<!DOCTYPE html>")
    doc = lxml.html.fromstring(raw)
    assert not doc.xpath("//script | //link | //img | //iframe | //object | //embed | //base | //audio | //video")
    assert not doc.xpath("//@src | //@srcset | //@xlink:href", namespaces={"xlink": "http://www.w3.org/1999/xlink"})
    assert all(href.startswith("#") for href in doc.xpath("//@href"))
    for style in doc.xpath("//style/text() | //@style"):
        assert "url(" not in style and "@import" not in style
    assert len(doc.xpath("//meta[@charset='utf-8']")) == 1


def test_every_player_and_every_event_is_in_the_report(sample_report: tuple[Path, Path]) -> None:
    db, html = sample_report
    doc = lxml.html.parse(str(html)).getroot()
    with Ledger.open(db) as ledger:
        records = list(ledger.records())
        state = fold(ledger.events())
    rows = doc.xpath("//table[@id='players-table']/tbody/tr")
    players = {tr.xpath("string(td[1])"): tr.xpath("string(td[2])") for tr in rows}
    assert players == {pid: p.full_name for pid, p in state.players.items()}
    assert f"{HOSTILE} Zoë" in players.values()
    assert not doc.xpath("//script") and not doc.xpath("//td//b")
    log = doc.xpath("//table[@id='event-log']/tbody/tr")
    assert [int(tr.get("data-seq")) for tr in log] == [r.seq for r in records]
    for tr, record in zip(log, records, strict=True):
        assert tr.get("id") == f"event-{record.seq}"
        cells = [td.text_content() for td in tr.xpath("td")]
        assert cells[0] == str(record.seq) and cells[3] == record.type and cells[6] == record.hash
        assert cells[7] == record.payload
        assert tr.xpath("td[7]/@title") == [f"prev {record.prev_hash}"]
    final = standings(state, 5)
    shown = doc.xpath("//table[@id='final-standings']/tbody/tr")
    assert [(tr.xpath("string(td[1])"), tr.xpath("string(td[2])")) for tr in shown] == [
        (str(r.place), r.player_id) for r in final.rows]
    for r in range(1, 6):
        rows = doc.xpath(f"//table[@id='standings-round-{r}']/tbody/tr")
        assert [tr.xpath("string(td[2])") for tr in rows] == [
            row.player_id for row in standings(state, r).rows]


def test_the_chart_and_the_audited_events(sample_report: tuple[Path, Path]) -> None:
    db, html = sample_report
    doc = lxml.html.parse(str(html)).getroot()
    with Ledger.open(db) as ledger:
        records = list(ledger.records())
        state = fold(ledger.events())
    top = [r.player_id for r in standings(state, 5).rows[:6]]
    groups = doc.xpath("//section[@id='chart']//svg/g")
    assert [g.get("data-player") for g in groups] == top
    for g in groups:
        assert len(g.xpath("circle")) == 5 or g.get("data-player") == "p0004"
        assert g.xpath("polyline")
    audited = [r for r in records if r.type in ("PlayerWithdrew", "ResultCorrected", "RulesChanged",
                                                 "PlayerUpdated", "PlayerReinstated")]
    headings = [h.text_content() for h in doc.xpath("//section[@id='audit']/h3")]
    assert len(headings) == len(audited) == 4
    for heading, record in zip(headings, audited, strict=True):
        assert heading.startswith(f"Event {record.seq} {record.type}")
    section = doc.xpath("//section[@id='audit']")[0].text_content()
    assert "Yilmaz Elif withdraws from round 4" in section
    published = doc.xpath("//section[@id='published']")[0].text_content()
    assert "reproduced from events 1..121" in published and "as corrected now" in published


def test_cli_report(cli, tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    shutil.copy(SAMPLE, db)
    out = tmp_path / "r.html"
    res = cli("report", "--db", db, "--html", out)
    assert res.code == 0, res.err
    assert "20 players, 5 rounds, 121 events, 2 audited change(s)" in res.out
    doc = lxml.html.parse(str(out)).getroot()
    assert doc.xpath("//h1")[0].text_content() == "Audit report: goledger Sample Open"
    assert [th.text_content() for th in doc.xpath("//table[@id='final-standings']/thead/tr/th")][4:] == [
        "MMS", "SOSM", "SOSOSM"]
    res = cli("report", "--db", db, "--html", out, "--criteria", "MMS,NBW", "--policy", "egf", "--json", "--force")
    assert res.code == 0 and '"audited": 2' in res.out
    doc = lxml.html.parse(str(out)).getroot()
    assert [th.text_content() for th in doc.xpath("//table[@id='final-standings']/thead/tr/th")][4:] == [
        "MMS", "NBW"]
    res = cli("report", "--db", db, "--html", tmp_path / "missing" / "r.html", "--criteria", "MMS")
    assert res.code == 1 and "folder" in res.err and "does not exist" in res.err
