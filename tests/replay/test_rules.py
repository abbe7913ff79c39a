"""One :class:`~goledger.replay.scoring.rules.Rules` per policy and settings (issue 48, item 4):
the value a round scores and the words that explain it come from the same resolution, round
by round, through ``goledger explain`` on a ledger file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from goledger.ledger import events as ev
from goledger.ledger.store import Ledger

from ..scoring_worked_example import worked_example_events


def _ledger(tmp_path: Path, *extra: ev.Event) -> Path:
    """The worked example (C absent in rounds 2 and 4, tournament absence value ½ in MMS) and ``extra``."""
    path = tmp_path / "rules.db"
    with Ledger.create(path) as db:
        db.append([*worked_example_events(), *extra], actor="test")
    return path


def _mms_terms(cli, ledger: Path, player: str, *options: str) -> tuple[dict[int | None, dict], dict]:
    out = cli("explain", player, "--round", "4", "--criterion", "MMS", "--json", *options, "--db", ledger)
    assert out.code == 0, out.err
    data = json.loads(out.out)
    return {t["round"]: t for t in data["explanations"][0]["terms"]}, data


def test_each_round_scores_and_explains_the_value_in_force_for_it(cli, tmp_path: Path) -> None:
    # From round 3 on an absence is worth nothing in MMS: round 2 keeps the ½ of its own settings.
    ledger = _ledger(tmp_path, ev.RulesChanged(changes={"mms2_absent": 0}, from_round=3))
    terms, _ = _mms_terms(cli, ledger, "C")
    assert (terms[2]["value"], terms[4]["value"]) == (0.5, 0)
    assert terms[2]["rule"] == terms[4]["rule"] == "MMS absent value of the tournament"
    # The EGF policy sets the value itself (½ in every round), and the words say so.
    terms, _ = _mms_terms(cli, ledger, "C", "--policy", "egf")
    assert (terms[2]["value"], terms[4]["value"]) == (0.5, 0.5)
    assert terms[2]["rule"] == terms[4]["rule"] == "MMS absent value of policy egf"


@pytest.mark.parametrize(("options", "points", "source", "rounding"), [
    ((), "½", "the tournament's absence value", "the rounds without a game rounded down together"),
    (("--policy", "egf"), "½", "the policy's value", "the total rounded down"),
])
def test_a_withdrawal_is_explained_with_the_value_it_scored(cli, tmp_path: Path, options: tuple[str, ...],
                                                           points: str, source: str, rounding: str) -> None:
    ledger = _ledger(tmp_path, ev.PlayerWithdrew(player_id="C", from_round=4))
    terms, data = _mms_terms(cli, ledger, "C", *options)
    assert terms[4]["value"] == 0.5 and terms[4]["source"] == "withdrawn"
    assert f"and {points} in MMS ({source}), {rounding}" in data["withdrawal"]


def test_a_tournament_without_round_down_says_nothing_of_rounding(cli, tmp_path: Path) -> None:
    ledger = _ledger(tmp_path, ev.RulesChanged(changes={"round_down": False}), ev.PlayerWithdrew(player_id="C",
                                                                                                 from_round=4))
    terms, data = _mms_terms(cli, ledger, "C")
    # Two absences of ½ each, not rounded: 1 point on top of the start score and the games.
    assert terms[2]["value"] == terms[4]["value"] == 0.5 and not [t for t in terms.values()
                                                                     if t["source"] == "rounding"]
    assert "(the tournament's absence value);" in data["withdrawal"] and "rounded down" not in data["withdrawal"]
