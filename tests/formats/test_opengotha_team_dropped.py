"""A team file OpenGotha opens is imported, its dangling board references dropped (issue 40, item 7).

OpenGotha loads a team whose ``<Board>`` names a player key that matches no ``<Player>`` and
shows the team with that board empty. goledger refused such a file whole ("team member …
matches no player"). The file here is derived in the test from a real one
(``TeamEGC2013.xml`` of shared/realdata): two boards of two teams are pointed at keys no
player has; the import, a ``goledger`` process, must succeed, name each dropped reference in
one line, and leave exactly those boards empty.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import SHARED, run_cli

SOURCE = "realdata/opengotha/lucvannier_opengotha__TeamEGC2013.xml"


@pytest.fixture
def dangling(tmp_path: Path) -> tuple[Path, list[tuple[str, int, int, str]]]:
    """The real team file with the first board of round 1 of two teams pointed at unknown keys;
    the file and (team name, board, round, key) of each changed board."""
    if SHARED is None or not (SHARED / SOURCE).exists():
        pytest.skip("../shared/realdata is not present")
    text = (SHARED / SOURCE).read_text(encoding="utf-8")
    changed: list[tuple[str, int, int, str]] = []
    out: list[str] = []
    team = ""
    for line in text.splitlines(keepends=True):
        opened = re.search(r'<Team [^>]*teamName="([^"]*)"', line)
        if opened:
            team = opened.group(1)
        board = re.search(r'<Board boardNumber="1" player="([^"]*)" roundNumber="1"', line)
        if board and len(changed) < 2 and all(t != team for t, *_ in changed):
            key = f"NOSUCHMEMBER{len(changed) + 1}"
            line = line.replace(f'player="{board.group(1)}"', f'player="{key}"')
            changed.append((team, 1, 1, key))
        out.append(line)
    assert len(changed) == 2
    path = tmp_path / "teams.xml"
    path.write_text("".join(out), encoding="utf-8")
    return path, changed


def test_team_file_with_a_dangling_member_imports_with_each_reference_named(
        dangling: tuple[Path, list[tuple[str, int, int, str]]], tmp_path: Path) -> None:
    path, changed = dangling
    db, report_path = tmp_path / "teams.db", tmp_path / "report.json"
    result = run_cli("import", "opengotha", path, "--db", db, "--report", report_path)
    assert result.code == 0, result
    report = json.loads(report_path.read_text(encoding="utf-8"))
    dropped = [e for e in report["entries"] if e["kind"] == "dropped"]
    assert len(dropped) == len(changed)
    for (team, board, round_, key), entry in zip(changed, dropped, strict=True):
        assert entry["message"] == (f"team {team!r} board {board} (round {round_}): member {key!r} matches no player; "
                                    "the board is left empty, as OpenGotha shows it")
        assert entry["message"] in result.out
    assert not [e for e in report["entries"] if e["severity"] == "error"]
    boards = report["counts"]["team_boards"]
    assert boards["read"] - boards["recorded"] == len(changed)

    listed = json.loads(run_cli("team", "list", "--db", db, "--round", "1", "--json").out)
    by_name = {t["name"]: t for t in listed["teams"]}
    original = tmp_path / "original.db"
    assert run_cli("import", "opengotha", SHARED / SOURCE, "--db", original).code == 0  # type: ignore[operator]
    before = {t["name"]: t for t in json.loads(run_cli("team", "list", "--db", original, "--round", "1",
                                                       "--json").out)["teams"]}
    for name, team in by_name.items():
        gone = {board for t, board, _r, _k in changed if t == name}
        assert [m for m in before[name]["members"] if m["board"] not in gone] == team["members"], name


def test_strict_refuses_the_dangling_member(dangling: tuple[Path, list[tuple[str, int, int, str]]],
                                            tmp_path: Path) -> None:
    """A dropped reference is a warning: ``--strict`` refuses the file and writes no ledger."""
    path, _changed = dangling
    db = tmp_path / "strict.db"
    result = run_cli("import", "opengotha", path, "--db", db, "--strict")
    assert result.code == 1 and "refused by --strict" in result.err + result.out
    assert not db.exists()
