"""A recorded result in a director's words, naming the winner (issue 40, item 4), and the
desk's refusal of a single letter the page's language reads otherwise.

:func:`outcome_words` says who won and how (``"Altan Kuntay (black) won by resignation"``),
in the language written in, so that a volunteer sees at once whether the result he typed is
the one he meant; ``goledger result`` and ``correct`` and the desk's result forms confirm
with it. :func:`letter_problem` is the desk's check of a result typed as one letter: goledger
reads ``w`` and ``b`` in English (white, black); a page in a language that reads the letter
as another word (Turkish and French ``b``: *beyaz*, *blanc* = white) refuses it with the
words to type (:data:`goledger.ledger.result_notation.LETTERS`).

>>> from goledger.ledger.values import Result
>>> outcome_words(Result.BLACK, "R", False, "Altan Kuntay", "Berg Anna")
'Berg Anna (black) won by resignation'
>>> outcome_words(Result.JIGO, "", False, "Altan Kuntay", "Berg Anna")
'jigo between Altan Kuntay (white) and Berg Anna (black)'
>>> letter_problem("b", "tr")  # doctest: +ELLIPSIS
"'b' is refused: in Turkish it reads as beyaz but goledger reads it as black; type beyaz, siyah, berabere ...
>>> letter_problem("b", "en") is None, letter_problem("w", "de") is None, letter_problem("W+R", "tr") is None
(True, True, True)
"""

from __future__ import annotations

from typing import Final

from goledger.i18n import N_, gettext
from goledger.i18n.numbers import decimal
from goledger.ledger.result_notation import LETTERS, RESULT_WORDS, word_key
from goledger.ledger.values import Result

__all__ = ["ambiguous_problem", "letter_problem", "outcome_words"]

_WON: Final = {
    "": N_("%(player)s (%(colour)s) won"),
    "R": N_("%(player)s (%(colour)s) won by resignation"),
    "T": N_("%(player)s (%(colour)s) won on time"),
    "F": N_("%(player)s (%(colour)s) won by forfeit"),
    "points": N_("%(player)s (%(colour)s) won by %(points)s points"),
    "default": N_("%(player)s (%(colour)s) won by default"),
}
"""The winner's sentence for each margin (``points``: a Go margin in points; ``default``: a
result by default without a margin of its own)."""

_SHARED: Final = {
    Result.JIGO: N_("jigo between %(white)s (white) and %(black)s (black)"),
    Result.BOTH_LOSE: N_("both lose: %(white)s (white) and %(black)s (black)"),
    Result.BOTH_WIN: N_("both win: %(white)s (white) and %(black)s (black)"),
    Result.UNKNOWN: N_("no result between %(white)s (white) and %(black)s (black)"),
}
"""The sentence of a result without one winner."""


_LANGUAGES: Final = {"tr": N_("Turkish"), "hu": N_("Hungarian"), "fr": N_("French"), "de": N_("German")}
"""The languages whose letters may be refused, by their names in the sentence."""


def outcome_words(result: Result, margin: str, by_default: bool, white: str, black: str) -> str:
    """Who won the game of ``white`` and ``black`` (their names) and how, in the current
    language; a result without one winner names both players with their colours, and
    ``by_default`` adds ``(by default)`` to those."""
    if result in (Result.WHITE, Result.BLACK):
        winner = white if result is Result.WHITE else black
        colour = gettext("white") if result is Result.WHITE else gettext("black")
        how = ("default" if by_default else "") if not margin else margin if margin in _WON else "points"
        text = gettext(_WON[how]) % {"player": winner, "colour": colour, "points": decimal(margin)}
        if by_default and margin and margin != "F":
            text += " " + gettext("(by default)")
        return text
    text = gettext(_SHARED[result]) % {"white": white, "black": black}
    return text + (" " + gettext("(by default)") if by_default else "")


def letter_problem(word: str, language: str) -> str | None:
    """Why ``word``, a result typed at a desk page in ``language``, is refused as a single
    letter that language reads otherwise than goledger does (``None``: not such a letter).
    goledger reads ``w`` as white and ``b`` as black; the sentence names the page language's
    result words to type instead."""
    letter = word_key(word)
    local = LETTERS.get(language, {}).get(letter)
    if len(letter) != 1 or local is None or language == "en":
        return None
    ours = LETTERS["en"].get(letter)
    meant = RESULT_WORDS[language].get(local)
    if ours is not None and meant is not None and meant.value == ours:
        return None
    names = {"letter": word.strip(), "language": gettext(_LANGUAGES[language]), "local": local,
             "words": ", ".join(RESULT_WORDS[language])}
    if meant is None or ours is None:
        return gettext("'%(letter)s' is not a result goledger reads; type the result as a word: %(words)s "
                       "(or 1-0, 0-1, =)") % names
    return gettext("'%(letter)s' is refused: in %(language)s it reads as %(local)s but goledger reads it as "
                   "%(ours)s; type %(words)s (or 1-0, 0-1, =)") % {**names, "ours": gettext(ours)}


_AMBIGUOUS_MEANINGS: Final = {
    "0": N_("a black win (0-1) or a jigo"),
    "1": N_("a white win (1-0) or both winning (1-1)"),
    "½": N_("half a point of either player"),
    "0.5": N_("half a point of either player"),
    "-": N_("no result or a loss"),
}
"""What each bare token of :data:`goledger.ledger.result_notation.AMBIGUOUS` could mean."""


def ambiguous_problem(word: str, language: str) -> str | None:
    """Why ``word``, typed at a desk page in ``language`` (not English: the notation's own
    sentence is English), is refused as a bare token a volunteer could mean two ways, with the
    page language's result words to type instead (``None``: not such a token)."""
    key = word.strip()
    meaning = _AMBIGUOUS_MEANINGS.get(key)
    if meaning is None or language not in RESULT_WORDS or language == "en":
        return None
    return gettext("'%(typed)s' is refused: it could mean %(meaning)s; type %(words)s (or 1-0, 0-1, =)") % {
        "typed": key, "meaning": gettext(meaning), "words": ", ".join(RESULT_WORDS[language])}
