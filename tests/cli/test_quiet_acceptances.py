"""Quiet acceptances refused or said (issue 40, item 6), each through the CLI in a subprocess:
a fixed pairing onto a table already fixed, a registration once the last round is paired, a
refused import that still wrote its ``--report``, and ``serve`` on a ledger that does not exist."""

from __future__ import annotations

import json
from pathlib import Path

from ..formats.test_opengotha_rules import sample


def _players(cli, db: Path, rounds: int, *surnames: str) -> None:
    assert cli("new", "--db", db, "--name", "Quiet Cup", "--rounds", str(rounds)).code == 0
    for surname in surnames:
        done = cli("register", "--db", db, "--surname", surname, "--first-name", "X", "--rank", "3k")
        assert done.code == 0, done


def test_a_fixed_pairing_onto_a_fixed_table_is_refused(tmp_path: Path, cli) -> None:
    db = tmp_path / "t.db"
    _players(cli, db, 3, "Ali", "Berg", "Chen", "Dias", "Eko", "Fox")
    assert cli("fix-pairing", "Ali", "Berg", "--round", "1", "--table", "1", "--db", db).code == 0
    before = db.read_bytes()
    for words, message in [
        (["Chen", "Dias", "--table", "1"], "round 1 table 1 is already fixed for p0001 and p0002; choose another "
                                           "table or lift that first (goledger fix-pairing p0001 p0002 --round 1 "
                                           "--lift)"),
        (["Ali", "Chen"], "round 1: p0001 and p0002 are already fixed to play; lift that first"),
        (["Berg", "Ali", "--table", "1"], "round 1: p0001 and p0002 are already fixed to play at table 1"),
    ]:
        refused = cli("fix-pairing", *words, "--round", "1", "--db", db, "--json")
        assert refused.code == 1 and message in json.loads(refused.err)["error"], refused
        assert db.read_bytes() == before
    assert cli("fix-table", "Eko", "--table", "4", "--db", db).code == 0
    onto = cli("fix-pairing", "Chen", "Dias", "--round", "1", "--table", "4", "--db", db)
    assert onto.code == 1 and "round 1 table 4 is fixed for p0005 (goledger fix-table)" in onto.err, onto
    back = cli("fix-table", "Fox", "--table", "1", "--db", db)
    assert back.code == 1 and "round 1 table 1 is already fixed for p0001 and p0002" in back.err, back
    assert cli("fix-pairing", "Chen", "Dias", "--round", "1", "--table", "2", "--db", db).code == 0
    paired = cli("pair-round", "1", "--db", db, "--json")
    assert paired.code == 0, paired
    games = {(g["table"], frozenset((g["white_id"], g["black_id"]))) for g in json.loads(
        cli("pairings", "--round", "1", "--db", db, "--json").out)["tables"]}
    assert {(1, frozenset(("p0001", "p0002"))), (2, frozenset(("p0003", "p0004")))} <= games


def test_a_registration_once_the_last_round_is_paired_needs_force(tmp_path: Path, cli) -> None:
    db = tmp_path / "t.db"
    _players(cli, db, 1, "Ali", "Berg")
    assert cli("register", "--db", db, "--surname", "Early", "--first-name", "X", "--rank", "5k").code == 0
    assert cli("pair-round", "1", "--db", db).code == 0
    before = db.read_bytes()
    late = cli("register", "--db", db, "--surname", "Late", "--first-name", "X", "--rank", "5k")
    assert late.code == 1 and late.err.strip() == (
        "error: round 1, the last round, is already paired: a player registered now plays no game and would be "
        "placed on absences alone; use --force to register him anyway"), late
    assert db.read_bytes() == before
    forced = cli("register", "--db", db, "--surname", "Late", "--first-name", "X", "--rank", "5k", "--force")
    assert forced.code == 0 and "absent in round 1 (registered late)" in forced.out, forced


def test_a_refused_import_writes_no_report_so_the_retry_can(tmp_path: Path, cli) -> None:
    source = tmp_path / "t.xml"
    source.write_bytes(sample())  # a file with warnings: --strict refuses it
    report = tmp_path / "r.json"
    refused = cli("import", "opengotha", source, "--db", tmp_path / "t.db", "--strict", "--report", report)
    assert refused.code == 1 and "refused by --strict" in refused.err, refused
    assert not report.exists() and not (tmp_path / "t.db").exists()
    retry = cli("import", "opengotha", source, "--db", tmp_path / "t.db", "--report", report)
    assert retry.code == 0, retry
    assert json.loads(report.read_text())["format"] == "opengotha"


def test_a_refused_player_list_writes_no_report(tmp_path: Path, cli) -> None:
    db = tmp_path / "t.db"
    _players(cli, db, 3, "Ali")
    source = tmp_path / "players.txt"
    source.write_text("Good|One|3k\nBad|Level|40k\n", encoding="utf-8")
    report = tmp_path / "r.json"
    refused = cli("import", "macmahon-players", source, "--db", db, "--report", report)
    assert refused.code == 1 and not report.exists(), refused
    source.write_text("Good|One|3k\n", encoding="utf-8")
    done = cli("import", "macmahon-players", source, "--db", db, "--report", report)
    assert done.code == 0 and report.exists(), done


def test_serve_refuses_a_ledger_that_does_not_exist(tmp_path: Path, cli) -> None:
    missing = tmp_path / "tournamnet.db"
    refused = cli("serve", "--db", missing, "--token", "long-enough-token", timeout=30)
    assert refused.code == 1 and refused.err.strip() == (
        f"error: {missing} does not exist; check the path, or give serve --new to start a desk that creates this "
        "tournament"), refused
    assert not missing.exists()
    existing = tmp_path / "t.db"
    _players(cli, existing, 3, "Ali")
    twice = cli("serve", "--db", existing, "--new", "--token", "long-enough-token", timeout=30)
    assert twice.code == 1 and f"{existing} already exists; serve it without --new" in twice.err, twice
