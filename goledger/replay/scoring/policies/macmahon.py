"""The ``macmahon`` policy: standings as MacMahon 3.10 shows them (spec ``formats/macmahon.md`` §A).

Its criteria are the ``MM-`` family of :mod:`goledger.replay.scoring.criteria.macmahon` (quarter
points); the tournament parameters they use (bars, super bar, score adjustments, the bye
option, half-score rounding, handicap in tie-breakers, weak sort criteria) come from the
ledger through :mod:`goledger.replay.scoring.macmahon_rules`. Every registered player is listed
(MacMahon's wall list shows preliminary participants too).

Inside a tie on every criterion the **weak sort criteria** order the rows, without
touching shared places (``placeShared`` = all real criteria equal): ``WeakSortCriteria``
1 = Rank (stronger first), Name, Id; 2 = Name, Id; any other value = Id only. Name
compares surname then first name with :func:`~goledger.replay.scoring.macmahon_rules.collation_key`
(an approximation of Java's ``Collator`` at SECONDARY strength: case ignored, accents after
letters). Id is the MacMahon participant Id (the ledger's start number).

Under this policy MacMahon's own names (``Score``, ``ScoreX``, ``Points``, ``SOS``,
``SOSOS``, ``SODOS``, ``SORP``) mean the ``MM-`` criteria (``Policy.criterion_aliases``).

MacMahon shows the standings after R = CurrentRoundNumber − (TakeCurrentRoundInAccount ?
0 : 1) rounds; a goledger view chooses its round with ``--round``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from goledger.replay.scoring.criteria.names import CRITERION_FOR_MACMAHON
from goledger.replay.scoring.macmahon_rules import MacMahonRules, collation_key, macmahon_ids, player_level
from goledger.replay.scoring.policies import Policy, register_policy
from goledger.replay.scoring.standings import TieKey, register_tie_order

if TYPE_CHECKING:
    from goledger.replay.scoring.scoring import ScoringContext

__all__ = ["weak_order"]


def weak_order(ctx: ScoringContext) -> TieKey:
    """MacMahon's weak sort criteria as a tie key (module docstring)."""
    weak = MacMahonRules.of(ctx.settings).weak_sort
    players = ctx.state.players
    ids = macmahon_ids(players)

    def key(pid: str) -> tuple[Any, ...]:
        p = players[pid]
        if weak == 1:
            return (-player_level(p).absolute, collation_key(p.surname), collation_key(p.first_name), ids[pid])
        if weak == 2:
            return (collation_key(p.surname), collation_key(p.first_name), ids[pid])
        return (ids[pid],)

    return key


register_tie_order("macmahon-weak", weak_order)

register_policy(
    Policy(
        name="macmahon",
        description=(
            "MacMahon 3.10 (Christoph Gerlach): Score/ScoreX/Points/SOS/SOSOS/SODOS/SORP in quarter points "
            "as its program computes them, its bars, super bar and score adjustments, its bye option, "
            "half-score rounding and handicap in tie-breakers, weak sort criteria inside ties."
        ),
        listed_players="all",
        place_sharing="all-criteria",
        default_criteria=("MM-ScoreX", "MM-SOS", "MM-SOSOS"),
        tie_order="macmahon-weak",
        # MacMahon's own names, as its users type them (issue 19.9).
        criterion_aliases=tuple(CRITERION_FOR_MACMAHON.items()),
    )
)
