"""The declared domain of every event field: the one place that says what may be appended
(issue 18, point 1; DESIGN §3).

An event that decodes is not yet an event the fold can use forever: ``rounds=0``, a bar of
``"5dan"``, a komi of ``"abc"`` or a rating of 10²² all decode, and then break every view
that meets them (the last one when the state is next snapshotted, as ``OverflowError``).
So every field has a domain here, checked by :func:`check_event` when a command builds an
event *and* when an importer turns a file into events; nothing outside it is appended.

The domains:

* every integer fits SQLite's 64-bit range; the named ones tighter (:data:`INT_DOMAINS`:
  rounds 1..99, tables 1..99,999, handicap 0..9, bye and absence values 0..2 half-points…);
* rank fields (``rank``, ``mm_bar``, ``mm_floor``, ``mm_zero``, handicap threshold, start
  groups, category limits) parse as ranks (``30k``..``9d``, ``1p``..``9p``);
* komi is a whole or half number (``"6.5"``, ``"-0.5"``, ``"7"``);
* names and identity fields (:data:`IDENTITY_FIELDS`) are text, not control: no C0/C1
  control character, line break, bidi override or zero-width character (:func:`text_problem`).

Criterion and policy names belong to the registries of ``goledger.replay``; the commands
check them (``goledger.commands.settings``), this module cannot import upwards.

>>> from goledger.ledger import events as ev
>>> check_event(ev.GamePaired(round=1, table=2, white="p0001", black="p0002"))
>>> event_problem(ev.GamePaired(round=1, table=2, white="p0001", black="p0002", handicap=12))
'handicap 12 is outside 0..9'
>>> text_problem("Müller\\u200b", "surname")
"surname 'Müller\\\\u200b' contains an invisible or control character (U+200B)"
>>> identity_key("Mu\\u0308ller", "Jan") == identity_key("Müller", "JAN")
True
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any, Final

import msgspec

from goledger.errors import CommandRejected, Problem
from goledger.ledger import events as ev
from goledger.ledger.values import Rank, RankError, parse_number

__all__ = [
    "DEFAULT_IGNORABLE",
    "IDENTITY_FIELDS",
    "INT_DOMAINS",
    "RANK_FIELDS",
    "SQLITE_MAX",
    "SQLITE_MIN",
    "check_event",
    "date_problem",
    "event_problem",
    "identity_key",
    "int_problem",
    "komi_problem",
    "name_key",
    "range_problem",
    "rank_problem",
    "setting_problem",
    "settings_problem",
    "text_problem",
]

SQLITE_MIN: Final = -(2**63)
SQLITE_MAX: Final = 2**63 - 1

INT_DOMAINS: Final[dict[str, tuple[int, int]]] = {
    "rounds": (1, 99),
    "round": (1, 99),
    "from_round": (1, 99),
    "table": (0, 99_999),
    "to_table": (1, 99_999),
    "board": (1, 99_999),
    "boards": (1, 10),
    "number": (0, 99_999),
    "start_number": (0, 999_999),
    "handicap": (0, 9),
    "points2": (0, 2),
    "nbw2_bye": (0, 2),
    "nbw2_absent": (0, 2),
    "mms2_bye": (0, 2),
    "mms2_absent": (0, 2),
    "board_size": (2, 52),
    "rating": (-99_999, 99_999),
    "mm_correction": (-9, 9),
    "correction": (-9, 9),
    "ceiling": (0, 9),
    "score": (-999, 999),
    "basic_minutes": (0, 100_000),
    "byo_yomi_seconds": (0, 100_000),
    "byo_yomi_periods": (0, 10_000),
    "canadian_stones": (0, 10_000),
    "canadian_seconds": (0, 100_000),
    "fischer_seconds": (0, 100_000),
    "jigo2": (0, 2),
    "koya_limit_percent": (0, 100),
}
"""Integer fields (by name, in any event or nested settings) and their inclusive bounds.
Every other integer must lie within SQLite's 64-bit range."""

RANK_FIELDS: Final = frozenset({"rank", "mm_bar", "mm_floor", "mm_zero", "no_handicap_threshold",
                                "lowest", "highest"})
"""Text fields that must parse as a rank (``category_limits`` holds ranks too)."""

IDENTITY_FIELDS: Final = frozenset({
    "surname", "first_name", "club", "country", "egd_pin", "grade", "rating_origin", "player_id",
    "team_id", "white", "black", "player_a", "player_b", "bye", "opponent", "name", "short_name", "location",
    "director", "label",
})
"""Names and identifiers: text that is shown, matched and written into fixed formats, so it
may hold no control character of any kind (:func:`text_problem`)."""

_INVISIBLE: Final = frozenset(
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u200e\u200f"
    "\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2060\u2061\u2062\u2063\u2064"
    "\u2066\u2067\u2068\u2069\u206a\u206b\u206c\u206d\u206e\u206f\u3164\ufeff\uffa0"
)
"""Zero-width, bidi and other invisible formatting characters (besides categories Cc/Cf)."""


def _bad_char(text: str) -> str | None:
    for char in text:
        if char in _INVISIBLE or unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"):
            return char
    return None


def text_problem(text: str, what: str) -> str | None:
    """Why ``text`` cannot be a name or identity field (one sentence), or ``None``.

    Refused: C0 and C1 controls (tab, line feed, ESC…), line and paragraph separators, bidi
    embeddings, overrides and isolates, zero-width characters and other invisible format
    characters (Unicode categories Cc, Cf, Zl, Zp, surrogates and private use)."""
    char = _bad_char(text)
    if char is None:
        return None
    return Problem("%(what)s %(text)r contains an invisible or control character (U+%(code)s)", what=what, text=text,
                   code=f"{ord(char):04X}")


DEFAULT_IGNORABLE: Final = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e0fff]"
)
"""Unicode's ``Default_Ignorable_Code_Point`` set (DerivedCoreProperties.txt, Unicode 15):
characters a renderer shows as nothing — variation selectors (U+FE00–FE0F, U+E0100–E01EF),
Mongolian free variation selectors (U+180B–180F), zero-width and bidi format characters,
Hangul fillers, tags. Two names that differ only by them look the same: they are twins."""


def identity_key(surname: str, first_name: str = "") -> tuple[str, str]:
    """The form in which two names are the same person's: Unicode twins (NFC/NFD,
    compatibility forms such as full-width letters or ligatures, every default-ignorable
    character such as a variation selector, other invisible characters, case, runs of
    spaces) compare equal.

    >>> identity_key("Kim\ufe0f", "Lee\U000e0100") == identity_key("Kim", "Lee") == identity_key("Kim\u180b", "Lee")
    True
    """

    def key(text: str) -> str:
        if not (text.isascii() and text.isprintable()):
            text = DEFAULT_IGNORABLE.sub("", text)
        kept = "".join(c for c in text if c not in _INVISIBLE and unicodedata.category(c) not in ("Cc", "Cf"))
        # NFKC first, then the ignorables again: a compatibility form may decompose into one
        return " ".join(DEFAULT_IGNORABLE.sub("", unicodedata.normalize("NFKC", kept)).casefold().split())

    return key(surname), key(first_name)


def name_key(name: str) -> str:
    """The form in which two names of one thing (a team, its short name) are the same name:
    compared as player names are (:func:`identity_key`), so ``Lions`` with a variation
    selector, full-width ``Ｌｉｏｎｓ`` and ``LIONS`` are one team, and ``Léo`` composed or
    decomposed.

    >>> name_key("Lions\ufe0e") == name_key("Ｌｉｏｎｓ") == name_key("LIONS") == name_key("Lions\U000e0100")
    True
    >>> name_key("Le\u0301o") == name_key("Léo") != name_key("Leo")
    True
    """
    return identity_key(name)[0]


def int_problem(value: Any, what: str, bounds: tuple[int, int] | None = None) -> str | None:
    """Why ``value`` is not an integer of its domain, or ``None``."""
    if isinstance(value, bool) or not isinstance(value, int):
        return Problem("%(what)s %(value)r is not a whole number", what=what, value=value)
    low, high = bounds or (SQLITE_MIN, SQLITE_MAX)
    if not low <= value <= high:
        return Problem("%(what)s %(value)s is outside %(low)s..%(high)s", what=what, value=value, low=low, high=high)
    return None


def rank_problem(value: Any, what: str) -> str | None:
    """Why ``value`` is not a rank, or ``None``."""
    if not isinstance(value, str):
        return Problem("%(what)s %(value)r is not a rank such as 3d or 12k", what=what, value=value)
    try:
        Rank.parse(value)
    except RankError:
        return Problem("%(what)s %(value)r is not a rank: use 30k..1k, 1d..9d or 1p..9p", what=what, value=value)
    return None


def komi_problem(value: Any, what: str = "komi") -> str | None:
    """Why ``value`` is not a komi (a whole or half number written as text), or ``None``."""
    if isinstance(value, str) and value in _VALID_KOMI:  # every game of a tournament has one of a few
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > 12:
        return Problem("%(what)s %(value)r is not a number such as 6.5 or 7", what=what, value=value)
    try:
        number = parse_number(value, comma=False)  # bounded as text: Fraction("1e999999999") would take hours
    except ValueError:
        return Problem("%(what)s %(value)r is not a number such as 6.5 or 7", what=what, value=value)
    if (number * 2).denominator != 1 or abs(number) > 999:
        return Problem("%(what)s %(value)r must be a whole or half number within ±999", what=what, value=value)
    if len(_VALID_KOMI) < 1024:
        _VALID_KOMI.add(value)
    return None


_VALID_KOMI: set[str] = set()
"""Komi texts already found valid (parsing one as a fraction costs some microseconds, and
folding a congress checks the komi of every game)."""


_VALID_RANKS: set[str] = set()
"""Rank texts already seen to parse (a congress repeats a few dozen of them)."""


def _value_problem(name: str, value: Any, what: str) -> str | None:
    """The domain of one named field, applied to ``value`` (recursing into structures).
    The common case — a valid value — costs a type test and a set lookup or two."""
    if isinstance(value, str):
        if name in RANK_FIELDS:
            if value in _VALID_RANKS:
                return None
            problem = rank_problem(value, what)
            if problem is None:
                _VALID_RANKS.add(value)
            return problem
        if name == "komi":
            return komi_problem(value, what)
        if name in IDENTITY_FIELDS and not (value.isascii() and value.isprintable()):
            return text_problem(value, what)
        return None
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        low, high = INT_DOMAINS.get(name, _SQLITE_RANGE)
        return None if low <= value <= high else int_problem(value, what, (low, high))
    if isinstance(value, msgspec.Struct):
        return _struct_problem(value, what)
    if isinstance(value, (list, tuple)):
        if name in RANGE_FIELDS:
            return range_problem(value, what)
        if name == "category_limits":
            return next((p for v in value if (p := rank_problem(v, "category limit"))), None)
        return next((p for v in value if (p := _value_problem(name, v, what))), None)
    if isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, str) and not (key.isascii() and key.isprintable()) and _bad_char(key):
                return text_problem(key, f"{what} key")
            if name == "policy_overrides" and key in RANGE_FIELDS:  # a policy field, checked by its name
                problem = range_problem(item, str(key).replace("_", " "))
            else:
                problem = _value_problem(name, item, f"{what}[{key!r}]")
            if problem:
                return problem
        return None
    return None


_SQLITE_RANGE: Final = (SQLITE_MIN, SQLITE_MAX)


_PLANS: dict[type, tuple[tuple[str, int, tuple[int, int]], ...]] = {}
_INT, _IDENT, _OTHER, _SKIP = 0, 1, 2, 3


def _plan(cls: type) -> tuple[tuple[str, int, tuple[int, int]], ...]:
    """Per struct type, each field with how to check it: most fields of most events are plain
    integers or identifiers, checked inline by :func:`_struct_problem` (an import of a
    20,000-event congress checks every event)."""
    plan = []
    hints = msgspec.structs.fields(cls)
    for f in hints:
        kind = _OTHER
        if f.type is int or f.type == (int | None):
            kind = _INT
        elif f.type is str and f.name in IDENTITY_FIELDS:
            kind = _IDENT
        elif f.type is bool or (f.type is str and f.name not in RANK_FIELDS and f.name != "komi"):
            kind = _SKIP
        plan.append((f.name, kind, INT_DOMAINS.get(f.name, _SQLITE_RANGE)))
    _PLANS[cls] = tuple(plan)
    return _PLANS[cls]


def _struct_problem(struct: msgspec.Struct, prefix: str = "") -> str | None:
    plan = _PLANS.get(type(struct)) or _plan(type(struct))
    for name, kind, (low, high) in plan:
        value = getattr(struct, name)
        if kind == _INT:
            if value is None or (value.__class__ is int and low <= value <= high):
                continue
        elif kind == _IDENT:
            if value.isascii() and value.isprintable():
                continue
        elif kind == _SKIP:
            continue
        if name == "changes" and isinstance(value, Mapping):
            for key, item in value.items():
                problem = setting_problem(str(key), item) if _is_rules(struct) else _value_problem(
                    str(key), item, str(key).replace("_", " "))
                if problem:
                    return problem
            continue
        problem = _value_problem(name, value, name)
        if problem:  # the message names the field in words, inside its parent when nested
            label = f"{prefix}.{name}" if prefix else name.replace("_", " ")
            return problem.relabelled(name, label) if label != name and isinstance(problem, Problem) else problem
    return None


def _is_rules(struct: msgspec.Struct) -> bool:
    return type(struct).__name__ == "RulesChanged"


_SETTINGS_FIELDS: frozenset[str] | None = None
_DATE_SETTINGS: Final = ("begin_date", "end_date", "ratings_date")


def setting_problem(name: str, value: Any) -> str | None:
    """Why ``value`` cannot be the tournament setting ``name`` (a ``TournamentSettings``
    field, as a ``RulesChanged`` carries it), or ``None``: its type first, then its domain."""
    global _SETTINGS_FIELDS

    if _SETTINGS_FIELDS is None:
        _SETTINGS_FIELDS = frozenset(ev.TournamentSettings.__struct_fields__)
    if name not in _SETTINGS_FIELDS:
        return Problem("%(name)r is not a tournament setting", name=name)
    try:
        typed = msgspec.convert({"name": "x", "rounds": 1, name: value}, ev.TournamentSettings)
    except msgspec.ValidationError as exc:
        return Problem("%(what)s %(value)r is not a valid value (%(why)s)", what=name, value=value, why=str(exc))
    if name in _DATE_SETTINGS:
        return date_problem(value, name.replace("_", " "))
    return _value_problem(name, getattr(typed, name), name.replace("_", " "))


def date_problem(value: Any, what: str = "date") -> str | None:
    """Why ``value`` is not a calendar date written ``YYYY-MM-DD`` (or empty: not known), or
    ``None``. The day must exist: ``2026-02-30`` is refused (the EGD export would drop it).

    >>> date_problem("2026-02-28"), date_problem(""), date_problem("2026-02-30")
    (None, None, "date '2026-02-30' is not a day of the calendar (2026-02 has no day 30)")
    """
    if value == "" or value is None:
        return None
    if not isinstance(value, str) or not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
        return Problem("%(what)s %(value)r is not a date like 2026-05-30", what=what, value=value)

    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        month = int(value[5:7])
        if not 1 <= month <= 12:
            return Problem("%(what)s %(value)r is not a day of the calendar (there is no month %(month)d)", what=what,
                           value=value, month=month)
        return Problem("%(what)s %(value)r is not a day of the calendar (%(month)s has no day %(day)d)", what=what,
                       value=value, month=value[:7], day=int(value[8:]))
    return None


def range_problem(value: Any, what: str) -> str | None:
    """Why ``value`` is not an inclusive range ``(low, high)`` of integers with low ≤ high (a
    rating clamp), or ``None``.

    >>> range_problem((-900, 2949), "rating clamp"), range_problem((5000, -900), "rating clamp")
    (None, 'rating clamp 5000,-900 is empty: its low end 5000 is above its high end -900')
    """
    if value is None:
        return None
    if not isinstance(value, (list, tuple)) or len(value) != 2 or any(
            isinstance(v, bool) or not isinstance(v, int) for v in value):
        return Problem("%(what)s %(value)r is not two whole numbers LOW,HIGH", what=what, value=value)
    low, high = value
    for end in (low, high):
        problem = int_problem(end, what, INT_DOMAINS["rating"])
        if problem:
            return problem
    if low > high:
        return Problem("%(what)s %(low)s,%(high)s is empty: its low end %(low)s is above its high end %(high)s",
                       what=what, low=low, high=high)
    return None


RANGE_FIELDS: Final = frozenset({"rating_clamp"})
"""Policy fields holding an inclusive integer range ``(low, high)``."""


def settings_problem(settings: msgspec.Struct) -> str | None:
    """Why a whole ``TournamentSettings`` is outside its domain, or ``None``: every field
    in its own domain. (A floor above the bar folds — start scores clamp — so an imported
    file may hold one; the commands refuse to set one. Likewise a date that is not a day of
    the calendar: ``new`` and ``change-rules`` refuse it, an imported file keeps its text.)"""
    return _struct_problem(settings)


def event_problem(event: msgspec.Struct) -> str | None:
    """Why ``event`` is outside the declared domains (one sentence), or ``None``."""
    settings = getattr(event, "settings", None)
    if isinstance(settings, msgspec.Struct):
        return settings_problem(settings)
    return _struct_problem(event)


def check_event(event: msgspec.Struct, refuse: Callable[[str], Exception] = CommandRejected) -> None:
    """Raise ``refuse(sentence)`` (default :class:`CommandRejected`) when ``event`` is
    outside its domain; commands and importers call it on every event they build."""
    problem = event_problem(event)
    if problem:
        raise refuse(f"{event.__class__.__name__}: {problem}")
