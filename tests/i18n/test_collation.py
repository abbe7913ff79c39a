"""Names in each language's alphabet (issue 33, item 3): pyuca's DUCET with the Turkish and
Hungarian CLDR tailorings (``goledger.i18n.collation``), tried on real players' names."""

from __future__ import annotations

import random

import pytest

from goledger.i18n.collation import key_for, sort_key

TURKISH = ["Akın", "Aydın", "Bayram", "Celik", "Cem", "Coşkun", "Çakır", "Çelebi", "Çetin", "Dag", "Demir", "Doğan",
           "Gül", "Güneş", "Ğ", "Hakan", "Ilgaz", "Işık", "İnan", "İpek", "Kaya", "Oktay", "Ozan", "Öz", "Öztürk",
           "Sarı", "Sezer", "Şahin", "Şen", "Tunç", "Uçar", "Uysal", "Ünal", "Yıldız", "Yılmaz", "Zengin"]
"""Turkish surnames as a Turkish phone book orders them: c < ç, g < ğ, ı (I) < i (İ), o < ö,
s < ş, u < ü."""

HUNGARIAN = ["Bakó", "Balogh", "Cukor", "Czene", "Csanyi", "Csányi", "Cseh", "Dávid", "Deák", "Dzurkó", "Dzsida",
             "Fekete", "Gál", "Gulyás", "Gyöngyösi", "Győri", "Kasza", "Kaszab", "Kassza", "Kovács", "Lakatos",
             "Lengyel", "Lukács", "Lyka", "Nagy", "Nyitrai", "Orbán", "Osváth", "Ott", "Őry", "Ötvös", "Sárközi",
             "Sütő", "Szabó", "Szűcs", "Takács", "Tóth", "Tyukodi", "Urbán", "Üveges", "Varga", "Zala", "Zsolnai"]
"""Hungarian surnames in dictionary order: cs, dz, dzs, gy, ly, ny, sz, ty, zs are letters;
ö/ő follow o, ü/ű follow u (ő and ö differ only at the second level, so Őry < Ötvös); a doubled
digraph (ssz) counts twice."""

GERMAN = ["Abel", "Ärger", "Bauer", "Becker", "Böhm", "Müller", "Müllner", "Mummert", "Schäfer", "Schaffer",
          "Schmidt", "Schmitt", "Schröder", "Schulz", "Weiß", "Weiss", "Weissmann", "Zöller"]
FRENCH = ["Côté", "Cote", "Coté", "Côte", "Dupont", "Édouard", "Eluard", "Lefèvre", "Lefebvre", "Leroy", "Mégret",
          "Meyer", "Œuvray", "Pérez", "Perrin"]


def shuffled(names: list[str]) -> list[str]:
    copy = list(names)
    random.Random(33).shuffle(copy)
    return copy


def test_turkish_alphabet() -> None:
    assert sorted(shuffled(TURKISH), key=key_for("tr")) == TURKISH


def test_hungarian_alphabet() -> None:
    assert sorted(shuffled(HUNGARIAN), key=key_for("hu")) == HUNGARIAN


def test_english_puts_accents_second() -> None:
    assert sorted(["Dag", "Cem", "Çelebi", "Celik"], key=key_for("en")) == ["Çelebi", "Celik", "Cem", "Dag"]
    assert sorted(["Şahin", "Zeynep", "Sarı", "Smith"], key=key_for("en")) == ["Şahin", "Sarı", "Smith", "Zeynep"]


def test_german_accents_and_sharp_s_are_secondary() -> None:
    order = sorted(shuffled(GERMAN), key=key_for("de"))
    assert order.index("Ärger") < order.index("Bauer")  # Ä is an A with an accent, not a letter after Z
    assert order.index("Müller") < order.index("Müllner") < order.index("Mummert")
    assert order.index("Schäfer") < order.index("Schaffer")  # ä is a at the first level: e < f decides
    assert order[-1] == "Zöller"
    assert abs(order.index("Weiß") - order.index("Weiss")) == 1


def test_french_accents_are_secondary_and_forward() -> None:
    # CLDR fr (France): accents compared from the start of the word, like English.
    assert sorted(["côte", "côté", "coté", "cote"], key=key_for("fr")) == ["cote", "coté", "côte", "côté"]
    order = sorted(shuffled(FRENCH), key=key_for("fr"))
    assert order.index("Édouard") < order.index("Eluard")
    assert order.index("Lefebvre") < order.index("Lefèvre") < order.index("Leroy")


@pytest.mark.parametrize("language", ["en", "tr", "hu", "fr", "de"])
def test_case_is_a_tertiary_difference(language: str) -> None:
    assert sort_key("ali", language) < sort_key("Ali", language) < sort_key("alim", language)


def test_turkish_dotted_and_dotless_capitals() -> None:
    key = key_for("tr")
    assert key("Işık") < key("İnan") < key("Jale")  # I (dotless) < İ (dotted) < J
    assert key("Ilgaz") < key("ılık") < key("Işık")
    assert key("Hüseyin") < key("Irmak")  # ı comes after h


def test_hungarian_doubled_digraphs() -> None:
    key = key_for("hu")
    assert key("Kasza") < key("Kaszab") < key("Kassza")  # ssz = sz + sz
    assert key("Ottó") < key("Ötvös") < key("Pál")
