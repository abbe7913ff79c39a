"""Result words through ``goledger result`` in a subprocess (issue 40, item 4): a bare token a
volunteer could mean two ways is refused in one sentence, exit 1, the log unchanged (``--json``
too); the result words of every language goledger speaks are read; every confirmation names
the winner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture
def paired(tmp_path: Path, cli) -> Path:
    """Five tables of round 1: white p0001, p0003…, black p0002, p0004…"""
    db = tmp_path / "t.db"
    assert cli("new", "--db", db, "--name", "Words Cup", "--rounds", "3").code == 0
    for n in range(10):
        assert cli("register", "--db", db, "--surname", f"Player{n:02d}", "--rank", "5k").code == 0
    for table in range(1, 6):
        done = cli("pair", "-r", "1", "--white", f"p{2 * table - 1:04d}", "--black", f"p{2 * table:04d}",
                   "--table", str(table), "--db", db)
        assert done.code == 0, done
    return db


@pytest.mark.parametrize(("typed", "meant"), [("0", "could mean a black win (0-1) or a jigo"),
                                              ("1", "could mean a white win (1-0) or both winning (1-1)"),
                                              ("½", "could be half a point of either player"),
                                              ("-", "could mean no result or a loss")])
def test_a_bare_token_meant_two_ways_is_refused(paired: Path, cli, typed: str, meant: str) -> None:
    before = paired.read_bytes()
    refused = cli("result", typed, "-r", "1", "-t", "1", "--db", paired)
    sentence = refused.err.strip()
    assert refused.code == 1 and sentence.startswith(f"error: {typed!r} {meant}: type ") and "\n" not in sentence, (
        refused)
    as_json = cli("result", typed, "-r", "1", "-t", "1", "--db", paired, "--json")
    assert as_json.code == 1 and meant in json.loads(as_json.err)["error"], as_json
    assert paired.read_bytes() == before


def test_the_words_of_every_language_are_read_and_the_winner_named(paired: Path, cli) -> None:
    for table, typed, said in [
        (1, "siyah", "round 1 table 1: Player01 (black) won"),
        (2, "FEHÉR", "round 1 table 2: Player02 (white) won"),
        (3, "döntetlen", "round 1 table 3: jigo between Player04 (white) and Player05 (black)"),
        (4, "Schwarz", "round 1 table 4: Player07 (black) won"),
        (5, "B+R", "round 1 table 5: Player09 (black) won by resignation"),
    ]:
        done = cli("result", typed, "-r", "1", "-t", str(table), "--db", paired)
        assert done.code == 0 and done.out.startswith(said + " (event"), (typed, done)
    fixed = cli("correct", "blanc", "-r", "1", "-t", "1", "--reason", "slip misread", "--db", paired, "--json")
    assert fixed.code == 0, fixed
    assert json.loads(fixed.out)["message"] == (
        "round 1 table 1: black → white: Player00 (white) won (slip misread)")
    shown = json.loads(cli("pairings", "--round", "1", "--db", paired, "--json").out)["tables"]
    assert [t["result"] for t in shown] == ["1-0", "1-0", "½-½", "0-1", "0-1"], shown
