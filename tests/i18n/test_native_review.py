"""The native review of the Turkish and Hungarian texts (issue 44, item 2;
``../shared/reviews/translations.md``): a sample of its corrections as the catalogs now hold
them, and the rules it states for every message — the desk is never the game table's word
(Turkish *masa*, Hungarian *asztal*), Turkish writes *Bye* one way, Hungarian names the EGD's
rating GoR, not *Élőpont* (the MGE's own), and numbers come before the noun."""

from __future__ import annotations

import re

import pytest

from goledger.i18n.catalogs import read_catalog

REVIEWED = [
    ("tr", None, "Another desk changed this after your page was shown.",
     "Sayfanız açıldıktan sonra başka bir yönetim bilgisayarı bu sonucu değiştirdi."),
    ("tr", None, "replaced at the desk: it conflicted with a result entered at another desk",
     "yönetimde değiştirildi: başka bir istasyondan girilen sonuçla çelişiyordu"),
    ("tr", None, "This desk's name", "Bu istasyonun adı"),
    ("tr", None, "Round %(round)s · table %(table)s", "%(round)s. tur · %(table)s. masa"),
    ("tr", None, "Back to round %(round)s", "%(round)s. tura dön"),
    ("tr", None, "Round %(round)s — matches", "%(round)s. tur — maçlar"),
    ("tr", None, "Pairing report", "Eşleştirme raporu"),
    ("tr", None, "Round %(round)s: all %(games)s results in", "%(round)s. tur: %(games)s sonucun tamamı girildi"),
    ("tr", None, "Third place", "Üçüncülük maçı"),
    ("tr", None, "Hash chain", "Hash (özet) zinciri"),
    ("tr", None, "Rating", "Reyting"),
    ("tr", None, "What if", "Bu olaylar olmasaydı ne olurdu?"),
    ("tr", "player's rounds", "absent %(rounds)s", "katılmadığı tur: %(rounds)s"),
    ("tr", None, "The desk's ledger %(file)s does not exist yet: create the tournament, or import a file.",
     "Turnuva kaydı (%(file)s) henüz yok: turnuvayı oluşturun ya da bir dosya içe aktarın."),
    ("tr", None, "desk %(name)s", "%(name)s istasyonu"),
    ("tr", None, "At {when}, {who} {verb} table {table}{players}: {what}.",
     "{when} saatinde {who} {table}. masanın{players} sonucunu {verb}: {what}."),
    ("tr", None, "%(player)s (%(colour)s) won by resignation", "%(player)s (%(colour)s) terkle kazandı"),
    ("tr", None, "%(player)s (%(colour)s) won by default", "%(player)s (%(colour)s) hükmen kazandı"),
    ("tr", None, "black won", "siyah kazandı"),
    ("tr", None, "jigo", "berabere/jigo"),
    ("tr", None, "table %(tables)s", ("%(tables)s. masa", "%(tables)s. masalar")),
    ("tr", None, "Round %(round)s in progress: %(results)s of %(games)s results",
     "%(round)s. tur sürüyor: %(games)s sonuçtan %(results)s tanesi girildi"),
    ("tr", None, "matches of round %(round)s", "%(round)s. turun maçları"),
    ("tr", None, "%(tournament)s · pairings of round %(round)d of %(rounds)d by name",
     "%(tournament)s · %(round)d. tur eşleştirmeleri (%(rounds)d turdan), isme göre"),
    ("tr", None, "lost in round %(round)d of %(rounds)d", "%(round)d. turda elendi (%(rounds)d turdan)"),
    ("tr", None, "Why is %(player)s at place %(place)d?", "%(player)s neden %(place)d. sırada?"),
    ("tr", None, "clamp(%(rank)s, floor %(floor)s, bar %(bar)s) − McMahon zero %(zero)s%(correction)s = %(start)s "
     "(spec §1.1)", "başlangıç puanı: %(rank)s (alt sınır %(floor)s, üst bariyer %(bar)s; McMahon sıfırı "
     "%(zero)s%(correction)s) → %(start)s"),
    ("tr", None, "%(status)s (counted as absent)", "%(status)s, katılmama sayılır"),
    ("tr", None, "%(player)s withdrew from round %(round)d", "%(player)s %(round)d. turdan itibaren çekildi"),
    ("tr", "player's rounds", "plays %(rounds)s", "oynadığı tur: %(rounds)s"),  # right for one round too
    ("tr", None, "Rating list", "EGD reyting listesi"),
    ("tr", None, "choose the rating list file to upload", "yüklenecek reyting listesi dosyasını seçin"),
    ("tr", None, "%(source)s list of %(date)s", "%(date)s tarihli %(source)s listesi"),
    ("tr", None, "Swiss", "İsviçre"),
    ("tr", None, "Knockout", "Eleme"),
    ("tr", None, "Round robin", "Lig (herkes herkesle)"),
    ("hu", None, "8 per page", "oldalanként 8"),
    ("hu", None, "Round %(round)s · table %(table)s", "%(round)s. forduló · %(table)s. asztal"),
    ("hu", None, "Back to round %(round)s", "Vissza a %(round)s. fordulóhoz"),
    ("hu", None, "Round (from)", "Ettől a fordulótól"),
    ("hu", None, "Rd", "Ford."),
    ("hu", None, "Another desk changed this after your page was shown.",
     "Egy másik versenyiroda-gép megváltoztatta ezt, miután az oldala megjelent."),
    ("hu", None, "Rating preview (EGD GoR 2021)", "GoR-előnézet (EGD GoR 2021)"),
    ("hu", None, "%(player)s withdrew from round %(round)d", "%(player)s a(z) %(round)d. fordulótól visszalépett"),
    ("hu", None, "%(tournament)s · pairings of round %(round)d of %(rounds)d by name",
     "%(tournament)s · %(round)d. forduló (%(rounds)d fordulóból) párosítása név szerint"),
    ("hu", None, "Why is %(player)s at place %(place)d?", "Miért %(place)d. helyezett %(player)s?"),
    ("hu", None, "clamp(%(rank)s, floor %(floor)s, bar %(bar)s) − McMahon zero %(zero)s%(correction)s = %(start)s "
     "(spec §1.1)", "kezdőpontszám: %(rank)s (alsó határ %(floor)s, felső határ %(bar)s; MacMahon-nulla "
     "%(zero)s%(correction)s) → %(start)s"),
    ("hu", "short for handicap", "H", "E"),
    ("hu", None, "handicap stones (0: even game)", "előnykövek száma (0: egyenlő játszma)"),
    ("hu", None, "Rating", "GoR"),
    ("hu", None, "%(outcome)s against %(opponent)s rated %(rating)s",
     "%(outcome)s a(z) %(rating)s GoR-os %(opponent)s ellen"),
    ("hu", None, "Renumber (best score, then rating)", "Újraszámozás (legjobb pontszám, majd GoR)"),
    ("hu", None, "replaced at the desk: it conflicted with a result entered at another desk",
     "az irodában lecserélve: ütközött egy másik versenyiroda-gépen rögzített eredménnyel"),
    ("hu", None, "%(player)s (%(colour)s) won by resignation", "%(player)s (%(colour)s) nyert feladással"),
    ("hu", None, "%(player)s (%(colour)s) won by default", "%(player)s (%(colour)s) nyert játék nélkül"),
    ("hu", None, "Round %(round)s: all %(games)s results in",
     "%(round)s. forduló: mind a(z) %(games)s eredmény megvan"),  # a(z): chosen from the number when shown
]
"""(language, context, msgid, the translation the review asks for)."""


def _strings(message) -> list[str]:
    return [s for s in (message.string if isinstance(message.string, (list, tuple)) else [message.string]) if s]


@pytest.mark.parametrize(("language", "context", "msgid", "wanted"), REVIEWED)
def test_the_review_correction_is_in_the_catalog(language: str, context: str | None, msgid: str,
                                                 wanted: str | tuple[str, ...]) -> None:
    entry = read_catalog(language).get(msgid, context=context)
    assert entry is not None and entry.string == wanted, (msgid, entry.string if entry else None)


@pytest.mark.parametrize(("language", "table"), [("tr", "masa"), ("hu", "asztal")])
def test_the_desk_is_never_the_game_table(language: str, table: str) -> None:
    """A message about the desk (the director's computer, English *desk*) never calls it by
    the game table's word."""
    wrong = [(m.id, s) for m in read_catalog(language) if m.id and "desk" in str(m.id).lower()
             and "table" not in str(m.id).lower() for s in _strings(m) if table in s.lower()]
    assert wrong == []


def test_turkish_writes_bye_one_way() -> None:
    wrong = [s for m in read_catalog("tr") if m.id for s in _strings(m) if re.search(r"\bbye\b|\bbay\b", s)]
    assert wrong == []


def test_hungarian_names_the_egd_rating_gor() -> None:
    """*Élőpont* is the MGE's own rating: no message about the EGD's GoR, the rating preview
    or the registration's rating calls it so."""
    wrong = [(m.id, s) for m in read_catalog("hu") if m.id and (
        "GoR" in str(m.id) or str(m.id) in ("Rating", "Rating preview", "rating before", "rating after"))
        for s in _strings(m) if "élőpont" in s.lower() or "értékszám" in s.lower()]
    assert wrong == []
