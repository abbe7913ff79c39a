"""Issue 27, the second probe's breaks outside the desk: nothing a command line or a file on
disk can do bricks a ledger or hangs a command. Each test goes through the door the attacker
used (a ``goledger`` process, a planted file) and fails on the code before the fix."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from goledger import commands
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger

from ..conftest import run_cli

HOSTILE_NUMBER = "1e999999999"
"""Ten to the billionth: ``Fraction()`` of it computes a billion-digit integer (hours)."""

QUICK = 20.0
"""Seconds within which a refusal must come (a process start and the refusal itself)."""


def _ledger(path: Path, players: int = 2) -> Path:
    commands.new(path, f"Cup {path.stem}", 3)
    for i in range(players):
        commands.register(path, f"Player{i}", "Jan", f"{i + 1}k")
    return path


def _verifies(db: Path) -> bool:
    done = run_cli("verify", "--db", db)
    return done.code == 0 and done.out.startswith("ok:")


# --------------------------------------------------------------------------- 1: the catalog


def test_catalog_never_writes_into_an_input_ledger(tmp_path: Path) -> None:
    folder = tmp_path / "ledgers"
    folder.mkdir()
    ledger = _ledger(folder / "a.db")
    before = ledger.read_bytes()
    done = run_cli("catalog", "build", folder, "-o", ledger)
    assert done.code == 1 and "is a goledger ledger, not an archive" in done.err and "Traceback" not in done.err, done
    assert ledger.read_bytes() == before and _verifies(ledger)
    assert not (folder / "metadata.json").exists()


def test_catalog_never_writes_through_a_link_to_a_ledger(tmp_path: Path) -> None:
    ledger = _ledger(tmp_path / "a.db")
    elsewhere = _ledger(tmp_path / "b.db")
    before = elsewhere.read_bytes()
    (tmp_path / "archive.db").symlink_to(elsewhere)
    done = run_cli("catalog", "build", ledger, "-o", tmp_path / "archive.db")
    assert done.code == 1 and "is a symbolic link" in done.err, done
    assert elsewhere.read_bytes() == before and _verifies(elsewhere)
    os.link(elsewhere, tmp_path / "hard.db")  # a hard link is the ledger itself
    done = run_cli("catalog", "build", ledger, "-o", tmp_path / "hard.db")
    assert done.code == 1 and "ledger" in done.err, done
    assert elsewhere.read_bytes() == before and _verifies(elsewhere)


def test_catalog_metadata_never_replaces_a_ledger(tmp_path: Path) -> None:
    ledger = _ledger(tmp_path / "a.db")
    other = _ledger(tmp_path / "other.db")
    archive = tmp_path / "out" / "archive.db"
    archive.parent.mkdir()
    for victim in (ledger, other):
        before = victim.read_bytes()
        done = run_cli("catalog", "build", ledger, "-o", archive, "--metadata", victim)
        assert done.code == 1 and ("must not be overwritten" in done.err or "not a metadata file" in done.err), done
        assert victim.read_bytes() == before and _verifies(victim)
    planted = archive.parent / "metadata.json"
    planted.symlink_to(other)
    before = other.read_bytes()
    done = run_cli("catalog", "build", ledger, "-o", archive)
    assert done.code == 1 and "symbolic link" in done.err, done
    assert other.read_bytes() == before and _verifies(other) and planted.is_symlink()
    planted.unlink()
    planted.write_text("my notes\n")
    done = run_cli("catalog", "build", ledger, "-o", archive)
    assert done.code == 1 and "not a metadata file" in done.err and planted.read_text() == "my notes\n", done
    planted.unlink()
    assert run_cli("catalog", "build", ledger, "-o", archive).code == 0
    assert json.loads(planted.read_text())["title"] == "goledger federation archive"
    again = run_cli("catalog", "build", ledger, "-o", archive)  # its own metadata is replaced
    assert again.code == 0, again


def test_catalog_refuses_another_database_and_keeps_its_own_archive(tmp_path: Path) -> None:
    ledger = _ledger(tmp_path / "a.db")
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE accounts (id INTEGER)")
    done = run_cli("catalog", "build", ledger, "-o", foreign)
    assert done.code == 1 and "another SQLite database, not an archive" in done.err, done
    text = tmp_path / "notes.db"
    text.write_text("not a database")
    done = run_cli("catalog", "build", ledger, "-o", text)
    assert done.code == 1 and "not an archive" in done.err and text.read_text() == "not a database", done


def test_migrate_with_catalog_never_replaces_a_ledger_through_a_planted_metadata_link(tmp_path: Path) -> None:
    source = _ledger(tmp_path / "src.db")
    xml = tmp_path / "cup.xml"
    assert run_cli("export", "opengotha", "--db", source, "-o", xml).code == 0
    into = tmp_path / "into"
    assert run_cli("import", "opengotha", xml, "--into", into).code == 0
    migrated = into / "cup.db"
    assert _verifies(migrated)
    before = migrated.read_bytes()
    (into / "metadata.json").symlink_to(migrated)
    done = run_cli("import", "opengotha", xml, "--into", into, "--catalog", into / "archive.db")
    assert done.code == 1 and "must not be overwritten" in done.err and "Traceback" not in done.err, done
    assert not (into / "archive.db").exists()
    assert migrated.read_bytes() == before and _verifies(migrated)
    done = run_cli("import", "opengotha", xml, "--into", into, "--catalog", migrated)
    assert done.code == 1 and "ledger" in done.err, done
    assert migrated.read_bytes() == before and _verifies(migrated)


def test_a_symbolic_link_loop_among_the_inputs_is_reported_per_file(tmp_path: Path) -> None:
    folder = tmp_path / "ledgers"
    folder.mkdir()
    _ledger(folder / "a.db")
    (folder / "loop1.db").symlink_to("loop2.db")
    (folder / "loop2.db").symlink_to("loop1.db")
    done = run_cli("catalog", "build", folder, "-o", tmp_path / "archive.db", "--json")
    assert done.code == 1 and "Traceback" not in done.err, done
    report = json.loads(done.out)
    assert report["tournaments"] == 1
    assert sorted(Path(f["path"]).name for f in report["failed"]) == ["loop1.db", "loop2.db"]
    assert all("symbolic link loop" in f["error"] for f in report["failed"])


# --------------------------------------------------------------------------- 12: ANALYZE


def test_analyze_statistics_are_not_tampering(tmp_path: Path) -> None:
    db = _ledger(tmp_path / "t.db")
    with sqlite3.connect(db) as conn:
        conn.execute("ANALYZE")
    with sqlite3.connect(db) as conn:
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert "sqlite_stat1" in names
    assert _verifies(db)
    done = run_cli("register", "--db", db, "--surname", "Late", "--first-name", "Li", "--rank", "2d")
    assert done.code == 0, done
    assert run_cli("players", "--db", db).code == 0
    with sqlite3.connect(db) as conn:  # any other object is still foreign
        conn.execute("CREATE TABLE stat1 (x)")
    done = run_cli("verify", "--db", db)
    assert done.code == 1 and "table stat1 (not created by goledger)" in done.err + done.out, done


# --------------------------------------------------------------------------- 13: domain holes


@pytest.mark.parametrize(("argv", "refusal"), [
    (["change-rules", "begin_date=2026-02-30"], "2026-02 has no day 30"),
    (["change-rules", "end_date=2026-13-01"], "there is no month 13"),
    (["change-rules", "rating_clamp=5000,-900"], "its low end 5000 is above its high end -900"),
    (["change-rules", "criteria="], "criteria must name at least one criterion"),
    (["change-rules", "criteria= , "], "criteria must name at least one criterion"),
])
def test_domain_holes_are_refused(tmp_path: Path, argv: list[str], refusal: str) -> None:
    db = _ledger(tmp_path / "t.db")
    before = db.read_bytes()
    done = run_cli(*argv, "--db", db)
    assert done.code == 1 and refusal in done.err and "Traceback" not in done.err, done
    assert db.read_bytes() == before


def test_new_refuses_a_day_the_calendar_does_not_have(tmp_path: Path) -> None:
    done = run_cli("new", "--db", tmp_path / "t.db", "--name", "T", "--rounds", "3", "--begin-date", "2026-02-30")
    assert done.code == 1 and "2026-02 has no day 30" in done.err and not (tmp_path / "t.db").exists(), done
    leap = run_cli("new", "--db", tmp_path / "t.db", "--name", "T", "--rounds", "3", "--begin-date", "2028-02-29")
    assert leap.code == 0, leap


def test_criteria_default_restores_the_policy_default(tmp_path: Path) -> None:
    db = _ledger(tmp_path / "t.db")
    assert run_cli("change-rules", "criteria=MMS", "--db", db).code == 0
    done = run_cli("change-rules", "criteria=default", "--db", db)
    assert done.code == 0 and "criteria MMS → (none)" in done.out, done


def test_an_old_ledger_holding_an_empty_rating_clamp_still_folds(tmp_path: Path) -> None:
    db = _ledger(tmp_path / "t.db")
    with Ledger.open(db) as ledger, ledger.writing() as tx:
        tx.append([ev.RulesChanged(changes={"policy_overrides": {"rating_clamp": [5000, -900]}})],
                  actor="old-goledger", reason="")
    done = run_cli("standings", "--db", db)
    assert done.code == 0 and "rating clamp 5000,-900 is empty" in done.err, done


# --------------------------------------------------------------------------- 3: hostile numbers


@pytest.mark.parametrize("argv", [
    ["absent", "p0001", "--round", "1", "--points", HOSTILE_NUMBER],
    ["pair", "--round", "1", "--white", "p0001", "--black", "p0002", "--komi", HOSTILE_NUMBER],
    ["change-rules", f"komi={HOSTILE_NUMBER}"],
    ["change-rules", "komi=1e99999"],
    ["what-if", "--without", "1-99999999999999999"],
    ["what-if", "--without", "²"],
], ids=["absence-points", "pair-komi", "rules-komi", "rules-komi-short", "what-if-range", "what-if-superscript"])
def test_a_hostile_number_is_refused_at_once(tmp_path: Path, argv: list[str]) -> None:
    db = _ledger(tmp_path / "t.db")
    before = db.read_bytes()
    done = run_cli(*argv, "--db", db, timeout=QUICK)
    assert done.code in (1, 2) and "Traceback" not in done.err and done.err.startswith("error:"), done
    assert db.read_bytes() == before


def test_new_with_a_hostile_komi_is_refused_at_once(tmp_path: Path) -> None:
    done = run_cli("new", "--db", tmp_path / "t.db", "--name", "T", "--rounds", "3", "--komi", HOSTILE_NUMBER,
                   timeout=QUICK)
    assert done.code == 1 and "is not a number such as 6.5" in done.err and not (tmp_path / "t.db").exists(), done


def test_mge_game_points_with_a_hostile_number_are_refused_at_once(tmp_path: Path) -> None:
    db = _ledger(tmp_path / "t.db")
    params = tmp_path / "mge.json"
    params.write_text(json.dumps({"lower_limits": {"1d": 1900}, "constant": 20,
                                  "game_points": [[-1, HOSTILE_NUMBER], [0, "0.5"]]}))
    done = run_cli("rating-preview", "--db", db, "--system", "mge", "--parameters", params, timeout=QUICK)
    assert done.code == 1 and "mge game points must be decimal strings" in done.err, done


def test_an_opengotha_file_with_a_hostile_komi_is_refused_at_once(tmp_path: Path) -> None:
    source = _ledger(tmp_path / "src.db")
    xml = tmp_path / "cup.xml"
    assert run_cli("export", "opengotha", "--db", source, "-o", xml).code == 0
    text = xml.read_text(encoding="utf-8")
    assert 'komi="7.5"' in text
    xml.write_text(text.replace('komi="7.5"', f'komi="{HOSTILE_NUMBER}"'), encoding="utf-8")
    done = run_cli("import", "opengotha", xml, "--db", tmp_path / "new.db", timeout=QUICK)
    assert "Traceback" not in done.err, done
    assert done.code == 1 and "komi" in done.err and not (tmp_path / "new.db").exists(), done


def test_an_old_ledger_holding_a_hostile_komi_folds_at_once(tmp_path: Path) -> None:
    db = _ledger(tmp_path / "t.db")
    with Ledger.open(db) as ledger, ledger.writing() as tx:  # what an older goledger let through
        tx.append([ev.GamePaired(round=1, table=1, white="p0001", black="p0002", komi=HOSTILE_NUMBER)],
                  actor="old-goledger", reason="")
    done = run_cli("standings", "--db", db, timeout=QUICK)
    assert done.code == 0 and "was ignored" in done.err, done
    assert run_cli("pairings", "--db", db, "--round", "1", timeout=QUICK).code == 0


def test_every_test_security_md_names_exists() -> None:
    import re

    repo = Path(__file__).resolve().parents[2]
    named = set(re.findall(r"`(test_\w+)`", (repo / "SECURITY.md").read_text(encoding="utf-8")))
    defined = {m for f in (repo / "tests").rglob("*.py")
               for m in re.findall(r"^(?:async )?def (test_\w+)", f.read_text(encoding="utf-8"), re.M)}
    assert named and not named - defined, sorted(named - defined)


# --------------------------------------------------------------------------- 6, 7: old ledgers' names in every output

CONTROLS = ("\x1b", "\x07", "\x00", "\x01", "\u202e")


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """A ledger an older goledger wrote, before the domains refused controls in names:
    ESC, BEL, NUL, SOH and a bidi override, and cells a spreadsheet would run as formulas."""
    db = tmp_path / "old.db"
    commands.new(db, "Old Open", 3)
    commands.register(db, "Plain", "Ann", "3d")
    with Ledger.open(db) as ledger, ledger.writing() as tx:
        tx.append([
            ev.PlayerRegistered(player_id="p0002", surname="Evil\x1b]0;pwn\x07\u202e\x00", first_name='=HYPERLINK("x")',
                                rank="3d", club="@SUM(A1)", country="-x"),
            ev.PlayerRegistered(player_id="p0003", surname="+cmd|' /C calc'!A0", first_name="\x01", rank="2k"),
            ev.GamePaired(round=1, table=1, white="p0001", black="p0002"),
            ev.ResultRecorded(round=1, table=1, result="white"),
            ev.ByeAssigned(round=1, player_id="p0003"),
        ], actor="old-goledger", reason="")
    return db


PRINTOUTS = [["players"], ["pairings", "--round", "1"], ["wall-list"], ["crosstable"], ["rating-preview"]]


@pytest.mark.parametrize("argv", PRINTOUTS, ids=lambda a: a[0])
def test_every_printout_csv_escapes_formulas(hostile: Path, argv: list[str]) -> None:
    import csv
    import io

    done = run_cli(*argv, "--db", hostile, "--format", "csv")
    assert done.code == 0, done
    cells = [cell for row in csv.reader(io.StringIO(done.out)) for cell in row]
    assert any("HYPERLINK" in c or "cmd|" in c for c in cells), done.out
    for cell in cells:
        if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
            assert cell.lstrip("+-").replace(".", "", 1).isdigit(), (argv, cell)  # only numbers
    assert not any(c in done.out for c in CONTROLS), done.out


@pytest.mark.parametrize("fmt", ["table", "html"])
@pytest.mark.parametrize("argv", PRINTOUTS, ids=lambda a: a[0])
def test_every_printout_escapes_what_an_old_ledger_holds(hostile: Path, argv: list[str], fmt: str) -> None:
    done = run_cli(*argv, "--db", hostile, "--format", fmt)
    assert done.code == 0 and "Traceback" not in done.err, done
    assert not any(c in done.out for c in CONTROLS), (argv, fmt, done.out)
    if argv[0] != "rating-preview":
        assert "Evil\\x1b]0;pwn\\x07\\u202e\\x00" in done.out, done.out


def test_export_opengotha_escapes_what_an_old_ledger_holds(hostile: Path, tmp_path: Path) -> None:
    xml = tmp_path / "old.xml"
    done = run_cli("export", "opengotha", "--db", hostile, "-o", xml)
    assert done.code == 0 and "Traceback" not in done.err, done
    data = xml.read_bytes()
    assert b"\x1b" not in data and b"\x00" not in data and "\u202e".encode() not in data
    assert b'name="Evil\\x1b]0;pwn\\x07\\u202e\\x00"' in data
    back = run_cli("import", "opengotha", xml, "--db", tmp_path / "back.db")
    assert back.code == 0, back


# --------------------------------------------------------------------------- 10: one-line outputs


FORGED = "slip\n     9  2026-12-01T19:00:00  ResultCorrected        round=1 table=1 result=white"


def test_a_line_break_in_a_reason_cannot_forge_a_line(tmp_path: Path) -> None:
    db = _ledger(tmp_path / "t.db")
    for argv in (["pair", "--round", "1", "--white", "p0001", "--black", "p0002"],
                 ["result", "--round", "1", "--table", "1", "black"]):
        assert run_cli(*argv, "--db", db).code == 0
    done = run_cli("correct", "--round", "1", "--table", "1", "white", "--reason", FORGED, "--db", db)
    assert done.code == 0 and len(done.out.splitlines()) == 1 and "slip\\n" in done.out, done
    assert run_cli("withdraw", "p0002", "--from-round", "2", "--reason", "ill\r\nreally", "--db", db).code == 0
    log = run_cli("log", "--db", db)
    assert log.code == 0 and len(log.out.splitlines()) == 7, log.out
    assert all(line.lstrip()[:1].isdigit() for line in log.out.splitlines())
    assert "ResultCorrected        round=1 table=1 result=white" not in log.out.splitlines()[-2].lstrip()[:60]
    history = run_cli("history", "p0001", "--db", db)
    assert history.code == 0 and "slip\\n" in history.out and not any(
        line.lstrip().startswith("9  2026") for line in history.out.splitlines()), history.out


# --------------------------------------------------------------------------- 8: twins through variation selectors

SELECTORS = ["\ufe0f", "\ufe00", "\U000e0100", "\U000e01ef", "\u180b", "\u180f"]


@pytest.mark.parametrize("selector", SELECTORS, ids=lambda c: f"U+{ord(c):04X}")
def test_a_twin_through_a_variation_selector_is_the_same_player(tmp_path: Path, selector: str) -> None:
    db = _ledger(tmp_path / "t.db")  # Player0 Jan, Player1 Jan
    before = db.read_bytes()
    done = run_cli("register", "--surname", f"Player{selector}0", "--first-name", "Jan", "--rank", "5k", "--db", db)
    assert done.code == 1 and "already registered as p0001" in done.err, done
    assert db.read_bytes() == before
    listed = tmp_path / "list.txt"
    listed.write_text(f"Player1|Ja{selector}n|2k\nNew|Person|3k\n", encoding="utf-8")
    done = run_cli("import", "macmahon-players", listed, "--db", db)
    assert done.code == 0, done
    players = json.loads(run_cli("players", "--db", db, "--json").out)
    assert len(players["players"]) == 3, players  # the twin skipped, the new player registered


# --------------------------------------------------------------------------- 9: a forged standings cache


def _big(db: Path) -> None:
    from goledger.replay.views.standings_cache import MIN_PLAYERS

    commands.new(db, "Cache Open", 3)
    n = MIN_PLAYERS + 2
    with Ledger.open(db) as ledger, ledger.writing() as tx:
        tx.append([*(ev.PlayerRegistered(player_id=f"p{i:04d}", surname=f"Player{i:04d}", rank="5k", start_number=i)
                     for i in range(1, n + 1)),
                   *(ev.GamePaired(round=1, table=t, white=f"p{2 * t - 1:04d}", black=f"p{2 * t:04d}")
                     for t in range(1, n // 2 + 1)),
                   *(ev.ResultRecorded(round=1, table=t, result="white") for t in range(1, n // 2 + 1))],
                  actor="t", reason="")


def _forge_with_digest(db: Path) -> None:
    """What an attacker with write access does: change the cached rows and write the SHA-256
    of the new bytes beside them, as the cache stores it."""
    import hashlib

    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT name, head, data FROM projection_cache WHERE name LIKE 'standings:%'").fetchall()
        assert rows
        for name, key, data in rows:
            forged = bytes(data).replace(b"Player0002", b"Invented02")
            parts = key.split(":")
            parts[2] = hashlib.sha256(forged).hexdigest()
            conn.execute("UPDATE projection_cache SET head = ?, data = ? WHERE name = ?",
                         (":".join(parts), forged, name))


def test_a_forged_standings_cache_is_never_served_and_outlives_the_next_append(tmp_path: Path) -> None:
    db = tmp_path / "big.db"
    _big(db)
    honest = run_cli("standings", "--db", db, "--json")  # computes and stores the entry
    assert honest.code == 0 and "Player0002" in honest.out
    _forge_with_digest(db)
    shown = run_cli("standings", "--db", db, "--json")
    assert shown.code == 0 and "Invented02" not in shown.out and json.loads(shown.out) == json.loads(honest.out)
    assert run_cli("register", "--db", db, "--surname", "Late", "--first-name", "Li", "--rank", "2d").code == 0
    assert "Invented02" not in run_cli("standings", "--db", db).out  # the new head stores its own entry
    checked = run_cli("verify", "--db", db)
    assert checked.code == 1 and "tampered" in checked.err and "evidence:" in checked.err, checked
    again = run_cli("verify", "--db", db)  # kept until removed by hand
    assert again.code == 1, again


def test_a_forged_cache_never_read_before_the_next_append_is_still_reported(tmp_path: Path) -> None:
    db = tmp_path / "big.db"
    _big(db)
    assert run_cli("standings", "--db", db).code == 0
    _forge_with_digest(db)
    assert run_cli("register", "--db", db, "--surname", "Late", "--first-name", "Li", "--rank", "2d").code == 0
    assert "Invented02" not in run_cli("standings", "--db", db).out  # refreshing keeps the forged entry
    checked = run_cli("verify", "--db", db)
    assert checked.code == 1 and "differ from a fresh computation" in checked.err, checked


def test_an_honest_entry_sealed_by_another_account_is_recomputed_not_reported(tmp_path: Path) -> None:
    db = tmp_path / "big.db"
    _big(db)
    other = {"XDG_DATA_HOME": str(tmp_path / "other-account")}
    assert run_cli("standings", "--db", db, env=other).code == 0
    assert run_cli("register", "--db", db, "--surname", "Late", "--first-name", "Li", "--rank", "2d",
                   env=other).code == 0
    assert run_cli("standings", "--db", db).code == 0  # this account: the other's stale entry is evidence
    assert _verifies(db)  # judged against the log: honest, dropped
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM projection_cache WHERE name LIKE 'evidence:%'").fetchone()[0] == 0


# --------------------------------------------------------------------------- 5: constraints with the default engine


def _swiss(db: Path, players: int = 10) -> Path:
    assert run_cli("new", "--db", db, "--name", "Cup", "--rounds", "3", "--system", "swiss").code == 0
    for i in range(1, players + 1):
        commands.register(db, f"S{i:02d}", "F", f"{i}k")
    return db


def _dry(db: Path, *extra: str) -> dict:
    done = run_cli("pair-round", "1", "--dry-run", "--json", "--db", db, *extra)
    assert done.code == 0, done
    return json.loads(done.out)


def _games(data: dict) -> dict[frozenset[str], int]:
    return {frozenset((g["white"]["id"], g["black"]["id"])): g["table"] for g in data["games"]}


def test_the_default_engine_honours_forbidden_and_fixed_pairs_and_fixed_tables(tmp_path: Path) -> None:
    db = _swiss(tmp_path / "t.db")
    free = _dry(db)
    assert free["engine"] == "opengotha"
    first = next(iter(_games(free)))
    a, b = sorted(first)
    assert run_cli("forbid", a, b, "--db", db).code == 0
    assert run_cli("fix-pairing", "p0003", "p0010", "--round", "1", "--table", "4", "--db", db).code == 0
    assert run_cli("fix-table", "p0006", "--table", "1", "--db", db).code == 0
    done = run_cli("pair-round", "1", "--json", "--db", db)
    assert done.code == 0, done
    games = _games(json.loads(done.out))
    assert frozenset((a, b)) not in games and games[frozenset(("p0003", "p0010"))] == 4
    assert next(t for pair, t in games.items() if "p0006" in pair) == 1
    assert sorted(games.values()) == [1, 2, 3, 4, 5]
    checked = run_cli("pair-round", "1", "--check", "--db", db)
    assert checked.code == 0 and "re-derived exactly" in checked.out, checked


def test_the_default_engine_gives_an_unwanted_pair_the_already_played_treatment(tmp_path: Path) -> None:
    db = _swiss(tmp_path / "t.db")
    a, b = sorted(next(iter(_games(_dry(db)))))
    assert run_cli("forbid", a, b, "--unwanted", "--db", db).code == 0
    assert frozenset((a, b)) not in _games(_dry(db))


def test_the_default_engine_refuses_a_round_the_forbidden_pairs_make_impossible(tmp_path: Path) -> None:
    db = _swiss(tmp_path / "t.db", players=2)
    assert run_cli("forbid", "p0001", "p0002", "--db", db).code == 0
    before = db.read_bytes()
    done = run_cli("pair-round", "1", "--db", db)
    assert done.code == 1 and "respecting the forbidden pairs" in done.err and "Traceback" not in done.err, done
    assert db.read_bytes() == before


def test_an_unconstrained_round_is_still_paired_as_opengotha_pairs_it(tmp_path: Path) -> None:
    db = _swiss(tmp_path / "t.db")
    plain = _dry(db)
    assert run_cli("forbid", "p0001", "p0002", "--from-round", "2", "--db", db).code == 0  # not binding round 1
    assert _dry(db) == plain


def test_a_forged_state_snapshot_is_never_used_and_outlives_the_next_append(tmp_path: Path) -> None:
    import hashlib

    import msgspec

    from goledger.replay.fold.state import TournamentState

    db = tmp_path / "big.db"
    _big(db)
    assert run_cli("players", "--db", db).code == 0  # a read of 400 events writes the snapshot
    with sqlite3.connect(db) as conn:
        key, data = conn.execute("SELECT head, data FROM projection_cache WHERE name = 'state'").fetchone()
        state = msgspec.msgpack.decode(data, type=TournamentState)
        state.players["p0002"] = msgspec.structs.replace(state.players["p0002"], surname="Invented02")
        forged = msgspec.msgpack.encode(state)
        parts = key.split(":")
        parts[2] = hashlib.sha256(forged).hexdigest()
        conn.execute("UPDATE projection_cache SET head = ?, data = ? WHERE name = 'state'", (":".join(parts), forged))
    for argv in (["players"], ["standings"], ["wall-list"]):
        done = run_cli(*argv, "--db", db)
        assert done.code == 0 and "Invented02" not in done.out, (argv, done)
    for i in range(3):
        assert run_cli("register", "--db", db, "--surname", f"Late{i}", "--first-name", "Li", "--rank", "2d").code == 0
        assert "Invented02" not in run_cli("players", "--db", db).out
    checked = run_cli("verify", "--db", db)
    assert checked.code == 1 and "differs from a fresh fold" in checked.err, checked


def test_a_knockout_bracket_and_places_escape_what_an_old_ledger_holds(tmp_path: Path) -> None:
    db = tmp_path / "ko.db"
    commands.new(db, "KO", 2, system="knockout")
    commands.register(db, "Plain", "Ann", "3d")
    with Ledger.open(db) as ledger, ledger.writing() as tx:
        tx.append([ev.PlayerRegistered(player_id="p0002", surname="Evil\x1b]0;\x07\u202e\x00", first_name="=X",
                                       rank="3d"),
                   ev.PlayerRegistered(player_id="p0003", surname="B", first_name="b", rank="3d"),
                   ev.PlayerRegistered(player_id="p0004", surname="C", first_name="c", rank="3d")],
                  actor="old-goledger", reason="")
    assert run_cli("pair-round", "1", "--db", db).code == 0
    for argv in (["bracket", "--format", "html"], ["bracket"], ["standings", "--format", "html"],
                 ["standings", "--format", "csv"], ["standings"]):
        done = run_cli(*argv, "--db", db)
        assert done.code == 0 and "Traceback" not in done.err, (argv, done)
        assert not any(c in done.out for c in CONTROLS) and "Evil\\x1b" in done.out, (argv, done.out)
