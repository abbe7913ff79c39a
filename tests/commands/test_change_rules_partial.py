"""A rule change touches only what it names (issue 40, item 3): a partial ``policy_overrides``
is merged into the overrides in force, the message names every setting whose value changed,
and the withdrawal advice is a command that changes that one setting. The deciders are checked
on a tournament folded in memory (a hypothesis property); the late entrant who vanished is
checked through the CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goledger.commands.rules import change_rules_message, decide_change_rules
from goledger.commands.settings import catalogue
from goledger.errors import CommandRejected
from goledger.ledger import events as ev
from goledger.replay.fold.state import TournamentState, fold
from goledger.replay.scoring.policies import get_policy

from .conftest import refusal_open, refused

START_OVERRIDES = {"listed_players": "all", "mms2_bye": 0}
"""The overrides in force before every generated change (OpenGotha's ``new`` sets the first)."""

TOURNAMENT_VALUES: dict[str, list[Any]] = {
    "komi": ["6.5", "0.5", "7.5"], "mm_bar": ["1d", "3d", "5k"], "policy": ["egf", "opengotha"],
    "mms2_absent": [0, 1, 2], "round_down": [True, False], "criteria": [["MMS", "SOSM"], ["MMS", "SOS"]],
}
POLICY_VALUES: dict[str, list[Any]] = {
    "withdrawn": ["zero", "absent"], "listed_players": ["all", "implied"], "not_assigned": ["zero", "absent"],
    "mms2_bye": [0, 1, 2], "nbw2_absent": [0, 1],
}


_NAMES = {s.field: s.name for s in catalogue() if s.kind == "policy" and s.field in POLICY_VALUES}
"""Each generated policy field's name on the command line (``policy.mms2_bye``: ``mms2_bye`` is
also a tournament setting)."""


def _start() -> TournamentState:
    return fold(refusal_open(ev.RulesChanged(changes={"policy_overrides": START_OVERRIDES})))


def _policy_part() -> st.SearchStrategy[dict[str, Any]]:
    """A partial ``policy_overrides``: some policy fields, each a value or ``None`` (drop it)."""
    field = st.sampled_from(sorted(POLICY_VALUES))
    return st.dictionaries(field, st.none() | field.flatmap(lambda f: st.sampled_from(POLICY_VALUES[f])),
                           min_size=1, max_size=3).map(
        lambda d: {k: (v if v is None or v in POLICY_VALUES[k] else POLICY_VALUES[k][0]) for k, v in d.items()})


def _changes() -> st.SearchStrategy[dict[str, Any]]:
    tournament = st.sampled_from(sorted(TOURNAMENT_VALUES)).flatmap(
        lambda k: st.tuples(st.just(k), st.sampled_from(TOURNAMENT_VALUES[k])))
    policy = st.sampled_from(sorted(POLICY_VALUES)).flatmap(
        lambda k: st.tuples(st.just(_NAMES[k]), st.sampled_from(POLICY_VALUES[k])))
    overrides = _policy_part().map(lambda d: ("policy_overrides", d))
    return st.lists(tournament | policy | overrides, min_size=1, max_size=4).map(dict)


def _named(changes: dict[str, Any]) -> tuple[set[str], set[str]]:
    """The tournament fields and the policy fields ``changes`` names."""
    by_name = {name: field for field, name in _NAMES.items()}
    tournament = {k for k in changes if k not in by_name and k != "policy_overrides"}
    policy = {by_name[k] for k in changes if k in by_name} | set(changes.get("policy_overrides", {}))
    return tournament, policy


_MISSING = object()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changes=_changes(), from_round=st.sampled_from([None, 2]))
def test_no_rule_change_alters_a_setting_it_was_not_given(changes: dict[str, Any], from_round: int | None) -> None:
    state = _start()
    try:
        events = decide_change_rules(state, changes, from_round)
    except CommandRejected:
        return
    after = fold([*refusal_open(ev.RulesChanged(changes={"policy_overrides": START_OVERRIDES})), *events])
    tournament, policy = _named(changes)
    old, new = state.settings_for_round(3), after.settings_for_round(3)
    old_fields, new_fields = msgspec.to_builtins(old), msgspec.to_builtins(new)
    for name in old_fields.keys() - tournament - {"policy_overrides"}:
        assert new_fields[name] == old_fields[name], f"{name} changed by {changes}"
    for field in (old.policy_overrides.keys() | new.policy_overrides.keys()) - policy:
        assert new.policy_overrides.get(field, _MISSING) == old.policy_overrides.get(field, _MISSING), (
            f"override {field} changed by {changes}")
    if from_round is not None:
        assert after.settings_for_round(1) == state.settings_for_round(1)
    message = change_rules_message(state, events, changes)
    old_policy = msgspec.to_builtins(get_policy(old.policy).with_overrides(old.policy_overrides))
    new_policy = msgspec.to_builtins(get_policy(new.policy).with_overrides(new.policy_overrides))
    for field in POLICY_VALUES:
        if old_policy[field] != new_policy[field]:
            assert re.search(rf"\b{field}\b", message), f"{field} changed but {message!r} does not say so"


def test_a_partial_policy_overrides_keeps_the_others_and_says_what_changed() -> None:
    state = _start()
    changes = {"policy_overrides": {"withdrawn": "zero"}}
    [event] = decide_change_rules(state, changes)
    assert event == ev.RulesChanged(changes={"policy_overrides": {**START_OVERRIDES, "withdrawn": "zero"}})
    assert change_rules_message(state, [event], changes) == (
        "rules changed retroactively: withdrawn absent → zero (policy opengotha)")


def test_null_drops_one_override_and_the_empty_object_drops_them_all() -> None:
    state = _start()
    [event] = decide_change_rules(state, {"policy_overrides": {"mms2_bye": None}})
    assert event.changes == {"policy_overrides": {"listed_players": "all"}}
    assert change_rules_message(state, [event], {"policy_overrides": {"mms2_bye": None}}) == (
        "rules changed retroactively: policy.mms2_bye 0 → tournament (policy opengotha)")
    [event] = decide_change_rules(state, {"policy_overrides": {}})
    assert event.changes == {"policy_overrides": {}}
    message = change_rules_message(state, [event], {"policy_overrides": {}})
    assert "listed_players all → implied" in message and "policy.mms2_bye 0 → tournament" in message


def test_a_new_policy_names_every_rule_it_changes() -> None:
    state = _start()
    [event] = decide_change_rules(state, {"policy": "egf"})
    message = change_rules_message(state, [event], {"policy": "egf"})
    assert message.startswith("rules changed retroactively: policy opengotha → egf; with policy egf ")
    assert "direct_comparison" in message and "policy.mms2_absent" in message
    assert "listed_players" not in message  # its override holds it at all under both


def test_an_override_that_names_no_policy_setting_is_refused() -> None:
    assert refused(lambda: decide_change_rules(_start(), {"policy_overrides": {"colour": "blue"}})) == (
        "policy_overrides names 'colour', which is no policy setting; `goledger settings` lists every "
        "setting and its values")


def test_the_withdrawal_advice_keeps_a_late_entrant_in_the_standings(tmp_path: Path, cli) -> None:
    """Issue 40 item 3 as reproduced: the advice of ``withdraw``, followed word for word, and
    the older JSON form, both leave the late entrant listed (``listed_players`` stays ``all``)."""
    db = tmp_path / "t.db"
    assert cli("new", "--db", db, "--name", "Late Open", "--rounds", "3").code == 0
    for surname in ("Ali", "Berg", "Chen", "Dias"):
        assert cli("register", "--db", db, "--surname", surname, "--first-name", "X", "--rank", "3k").code == 0
    assert cli("pair-round", "1", "--db", db).code == 0
    for table in (1, 2):
        assert cli("result", "w", "-r", "1", "-t", str(table), "--db", db).code == 0
    assert cli("register", "--db", db, "--surname", "Late", "--first-name", "Entrant", "--rank", "5k").code == 0
    withdrew = cli("withdraw", "Berg", "--from-round", "2", "--db", db)
    assert withdrew.code == 0, withdrew.err
    advice = re.search(r"\(change-rules ([^ ]+) ", withdrew.out)
    assert advice is not None, withdrew.out
    for words in ([advice.group(1)], ['policy_overrides={"withdrawn":"absent"}']):
        changed = cli("change-rules", *words, "--db", db, "--json")
        assert changed.code == 0, changed.err
        payload = json.loads(changed.out)
        assert "withdrawn" in payload["message"], payload
        standings = json.loads(cli("standings", "--db", db, "--json").out)
        assert "Late" in {row["surname"] for row in standings["rows"]}, standings["rows"]
        listed = {s["name"]: s for s in json.loads(cli("settings", "--db", db, "--json").out)}
        assert listed["listed_players"]["value"] == "all"
    assert cli("pair-round", "2", "--db", db).code == 0
    explained = cli("explain", "Berg", "--db", db)
    assert f"change-rules {advice.group(1)} " in explained.out, explained.out
