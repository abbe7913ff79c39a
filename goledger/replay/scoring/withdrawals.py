"""What a withdrawn player's missing rounds count, in words (issue 20, item 3).

Under the Go policies a round at or after a withdrawal is scored by the policy field
``withdrawn`` (spec ``scoring.md`` §7.1–7.3): ``"absent"`` gives it the value of an announced
absence (``Rules.nbw2_absent``/``mms2_absent``: the policy's, else the tournament's),
``"zero"`` gives nothing; the advice names that one setting (``change-rules withdrawn=zero``),
which changes nothing else (issue 40, item 3). The FIDE policies score it as a zero-point bye
(C.02 §16). :func:`withdrawal_rule` says which applies, with the values in force, and how to
change it; ``explain`` prints it for a withdrawn player and ``goledger unregister`` is the fix
for an entry that never played. The words read the same
:class:`~goledger.replay.scoring.rules.Rules` the scores are computed with, so they never
re-derive a value.

>>> from goledger.replay.scoring.policies import get_policy
>>> from goledger.ledger.events import TournamentSettings
>>> from goledger.replay.scoring.rules import rules_for
>>> egf = rules_for(get_policy("egf"), TournamentSettings(name="t", rounds=5))
>>> print(withdrawal_rule(egf))  # doctest: +NORMALIZE_WHITESPACE
under policy egf each round from the withdrawal on counts as an announced absence: ½ point in NBW and
½ in MMS (the policy's value), the total rounded down; this is the EGF's rule (EGF Tournament
System Rules: an allowed absence scores ½); change it with the setting withdrawn (change-rules
withdrawn=zero makes those rounds worth 0); an entry that never played is cancelled with goledger
unregister
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goledger.i18n import N_, gettext
from goledger.ledger.values import format_points

if TYPE_CHECKING:
    from goledger.replay.scoring.rules import Rules

__all__ = ["CHANGE_HINT", "absence_rule", "withdrawal_rule"]

CHANGE_HINT = N_("change it with the setting withdrawn (change-rules withdrawn=zero "
                 "makes those rounds worth 0)")
UNREGISTER_HINT = N_("an entry that never played is cancelled with goledger unregister")
DESK_CHANGE_HINT = N_("change it with the setting withdrawn on the settings page (withdrawn=zero makes those rounds "
                      "worth 0)")
DESK_UNREGISTER_HINT = N_("an entry that never played can be cancelled (unregistered) instead")
"""The desk's hints: its settings page, not a command to type."""


def _points(half_points: int) -> str:
    return format_points(half_points, 2) or "0"


def withdrawal_rule(rules: Rules, *, desk: bool = False) -> str:
    """One sentence: what each round from a withdrawal on counts under ``rules`` (a policy
    with the settings in force from the withdrawal), why, and which setting changes it
    (``desk``: in the desk's words, naming its settings page rather than commands)."""
    policy = rules.policy
    names = {"policy": policy.name, "unregister": gettext(DESK_UNREGISTER_HINT if desk else UNREGISTER_HINT),
             "change": gettext(DESK_CHANGE_HINT if desk else CHANGE_HINT)}
    if policy.name.startswith("fide"):
        return gettext("under policy %(policy)s each round from the withdrawal on is a zero-point bye (FIDE C.02 "
                       "§16: an unplayed round, adjusted for the opponents' tie-breaks as the edition says); "
                       "%(unregister)s") % names
    if policy.name == "macmahon":
        return gettext("under policy %(policy)s each round from the withdrawal on is an absence as MacMahon 3.10 "
                       "scores it: ½ in MM-Score, 0 in MM-ScoreX, the own start score in MM-SOS (the criteria "
                       "chosen decide); %(unregister)s") % names
    if rules.withdrawn == "zero":
        return gettext("under policy %(policy)s each round from the withdrawal on counts 0 (setting withdrawn = "
                       "zero); %(unregister)s") % names
    nbw2, mms2 = rules.nbw2_absent, rules.mms2_absent
    source = (gettext("the policy's value") if rules.source("mms2_absent") == "policy"
              else gettext("the tournament's absence value"))
    rounding = {
        "whole-score": gettext(", the total rounded down"),
        "unpaired-part": gettext(", the rounds without a game rounded down together"),
    }.get(rules.round_down, "")
    why = (gettext("; this is the EGF's rule (EGF Tournament System Rules: an allowed absence scores ½)")
           if policy.name == "egf" else "")
    nbw = (gettext("%(points)s point in NBW") if nbw2 in (1, 2) else gettext("%(points)s points in NBW")) % {
        "points": _points(nbw2)}
    return gettext("under policy %(policy)s each round from the withdrawal on counts as an announced absence: "
                   "%(nbw)s and %(mms)s in MMS (%(source)s)%(rounding)s%(why)s; %(change)s; %(unregister)s") % {
        **names, "nbw": nbw, "mms": _points(mms2), "source": source, "rounding": rounding, "why": why}


def absence_rule(rules: Rules) -> str:
    """What one announced absence counts under ``rules``, in a few words (a late entry's
    missed rounds are such absences; issue 31).

    >>> from goledger.replay.scoring.policies import get_policy
    >>> from goledger.ledger.events import TournamentSettings
    >>> from goledger.replay.scoring.rules import rules_for
    >>> absence_rule(rules_for(get_policy("egf"), TournamentSettings(name="t", rounds=5)))
    'each counts as an announced absence under policy egf: ½ point in NBW and ½ in MMS'
    """
    policy = rules.policy
    if policy.name.startswith("fide"):
        return gettext("each is an unplayed round under policy %(policy)s (FIDE C.02: a zero-point bye unless given "
                       "points)") % {"policy": policy.name}
    nbw2, mms2 = rules.nbw2_absent, rules.mms2_absent
    values = {"policy": policy.name, "nbw": _points(nbw2), "mms": _points(mms2)}
    if nbw2 in (1, 2):
        return gettext("each counts as an announced absence under policy %(policy)s: %(nbw)s point in NBW and "
                       "%(mms)s in MMS") % values
    return gettext("each counts as an announced absence under policy %(policy)s: %(nbw)s points in NBW and "
                   "%(mms)s in MMS") % values
