"""Issue 20, item 6: the command line's conventions, each through the real CLI — --version,
JSON refusals, log --full, what-if --add of `log --json` output, result notations with their
margin, criteria in the tournament's order, colour only on a terminal, progress of reports,
and start-scores' count at the bar."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest

from goledger.ledger.result_notation import parse_result_notation
from goledger.ledger.store import Ledger
from goledger.ledger.values import Result

from ..conftest import REPO, run_cli

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _ledger(tmp_path: Path) -> Path:
    db = tmp_path / "t.db"
    assert run_cli("new", "--name", "Conventions Cup", "--rounds", "3", "--bar", "4d", "--db", db).code == 0
    for name, rank in (("Ann", "5d"), ("Bob", "4d"), ("Cy", "4d"), ("Dee", "1k"), ("Eve", "10k")):
        assert run_cli("register", "--surname", name, "--rank", rank, "--db", db).code == 0
    for white, black in (("Ann", "Dee"), ("Bob", "Eve")):
        assert run_cli("pair", "-r", "1", "--white", white, "--black", black, "--db", db).code == 0
    return db


def _events(db: Path) -> list[tuple[str, dict]]:
    with Ledger.open(db) as ledger:
        return [(r.type, json.loads(r.payload)) for r in ledger.records()]


def test_version(cli) -> None:
    from goledger import __version__

    result = cli("--version")
    assert result.code == 0 and result.out.strip() == f"goledger {__version__}"
    assert "--version" in cli("--help").out


def test_refusals_are_json_with_json(tmp_path: Path) -> None:
    missing = run_cli("standings", "--json", "--db", tmp_path / "nope.db")
    assert missing.code == 1 and missing.out == ""
    assert json.loads(missing.err) == {"error": f"no ledger at {tmp_path / 'nope.db'} (create one with "
                                                "`goledger new` or an import)", "code": "ledger"}
    db = _ledger(tmp_path)
    before = _events(db)
    bad = run_cli("result", "-r", "1", "-t", "1", "B+x", "--json", "--db", db)
    assert bad.code == 1
    error = json.loads(bad.err)
    assert error["code"] == "rejected" and error["error"].startswith("'B+x' is not a result")
    assert _events(db) == before  # ledger unchanged
    usage = run_cli("verify", "--salvage", "x.db", "--json", "--db", db)
    assert usage.code == 2 and json.loads(usage.err)["code"] == "usage"
    plain = run_cli("result", "-r", "1", "-t", "1", "B+x", "--db", db)
    assert plain.code == 1 and plain.err.startswith("error: 'B+x' is not a result")


@pytest.mark.parametrize(("text", "result", "margin", "by_default"), [
    ("w", "white", "", False), ("b", "black", "", False), ("1-0", "white", "", False), ("0-1", "black", "", False),
    ("W+", "white", "", False), ("B+R", "black", "R", False), ("B+2.5", "black", "2.5", False),
    ("W+T", "white", "T", False), ("w+resign", "white", "R", False), ("B+½", "black", "0.5", False),
    ("w+2½", "white", "2.5", False),
    ("W+F", "white", "F", True), ("jigo", "jigo", "", False), ("0.5-0.5", "jigo", "", False),
    ("½-½", "jigo", "", False), ("=", "jigo", "", False), ("0-0", "both-lose", "", False),
    ("1-1", "both-win", "", False),
])
def test_result_notations(text: str, result: str, margin: str, by_default: bool) -> None:
    notation = parse_result_notation(text)
    assert (notation.result.value, notation.margin, notation.forfeit) == (result, margin, by_default)


def test_results_through_the_cli_keep_the_margin(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    first = run_cli("result", "-r", "1", "-t", "1", "B+2.5", "--db", db)
    assert first.code == 0 and "round 1 table 1: Dee (black) won by 2.5 points" in first.out
    second = run_cli("result", "-r", "1", "-t", "2", "W+F", "--db", db)
    assert second.code == 0 and "round 1 table 2: Bob (white) won by forfeit (event" in second.out
    fixed = run_cli("correct", "-r", "1", "-t", "1", "W+R", "--reason", "scoring error", "--db", db)
    assert fixed.code == 0 and "black → white: Ann (white) won by resignation (scoring error)" in fixed.out
    events = [(t, p) for t, p in _events(db) if t.startswith("Result")]
    assert [(p["result"], p["margin"], p["by_default"]) for _, p in events] == [
        ("black", "2.5", False), ("white", "F", True), ("white", "R", False)]
    standings = json.loads(run_cli("standings", "--json", "--db", db).out)
    assert {r["surname"]: r["values"]["MMS"] for r in standings["rows"]}["Ann"] == 34  # margins never score
    help_text = run_cli("result", "--help").out + run_cli("correct", "--help").out
    for form in ("W+", "B+R", "B+2.5", "W+T", "0.5-0.5", "jigo", "1-0", "0-1"):
        assert form in help_text


def test_help_forms_all_parse() -> None:
    from goledger.cli.record import RESULT_FORMS

    forms = re.findall(r"(?<=[:,] )([^,;:()]+?)(?= \(|,|;|\.(?:\s|$))", RESULT_FORMS)
    assert len(forms) > 20
    for form in forms:
        parse_result_notation(form.strip())


def test_old_result_events_decode_unchanged() -> None:
    from goledger.ledger.events import decode_event, decode_rows

    payload = '{"by_default":false,"result":"white","round":1,"table":2,"type":"ResultRecorded"}'
    old = decode_event("ResultRecorded", 1, payload)
    assert old.result is Result.WHITE and old.margin == ""  # type: ignore[attr-defined]
    assert decode_rows([("ResultRecorded", 1, payload), ("ResultCorrected", 2, payload.replace(
        "ResultRecorded", "ResultCorrected"))])[0] == old


def test_a_ledger_of_before_margins_still_reads(tmp_path: Path) -> None:
    """Result events of schema 1 (written before the margin) fold, verify and score."""
    from ..damage import _append_raw

    db = _ledger(tmp_path)
    _append_raw(db, "ResultRecorded", 1, {"type": "ResultRecorded", "round": 1, "table": 1, "result": "black",
                                          "by_default": False})
    assert run_cli("verify", "--db", db).code == 0
    standings = json.loads(run_cli("standings", "--json", "--db", db).out)
    assert {r["surname"]: r["values"]["MMS"] for r in standings["rows"]}["Dee"] == 30
    fixed = run_cli("correct", "-r", "1", "-t", "1", "W+R", "--reason", "scoring slip", "--db", db)
    assert fixed.code == 0, fixed


def test_log_full_and_cut(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    long_reason = "x" * 300
    assert run_cli("new", "--help").code == 0
    registered = run_cli("register", "--surname", "L" * 150, "--rank", "3k", "--reason", long_reason, "--db", db)
    assert registered.code == 0
    cut = run_cli("log", "--db", db).out.splitlines()
    full = run_cli("log", "--full", "--db", db).out.splitlines()
    register_cut = next(line for line in cut if "LLLLLLLLLL" in line)
    register_full = next(line for line in full if "LLLLLLLLLL" in line)
    assert register_cut.endswith("…") and "L" * 150 in register_full and len(register_full) > len(register_cut)


def test_what_if_adds_what_log_json_prints(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    other = tmp_path / "other.db"
    other.write_bytes(db.read_bytes())
    assert run_cli("result", "-r", "1", "-t", "1", "B+R", "--db", other).code == 0
    head = len(_events(db))
    log = run_cli("log", "--json", "--after", str(head), "--db", other)
    added = tmp_path / "added.json"
    added.write_text(log.out, encoding="utf-8")
    result = run_cli("what-if", "--add", added, "--json", "--db", db)
    assert result.code == 0, result
    data = json.loads(result.out)
    assert data["added"] == 1
    hypothetical = {r["player_id"]: r["values"]["MMS"] for r in data["rows"]}
    assert hypothetical["p0004"] == 30  # Dee (1k, 29) won
    # a command's own --json outcome is accepted too
    outcome = run_cli("result", "-r", "1", "-t", "2", "w", "--json", "--db", other)
    added.write_text(outcome.out, encoding="utf-8")
    assert run_cli("what-if", "--add", added, "--db", db).code == 0


def test_diff_columns_follow_the_tournaments_criteria(tmp_path: Path) -> None:
    from goledger.audit.compare import changed_columns

    class Change:
        def __init__(self, names: list[str]) -> None:
            self.names = names

        def changed_criteria(self) -> list[str]:
            return self.names

    order = ["MMS", "SOSM", "SOSOSM"]
    assert changed_columns([Change(["SOSOSM"]), Change(["MMS", "SOSOSM"]), Change(["SOSM"])], order) == order
    db = _ledger(tmp_path)
    assert run_cli("result", "-r", "1", "-t", "2", "b", "--db", db).code == 0
    head = len(_events(db))
    assert run_cli("result", "-r", "1", "-t", "1", "w", "--db", db).code == 0
    text = run_cli("diff", "--from", str(head), "--db", db).out
    header = next(line for line in text.splitlines() if line.startswith("Place"))
    columns = header.split()[3:]
    assert columns == [c for c in order if c in columns] and columns


def _in_terminal(*args: str, env: dict[str, str] | None = None) -> str:
    """Run the CLI with stdout and stderr on a pseudo-terminal; everything it wrote."""
    master, slave = pty.openpty()
    full_env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200", "TERM": "xterm", **(env or {})}
    full_env.pop("NO_COLOR", None) if not env or "NO_COLOR" not in env else None
    proc = subprocess.Popen([sys.executable, "-m", "goledger", *args], stdout=slave, stderr=slave, env=full_env)
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 30)
        if not ready:
            break
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(30)
    os.close(master)
    return b"".join(chunks).decode("utf-8", "replace")


def test_colour_on_a_terminal_only(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    coloured = _in_terminal("standings", "--db", str(db))
    assert ANSI.search(coloured) and "Standings after round 1" in ANSI.sub("", coloured)
    assert not ANSI.search(_in_terminal("standings", "--db", str(db), env={"NO_COLOR": "1"}))
    piped = run_cli("standings", "--db", db)
    assert not ANSI.search(piped.out + piped.err)
    error = _in_terminal("standings", "--db", str(tmp_path / "nope.db"))
    assert "\x1b[" in error.split("error:")[0][-20:] and "no ledger at" in error


def test_report_progress(tmp_path: Path) -> None:
    from goledger.render.audit_report import report

    db = _ledger(tmp_path)
    assert run_cli("result", "-r", "1", "-t", "1", "w", "--db", db).code == 0
    assert run_cli("correct", "-r", "1", "-t", "1", "b", "--reason", "slip", "--db", db).code == 0
    seen: list[tuple[int, int, str]] = []
    report(db, tmp_path / "r.html", progress=lambda done, total, what: seen.append((done, total, what)))
    assert seen[0] == (0, 3, "standings after round 1") and seen[-1] == (2, 3, "audited event 1 of 1")
    piped = run_cli("report", "--html", tmp_path / "r2.html", "--db", db)
    assert piped.code == 0 and piped.err == ""  # no bar off a terminal
    shown = _in_terminal("report", "--html", str(tmp_path / "r3.html"), "--db", str(db))
    assert "wrote" in shown


def test_start_scores_count_matches_the_list(tmp_path: Path) -> None:
    """Three players at the bar, one of them withdrawn from round 1: the heading says both."""
    db = _ledger(tmp_path)
    assert run_cli("withdraw", "Cy", "--from-round", "1", "--db", db).code == 0
    out = run_cli("start-scores", "--db", db).out
    assert "3 at or above the bar, 2 taking part (1 withdrawn from round 1" in out
    assert sum(1 for line in out.splitlines() if "  bar  " in line) == 3 and "Cy (withdrawn)" in out
    data = json.loads(run_cli("start-scores", "--json", "--db", db).out)
    assert (data["listed_at_or_above_bar"], data["at_or_above_bar"]) == (3, 2)
