"""The rules of changing the rules (:mod:`goledger.commands.rules`) on a tournament folded in
memory; ``tests/commands/test_change_rules_cli.py`` goes through the CLI."""

from __future__ import annotations

from goledger.commands.rules import change_rules_message, decide_change_rules
from goledger.ledger import events as ev
from goledger.replay.fold.state import TournamentState

from .conftest import refused


def test_a_change_records_only_what_changes(state: TournamentState) -> None:
    events = decide_change_rules(state, {"komi": "6.5", "rounds": 3})
    assert events == [ev.RulesChanged(changes={"komi": "6.5"}, from_round=None)]
    assert change_rules_message(state, events, {"komi": "6.5", "rounds": 3}).startswith(
        "rules changed retroactively: komi")


def test_a_change_from_a_round_on(state: TournamentState) -> None:
    [event] = decide_change_rules(state, {"komi": "0.5"}, from_round=2)
    assert isinstance(event, ev.RulesChanged) and event.from_round == 2
    assert change_rules_message(state, [event], {"komi": "0.5"}).startswith("rules changed from round 2: ")


def test_refusals(state: TournamentState) -> None:
    assert refused(lambda: decide_change_rules(state, {"rounds": 3})) == (
        "these settings already have these values; nothing to change")
    assert refused(lambda: decide_change_rules(state, {"komi": "6.5"}, from_round=9)) == (
        "round 9 is outside 1..3 of this tournament")
    assert "policy" in refused(lambda: decide_change_rules(state, {"policy": "no-such-policy"}))
