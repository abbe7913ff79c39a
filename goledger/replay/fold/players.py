"""Player references: how a director names a player on the command line or at the desk.

A reference is the ledger id (``p0002``), an EGD PIN (all digits), or a unique name:
``"Ito Mai"``, ``"Ito, Mai"``, ``"Mai Ito"`` or just the surname ``Ito``. Names compare
ignoring white space, case and accents (issue 20, item 4): ``Muller``, ``MÜLLER`` and
``Müller`` are the same reference, ``Garcia`` finds García. When both spellings are
registered, the exact spelling (up to case) wins; a reference that still matches several
players is refused with the candidates' ids and names.

>>> fold_name("  Müller   JAN ")
'müller jan'
>>> match_key("  Müller   JAN "), match_key("GARCÍA"), match_key("Łukasz Ødegaard")
('muller jan', 'garcia', 'lukasz odegaard')
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any

from goledger.errors import CommandRejected
from goledger.i18n.messages import say

if TYPE_CHECKING:
    from collections.abc import Iterable

    from goledger.replay.fold.state import PlayerState, TournamentState

__all__ = ["NameIndex", "find_player", "fold_name", "match_key", "name_matches", "short_reference_clash"]

_NOT_DECOMPOSED = str.maketrans({
    "ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d", "ß": "ss", "æ": "ae", "Æ": "ae",
    "œ": "oe", "Œ": "oe", "ı": "i", "þ": "th", "Þ": "th", "ð": "d", "Ð": "d", "ħ": "h", "Ħ": "h",
})
"""Latin letters with a stroke or ligatures, which NFKD does not split into letter + mark."""


def fold_name(text: str) -> str:
    """The form two names are compared in for exact identity: single spaces, NFC, case-folded."""
    return unicodedata.normalize("NFC", " ".join(text.split())).casefold()


def match_key(text: str) -> str:
    """The form a reference is matched in: :func:`fold_name` without accents (NFKD, combining
    marks dropped, stroked letters such as ``ł``/``ø`` mapped to their base letter)."""
    decomposed = unicodedata.normalize("NFKD", " ".join(text.split()).translate(_NOT_DECOMPOSED))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _forms(p: Any) -> tuple[str, str, str]:
    return (f"{p.surname} {p.first_name}", f"{p.first_name} {p.surname}", p.surname)


def name_matches(players: Iterable[Any], ref: str) -> list[Any]:
    """The players a name reference designates: the first of (surname first name, first
    name surname, surname) that matches anyone, exact spelling (up to case) preferred over
    a match ignoring accents.

    >>> from types import SimpleNamespace as P
    >>> field = [P(id="p1", surname="Müller", first_name="Jan"), P(id="p2", surname="Muller", first_name="Eva")]
    >>> [p.id for p in name_matches(field, "MULLER")], [p.id for p in name_matches(field, "müller")]
    (['p2'], ['p1'])
    >>> [p.id for p in name_matches(field, "Mueller")], [p.id for p in name_matches(field, "Jan Muller")]
    ([], ['p1'])
    """
    pool = list(players)
    text = ref.replace(",", " ")
    exact, loose = fold_name(text), match_key(text)
    for form in range(3):
        found = [p for p in pool if fold_name(_forms(p)[form]) == exact]
        if found:
            return found
        found = [p for p in pool if match_key(_forms(p)[form]) == loose]
        if found:
            return found
    return []


def _candidates(players: Iterable[Any]) -> str:
    return ", ".join(f"{p.id} {p.surname} {p.first_name}".rstrip() for p in players)


def find_player(state: TournamentState, ref: str) -> PlayerState:
    """Resolve a player reference (id, EGD PIN or unique name) or refuse naming the problem;
    an ambiguous name is refused with every candidate's id and name."""
    text = ref.strip()
    if text in state.players:
        return state.players[text]
    if text.isdigit():
        by_pin = [p for p in state.players.values() if p.egd_pin == text]
        if len(by_pin) == 1:
            return by_pin[0]
    found = name_matches(state.players.values(), text)
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise CommandRejected(say("%(ref)r matches %(n)d players (%(candidates)s); use the player id", ref=ref,
                                  n=len(found), candidates=_candidates(found)))
    raise CommandRejected(say("no player matches %(ref)r (use an id such as p0001, an EGD PIN or a unique name)",
                              ref=ref))


class NameIndex:
    """The players' names as :func:`name_matches` compares them, kept in dictionaries so that
    a reference is looked up at once instead of by folding every player's name (registering
    3,000 rows of a file, each against the players before it: issue 41, item 7). Players are
    added in the order of the pool; :meth:`matches` gives what :func:`name_matches` gives."""

    def __init__(self, players: Iterable[Any] = ()) -> None:
        self._exact: list[dict[str, list[Any]]] = [{}, {}, {}]
        self._loose: list[dict[str, list[Any]]] = [{}, {}, {}]
        for p in players:
            self.add(p)

    def add(self, player: Any) -> None:
        for form, text in enumerate(_forms(player)):
            self._exact[form].setdefault(fold_name(text), []).append(player)
            self._loose[form].setdefault(match_key(text), []).append(player)

    def matches(self, ref: str, extra: Any = None) -> list[Any]:
        """:func:`name_matches` of the indexed players (and ``extra``, one more player after
        them, when given) for ``ref``."""
        text = ref.replace(",", " ")
        exact, loose = fold_name(text), match_key(text)
        forms = _forms(extra) if extra is not None else None
        for form in range(3):
            for table, key, fold in ((self._exact, exact, fold_name), (self._loose, loose, match_key)):
                found = list(table[form].get(key, ()))
                if forms is not None and fold(forms[form]) == key:
                    found.append(extra)
                if found:
                    return found
        return []


def short_reference_clash(players: Iterable[Any], surname: str, first_name: str,
                          index: NameIndex | None = None) -> str:
    """The warning for registering ``surname first_name`` beside ``players`` (looked up in
    ``index`` when given: a :class:`NameIndex` of them): the reference (the surname alone, or
    the full name for a namesake) that designated exactly one player before and becomes
    ambiguous, with the player it meant; ``""`` when none does.

    >>> from types import SimpleNamespace as P
    >>> old = [P(id="p0001", surname="Sato", first_name="Ken")]
    >>> short_reference_clash(old, "Sato", "Aki")
    "'Sato' now matches 2 players (p0001 Sato Ken and the new one): use an id or the full name"
    >>> short_reference_clash(old, "Ito", "Mai"), short_reference_clash(old, "Satō", "Aki")
    ('', '')
    """
    names = index if index is not None else NameIndex(players)
    new = _NewPlayer(surname, first_name)
    for ref, use in ((f"{surname} {first_name}", "an id"), (surname, "an id or the full name")):
        before = names.matches(ref)
        after = names.matches(ref, new)
        if len(before) == 1 and len(after) > 1:
            return f"{ref!r} now matches {len(after)} players ({_candidates(before)} and the new one): use {use}"
    return ""


class _NewPlayer:
    """The player being registered, as :func:`name_matches` sees him."""

    def __init__(self, surname: str, first_name: str) -> None:
        self.id = ""
        self.surname = surname
        self.first_name = first_name
