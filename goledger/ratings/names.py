"""How names are folded for matching a player to a rating list (issue 34, point 2).

A player gives his name as he writes it (``Çelebican Barkın``, ``Kövács Ödön``, ``Müller``,
``Łukasz Żółć``, ``Dvořák``, ``Françoise``); the EGD list writes it in ASCII (``Celebican
Barkin``, ``Kovacs``, ``Mueller`` or ``Muller``), with blanks inside names as ``_``. Both
sides are folded the same way before they are compared:

1. every letter to ASCII with ``anyascii`` (a maintained table of Unicode transliterations:
   Turkish ``ç ş ğ ı İ ö ü``, Hungarian ``á é í ó ö ő ú ü ű``, German ``ä ö ü ß``, Polish
   ``ą ć ę ł ń ó ś ź ż``, Czech ``č ď ě ň ř š ť ů ž``, French ``à â ç é è ê ë î ï ô œ ù û``,
   Nordic ``å æ ø``…), chosen over NFKD because NFKD leaves ``ł``, ``ø``, ``ı`` and ``ß``
   alone;
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
from typing import Final

__all__ = ["collapse", "name_key", "tokens"]

_SEPARATORS: Final = re.compile(r"[^a-z0-9]+")
_GERMAN: Final = re.compile(r"([aou])e")


def tokens(text: str) -> list[str]:
    """The words of a name, folded (module docstring, steps 1 and 2)."""
    if not text.isascii():
        from anyascii import anyascii

        text = anyascii(text)
    elif text.replace(" ", "").isalnum():  # the usual list entry: words of letters
        return text.lower().split()
    return [t for t in _SEPARATORS.split(text.lower()) if t]


def name_key(text: str) -> str:
    """The folded words of a name joined by single blanks: what the full-text index holds."""
    return " ".join(tokens(text))


def collapse(token: str) -> str:
    """A folded word with German ``ae``/``oe``/``ue`` read as ``a``/``o``/``u`` (step 3)."""
    return _GERMAN.sub(r"\1", token) if "e" in token else token
