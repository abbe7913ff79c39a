"""OpenGotha player keys and the chain that matches references to players (spec
``formats/opengotha-xml.md`` §3.2).

Games, byes and team boards name players by a *key string*: ``name + firstName`` with every
U+0020 space removed, upper-cased (Java ``toUpperCase`` in the JVM's locale). Real files
break the naive rule three ways: a Turkish JVM writes ``İ`` for ``i``; pairgoth writes
references that are not upper-cased (and old pairgoth exports kept spaces); files older
than V3.23 use the "obsolete canonical" A–Z form. A reference is therefore matched by
this chain, stopping at the first step that names exactly one player:

1. ``exact``      — the reference equals a player's key;
2. ``normalised`` — the reference with spaces removed and upper-cased equals a key;
3. ``turkish``    — the same after folding ``İ``/``ı`` to ``I`` on both sides;
4. ``obsolete``   — OpenGotha's obsolete canonical form (accents folded, then everything
   outside ``A``–``Z`` deleted) on both sides.

A reference that no step resolves (or that a step finds ambiguous) is not guessed: the
caller reports it as an error.

>>> index = KeyIndex()
>>> index.add("Kirca", "Berkan", "p0001"), index.add("Nemo", "André", "p0002")
(None, None)
>>> player_key("Sarocchi", "Pierre-Luc"), player_key("de Vries", "Jan Willem")
('SAROCCHIPIERRE-LUC', 'DEVRIESJANWILLEM')
>>> index.resolve("KİRCABERKAN")
Match(player_id='p0001', step='turkish')
>>> index.resolve("Nemo André"), index.resolve("NEMOANDRE")
(Match(player_id='p0002', step='normalised'), Match(player_id='p0002', step='obsolete'))
>>> index.resolve("SOMEONEELSE") is None
True
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Final, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["STEPS", "KeyIndex", "Match", "obsolete_canonical", "player_key"]

STEPS: Final = ("exact", "normalised", "turkish", "obsolete")

_TURKISH: Final = str.maketrans({"İ": "I", "ı": "I"})
_NO_DECOMPOSITION: Final = str.maketrans({
    "Ø": "O", "ø": "O", "Æ": "AE", "æ": "AE", "Œ": "OE", "œ": "OE", "Ð": "D", "ð": "D",
    "Þ": "TH", "þ": "TH", "ß": "SS", "Ł": "L", "ł": "L", "ı": "I", "Đ": "D", "đ": "D",
})
_AMBIGUOUS: Final = "\x00ambiguous"


class Match(NamedTuple):
    """A resolved reference: the player and the step of the chain that found him."""

    player_id: str
    step: str


def player_key(name: str, first_name: str) -> str:
    """OpenGotha's key string: ``name + firstName``, U+0020 removed, upper-cased."""
    return (name + first_name).replace(" ", "").upper()


def _normalised(ref: str) -> str:
    return ref.replace(" ", "").upper()


def _turkish(key: str) -> str:
    return key.translate(_TURKISH).upper().translate(_TURKISH)


def obsolete_canonical(text: str) -> str:
    """OpenGotha's obsolete canonical form: upper case, accents folded to base letters,
    then every character outside ``A``–``Z`` deleted.

    >>> obsolete_canonical("Müller-Lüdenscheidt Jörg"), obsolete_canonical("KİRCA Berkan 2")
    ('MULLERLUDENSCHEIDTJORG', 'KIRCABERKAN')
    """
    folded = unicodedata.normalize("NFKD", text.translate(_NO_DECOMPOSITION))
    upper = "".join(c for c in folded if not unicodedata.combining(c)).upper().translate(_NO_DECOMPOSITION)
    return "".join(c for c in upper if "A" <= c <= "Z")


class KeyIndex:
    """Players by key, with one lookup table per step of the matching chain."""

    def __init__(self) -> None:
        self._tables: dict[str, dict[str, str]] = {step: {} for step in STEPS}
        self._exact_ids: dict[str, list[str]] = {}

    def add(self, name: str, first_name: str, player_id: str) -> str | None:
        """Index a player; returns the id of an earlier player with the same key (a homonym
        OpenGotha would have refused), whose references keep pointing to the first one."""
        key = player_key(name, first_name)
        forms = {
            "exact": key,
            "normalised": key,
            "turkish": _turkish(key),
            "obsolete": obsolete_canonical(name + first_name),
        }
        earlier = self._tables["exact"].get(key)
        for step, form in forms.items():
            table = self._tables[step]
            if step == "exact":
                table.setdefault(form, player_id)
            elif form in table and table[form] != player_id:
                if table[form] != earlier:
                    table[form] = _AMBIGUOUS
            else:
                table[form] = player_id
        return earlier

    def resolve(self, ref: str) -> Match | None:
        """The player a reference names, or ``None`` when no step finds exactly one."""
        found = self._tables["exact"].get(ref)
        if found is not None:
            return Match(found, "exact")
        forms: tuple[tuple[str, Callable[[str], str]], ...] = (
            ("normalised", _normalised),
            ("turkish", lambda r: _turkish(_normalised(r))),
            ("obsolete", obsolete_canonical),
        )
        for step, make in forms:
            form = make(ref)
            found = self._tables[step].get(form) if form else None
            if found is not None and found != _AMBIGUOUS:
                return Match(found, step)
        return None

    def is_ambiguous(self, ref: str) -> bool:
        """Whether some step of the chain saw several players for this reference."""
        forms = (_normalised(ref), _turkish(_normalised(ref)), obsolete_canonical(ref))
        return any(
            self._tables[step].get(form) == _AMBIGUOUS
            for step, form in zip(STEPS[1:], forms, strict=True)
        )
