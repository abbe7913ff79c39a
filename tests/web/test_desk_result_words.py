"""Result words at the desk (issue 40, item 4), over HTTP on a running ``goledger serve``: a
Turkish page refuses ``b`` (*beyaz*, white, to a Turkish volunteer; black to goledger) with the
words to type, reads *siyah* and *beyaz*, refuses a bare ``0``, and confirms each result naming
the winner in Turkish; an English page still reads ``b`` as black. The browser test is in
``tests/web/test_desk_result_words_e2e.py``."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from goledger import commands
from goledger.ledger.store import Ledger
from goledger.replay.views import state_as_of

from ..desk_server import DeskServer
from .test_web_attacks import logged_in

httpx = pytest.importorskip("httpx")

HX = {"HX-Request": "true"}


def _head(db: Path) -> int:
    with Ledger.open(db) as ledger:
        return ledger.head().seq


@pytest.fixture
def turkish(tmp_path: Path) -> Path:
    """A Turkish tournament: round 1 paired by hand, Kuntay Altan black at table 1."""
    db = tmp_path / "t.db"
    commands.new(db, "İstanbul Açık", 3, "mcmahon", "3d", "20k", None, None, "7.5", language="tr")
    for surname, first, rank in (("Yılmaz", "Ece", "2d"), ("Altan", "Kuntay", "1k"), ("Demir", "Can", "4k"),
                                 ("Kaya", "Ada", "5k"), ("Şahin", "Efe", "6k"), ("Öztürk", "Naz", "7k")):
        commands.register(db, surname, first, rank)
    for table, (white, black) in enumerate((("p0001", "p0002"), ("p0003", "p0004"), ("p0005", "p0006")), 1):
        commands.pair(db, 1, white, black, table)
    return db


def _message(text: str) -> str:
    found = re.search(r'id="entry-message"[^>]*>([^<]*)<', text)
    assert found, text[:500]
    return html.unescape(found.group(1))


def test_a_turkish_page_refuses_b_and_reads_the_words(turkish: Path) -> None:
    with DeskServer(turkish) as desk:
        client, csrf = logged_in(desk.url)

        def enter(entry: str, lang: str = "") -> tuple[int, str]:
            page = client.get("/desk/round/1/results" + (f"?lang={lang}" if lang else ""))
            head = re.search(r'name="expected_head" value="(\d+)"', page.text)
            assert head, page.text[:300]
            r = client.post("/desk/do/result", headers=HX, data={
                "csrf": csrf, "expected_head": head.group(1), "round": "1", "fragment": "results", "entry": entry})
            return r.status_code, _message(r.text)

        page = client.get("/desk/round/1/results").text
        assert "12 beyaz" in page and "12 siyah" in page  # the hint in the page's words, not 12 b
        before = _head(turkish)
        status, message = enter("1 b")
        assert status == 400 and message == (
            "'b' kabul edilmez: Türkçe dilinde beyaz olarak okunur, ama goledger onu siyah olarak okur; "
            "beyaz, siyah, berabere yazın (ya da 1-0, 0-1, =)"), message
        status, message = enter("1 s")
        assert status == 400 and message == (
            "'s' goledger'ın okuduğu bir sonuç değil; sonucu kelimeyle yazın: beyaz, siyah, berabere "
            "(ya da 1-0, 0-1, =)"), message
        status, message = enter("1 0")
        assert status == 400 and message == (
            "'0' kabul edilmez: siyahın galibiyeti (0-1) ya da berabere (jigo) anlamına gelebilir; "
            "beyaz, siyah, berabere yazın (ya da 1-0, 0-1, =)"), message
        assert _head(turkish) == before
        status, message = enter("1 siyah")
        assert status == 200 and message == "1. tur 1. masa: Altan Kuntay (siyah) kazandı", message
        status, message = enter("2 Beyaz!")
        assert status == 200 and message == "1. tur 2. masa: Demir Can (beyaz) hükmen kazandı", message
        status, message = enter("3 b", lang="en")  # an English page reads b as black
        assert status == 200 and message == "round 1 table 3: Öztürk Naz (black) won", message
        assert _head(turkish) == before + 3
    games = state_as_of(turkish).games[1]
    assert [(games[t].result.value, games[t].by_default) for t in (1, 2, 3)] == [
        ("black", False), ("white", True), ("black", False)]
