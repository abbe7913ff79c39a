"""Player references ignore case and accents, and refuse ambiguity with the candidates
(issue 20, item 4), through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from goledger import commands
from goledger.ledger.store import Ledger
from tests.conftest import run_cli


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "names.db"
    commands.new(path, "Names Open", 3)
    commands.register(path, "Müller", "Jan", "2d")
    commands.register(path, "García", "Lucía", "1k")
    commands.register(path, "Łukasz", "Ødegaard", "5k")
    commands.register(path, "Sato", "Ken", "3k")
    return path


def head(path: Path) -> int:
    with Ledger.open(path) as led:
        return led.head().seq


@pytest.mark.parametrize("ref", ["Muller", "MÜLLER", "müller", "Muller Jan", "jan muller", "MULLER, JAN"])
def test_accents_and_case_are_ignored(db: Path, ref: str) -> None:
    got = run_cli("pair", "--db", db, "--round", "1", "--white", ref, "--black", "Garcia", "--json")
    assert got.code == 0, got.err
    payload = json.loads(got.out)["events"][0]["payload"]
    assert (payload["white"], payload["black"]) == ("p0001", "p0002")


def test_stroked_letters_match_their_base_letter(db: Path) -> None:
    got = run_cli("absent", "--db", db, "Lukasz Odegaard", "--round", "2")
    assert got.code == 0, got.err
    assert "p0003" in got.out


def test_registering_a_second_sato_says_the_short_reference_is_ambiguous(db: Path) -> None:
    got = run_cli("register", "--db", db, "--surname", "SATO", "--first-name", "Aki", "--rank", "4k")
    assert got.code == 0, got.err
    assert "registered p0005 SATO Aki (4k); note: 'SATO' now matches 2 players (p0004 Sato Ken and the new one)" \
        in got.out
    before = head(db)
    refused = run_cli("withdraw", "--db", db, "sato", "--from-round", "2")
    assert refused.code == 1
    assert refused.err.strip() == (
        "error: 'sato' matches 2 players (p0004 Sato Ken, p0005 SATO Aki); use the player id")
    assert head(db) == before
    assert run_cli("withdraw", "--db", db, "Sato Aki", "--from-round", "2").code == 0


def test_exact_spelling_wins_over_an_accentless_twin(db: Path) -> None:
    got = run_cli("register", "--db", db, "--surname", "Muller", "--first-name", "Eva", "--rank", "6k")
    assert got.code == 0 and "note" not in got.out
    by_plain = run_cli("absent", "--db", db, "muller", "--round", "3")
    by_accent = run_cli("absent", "--db", db, "MÜLLER", "--round", "3")
    assert "p0005" in by_plain.out and "p0001" in by_accent.out, (by_plain, by_accent)
