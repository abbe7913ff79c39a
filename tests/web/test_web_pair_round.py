"""The desk's "Pair round R" over HTTP on a running ``goledger serve`` (issues 40 and 43.4):
the engine choice, rounds in order (refused with a sentence and a "pair anyway" button), a
round that already has games asks first, a big field with real ratings pairs from the
button, and a pairing failure is a sentence with the other engines offered — never "the
desk failed on this request" nor a bare Internal Server Error."""

from __future__ import annotations

import random
import re
from pathlib import Path

import httpx
import pytest

from goledger import commands
from goledger.commands.recording import record
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.ledger.values import Result
from goledger.replay.loading.load import load_state
from tests.desk_server import TOKEN, DeskServer

RANKS = ["4d", "2d", "1k", "3k", "6k", "9k"]


def head(db: Path) -> int:
    with Ledger.open(db) as ledger:
        return ledger.head().seq


def csrf_of(text: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', text)
    assert found, "the page has no CSRF field"
    return found.group(1)


class Director:
    """A browser logged in to a running desk: ``pair(round, **fields)`` posts the round
    page's pair form as the page gives it (its CSRF token and head)."""

    def __init__(self, desk: DeskServer) -> None:
        self.client = httpx.Client(base_url=desk.url, timeout=120)
        token = csrf_of(self.client.get("/login").text)
        r = self.client.post("/login", data={"csrf": token, "token": TOKEN, "next": "/desk"})
        assert r.status_code == 303, r.text

    def page(self, round_: int, query: str = "") -> httpx.Response:
        return self.client.get(f"/desk/round/{round_}{query}")

    def pair(self, round_: int, **fields: str) -> httpx.Response:
        page = self.page(round_).text
        form = re.search(r'<form method="post" action="/desk/do/pair-round".*?</form>', page, re.S)
        assert form, "the round page has the pair form"
        data = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(0)))
        return self.client.post("/desk/do/pair-round", data={**data, **fields})

    def follow(self, page: str, button: str) -> httpx.Response:
        """Submit the form of ``button`` (an id) on a refusal page."""
        form = re.search(rf'<form method="post" action="(/desk/do/[a-z-]+)"[^>]*>((?:(?!</form>).)*id="{button}"'
                         r'.*?)</form>', page, re.S)
        assert form, f"the page offers #{button}"
        data = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(2)))
        return self.client.post(form.group(1), data=data)


@pytest.fixture
def six(tmp_path: Path) -> Path:
    db = tmp_path / "six.db"
    commands.new(db, "Six", 5, "swiss")
    for k, rank in enumerate(RANKS):
        commands.register(db, f"Player{k}", "Six", rank)
    return db


def play(db: Path, round_: int) -> None:
    """White wins every game of ``round_`` (one transaction: set-up, not under test)."""
    record(db, lambda state: [ev.ResultRecorded(round=round_, table=g.table, result=Result.WHITE)
                              for g in state.games_of_round(round_)], lambda state, events: "results")


def test_rounds_in_order_and_a_paired_round_asks_first(six: Path) -> None:
    with DeskServer(six) as desk:
        director = Director(desk)
        page = director.page(1).text
        assert 'id="pair-engine"' in page and ">opengotha (" in page and ">egf<" in page
        assert director.pair(1, engine="egf").status_code == 303
        state = load_state(Ledger.open(six))
        assert len(state.games_of_round(1)) == 3
        # round 3 before round 2: a sentence and a "pair anyway" button; nothing written
        before = head(six)
        refused = director.pair(3)
        assert refused.status_code == 400 and head(six) == before
        assert "round 3 cannot be paired before round 2: round 2 is not paired yet" in refused.text
        assert "desk failed" not in refused.text and "Internal Server Error" not in refused.text
        # round 2 while round 1 has no result: the tables are named
        missing = director.pair(2)
        assert missing.status_code == 400 and "in round 1, 3 tables (1, 2, 3) have no result" in missing.text
        forced = director.follow(missing.text, "pair-force")
        assert forced.status_code == 303 and len(load_state(Ledger.open(six)).games_of_round(2)) == 3
        # round 2 is fully paired and played: refused in a sentence, no other engine offered
        play(six, 1)
        play(six, 2)
        before = head(six)
        done = director.pair(2)
        assert done.status_code == 400 and head(six) == before
        assert "round 2 is already paired: 3 games (3 played), nobody is left to pair" in done.text
        assert 'id="pair-confirm"' not in done.text and 'id="pair-engine-egf"' not in done.text
        # in order again: round 3 pairs with the engine chosen in the form
        assert director.pair(3, engine="egf").status_code == 303
        assert load_state(Ledger.open(six)).round_pairings.get(3), "round 3 paired by pair-round"
        # a round with games and players left: "Pair round 3" asks first, then pairs the rest
        table = load_state(Ledger.open(six)).games_of_round(3)[-1].table
        commands.unpair(six, 3, table)
        before = head(six)
        asked = director.pair(3)
        assert asked.status_code == 400 and head(six) == before
        assert ("round 3 already has 2 games (0 played); pairing it again pairs only the 2 players still "
                "without a game or bye") in asked.text
        confirmed = director.follow(asked.text, "pair-confirm")
        assert confirmed.status_code == 303 and len(load_state(Ledger.open(six)).games_of_round(3)) == 3


def test_the_api_refuses_out_of_order_and_takes_force(six: Path) -> None:
    import json

    auth = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    with DeskServer(six) as desk:
        before = head(six)
        status, body = desk.post("/api/pair-round", json.dumps({"round": 2}).encode(), auth)
        assert status == 400 and json.loads(body)["code"] == "out-of-order" and head(six) == before
        assert "round 2 cannot be paired before round 1" in json.loads(body)["error"]
        status, body = desk.post("/api/pair-round", json.dumps({"round": 2, "force": "yes"}).encode(), auth)
        assert status == 400 and json.loads(body)["error"] == "force is true or false"
        status, body = desk.post("/api/pair-round", json.dumps({"round": 2, "force": True}).encode(), auth)
        assert status == 200 and len(json.loads(body)["games"]) == 3 and json.loads(body)["note"] == ""


def test_a_failing_preview_is_a_sentence_with_the_other_engine(six: Path) -> None:
    """An engine that refuses (here: opengotha asked for a round whose predecessor is missing is
    refused by the order rule first, so the preview shows that sentence), and the preview links
    of the other engine."""
    with DeskServer(six) as desk:
        director = Director(desk)
        page = director.page(3, "?preview=1")
        assert page.status_code == 200
        assert 'id="preview-error"' in page.text and "round 3 cannot be paired before round 1" in page.text
        assert 'id="preview-egf"' in page.text and "Internal Server Error" not in page.text


@pytest.mark.shared
def test_the_pair_button_pairs_a_760_player_field(tmp_path: Path) -> None:
    from tests.pairing.test_big_field import RESULTS, sample, write_csv

    rng = random.Random(1)
    db = tmp_path / "big.db"
    commands.new(db, "Big Congress", 10, "mcmahon", "4d", "20k", None, None, "7.5")
    from goledger.commands.bulk import register_from_file

    register_from_file(db, write_csv(tmp_path / "players.csv", sample(760, rng)))
    with DeskServer(db, work_timeout=300) as desk:
        director = Director(desk)
        preview = director.page(1, "?preview=1")  # this field's round 1 needs the table fallback
        assert preview.status_code == 200 and 'id="preview-note"' in preview.text
        assert "OpenGotha&#39;s own table sort fails on this round" in preview.text
        for round_ in (1, 2):
            done = director.pair(round_)
            assert done.status_code == 303, done.text[:500]
            shown = director.page(round_).text
            assert f"round {round_} paired by opengotha: 380 games" in shown
            assert "desk failed" not in shown
            record(db, lambda state, r=round_: [ev.ResultRecorded(round=r, table=g.table, result=rng.choice(RESULTS))
                                                for g in state.games_of_round(r)], lambda state, events: "results")
        preview = director.page(3, "?preview=1")
        assert preview.status_code == 200 and 'id="preview-table"' in preview.text


def test_an_engine_failure_is_a_sentence_offering_the_other_engine(six: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that breaks (the ValueError Java's sort contract raised on main) is one
    sentence naming the other engine, in the preview and for the pair button's library call;
    the preview page links the other engine's preview."""
    from goledger.pairing.opengotha.engine import OpenGothaEngine
    from tests.web.test_web import Desk

    def broken(self: object, state: object, request: object) -> None:
        raise ValueError("Comparison method violates its general contract!")

    monkeypatch.setattr(OpenGothaEngine, "pair", broken)
    desk = Desk(six)
    page = desk.client.get("/desk/round/1?preview=1")
    assert page.status_code == 200, page.text[:300]
    assert ("the opengotha engine failed on round 1 (ValueError: Comparison method violates its general contract!); "
            "nothing was written; pair it with another engine (egf)") in page.text
    assert 'id="preview-egf"' in page.text
    other = desk.client.get("/desk/round/1?preview=1&engine=egf")
    assert other.status_code == 200 and 'id="preview-table"' in other.text
    before = head(six)
    with pytest.raises(commands.pairing.EngineFailed, match="pair it with another engine"):
        commands.pair_round(six, 1)
    assert head(six) == before
