"""A new tournament (:mod:`goledger.commands.creation`): the system's preset, and every
setting refused before a file is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from goledger.commands.creation import new
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger

from .conftest import refused


def test_a_new_ledger_holds_the_systems_preset(tmp_path: Path) -> None:
    outcome = new(tmp_path / "t.db", "Open", 5, system="swiss", actor="td")
    assert outcome.message == f"created {tmp_path / 't.db'} for Open (swiss, 5 rounds)" and outcome.seqs == [1]
    with Ledger.open(tmp_path / "t.db") as ledger:
        [created] = ledger.events()
    assert isinstance(created, ev.TournamentCreated)
    assert created.settings.criteria == ("NBW", "SOSW", "SOSOSW") and created.settings.mm_bar == "9d"


def test_a_knockout_counts_its_rounds_at_the_draw(tmp_path: Path) -> None:
    assert new(tmp_path / "k.db", "Cup", None, system="knockout").message.endswith("(knockout, rounds set at the draw)")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"system": "ladder"}, "unknown system 'ladder'"),
    ({"name": " "}, "a tournament needs a name"),
    ({"rounds": 0}, "a tournament has 1..99 rounds, not 0"),
    ({"rounds": None}, "a mcmahon tournament needs --rounds"),
    ({"bar": "20k", "floor": "10k"}, "the McMahon floor 10k is above the bar 20k"),
    ({"komi": "6.3"}, "komi '6.3' must be a whole or half number"),
    ({"begin_date": "2026-13-01"}, "begin date"),
    ({"language": "xx"}, "language 'xx' has no catalog"),
])
def test_refusals_write_nothing(tmp_path: Path, kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"name": "Open", "rounds": 3, **kwargs}
    assert message in refused(lambda: new(tmp_path / "t.db", **args))  # type: ignore[arg-type]
    assert not (tmp_path / "t.db").exists()
