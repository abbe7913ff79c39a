"""The top floor of ``replay``: every read view that takes a ledger path, behind the read
commands of the CLI and the desk (which call nothing else of ``replay`` but pure value types).

Each opens the ledger once, folds it once (through the snapshot cache,
:mod:`goledger.replay.loading.load`) and hands
the state to the pure function of the scoring floor that computes the view:
``standings(db, round, as_of, policy, criteria)`` is what ``goledger standings`` prints
(from the standings cache at the head, :mod:`.standings_cache`), ``standings_page`` the same
with the state it was computed from (for a printed page's title and withdrawn note),
``explain(db, player, …)`` is ``goledger explain``, ``pairings``/``players``/``wall_list``
the day's printouts, ``crosstable``, ``start_scores_view`` and ``adjusted_scores`` the views of
the same names. Beside this one: the standings cache (:mod:`.standings_cache`); the loading,
the state snapshots and their seal are the floor below (:mod:`goledger.replay.loading`).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, NamedTuple

from goledger.errors import CommandRejected
from goledger.ledger.store import Ledger
from goledger.replay.loading.load import load_state, settings_of
from goledger.replay.scoring.check_ins import check_in_status, next_round, standing
from goledger.replay.scoring.printouts import (
    PairingList,
    PlayerList,
    WallList,
    pairing_list_of,
    player_list_of,
    standings_title,
    wall_list_of,
    withdrawn_note,
)
from goledger.replay.scoring.reports import STATUSES as REPORT_STATUSES
from goledger.replay.scoring.reports import closed_reason, current_claim, round_reports
from goledger.replay.scoring.standings import Standings
from goledger.replay.scoring.standings import standings as compute_standings
from goledger.replay.scoring.start_scores import StartScoreTable, start_score_table
from goledger.replay.views.standings_cache import cached_standings

if TYPE_CHECKING:  # the views of one command each, imported by it (a run of ``standings`` needs none)
    from collections.abc import Sequence

    from goledger.ledger.events import TournamentSettings
    from goledger.replay.fold.state import TournamentState
    from goledger.replay.scoring.check_ins import CheckInStatus
    from goledger.replay.scoring.crosstable import Crosstable
    from goledger.replay.scoring.explain import PlayerExplanation
    from goledger.replay.scoring.fide_views import AdjustedScores

__all__ = [
    "REPORT_STATUSES",
    "HeadState",
    "StandingsPage",
    "adjusted_scores",
    "check_in_status",
    "check_ins",
    "closed_reason",
    "crosstable",
    "current_claim",
    "explain",
    "head_state",
    "next_round",
    "pairings",
    "players",
    "round_reports",
    "settings_as_of",
    "standing",
    "standings",
    "standings_page",
    "start_scores_view",
    "state_as_of",
    "tournament_language",
    "wall_list",
]

PathLike = str | os.PathLike[str]


def _state(ledger: Ledger, as_of: int | None) -> TournamentState:
    head = ledger.head().seq
    if as_of is not None and not 1 <= as_of <= head:
        raise CommandRejected(f"--as-of {as_of} is outside the ledger's events 1..{head}")
    return load_state(ledger, upto=as_of)


def state_as_of(db: PathLike, as_of: int | None = None) -> TournamentState:
    """The tournament state after event ``as_of`` (default: the head)."""
    with Ledger.open(db) as ledger:
        return _state(ledger, as_of)


class HeadState(NamedTuple):
    """The state at a ledger's head and the stored hash of the event it was folded to: what a
    view computed from ``state`` may be kept under (a kept view is for this event of this log,
    never for another log that happens to have as many events)."""

    state: TournamentState
    hash: str

    @property
    def seq(self) -> int:
        return self.state.seq


def head_state(db: PathLike, known: HeadState | None = None) -> HeadState:
    """The state at the ledger's head with its event's hash, from one opening of the ledger:
    ``known`` itself when the head is still its event (same sequence number, same hash), else
    folded again (through the snapshot cache)."""
    with Ledger.open(db) as ledger:
        head = ledger.head()
        if known is not None and known.seq == head.seq and known.hash == head.hash:
            return known
        state = load_state(ledger)
        stored = head.hash if state.seq == head.seq else ledger.hash_at(state.seq)
        return HeadState(state, stored or "")


def settings_as_of(db: PathLike, as_of: int | None = None) -> TournamentSettings | None:
    """The tournament's settings after event ``as_of`` (default: the head), from the events that
    set them alone (:func:`goledger.replay.loading.load.settings_of`)."""
    with Ledger.open(db) as ledger:
        return settings_of(ledger, as_of)


def tournament_language(db: PathLike) -> str:
    """The language a ledger's tournament writes its printouts in (``TournamentSettings.language``,
    as changed last); English for a file that is not a ledger yet."""
    if not os.path.exists(db):
        return "en"
    settings = settings_as_of(db)
    return settings.language if settings is not None else "en"


def standings(
    db: PathLike,
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
        with Ledger.open(db) as ledger:
            return cached_standings(ledger, round, policy, criteria)
    return compute_standings(state_as_of(db, as_of), round, policy, criteria)


class StandingsPage(NamedTuple):
    """Standings with the state they were computed from: what a printed page shows beside the
    table comes from that state, never from a second reading of the ledger."""

    standings: Standings
    state: TournamentState

    def title(self) -> str:
        """``"Club Cup · standings after round 2 of 3"``
        (:func:`~goledger.replay.scoring.printouts.standings_title`)."""
        return standings_title(self.state, self.standings)

    def withdrawn_note(self) -> str:
        """``withdrawn: p0003 Chen Li from round 3``, or ``""``
        (:func:`~goledger.replay.scoring.printouts.withdrawn_note`)."""
        return withdrawn_note(self.state, self.standings)


def standings_page(
    db: PathLike,
    round: int | None = None,  # noqa: A002
    as_of: int | None = None,
    policy: str | None = None,
    criteria: Sequence[str] | None = None,
) -> StandingsPage:
    """:func:`standings` and the state they were computed from, from one opening and one fold
    of the ledger (at the head, the standings still come from the cache when it holds them)."""
    with Ledger.open(db) as ledger:
        state = _state(ledger, as_of)
        if as_of is None:
            return StandingsPage(cached_standings(ledger, round, policy, criteria, state), state)
    return StandingsPage(compute_standings(state, round, policy, criteria), state)


def explain(
    db: PathLike,
    player: str,
    criterion: str | None = None,
    round: int | None = None,  # noqa: A002
    as_of: int | None = None,
    policy: str | None = None,
    criteria: Sequence[str] | None = None,
) -> PlayerExplanation:
    """Why ``player`` has his values and place after ``round`` as of event ``as_of``."""
    # each view loads its own scoring module: `goledger standings` loads no crosstable
    from goledger.replay.scoring.explain import explain as explain_state

    return explain_state(state_as_of(db, as_of), player, criterion, round, policy, criteria)


def pairings(db: PathLike, round: int, as_of: int | None = None) -> PairingList:  # noqa: A002
    """``goledger pairings --round R``: the pairing list of a ledger's round."""
    return pairing_list_of(state_as_of(db, as_of), round)


def players(db: PathLike, as_of: int | None = None) -> PlayerList:
    """``goledger players``: the registration list of a ledger."""
    return player_list_of(state_as_of(db, as_of))


def wall_list(db: PathLike, round: int | None = None, as_of: int | None = None,  # noqa: A002
              policy: str | None = None, criteria: Sequence[str] | None = None,
              alphabet: str | None = None) -> WallList:
    """``goledger wall-list``: the wall list of a ledger after ``round`` (``alphabet``: a
    shared place listed in that language's alphabet)."""
    return wall_list_of(state_as_of(db, as_of), round, policy, criteria, alphabet)


def crosstable(
    db: PathLike,
    round: int | None = None,  # noqa: A002
    as_of: int | None = None,
    policy: str | None = None,
    criteria: Sequence[str] | None = None,
    alphabet: str | None = None,
) -> Crosstable:
    """``goledger crosstable``: the crosstable of a ledger (``alphabet``: a shared place
    listed in that language's alphabet)."""
    from goledger.replay.scoring.crosstable import crosstable_of

    return crosstable_of(state_as_of(db, as_of), round, policy, criteria, alphabet)


def start_scores_view(db: PathLike, round: int | None = None,  # noqa: A002
                      as_of: int | None = None) -> StartScoreTable:
    """``goledger start-scores``: the start-score table of a ledger."""
    return start_score_table(state_as_of(db, as_of), round)


def adjusted_scores(
    db: PathLike,
    round: int | None = None,  # noqa: A002
    as_of: int | None = None,
    policy: str | None = None,
) -> AdjustedScores:
    """``goledger standings --adjusted``: the adjusted-score view of a ledger."""
    from goledger.replay.scoring.fide_views import adjusted_view

    return adjusted_view(state_as_of(db, as_of), round, policy)


def check_ins(db: PathLike, round: int | None = None) -> CheckInStatus:  # noqa: A002
    """``goledger check-ins``: round ``round``'s check-ins (issue 46; default: the next round
    to pair, :func:`~goledger.replay.scoring.check_ins.next_round`)."""
    with Ledger.open(db) as ledger:
        state = load_state(ledger)
    chosen = round if round is not None else next_round(state)
    if chosen is None:
        raise CommandRejected("every round is paired: there is no round left to check in for")
    if not 1 <= chosen <= state.rounds:
        raise CommandRejected(f"round {chosen} is outside 1..{state.rounds} of this tournament")
    return check_in_status(state, chosen)
