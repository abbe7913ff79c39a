"""The bundled sample ledger: valid, and holding every feature the README promises."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from goledger.ledger.store import Ledger
from goledger.ledger.values import Result
from goledger.replay.loading.load import load_state

from ..conftest import REPO

SAMPLE = REPO / "samples" / "sample.db"


def test_sample_verifies_and_has_every_feature(cli) -> None:
    with Ledger.open(SAMPLE) as ledger:
        assert ledger.verify().ok
        state = load_state(ledger)
        types = [r.type for r in ledger.records()]
    assert state.rounds == 5 and len(state.players) == 20
    games = list(state.all_games())
    assert any(p.absences for p in state.players.values())
    assert sum(len(b) for b in state.byes.values()) >= 3
    assert any(g.by_default for g in games)
    assert any(g.result is Result.JIGO for g in games)
    assert any(g.handicap > 0 for g in games)
    assert [p.withdrawn_from for p in state.players.values() if p.withdrawn_from] == [4]
    assert "ResultCorrected" in types
    assert all(g.result is not Result.UNKNOWN for g in games)
    res = cli("standings", "--db", SAMPLE, "--json")
    assert res.code == 0 and '"round": 5' in res.out


def test_regenerating_the_sample_gives_the_same_events(tmp_path: Path) -> None:
    out = tmp_path / "again.db"
    subprocess.run([sys.executable, str(REPO / "samples" / "make_sample.py"), str(out)], check=True,
                   env={"PYTHONPATH": str(REPO)})
    with Ledger.open(SAMPLE) as a, Ledger.open(out) as b:
        assert [(r.type, r.payload) for r in a.records()] == [(r.type, r.payload) for r in b.records()]
