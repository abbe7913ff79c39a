"""Two result desks and a stale view (issue 10 item 3): a command given the head a desk last
saw is refused, naming what was recorded since, when the ledger moved; with ``--retry`` it
is validated again and appended when the events since concern other tables or players,
and refused when they concern the same ones. Every refusal: message, exit 1, nothing written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from goledger import commands
from goledger.errors import CommandRejected, StaleHeadError
from goledger.ledger.store import Ledger

TIME = r"\d\d:\d\d UTC"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Round 1 of a 2-round tournament, four tables paired, no result yet: head = event 13."""
    path = tmp_path / "t.db"
    commands.new(path, "Desk Cup", 2, actor="director")
    for i, (surname, rank) in enumerate((("Abe", "3d"), ("Berg", "1k"), ("Chen", "5k"), ("Dias", "10k"),
                                        ("Eko", "2k"), ("Faro", "4k"), ("Gil", "6k"), ("Hu", "8k")), start=1):
        commands.register(path, surname, f"F{i}", rank, actor="director")
    for white, black in (("Abe", "Berg"), ("Chen", "Dias"), ("Eko", "Faro"), ("Gil", "Hu")):
        commands.pair(path, 1, white, black, actor="director")
    assert head(path) == 13
    return path


def head(path: Path) -> int:
    with Ledger.open(path) as ledger:
        return ledger.head().seq


def test_stale_head_names_what_was_recorded_since(db: Path, cli) -> None:
    commands.result(db, 1, 2, "black", actor="desk-b")
    res = cli("result", "--round", "1", "--table", "1", "white", "--expected-head", "13", "--db", db)
    assert res.code == 1 and res.out == ""
    assert re.fullmatch(
        rf"error: the ledger changed since event 13, the last one you saw: 1 event was recorded since \(14 round 1 "
        rf"table 2: result black \(desk-b, {TIME}\)\); nothing was written: check them, then repeat with --retry to "
        r"record yours against them\n", res.err,
    ), res.err
    assert head(db) == 14


def test_stale_head_lists_five_events_and_counts_the_rest(db: Path) -> None:
    for table in (1, 2, 3, 4):
        commands.result(db, 1, table, "white", actor="desk-a")
    commands.bye(db, "Abe", 2, actor="desk-a")
    commands.absent(db, "Berg", 2, actor="desk-a")
    with pytest.raises(StaleHeadError) as caught:
        commands.correct(db, 1, 1, "black", "slip", expected_head=13)
    message = caught.value.message
    assert "6 events were recorded since (14 round 1 table 1: result white (desk-a," in message
    assert "18 p0001 Abe F1 has the bye in round 2 (desk-a," in message
    assert "; and 1 more); nothing was written" in message
    assert head(db) == 19


def test_retry_appends_when_the_events_since_concern_other_tables(db: Path, cli) -> None:
    commands.result(db, 1, 2, "black", actor="desk-b")
    res = cli("result", "--round", "1", "--table", "1", "white", "--expected-head", "13", "--retry", "--db", db)
    assert res.code == 0, res.err
    assert res.out == "round 1 table 1: Abe F1 (white) won (event 15)\n"
    assert head(db) == 15


def test_retry_refuses_a_table_that_got_a_result_meanwhile(db: Path, cli) -> None:
    commands.result(db, 1, 1, "black", actor="desk-b")
    res = cli("result", "--round", "1", "--table", "1", "white", "--expected-head", "13", "--retry", "--db", db)
    assert res.code == 1
    assert re.fullmatch(
        r"error: round 1 table 1 already has a result \(black\); use `goledger correct` \(recorded since event 13: "
        rf"14 round 1 table 1: result black \(desk-b, {TIME}\)\)\n", res.err,
    ), res.err
    assert head(db) == 14


def test_retry_refuses_a_correction_of_a_game_corrected_meanwhile(db: Path, cli) -> None:
    """Validation alone would let the second correction overwrite the first: the conflict check stops it."""
    commands.result(db, 1, 1, "white", actor="desk-a")
    seen = head(db)
    commands.correct(db, 1, 1, "jigo", "agreed at the table", actor="desk-b")
    res = cli("correct", "--round", "1", "--table", "1", "black", "--reason", "slip swapped",
              "--expected-head", str(seen), "--retry", "--db", db)
    assert res.code == 1
    assert re.fullmatch(
        rf"error: round 1 table 1 changed since event {seen}, the last one you saw \({seen + 1} round 1 table 1: "
        rf"result corrected to jigo \(desk-b, {TIME}\)\); nothing was written: check it, then repeat with "
        rf"--expected-head {seen + 1} if your command still applies\n", res.err,
    ), res.err
    assert head(db) == seen + 1
    # with the new head, the correction goes through
    assert commands.correct(db, 1, 1, "black", "slip swapped", expected_head=seen + 1).seqs == [seen + 2]


def test_retry_refuses_an_update_of_a_player_updated_meanwhile(db: Path) -> None:
    commands.update_player(db, "Abe", club="Tokyo", actor="desk-b")
    with pytest.raises(CommandRejected, match=r"^p0001 Abe F1 changed since event 13, the last one you saw \(14 "
                       r"p0001 Abe F1 updated: club \(desk-b, "):
        commands.update_player(db, "Abe", rank="4d", expected_head=13, retry=True)
    assert head(db) == 14


def test_retry_refuses_pairing_a_player_who_got_the_bye_meanwhile(db: Path) -> None:
    commands.bye(db, "Abe", 2, actor="desk-b")
    with pytest.raises(CommandRejected, match=r"p0001 Abe F1 holds the bye of round 2 \(recorded since event 13: "
                       r"14 p0001 Abe F1 has the bye in round 2"):
        commands.pair(db, 2, "Abe", "Chen", expected_head=13, retry=True)
    assert head(db) == 14


def test_retry_appends_a_registration_after_another_one(db: Path) -> None:
    commands.register(db, "Ito", "Mai", "1k", actor="desk-b")
    outcome = commands.register(db, "Jo", "Lee", "2k", expected_head=13, retry=True)
    assert outcome.message.startswith("registered p0010 Jo Lee")
    assert head(db) == 17  # each late entry comes with his absence in round 1, already paired (issue 31)


def test_expected_head_beyond_the_ledger_is_refused_even_with_retry(db: Path, cli) -> None:
    res = cli("result", "--round", "1", "--table", "1", "white", "--expected-head", "40", "--retry", "--db", db)
    assert res.code == 1
    assert res.err == ("error: expected head 40 is beyond the ledger's last event 13: is this the ledger you read "
                       "it from?\n")
    assert head(db) == 13


def test_an_unchanged_head_needs_no_retry(db: Path) -> None:
    assert commands.result(db, 1, 1, "white", expected_head=13).seqs == [14]
    assert commands.result(db, 1, 2, "white", expected_head=14, retry=True).seqs == [15]


@pytest.mark.parametrize("language", ["tr", "hu"])
def test_a_moved_head_is_refused_in_the_desks_language_and_words(db: Path, language: str) -> None:
    """At the desk (issue 44): the same refusals in the page's language, naming the desk's form
    again instead of ``--retry`` or ``--expected-head``."""
    from goledger.i18n import use_language
    from goledger.i18n.messages import at_desk

    commands.result(db, 1, 2, "black", actor="desk-b")
    commands.update_player(db, "Abe", club="Tokyo", actor="desk-b")
    with use_language(language), at_desk():
        with pytest.raises(StaleHeadError) as stale:
            commands.result(db, 1, 1, "white", expected_head=13)
        with pytest.raises(CommandRejected) as changed:
            commands.update_player(db, "Abe", rank="4d", expected_head=13, retry=True)
    for message in (stale.value.message, changed.value.message):
        assert "--" not in message and "changed since" not in message and "a(z)" not in message, message
    assert {"tr": "olay", "hu": "esemény"}[language] in stale.value.message
    assert head(db) == 15
