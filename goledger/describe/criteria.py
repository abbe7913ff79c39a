"""The placement criteria a director picks from, each with its one-line meaning in the
page's language (issue 43, item 2): OpenGotha's list of placement criteria, in its order, by
goledger's names (:data:`goledger.replay.scoring.criteria.names.OPENGOTHA_NAMES`). A criterion
outside that list (the FIDE and policy criteria) has its meaning in :data:`POLICY_MEANINGS`;
word-like names (``Rating``, ``Rank``) are shown through the catalog (:func:`criterion_label`).

>>> [name for name, _, _ in criterion_choices()][:4]
['NBW', 'MMS', 'STS', 'CPS']
>>> criterion_meaning("SOSM")
"sum of the opponents' McMahon scores"
"""

from __future__ import annotations

from goledger.errors import GoledgerError
from goledger.i18n import N_, gettext
from goledger.replay.scoring.criteria import get_criterion

__all__ = ["CRITERION_MEANINGS", "POLICY_MEANINGS", "criterion_choices", "criterion_label", "criterion_meaning"]

CRITERION_MEANINGS: dict[str, str] = {
    "NBW": N_("number of wins"),
    "MMS": N_("McMahon score: start score plus wins"),
    "STS": N_("Strasbourg score: McMahon score with a bonus for the unbeaten at the top"),
    "CPS": N_("cup score: points doubled each round"),
    "SOSW": N_("sum of the opponents' numbers of wins"),
    "SOSW-1": N_("sum of the opponents' numbers of wins without the lowest"),
    "SOSW-2": N_("sum of the opponents' numbers of wins without the two lowest"),
    "SODOSW": N_("sum of the defeated opponents' numbers of wins"),
    "SOSOSW": N_("sum of the opponents' SOSW"),
    "CUSSW": N_("sum of the number of wins after each round"),
    "SOSM": N_("sum of the opponents' McMahon scores"),
    "SOSM-1": N_("sum of the opponents' McMahon scores without the lowest"),
    "SOSM-2": N_("sum of the opponents' McMahon scores without the two lowest"),
    "SODOSM": N_("sum of the defeated opponents' McMahon scores"),
    "SOSOSM": N_("sum of the opponents' SOSM"),
    "CUSSM": N_("sum of the McMahon score after each round"),
    "SOSTS": N_("sum of the opponents' Strasbourg scores"),
    "EXT": N_("exploits attempted: games against stronger players"),
    "EXR": N_("exploits achieved: wins against stronger players"),
    "SDC": N_("simplified direct confrontation between the tied players"),
    "DC": N_("direct confrontation between the tied players"),
    "Rating": N_("rating"),
    "Rank": N_("declared rank"),
    "CAT": N_("category"),
}
"""Each of OpenGotha's placement criteria → its one-line meaning (marked for translation)."""

POLICY_MEANINGS: dict[str, str] = {
    'AOB': N_('average of the Buchholz of the opponents played over the board, in hundredths, half up (C.07 8.2)'),
    'APPO': N_("average of the opponents' PTP, rounded half up (C.07 10.5)"),
    'APRO': N_("average of the opponents' TPR, rounded half up (C.07 10.4)"),
    'ARO': N_('average rating of the opponents played over the board, rounded half up (C.07 10.1)'),
    'ARO-C1': N_('ARO without the lowest-rated opponent (C.07 10.1, 14.1)'),
    'BH': N_("Buchholz (C.07 8.1): sum of the opponents' adjusted scores; own unplayed rounds per article 16"),
    'BH-C1': N_("Buchholz (C.07 8.1): sum of the opponents' adjusted scores; own unplayed rounds per article 16; cut 1 lowest"),  # noqa: E501
    'BH-C2': N_("Buchholz (C.07 8.1): sum of the opponents' adjusted scores; own unplayed rounds per article 16; cut 2 lowest"),  # noqa: E501
    'BH-M1': N_("Buchholz (C.07 8.1): sum of the opponents' adjusted scores; own unplayed rounds per article 16; cut 1 lowest and 1 highest"),  # noqa: E501
    'BH-M2': N_("Buchholz (C.07 8.1): sum of the opponents' adjusted scores; own unplayed rounds per article 16; cut 2 lowest and 2 highest"),  # noqa: E501
    'BPG': N_('games played with Black (C.07 7.3)'),
    'BWG': N_('games won with Black (C.07 7.4)'),
    'DE': N_('direct encounter (C.07 6): rank inside the group tied on the criteria before DE'),
    'FB': N_('Fore Buchholz (C.07 8.3): Buchholz as if every paired game of the last round were drawn'),
    'FB-C1': N_('Fore Buchholz (C.07 8.3): Buchholz as if every paired game of the last round were drawn; cut 1 lowest'),  # noqa: E501
    'FilePlace': N_('the place printed in the imported file (an FFG .tou lists its final standings), negated'),
    'KASHDAN': N_('Kashdan score (policy kashdan_points: win, draw, loss, unplayed)'),
    'KS': N_('Koya (C.07 9.2): points scored against opponents with at least 50 % of the maximum'),
    'MM-Points': N_("MacMahon's Points: number of wins, half wins"),
    'MM-SODOS': N_("MacMahon's SODOS, quarter points"),
    'MM-SORP': N_("MacMahon's SORP: sum of result points"),
    'MM-SOS': N_("MacMahon's SOS, quarter points"),
    'MM-SOSOS': N_("MacMahon's SOSOS, quarter points"),
    'MM-Score': N_("MacMahon's Score (McMahon score, absent/unpaired ½), quarter points"),
    'MM-ScoreX': N_("MacMahon's ScoreX (absent/unpaired 0), quarter points"),
    'MMSvirtual': N_('virtual MMS of the half-point option'),
    'NBWvirtual': N_('virtual NBW of the half-point option'),
    'PS': N_('progressive score (C.07 7.5): Σ of the running scores'),
    'PS-C1': N_('progressive score without the score after round 1 (C.07 7.5, 14.1)'),
    'PTP': N_('perfect tournament performance: lowest rating expecting the score (C.07 10.3)'),
    'PTS': N_('points: the actual score, byes and forfeits included'),
    'REP': N_('rounds elected to play: rounds minus requested byes and forfeit losses (C.07 7.6)'),
    'SB': N_("Sonneborn-Berger (C.07 9.1): Σ opponent's adjusted score × points scored against him"),
    'SB-C1': N_("Sonneborn-Berger (C.07 9.1): Σ opponent's adjusted score × points scored against him; the product of the lowest-score opponent cut (VUR exception, C.07 16.5)"),  # noqa: E501
    'TPR': N_('tournament performance rating: ARO + dp(p) of FIDE table 8.1(a) (C.07 10.2)'),
    'WIN': N_('rounds won with or without playing (C.07 7.1)'),
    'WON': N_('games won over the board (C.07 7.2)'),
}
"""The FIDE (C.07) and other policies' criteria → their registry descriptions, marked for translation."""

_LABELS: dict[str, str] = {"Rating": N_("Rating"), "Rank": N_("Rank")}
"""Criterion names that are English words → the word the page's language shows instead."""


def criterion_label(name: str) -> str:
    """The name a page shows for criterion ``name``: a word-like name (Rating, Rank) in the
    current language, an abbreviation (MMS, SOSM, BH-C1) as it is."""
    label = _LABELS.get(name)
    return gettext(label) if label is not None else name


def criterion_meaning(name: str) -> str:
    """The one-line meaning of criterion ``name`` in the current language (the registry's own
    description for a criterion outside OpenGotha's list, ``""`` for an unknown name)."""
    meaning = CRITERION_MEANINGS.get(name) or POLICY_MEANINGS.get(name)
    if meaning is not None:
        return gettext(meaning)

    try:
        return get_criterion(name).description
    except GoledgerError:
        return ""


def criterion_choices(extra: tuple[str, ...] = ()) -> list[tuple[str, str, str]]:
    """``(name, label, meaning)`` of every criterion a director picks from: OpenGotha's list, then
    ``extra`` (the tournament's own criteria outside it), each once."""
    names = list(CRITERION_MEANINGS) + [n for n in extra if n not in CRITERION_MEANINGS]
    return [(name, criterion_label(name), criterion_meaning(name)) for name in dict.fromkeys(names)]
