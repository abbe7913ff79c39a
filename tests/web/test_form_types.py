"""The desk's typed forms (issue 48, item 3): :func:`goledger.web.form_types.decode` reads
every field by one rule and refuses a bad one in one sentence naming it, in the page's
language; any text at all is either read or refused with a CommandRejected, nothing else."""

from __future__ import annotations

import inspect

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goledger.errors import CommandRejected
from goledger.i18n import use_language
from goledger.web import form_types as ft
from goledger.web.form_types import arguments, decode

FORMS = [kind for _, kind in inspect.getmembers(ft, inspect.isclass)
         if issubclass(kind, ft.DeskForm) and kind is not ft.DeskForm]


def refusal(form: dict[str, str], kind: type[ft.DeskForm]) -> str:
    with pytest.raises(CommandRejected) as refused:
        decode(form, kind)
    return refused.value.message


def test_a_form_is_its_commands_keyword_arguments() -> None:
    fields = decode({"round": " 2 ", "table": "7", "handicap": "", "komi": "0.5", "swap_colours": "on"}, ft.EditGame)
    assert arguments(fields) == {"round": 2, "table": 7, "swap_colours": True, "handicap": None, "komi": "0.5",
                                 "move_to": None, "force": False}
    assert arguments(decode({"round": "3", "player": "p0001"}, ft.Withdraw)) == {
        "player": "p0001", "from_round": 3, "reason": ""}
    assert decode({"round": "4", "confirm": "1"}, ft.PairRound).round_ == 4
    assert decode({"status": "preliminary"}, ft.UpdatePlayer).preliminary is True
    assert decode({}, ft.UpdatePlayer).preliminary is None


def test_every_struct_is_frozen_and_keyword_only() -> None:
    assert len(FORMS) >= 25
    for kind in FORMS:
        assert kind.__struct_config__.frozen, kind
        assert all(p.kind is p.KEYWORD_ONLY for p in inspect.signature(kind).parameters.values()), kind


@pytest.mark.parametrize(("form", "kind", "sentence"), [
    ({"round": "3", "table": "１２"}, ft.Unpair, "table '１２' is not a whole number (ASCII digits, at most 18)"),
    ({"round": "3", "table": "٣"}, ft.Unpair, "table '٣' is not a whole number (ASCII digits, at most 18)"),
    ({"round": "3", "table": "9" * 5000}, ft.Unpair,
     f"table '{'9' * 20}…' is not a whole number (ASCII digits, at most 18)"),
    ({"round": "3"}, ft.Unpair, "give the table"),
    ({"table": "3"}, ft.Unpair, "give the round"),
    ({"round": "100", "table": "3"}, ft.Unpair, "round '100' is not a whole number in 1..99"),
    ({"round": "1", "table": "1", "handicap": "10"}, ft.EditGame, "handicap '10' is not a whole number in 0..9"),
    ({"round": "1", "table": "1", "move_to": "0"}, ft.EditGame,
     "table to move to '0' is not a whole number in 1..99999"),
    ({"team": "A", "player": "p1", "board": "11"}, ft.TeamAssign, "board '11' is not a whole number in 1..10"),
    ({"surname": "x" * 201}, ft.Register, "surname is longer than 200 characters"),
    ({"name": "x" * 81}, ft.TeamAdd, "name is longer than 80 characters"),
    ({"status": "maybe"}, ft.UpdatePlayer, "status 'maybe' is not one of final, preliminary"),
    ({"kind": "loved"}, ft.Forbid, "constraint 'loved' is not one of forbidden, unwanted"),
])
def test_a_bad_field_is_refused_in_one_sentence_naming_it(form: dict[str, str], kind: type[ft.DeskForm],
                                                          sentence: str) -> None:
    assert refusal(form, kind) == sentence


def test_the_sentence_is_in_the_pages_language() -> None:
    with use_language("tr"):
        assert refusal({"round": "3"}, ft.Unpair) == "masa alanını doldurun"
        assert refusal({"round": "x", "table": "1"}, ft.Unpair).startswith("tur: 'x' bir tam sayı değil")
    with use_language("hu"):
        assert refusal({"round": "1", "table": "0"}, ft.Unpair) == "asztal: '0' nem 1..99999 közötti egész szám"
    with use_language("de"):
        assert refusal({"round": "1"}, ft.Unpair) == "Angabe fehlt: Tisch"


def test_an_uploaded_file_or_a_blank_field_is_not_given() -> None:
    assert decode({"round": "2", "table": "  ", "note": object()}, ft.ApproveReports).table is None
    assert decode({"round": "2", "note": object()}, ft.Publish).note == ""


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(FORMS),
       values=st.dictionaries(st.sampled_from(["round", "table", "player", "handicap", "move_to", "start", "board",
                                               "from_round", "until_round", "kind", "status", "rating", "komi",
                                               "name", "list", "entry", "confirm", "force", "what", "member1"]),
                              st.text(max_size=30) | st.sampled_from(["1", "-1", "0", "99", "100", "１２", "²"])))
def test_any_text_is_read_or_refused_with_a_sentence(kind: type[ft.DeskForm], values: dict[str, str]) -> None:
    try:
        fields = decode(values, kind)
    except CommandRejected as exc:
        assert exc.message and "\n" not in exc.message
    else:
        assert msgspec.convert(msgspec.to_builtins(fields), kind) == fields  # within its declared bounds


# ---------------------------------------------------------------------------- the desk's actions are the table's


def test_the_desks_actions_are_the_tables() -> None:
    """Issue 48, item 2: ``ACTIONS`` is derived from the table of commands. Every action the
    desk has is named by the table; every desk entry of the table has its one form type; a
    special runner, a subject or the player form names no action the table does not have."""
    from goledger.commands import table
    from goledger.web import actions

    desk = table.desk_actions()
    assert set(actions.ACTIONS) == set(desk) == set(ft.form_of())
    assert {c.name for c in table.COMMANDS if c.desk} <= set(desk)
    assert not set(table.DESK_FORMS) & set(table.by_name())  # a command of the table is marked, not listed again
    assert set(actions._SPECIAL) <= set(desk) and set(actions._SUBJECTS) <= set(desk)
    assert set(table.PLAYER_FORM) <= set(desk)
    for kind in FORMS:  # every form type is an action's, or read by a special runner (ResultForm: result's fields)
        assert kind.__dict__.get("actions") or kind is ft.ResultForm, kind
    for name, action in actions.ACTIONS.items():
        assert action.name == name and action.function == desk[name] and action.form is ft.form_of()[name]
        assert action.function or action.special is not None, f"{name}: no library function and no runner"


@pytest.mark.parametrize("name", sorted(ft.form_of()))
def test_every_action_calls_the_tables_library_function_with_its_forms_keywords(name: str) -> None:
    """The function an action calls is the one the table names (for a command the package
    lends, the package's very function); a form's keywords bind to that function's arguments."""
    import importlib
    from pathlib import Path

    import goledger.commands as package
    from goledger.commands import table
    from goledger.web.actions import ACTIONS

    action = ACTIONS[name]
    if not action.function:
        return
    home, function = action.function.split(".")
    library = getattr(importlib.import_module(f"goledger.commands.{home}"), function)
    assert action.library() is library
    if function in table.library_names():
        assert getattr(package, function) is library
    command = table.by_name().get(name)
    if command is not None:  # a command of the command line: the desk calls what its shell calls
        shell = getattr(importlib.import_module(f"goledger.cli.{command.cli}"), command.function)
        assert inspect.unwrap(shell).__name__ == function
    if action.special is None:
        info = msgspec.inspect.type_info(action.form)
        assert isinstance(info, msgspec.inspect.StructType)
        fields = decode({f.encode_name: "1" for f in info.fields if f.required}, action.form)
        inspect.signature(library).bind(Path("t.db"), **fields.keywords(), actor="", reason="",
                                        expected_head=None, retry=False)


def test_an_action_two_form_types_name_is_refused() -> None:
    class Twice(ft.DeskForm, frozen=True, kw_only=True):
        actions = ("unpair",)

    try:
        ft.form_of.cache_clear()
        with pytest.raises(TypeError, match="both name the desk action 'unpair'"):
            ft.form_of()
    finally:
        del Twice
        import gc

        gc.collect()
        ft.form_of.cache_clear()
    assert ft.form_of()["unpair"] is ft.Unpair
