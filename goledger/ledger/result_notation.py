"""Result notations a director types (issue 20.6): goledger's names and short forms, chess
style scores and Go (SGF ``RE``) style results with their margin.

:func:`parse_result_notation` turns one into the board :class:`~goledger.ledger.values.Result`,
the margin kept as an annotation (``R`` resignation, ``T`` time, ``F`` forfeit, or points such
as ``2.5``) and whether the notation itself says the game was won by forfeit (``W+F``).
The margin never scores: only the result does (spec ``scoring.md`` §1.1).

>>> parse_result_notation("B+2.5")
ResultNotation(result=<Result.BLACK: 'black'>, margin='2.5', forfeit=False)
>>> parse_result_notation("w+r").margin, parse_result_notation("W+Time").margin
('R', 'T')
>>> parse_result_notation("W+F").forfeit, parse_result_notation("0.5-0.5").result.value
(True, 'jigo')
>>> parse_result_notation("B+x")
Traceback (most recent call last):
...
ValueError: 'B+x' is not a result: after B+ give R (resignation), T (time), F (forfeit) or the points, e.g. B+2.5
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from goledger.ledger.values import Result

__all__ = ["RESULT_HELP", "ResultNotation", "parse_result_notation"]

RESULT_HELP: Final = (
    "white: w, white, 1-0, W+, W+R (resignation), W+T (time), W+2.5 (points), W+F (forfeit, recorded by default); "
    "black: b, black, 0-1, B+, B+R, B+T, B+2.5, B+F; jigo: jigo, =, draw, 0.5-0.5, ½-½, 0; "
    "both-lose: both-lose, 0-0; both-win: both-win, 1-1"
)
"""The notations :func:`parse_result_notation` accepts, for command help texts."""


class ResultNotation(NamedTuple):
    result: Result
    margin: str = ""
    forfeit: bool = False


_WORDS: Final = {"r": "R", "res": "R", "resign": "R", "t": "T", "time": "T", "f": "F", "forfeit": "F"}
_POINTS: Final = re.compile(r"\d{1,4}(?:\.\d{1,2}|½)?|½")
_DRAWS: Final = {"0.5-0.5", "1/2-1/2", "½:½", "0.5:0.5", "0", "tie"}


def parse_result_notation(text: str) -> ResultNotation:
    """Read a result as typed (case-insensitive); refuses anything else with the list of forms."""
    key = text.strip()
    go = re.fullmatch(r"([WwBb])\s*\+\s*(.*)", key)
    if go:
        colour, rest = go.groups()
        result = Result.WHITE if colour.lower() == "w" else Result.BLACK
        rest = rest.strip()
        if not rest:
            return ResultNotation(result)
        word = _WORDS.get(rest.lower())
        if word is not None:
            return ResultNotation(result, word, word == "F")
        if _POINTS.fullmatch(rest):
            return ResultNotation(result, ("0" + rest if rest == "½" else rest).replace("½", ".5"))
        raise ValueError(f"{text!r} is not a result: after {colour.upper()}+ give R (resignation), T (time), "
                         f"F (forfeit) or the points, e.g. {colour.upper()}+2.5")
    if key.lower() in _DRAWS:
        return ResultNotation(Result.JIGO)
    try:
        return ResultNotation(Result.parse(key))
    except ValueError:
        raise ValueError(f"{text!r} is not a result: use {RESULT_HELP}") from None
