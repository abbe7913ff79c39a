"""Concurrent desks (issue 10 item 3): four processes recording 250 results each into one
ledger at the same time lose nothing, duplicate nothing and interleave nothing — with plain
commands, with ``--expected-head`` and ``--retry``, with ``--expected-head`` alone (a desk
that is refused re-reads the head and tries again), and through the CLI. Two desks racing
for the same tables: each table gets exactly one result, the other desk a clear refusal.

CI runs the library modes at full size (4 × 250) and the CLI mode at 4 × 10; ``pytest -m
slow`` runs the CLI at 4 × 250 too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from goledger import commands
from goledger.ledger.store import Ledger

from ..conftest import REPO
from .test_crashes import paired_ledger

ENV = {**os.environ, "PYTHONPATH": str(REPO)}
DESKS = 4

_WORKER = textwrap.dedent(
    """
    import json, os, subprocess, sys, time
    from pathlib import Path
    from goledger.errors import CommandRejected, StaleHeadError
    from goledger import commands
    from goledger.ledger.store import Ledger

    db, desk, mode, go = sys.argv[1], sys.argv[2], sys.argv[3], Path(sys.argv[4])
    tables = [int(t) for t in sys.argv[5].split(",")]
    while not go.exists():
        time.sleep(0.005)
    stale = refused = 0
    messages = []

    def head():
        with Ledger.open(db) as ledger:
            return ledger.head().seq

    for table in tables:
        outcome = "white" if table % 3 else "black"
        if mode == "plain":
            commands.result(db, 1, table, outcome, actor=desk)
        elif mode == "retry":
            try:
                commands.result(db, 1, table, outcome, actor=desk, expected_head=head(), retry=True)
            except CommandRejected as exc:
                refused += 1
                messages.append(exc.message)
        elif mode == "stale":
            while True:
                try:
                    commands.result(db, 1, table, outcome, actor=desk, expected_head=head())
                    break
                except StaleHeadError as exc:
                    stale += 1
                    messages.append(exc.message)
        elif mode == "cli":
            proc = subprocess.run([sys.executable, "-m", "goledger", "result", "--round", "1", "--table", str(table),
                                   outcome, "--db", db, "--actor", desk], capture_output=True, text=True)
            if proc.returncode != 0:
                refused += 1
                messages.append(proc.stderr)
    print(json.dumps({"stale": stale, "refused": refused, "messages": messages[:20]}))
    """
)


def run_desks(db: Path, mode: str, tables_of: dict[str, list[int]], go: Path) -> dict[str, dict]:
    procs = {
        desk: subprocess.Popen(
            [sys.executable, "-c", _WORKER, str(db), desk, mode, str(go), ",".join(map(str, tables))],
            env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for desk, tables in tables_of.items()
    }
    go.touch()
    out: dict[str, dict] = {}
    for desk, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=900)
        assert proc.returncode == 0, stderr
        out[desk] = json.loads(stdout)
    return out


def check_results(db: Path, before: int, tables_of: dict[str, list[int]]) -> None:
    """Every table has exactly one result, from its desk, in the desk's order; the chain verifies."""
    total = sum(len(t) for t in tables_of.values())
    with Ledger.open(db) as ledger:
        report = ledger.verify()
        assert report.ok, report.problem
        assert report.events == before + total
        records = [r for r in ledger.records(after=before)]
    assert all(r.type == "ResultRecorded" for r in records)
    by_table: dict[int, list] = {}
    for r in records:
        by_table.setdefault(json.loads(r.payload)["table"], []).append(r)
    assert sorted(by_table) == sorted(t for tables in tables_of.values() for t in tables)
    assert all(len(rs) == 1 for rs in by_table.values()), "a table got two results"
    for desk, tables in tables_of.items():
        mine = [json.loads(r.payload) for r in records if r.actor == desk]
        assert [p["table"] for p in mine] == tables, f"{desk}'s results are out of order or missing"
        assert all(p["result"] == ("white" if p["table"] % 3 else "black") for p in mine)


def interleaved(tables: int) -> dict[str, list[int]]:
    return {f"desk-{d}": list(range(d + 1, tables + 1, DESKS)) for d in range(DESKS)}


@pytest.mark.parametrize("mode", ["plain", "retry", "stale"])
def test_four_desks_record_250_results_each(tmp_path: Path, mode: str) -> None:
    db = paired_ledger(tmp_path / "desks.db", 1000)
    with Ledger.open(db) as ledger:
        before = ledger.head().seq
    tables_of = interleaved(1000)
    out = run_desks(db, mode, tables_of, tmp_path / "go")
    assert all(o["refused"] == 0 for o in out.values()), out
    check_results(db, before, tables_of)
    if mode == "stale":
        # the desks really raced: some were refused with the director's sentence, and re-read the head
        assert sum(o["stale"] for o in out.values()) > 0
        message = next(m for o in out.values() for m in o["messages"])
        assert message.startswith("the ledger changed since event ") and "nothing was written: check them" in message


CLI_SIZES = [pytest.param(10, id="4x10"), pytest.param(250, id="4x250", marks=pytest.mark.slow)]


@pytest.mark.parametrize("per_desk", CLI_SIZES)
def test_four_desks_through_the_cli(tmp_path: Path, per_desk: int) -> None:
    db = paired_ledger(tmp_path / "desks.db", DESKS * per_desk)
    with Ledger.open(db) as ledger:
        before = ledger.head().seq
    tables_of = interleaved(DESKS * per_desk)
    out = run_desks(db, "cli", tables_of, tmp_path / "go")
    assert all(o["refused"] == 0 for o in out.values()), out
    check_results(db, before, tables_of)


def test_two_desks_racing_for_the_same_tables(tmp_path: Path) -> None:
    """Both desks enter the same 60 results with --expected-head and --retry: each table gets
    exactly one result; every losing desk is told which result got there first."""
    db = paired_ledger(tmp_path / "race.db", 60)
    with Ledger.open(db) as ledger:
        before = ledger.head().seq
    tables = list(range(1, 61))
    out = run_desks(db, "retry", {"desk-a": tables, "desk-b": tables}, tmp_path / "go")
    with Ledger.open(db) as ledger:
        assert ledger.verify().ok
        records = list(ledger.records(after=before))
    assert sorted(json.loads(r.payload)["table"] for r in records) == tables
    assert out["desk-a"]["refused"] + out["desk-b"]["refused"] == 60
    for message in (m for o in out.values() for m in o["messages"]):
        assert "already has a result" in message or "changed since event" in message, message


def test_stale_desk_refusal_leaves_the_ledger_unchanged(tmp_path: Path, cli) -> None:
    db = paired_ledger(tmp_path / "t.db", 4)
    commands.result(db, 1, 1, "white", actor="desk-a")
    before = (tmp_path / "t.db").read_bytes()
    res = cli("result", "--round", "1", "--table", "2", "black", "--expected-head", "9", "--db", db)
    assert res.code == 1 and "the ledger changed since event 9, the last one you saw" in res.err
    assert res.err.count("\n") == 1
    assert (tmp_path / "t.db").read_bytes() == before
