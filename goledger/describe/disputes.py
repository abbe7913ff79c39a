"""A disputed standing in words a player accepts (issue 42, item 3): what an event did, which
rule applied, how it concerns one player, and which of his values it moved.

Every sentence names players by name, says rounds and places in words, and never cites a spec
section or a formula: these are read at the desk, on the public player page and on the
dispute sheet, in the page's language (:func:`goledger.i18n.gettext`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goledger.i18n import gettext, ngettext
from goledger.ledger import events as ev
from goledger.ledger.values import format_points

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from goledger.replay.scoring.rules import Rules

__all__ = ["changed_values", "policy_words", "relation_words", "rounds_words", "rule_words"]


def rounds_words(rounds: Sequence[int]) -> str:
    """``[1, 3]`` → ``"1, 3"``."""
    return ", ".join(str(r) for r in rounds)


def _points(half_points: int) -> str:
    return format_points(half_points, 2) or "0"


_POLICY_NAMES = {"opengotha": "OpenGotha", "egf": "EGF", "macmahon": "MacMahon", "pairgoth": "pairgoth"}
"""How a player knows the rules a policy follows (any other policy by its own name)."""


def policy_words(name: str) -> str:
    """A policy's name as a player knows it.

    >>> policy_words("opengotha"), policy_words("fide-2023"), policy_words("club-rules")
    ('OpenGotha', 'FIDE', 'club-rules')
    """
    return "FIDE" if name.startswith("fide") else _POLICY_NAMES.get(name, name)


def _withdrawal_rule(rules: Rules) -> str:
    names = {"policy": policy_words(rules.policy.name)}
    if rules.policy.name.startswith("fide"):
        return gettext("under the %(policy)s rules each round a withdrawn player misses is a lost round with no "
                       "opponent (0 points)") % names
    if rules.withdrawn == "zero":
        return gettext("under the %(policy)s rules each round a withdrawn player misses counts 0") % names
    return gettext("under the %(policy)s rules each round a withdrawn player misses counts %(points)s in MMS, "
                   "like an announced absence") % {**names, "points": _points(rules.mms2_absent)}


def rule_words(event: ev.Event, rules: Rules | None, late_after: int | None, name_of: Mapping[str, str]) -> str:
    """The rule an event applied, as one sentence (``""`` when it needs none); ``rules`` are
    those in force for the event's round (``None``: no tournament yet).

    ``late_after``: for a result, the latest round already paired when it was recorded (a late
    result), else ``None``."""
    def who(pid: str) -> str:
        return name_of.get(pid, pid)

    match event:
        case ev.PlayerWithdrew(player_id=pid, from_round=r):
            rule = _withdrawal_rule(rules) if rules is not None else ""
            return gettext("From round %(round)d on %(player)s had withdrawn; %(rule)s.") % {
                "round": r, "player": who(pid), "rule": rule}
        case ev.PlayerReinstated(player_id=pid, from_round=r):
            return gettext("%(player)s plays again from round %(round)d; the rounds missed before stay "
                           "missed.") % {"player": who(pid), "round": r}
        case ev.ResultCorrected(round=r):
            return gettext("A corrected result replaces the one recorded before for round %(round)d; the "
                           "old result stays in the log for anyone to see.") % {"round": r}
        case ev.ResultRecorded(round=r) if late_after is not None:
            return gettext("This result of round %(round)d was recorded after round %(later)d had been paired; "
                           "it counts for round %(round)d like any other result.") % {"round": r, "later": late_after}
        case ev.RulesChanged():
            return gettext("The tournament's rules changed: every place is computed again under the new "
                           "rules.")
        case ev.PlayerUpdated(player_id=pid):
            return gettext("The details of %(player)s changed; a new rank can change his McMahon start score "
                           "and with it his opponents' SOS.") % {"player": who(pid)}
        case ev.PairingRemoved(round=r):
            return gettext("A game of round %(round)d was taken back: it no longer counts for either "
                           "player.") % {"round": r}
        case ev.ByeRemoved(round=r, player_id=pid) | ev.ByeAssigned(round=r, player_id=pid):
            return gettext("The bye of round %(round)d counts for %(player)s as the rules score a bye.") % {
                "round": r, "player": who(pid)}
        case ev.ParticipationChanged(round=r, player_id=pid):
            return gettext("An announced absence of %(player)s in round %(round)d counts as the rules score "
                           "an absence.") % {"round": r, "player": who(pid)}
        case ev.GameEdited() | ev.GameMoved() | ev.TablesRenumbered():
            return gettext("A game was edited by hand by the director.")
    return ""


def relation_words(subject: str | None, player_id: str, name: str, opponent_rounds: Mapping[str, Sequence[int]],
                   name_of: Mapping[str, str], places: Mapping[str, int] | None = None) -> str:
    """How an event about ``subject`` concerns the player ``player_id`` (``name``), in one
    sentence (``""`` for a tournament-wide event); an opponent is named with his place now
    when ``places`` has it."""
    if subject is None:
        return ""
    if subject == player_id:
        return gettext("The event is about %(player)s himself.") % {"player": name}
    rounds = opponent_rounds.get(subject, ())
    place = (places or {}).get(subject)
    if rounds and place is not None:
        name_of = {**name_of, subject: gettext("%(name)s (place %(place)d)") % {
            "name": name_of.get(subject, subject), "place": place}}
    if rounds:
        return ngettext("%(other)s was the opponent of %(player)s in round %(rounds)s, so his score is part of "
                        "the SOS of %(player)s.",
                        "%(other)s was the opponent of %(player)s in rounds %(rounds)s, so his score is part of "
                        "the SOS of %(player)s.", len(rounds)) % {
            "other": name_of.get(subject, subject), "player": name, "rounds": rounds_words(rounds)}
    return gettext("%(other)s never played %(player)s; the event moved players around him.") % {
        "other": name_of.get(subject, subject), "player": name}


def changed_values(before: Mapping[str, int] | None, after: Mapping[str, int] | None,
                   scales: Mapping[str, int]) -> list[tuple[str, str, str]]:
    """``(criterion, old, new)`` for every value that differs, in the criteria's order.

    >>> changed_values({"MMS": 40, "SOS": 300}, {"MMS": 40, "SOS": 302}, {"MMS": 2, "SOS": 2})
    [('SOS', '150', '151')]
    """
    out = []
    names = list(dict.fromkeys([*(before or {}), *(after or {})]))
    for name in names:
        old = (before or {}).get(name)
        new = (after or {}).get(name)
        if old != new:
            scale = scales.get(name, 1)
            out.append((name, "–" if old is None else format_points(old, scale) or "0",
                        "–" if new is None else format_points(new, scale) or "0"))
    return out
