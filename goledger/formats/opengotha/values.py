"""OpenGotha's value syntax: ranks, booleans, numbers, result codes, criterion names and
the reader defaults (spec ``formats/opengotha-xml.md`` §3, §4.1, §7).

Both directions use this module, so that the reader and the writer agree on what a text
in the file *means*. The rule for round trips: the ledger stores the meaning (a canonical
rank such as ``"4d"``); the verbatim text is kept in ``extras`` only when it differs from
what the writer would produce for that meaning (``"99K"``, ``"2P"``), and the writer uses
the verbatim text only while it still means the current value.

>>> og_rank("4D"), og_rank("4k"), og_rank("99K"), og_rank("2p"), og_rank("12")
(3, -4, -30, 6, -12)
>>> og_rank("abc") is None, og_rank("9" * 5000 + "K") is None
(True, True)
>>> rank_text(3), canonical_rank(-4)
('4D', '4k')
>>> parse_result("RESULT_BLACKWINS_BYDEF")
('black', True)
>>> result_code("both-lose", True)
'RESULT_BOTHLOSE_BYDEF'
"""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "DP_DEFAULTS",
    "GENERAL_DEFAULTS",
    "HANDICAP_DEFAULTS",
    "PAIRING_DEFAULTS",
    "PUBLISH_DEFAULTS",
    "RESULT_CODES",
    "SYSTEM_OF_FIRST_CRITERION",
    "TEAM_CRITERIA_DEFAULT",
    "TEAM_CRITERION_NAMES",
    "TIME_SYSTEMS",
    "canonical_rank",
    "java_bool",
    "og_rank",
    "parse_int",
    "parse_result",
    "rank_text",
    "rating_from_rank",
    "result_code",
]

RANK_MIN: Final = -30
RANK_MAX: Final = 8

_RANK_TEXT: Final = re.compile(r"^\s*([+-]?\d+)\s*([KDP]?)\s*$", re.IGNORECASE)


def og_rank(text: str | None) -> int | None:
    """OpenGotha's integer rank for a rank text, or ``None`` when OpenGotha cannot parse it.

    Case-insensitive; ``<n>K`` is −n, ``<n>D`` is n−1, a bare number is kyu, ``1–3P`` → 7D,
    ``4–6P`` → 8D, ``7P`` and above → 9D; the value is clamped to 30K (−30) … 9D (8)
    (spec §3, ``rank``). OpenGotha turns unreadable text into its sentinel −99 (written back
    as ``99K``, read again as 30K); ``None`` reports that case to the caller.
    """
    if text is None:
        return None
    match = _RANK_TEXT.match(text)
    if match is None:
        return None
    number, kind = parse_int(match.group(1)), match.group(2).upper()
    if number is None:  # beyond Java's int: OpenGotha cannot read it either
        return None
    if kind == "D":
        value = number - 1
    elif kind == "P":
        value = 6 if number <= 3 else 7 if number <= 6 else 8
    else:
        value = -number
    return max(RANK_MIN, min(RANK_MAX, value))


def rank_text(value: int) -> str:
    """The text OpenGotha writes for an integer rank (``"4D"``, ``"12K"``)."""
    value = max(RANK_MIN, min(RANK_MAX, value))
    return f"{-value}K" if value < 0 else f"{value + 1}D"


def canonical_rank(value: int) -> str:
    """The ledger's canonical rank string for an integer rank (``"4d"``, ``"12k"``)."""
    return rank_text(value).lower()


def rating_from_rank(value: int) -> int:
    """OpenGotha's rating for a rank: 1D → 2100, 1K → 2000, 30K → −900 (spec §3, ``rating``)."""
    return (value + 30) * 100 - 900


def java_bool(text: str) -> bool:
    """``Boolean.parseBoolean``: ``true`` in any case is true, anything else false."""
    return text.strip().lower() == "true"


JAVA_INT_MIN: Final = -(2**31)
JAVA_INT_MAX: Final = 2**31 - 1


def parse_int(text: str) -> int | None:
    """An integer as ``Integer.parseInt`` reads it (surrounding spaces tolerated), else ``None``:
    no ``_`` separators, and nothing outside Java's ``int`` range (a huge number is not a number
    OpenGotha can have written).

    >>> parse_int(" 42 "), parse_int("1_000"), parse_int("2147483648"), parse_int("-2147483648")
    (42, None, None, -2147483648)
    """
    stripped = text.strip()
    if "_" in stripped:
        return None
    try:
        value = int(stripped)
    except ValueError:
        return None
    return value if JAVA_INT_MIN <= value <= JAVA_INT_MAX else None


# --------------------------------------------------------------------------- results

RESULT_CODES: Final[dict[str, tuple[str, bool]]] = {
    "RESULT_UNKNOWN": ("unknown", False),
    "RESULT_WHITEWINS": ("white", False),
    "RESULT_BLACKWINS": ("black", False),
    "RESULT_EQUAL": ("jigo", False),
    "RESULT_BOTHLOSE": ("both-lose", False),
    "RESULT_BOTHWIN": ("both-win", False),
    "RESULT_WHITEWINS_BYDEF": ("white", True),
    "RESULT_BLACKWINS_BYDEF": ("black", True),
    "RESULT_EQUAL_BYDEF": ("jigo", True),
    "RESULT_BOTHLOSE_BYDEF": ("both-lose", True),
    "RESULT_BOTHWIN_BYDEF": ("both-win", True),
}
"""Result codes (spec §4.1) → (ledger result, by default)."""

PAIRGOTH_RESULT_CODES: Final[dict[str, tuple[str, bool]]] = {
    "RESULT_BOTHLOOSE": ("both-lose", False),
    "RESULT_BOTHLOOSE_BYDEF": ("both-lose", True),
}
"""pairgoth's misspelling (spec §10); OpenGotha itself reads it as unknown."""

_CODE_OF: Final = {meaning: code for code, meaning in RESULT_CODES.items()}


def parse_result(code: str) -> tuple[str, bool] | None:
    """(result, by_default) for an OpenGotha result code; ``None`` when it is not one."""
    return RESULT_CODES.get(code)


def result_code(result: str, by_default: bool) -> str:
    """The code OpenGotha writes; an unknown result has no by-default variant."""
    if result == "unknown":
        return "RESULT_UNKNOWN"
    return _CODE_OF[(result, by_default)]


# --------------------------------------------------------------------------- criteria
# The individual criteria's names (OpenGotha's and pairgoth's) are in the one registry,
# goledger.replay.scoring.criteria.names; the team criteria are OpenGotha's own.

TEAM_CRITERION_NAMES: Final = frozenset(
    {"TEAMP", "SOST", "BDW", "MNR"} | {f"BDW{n}U" for n in range(1, 10)}
)
TEAM_CRITERIA_DEFAULT: Final = ("TEAMP", "BDW", "BDW3U", "BDW2U", "BDW1U", "MNR")

SYSTEM_OF_FIRST_CRITERION: Final = {"MMS": "mcmahon", "NBW": "swiss", "CAT": "swisscat", "CPS": "cup"}
"""The first placement criterion decides the system (spec §7.3)."""

TIME_SYSTEMS: Final = {
    "SUDDENDEATH": "sudden-death",
    "STDBYOYOMI": "byo-yomi",
    "CANBYOYOMI": "canadian",
    "FISCHER": "fischer",
}

# --------------------------------------------------------------------------- defaults

GENERAL_DEFAULTS: Final = {
    "shortName": "defaultshortname",
    "name": "default Name",
    "location": "Paris",
    "director": "",
    "bInternet": "false",
    "basicTime": "60",
    "complementaryTimeSystem": "CANBYOYOMI",
    "stdByoYomiTime": "30",
    "nbMovesCanTime": "15",
    "canByoYomiTime": "300",
    "fischerTime": "10",
    "size": "19",
    "komi": "7.5",
    "numberOfRounds": "5",
    "numberOfCategories": "1",
    "genMMFloor": "20K",
    "genMMBar": "4D",
    "genMMZero": "30K",
    "genNBW2ValueAbsent": "0",
    "genNBW2ValueBye": "0",
    "genMMS2ValueAbsent": "0",
    "genMMS2ValueBye": "0",
    "genRoundDownNBWMMS": "true",
    "genCountNotPlayedGamesAsHalfPoint": "false",
}
"""Reader defaults of ``GeneralParameterSet`` (spec §7.1; dates default to "today")."""

HANDICAP_DEFAULTS: Final = {
    "hdBasedOnMMS": "true",
    "hdNoHdRankThreshold": "1D",
    "hdCorrection": "1",
    "hdCeiling": "9",
}
"""Reader defaults of ``HandicapParameterSet`` (spec §7.2)."""

PAIRING_DEFAULTS: Final = {
    "paiBaAvoidDuplGame": "500000000000000",
    "paiBaBalanceWB": "1000",
    "paiBaDeterministic": "true",
    "paiBaRandom": "0",
    "paiMaAdditionalPlacementCritSystem1": "Rating",
    "paiMaAdditionalPlacementCritSystem2": "NULL",
    "paiMaAvoidMixingCategories": "20000000000000",
    "paiMaCompensateDUDD": "true",
    "paiMaDUDDLowerMode": "MID",
    "paiMaDUDDUpperMode": "MID",
    "paiMaDUDDWeight": "100000000",
    "paiMaLastRoundForSeedSystem1": "2",
    "paiMaMaximizeSeeding": "5000000",
    "paiMaMinimizeScoreDifference": "100000000000",
    "paiMaSeedSystem1": "SPLITANDRANDOM",
    "paiMaSeedSystem2": "SPLITANDFOLD",
    "paiSeAvoidSameGeo": "100000000000",
    "paiSeBarThresholdActive": "true",
    "paiSeDefSecCrit": "100000000000",
    "paiSeMinimizeHandicap": "0",
    "paiSeNbWinsThresholdActive": "true",
    "paiSePreferMMSDiffRatherThanSameClub": "3",
    "paiSePreferMMSDiffRatherThanSameCountry": "1",
    "paiSeRankThreshold": "4D",
    "paiStandardNX1Factor": "0.5",
}
"""Reader defaults of ``PairingParameterSet`` (spec §7.4). The legacy
``paiSePreferMMSDiffRatherThanSameClubsGroup`` has no default: kept only when present."""

DP_DEFAULTS: Final = {
    "displayClCol": "true",
    "displayCoCol": "true",
    "displayIndGamesInMatches": "true",
    "displayNPPlayers": "false",
    "displayNumCol": "true",
    "displayPlCol": "true",
    "gameFormat": "full",
    "playerSortType": "name",
    "showByePlayer": "true",
    "showNotFinallyRegisteredPlayers": "true",
    "showNotPairedPlayers": "true",
    "showNotParticipatingPlayers": "false",
    "showPlayerClub": "true",
    "showPlayerCountry": "false",
    "showPlayerGrade": "true",
}
"""``DPParameterSet`` values recorded when a file has no such set (OpenGotha then keeps
its current display options). The spec (§7.5) gives no defaults; these are the values
most of the ~80 real saves in ``shared`` hold."""

PUBLISH_DEFAULTS: Final = {
    "exportToLocalFile": "true",
    "htmlAutoScroll": "false",
    "print": "true",
}
"""``PublishParameterSet`` values recorded when a file has none (spec §7.5 gives no
defaults; these are the values most real saves hold)."""
