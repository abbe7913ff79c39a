"""The what-if's ``--without`` (issue 27, §3: every number bounded as text before parsing): one
parser, :func:`goledger.audit.queries.parse_without`, for the command line (exit 1, one
sentence, at once, nothing written) and the desk (400 with the sentence, at once, the desk
answering meanwhile), over its declared domain: event sequence numbers from 1, ranges A-B
with A <= B, at most 100,000 events."""

from __future__ import annotations

import json
import time
import urllib.parse
from pathlib import Path

import pytest

from goledger import commands

from ..conftest import run_cli
from ..desk_server import TOKEN, DeskServer

HOSTILE = [
    ("1e999999999", "is not an event sequence number"),
    ("1-99999999999999999", "at most 100,000 events"),
    ("1-" + "9" * 40, "is not an event sequence number"),
    ("1-60000,1-60000", "at most 100,000 events"),  # counted over the whole list, not per range
    ("5-2", "is not an event sequence number or a range"),
    ("0", "numbered from 1"),
    ("0-3", "numbered from 1"),
    ("-3", "is not an event sequence number"),
    ("+3", "is not an event sequence number"),
    ("٣", "is not an event sequence number"),  # an Arabic-Indic digit: isdigit() but not ASCII
    ("²", "is not an event sequence number"),
    ("3-", "is not an event sequence number"),
    ("nan", "is not an event sequence number"),
]


@pytest.fixture
def cup(tmp_path: Path) -> Path:
    db = tmp_path / "t.db"
    commands.new(db, "What-if Cup", 3)
    for surname, rank in (("Sato", "2d"), ("Ito", "1k")):
        commands.register(db, surname, "", rank)
    return db


@pytest.mark.parametrize(("without", "says"), HOSTILE, ids=[w[:20] for w, _ in HOSTILE])
def test_the_command_line_refuses_a_hostile_without_at_once(cup: Path, without: str, says: str) -> None:
    before = cup.read_bytes()
    start = time.monotonic()
    done = run_cli("what-if", "--db", cup, "--without", without, timeout=20)
    assert done.code == 1 and done.err.startswith("error: without:") and says in done.err, done
    assert done.err.count("\n") == 1 and "Traceback" not in done.err
    assert time.monotonic() - start < 20 and cup.read_bytes() == before
    as_json = run_cli("what-if", "--db", cup, "--without", without, "--json", timeout=20)
    assert as_json.code == 1 and json.loads(as_json.err)["code"] == "rejected", as_json


def test_the_command_line_still_takes_a_list_and_refuses_events_the_ledger_lacks(cup: Path) -> None:
    done = run_cli("what-if", "--db", cup, "--without", "3, 2-3", "--json")
    assert done.code == 0 and json.loads(done.out)["without"] == [2, 3], done
    done = run_cli("what-if", "--db", cup, "--without", "1-100000")
    assert done.code == 1 and "outside the ledger's events 1..3" in done.err, done


def test_the_desk_refuses_a_hostile_without_with_a_sentence(cup: Path) -> None:
    director = {"Authorization": f"Bearer {TOKEN}"}
    with DeskServer(cup) as desk:
        for without, says in HOSTILE:
            query = urllib.parse.urlencode({"view": "what-if", "without": without})
            status, text, seconds = desk.get(f"/desk/audit?{query}", headers=director, timeout=20)
            assert status == 400 and "without" in text and says in text, (without, status, text[:300])
            assert seconds < 5, (without, seconds)
            assert desk.get("/api/head")[0] == 200
        status, text, _ = desk.get("/desk/audit?view=what-if&without=2-3", headers=director)
        assert status == 200, text[:300]
