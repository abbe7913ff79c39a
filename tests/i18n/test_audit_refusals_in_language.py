"""The audit's and the start groups' refusals are catalog messages (issue 44, item 1), checked
at the library: in Turkish and Hungarian at the desk (:func:`goledger.i18n.messages.at_desk`)
they are the translations, with the number grouped as the language writes it and the desk's
control named instead of a command-line option; on the command line in English they are the
sentences they always were."""

from __future__ import annotations

from pathlib import Path

import pytest

from goledger import commands
from goledger.audit import disputes, queries
from goledger.errors import CommandRejected
from goledger.i18n import use_language
from goledger.i18n.messages import Message, at_desk
from goledger.replay.scoring.start_scores import parse_groups


def _refusal(call, *args: object) -> CommandRejected:
    with pytest.raises(CommandRejected) as caught:
        call(*args)
    assert isinstance(caught.value.msg, Message), caught.value.message  # a catalog message, not an f-string
    return caught.value


def test_start_groups_refused_in_turkish_and_hungarian() -> None:
    with use_language("tr"):
        assert _refusal(parse_groups, "1d-3d=32, 2d-4d=33").message == "1d-3d ve 2d-4d başlangıç grupları çakışıyor"
        assert "başlangıç grubu" in _refusal(parse_groups, "1d=32").message
    with use_language("hu"):
        assert _refusal(parse_groups, "1d-3d=32, 2d-4d=33").message == (
            "átfedik egymást a kezdőcsoportok: 1d-3d és 2d-4d")
    assert _refusal(parse_groups, "1d-3d=32, 2d-4d=33").message == "start groups 1d-3d and 2d-4d overlap"


def test_what_if_list_refused_with_the_language_s_grouping() -> None:
    with use_language("tr"), at_desk():
        assert _refusal(queries.parse_without, "1-999999999").message == (
            "“Şu olaylar olmasaydı”: bir seferde en fazla 100.000 olay çıkarılabilir")
    with use_language("hu"), at_desk():
        assert "legfeljebb 100\u00a0000 esemény" in _refusal(queries.parse_without, "1-999999999").message
    assert _refusal(queries.parse_without, "1-999999999").message == (
        "without: leave out at most 100,000 events at once")


def test_audit_refusals_name_the_desk_s_controls_at_the_desk(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "Kupa", 3, "mcmahon", "3d", "20k", None, None, "7.5", language="hu")
    commands.register(db, "Sütő", "Lőrinc", "2d")
    cli = _refusal(queries.diff, db, 99)
    assert cli.message == "--from 99 is outside the ledger's events 1..2"
    with use_language("hu"), at_desk():
        desk = _refusal(queries.diff, db, 99).message
        assert desk == ("„Különbség ettől az eseménytől”: a 99. esemény kívül esik a napló 1..2. eseményein")
        assert "--" not in _refusal(queries.what_if, db, ()).message
        assert _refusal(disputes.dispute_sheet, db, "p0001").message == (
            "Sütő Lőrinc: az 1. forduló óta egyetlen esemény sem változtatott a helyzetén, nincs mit megóvni")
    with use_language("tr"):
        assert _refusal(disputes.event_what_if, db, 1).message == (
            "1. olay turnuvayı oluşturuyor: o olmadan sıralama olmaz")
