"""The EGD's 2021 rating system (GoR) in exact decimal arithmetic (spec ``egd.md`` §11).

One game changes a player's rating by

    Δ = con(r) · (Sa − Se) + bonus(r)

where ``Sa`` is 1, ½ or 0 for a win, jigo or loss, ``con(r) = ((3300 − r) / 200) ^ 1.6`` and
``bonus(r) = ln(1 + exp((2300 − r) / 80)) / 5`` use the player's own rating, and the expected
result ``Se = 1 / (1 + exp(β(r₂′) − β(r₁′)))`` with ``β(r) = −7 · ln(3300 − r)`` uses both
ratings *adjusted for handicap*: the handicap receiver (Black) gets ``100 · (H − ½)`` for
``H ≥ 1`` stones. Since ``exp(β(r₂′) − β(r₁′)) = ((3300 − r₁′) / (3300 − r₂′))⁷``, ``Se`` is a
rational function of the ratings and needs no logarithm at all; nor does ``con``, the fifth
root of ``x ^ 8``; ``bonus`` does.

Precision: every value is a :class:`decimal.Decimal` computed in a context of
:data:`PRECISION` (40) significant digits, ``exp``/``ln`` being correctly rounded to that
precision by :mod:`decimal` and ``con`` computed exactly then rounded (:func:`con`); nothing
is rounded before output, where the EGD shows 3 decimals (:func:`shown`). The first check
value of §11 (2100 beats 2100, even):

>>> change(D(2100), D(2100), Sa.WIN)
Decimal('9.306246101609074576556788935911422456752')
>>> shown(change(D(2100), D(2100), Sa.WIN))
'9.306'
>>> shown(expected(D(1950), D(2000), handicap=1, black=True))
'0.500'
"""

from __future__ import annotations

import decimal
from decimal import Decimal
from enum import Enum
from typing import Final

__all__ = [
    "CEILING",
    "FLOOR",
    "PRECISION",
    "D",
    "Sa",
    "bonus",
    "change",
    "con",
    "context",
    "expected",
    "handicap_shift",
    "shown",
]

PRECISION: Final = 40
"""Significant digits of every GoR computation (``decimal``); output rounds to 3 decimals."""

FLOOR: Final = Decimal(-900)
"""No rating goes below −900 (30k), spec §11."""

CEILING: Final = Decimal(3300)
"""The formulas' pole: ``con`` and ``β`` are defined for ratings below 3300 only."""

_CONTEXT: Final = decimal.Context(prec=PRECISION, rounding=decimal.ROUND_HALF_EVEN)
_THOUSANDTH: Final = Decimal("0.001")


def context() -> decimal.Context:
    """The decimal context GoR arithmetic runs in (:data:`PRECISION` digits, half-even)."""
    return _CONTEXT


def D(value: int | str | Decimal) -> Decimal:
    """A ``Decimal`` from an integer or a decimal string (never from a binary float)."""
    if isinstance(value, float):
        raise TypeError("GoR arithmetic takes integers or decimal strings, not floats")
    return Decimal(value)


class Sa(Enum):
    """The actual result of a game for one player: 1, ½ or 0."""

    WIN = Decimal(1)
    JIGO = Decimal("0.5")
    LOSS = Decimal(0)


def con(rating: Decimal) -> Decimal:
    """``((3300 − r) / 200) ^ 1.6``: how much one game can move a rating of ``r`` (§11 ✓),
    correctly rounded to :data:`PRECISION` digits.

    ``x ^ 1.6`` is the fifth root of ``x ^ 8``, an algebraic number: it is computed as the
    integer fifth root of ``x ^ 8`` scaled to some 45 digits (:func:`_fifth_root`), exactly,
    instead of as ``exp(1.6 · ln x)`` (two transcendental functions, five times slower,
    and rounded twice).

    >>> shown(con(D(2100)))
    '17.581'
    >>> con(D(3100)) == 1
    True
    """
    c = _CONTEXT
    x = c.divide(c.subtract(CEILING, rating), Decimal(200))
    if x <= 0:
        raise ValueError(f"con is defined for ratings below {CEILING}, not {rating}")
    # x ^ 1.6 < 10 ^ (1.6 · (adjusted + 1)): digits enough after the point for 45 significant ones
    scale = 45 - (16 * (x.adjusted() + 1)) // 10
    numerator, denominator = x.as_integer_ratio()
    scaled, remainder = divmod(numerator ** 8 * 10 ** (5 * scale), denominator ** 8)
    root = _fifth_root(scaled)
    sticky = 0 if remainder == 0 and root ** 5 == scaled else 1  # inexact: a digit past the end says so
    return c.multiply(Decimal(root * 10 + sticky), Decimal(f"1E-{scale + 1}"))


def _fifth_root(n: int) -> int:
    """``⌊n ^ (1/5)⌋`` of an integer ``n ≥ 0``: Newton's method on integers, from above.

    >>> _fifth_root(32), _fifth_root(242), _fifth_root(243), _fifth_root(10 ** 50)
    (2, 2, 3, 10000000000)
    """
    if n < 2:
        return n
    root = 1 << -(-n.bit_length() // 5)  # 2 ^ ⌈bits / 5⌉ > the root
    while True:
        better = (4 * root + n // root ** 4) // 5
        if better >= root:
            return root
        root = better


def bonus(rating: Decimal) -> Decimal:
    """``ln(1 + exp((2300 − r) / 80)) / 5``: the anti-deflation bonus every game gives (§11 ✓).

    >>> shown(bonus(D(2100))), shown(bonus(D(2700)))
    ('0.516', '0.001')
    """
    c = _CONTEXT
    return c.divide(c.ln(c.add(Decimal(1), c.exp(c.divide(c.subtract(Decimal(2300), rating), Decimal(80))))),
                    Decimal(5))


def handicap_shift(handicap: int) -> Decimal:
    """What ``handicap`` stones add to the receiver's rating for ``Se``: ``100 · (H − ½)`` for
    ``H ≥ 1``, nothing for an even game (§11 ✓, the EGD's "D is reduced by 100(H−0.5)").

    >>> handicap_shift(0), handicap_shift(1), handicap_shift(3)
    (Decimal('0'), Decimal('50'), Decimal('250'))
    """
    if handicap <= 0:
        return Decimal(0)
    return Decimal(100 * handicap - 50)


def expected(rating: Decimal, opponent: Decimal, handicap: int = 0, black: bool = False) -> Decimal:
    """``Se`` of the player rated ``rating`` against ``opponent``: ``1 / (1 + ((3300 − r₁′) /
    (3300 − r₂′))⁷)``, the ratings adjusted for ``handicap`` (Black, the receiver, is raised).

    A handicap can lift an adjusted rating to the formulas' pole (3300) or past it (a 2796
    receiving nine stones: 3646), where ``β`` is undefined. ``Se`` then takes its limit as the
    adjusted rating approaches the pole, 1 for the lifted player and 0 for his opponent (the
    spec is silent: goledger's choice), so a win never lowers a rating.

    >>> shown(expected(D(2100), D(2100))), shown(expected(D("1406.791"), D("1072.993")))
    ('0.500', '0.757')
    >>> expected(D(2796), D(2000), handicap=9, black=True), expected(D(2000), D(2796), handicap=9)
    (Decimal('1'), Decimal('0'))
    """
    c = _CONTEXT
    shift = handicap_shift(handicap)
    own = c.add(rating, shift) if black else rating
    other = opponent if black else c.add(opponent, shift)
    if own >= CEILING or other >= CEILING:
        return Decimal(1) if own >= other else Decimal(0)
    ratio = c.divide(c.subtract(CEILING, own), c.subtract(CEILING, other))
    return c.divide(Decimal(1), c.add(Decimal(1), c.power(ratio, 7)))


def change(rating: Decimal, opponent: Decimal, result: Sa, handicap: int = 0, black: bool = False,
           weight: Decimal = Decimal(1), weight_on: str = "change") -> Decimal:
    """One game's rating change ``con · (Sa − Se) + bonus``, times the class ``weight``: on the
    whole change (``weight_on="change"``) or on the ``con`` term only (``"con"``).

    The second check value of §11 (EGD T191116B, even game):

    >>> shown(change(D("1406.791"), D("1072.993"), Sa.LOSS)), shown(change(D("1072.993"), D("1406.791"), Sa.WIN))
    ('-25.373', '38.864')
    """
    c = _CONTEXT
    se = expected(rating, opponent, handicap, black)
    swing = c.multiply(con(rating), c.subtract(result.value, se))
    if weight_on == "con":
        return c.add(c.multiply(weight, swing), bonus(rating))
    return c.multiply(weight, c.add(swing, bonus(rating)))


def shown(value: Decimal) -> str:
    """``value`` with 3 decimals, as the EGD shows ratings and deltas (half away from zero).

    >>> shown(D("-25.3735")), shown(D(2100))
    ('-25.374', '2100.000')
    """
    return str(value.quantize(_THOUSANDTH, rounding=decimal.ROUND_HALF_UP, context=_CONTEXT))
