"""The placement criteria a director picks from, each with its one-line meaning in the
page's language (issue 43, item 2): OpenGotha's list of placement criteria, in its order, by
goledger's names (:data:`goledger.replay.scoring.criteria.names.OPENGOTHA_NAMES`). A criterion
outside that list is described by its registry's own (English) description.

>>> [name for name, _ in criterion_choices()][:4]
['NBW', 'MMS', 'STS', 'CPS']
>>> criterion_meaning("SOSM")
"sum of the opponents' McMahon scores"
"""

from __future__ import annotations

from goledger.i18n import N_, gettext

__all__ = ["CRITERION_MEANINGS", "criterion_choices", "criterion_meaning"]

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


def criterion_meaning(name: str) -> str:
    """The one-line meaning of criterion ``name`` in the current language (the registry's own
    description for a criterion outside OpenGotha's list, ``""`` for an unknown name)."""
    meaning = CRITERION_MEANINGS.get(name)
    if meaning is not None:
        return gettext(meaning)
    from goledger.errors import GoledgerError
    from goledger.replay.scoring.criteria import get_criterion

    try:
        return get_criterion(name).description
    except GoledgerError:
        return ""


def criterion_choices(extra: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """``(name, meaning)`` of every criterion a director picks from: OpenGotha's list, then
    ``extra`` (the tournament's own criteria outside it), each once."""
    names = list(CRITERION_MEANINGS) + [n for n in extra if n not in CRITERION_MEANINGS]
    return [(name, criterion_meaning(name)) for name in dict.fromkeys(names)]
