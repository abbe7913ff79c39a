"""`goledger change-rules KEY=VALUE…` (the CLI of ``commands.change_rules``) and
`goledger standings --format html`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from lxml import html

from goledger.ledger.store import Ledger

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "sample.db"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "sample.db"
    shutil.copy(SAMPLE, path)
    return path


def _count(db: Path) -> int:
    with Ledger.open(db) as ledger:
        return ledger.head().seq


def test_change_rules_records_one_event_that_the_standings_follow(db: Path, cli) -> None:
    before = _count(db)
    done = cli("change-rules", "policy=egf", "criteria=MMS, SOSM", "mms2_absent=0", "--reason", "EGF rules",
               "--db", db, "--json")
    assert done.code == 0, done.err
    recorded = json.loads(done.out)["events"]
    assert [e["type"] for e in recorded] == ["RulesChanged"] and recorded[0]["reason"] == "EGF rules"
    assert recorded[0]["payload"]["changes"] == {"policy": "egf", "criteria": ["MMS", "SOSM"], "mms2_absent": 0}
    assert _count(db) == before + 1
    shown = json.loads(cli("standings", "--db", db, "--json").out)
    assert shown["policy"] == "egf" and shown["criteria"] == ["MMS", "SOSM"]
    later = cli("change-rules", "mm_bar=5d", "--from-round", "4", "--db", db)
    assert later.code == 0 and "rules changed from round 4: mm_bar" in later.out


@pytest.mark.parametrize(("words", "code", "message"), [
    (["policy=opengotha"], 1, "these settings already have these values; nothing to change"),
    (["colour=blue"], 1, "unknown setting 'colour'; `goledger settings` lists every setting"),
    (["rounds=many"], 1, "rounds 'many' is not a valid value (Expected `int`, got `str` - at `$.rounds`)"),
    (["policy=nonesuch"], 1, "nonesuch"),
    (["policy=egf", "--from-round", "9"], 1, "round 9"),
    (["policy"], 2, "'policy': write each setting as KEY=VALUE"),
])
def test_change_rules_refusals_write_nothing(db: Path, cli, words: list[str], code: int, message: str) -> None:
    before = db.read_bytes()
    refused = cli("change-rules", *words, "--db", db)
    assert refused.code == code and message in refused.err, refused
    assert db.read_bytes() == before


def test_standings_as_a_self_contained_html_page(db: Path, cli) -> None:
    shown = cli("standings", "--db", db, "--format", "html")
    assert shown.code == 0, shown.err
    page = html.fromstring(shown.out.encode("utf-8"))
    rows = page.xpath("//table[@id='standings']/tbody/tr")
    as_json = json.loads(cli("standings", "--db", db, "--json").out)
    assert [r.xpath("td")[1].text for r in rows] == [r["player_id"] for r in as_json["rows"]]
    assert page.xpath("//th/text()")[4:] == as_json["criteria"]
    assert not page.xpath("//*[@src] | //link | //script")
