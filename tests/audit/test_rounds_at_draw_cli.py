"""The audits of a tournament whose round count is set at the draw (``new`` without
``--rounds``, issue 29): before the draw the ledger holds one round, so an audit that looks at
every point of the log at the round of its end refused with "round 3 is outside 1..1".
Through the commands a director types, in subprocesses: ``history``, ``diff`` and ``report``
answer, and say what the audits of the same tournament created with ``--rounds`` say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from goledger import commands as record
from goledger.audit import queries
from goledger.commands import pairing

PLAYERS = [("Ali", "Veli", "3d"), ("Berg", "Anna", "1k"), ("Chen", "Li", "5k"), ("Dias", "Rui", "10k")]


def _results(db: Path, round_: int) -> None:
    for table in (1, 2):
        record.result(db, round_, table, "white")


@pytest.fixture
def ledgers(cli, tmp_path: Path) -> tuple[Path, Path]:  # type: ignore[no-untyped-def]
    """A round robin of four, three rounds paired and played (white wins): created by ``new``
    without ``--rounds`` and paired by ``pair-round`` through the CLI; and the same
    tournament created with ``--rounds 3``, through the library."""
    at_draw, fixed = tmp_path / "draw.db", tmp_path / "fixed.db"
    (tmp_path / "players.csv").write_text("surname,first_name,rank\n" + "".join(
        f"{s},{f},{r}\n" for s, f, r in PLAYERS), encoding="utf-8")
    for args in (["new", "--name", "Draw Cup", "--system", "round-robin"],
                 ["register", "--from-file", tmp_path / "players.csv"]):
        result = cli(*args, "--db", at_draw)
        assert result.code == 0, result
    record.new(fixed, "Draw Cup", 3, system="round-robin")
    for surname, first, rank in PLAYERS:
        record.register(fixed, surname, first, rank)
    for r in (1, 2, 3):
        result = cli("pair-round", str(r), "--db", at_draw)
        assert result.code == 0, result
        _results(at_draw, r)
        pairing.pair_round(fixed, r)
        _results(fixed, r)
    return at_draw, fixed


def test_the_audits_answer_when_the_rounds_are_set_at_the_draw(cli, ledgers: tuple[Path, Path],  # type: ignore[no-untyped-def]
                                                               tmp_path: Path) -> None:
    at_draw, fixed = ledgers
    result = cli("history", "p0001", "--db", at_draw, "--json")
    assert result.code == 0, result
    draw, plain = json.loads(result.out), queries.history(fixed, "p0001").to_dict()
    assert draw["round"] == plain["round"] == 3
    # the same changes to the same values: the draw's one more event (the rounds set) changes nothing
    assert [(e["types"], e["after"]) for e in draw["entries"]] == [(e["types"], e["after"]) for e in plain["entries"]]
    assert len(draw["entries"]) >= 4, "his registration, results and pairings are his history"

    result = cli("diff", "--from", "1", "--db", at_draw, "--json")
    assert result.code == 0, result
    changes = json.loads(result.out)["changes"]
    assert [(c["player_id"], c["after"]) for c in changes] == [
        (c["player_id"], c["after"]) for c in queries.diff(fixed, from_seq=1).to_dict()["changes"]]
    assert len(changes) == len(PLAYERS)

    result = cli("report", "--html", tmp_path / "audit.html", "--db", at_draw)
    assert result.code == 0, result
    page = (tmp_path / "audit.html").read_text(encoding="utf-8")
    assert "Draw Cup" in page and "outside 1..1" not in page
