"""The settings form's rules (issue 43, item 2) on tournaments folded in memory: the rules in
force as the form shows them, the changes a filled form means, their preview, and the
``KEY=VALUE`` words the desk records them in; the desk itself is tested over HTTP in
``tests/web/test_web_settings_form.py``."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from goledger.commands.rules import decide_change_rules
from goledger.commands.rules_preview import preview_change_rules
from goledger.commands.settings_form import changes_from, rules_in_force
from goledger.commands.settings_text import parse_settings, settings_words
from goledger.ledger import events as ev
from goledger.pairing.opengotha.parameters import resolve
from goledger.replay.fold.state import TournamentState, fold
from goledger.replay.scoring.registries import check_registered
from goledger.replay.scoring.standings import standings

from .conftest import refusal_open, refused


def asked(state: TournamentState, **changes: object) -> dict[str, object]:
    """The form as shown (the rules in force) with ``changes`` made by the director."""
    return {**msgspec.to_builtins(rules_in_force(state)), **changes}


def test_the_form_as_shown_changes_nothing(state: TournamentState) -> None:
    assert changes_from(state, asked(state)) == {}
    rules = rules_in_force(state)
    assert rules.criteria == ["MMS", "SOSM", "SOSOSM"] and rules.withdrawn == "absent"
    assert rules.pairing["paiMaSeedSystem2"] == "SPLITANDSLIP" and rules.handicap["ceiling"] == 9


def test_only_what_differs_is_changed_and_criteria_by_their_names(state: TournamentState) -> None:
    assert changes_from(state, asked(state, mm_bar="2d", withdrawn="zero", criteria=["mms", "SOSW"])) == {
        "mm_bar": "2d", "withdrawn": "zero", "criteria": ["MMS", "SOSW"]}
    assert refused(lambda: changes_from(state, asked(state, criteria=["MMS", "MCMAHON"]))) == (
        "the criterion MMS is chosen twice")
    assert refused(lambda: changes_from(state, asked(state, criteria=[]))) == (
        "choose at least one placement criterion")


@pytest.mark.parametrize("system", ["swiss", "mcmahon", "cup"])
def test_a_pairing_change_keeps_every_other_parameter_in_force(system: str) -> None:
    """A hand-made tournament reads OpenGotha's defaults for its system; once its pairing set
    is written, every other parameter, the handicap rule included, must stay as it was."""
    state = fold(refusal_open(system=system))
    changes = changes_from(state, asked(state, pairing={"paiMaSeedSystem2": "SPLITANDRANDOM"}))
    assert set(changes) <= {"pairing", "handicap"}
    [event] = decide_change_rules(state, changes)
    after = fold([event], start=state, check=check_registered)
    settings_before, settings_after = state.settings_for_round(2), after.settings_for_round(2)
    assert settings_before is not None and settings_after is not None
    before = resolve(settings_before.pairing, system, {}, settings_before).text
    now = resolve(settings_after.pairing, system, {}, settings_after).text
    assert {k for k in before if before[k] != now[k]} == {"paiMaSeedSystem2"}
    assert now["paiMaSeedSystem2"] == "SPLITANDRANDOM"


def test_a_value_opengotha_would_not_read_is_refused(state: TournamentState) -> None:
    assert "paiMaDUDDUpperMode must be one of BOT, MID, TOP" in refused(
        lambda: changes_from(state, asked(state, pairing={"paiMaDUDDUpperMode": "SIDEWAYS"})))


def test_the_preview_lists_exactly_who_moves(state: TournamentState) -> None:
    changes = {"mm_floor": "5k", "withdrawn": "zero"}
    preview = preview_change_rules(state, changes)
    [event] = decide_change_rules(state, changes)
    after = fold([event], start=state, check=check_registered)
    before_places = {r.player_id: r.place for r in standings(state, 1).rows}
    after_places = {r.player_id: r.place for r in standings(after, 1).rows}
    moved = {p: (before_places[p], after_places[p]) for p in before_places if before_places[p] != after_places[p]}
    assert moved, "a higher floor moves someone here"
    assert {m.player_id: (m.before, m.after) for m in preview.moves} == moved
    assert preview.round == 1 and preview.changes == event.changes
    assert preview.pairing_round == 2  # round 2 has no games yet, and the bar is read by its pairing
    assert preview.parameters == []  # no OpenGotha parameter changes


def test_the_preview_of_a_pairing_parameter_names_it(state: TournamentState) -> None:
    changes = changes_from(state, asked(state, pairing={"paiMaSeedSystem2": "SPLITANDFOLD"}))
    preview = preview_change_rules(state, changes)
    assert preview.moves == [] and preview.pairing_round == 2
    assert preview.parameters == [("paiMaSeedSystem2", "SPLITANDSLIP", "SPLITANDFOLD")]
    assert not any(p.startswith("pairing ") for p in preview.phrases), "no JSON dump of the whole set"


def test_the_preview_refuses_as_the_command_refuses(state: TournamentState) -> None:
    assert refused(lambda: preview_change_rules(state, {"mm_floor": "2d", "mm_bar": "1k"})) == refused(
        lambda: decide_change_rules(state, {"mm_floor": "2d", "mm_bar": "1k"}))
    a_scoring_change = preview_change_rules(state, {"nbw2_bye": 0}, from_round=3)
    assert a_scoring_change.pairing_round == 3  # from round 3 on: its pairing, not round 2's


def test_the_words_read_back_as_the_changes(state: TournamentState) -> None:
    changes = changes_from(state, asked(state, mm_bar="2d", criteria=["NBW", "SOSW"], nbw2_bye=1, withdrawn="zero",
                                        pairing={"paiSeRankThreshold": "2D", "paiBaDeterministic": "false"},
                                        handicap={"based_on_mms": False, "no_handicap_threshold": "3d",
                                                  "correction": 0, "ceiling": 5}))
    assert parse_settings(settings_words(changes)) == changes
    assert decide_change_rules(state, parse_settings(settings_words(changes))) == decide_change_rules(state, changes)


@pytest.mark.shared
def test_every_real_opengotha_file_shows_a_form_that_changes_nothing(shared: Path, tmp_path: Path) -> None:
    """An imported file's own parameters (pairgoth writes ``None`` for no additional
    criterion) are shown as the engine reads them: the form sent back unchanged changes nothing."""
    from goledger.formats.opengotha import import_opengotha
    from goledger.replay.views import state_as_of

    files = sorted((shared / "realdata" / "opengotha").glob("*.xml"))
    assert files
    for k, source in enumerate(files):
        db = tmp_path / f"{k}.db"
        import_opengotha(source, db)
        state = state_as_of(db)
        assert changes_from(state, asked(state)) == {}, source.name
        assert isinstance(state.settings, ev.TournamentSettings)
        # a change writes the whole set and keeps the file's own entries the engine does not read
        changes = changes_from(state, asked(state, pairing={"paiBaBalanceWB": "999"}))
        assert changes["pairing"]["paiBaBalanceWB"] == "999", source.name  # type: ignore[index]
        assert set(state.settings.pairing) <= set(changes["pairing"]), source.name  # type: ignore[arg-type]
