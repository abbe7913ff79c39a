"""Reading numbers out of untrusted text (shared by the readers and writers of formats).

``str.isdigit()`` is not a licence to call ``int()``: it is true for ``"²"`` (which ``int``
refuses), for Arabic-Indic and full-width digits, and for 5,000 ASCII digits (beyond
Python's int-string limit, so ``int`` raises again). Tournament files hold small ASCII
numbers; anything else is "not a number", to be reported by the caller.

>>> ascii_int("42"), ascii_int(" 7 "), ascii_int("²"), ascii_int("١٢"), ascii_int("1" * 5000), ascii_int("-3")
(42, 7, None, None, None, None)
>>> ascii_int("-3", signed=True), ascii_int("+3", signed=True), ascii_int("1_000")
(-3, 3, None)

Decimals likewise (``Fraction("8/0")`` would raise ``ZeroDivisionError``, and ``Fraction`` also
reads ``1e3``, ``3/2`` and ``1_0``, none of which a points column holds):

>>> ascii_decimal("2.5"), ascii_decimal(" 3,5 "), ascii_decimal("8/0"), ascii_decimal("1e3"), ascii_decimal("-1")
(Fraction(5, 2), Fraction(7, 2), None, None, None)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from goledger.ledger.values import bounded_int, parse_number

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = ["MAX_DIGITS", "ascii_decimal", "ascii_int", "is_ascii_number"]

MAX_DIGITS: Final = 18
"""More digits than any count, round, table, rating or PIN a tournament file holds."""

_UNSIGNED: Final = re.compile(f"[0-9]{{1,{MAX_DIGITS}}}")
_SIGNED: Final = re.compile(f"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
_DECIMAL: Final = re.compile(f"([0-9]{{1,{MAX_DIGITS}}})(?:[.,]([0-9]{{1,{MAX_DIGITS}}}))?")


BLANKS: Final = " \t\r\n"
"""The blanks a number may stand between (``str.strip()`` would also take the C0 separators
``\x1c``–``\x1f``, which ``int()`` refuses)."""


def is_ascii_number(text: str, signed: bool = False) -> bool:
    """Whether ``text`` (surrounding blanks ignored) is a plain ASCII integer ``int`` reads.

    >>> is_ascii_number(" 0042 "), is_ascii_number("\x1c004"), is_ascii_number("1" * 19)
    (True, False, False)
    """
    return (_SIGNED if signed else _UNSIGNED).fullmatch(text.strip(BLANKS)) is not None


def ascii_int(text: str, signed: bool = False) -> int | None:
    """The plain ASCII integer in ``text`` (surrounding blanks ignored), else ``None``
    (:func:`goledger.ledger.values.bounded_int`, the one bounded reading of a whole number)."""
    try:
        return bounded_int(text, signed=signed, digits=MAX_DIGITS)
    except ValueError:
        return None


def ascii_decimal(text: str) -> Fraction | None:
    """The plain non-negative ASCII decimal in ``text`` (``2.5`` or ``2,5``; surrounding
    blanks ignored) as an exact fraction, else ``None``."""
    if _DECIMAL.fullmatch(text.strip(BLANKS)) is None:
        return None
    return parse_number(text, signed=False)  # the one bounded reading of a decimal
