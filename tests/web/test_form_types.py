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
