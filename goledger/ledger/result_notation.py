"""Result notations a director types (issue 20.6): goledger's names and short forms, chess
style scores and Go (SGF ``RE``) style results with their margin, and the result words of
every language goledger speaks (:data:`RESULT_WORDS`: *beyaz*, *fekete*, *remis*…; issue 40,
item 4). A bare token a volunteer could mean two ways (:data:`AMBIGUOUS`: ``0`` typed for
``0-1``, ``1`` for ``1-0``) is refused with the forms to use; the single letters each
language reads its own way are listed in :data:`LETTERS` (the desk refuses one whose reading
in the page's language differs from goledger's, :mod:`goledger.describe.results`).

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
>>> parse_result_notation("Siyah").result.value, parse_result_notation("WEISS").result.value
('black', 'white')
>>> parse_result_notation("0")
Traceback (most recent call last):
...
ValueError: '0' could mean a black win (0-1) or a jigo: type 0-1 (or B+, black) for a black win, jigo (or =) for a jigo
>>> parse_result_notation("B+x")
Traceback (most recent call last):
...
ValueError: 'B+x' is not a result: after B+ give R (resignation), T (time), F (forfeit) or the points, e.g. B+2.5
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final, NamedTuple

from goledger.ledger.values import Result

__all__ = ["AMBIGUOUS", "LETTERS", "RESULT_HELP", "RESULT_WORDS", "ResultNotation", "parse_result_notation",
           "word_key"]

RESULT_WORDS: Final[dict[str, dict[str, Result]]] = {
    "en": {"white": Result.WHITE, "black": Result.BLACK, "jigo": Result.JIGO, "draw": Result.JIGO},
    "tr": {"beyaz": Result.WHITE, "siyah": Result.BLACK, "berabere": Result.JIGO},
    "hu": {"fehér": Result.WHITE, "fekete": Result.BLACK, "döntetlen": Result.JIGO},
    "fr": {"blanc": Result.WHITE, "noir": Result.BLACK, "nulle": Result.JIGO},
    "de": {"weiß": Result.WHITE, "schwarz": Result.BLACK, "remis": Result.JIGO},
}
"""Each language's result words (the winner's colour, or the jigo), accepted in every language:
no word of one language means another result in another. Matched by :func:`word_key` (case,
``ß``/``ss`` and the accents folded: ``feher``, ``WEISS``, ``SİYAH`` are read too)."""

LETTERS: Final[dict[str, dict[str, str]]] = {
    "en": {"w": "white", "b": "black"},
    "tr": {"b": "beyaz", "s": "siyah"},
    "hu": {"f": "fehér", "d": "döntetlen"},
    "fr": {"b": "blanc", "n": "noir"},
    "de": {"w": "weiß", "s": "schwarz", "r": "remis"},
}
"""The single letters a volunteer of each language may type for a result, and the word he means
by it (Hungarian ``f`` is both *fehér* and *fekete*: listed as the first). goledger reads only
the English ones (``w``, ``b``); a letter another language reads otherwise (Turkish and French
``b`` = white) is refused at a desk page in that language."""

AMBIGUOUS: Final[dict[str, str]] = {
    "0": "could mean a black win (0-1) or a jigo: type 0-1 (or B+, black) for a black win, jigo (or =) for a jigo",
    "1": "could mean a white win (1-0) or both winning (1-1): type 1-0 (or W+, white) for a white win, both-win "
         "for both",
    "½": "could be half a point of either player: type jigo (or =, ½-½) for a jigo",
    "0.5": "could be half a point of either player: type jigo (or =, ½-½) for a jigo",
    "-": "could mean no result or a loss: type 0-1 or 1-0 for the winner, or leave the game without a result",
}
"""Bare tokens a volunteer could mean two ways, each refused with the forms to use (a hurried
``0`` meant as ``0-1`` was once recorded as a jigo)."""

RESULT_HELP: Final = (
    "white: w, white, 1-0, W+, W+R (resignation), W+T (time), W+2.5 (points), W+F (forfeit, recorded by default); "
    "black: b, black, 0-1, B+, B+R, B+T, B+2.5, B+F; jigo: jigo, =, draw, 0.5-0.5, ½-½; "
    "both-lose: both-lose, 0-0; both-win: both-win, 1-1; or the words beyaz, siyah, berabere, fehér, fekete, "
    "döntetlen, blanc, noir, nulle, weiß, schwarz, remis"
)
"""The notations :func:`parse_result_notation` accepts, for command help texts."""


def word_key(text: str) -> str:
    """``text`` folded for matching a result word: case (``casefold``: ``ß`` → ``ss``, Turkish
    ``İ`` → ``i``), then accents dropped (``fehér`` → ``feher``).

    >>> word_key("WEIß"), word_key("Fehér"), word_key("SİYAH"), word_key("Döntetlen")
    ('weiss', 'feher', 'siyah', 'dontetlen')
    """
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


_WORD_RESULTS: Final = {word_key(word): result for words in RESULT_WORDS.values() for word, result in words.items()}


class ResultNotation(NamedTuple):
    result: Result
    margin: str = ""
    forfeit: bool = False


_WORDS: Final = {"r": "R", "res": "R", "resign": "R", "t": "T", "time": "T", "f": "F", "forfeit": "F"}
_POINTS: Final = re.compile(r"\d{1,4}(?:\.\d{1,2}|½)?|½")
_DRAWS: Final = {"0.5-0.5", "1/2-1/2", "½:½", "0.5:0.5", "tie"}


def parse_result_notation(text: str) -> ResultNotation:
    """Read a result as typed (case-insensitive, a result word of any language); refuses a bare
    token of :data:`AMBIGUOUS` with the forms to use, and anything else with the list of forms."""
    key = text.strip()
    if key in AMBIGUOUS:
        raise ValueError(f"{key!r} {AMBIGUOUS[key]}")
    worded = _WORD_RESULTS.get(word_key(key))
    if worded is not None:
        return ResultNotation(worded)
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
