"""Comparing standings: compact snapshots, per-player rows, and what changed between two.

A :class:`Snapshot` keeps, for one computed :class:`~goledger.replay.scoring.standings.Standings`,
each listed player's ``(place, values)`` as a tuple in the order of the snapshot's criteria.
Two snapshots are compared player by player; a player *changed* when his place or any value
changed, when the criteria themselves changed (a rule change naming other criteria), or when
he appears in only one of them (registered, or listed only once he is paired). Nothing here
knows what a criterion means: values are the integers the registry computed, in units of
``1/scale`` (``scales``).

>>> from goledger.replay.scoring.standings import StandingRow, Standings
>>> def st(rows):
...     return Standings(round=1, as_of_seq=9, policy="p", criteria=("MMS",), scales={"MMS": 2},
...                      rows=[StandingRow(place=pl, player_id=pid, surname=pid, first_name="", rank="1d",
...                                        egd_pin="", start_number=None, values={"MMS": v})
...                            for pl, pid, v in rows])
>>> a = Snapshot.of(st([(1, "p1", 62), (2, "p2", 60)]))
>>> b = Snapshot.of(st([(1, "p2", 64), (2, "p1", 62)]), previous=a)
>>> changed_players(a, b), b.rows["p1"] is a.rows["p1"]
(['p2', 'p1'], False)
>>> b.view("p2")
RowView(place=1, values={'MMS': 64})
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

import msgspec

from goledger.replay.scoring.standings import Ranking, Standings, json_number

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Sequence

__all__ = ["Cause", "PlayerChange", "RowView", "Snapshot", "changed_players", "row_json"]

Row = tuple[int, tuple[int, ...]]


class RowView(msgspec.Struct, frozen=True, kw_only=True):
    """One player's place and criterion values (integers in each criterion's unit)."""

    place: int
    values: dict[str, int]


def _values_getter(criteria: tuple[str, ...]) -> Any:
    """A function giving the tuple of a row's values of ``criteria``, in that order (C-level
    ``itemgetter``: a snapshot of a congress reads 1,500 rows)."""
    if len(criteria) > 1:
        return operator.itemgetter(*criteria)
    if criteria:
        only = criteria[0]
        return lambda values: (values[only],)
    return lambda values: ()


class Snapshot:
    """The comparable content of one standings table, with shared rows between neighbours.

    ``previous`` (a snapshot taken nearby in the log) lets unchanged rows share one tuple,
    so that many snapshots of a large tournament stay small.
    """

    __slots__ = ("_views", "as_of_seq", "criteria", "names", "policy", "round", "rows", "scales")

    def __init__(self, round_: int, as_of_seq: int, policy: str, criteria: tuple[str, ...],
                 scales: dict[str, int], rows: dict[str, Row], names: dict[str, tuple[str, str]]) -> None:
        self.round = round_
        self.as_of_seq = as_of_seq
        self.policy = policy
        self.criteria = criteria
        self.scales = scales
        self.rows = rows
        self.names = names
        self._views: dict[str, RowView] = {}

    @classmethod
    def of(cls, standings: Standings | Ranking, previous: Snapshot | None = None) -> Snapshot:
        criteria = tuple(standings.criteria)
        shared = previous.rows if previous is not None and previous.criteria == criteria else {}
        if isinstance(standings, Ranking):
            return cls._of_ranking(standings, criteria, shared, previous)
        rows: dict[str, Row] = {}
        names: dict[str, tuple[str, str]] = {}
        old_names = previous.names if previous is not None else {}
        pick = _values_getter(criteria)
        for row in standings.rows:
            new = (row.place, pick(row.values))
            old = shared.get(row.player_id)
            rows[row.player_id] = old if old == new else new
            name = (row.surname, row.first_name)
            old_name = old_names.get(row.player_id)
            names[row.player_id] = old_name if old_name == name else name
        return cls(standings.round, standings.as_of_seq, standings.policy, criteria,
                   dict(standings.scales), rows, names)

    @classmethod
    def _of_ranking(cls, ranking: Ranking, criteria: tuple[str, ...], shared: dict[str, Row],
                    previous: Snapshot | None) -> Snapshot:
        get = shared.get  # an unchanged row keeps the previous snapshot's tuple
        rows: dict[str, Row] = {
            pid: old if (old := get(pid)) is not None and old[0] == place and old[1] == values else (place, values)
            for place, pid, values in ranking.placed
        }
        return cls(ranking.round, ranking.as_of_seq, ranking.policy, criteria, dict(ranking.scales), rows,
                   ranking.names)

    def name(self, player_id: str) -> tuple[str, str] | None:
        """``(surname, first name)`` of a listed player (``None``: not listed here)."""
        return self.names.get(player_id) if player_id in self.rows else None

    def key(self, player_id: str) -> tuple[tuple[str, ...], Row | None]:
        """What is compared for one player: the criteria and his row (``None`` if not listed)."""
        return self.criteria, self.rows.get(player_id)

    def view(self, player_id: str) -> RowView | None:
        """The player's row as a :class:`RowView` (one object per snapshot and player: a
        snapshot between two attributed intervals is the after of one and the before of the
        next)."""
        found = self._views.get(player_id)
        if found is None:
            row = self.rows.get(player_id)
            if row is None:
                return None
            found = self._views[player_id] = RowView(place=row[0], values=dict(zip(self.criteria, row[1], strict=True)))
        return found

    def same_as(self, other: Snapshot, focus: Collection[str] | None = None) -> bool:
        """True when no player (or no player of ``focus``) differs between the two."""
        if focus is None:
            return self.criteria == other.criteria and self.rows == other.rows
        return all(self.key(p) == other.key(p) for p in focus)


def changed_players(a: Snapshot, b: Snapshot, focus: Iterable[str] | None = None) -> list[str]:
    """Players whose row differs between ``a`` and ``b``: ordered by the place in ``b``, then
    in ``a`` (players listed in neither order last), then id."""
    if focus is None:
        if a.criteria == b.criteria:
            before, after = a.rows, b.rows
            get = before.get
            ids = [p for p, row in after.items() if (old := get(p)) is not row and old != row]
            ids += [p for p in before if p not in after]
        else:
            ids = list(dict.fromkeys([*b.rows, *a.rows]))
    else:
        ids = [p for p in focus if a.key(p) != b.key(p)]

    def order(pid: str) -> tuple[int, int, str]:
        after, before = b.rows.get(pid), a.rows.get(pid)
        return (after[0] if after else 1 << 30, before[0] if before else 1 << 30, pid)

    return sorted(ids, key=order)


def changed_columns(changes: Sequence[PlayerChange], order: Sequence[str]) -> list[str]:
    """The criteria that changed for any of ``changes``, in the tournament's order ``order``
    (criteria outside it last, as first met): the columns ``diff`` and ``report`` show."""
    changed: list[str] = []
    for change in changes:
        for name in change.changed_criteria():
            if name not in changed:
                changed.append(name)
    rank = {name: i for i, name in enumerate(order)}
    return sorted(changed, key=lambda name: (rank.get(name, len(rank)), changed.index(name)))


def row_json(view: RowView | None, scales: dict[str, int]) -> dict[str, Any] | None:
    """``{"place": …, "values": {criterion: number}}`` with exact JSON numbers.

    The common values are :func:`~goledger.replay.scoring.standings.json_number` computed inline
    (a diff of a congress converts 160,000): a whole number, and a half or quarter (a scale
    that is a power of two), which ``value / scale``, correctly rounded, gives exactly."""
    if view is None:
        return None
    values: dict[str, Any] = {}
    for name, value in view.values.items():
        scale = scales[name]
        if value % scale == 0:
            values[name] = value // scale
        elif scale & (scale - 1) == 0:
            values[name] = value / scale
        else:
            values[name] = json_number(value, scale)
    return {"place": view.place, "values": values}


class Cause(msgspec.Struct, kw_only=True):
    """Events ``first_seq..last_seq`` changed a player's row from ``before`` to ``after``.

    A single event (``first_seq == last_seq``) carries its ``relation`` to the player (``own
    result``, ``opponent's result``, ``withdrawal of an opponent``, ``rule change``…) and a
    description; a longer range is one the attribution did not split further (its budget of
    replays ran out) and names the event types it holds.
    """

    first_seq: int
    last_seq: int
    types: tuple[str, ...]
    relation: str
    summary: str
    before: RowView | None
    after: RowView | None

    def to_dict(self, scales: dict[str, int]) -> dict[str, Any]:
        return {
            "first_seq": self.first_seq,
            "last_seq": self.last_seq,
            "types": list(self.types),
            "relation": self.relation,
            "summary": self.summary,
            "before": row_json(self.before, scales),
            "after": row_json(self.after, scales),
        }


class PlayerChange(msgspec.Struct, kw_only=True):
    """One player whose place or values differ between two standings, and why."""

    player_id: str
    surname: str
    first_name: str
    before: RowView | None
    after: RowView | None
    causes: list[Cause] = msgspec.field(default_factory=list)

    def changed_criteria(self) -> list[str]:
        """Criteria whose value differs (a criterion present on one side only counts)."""
        old = self.before.values if self.before else {}
        new = self.after.values if self.after else {}
        return [c for c in dict.fromkeys([*new, *old]) if old.get(c) != new.get(c)]

    def to_dict(self, scales: dict[str, int]) -> dict[str, Any]:
        return {
            "player_id": self.player_id,
            "surname": self.surname,
            "first_name": self.first_name,
            "before": row_json(self.before, scales),
            "after": row_json(self.after, scales),
            "caused_by": [c.to_dict(scales) for c in self.causes],
        }
