"""Fitting text into a legacy 8-bit encoding by transliterating what it cannot hold.

Used by writers that offer ``--encoding latin-1`` (the EGD accepts ISO-8859-1; spec
``egd.md`` §8): characters ISO-8859-1 can encode are kept (``é``, ``ß``, ``ø``), the others
are replaced by their ASCII transliteration from the ``anyascii`` library (``Ł`` → ``L``,
``ő`` → ``o``, ``張`` → ``Zhang``), or ``?`` when there is none.

>>> to_charset("Łukasz Kovács", "latin-1")
'Lukasz Kovács'
>>> to_charset("Şükrü ½", "latin-1")
'Sükrü ½'
>>> to_charset("Œuvre", "ascii")
'Oeuvre'
"""

from __future__ import annotations

import codecs

__all__ = ["to_charset"]


def to_charset(text: str, encoding: str) -> str:
    """``text`` with every character ``encoding`` cannot hold transliterated."""
    codec = codecs.lookup(encoding).name
    out: list[str] = []
    for char in text:
        try:
            char.encode(codec)
        except UnicodeEncodeError:
            # anyascii loads late (tens of modules): only a name outside the encoding needs it
            from anyascii import anyascii

            out.append(anyascii(char) or "?")
        else:
            out.append(char)
    return "".join(out)
