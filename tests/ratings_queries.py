"""A query set built from real list entries, the way players say their names at the desk
(issue 34, "Done when"): the accents of their language, one typo (a letter missing, doubled
or two swapped), first name first, lower or upper case, "Surname, First", and mixtures.

:func:`build_queries` is deterministic (a seeded ``random.Random``); :func:`measure` gives
the share of queries whose right PIN, or a homonym with the same name, comes first and in
the first three. Used by ``tests/ratings/test_ratings_accuracy.py`` and ``benchmarks/bench_ratings.py``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from goledger.ratings.model import RatedPlayer
from goledger.ratings.names import name_key

ACCENTS: dict[str, dict[str, str]] = {
    "TR": {"c": "ç", "s": "ş", "g": "ğ", "i": "ı", "o": "ö", "u": "ü"},
    "HU": {"a": "á", "e": "é", "i": "í", "o": "óöő", "u": "úüű"},
    "DE": {"a": "ä", "o": "ö", "u": "ü"},
    "AT": {"a": "ä", "o": "ö", "u": "ü"},
    "CH": {"a": "ä", "o": "ö", "u": "ü"},
    "PL": {"a": "ą", "c": "ć", "e": "ę", "l": "ł", "n": "ń", "o": "ó", "s": "ś", "z": "żź"},
    "CZ": {"c": "č", "s": "š", "z": "ž", "r": "ř", "e": "ěé", "a": "á", "i": "í", "y": "ý", "u": "ůú", "n": "ň"},
    "SK": {"c": "č", "s": "š", "z": "ž", "a": "á", "e": "é", "i": "í", "y": "ý", "u": "ú", "l": "ľ", "t": "ť"},
    "FR": {"e": "éèê", "c": "ç", "a": "àâ", "i": "îï", "o": "ô", "u": "ùû"},
    "SE": {"a": "åä", "o": "ö"},
    "FI": {"a": "ä", "o": "ö"},
    "NO": {"a": "å", "o": "ø"},
    "DK": {"a": "å", "o": "ø"},
    "RO": {"a": "ăâ", "s": "ș", "t": "ț", "i": "î"},
    "HR": {"c": "čć", "s": "š", "z": "ž"},
    "SI": {"c": "č", "s": "š", "z": "ž"},
    "RS": {"c": "čć", "s": "š", "z": "ž"},
    "ES": {"a": "á", "e": "é", "i": "í", "o": "ó", "u": "ú", "n": "ñ"},
    "PT": {"a": "ãá", "e": "é", "o": "õó", "c": "ç"},
    "IT": {"a": "à", "e": "èé", "o": "ò", "u": "ù"},
    "LT": {"s": "š", "z": "ž", "e": "ė", "u": "ū"},
    "LV": {"s": "š", "z": "ž", "a": "ā", "e": "ē"},
}
"""The letters a player of each country may write over the list's ASCII."""

KINDS = ("accents", "typo", "first name first", "lower case", "upper case", "surname, first", "accents + order",
         "accents + typo", "lower + typo + order")


@dataclass(frozen=True)
class Query:
    text: str
    pin: str
    key: str  # the target's folded name: a homonym with this name counts as right
    kind: str


def _accented(text: str, country: str, rng: random.Random) -> str:
    table = ACCENTS.get(country)
    if not table:
        return text
    chars = list(text)
    spots = [i for i, c in enumerate(chars) if c.lower() in table]
    if not spots:
        return text
    chosen = [i for i in spots if rng.random() < 0.5] or [rng.choice(spots)]
    for i in chosen:
        c = chars[i]
        new = rng.choice(table[c.lower()])
        if c.isupper():
            new = "İ" if (country == "TR" and c == "I") else new.upper()
        chars[i] = new
    out = "".join(chars)
    if country in ("DE", "AT", "CH") and rng.random() < 0.3:
        out = out.replace("ss", "ß")
    return out


def _typo(text: str, rng: random.Random) -> str:
    words = text.split(" ")
    candidates = [i for i, w in enumerate(words) if len(w) >= 4]
    if not candidates:
        return text
    i = rng.choice(candidates)
    w = words[i]
    kind = rng.choice(("missing", "doubled", "swapped"))
    at = rng.randrange(1, len(w) - 1)
    if kind == "missing":
        w = w[:at] + w[at + 1:]
    elif kind == "doubled":
        w = w[:at] + w[at] + w[at:]
    else:
        w = w[:at] + w[at + 1] + w[at] + w[at + 2:] if w[at] != w[at + 1] else w[:at] + w[at + 1:]
    words[i] = w
    return " ".join(words)


def build_queries(players: Sequence[RatedPlayer], count: int = 1000, seed: int = 34) -> list[Query]:
    """``count`` queries from players drawn at random, each kind in turn (:data:`KINDS`)."""
    rng = random.Random(seed)
    named = [p for p in players if p.first_name and p.surname and not p.surname.startswith("(")]
    out = []
    for n in range(count):
        p = rng.choice(named)
        kind = KINDS[n % len(KINDS)]
        plain, first = f"{p.surname} {p.first_name}", f"{p.first_name} {p.surname}"
        text = {
            "accents": lambda p=p, plain=plain: _accented(plain, p.country, rng),
            "typo": lambda plain=plain: _typo(plain, rng),
            "first name first": lambda first=first: first,
            "lower case": lambda plain=plain: plain.lower(),
            "upper case": lambda plain=plain: plain.upper(),
            "surname, first": lambda p=p: f"{p.surname}, {p.first_name}",
            "accents + order": lambda p=p, first=first: _accented(first, p.country, rng),
            "accents + typo": lambda p=p, plain=plain: _typo(_accented(plain, p.country, rng), rng),
            "lower + typo + order": lambda first=first: _typo(first.lower(), rng),
        }[kind]()
        out.append(Query(text=text, pin=p.pin, key=name_key(p.full_name), kind=kind))
    return out


@dataclass
class Accuracy:
    total: int
    first: int
    top3: int
    by_kind: dict[str, tuple[int, int, int]]
    misses: list[tuple[Query, list[str]]]

    @property
    def first_share(self) -> float:
        return self.first / self.total

    @property
    def top3_share(self) -> float:
        return self.top3 / self.total


def measure(queries: Sequence[Query], search: Callable[[str], list[RatedPlayer]]) -> Accuracy:
    """Run every query; a result is right when it is the PIN or a homonym of the same name."""
    first = top3 = 0
    kinds: Counter[str] = Counter()
    kinds1: Counter[str] = Counter()
    kinds3: Counter[str] = Counter()
    misses = []
    for q in queries:
        found = search(q.text)[:3]
        right = [p.pin == q.pin or name_key(p.full_name) == q.key for p in found]
        kinds[q.kind] += 1
        if right and right[0]:
            first += 1
            kinds1[q.kind] += 1
        if any(right):
            top3 += 1
            kinds3[q.kind] += 1
        else:
            misses.append((q, [f"{p.pin} {p.full_name}" for p in found]))
    return Accuracy(total=len(queries), first=first, top3=top3,
                    by_kind={k: (kinds[k], kinds1[k], kinds3[k]) for k in kinds}, misses=misses)
