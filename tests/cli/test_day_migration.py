"""Re-running a migration (issue 20, item 5): ledgers up to date with their file are
skipped, changed files are reported until ``--force`` replaces them, ``-q`` prints only the
summary, the table fits 80 columns keeping the names' distinctive ends, ``--json`` has
every row."""

from __future__ import annotations

import json
from pathlib import Path

from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from tests.conftest import run_cli
from tests.formats.test_opengotha_cli import SMALL

LONG = "an-archive-file-with-a-very-long-common-prefix-"


def archive(tmp_path: Path) -> Path:
    folder = tmp_path / "archive"
    folder.mkdir()
    for suffix in ("spring-2019", "autumn-2019", "spring-2020"):
        (folder / f"{LONG}{suffix}.xml").write_bytes(SMALL.replace(b'name="Small"', f'name="{suffix}"'.encode()))
    return folder


def test_rerun_skips_up_to_date_ledgers_and_force_replaces_changed_ones(tmp_path: Path) -> None:
    src, into = archive(tmp_path), tmp_path / "ledgers"
    first = run_cli("import", "opengotha", src, "--into", into, env={"COLUMNS": "80"})
    assert first.code == 0, first
    assert first.out.splitlines()[-1] == f"3 imported, 0 failed; reports in {into}"
    with Ledger.open(into / f"{LONG}spring-2019.db") as led:
        imported = next(e for e in led.events() if isinstance(e, ev.SourceImported))
    assert len(imported.sha256) == 64
    before = (into / f"{LONG}spring-2020.db").read_bytes()

    again = run_cli("import", "opengotha", src, "--into", into, "-q", env={"COLUMNS": "80"})
    assert again.code == 0, again
    assert again.out == f"0 imported, 3 up to date, 0 failed; reports in {into}\n"  # -q: the summary only
    assert (into / f"{LONG}spring-2020.db").read_bytes() == before

    changed = src / f"{LONG}spring-2020.xml"
    changed.write_bytes(changed.read_bytes().replace(b'numberOfRounds="3"', b'numberOfRounds="4"'))
    stale = run_cli("import", "opengotha", src, "--into", into, "--json")
    assert stale.code == 1
    items = {Path(i["source"]).name: i for i in json.loads(stale.out)["items"]}
    assert len(items) == 3
    assert items[f"{LONG}spring-2020.xml"]["status"] == "outdated"
    assert "was imported from a different version of the file; --force replaces it" in \
        items[f"{LONG}spring-2020.xml"]["message"]
    assert items[f"{LONG}autumn-2019.xml"]["status"] == "up-to-date" and items[f"{LONG}autumn-2019.xml"]["players"] == 2
    assert (into / f"{LONG}spring-2020.db").read_bytes() == before

    forced = run_cli("import", "opengotha", src, "--into", into, "--force", env={"COLUMNS": "80"})
    assert forced.code == 0, forced
    assert forced.out.splitlines()[-1] == f"0 imported, 1 replaced, 2 up to date, 0 failed; reports in {into}"
    assert not list(into.glob("*.bak"))
    with Ledger.open(into / f"{LONG}spring-2020.db") as led:
        assert led.events()[0].settings.rounds == 4  # type: ignore[attr-defined]


def test_the_summary_fits_80_columns_and_keeps_distinctive_ends(tmp_path: Path) -> None:
    src, into = archive(tmp_path), tmp_path / "ledgers"
    shown = run_cli("import", "opengotha", src, "--into", into, env={"COLUMNS": "80"})
    assert shown.code == 0, shown
    lines = shown.out.splitlines()
    assert all(len(line) <= 80 for line in lines[1:-1]), lines  # the table; title and summary name the folder
    rows = [line for line in lines if "imported" in line and "…" in line]
    assert len(rows) == 3
    ends = sorted(row.split()[0] for row in rows)
    assert len(set(ends)) == 3 and all(e.startswith("…") and e.endswith(".xml") for e in ends), ends
    assert any("spring-2019.xml" in e for e in ends) and any("autumn-2019.xml" in e for e in ends)


def test_force_on_a_single_import_replaces_only_its_report(tmp_path: Path) -> None:
    """Outside --into, --force lets the import write over an existing --report file; the
    ledger itself is never replaced."""
    (tmp_path / "small.xml").write_bytes(SMALL)
    (tmp_path / "small.json").write_text("old")
    refused = run_cli("import", "opengotha", tmp_path / "small.xml", "--report", tmp_path / "small.json", cwd=tmp_path)
    assert refused.code == 1 and (tmp_path / "small.json").read_text() == "old"
    done = run_cli("import", "opengotha", tmp_path / "small.xml", "--report", tmp_path / "small.json", "--force",
                   cwd=tmp_path)
    assert done.code == 0, done
    assert json.loads((tmp_path / "small.json").read_text())["format"] == "opengotha"
    again = run_cli("import", "opengotha", tmp_path / "small.xml", "--force", cwd=tmp_path)
    assert again.code == 1 and "already exists" in again.err
