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
    ("hu", None, "8 per page", "oldalanként 8"),
    ("hu", None, "Round %(round)s · table %(table)s", "%(round)s. forduló · %(table)s. asztal"),
    ("hu", None, "Back to round %(round)s", "Vissza a %(round)s. fordulóhoz"),
    ("hu", None, "Round (from)", "Ettől a fordulótól"),
    ("hu", None, "Rd", "Ford."),
    ("hu", None, "Another desk changed this after your page was shown.",
     "Egy másik versenyiroda-gép megváltoztatta ezt, miután az oldala megjelent."),
    ("hu", None, "Rating preview (EGD GoR 2021)", "GoR-előnézet (EGD GoR 2021)"),
    ("hu", None, "Round %(round)s: all %(games)s results in",
     "%(round)s. forduló: mind a(z) %(games)s eredmény megvan"),  # a(z): chosen from the number when shown
]
"""(language, context, msgid, the translation the review asks for)."""


def _strings(message) -> list[str]:
    return [s for s in (message.string if isinstance(message.string, (list, tuple)) else [message.string]) if s]


@pytest.mark.parametrize(("language", "context", "msgid", "wanted"), REVIEWED)
def test_the_review_correction_is_in_the_catalog(language: str, context: str | None, msgid: str,
                                                 wanted: str) -> None:
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
