"""The federation archive (issue 22): every table against the ledgers' own state and standings,
incremental refresh, identity across tournaments, the queries and the command line."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from goledger import catalog
from goledger.catalog.build import name_key
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.ledger.values import Result
from goledger.replay.fold.state import fold
from goledger.replay.scoring.standings import standings

from ..conftest import REPO, SHARED

SAMPLE = REPO / "samples" / "sample.db"
REAL_FILES = ("lucvannier_opengotha__Toulouse2019.xml", "lucvannier_opengotha__Tournoi_de_Juvisy.xml",
              "ffrgo_pairgoth__frioul-2018.xml", "lucvannier_opengotha__frioul-2019.xml",
              "lucvannier_opengotha__Balma_2019.xml")
"""Real OpenGotha files of French tournaments of 2018–2019 (players recur across them)."""


def _rows(db: Path, sql: str, *args: Any) -> list[sqlite3.Row]:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def check_against_ledger(archive: Path, ledger_path: Path) -> None:
    """Every table's rows of one tournament equal what the ledger itself says."""
    with Ledger.open(ledger_path) as ledger:
        records = list(ledger.records())
        state = fold(ledger.events())
    (t,) = _rows(archive, "SELECT * FROM tournaments WHERE ledger_id = ?", records[0].hash)
    tid = t["id"]
    ids = {r["player_id"]: r["id"] for r in _rows(archive, "SELECT * FROM players WHERE tournament_id = ?", tid)}
    key = ids.__getitem__
    assert state.settings is not None
    assert (t["name"], t["rounds"], t["head_seq"], t["head_hash"], t["players"]) == (
        state.settings.name, state.settings.rounds, records[-1].seq, records[-1].hash, len(state.players))
    players = {r["player_id"]: (r["name"], r["rank"], r["rating"], r["country"], r["club"], r["egd_pin"], r["status"],
                                r["withdrawn_from"])
               for r in _rows(archive, "SELECT * FROM players WHERE tournament_id = ?", tid)}
    assert players == {pid: (p.full_name, p.rank, p.rating, p.country.upper(), p.club, p.egd_pin, p.status,
                             p.withdrawn_from) for pid, p in state.players.items()}
    games = {(r["round"], r["table_number"], r["white"], r["black"], r["handicap"], r["komi"], r["result"],
              bool(r["by_default"])) for r in _rows(archive, "SELECT * FROM games WHERE tournament_id = ?", tid)}
    assert games == {(rnd, table, key(g.white), key(g.black), g.handicap, g.komi, g.result.value, g.by_default)
                     for rnd, tables in state.games.items() for table, g in tables.items()}
    corrected = {(e.round, e.table) for e in (r.event for r in records) if isinstance(e, ev.ResultCorrected)}
    assert {(r["round"], r["table_number"]) for r in _rows(
        archive, "SELECT * FROM games WHERE tournament_id = ? AND corrected = 1", tid)} == corrected
    byes = {(r["round"], r["player"], r["points2"])
            for r in _rows(archive, "SELECT * FROM byes WHERE tournament_id = ?", tid)}
    assert byes == {(rnd, key(pid), pts) for rnd, b in state.byes.items() for pid, pts in b.items()}
    absent = {(r["round"], r["player"], r["points2"]) for r in _rows(
        archive, "SELECT * FROM absences WHERE tournament_id = ? AND kind = 'absent'", tid)}
    assert absent == {(rnd, key(pid), pts) for pid, p in state.players.items() for rnd, pts in p.absences.items()}
    stored = {(r["round"], r["player"], r["place"], r["criterion"], r["value"], r["scale"], bool(r["final"]))
              for r in _rows(archive, "SELECT * FROM standings WHERE tournament_id = ?", tid)}
    last = state.last_round_with_games()
    expected = set()
    for rnd in range(1, last + 1):
        table = standings(state, rnd)
        expected |= {(rnd, key(row.player_id), row.place, c, row.values[c], table.scales[c], rnd == last)
                     for row in table.rows for c in table.criteria}
    assert stored == expected and (last == 0 or stored)
    events = [(r["seq"], r["type"], r["recorded_at"], r["reason"], r["hash"]) for r in _rows(
        archive, "SELECT * FROM events WHERE tournament_id = ? ORDER BY seq", tid)]
    assert events == [(r.seq, r.type, r.recorded_at, r.reason, r.hash) for r in records]


def test_the_sample_ledger_catalogued_table_by_table(tmp_path: Path) -> None:
    ledger = tmp_path / "sample.db"
    shutil.copy(SAMPLE, ledger)
    before = ledger.read_bytes()
    summary = catalog.build([ledger], tmp_path / "archive.db")
    assert (summary.tournaments, summary.refreshed, summary.unchanged, summary.failed) == (1, 1, 0, [])
    check_against_ledger(tmp_path / "archive.db", ledger)
    assert ledger.read_bytes() == before  # the catalog only reads ledgers
    meta = json.loads((tmp_path / "metadata.json").read_text(encoding="utf-8"))
    assert set(meta["databases"]["archive"]["queries"]) >= {"player_games", "head_to_head"}
    conn = sqlite3.connect(tmp_path / "archive.db")
    fks = {(t, row[2], row[3], row[4]) for t in ("players", "games", "standings")
           for row in conn.execute(f"PRAGMA foreign_key_list({t})")}
    assert ("games", "players", "white", "id") in fks and ("players", "tournaments", "tournament_id", "id") in fks
    indexes = {row[1] for row in conn.execute("PRAGMA index_list(players)")}
    assert {"idx_players_egd_pin", "idx_players_name"} <= indexes
    assert not conn.execute("PRAGMA foreign_key_check").fetchall()


@pytest.fixture(scope="module")
def real_archive(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    if SHARED is None:
        pytest.skip("../shared is not present")
    from goledger.formats.opengotha import migrate_opengotha

    folder = tmp_path_factory.mktemp("real")
    items = migrate_opengotha([SHARED / "realdata" / "opengotha" / name for name in REAL_FILES], folder / "ledgers")
    assert all(i.status == "imported" for i in items), [i.message for i in items]
    shutil.copy(SAMPLE, folder / "ledgers" / "sample.db")
    summary = catalog.build([folder / "ledgers"], folder / "archive.db")
    assert (summary.tournaments, summary.refreshed, summary.failed) == (len(REAL_FILES) + 1, len(REAL_FILES) + 1, [])
    yield folder / "archive.db", folder / "ledgers"


@pytest.mark.shared
def test_real_files_catalogued_table_by_table(real_archive: tuple[Path, Path]) -> None:
    archive, ledgers = real_archive
    for ledger in sorted(ledgers.glob("*.db")):
        check_against_ledger(archive, ledger)
    people = _rows(archive, "SELECT person, COUNT(DISTINCT tournament_id) n FROM people GROUP BY person "
                            "HAVING n > 1")
    assert people, "players of these French tournaments recur: the people view links them"
    hits = _rows(archive, "SELECT p.name FROM players_fts f JOIN players p ON p.rowid = f.rowid "
                          "WHERE players_fts MATCH 'name_key: \"toulouse\"' LIMIT 1")
    assert isinstance(hits, list)  # the full-text index answers


@pytest.mark.shared
def test_player_and_check_on_real_files(real_archive: tuple[Path, Path]) -> None:
    archive, _ = real_archive
    (row,) = _rows(archive, "SELECT person, name FROM people GROUP BY person ORDER BY COUNT(*) DESC, person LIMIT 1")
    found = catalog.player(archive, row["name"])
    assert found["people"][0]["person"] == row["person"]
    assert sum(len(t["games"]) for t in found["people"][0]["tournaments"]) == _rows(
        archive, "SELECT COUNT(*) FROM games g JOIN people p ON p.player IN (g.white, g.black) WHERE p.person = ?",
        row["person"])[0][0]
    report = catalog.check(archive)
    assert set(report["counts"]) <= {"rank-rating", "registered-twice", "pin-collision"}


# --------------------------------------------------------------------------- made-up ledgers


def _ledger(path: Path, name: str, date: str, players: list[tuple[str, str, str, str, int | None, str]],
            games: list[tuple[int, str, str, Result]]) -> Path:
    out: list[ev.Event] = [ev.TournamentCreated(settings=ev.TournamentSettings(name=name, rounds=3, begin_date=date))]
    for pid, surname, first, rank, rating, pin_country in players:
        pin, _, country = pin_country.partition("/")
        out.append(ev.PlayerRegistered(player_id=pid, surname=surname, first_name=first, rank=rank, rating=rating,
                                       egd_pin=pin, country=country))
    tables: dict[int, int] = {}
    for rnd, white, black, result in games:
        table = tables[rnd] = tables.get(rnd, 0) + 1
        out += [ev.GamePaired(round=rnd, table=table, white=white, black=black),
                ev.ResultRecorded(round=rnd, table=table, result=result)]
    Ledger.create_complete(path, out, actor="test")
    return path


def _three(folder: Path) -> list[Path]:
    folder.mkdir()
    a = _ledger(folder / "spring.db", "Spring Cup", "2024-03-02", [
        ("1", "Ødegaard", "Zoë", "2d", 2200, "12345678/NO"), ("2", "Smith", "John", "1k", 2000, "/GB"),
        ("3", "Nagy", "Bence", "5k", 1600, "/HU")],
        [(1, "1", "2", Result.WHITE), (2, "2", "3", Result.BLACK), (3, "1", "3", Result.WHITE)])
    b = _ledger(folder / "summer.db", "Summer Cup", "2024-07-06", [
        ("a", "Odegaard", "Zoe", "2d", None, "/NO"), ("b", "Smith", "John", "1k", 1990, "87654321/GB"),
        ("c", "Smith", "John", "1k", 1990, "87654321/GB"), ("d", "Nagy", "Bence", "5k", 2300, "/HU")],
        [(1, "a", "b", Result.BLACK), (2, "a", "d", Result.WHITE)])
    c = _ledger(folder / "autumn.db", "Autumn Cup", "2024-10-05", [
        ("x", "Kim", "Min", "3d", 2300, "12345678/KR"), ("y", "Smith", "John", "1k", 2010, "/US")],
        [(1, "x", "y", Result.WHITE)])
    return [a, b, c]


def test_people_link_by_pin_then_name_and_country_and_list_doubts(tmp_path: Path) -> None:
    ledgers = _three(tmp_path / "ledgers")
    archive = tmp_path / "archive.db"
    catalog.build(ledgers, archive)
    people = {(r["tournament"], r["name"]): (r["person"], r["linked_by"])
              for r in _rows(archive, "SELECT * FROM people")}
    assert people[("Summer Cup", "Odegaard Zoe")] == ("pin:12345678", "name+country")  # no PIN: linked by name
    assert people[("Spring Cup", "Smith John")] == ("pin:87654321", "name+country")
    assert people[("Autumn Cup", "Smith John")] == (f"name:{name_key('Smith', 'John')}|US", "name+country (no PIN)")
    doubts = {(r["doubt"], r["subject"]) for r in _rows(archive, "SELECT * FROM doubtful_links")}
    assert ("same name, different countries", "smith john") in doubts
    assert ("one PIN for several names", "pin:12345678") in doubts
    report = catalog.check(archive)
    kinds = [(p["kind"], p["person"]) for p in report["problems"]]
    assert ("pin-collision", "pin:12345678") in kinds
    assert ("registered-twice", "pin:87654321") in kinds
    # Nagy: 5k in spring (1600 fits) and rated 2300 in summer, four months later
    nagy = [p["message"] for p in report["problems"] if p["kind"] == "rank-rating" and "Nagy" in p["message"]]
    assert nagy == ["Nagy Bence: rank 5k (1600) and rating 2300 in Summer Cup"]  # one problem, not one per pair
    games = catalog.h2h(archive, "87654321", "Odegaard Zoe")
    assert (games["a"], games["b"], games["a_wins"], games["a_losses"]) == ("pin:87654321", "pin:12345678", 1, 1)
    zoe = catalog.player(archive, "ødegaard")["people"]
    assert [p["person"] for p in zoe] == ["pin:12345678"] and len(zoe[0]["tournaments"]) == 3
    with pytest.raises(catalog.queries.CommandRejected, match="matches 2 people"):
        catalog.h2h(archive, "Smith John", "Kim")


def test_refresh_rewrites_only_the_changed_tournament(tmp_path: Path) -> None:
    ledgers = _three(tmp_path / "ledgers")
    archive = tmp_path / "archive.db"
    catalog.build(ledgers, archive)

    def rowids() -> dict[int, dict[str, set[int]]]:
        out: dict[int, dict[str, set[int]]] = {}
        for table in ("tournaments", "players", "games", "standings", "events"):
            column = "id" if table == "tournaments" else "tournament_id"
            for r in _rows(archive, f"SELECT {column} AS t, rowid AS r FROM {table}"):
                out.setdefault(r["t"], {}).setdefault(table, set()).add(r["r"])
        return out

    before = rowids()
    again = catalog.build(ledgers, archive)
    assert (again.refreshed, again.unchanged, sum(again.rows_written.values())) == (0, 3, 0)
    assert rowids() == before
    with Ledger.open(ledgers[1]) as ledger:
        ledger.append([ev.ResultCorrected(round=1, table=1, result=Result.WHITE, reason="wrong winner")], actor="td")
        ledger_id, head = next(iter(ledger.records(0, 1))).hash, ledger.head().seq
    changed = _rows(archive, "SELECT id FROM tournaments WHERE ledger_id = ?", ledger_id)[0][0]
    summary = catalog.build(ledgers, archive)
    assert (summary.tournaments, summary.refreshed, summary.unchanged) == (3, 1, 2)
    assert summary.rows_written["tournaments"] == 1 and summary.rows_written["events"] == head == 10
    after = rowids()
    assert {t: v for t, v in after.items() if t != changed} == {t: v for t, v in before.items() if t != changed}
    assert after[changed] != before[changed]
    check_against_ledger(archive, ledgers[1])
    assert _rows(archive, "SELECT corrected, result FROM games WHERE tournament_id = ? AND round = 1", changed)[0][:] \
        == (1, "white")


def test_the_command_line(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    ledgers = _three(tmp_path / "ledgers")
    (tmp_path / "ledgers" / "junk.db").write_bytes(b"not a database at all")
    out = cli("catalog", "build", tmp_path / "ledgers", "-o", tmp_path / "archive.db", "--json")
    assert out.code == 1, out.err
    data = json.loads(out.out)
    assert (data["tournaments"], data["refreshed"], data["unchanged"]) == (3, 3, 0)
    assert [Path(f["path"]).name for f in data["failed"]] == ["junk.db"] and data["failed"][0]["error"]
    (tmp_path / "ledgers" / "junk.db").unlink()
    again = cli("catalog", "build", *ledgers, "-o", tmp_path / "archive.db")
    assert again.code == 0 and "3 tournaments (0 refreshed, 3 unchanged)" in again.out
    player = cli("catalog", "player", "12345678", "-a", tmp_path / "archive.db", "--json")
    assert player.code == 0 and len(json.loads(player.out)["people"][0]["tournaments"]) == 3
    h2h = cli("catalog", "h2h", "Nagy", "Odegaard Zoe", "-a", tmp_path / "archive.db")
    assert h2h.code == 0
    assert h2h.out.splitlines()[0] == "name:nagy bence|HU v pin:12345678: 0 wins, 2 losses, 0 other"
    check = cli("catalog", "check", "-a", tmp_path / "archive.db")
    assert check.code == 1 and "pin-collision: EGD PIN 12345678" in check.out
    missing = cli("catalog", "player", "Nobody", "-a", tmp_path / "archive.db")
    assert missing.code == 1 and missing.err.strip() == "error: no player 'Nobody' in the archive"


def test_only_the_catalog_imports_sqlite_utils() -> None:
    code = ("import sys, goledger.cli.main, goledger.catalog, goledger.cli.catalog; "
            "print('sqlite_utils' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True).stdout
    assert out.strip() == "False"


@pytest.mark.shared
def test_import_into_a_folder_with_catalog(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    if SHARED is None:
        pytest.skip("../shared is not present")
    files = [SHARED / "realdata" / "opengotha" / name for name in REAL_FILES[:2]]
    out = cli("import", "opengotha", *files, "--into", tmp_path / "ledgers", "--catalog", tmp_path / "archive.db")
    assert out.code == 0, out.err
    assert "2 tournaments (2 refreshed, 0 unchanged)" in out.out
    for ledger in (tmp_path / "ledgers").glob("*.db"):
        check_against_ledger(tmp_path / "archive.db", ledger)
    alone = cli("import", "opengotha", files[0], "--db", tmp_path / "x.db", "--catalog", tmp_path / "archive.db")
    assert alone.code == 2 and "--catalog goes with --into DIR" in alone.err


def test_peek_head_reads_the_main_file_alone(tmp_path: Path) -> None:
    from goledger.ledger.store import peek_head

    ledger_path = _three(tmp_path / "ledgers")[0]
    with Ledger.open(ledger_path) as ledger:
        expected = (next(iter(ledger.records(0, 1))).hash, ledger.head())
    before = sorted(p.name for p in ledger_path.parent.iterdir())
    assert peek_head(ledger_path) == expected
    assert sorted(p.name for p in ledger_path.parent.iterdir()) == before  # no -wal, no -shm left behind
    (tmp_path / "junk.db").write_bytes(b"junk")
    assert peek_head(tmp_path / "junk.db") is None and peek_head(tmp_path / "missing.db") is None
    Path(f"{ledger_path}-wal").write_bytes(b"x")  # events the main file may not have: not trusted
    assert peek_head(ledger_path) is None


def test_the_documented_sql_and_the_canned_queries_run(tmp_path: Path) -> None:
    """Every ``sql`` block of docs/catalog.md and every canned query of metadata.json runs on
    an archive (named parameters bound to sample values)."""
    import re

    from goledger.catalog.metadata import CANNED_QUERIES

    archive = tmp_path / "archive.db"
    catalog.build(_three(tmp_path / "ledgers"), archive)
    doc = (REPO / "docs" / "catalog.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sql\n(.*?)```", doc, re.S)
    assert len(blocks) >= 6
    params = {"a": "pin:12345678", "b": "pin:87654321", "t": 1, "who": "Smith", "round": 1}
    conn = sqlite3.connect(archive)
    for sql in [*blocks, *(q["sql"] for q in CANNED_QUERIES.values())]:
        names = set(re.findall(r":(\w+)", re.sub(r"'[^']*'", "", sql)))
        conn.execute(sql, {n: params[n] for n in names}).fetchall()
    rows = conn.execute(CANNED_QUERIES["head_to_head"]["sql"], {"a": "87654321", "b": "Odegaard"}).fetchall()
    assert len(rows) == 1
