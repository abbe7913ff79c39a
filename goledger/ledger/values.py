"""Small immutable domain values: ranks, game results, points.

Everything here is exact: points are counted in **half-points** (an ``int``), never in
floats. ``2`` is a win, ``1`` a jigo, ``0`` a loss. Display helpers turn them into ``"1½"``
only at the edges.

>>> Rank.parse("3D")
Rank('3d')
>>> Rank.parse("3d").value, Rank.parse("1k").value, Rank.parse("30k").value
(2, -1, -30)
>>> Result.parse("jigo").points2()
(1, 1)
>>> format_points(7, 2)
'3½'
"""

from __future__ import annotations

import enum
import re
from fractions import Fraction
from functools import total_ordering
from typing import Final

__all__ = [
    "MAX_NUMBER_DIGITS",
    "Rank",
    "RankError",
    "Result",
    "bounded_int",
    "format_points",
    "parse_number",
    "parse_points2",
]


class RankError(ValueError):
    """A rank string that is not ``30k``..``1k``, ``1d``..``9d`` or ``1p``..``9p``."""


_RANK_RE: Final = re.compile(r"^\s*(\d{1,2})\s*([kKdDpP])\s*$")


@total_ordering
class Rank:
    """A Go rank: kyu (``30k`` … ``1k``), dan (``1d`` … ``9d``) or professional (``1p`` … ``9p``).

    Ranks are parsed case-insensitively and print in lower case. They are ordered from
    weakest to strongest. ``value`` is OpenGotha's integer coding (spec
    ``formats/opengotha-xml.md`` §3): ``30k`` = −30, ``1k`` = −1, ``1d`` = 0, ``9d`` = 8;
    professional ranks map like OpenGotha's reader: ``1p``–``3p`` → 7d (6), ``4p``–``6p``
    → 8d (7), ``7p``–``9p`` → 9d (8).

    >>> Rank.parse("1k") < Rank.parse("1d") < Rank.parse("1p")
    True
    >>> str(Rank.parse(" 12K "))
    '12k'
    >>> Rank.from_value(0)
    Rank('1d')
    >>> Rank.parse("10d")
    Traceback (most recent call last):
    ...
    goledger.ledger.values.RankError: '10d' is not a rank: use 30k..1k, 1d..9d or 1p..9p
    """

    __slots__ = ("kind", "number")

    kind: str
    number: int

    def __init__(self, kind: str, number: int) -> None:
        if kind not in ("k", "d", "p"):
            raise RankError(f"rank kind must be k, d or p, not {kind!r}")
        limit = 30 if kind == "k" else 9
        if not 1 <= number <= limit:
            raise RankError(f"'{number}{kind}' is not a rank: use 30k..1k, 1d..9d or 1p..9p")
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "number", number)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Rank is immutable")

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse ``"3d"``, ``"15K"``, ``"2p"`` (any case, surrounding spaces allowed)."""
        match = _RANK_RE.match(text) if isinstance(text, str) else None
        if match is None:
            raise RankError(f"{text!r} is not a rank: use 30k..1k, 1d..9d or 1p..9p")
        number, kind = int(match.group(1)), match.group(2).lower()
        limit = 30 if kind == "k" else 9
        if not 1 <= number <= limit:
            raise RankError(f"{text.strip()!r} is not a rank: use 30k..1k, 1d..9d or 1p..9p")
        return cls(kind, number)

    @classmethod
    def from_value(cls, value: int) -> Rank:
        """The amateur rank for OpenGotha's integer coding (−30 … 8), clamped to that range."""
        value = max(-30, min(8, value))
        return cls("k", -value) if value < 0 else cls("d", value + 1)

    @property
    def value(self) -> int:
        """OpenGotha's integer: 30k = −30 … 1k = −1, 1d = 0 … 9d = 8 (pros folded into 7d–9d)."""
        if self.kind == "k":
            return -self.number
        if self.kind == "d":
            return self.number - 1
        return 6 + (self.number - 1) // 3

    def _order(self) -> tuple[int, int]:
        return (self.value, self.number if self.kind == "p" else 0)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rank) and (self.kind, self.number) == (other.kind, other.number)

    def __lt__(self, other: Rank) -> bool:
        if not isinstance(other, Rank):
            return NotImplemented
        return self._order() < other._order()

    def __hash__(self) -> int:
        return hash((self.kind, self.number))

    def __str__(self) -> str:
        return f"{self.number}{self.kind}"

    def __repr__(self) -> str:
        return f"Rank('{self}')"


class Result(enum.StrEnum):
    """The outcome of a game, seen from the board (DESIGN §3).

    ``by_default`` (forfeit) is a separate flag on the game, not a separate result: a
    by-default white win scores like a white win (spec ``scoring.md`` §1.1).

    >>> Result.parse("W") is Result.WHITE, Result.parse("both-lose")
    (True, <Result.BOTH_LOSE: 'both-lose'>)
    >>> Result.BLACK.points2()
    (0, 2)
    >>> Result.BLACK.flipped()
    <Result.WHITE: 'white'>
    """

    WHITE = "white"
    BLACK = "black"
    JIGO = "jigo"
    BOTH_LOSE = "both-lose"
    BOTH_WIN = "both-win"
    UNKNOWN = "unknown"

    @classmethod
    def parse(cls, text: str) -> Result:
        """Accept the canonical names and the usual short forms (``w``, ``b``, ``=``, ``?``)."""
        key = text.strip().lower().replace("_", "-")
        found = _RESULT_ALIASES.get(key)
        if found is None:
            names = ", ".join(r.value for r in cls)
            raise ValueError(f"{text!r} is not a result: use one of {names}")
        return found

    def points2(self) -> tuple[int, int]:
        """Half-points (white, black) this result gives in the game (unknown gives 0 to both)."""
        return _RESULT_POINTS[self]

    def flipped(self) -> Result:
        """The same outcome with colours swapped."""
        if self is Result.WHITE:
            return Result.BLACK
        if self is Result.BLACK:
            return Result.WHITE
        return self

    @property
    def is_known(self) -> bool:
        return self is not Result.UNKNOWN


_RESULT_POINTS: Final = {
    Result.WHITE: (2, 0),
    Result.BLACK: (0, 2),
    Result.JIGO: (1, 1),
    Result.BOTH_LOSE: (0, 0),
    Result.BOTH_WIN: (2, 2),
    Result.UNKNOWN: (0, 0),
}

_RESULT_ALIASES: Final = {
    **{r.value: r for r in Result},
    "w": Result.WHITE,
    "white-wins": Result.WHITE,
    "1-0": Result.WHITE,
    "b": Result.BLACK,
    "black-wins": Result.BLACK,
    "0-1": Result.BLACK,
    "=": Result.JIGO,
    "draw": Result.JIGO,
    "equal": Result.JIGO,
    "½-½": Result.JIGO,
    "0-0": Result.BOTH_LOSE,
    "bothlose": Result.BOTH_LOSE,
    "1-1": Result.BOTH_WIN,
    "bothwin": Result.BOTH_WIN,
    "?": Result.UNKNOWN,
    "none": Result.UNKNOWN,
}


def format_points(value: int | Fraction, scale: int = 1) -> str:
    """Format an exact value stored in units of ``1/scale`` with ½ and ¼ glyphs.

    >>> format_points(5, 2), format_points(-3, 2), format_points(7, 4), format_points(3, 4)
    ('2½', '-1½', '1¾', '¾')
    >>> format_points(Fraction(1, 3))
    '1/3'
    """
    if type(value) is int and scale in (1, 2, 4):
        return _format_quarters(value * (4 // scale))
    frac = Fraction(value) / scale
    sign = "-" if frac < 0 else ""
    frac = abs(frac)
    whole, rest = divmod(frac, 1)
    glyph = {Fraction(0): "", Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾"}.get(rest)
    if glyph is None:
        return f"{sign}{frac.numerator}/{frac.denominator}" if whole == 0 else f"{sign}{frac}"
    if whole == 0 and glyph:
        return f"{sign}{glyph}"
    return f"{sign}{int(whole)}{glyph}"


_QUARTER_GLYPHS: Final = ("", "¼", "½", "¾")


def _format_quarters(quarters: int) -> str:
    """:func:`format_points` of ``quarters / 4`` in integer arithmetic (the common case:
    standings print thousands of them)."""
    sign = "-" if quarters < 0 else ""
    whole, rest = divmod(abs(quarters), 4)
    glyph = _QUARTER_GLYPHS[rest]
    if whole == 0 and glyph:
        return f"{sign}{glyph}"
    return f"{sign}{whole}{glyph}"


MAX_NUMBER_DIGITS: Final = 18
"""Digits a number written by a person or a file may have before and after its decimal
point: more than any komi, points, rating, count or PIN holds, and few enough that nothing
built from it can take time or memory."""

_NUMBER_TEXT: Final = re.compile(
    f"([+-]?)([0-9]{{1,{MAX_NUMBER_DIGITS}}})(?:[.,]([0-9]{{0,{MAX_NUMBER_DIGITS}}}))?"
    f"|([+-]?)[.,]([0-9]{{1,{MAX_NUMBER_DIGITS}}})"
)
_NUMBER_BLANKS: Final = " \t\r\n"


def parse_number(text: str, *, signed: bool = True, comma: bool = True) -> Fraction:
    """The exact value of a plain decimal number written as text (``"6.5"``, ``"-0,5"``,
    ``"7"``, ``".5"``), bounded **as text** before any arithmetic: ASCII digits, at most
    :data:`MAX_NUMBER_DIGITS` on each side of one decimal point or comma, an optional sign
    (refused unless ``signed``), surrounding blanks ignored; a decimal comma only with
    ``comma`` (a stored komi is written with a point). Everything else raises
    :class:`ValueError` at once, with no number built: exponents (``Fraction("1e999999999")``
    computes a billion-digit integer and takes hours), fractions (``8/0``), ``inf``/``nan``,
    underscores, non-ASCII digits, long digit strings. Every number goledger reads from a
    person or a file goes through here or :func:`bounded_int` (issue 27, point 3).

    >>> parse_number("6.5"), parse_number(" -0,5 "), parse_number("7"), parse_number(".5")
    (Fraction(13, 2), Fraction(-1, 2), Fraction(7, 1), Fraction(1, 2))
    >>> parse_number("1e999999999")
    Traceback (most recent call last):
    ...
    ValueError: '1e999999999' is not a plain decimal number (such as 6.5)
    """
    found = _NUMBER_TEXT.fullmatch(text.strip(_NUMBER_BLANKS)) if len(text) <= 64 else None
    if found is None:
        raise ValueError(f"{_short(text)!r} is not a plain decimal number (such as 6.5)")
    if not comma and "," in text:
        raise ValueError(f"{_short(text)!r} is not a plain decimal number with a decimal point (such as 6.5)")
    sign, whole, decimals, sign2, only = found.groups()
    sign = sign or sign2 or ""
    if sign and not signed:
        raise ValueError(f"{_short(text)!r} is not a plain decimal number without a sign")
    if only is not None:
        whole, decimals = "0", only
    value = Fraction(int(whole + (decimals or "")), 10 ** len(decimals or ""))
    return -value if sign == "-" else value


def bounded_int(text: str, *, signed: bool = True, digits: int = MAX_NUMBER_DIGITS) -> int:
    """The whole number written as ``text`` (ASCII digits, at most ``digits`` of them, an
    optional sign unless not ``signed``, surrounding blanks ignored), checked as text before
    ``int()`` sees it; anything else raises :class:`ValueError`.

    >>> bounded_int(" 42 "), bounded_int("-3")
    (42, -3)
    >>> bounded_int("9" * 5000)
    Traceback (most recent call last):
    ...
    ValueError: '99999999999999999999999999999999…' is not a whole number of at most 18 digits
    """
    raw = text.strip(_NUMBER_BLANKS) if len(text) <= 64 else ""
    body = raw[1:] if raw[:1] in ("+", "-") and signed else raw
    if not (0 < len(body) <= digits and body.isascii() and body.isdigit()):
        raise ValueError(f"{_short(text)!r} is not a whole number of at most {digits} digits")
    return int(raw)


def _short(text: str) -> str:
    """``text`` cut to 32 characters for a message (the refused text may be megabytes)."""
    return text if len(text) <= 32 else text[:32] + "…"


def parse_points2(text: str) -> int:
    """Parse ``"0"``, ``"0.5"``, ``"1"``, ``"½"``, ``"1½"`` into half-points; refuse other fractions.

    >>> parse_points2("0.5"), parse_points2("1"), parse_points2("1½")
    (1, 2, 3)
    >>> parse_points2("0.3")
    Traceback (most recent call last):
    ...
    ValueError: '0.3' is not a whole or half point
    """
    raw = text.strip()
    if raw.endswith("½"):
        head = raw[:-1] or "0"
        raw = f"{head}.5"
    try:
        value = parse_number(raw) * 2  # bounded as text: "1e999999999" is refused, not computed
    except ValueError:
        raise ValueError(f"{_short(text)!r} is not a whole or half point") from None
    if value.denominator != 1:
        raise ValueError(f"{text!r} is not a whole or half point")
    return int(value)


def effective_komi(default: str, komi: str | None, handicap: int) -> str:
    """The komi a game is played with: its own, else ½ in a handicap game (the EGF's rule for
    handicap games), else the tournament's ``default``.

    >>> effective_komi("7.5", None, 0), effective_komi("7.5", None, 2), effective_komi("7.5", "6.5", 2)
    ('7.5', '0.5', '6.5')
    """
    if komi is not None:
        return komi
    return "0.5" if handicap else default
