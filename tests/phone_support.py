"""Long names for measuring pages and printouts (issue 44, item 5): the names the native review
saw broken or cut (``../shared/reviews/translations.md``), Hungarian, Turkish and Korean ones of
the same kind, and the longest names of EGC 2011 when ``../shared`` is here; and the words a
name is measured by (a double name may break after its own hyphen, between its two words)."""

from __future__ import annotations

import re

from .conftest import SHARED

LONG_NAMES = [  # (surname, first name, country)
    ("Csizmadia", "György", "HU"), ("Jeon", "Sang Youn", "KR"), ("Karaerkek", "Kerem Mehmet", "TR"),
    ("Sütő", "Lőrinc", "HU"), ("Erdoğan", "Özgür", "TR"), ("Akbaş", "Serhat", "TR"),
    ("Szőkefalvi-Nagy", "Zsuzsanna Erzsébet", "HU"), ("Kıyak", "Çağlayan", "TR"), ("Baek", "Hyeon Woo", "KR"),
    ("Ohlenbusch-Schulz", "Heidrun", "DE"), ("Fernandez-Diez", "Jesus-Maria", "ES"),
    ("Zalaegerszegi", "Boldizsár", "HU"), ("Karamahmutoğlu", "Gülşah", "TR"), ("Papp", "Ede", "HU"),
    ("Kovács", "Áron", "HU"), ("Çoban", "İlknur", "TR"),
]
EGC_2011 = "lucvannier_opengotha__egc2011.xml"


def longest_real_names(count: int) -> list[tuple[str, str, str]]:
    """The ``count`` longest names of EGC 2011's 760 players (``[]`` without ``../shared``)."""
    source = SHARED / "realdata" / "opengotha" / EGC_2011 if SHARED is not None else None
    if source is None or not source.exists():
        return []
    found = re.findall(r'firstName="([^"]*)" name="([^"]*)"', source.read_text(encoding="utf-8", errors="replace"))
    return [(surname, first, "") for first, surname in sorted(found, key=lambda fn: -len(fn[0] + fn[1]))[:count]]


def field(count: int) -> list[tuple[str, str, str]]:
    """:data:`LONG_NAMES` and then EGC 2011's ``count`` longest names, each surname once."""
    names = list(LONG_NAMES)
    names += [n for n in longest_real_names(count) if n[0] not in {m[0] for m in names}]
    return names


def name_words(names: list[tuple[str, str, str]]) -> list[str]:
    """The words the names are measured by: split at spaces and at a double name's hyphen.

    >>> name_words([("Ohlenbusch-Schulz", "Heidrun", "DE")])
    ['Heidrun', 'Ohlenbusch', 'Schulz']
    """
    return sorted({w for surname, first, _ in names for w in re.split(r"[\s-]+", f"{surname} {first}") if w})
