"""How names are folded for matching a player to a rating list (issue 34, point 2).

A player gives his name as he writes it (``Çelebican Barkın``, ``Kövács Ödön``, ``Müller``,
``Łukasz Żółć``, ``Dvořák``, ``Françoise``); the EGD list writes it in ASCII (``Celebican
Barkin``, ``Kovacs``, ``Mueller`` or ``Muller``), with blanks inside names as ``_``. Both
sides are folded the same way before they are compared:

1. every letter to ASCII: Latin letters by their Unicode decomposition without the accents
   (Turkish ``ç ş ğ ö ü İ``, Hungarian ``á é í ó ö ő ú ü ű``, German ``ä ö ü``, Polish ``ą ć ę
   ń ó ś ź ż``, Czech ``č ď ě ň ř š ť ů ž``, French ``à â ç é è ê ë î ï ô ù û``, Nordic ``å``…)
   plus the letters decomposition leaves alone (``ı ł ø ß đ æ œ þ ð ħ``), which is what the
   ``anyascii`` library gives for all of them (a test checks every Latin letter); any other
   script (Cyrillic, Greek, CJK…) through ``anyascii``, a maintained table of Unicode
   transliterations, loaded only then (it costs 25 ms to load, a tenth of a search);
2. lower case; every run of anything but letters and digits (blanks, ``_``, ``-``, ``,``,
   ``.``, apostrophes) separates words;
3. for comparison only, :func:`collapse` also reads German ``ae``/``oe``/``ue`` as ``a``/``o``/``u``,
   so ``Müller``, ``Mueller`` and ``Muller`` are one spelling.

>>> tokens("Çelebican Barkın"), tokens("CELEBICAN, barkin")
(['celebican', 'barkin'], ['celebican', 'barkin'])
>>> tokens("Kövács Ödön"), tokens("Łukasz Żółć"), tokens("Dvořák Řehoř"), tokens("İsmail Şükrü")
(['kovacs', 'odon'], ['lukasz', 'zolc'], ['dvorak', 'rehor'], ['ismail', 'sukru'])
>>> tokens("Barbara_van Aarle"), tokens("Saint-Macary Yan"), tokens("O'Hannaidh")
(['barbara', 'van', 'aarle'], ['saint', 'macary', 'yan'], ['o', 'hannaidh'])
>>> collapse("mueller") == collapse("muller") == collapse(tokens("Müller")[0])
True
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

__all__ = ["collapse", "name_key", "to_ascii", "tokens"]

_UNDECOMPOSED: Final = str.maketrans({
    "ı": "i", "ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "ß": "ss", "đ": "d", "Đ": "D", "æ": "ae", "Æ": "AE",
    "œ": "oe", "Œ": "OE", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D", "ħ": "h", "Ħ": "H"})
"""Latin letters that have no decomposition, as anyascii writes them."""

_SEPARATORS: Final = re.compile(r"[^a-z0-9]+")
_GERMAN: Final = re.compile(r"([aou])e")


def tokens(text: str) -> list[str]:
    """The words of a name, folded (module docstring, steps 1 and 2)."""
    if not text.isascii():
        text = to_ascii(text)
    elif text.replace(" ", "").isalnum():  # the usual list entry: words of letters
        return text.lower().split()
    return [t for t in _SEPARATORS.split(text.lower()) if t]


def to_ascii(text: str) -> str:
    """``text`` in ASCII (module docstring, step 1).

    >>> to_ascii("Çelebican Barkın Łukasz Ørsted Straße"), to_ascii("Иванов")
    ('Celebican Barkin Lukasz Orsted Strasse', 'Ivanov')
    """
    folded = unicodedata.normalize("NFKD", text.translate(_UNDECOMPOSED))
    folded = "".join(c for c in folded if not unicodedata.combining(c))
    if folded.isascii():
        return folded
    # anyascii loads late (tens of modules): only a name outside ASCII needs it
    from anyascii import anyascii

    return anyascii(folded)


def name_key(text: str) -> str:
    """The folded words of a name joined by single blanks: what the full-text index holds."""
    return " ".join(tokens(text))


def collapse(token: str) -> str:
    """A folded word with German ``ae``/``oe``/``ue`` read as ``a``/``o``/``u`` (step 3)."""
    return _GERMAN.sub(r"\1", token) if "e" in token else token
