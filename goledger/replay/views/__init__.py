"""Library functions behind the read commands, working from a ledger file.

``standings(db, round, as_of, policy, criteria)`` is what ``goledger standings`` prints;
``explain(db, player, criterion, round, as_of, policy, criteria)`` is ``goledger explain``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from goledger.errors import CommandRejected
from goledger.ledger.store import Ledger
from goledger.replay.fold.state import TournamentState
from goledger.replay.scoring.standings import Standings
from goledger.replay.scoring.standings import standings as compute_standings
from goledger.replay.views.load import load_state

if TYPE_CHECKING:
    from goledger.replay.scoring.explain import PlayerExplanation

__all__ = ["explain", "standings", "state_as_of", "tournament_language"]


def state_as_of(db: str | os.PathLike[str], as_of: int | None = None) -> TournamentState:
    """The tournament state after event ``as_of`` (default: the head)."""
    with Ledger.open(db) as ledger:
        head = ledger.head().seq
        if as_of is not None and not 1 <= as_of <= head:
            raise CommandRejected(f"--as-of {as_of} is outside the ledger's events 1..{head}")
        return load_state(ledger, upto=as_of)


def tournament_language(db: str | os.PathLike[str]) -> str:
    """The language a ledger's tournament writes its printouts in (``TournamentSettings.language``,
    as changed last); English for a file that is not a ledger yet."""
    if not os.path.exists(db):
        return "en"
    state = state_as_of(db)
    return state.settings.language if state.settings is not None else "en"


def standings(
    db: str | os.PathLike[str],
    round: int | None = None,  # noqa: A002
    as_of: int | None = None,
    policy: str | None = None,
    criteria: Sequence[str] | None = None,
) -> Standings:
    """Standings after ``round`` as of event ``as_of`` under ``policy`` with ``criteria``.

    At the head (no ``as_of``) they come from the ledger's standings cache when it holds them
    for this head (:mod:`goledger.replay.views.standings_cache`), else they are computed and cached.
    """
    if as_of is None:
        from goledger.replay.views.standings_cache import cached_standings

        with Ledger.open(db) as ledger:
            return cached_standings(ledger, round, policy, criteria)
    return compute_standings(state_as_of(db, as_of), round, policy, criteria)


def explain(
    db: str | os.PathLike[str],
    player: str,
    criterion: str | None = None,
    round: int | None = None,  # noqa: A002
    as_of: int | None = None,
    policy: str | None = None,
    criteria: Sequence[str] | None = None,
) -> PlayerExplanation:
    """Why ``player`` has his values and place after ``round`` as of event ``as_of``."""
    from goledger.replay.scoring.explain import explain as explain_state

    return explain_state(state_as_of(db, as_of), player, criterion, round, policy, criteria)
