"""Standings: order, ties and places at any round (spec ``scoring.md`` §2.5, DESIGN §5).

Players are sorted on the criteria, strongest first, higher values better. Players equal on
every criterion share a place, ``1 + number of players strictly ahead``; inside a tie they
are listed by surname then first name, compared as OpenGotha does (Java ``compareTo``:
UTF-16 code units, case-sensitive).

>>> from goledger.ledger.events import TournamentCreated, TournamentSettings, PlayerRegistered
>>> from goledger.replay.fold.state import fold
>>> state = fold([TournamentCreated(settings=TournamentSettings(name="t", rounds=3, system="swiss")),
...               PlayerRegistered(player_id="p0001", surname="B", rank="1k"),
...               PlayerRegistered(player_id="p0002", surname="A", rank="2k")])
>>> [(row.place, row.surname) for row in standings(state, policy="egf", criteria=["NBW"]).rows]
[(1, 'A'), (1, 'B')]
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.nogc import nogc
from goledger.replay.scoring.choices import check_round, main_score, resolve_criteria, resolve_policy
from goledger.replay.scoring.criteria import get_criterion
from goledger.replay.scoring.policies import Policy, known_policies
from goledger.replay.scoring.scoring import ScoringContext
from goledger.replay.scoring.units import unit_state

if TYPE_CHECKING:
    from goledger.replay.fold.state import TournamentState

__all__ = [
    "Ranking",
    "StandingRow",
    "Standings",
    "check_round",
    "main_score",
    "ranking",
    "register_tie_order",
    "resolve_criteria",
    "resolve_policy",
    "standings",
]

class StandingRow(msgspec.Struct, kw_only=True):
    """One line of the standings. ``values`` are integers in each criterion's unit
    (see ``Standings.scales``); :meth:`Standings.to_dict` turns them into numbers."""

    place: int
    player_id: str
    surname: str
    first_name: str
    rank: str
    egd_pin: str
    start_number: int | None
    values: dict[str, int]


class Standings(msgspec.Struct, kw_only=True):
    round: int
    as_of_seq: int
    policy: str
    criteria: tuple[str, ...]
    scales: dict[str, int]
    rows: list[StandingRow]
    notes: tuple[str, ...] = ()
    """Events of the log the fold had to ignore, one sentence each (``event 9 (RulesChanged)
    was ignored: …``): an old ledger may hold one outside today's domains (issue 18)."""

    def value(self, row: StandingRow, criterion: str) -> Fraction:
        """A row's value of ``criterion`` as an exact number of points."""
        return Fraction(row.values[criterion], self.scales[criterion])

    def in_alphabet(self, language: str | None = None) -> Standings:
        """These standings as a page for people shows them (issue 44, item 6): players sharing a
        place listed in ``language``'s alphabet (default: the language written in; Turkish
        ``Akçin, Çoban, Kıyak``), the order between places unchanged. The engine's own order
        inside a tie (OpenGotha's code-unit order) stays that of the JSON and CSV."""
        # the collation loads late: only a tie listed by name needs it
        from goledger.i18n.collation import ties_by_name

        rows = ties_by_name(self.rows, lambda r: r.place, lambda r: r.surname, lambda r: r.first_name, language)
        return msgspec.structs.replace(self, rows=rows)

    def to_dict(self) -> dict[str, Any]:
        """The DESIGN §8 JSON shape: values as JSON numbers (exact: halves and quarters)."""
        shown: dict[str, Any] = {
            "round": self.round,
            "as_of_seq": self.as_of_seq,
            "policy": self.policy,
            "criteria": list(self.criteria),
            "rows": [
                {
                    "place": row.place,
                    "player_id": row.player_id,
                    "surname": row.surname,
                    "first_name": row.first_name,
                    "rank": row.rank,
                    "egd_pin": row.egd_pin,
                    "start_number": row.start_number,
                    "values": {c: json_number(row.values[c], self.scales[c]) for c in self.criteria},
                }
                for row in self.rows
            ],
        }
        if self.notes:  # only an old ledger holding an event the fold ignored has any
            shown["notes"] = list(self.notes)
        return shown


def json_number(value: int, scale: int) -> int | float | str:
    """An exact JSON value for ``value / scale``: an int when whole, a float when the binary
    fraction is exact (halves, quarters), an exact decimal string when the value has a finite
    decimal form that a float cannot hold (AOB's hundredths: ``"13.6"``), else ``"p/q"``.

    >>> json_number(7, 2), json_number(1360, 100), json_number(-1, 5), json_number(1, 3)
    (3.5, '13.6', '-0.2', '1/3')
    """
    if value % scale == 0:
        return value // scale
    frac = Fraction(value, scale)
    denominator = frac.denominator
    if denominator & (denominator - 1) == 0:  # power of two: exact in binary
        return float(frac)
    twos = fives = 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    if denominator == 1:  # 2^a·5^b: exactly max(a, b) decimal places
        places = max(twos, fives)
        digits = abs(frac.numerator) * 10**places // frac.denominator
        sign = "-" if frac < 0 else ""
        whole, part = divmod(digits, 10**places)
        return f"{sign}{whole}.{part:0{places}d}"
    return f"{frac.numerator}/{frac.denominator}"


@lru_cache(maxsize=1 << 16)
def _name_key(text: str) -> str:
    """A key ordering names as Java's ``String.compareTo`` does (UTF-16 code units): code
    points, except that a character beyond U+FFFF is compared as its surrogate pair.

    >>> sorted(["\uff5e", "\U0001f600", "b"], key=_name_key) == ["b", "\U0001f600", "\uff5e"]
    True
    """
    if text.isascii() or max(text) < "\U00010000":
        return text
    out = []
    for ch in text:
        code = ord(ch)
        if code < 0x10000:
            out.append(ch)
        else:
            code -= 0x10000
            out.append(chr(0xD800 + (code >> 10)) + chr(0xDC00 + (code & 0x3FF)))
    return "".join(out)


TieKey = Callable[[str], tuple[Any, ...]]
TIE_ORDERS: dict[str, Callable[[ScoringContext], TieKey]] = {}
"""Tie orders by name (``Policy.tie_order``): a function of the context returning a sort key
per player id, applied after every criterion (lower sorts first)."""


def register_tie_order(name: str, build: Callable[[ScoringContext], TieKey]) -> None:
    """Register the order used inside ties for policies whose ``tie_order`` is ``name``."""
    TIE_ORDERS[name] = build


def _by_name(ctx: ScoringContext) -> TieKey:
    players = ctx.state.players

    def build_for(ids: Iterable[str]) -> dict[str, tuple[Any, ...]]:
        return {pid: (_name_key(players[pid].surname), _name_key(players[pid].first_name)) for pid in ids}

    return ctx.table.cached("tie-by-name", build_for).__getitem__


register_tie_order("name", _by_name)


def tie_key(ctx: ScoringContext) -> TieKey:
    """The tie order of the context's policy (refuses an unknown name)."""
    known_policies()  # policy modules register their tie orders when loaded
    build = TIE_ORDERS.get(ctx.policy.tie_order)
    if build is None:
        raise CommandRejected(say("unknown tie order %(order)r; known: %(known)s", order=ctx.policy.tie_order,
                                  known=", ".join(sorted(TIE_ORDERS))))
    return build(ctx)


@nogc
def standings(
    state: TournamentState,
    round: int | None = None,  # noqa: A002 - the CLI option is --round
    policy: str | Policy | None = None,
    criteria: Sequence[str] | None = None,
    only: Collection[str] | None = None,
) -> Standings:
    """The standings after ``round`` (default: the latest paired round) under ``policy``.

    Only rounds 1..round count; opponents' values are taken at that round. With ``only``,
    the rows of those players alone, with their places among all (:func:`rank_players`).
    """
    ctx, names = _context(state, round, policy, criteria)
    return rank_players(ctx, names, only)


def _context(state: TournamentState, round_: int | None, policy: str | Policy | None,
             criteria: Sequence[str] | None, *, past_count: bool = False) -> tuple[ScoringContext, tuple[str, ...]]:
    """The scoring context of a view (round, policy and criteria resolved) and its criteria;
    ``past_count``: a round past the state's round count is looked at as it is (rounds no
    game was paired in count as such), not refused."""
    if state.settings is None:
        raise CommandRejected(say("the ledger has no tournament yet"))
    state = unit_state(state)
    checked = round_ if past_count and round_ is not None and round_ > state.rounds else check_round(state, round_)
    pol = resolve_policy(state, policy)
    names = resolve_criteria(state, pol, criteria)
    return ScoringContext(state, checked, pol, names), names


class Ranking(NamedTuple):
    """Standings reduced to what a comparison reads (:mod:`goledger.audit.compare`): the
    ``(place, player, values)`` rows in order, values in the order of ``criteria``, and each
    registered player's ``(surname, first name)`` (shared with the round table: read only).
    An audit computes one at every point it looks at (:func:`ranking`), without the
    :class:`StandingRow` objects of a table to show."""

    round: int
    as_of_seq: int
    policy: str
    criteria: tuple[str, ...]
    scales: dict[str, int]
    placed: list[tuple[int, str, tuple[int, ...]]]
    names: dict[str, tuple[str, str]]


@nogc
def ranking(
    state: TournamentState,
    round: int | None = None,  # noqa: A002
    policy: str | Policy | None = None,
    criteria: Sequence[str] | None = None,
    only: Collection[str] | None = None,
) -> Ranking:
    """:func:`standings` as a :class:`Ranking`.

    An audit looks at every point of a log (and at the log without one event) at the round of
    its end, so a round past the state's count is no refusal here: before the draw of a
    tournament whose rounds are set at the draw (``new`` without ``--rounds``) the state has
    one round, and the round of the end is looked at there as a round nobody has played yet.
    """
    ctx, names = _context(state, round, policy, criteria, past_count=True)
    placed = _placements(ctx, names, only)
    return Ranking(ctx.round, state.seq, ctx.policy.name, tuple(names),
                   {name: get_criterion(name).scale for name in names}, placed, ctx.table.names())


@nogc
def rank_players(ctx: ScoringContext, names: Sequence[str], only: Collection[str] | None = None) -> Standings:
    """Order the listed players of a context on ``names`` and give places.

    With ``only``, just the rows of those of ``only`` who are listed, in standings order, each
    with the place the whole table gives him (``1 +`` the players strictly ahead; without
    place sharing, also those equal ahead in the tie order): no table is sorted, which is
    what an audit following one player needs at every point (``goledger history``).
    """
    return _standings(ctx, names, _placements(ctx, names, only))


def _placements(ctx: ScoringContext, names: Sequence[str], only: Collection[str] | None
                ) -> list[tuple[int, str, tuple[int, ...]]]:
    """``(place, player, values)`` of the listed players (of ``only``) in standings order."""
    state = ctx.state
    if ctx.criteria != tuple(names):
        # Values around DC/DE depend on the placement list: start afresh for this one.
        ctx.criteria = tuple(names)
        ctx.values.clear()
        ctx.memo.clear()
    players = state.players
    tie = tie_key(ctx)
    if only is not None:
        return _places_of(ctx, names, tie, [p for p in only if p in players])
    columns = [ctx.value(name) for name in names]
    listed = ctx.players
    # One flat tuple per player (negated values, tie key, listed position), built column by
    # column: the order of sorting on (values…, tie key), listed position last. Following an
    # audit's previous point (same listing), its order is sorted again: nearly sorted
    # already, which Python's sort does in close to one pass.
    count = len(listed)
    negated = [[-col[pid] for pid in listed] for col in columns]
    keys = list(zip(*negated, [tie(pid) for pid in listed], range(count), strict=True))
    memo_key = "order:" + "\x1f".join(names)
    before = ctx.previous_memo(memo_key)
    start = before[1] if before is not None and before[0] is ctx.table.listed else range(count)
    order = sorted(start, key=keys.__getitem__)
    ctx.memo[memo_key] = (ctx.table.listed, order)
    values_of = list(zip(*([col[pid] for pid in listed] for col in columns), strict=True)) if columns else (
        [()] * count)
    previous: tuple[int, ...] | None = None
    place = 0
    share = ctx.policy.place_sharing != "none"
    placed: list[tuple[int, str, tuple[int, ...]]] = []
    for position, index in enumerate(order, start=1):
        values = values_of[index]
        if values != previous or not share:
            place = position
            previous = values
        placed.append((place, listed[index], values))
    return placed


def _places_of(ctx: ScoringContext, names: Sequence[str], tie: TieKey, wanted: list[str]
               ) -> list[tuple[int, str, tuple[int, ...]]]:
    """``(place, player, values)`` of the listed players of ``wanted``, in standings order,
    counted column by column: the players ahead on the first criterion, then among those
    equal on it the ones ahead on the second, and so on (then the tie order, when places are
    not shared). A criterion is computed for the players still level only, when it can be
    (:meth:`~goledger.replay.scoring.scoring.ScoringContext.values_for`)."""
    listed = ctx.players
    share = ctx.policy.place_sharing != "none"
    position = {pid: i for i, pid in enumerate(listed)}  # (the tie order's last key; a lookup, not a search)
    found = []
    for pid in wanted:
        me = position.get(pid)
        if me is None:  # not listed
            continue
        ahead, level = 0, listed
        values: list[int] = []
        for name in names:
            col = ctx.values_for(name, level)
            mine = col[pid]
            values.append(mine)
            row = [col[q] for q in level]
            ahead += len([v for v in row if v > mine])
            level = [q for q, v in zip(level, row, strict=True) if v == mine]
        if not share:
            key = (tie(pid), me)
            ahead += len([q for q in level if (tie(q), position[q]) < key])
        found.append((ahead + 1, pid, tuple(values), (tuple(-v for v in values), tie(pid), me)))
    found.sort(key=lambda item: item[3])
    return [(place, pid, values) for place, pid, values, _ in found]


def _standings(ctx: ScoringContext, names: Sequence[str], placed: list[tuple[int, str, tuple[int, ...]]]
               ) -> Standings:
    """The :class:`Standings` of ``(place, player, values)`` rows in their order."""
    state = ctx.state
    players = state.players
    rows: list[StandingRow] = []
    for place, pid, values in placed:
        p = players[pid]
        rows.append(
            StandingRow(
                place=place, player_id=pid, surname=p.surname, first_name=p.first_name, rank=p.rank,
                egd_pin=p.egd_pin, start_number=p.start_number,
                values=dict(zip(names, values, strict=True)),
            )
        )
    return Standings(
        round=ctx.round,
        as_of_seq=state.seq,
        policy=ctx.policy.name,
        criteria=tuple(names),
        scales={name: get_criterion(name).scale for name in names},
        notes=tuple(f"{a.message}" for a in state.anomalies if a.message.startswith("event ")),
        rows=rows,
    )
