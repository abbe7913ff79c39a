"""``goledger import opengotha`` / ``goledger export opengotha`` as a user runs them: the
default ledger name, the printed and JSON reports, --strict, export to a file and to
standard output, and the migration of a folder with a broken file in it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from goledger.ledger.store import Ledger
from goledger.replay.loading.load import load_state

from ..conftest import needs_shared, run_cli
from ..opengotha_files import count_elements

SMALL = (b'<?xml version="1.0" encoding="UTF-8"?>\n<Tournament dataVersion="201"><Players>'
         b'<Player name="Ali" firstName="Veli" rank="3D" rating="2250" participating="11011111111111111111"/>'
         b'<Player name="Berg" firstName="Anna" rank="1K" rating="2000"/></Players><Games>'
         b'<Game roundNumber="1" tableNumber="1" whitePlayer="ALIVELI" blackPlayer="BERGANNA" '
         b'result="RESULT_BLACKWINS_BYDEF"/></Games><TournamentParameterSet>'
         b'<GeneralParameterSet name="Small" numberOfRounds="3"/></TournamentParameterSet></Tournament>\n')


def test_import_prints_report_and_uses_stem_db(tmp_path: Path) -> None:
    (tmp_path / "small.xml").write_bytes(SMALL)
    result = run_cli("import", "opengotha", "small.xml", "--report", "r.json", cwd=tmp_path)
    assert result.code == 0, result
    assert "players 2, games 1, absences 1, results 1" in result.out
    assert "imported small.xml into small.db: 2 players, 1 games" in result.out
    assert "<HandicapParameterSet>" in result.out or "no <HandicapParameterSet>" in result.out
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["counts"]["players"] == {"read": 2, "recorded": 2}
    with Ledger.open(tmp_path / "small.db") as ledger:
        state = load_state(ledger)
    assert state.players["p0001"].absences == {3: None} and state.games[1][1].by_default
    again = run_cli("import", "opengotha", "small.xml", cwd=tmp_path, env={"GOLEDGER_DB": "elsewhere.db"})
    assert again.code == 1 and "small.db already exists" in again.err  # the import's default is the stem


def test_import_json_and_export(tmp_path: Path) -> None:
    (tmp_path / "small.xml").write_bytes(SMALL)
    result = run_cli("import", "opengotha", "small.xml", "--db", "t.db", "--json", cwd=tmp_path)
    data = json.loads(result.out)
    assert data["db"] == "t.db" and data["report"]["counts"]["games"]["recorded"] == 1
    out = run_cli("export", "opengotha", "--db", "t.db", cwd=tmp_path)
    assert out.code == 0 and out.out.startswith('<?xml version="1.0" encoding="UTF-8" standalone="no"?>')
    assert 'result="RESULT_BLACKWINS_BYDEF"' in out.out and 'participating="11011111111111111111"' in out.out
    written = run_cli("export", "opengotha", "--db", "t.db", "-o", "out.xml", cwd=tmp_path)
    assert written.code == 0 and (tmp_path / "out.xml").read_text(encoding="utf-8") == out.out
    missing = run_cli("export", "opengotha", "--db", "nothing.db", cwd=tmp_path)
    assert missing.code == 1 and "no ledger at nothing.db" in missing.err


def test_usage_errors(tmp_path: Path) -> None:
    (tmp_path / "small.xml").write_bytes(SMALL)
    two = run_cli("import", "opengotha", "small.xml", "small.xml", cwd=tmp_path)
    assert two.code == 2 and "--into" in two.err
    folder = run_cli("import", "opengotha", ".", cwd=tmp_path)
    assert folder.code == 1 and "is a folder" in folder.err


@needs_shared
def test_strict_refuses_a_file_with_warnings(shared: Path, tmp_path: Path) -> None:
    source = shared / "oracle" / "inputs" / "malavasi-2024.xml"
    result = run_cli("import", "opengotha", source, "--db", "m.db", "--strict", "--report", "r.json", cwd=tmp_path)
    assert result.code == 1 and "refused by --strict" in result.err and "nothing was written" in result.err
    assert "round 1 has 2 bye players" in result.err
    assert not (tmp_path / "m.db").exists()
    assert not (tmp_path / "r.json").exists(), "a refused import writes no report (issue 40, item 6)"
    retry = run_cli("import", "opengotha", source, "--db", "m.db", "--report", "r.json", cwd=tmp_path)
    assert retry.code == 0, retry
    assert json.loads((tmp_path / "r.json").read_text())["dialect"] == "pairgoth export"


@needs_shared
def test_migration_of_a_folder_with_a_broken_file(shared: Path, tmp_path: Path) -> None:
    archive = tmp_path / "archive"
    archive.mkdir()
    picked = ["juvisy-2019.xml", "lyon-2017.xml", "team-egc-2013.xml"]
    for name in picked:
        shutil.copy(shared / "oracle" / "inputs" / name, archive / name)
    (archive / "broken.xml").write_bytes(SMALL[: len(SMALL) // 2])
    (archive / "notes.txt").write_text("not a tournament")
    result = run_cli("import", "opengotha", archive, "--into", tmp_path / "ledgers", "--json")
    assert result.code == 1, result
    data = json.loads(result.out)
    items = {Path(i["source"]).name: i for i in data["items"]}
    assert sorted(items) == sorted([*picked, "broken.xml"]) and data["failed"] == 1
    assert items["broken.xml"]["status"] == "failed" and "not well-formed" in items["broken.xml"]["message"]
    for name in picked:
        item = items[name]
        counts = count_elements(archive / name)
        assert item["status"] == "imported"
        assert (item["players"], item["games"], item["byes"]) == (counts["players"], counts["games"], counts["byes"])
        assert (tmp_path / "ledgers" / name.replace(".xml", ".db")).exists()
        assert (tmp_path / "ledgers" / name.replace(".xml", ".report.json")).exists()
    assert not (tmp_path / "ledgers" / "broken.db").exists()
    table = run_cli("import", "opengotha", archive / "lyon-2017.xml", archive / "juvisy-2019.xml",
                    "--into", tmp_path / "more")
    assert table.code == 0, table
    assert "lyon-2017.xml" in table.out and "juvisy-2019.db" in table.out and "2 imported, 0 failed" in table.out
    again = run_cli("import", "opengotha", archive / "lyon-2017.xml", "--into", tmp_path / "more")
    assert again.code == 0 and "up to date" in again.out  # issue 20: a re-run skips what is up to date
