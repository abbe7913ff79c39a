"""Which events changed which rows: attribution by incremental replay (DESIGN §6).

Given the state at event ``a`` (``base``), the events ``a+1 … b`` and a function computing the
standings of a state (a fixed round, policy and criteria), :func:`trace` finds the events at
which each player's row changed, without computing the standings after every event:

1. **Level 0.** The stretch is cut where the round of the events changes (registrations,
   round 1, round 2…; rounds after the one looked at count as one) and around every
   event an audit cares about by itself — withdrawals,
   reinstatements, corrections, rule changes, player updates, removed pairings and byes, and
   any ``isolate``-d sequence number — and the standings are computed at each cut, in one
   forward pass of the incremental fold (:func:`goledger.replay.fold.state.apply`).
2. **Refinement.** Every interval whose two ends differ (for any player, or for the
   ``focus`` players) and that holds more than one event is split in the middle; the new
   points of one level are again computed in one forward pass. Intervals whose ends are equal
   are not searched: an effect undone inside the same interval is not a cause of the
   difference. Refinement stops when every differing interval is a single event, or when
   ``max_replays`` standings computations have been spent (``None``: no limit).

The budget covers the round cuts of level 0 (dropped when they alone would exceed half of it)
and the refinement; the two ends and the isolated events are always computed. ``"auto"``
gives a budget of :data:`REPLAY_WORK` player rows: about 1,500 standings computations for 40
players, 40 for 1,500 (:func:`replay_budget`).

The result is a partition of ``a … b`` into evaluated intervals. For each player the
intervals where his row differs telescope exactly to his total change ``a → b``; each is one
event (an exact cause) or, when the budget ran out, a short range of events.

Each point is a :class:`~goledger.replay.scoring.standings.Ranking` (no table rows to show). The
passes of one trace share a *lineage* (:func:`goledger.replay.scoring.rounds.track`): a point's round
table derives from the nearest point computed before it, in this pass or an earlier one
(only the rows of the players the events in between touched are rebuilt), and its criteria
update from that point's values (:meth:`~goledger.replay.scoring.scoring.ScoringContext.dirty`).

Cost: one standings computation per cut plus two per changed event at most, and one fold of
the stretch per refinement level. Sparse changes (a correction in a long log) cost a handful
of computations; a stretch where every event changes something costs about two per event
unless the budget caps it.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Collection, Iterable, Sequence
from itertools import pairwise
from typing import Final

from goledger.audit.compare import Snapshot
from goledger.ledger import events as ev
from goledger.replay.fold.state import TournamentState, apply, fold
from goledger.replay.scoring.registries import check_registered
from goledger.replay.scoring.rounds import forget, keep_only, note_event, track, untrack
from goledger.replay.scoring.standings import Ranking, Standings

__all__ = ["AUTO", "ISOLATED_TYPES", "REPLAY_WORK", "Trace", "replay_budget", "trace"]

AUTO: Final = "auto"
"""``max_replays`` value: a budget from the size of the field (:func:`replay_budget`)."""

REPLAY_WORK: Final = 60_000
"""Player rows of standings the automatic budget spends (chosen when a row cost ~0.1 ms; on a
congress, incremental replay now computes one in about 5 µs: 40 rankings of 1,500 players
in about 0.3 s). The budget sets how far attribution goes, so it stays as documented."""


def replay_budget(players: int) -> int:
    """Standings computations the automatic budget allows for a field of ``players``.

    >>> replay_budget(40), replay_budget(1500), replay_budget(100_000)
    (1500, 40, 16)
    """
    return max(16, REPLAY_WORK // max(1, players))


ISOLATED_TYPES: Final = frozenset({
    "TournamentCreated", "RulesChanged", "PlayerUpdated", "PlayerWithdrew", "PlayerReinstated",
    "PlayerUnregistered", "ResultCorrected", "PairingRemoved", "ByeRemoved",
})
"""Event types always evaluated on their own: each is reported as an exact cause."""

Evaluate = Callable[[TournamentState], Standings | Ranking]


class Trace:
    """Snapshots at the evaluated points of ``from_seq … to_seq`` and the intervals between
    consecutive points where something (for the focus players) differs."""

    def __init__(self, from_seq: int, to_seq: int, points: dict[int, Snapshot], intervals: list[tuple[int, int]],
                 replays: int, complete: bool, focus: Collection[str] | None) -> None:
        self.from_seq = from_seq
        self.to_seq = to_seq
        self.points = points
        self.intervals = intervals
        self.replays = replays
        self.complete = complete
        self.focus = focus

    @property
    def before(self) -> Snapshot:
        return self.points[self.from_seq]

    @property
    def after(self) -> Snapshot:
        return self.points[self.to_seq]


def level0_cuts(events: Sequence[ev.Event], from_seq: int, isolate: Iterable[int] = (),
                view_round: int | None = None) -> tuple[set[int], set[int]]:
    """Sequence numbers after which the standings are computed first (see the module doc):
    the ``mandatory`` ones (the end, both sides of every isolated event) and the ``optional``
    cuts between runs of events of one round.

    Events of rounds after ``view_round`` form one run: standings after round R use rounds
    1..R only, so they rarely change anything there (only the listing of players can).

    >>> from goledger.ledger.values import Result
    >>> evs = [ev.GamePaired(round=1, table=1, white="a", black="b"),
    ...        ev.ResultRecorded(round=1, table=1, result=Result.WHITE),
    ...        ev.ResultCorrected(round=1, table=1, result=Result.BLACK),
    ...        ev.GamePaired(round=2, table=1, white="a", black="b"),
    ...        ev.ResultRecorded(round=2, table=1, result=Result.WHITE),
    ...        ev.ByeAssigned(round=3, player_id="c")]
    >>> [sorted(cuts) for cuts in level0_cuts(evs, 10)]
    [[12, 13, 16], [15]]
    """
    wanted = set(isolate)
    end = from_seq + len(events)
    mandatory: set[int] = {end}
    optional: set[int] = set()
    previous: object = object()
    for offset, event in enumerate(events):
        seq = from_seq + offset + 1
        if event.type_name() in ISOLATED_TYPES or seq in wanted:
            mandatory.update((seq - 1, seq))
            previous = object()
            continue
        key = getattr(event, "round", None)
        if view_round is not None and isinstance(key, int) and key > view_round:
            key = "later"
        if key != previous and offset > 0:
            optional.add(seq - 1)
        previous = key
    mandatory = {c for c in mandatory if from_seq < c <= end}
    return mandatory, {c for c in optional if from_seq < c <= end} - mandatory


def _evaluate_at(base: TournamentState, events: Sequence[ev.Event], targets: list[int], evaluate: Evaluate,
                 points: dict[int, Snapshot], lineage: object = None) -> None:
    """Compute snapshots after each sequence number of ``targets`` (sorted) in one forward pass
    (``lineage``: shared by the passes of one trace, whose tables serve one another)."""
    if not targets:
        return
    state = fold((), start=base)
    known = sorted(points)
    wanted = iter(targets)
    target = next(wanted)
    track(state, base, lineage)  # nearby points share the round rows of the players no event touched
    try:
        for event in events:
            note_event(state, event)
            apply(state, event, check_registered)
            if state.seq == target:
                at = bisect.bisect_left(known, target)
                previous = points[known[at - 1]] if at > 0 else None
                points[target] = Snapshot.of(evaluate(state), previous)
                next_target = next(wanted, None)
                if next_target is None:
                    return
                target = next_target
    finally:
        untrack(state)


def trace(
    base: TournamentState,
    events: Sequence[ev.Event],
    evaluate: Evaluate,
    *,
    isolate: Iterable[int] = (),
    max_replays: int | str | None = AUTO,
    focus: Collection[str] | None = None,
    view_round: int | None = None,
) -> Trace:
    """Attribute the changes between ``base`` and ``base`` + ``events`` (see the module doc)."""
    from_seq = base.seq
    to_seq = from_seq + len(events)
    points: dict[int, Snapshot] = {from_seq: Snapshot.of(evaluate(base))}
    mandatory, optional = level0_cuts(events, from_seq, isolate, view_round)
    if max_replays == AUTO:
        players = len(base.players) + sum(isinstance(e, ev.PlayerRegistered) for e in events)
        max_replays = replay_budget(players)
    elif isinstance(max_replays, str):
        raise ValueError(f"max_replays must be a number, None or {AUTO!r}, not {max_replays!r}")
    spent = 0
    if max_replays is None or len(optional) <= max_replays // 2:
        mandatory |= optional
        spent = len(optional)
    lineage = object()
    try:
        replays, complete = _refine(base, events, evaluate, points, sorted(mandatory), max_replays, spent, focus,
                                    lineage)
    finally:
        forget(lineage)
    ordered = sorted(points)
    intervals = [(a, b) for a, b in pairwise(ordered) if not points[a].same_as(points[b], focus)]
    return Trace(from_seq, to_seq, points, intervals, replays, complete, focus)


def _refine(base: TournamentState, events: Sequence[ev.Event], evaluate: Evaluate, points: dict[int, Snapshot],
            first: list[int], max_replays: int | None, spent: int, focus: Collection[str] | None,
            lineage: object) -> tuple[int, bool]:
    """Level 0 at ``first``, then the refinement levels (see the module doc): the number of
    standings computed and whether every differing interval is a single event."""
    _evaluate_at(base, events, first, evaluate, points, lineage)
    replays = len(points)
    complete = False
    while True:
        ordered = sorted(points)
        open_ = [(a, b) for a, b in pairwise(ordered)
                 if b - a > 1 and not points[a].same_as(points[b], focus)]
        keep_only(lineage, {a for a, _ in open_})  # a middle derives from its interval's first point
        if not open_:
            complete = True
            break
        if max_replays is not None:
            room = max_replays - spent
            if room <= 0:
                break
            open_ = sorted(open_, key=lambda ab: (ab[0] - ab[1], ab[0]))[:room]
        middles = sorted((a + b) // 2 for a, b in open_)
        _evaluate_at(base, events, middles, evaluate, points, lineage)
        spent += len(middles)
        replays += len(middles)
    return replays, complete
