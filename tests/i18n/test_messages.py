"""Messages as messages (issue 44, item 1): :mod:`goledger.i18n.messages`.

The Hungarian article is chosen from the number or word that follows (*az* before a vowel
sound, numbers read *egy*, *öt*, *ezer*… included); a :class:`Message` renders in the language
in force, translates its word parameters there, and is rendered again in another language on
demand; a refusal carries it."""

from __future__ import annotations

import pickle

import pytest

from goledger.errors import CommandRejected
from goledger.i18n import N_, use_language
from goledger.i18n.messages import Message, hu_article, resolve_articles, say, word

# The numbers as a Hungarian reads them aloud: the article follows the first sound.
SPOKEN = {1: "egy", 2: "kettő", 5: "öt", 8: "nyolc", 10: "tíz", 11: "tizenegy", 15: "tizenöt", 50: "ötven",
          51: "ötvenegy", 100: "száz", 105: "százöt", 500: "ötszáz", 1000: "ezer", 1005: "ezeröt",
          2000: "kétezer", 5000: "ötezer", 10000: "tízezer", 100000: "százezer", 1000000: "egymillió"}


@pytest.mark.parametrize("number", sorted(SPOKEN))
def test_article_before_a_number_follows_how_it_is_read(number: int) -> None:
    wanted = "az" if SPOKEN[number][0] in "aáeéiíoóöőuúüű" else "a"
    assert hu_article(str(number)) == wanted
    assert hu_article(f"{number}.") == wanted  # an ordinal reads the same way (ötödik, első, tizedik)


@pytest.mark.parametrize(("following", "wanted"), [
    ("opengotha", "az"), ("egf", "az"), ("Élőpont", "az"), ("útmutató", "az"), ("forduló", "a"),
    ("GoR", "a"), ("MMS", "az"), ("SOS", "az"), ("EGD", "az"), ("„Sonuç”", "a"), ("<b>5</b>", "a"),
])
def test_article_before_a_word(following: str, wanted: str) -> None:
    assert hu_article(following) == wanted


def test_the_marker_is_resolved_with_capitals_and_tags() -> None:
    assert resolve_articles("A(z) 3. forduló: mind a(z) 8 eredmény megvan") == "A 3. forduló: mind a 8 eredmény megvan"
    assert resolve_articles("a(z) <b>5</b>. fordulótól") == "az <b>5</b>. fordulótól"
    assert resolve_articles("a(z) opengotha szabályrendszerben") == "az opengotha szabályrendszerben"
    assert resolve_articles("Kaza(z) nothing") == "Kaza(z) nothing"  # only the article marker


def test_a_hungarian_page_has_its_articles_chosen() -> None:
    from goledger.i18n.messages import articles_in_page

    page = "<p>a(z) <b>5</b>. forduló · a(z) 12. asztal</p>"
    with use_language("hu"):
        assert articles_in_page(page) == "<p>az <b>5</b>. forduló · a 12. asztal</p>"
    with use_language("tr"):
        assert articles_in_page(page) == page  # the marker is Hungarian's alone


def test_a_message_renders_in_the_language_in_force_with_its_words_translated() -> None:
    made = {}
    for language in ("en", "tr", "hu"):
        with use_language(language):
            made[language] = say("round %(round)d table %(table)d: %(outcome)s", round=1, table=4,
                                 outcome=word(N_("black")))
    assert made["en"] == "round 1 table 4: black"
    assert "black" not in made["tr"] and "siyah" in made["tr"] and made["tr"].startswith("1. tur 4. masa")
    assert "black" not in made["hu"] and "fekete" in made["hu"] and made["hu"].startswith("1. forduló 4. asztal")
    assert made["en"].render("tr") == made["tr"] and made["tr"].render("en") == made["en"]
    kept = pickle.loads(pickle.dumps(made["hu"]))  # the desk's worker sends it as rendered
    assert isinstance(kept, Message) and kept == made["hu"] and kept.msgid == made["en"].msgid


def test_a_refusal_carries_its_message_and_resolves_the_article() -> None:
    with use_language("hu"):
        refused = CommandRejected(say("round %(round)d is not paired yet", round=5))
    assert refused.msg is not None and refused.msg.params == {"round": 5}
    assert refused.message.startswith("az 5.") or refused.message.startswith("Az 5."), refused.message
    assert "(z)" not in refused.message
    assert CommandRejected("plain").msg is None
    assert CommandRejected("a(z) 1. forduló").message == "az 1. forduló"
