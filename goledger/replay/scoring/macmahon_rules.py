"""MacMahon's own parameters, read from a ledger (spec ``formats/macmahon.md`` §1, §A, §B).

The ledger keeps what every program shares in typed fields (``mm_bar``, ``mm_floor``,
``handicap``, a player's ``rank`` and ``mm_correction``…) and MacMahon's own values in
``extras`` under ``"macmahon.<Element>"`` keys (tournament: ``settings.extras``; walllist
options: ``"macmahon.Walllist.<Element>"``; players: ``player.extras``). This module is the
one place that turns both into the values MacMahon itself would use. It is pure: the
``macmahon`` policy, the MacMahon reader and the MacMahon writer all go through it, so
what is scored, imported and exported agrees.

**Refinement rule.** A stored MacMahon value is used only while it still agrees with the
typed field it refines; once the ledger changes that field (a ``RulesChanged`` of
``mm_bar``, a ``PlayerUpdated`` of ``mm_correction``…), the typed field wins and the
MacMahon value is derived from it again. For example a file with the upper bar switched
off imports as ``mm_bar = 9d`` plus ``macmahon.UpperMacMahonBar = false``; the bar stays off
while ``mm_bar`` is 9d.

Levels. MacMahon levels run 35k…1k, 1d…9d, 1p…10p with the absolute score k → 35−k,
d → 34+d, p → 43+p (spec §1.4). The ledger's ranks stop at 30k and 9p; a level outside
that range is kept in ``macmahon.GoLevel`` and the rank holds the nearest ledger rank.

>>> Level.parse("10 Kyu"), Level.parse("2d").absolute, Level.parse("35k").absolute, Level.parse("1p").absolute
(Level('10k'), 36, 0, 44)
>>> Level.parse("36k")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
goledger.replay.scoring.macmahon_rules.LevelError: illegal Kyu Go rank '36' (MacMahon levels are ...)
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Final

from goledger.i18n.messages import say
from goledger.ledger.events import HandicapSettings, TournamentSettings
from goledger.ledger.values import Rank

__all__ = [
    "PREFIX",
    "Level",
    "LevelError",
    "MacMahonRules",
    "adjustment",
    "bar_settings",
    "bool_text",
    "collation_key",
    "effective_bars",
    "effective_handicap",
    "handicap_settings",
    "komi_for_allow_jigo",
    "macmahon_ids",
    "player_level",
    "start_score",
    "super_bar_member",
]

PREFIX: Final = "macmahon."
WALLLIST: Final = "macmahon.Walllist."

class LevelError(ValueError):
    """A text that is not a MacMahon level."""


_LEVEL_RE: Final = re.compile(r"^(\d{1,3})(k|kyu|d|dan|p|pro)$")
_LEVEL_LIMITS: Final = {"k": 35, "d": 9, "p": 10}
_LEVEL_WORD: Final = {"k": "Kyu", "d": "Dan", "p": "Pro"}


@dataclass(frozen=True, order=False)
class Level:
    """A MacMahon level: ``kind`` ``k``/``d``/``p`` and its number (spec §1.1 "text level")."""

    kind: str
    number: int

    @classmethod
    def parse(cls, text: str) -> Level:
        """Parse a level the way MacMahon's reader does: letters in any case, whitespace ignored
        (spec §B.8: ``10 kyu`` and ``2 dan`` parse, ``36k`` is refused)."""
        raw = "".join(str(text).split()).lower()
        match = _LEVEL_RE.match(raw)
        if match is None:
            raise LevelError(say("%(text)r is not a MacMahon level such as 10k, 2d or 1p", text=text))
        number, kind = int(match.group(1)), match.group(2)[0]
        if not 1 <= number <= _LEVEL_LIMITS[kind]:
            raise LevelError(say("illegal %(kind)s Go rank '%(number)d' (MacMahon levels are 35k..1k, 1d..9d, 1p..10p)",
                                 kind=_LEVEL_WORD[kind], number=number))
        return cls(kind, number)

    @classmethod
    def from_rank(cls, rank: str) -> Level:
        """The level of a ledger rank (the same kind and number)."""
        r = Rank.parse(rank)
        return cls(r.kind, r.number)

    @property
    def absolute(self) -> int:
        """MacMahon's absolute score in points: k → 35−k, d → 34+d, p → 43+p (spec §A)."""
        if self.kind == "k":
            return 35 - self.number
        if self.kind == "d":
            return 34 + self.number
        return 43 + self.number

    def to_rank(self) -> str:
        """The nearest ledger rank (31k–35k → 30k, 10p → 9p)."""
        limit = 30 if self.kind == "k" else 9
        return f"{min(self.number, limit)}{self.kind}"

    @property
    def fits_rank(self) -> bool:
        """Whether a ledger rank holds this level exactly."""
        return self.to_rank() == str(self)

    def __str__(self) -> str:
        return f"{self.number}{self.kind}"

    def __repr__(self) -> str:
        return f"Level('{self}')"


def bool_text(value: bool) -> str:
    """MacMahon's boolean text."""
    return "true" if value else "false"


def _flag(extras: dict[str, str], key: str, default: bool) -> bool:
    text = extras.get(key)
    return default if text is None else text == "true"


def _int(extras: dict[str, str], key: str, default: int) -> int:
    text = extras.get(key)
    if text is None:
        return default
    try:
        return int(text)
    except ValueError:
        return default


def _level(extras: dict[str, str], key: str) -> Level | None:
    text = extras.get(key)
    if text is None:
        return None
    try:
        return Level.parse(text)
    except LevelError:
        return None


# --------------------------------------------------------------------------- bars


def bar_settings(upper_on: bool, upper: Level, lower_on: bool, lower: Level) -> tuple[str, str]:
    """``(mm_bar, mm_floor)`` for MacMahon's bars: the bar level when on, else 9d / 30k."""
    return (upper.to_rank() if upper_on else "9d", lower.to_rank() if lower_on else "30k")


def effective_bars(settings: TournamentSettings) -> tuple[bool, Level, bool, Level]:
    """MacMahon's ``(UpperMacMahonBar, level, LowerMacMahonBar, level)`` for a ledger.

    The stored MacMahon values when they agree with ``mm_bar``/``mm_floor`` (refinement rule),
    else both bars on at ``mm_bar`` and ``mm_floor`` (every OpenGotha tournament has both)."""
    extras = settings.extras
    result: list[Any] = []
    for which, field, off in (("Upper", settings.mm_bar, "9d"), ("Lower", settings.mm_floor, "30k")):
        level = _level(extras, f"{PREFIX}{which}MacMahonBarLevel")
        on_text = extras.get(f"{PREFIX}{which}MacMahonBar")
        if level is not None and on_text is not None:
            on = on_text == "true"
            if (level.to_rank() if on else off) == field:
                result += [on, level]
                continue
        result += [True, Level.from_rank(field)]
    return result[0], result[1], result[2], result[3]


# --------------------------------------------------------------------------- handicap

_HANDICAP_KEYS: Final = (
    "HandicapUsed",
    "HandicapBelow",
    "HandicapBelowLevel",
    "HandicapByLevel",
    "HandicapAdjustment",
    "HandicapAdjustmentValue",
    "HandicapLimit",
    "HandicapLimitValue",
)


def handicap_settings(values: dict[str, str]) -> HandicapSettings:
    """The ledger's handicap settings for MacMahon's eight handicap elements (spec §1.1).

    ``HandicapByLevel`` true = from the grade difference (``based_on_mms`` false);
    ``HandicapAdjustmentValue`` is *added* to the raw handicap (−2 reduces by two), the
    ledger's ``correction`` is subtracted; ``HandicapUsed`` false = even games (ceiling 0)."""
    below = Level.parse(values["HandicapBelowLevel"]) if values.get("HandicapBelow") == "true" else None
    used = values.get("HandicapUsed") == "true"
    limit = int(values.get("HandicapLimitValue") or 0) if values.get("HandicapLimit") == "true" else 9
    adjusted = values.get("HandicapAdjustment") == "true"
    return HandicapSettings(
        based_on_mms=values.get("HandicapByLevel") != "true",
        no_handicap_threshold=below.to_rank() if below is not None else "9d",
        correction=-int(values.get("HandicapAdjustmentValue") or 0) if adjusted else 0,
        ceiling=max(limit, 0) if used else 0,
    )


def effective_handicap(settings: TournamentSettings) -> dict[str, str]:
    """MacMahon's eight handicap elements for a ledger (stored ones while they agree)."""
    extras = settings.extras
    stored = {key: extras[PREFIX + key] for key in _HANDICAP_KEYS if PREFIX + key in extras}
    if len(stored) == len(_HANDICAP_KEYS):
        try:
            if handicap_settings(stored) == settings.handicap:
                return stored
        except (LevelError, ValueError):
            pass
    h = settings.handicap
    return {
        "HandicapUsed": bool_text(h.ceiling > 0),
        "HandicapBelow": "true",
        "HandicapBelowLevel": str(Level.from_rank(h.no_handicap_threshold)),
        "HandicapByLevel": bool_text(not h.based_on_mms),
        "HandicapAdjustment": bool_text(h.correction != 0),
        "HandicapAdjustmentValue": str(-h.correction),
        "HandicapLimit": "true",
        "HandicapLimitValue": str(h.ceiling if h.ceiling > 0 else 9),
    }


def komi_for_allow_jigo(allow_jigo: bool) -> str:
    """The komi a MacMahon tournament implies: it stores only whether jigo is allowed."""
    return "7" if allow_jigo else "7.5"


# --------------------------------------------------------------------------- players


def player_level(player: Any) -> Level:
    """A player's MacMahon level: ``macmahon.GoLevel`` while it agrees with the rank, else the rank."""
    level = _level(player.extras, PREFIX + "GoLevel")
    if level is not None and level.to_rank() == player.rank:
        return level
    return Level.from_rank(player.rank)


def _whole_points(quarters: int) -> int:
    return quarters // 4 if quarters >= 0 else -((-quarters) // 4)


def adjustment(player: Any) -> tuple[bool, int]:
    """MacMahon's ``(ScoreAdjustment, ScoreAdjustmentValue)`` of a player, value in quarter points.

    The stored pair while its effect in whole points (towards zero) equals ``mm_correction``;
    otherwise derived from ``mm_correction`` (4 quarters per point, spec §B.14)."""
    extras = player.extras
    if PREFIX + "ScoreAdjustment" in extras:
        on = extras[PREFIX + "ScoreAdjustment"] == "true"
        value = _int(extras, PREFIX + "ScoreAdjustmentValue", 0)
        if _whole_points(value if on else 0) == player.mm_correction:
            return on, value
    return player.mm_correction != 0, 4 * player.mm_correction


def super_bar_member(player: Any) -> bool:
    """MacMahon's ``SuperBarMember`` flag (kept in ``macmahon.SuperBarMember``)."""
    return _flag(player.extras, PREFIX + "SuperBarMember", False)


def macmahon_ids(players: dict[str, Any]) -> dict[str, int]:
    """MacMahon participant Ids: the start number when positive and unique, else the next
    free numbers in registration order."""
    seen: dict[int, int] = {}
    for p in players.values():
        if p.start_number is not None and p.start_number > 0:
            seen[p.start_number] = seen.get(p.start_number, 0) + 1
    ids: dict[str, int] = {}
    taken: set[int] = set()
    for pid, p in players.items():
        n = p.start_number
        if n is not None and n > 0 and seen[n] == 1:
            ids[pid] = n
            taken.add(n)
    next_id = max(taken, default=0) + 1
    for pid in players:
        if pid not in ids:
            ids[pid] = next_id
            next_id += 1
    return ids


# --------------------------------------------------------------------------- tournament rules


@dataclass(frozen=True)
class MacMahonRules:
    """The tournament parameters MacMahon's scoring uses (spec §A)."""

    upper_bar: bool
    upper_level: Level
    lower_bar: bool
    lower_level: Level
    bye_zero: bool
    round_down: bool
    round_down_not_jigo: bool
    handicap_in_tiebreakers: bool
    weak_sort: int

    @classmethod
    def of(cls, settings: TournamentSettings) -> MacMahonRules:
        """The rules of a ledger; absent MacMahon values take a new 3.10 tournament's defaults
        (an imported file stores every value, absent elements as MacMahon reads them)."""
        upper_on, upper, lower_on, lower = effective_bars(settings)
        extras = settings.extras
        return cls(
            upper_bar=upper_on,
            upper_level=upper,
            lower_bar=lower_on,
            lower_level=lower,
            bye_zero=_flag(extras, PREFIX + "ByeShouldResultInZeroSOSetc", False),
            round_down=_flag(extras, PREFIX + "HalfScoreGroupsRoundDown", False),
            round_down_not_jigo=_flag(extras, PREFIX + "HalfScoreGroupsRoundDownNotJigo", True),
            handicap_in_tiebreakers=_flag(extras, PREFIX + "HandicapIncludeInTieBreakers", True),
            weak_sort=_int(extras, WALLLIST + "WeakSortCriteria", 1),
        )


def start_score(level: Level, adjustment_on: bool, adjustment_value: int, super_bar: bool, rules: MacMahonRules) -> int:
    """The start score in quarter points (spec §A "Start score").

    ``s = 4·abs(level) (+ adjustment)``, floored at 0; capped at the upper bar; minus the
    lower bar, floored at 0; +4 for a super-bar member who is an upper-bar member (the
    upper bar is on and level + adjustment reaches it, or both bars are the same level).

    >>> rules = MacMahonRules(True, Level.parse("2d"), True, Level.parse("20k"), False, False, True, True, 1)
    >>> start_score(Level.parse("5k"), False, 0, False, rules)    # (30 − 15)·4
    60
    >>> start_score(Level.parse("4d"), False, 0, True, rules)     # capped at 2d: (36 − 15)·4 + 4
    88
    >>> start_score(Level.parse("1d"), True, 8, True, rules)      # adjustment +2 reaches the bar: 84 + 4
    88
    >>> start_score(Level.parse("25k"), True, 4, False, rules)    # below the floor stays 0
    0
    """
    raw = 4 * level.absolute + (adjustment_value if adjustment_on else 0)
    s = max(raw, 0)
    if rules.upper_bar:
        s = min(s, 4 * rules.upper_level.absolute)
    if rules.lower_bar:
        s = max(s - 4 * rules.lower_level.absolute, 0)
    member = rules.upper_bar and (
        raw >= 4 * rules.upper_level.absolute or rules.lower_level == rules.upper_level
    )
    if super_bar and member:
        s += 4
    return s


def collation_key(text: str) -> tuple[str, tuple[str, ...]]:
    """A sort key close to Java's ``Collator`` at SECONDARY strength (spec §A "Order"):
    letters compare without case first, accents decide next, case never.

    >>> sorted(["müller", "Muller", "MULLER", "Mueller"], key=collation_key)
    ['Mueller', 'Muller', 'MULLER', 'müller']
    """
    bases: list[str] = []
    marks: list[str] = []
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch) and marks:
            marks[-1] += ch
        else:
            bases.append(ch.casefold())
            marks.append("")
    return "".join(bases), tuple(marks)
