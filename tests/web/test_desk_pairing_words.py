"""The refusals of pair-round's engine, the freeze, the players' keys, bulk registration, the
OpenGotha parameters and change-rules' phrases in the page's language (issue 44, item 1):
over HTTP, a Turkish and a Hungarian desk is refused a round the OpenGotha engine cannot pair
and is shown why in its own language (no English fragment of the catalogs, no ``a(z)``, no
command-line words), the ledger unchanged; and each library refusal made for the desk in
Turkish reads as the catalog's Turkish, naming the desk's controls, not options."""

from __future__ import annotations

from pathlib import Path

import pytest

from goledger import commands
from goledger.commands.bulk import register_from_file
from goledger.errors import GoledgerError
from goledger.i18n import use_language
from goledger.i18n.messages import at_desk
from goledger.ledger.store import Ledger
from goledger.pairing.engine import PairingRequest

from ..desk_server import DeskServer
from .test_desk_messages_in_language import CLI_WORDS, NAMES, _english, _head, _shown
from .test_web_attacks import logged_in

httpx = pytest.importorskip("httpx")


def _round_one_played(folder: Path, language: str) -> Path:
    """A McMahon of six in ``language``, round 1 paired by hand and played, and the bye of
    round 2 given to p0001: five players are left to pair in round 2."""
    db = folder / f"{language}.db"
    commands.new(db, "Kupa", 3, "mcmahon", "3d", "20k", None, None, "7.5", language=language)
    for surname, first, rank in NAMES[language]:
        commands.register(db, surname, first, rank)
    for table, (white, black) in enumerate((("p0001", "p0002"), ("p0003", "p0004"), ("p0005", "p0006")), 1):
        commands.pair(db, 1, white, black, table)
        commands.result(db, 1, table, "white")
    commands.bye(db, "p0001", 2)
    return db


@pytest.fixture(scope="module")
def template():
    from goledger.i18n.catalogs import extract

    return extract()


@pytest.mark.parametrize(("language", "words"), [("tr", "zaten bir Bye var"), ("hu", "már van erőnyerő")])
def test_the_engine_refusal_is_in_the_desk_language(tmp_path: Path, language: str, words: str, template) -> None:
    db = _round_one_played(tmp_path, language)
    with DeskServer(db) as desk:
        client, csrf = logged_in(desk.url)
        before = _head(db)
        response = client.post("/desk/do/pair-round", data={
            "csrf": csrf, "expected_head": str(before), "back": "/desk", "round": "2", "confirm": "1"})
        message = _shown(response.text)
    assert response.status_code in (400, 409) and _head(db) == before, (response.status_code, message)
    assert words in message and "5" in message, message
    assert _english(message, language, template) == []
    assert "a(z)" not in message.lower() and not CLI_WORDS.search(message)


def _turkish_refusal(make) -> str:
    """The sentence ``make()`` refuses with, made for the desk in Turkish."""
    with use_language("tr"), at_desk(), pytest.raises(GoledgerError) as refused:
        make()
    return refused.value.message


def test_the_freeze_refusals_are_turkish(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "Kupa", 3, "mcmahon", "3d", "20k", None, None, "7.5", language="tr")
    assert _turkish_refusal(lambda: commands.freeze(db, "ödül")) == (
        "henüz hiçbir oyun eşleştirilmedi: dondurulacak bir sıralama yok")
    assert _turkish_refusal(lambda: commands.freeze(db, " ")) == (
        "sıralamanın neden dondurulduğunu yazın: gerekçeyi doldurun")
    assert _turkish_refusal(lambda: commands.unfreeze(db, "hata")) == "sıralama dondurulmuş değil"
    with Ledger.open(db) as ledger:
        assert ledger.head().seq == 1  # refused: the log as it was


def test_the_keys_engine_and_parameter_refusals_are_turkish(tmp_path: Path) -> None:
    from goledger.keys import issue_key
    from goledger.pairing.opengotha.engine import ENGINE
    from goledger.pairing.opengotha.parameters import resolve
    from goledger.replay.loading.load import load_state

    db = tmp_path / "t.db"
    commands.new(db, "Kupa", 3, "mcmahon", "3d", "20k", None, None, "7.5", language="tr")
    commands.register(db, "Yılmaz", "Ece", "2d")
    commands.register(db, "Altan", "Kuntay", "1k")
    assert _turkish_refusal(lambda: issue_key(db, "p0042")) == "'p0042' kimliğine sahip kayıtlı bir oyuncu yok"
    with Ledger.open(db) as ledger:
        state = load_state(ledger)
    request = PairingRequest(round=1, players=("p0001", "p0002"))
    assert _turkish_refusal(lambda: ENGINE.pair_terms(state, request, "p0001", "p0001")) == (
        "bir oyuncu kendisiyle eşleştirilemez")
    assert _turkish_refusal(lambda: ENGINE.pair(state, PairingRequest(round=1, players=("p0001", "p0009")))) == (
        "'p0009' oyuncusu bu turnuvaya kayıtlı değil")
    assert _turkish_refusal(lambda: resolve({}, "mcmahon", {"paiBaRandom": "many"})) == (
        "OpenGotha parametresi paiBaRandom bir tam sayı olmalı, 'many' değil")


def test_the_bulk_registration_refusals_are_turkish(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "Kupa", 3, "mcmahon", "3d", "20k", None, None, "7.5", language="tr")
    empty = tmp_path / "liste.csv"
    empty.write_text("", encoding="utf-8")
    assert _turkish_refusal(lambda: register_from_file(db, empty)) == (
        f"{empty} boş; bir başlık satırı gerekiyor (pin, surname, first_name, rank…)")
    rows = tmp_path / "oyuncular.csv"
    rows.write_text("surname,first_name,rank\nYılmaz,Ece,2d\nAltan,Kuntay,\n", encoding="utf-8")
    assert _turkish_refusal(lambda: register_from_file(db, rows)) == (
        "2 satırdan 1 tanesi reddedildi (satır 3); hiçbir şey yazılmadı")


def test_explain_pairing_names_the_desk_button_in_turkish(tmp_path: Path) -> None:
    db = _round_one_played(tmp_path, "tr")
    assert _turkish_refusal(lambda: commands.explain_pairing(db, 1)) == (
        "1. turun geçerli bir otomatik eşleştirmesi yok (“1. turu eşleştir” ile eşleştirin)")


def test_a_new_policy_names_the_rules_it_changes_in_turkish(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "Kupa", 3, "mcmahon", "3d", "20k", None, None, "7.5", language="tr")
    with use_language("tr"), at_desk():
        message = commands.change_rules(db, {"policy": "egf"}).message
    assert "egf kural setiyle" in message and "Turnuva ayarları sayfasında görünür" in message, message
    assert "goledger settings" not in message and "rules change" not in message
