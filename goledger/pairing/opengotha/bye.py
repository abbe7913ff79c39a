"""Who gets the bye (spec ``pairing.md`` §2.1; ``Tournament.chooseAByePlayer`` of 3.51.02).

With an odd number of players to pair, each candidate weighs ``rank + mms2 + 1000 × byes``:
his rank (30k = −30 … 9d = 8), twice his McMahon score before the round (twice the start
score in round 1, McMahon even in Swiss and Cup tournaments), and 1000 per bye he already
had. The lightest gets the bye; on equal weights the **last** in pairing-list order (``<=``).

>>> choose_bye(["a", "b", "c"], {"a": 3, "b": 1, "c": 1}).player
'c'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goledger.pairing.engine import ByeChoice

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["RULE", "choose_bye"]

RULE = ("OpenGotha 3.51.02 chooseAByePlayer: the lowest rank + 2×MMS before the round + 1000×earlier byes "
        "gets the bye; on equal weights the last in pairing order")


def choose_bye(order: Sequence[str], weight: Mapping[str, int]) -> ByeChoice:
    """The bye among ``order`` (the pairing list) given each candidate's bye weight; the
    candidates come best first (lightest, later in the list first on equal weights)."""
    ranked = sorted(range(len(order)), key=lambda i: (weight[order[i]], -i))
    return ByeChoice(player=order[ranked[0]], candidates=tuple((order[i], weight[order[i]]) for i in ranked),
                     rule=RULE)
