"""The fold: events → tournament state (DESIGN §5).

:func:`fold` is pure: it reads an event list and builds a fresh :class:`TournamentState`;
:func:`apply` adds one event to a state the caller owns (the incremental path). No I/O.

The fold is **total**: any event list folds, including filtered ones (``what-if
--without``). A fact that refers to something that is not there (a result for a table
that was never paired, a bye for an unknown player) is kept out of the state and listed in
``state.anomalies`` with its sequence number, never raised. Commands validate *before*
appending, so a ledger written through them has no anomalies.

A player's **status in a round** (spec scoring §1.1, OpenGotha's per-round state) is derived,
not stored: ``paired`` if he has a game, else ``bye``, else ``withdrawn`` (round at or after
his withdrawal), else ``absent`` (announced absence), else ``not-assigned``.

>>> from goledger.ledger.events import TournamentCreated, TournamentSettings, PlayerRegistered
>>> s = fold([TournamentCreated(settings=TournamentSettings(name="Demo", rounds=3)),
...           PlayerRegistered(player_id="p0001", surname="Honinbo", first_name="Shusaku", rank="5d")])
>>> s.settings.name, list(s.players), s.status("p0001", 1)
('Demo', ['p0001'], 'not-assigned')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final, Literal

import msgspec

from goledger.ledger import events as ev
from goledger.ledger.domains import komi_problem, rank_problem, setting_problem
from goledger.ledger.values import Result
from goledger.nogc import nogc

__all__ = [
    "SETTINGS_EVENTS",
    "ByeDetails",
    "Claim",
    "GameState",
    "PlayerState",
    "RoundStatus",
    "RulesCheck",
    "TeamState",
    "TournamentState",
    "UnitState",
    "apply",
    "fold",
]

RoundStatus = Literal["paired", "bye", "withdrawn", "absent", "not-assigned"]

RulesCheck = Callable[[ev.TournamentSettings], None]
"""A check of what a ``RulesChanged`` sets against registries the fold does not know (the
criterion and policy names, on the scoring floor: :func:`goledger.replay.scoring.registries.check_registered`),
handed in by the caller: it raises ``ValueError`` with the reason, and the fold then ignores the
event as an anomaly. Without one (``None``) only the settings' own domains are checked."""


class PlayerState(msgspec.Struct, kw_only=True):
    """A registered player: the attributes of ``PlayerRegistered`` as updated since, plus
    participation. ``absences`` maps a round to the points the absence is worth
    (``None``: the policy decides)."""

    id: str
    surname: str
    first_name: str = ""
    rank: str
    grade: str = ""
    rating: int | None = None
    rating_origin: str = ""
    country: str = ""
    club: str = ""
    egd_pin: str = ""
    status: str = "final"
    mm_correction: int = 0
    ids: dict[str, str] = msgspec.field(default_factory=dict)
    start_number: int | None = None
    extras: dict[str, str] = msgspec.field(default_factory=dict)
    rating_list: ev.ListProvenance | None = None
    withdrawn_from: int | None = None
    withdrawal_reason: str = ""
    absences: dict[int, int | None] = msgspec.field(default_factory=dict)
    registered_seq: int = 0

    @property
    def full_name(self) -> str:
        return f"{self.surname} {self.first_name}".strip()

    def is_withdrawn(self, round_: int) -> bool:
        return self.withdrawn_from is not None and round_ >= self.withdrawn_from


class GameState(msgspec.Struct, kw_only=True):
    """A paired game and its current result."""

    round: int
    table: int
    white: str
    black: str
    handicap: int = 0
    komi: str | None = None
    color_known: bool = True
    result: Result = Result.UNKNOWN
    by_default: bool = False
    paired_seq: int = 0
    result_seq: int | None = None
    result_points: int = 0
    """Custom result points of the source program (MacMahon ``ResultPoints``; ``PairingAnnotated``)."""
    extras: dict[str, str] = msgspec.field(default_factory=dict)
    """Source attributes of the pairing kept for export (``PairingAnnotated``)."""

    def opponent(self, player_id: str) -> str:
        return self.black if player_id == self.white else self.white

    def points2(self, player_id: str) -> int:
        """Half-points the game gives ``player_id`` (by-default results score the same)."""
        white, black = self.result.points2()
        return white if player_id == self.white else black


class ByeDetails(msgspec.Struct, kw_only=True):
    """A bye's annotation (``PairingAnnotated`` with ``bye``): the source's board and attributes."""

    table: int
    extras: dict[str, str] = msgspec.field(default_factory=dict)


class TeamState(msgspec.Struct, kw_only=True):
    """A team (``TeamRegistered``) and every change of its composition, in log order.

    ``members`` lists the assignments as recorded, (player id, board, round or ``None``);
    ``changes`` is the full history the composition of a round is read from
    (:meth:`member_slots`): (player id, board or ``None`` for a removal, round, from round)."""

    id: str
    name: str
    number: int | None = None
    short_name: str = ""
    boards: int | None = None
    members: list[tuple[str, int, int | None]] = msgspec.field(default_factory=list)
    """(player id, board, round or ``None`` for every round)."""
    changes: list[tuple[str, int | None, int | None, int | None]] = msgspec.field(default_factory=list)
    registered_seq: int = 0

    def member_slots(self, round_: int) -> dict[int, str]:
        """Board → player of round ``round_``: each change that covers the round (its own round,
        or every round from its from-round on) applied in log order, a later one overwriting
        the board it names (OpenGotha's ``Team.setTeamMember``); a removal empties the
        player's boards."""
        slots: dict[int, str] = {}
        for pid, board, only, start in self.changes:
            if only is not None:
                if only != round_:
                    continue
            elif start is not None and round_ < start:
                continue
            if board is None:
                for b in [b for b, p in slots.items() if p == pid]:
                    del slots[b]
            else:
                slots[board] = pid
        return slots


class Claim(msgspec.Struct, frozen=True, kw_only=True):
    """A player's own report of his game (``ResultClaimed``, issue 46): the table and the
    opponent he reported against, ``won``/``lost``/``jigo``, the margin, and the event's
    sequence number. It never scores; :mod:`goledger.replay.scoring.reports` reconciles it."""

    table: int
    opponent: str
    outcome: str
    margin: str = ""
    seq: int = 0


class Anomaly(msgspec.Struct, frozen=True):
    seq: int
    message: str


class UnitState(msgspec.Struct, kw_only=True):
    """A unit of a Pair Go or Rengo tournament (``UnitFormed``): its members in their order
    of play (the first stands for the unit in the recorded games) and their sexes when given."""

    id: str
    name: str
    members: tuple[str, ...]
    sexes: tuple[str, ...] = ()
    registered_seq: int = 0

    @property
    def representative(self) -> str:
        """The member whose id the unit's games and byes are recorded under."""
        return self.members[0]


class TournamentState(msgspec.Struct, kw_only=True):
    """Everything known after ``seq`` events. Rounds and tables are 1-based."""

    settings: ev.TournamentSettings | None = None
    round_settings: dict[int, ev.TournamentSettings] = msgspec.field(default_factory=dict)
    players: dict[str, PlayerState] = msgspec.field(default_factory=dict)
    games: dict[int, dict[int, GameState]] = msgspec.field(default_factory=dict)
    byes: dict[int, dict[str, int | None]] = msgspec.field(default_factory=dict)
    bye_details: dict[int, dict[str, ByeDetails]] = msgspec.field(default_factory=dict)
    """round → player id → annotation of his bye (``PairingAnnotated``)."""
    pairing_constraints: dict[str, dict[str, str]] = msgspec.field(default_factory=dict)
    """player a → player b → ``"unwanted"`` or ``"forbidden"``, with a < b (``PairingConstraintSet``)."""
    constraint_rounds: dict[str, dict[str, list[int | None]]] = msgspec.field(default_factory=dict)
    """player a → player b → ``[from_round, until_round]`` of a constraint bound to some rounds
    (absent: every round); see :meth:`constraint_in`."""
    fixed_pairs: dict[int, dict[str, tuple[str, int | None]]] = msgspec.field(default_factory=dict)
    """round → player a → (player b, table or ``None``), a < b (``PairingFixed``)."""
    fixed_tables: dict[str, dict[int, int | None]] = msgspec.field(default_factory=dict)
    """player → from round → table (``None``: lifted) (``TableFixed``); see :meth:`fixed_table`."""
    round_pairings: dict[int, list[int]] = msgspec.field(default_factory=dict)
    """round → sequence numbers of its ``RoundPaired`` events in force (``RoundUnpaired`` clears)."""
    shown_rounds: dict[int, int] = msgspec.field(default_factory=dict)
    """round → sequence number of the ``RoundShown`` that showed its pairing to the players."""
    check_ins: dict[int, dict[str, int]] = msgspec.field(default_factory=dict)
    """round → player → sequence number of his ``CheckedIn`` in force (issue 46); an announced
    absence of the round takes it back."""
    teams: dict[str, TeamState] = msgspec.field(default_factory=dict)
    units: dict[str, UnitState] = msgspec.field(default_factory=dict)
    """Pair Go and Rengo units by id (``UnitFormed``), in the order they were formed."""
    table_of: dict[int, dict[str, int]] = msgspec.field(default_factory=dict)
    """round → player id → table of his (first) game in that round: an index over ``games``."""
    checkpoints: list[tuple[int, ev.Checkpoint]] = msgspec.field(default_factory=list)
    unregistered: dict[str, PlayerState] = msgspec.field(default_factory=dict)
    """Players whose registration was cancelled (``PlayerUnregistered``): out of every view."""
    anomalies: list[Anomaly] = msgspec.field(default_factory=list)
    claims: dict[int, dict[str, Claim]] = msgspec.field(default_factory=dict)
    """round → player id → his latest own report of his game (``ResultClaimed``, issue 46)."""
    frozen: tuple[int, str] | None = None
    """The ``StandingsFrozen`` in force: its sequence number and reason (``None``: not frozen)."""
    seq: int = 0

    # ----------------------------------------------------------------- queries

    @property
    def rounds(self) -> int:
        """The number of rounds the tournament is set up for."""
        return self.settings.rounds if self.settings else 0

    def settings_for_round(self, round_: int) -> ev.TournamentSettings:
        """The settings in force for ``round_`` (a ``RulesChanged`` with ``from_round``
        applies from that round on; retroactive changes apply everywhere)."""
        assert self.settings is not None
        current = self.settings
        for start in sorted(self.round_settings):
            if start <= round_:
                current = self.round_settings[start]
        return current

    def games_of_round(self, round_: int) -> list[GameState]:
        """The games of a round in table order."""
        tables = self.games.get(round_, {})
        return [tables[t] for t in sorted(tables)]

    def all_games(self) -> Iterable[GameState]:
        for round_ in sorted(self.games):
            yield from self.games_of_round(round_)

    def round_visible(self, round_: int) -> bool:
        """Whether the players' view shows round ``round_``'s pairing: always under
        ``pairings_visible=auto``; under ``manual`` once a ``RoundShown`` showed it, or once a
        result of it is recorded (a round being played is no secret: the rounds played before
        the tournament switched to ``manual`` stay visible)."""
        settings = self.settings
        if settings is None or settings.pairings_visible == "auto" or round_ in self.shown_rounds:
            return True
        return any(g.result is not Result.UNKNOWN for g in self.games.get(round_, {}).values())

    def game_of(self, player_id: str, round_: int) -> GameState | None:
        """The (first) game of ``player_id`` in ``round_``."""
        table = self.table_of.get(round_, {}).get(player_id)
        return None if table is None else self.games[round_][table]

    def status(self, player_id: str, round_: int) -> RoundStatus:
        """The player's status in a round (see the module docstring for the precedence)."""
        if self.game_of(player_id, round_) is not None:
            return "paired"
        if player_id in self.byes.get(round_, {}):
            return "bye"
        player = self.players[player_id]
        if player.is_withdrawn(round_):
            return "withdrawn"
        if round_ in player.absences:
            return "absent"
        return "not-assigned"

    def constraint_in(self, a: str, b: str, round_: int) -> str | None:
        """The constraint (``"unwanted"``/``"forbidden"``) between ``a`` and ``b`` binding
        round ``round_``, or ``None``."""
        x, y = (a, b) if a < b else (b, a)
        kind = self.pairing_constraints.get(x, {}).get(y)
        if kind is None:
            return None
        bounds = self.constraint_rounds.get(x, {}).get(y)
        if bounds is not None:
            low, high = bounds
            if (low is not None and round_ < low) or (high is not None and round_ > high):
                return None
        return kind

    def fixed_table(self, player_id: str, round_: int) -> int | None:
        """The table ``player_id`` must play at in ``round_`` (``TableFixed``), or ``None``."""
        table: int | None = None
        for start, value in sorted(self.fixed_tables.get(player_id, {}).items()):
            if start <= round_:
                table = value
        return table

    def last_round_with_games(self) -> int:
        """The highest round that has a game or a bye (0 when nothing is paired yet)."""
        rounds = [r for r, tables in self.games.items() if tables]
        rounds += [r for r, byes in self.byes.items() if byes]
        return max(rounds, default=0)

    def last_complete_round(self) -> int:
        """The highest round whose games all have a result (0 if none)."""
        done = 0
        for round_ in range(1, self.last_round_with_games() + 1):
            games = self.games_of_round(round_)
            if games and all(g.result is not Result.UNKNOWN for g in games):
                done = round_
        return done


# --------------------------------------------------------------------------- folding


@nogc
def fold(
    events: Iterable[ev.Event], *, start: TournamentState | None = None, first_seq: int | None = None,
    check: RulesCheck | None = None,
) -> TournamentState:
    """Fold events into a new state (or onto a copy of ``start``).

    Sequence numbers are counted from ``start.seq + 1`` (or ``first_seq``). ``check`` judges
    the names a ``RulesChanged`` sets (:data:`RulesCheck`; every fold of a stored log is given
    the registries' check, :func:`goledger.replay.scoring.registries.check_registered`).
    """
    state = TournamentState() if start is None else _copy(start)
    if first_seq is not None:
        state.seq = first_seq - 1
    for event in events:
        apply(state, event, check)
    return state


def _copy(state: TournamentState) -> TournamentState:
    """A deep copy (through msgpack, which is faster than ``copy.deepcopy``)."""
    return msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=TournamentState)


def apply(state: TournamentState, event: ev.Event, check: RulesCheck | None = None) -> None:
    """Apply one event to ``state`` in place (the incremental fold); ``check`` as for :func:`fold`."""
    state.seq += 1
    handler = _HANDLERS.get(type(event))
    if handler is not None:
        handler(state, event)
    elif type(event) is ev.RulesChanged:  # the one handler that takes the check
        _on_rules_changed(state, event, check)


def _anomaly(state: TournamentState, message: str) -> None:
    state.anomalies.append(Anomaly(state.seq, message))


SETTINGS_EVENTS: Final = ("TournamentCreated", "RulesChanged")
"""The events a state's ``settings`` and ``round_settings`` are folded from: no other event's
handler touches them, so folding these alone gives the same settings as the whole log
(``tests/replay/test_settings_events.py``)."""


def _on_created(state: TournamentState, e: ev.TournamentCreated) -> None:
    if state.settings is not None:
        _anomaly(state, "a second TournamentCreated was ignored")
        return
    state.settings = e.settings


def _on_rules_changed(state: TournamentState, e: ev.RulesChanged, check: RulesCheck | None) -> None:
    if state.settings is None:
        _anomaly(state, "RulesChanged before TournamentCreated was ignored")
        return
    try:
        if e.from_round is None:
            settings = _patched(state.settings, e.changes, check)
            rounds = {r: _patched(s, e.changes, check) for r, s in state.round_settings.items()}
        else:
            settings = state.settings
            rounds = dict(state.round_settings)
            rounds[e.from_round] = _patched(state.settings_for_round(e.from_round), e.changes, check)
            for r in [r for r in rounds if r > e.from_round]:
                rounds[r] = _patched(rounds[r], e.changes, check)
    except (msgspec.ValidationError, TypeError, ValueError) as exc:
        _anomaly(state, f"event {state.seq} (RulesChanged) was ignored: {exc}")
        return
    state.settings, state.round_settings = settings, rounds


def _patched(settings: ev.TournamentSettings, changes: dict[str, Any], check: RulesCheck | None
             ) -> ev.TournamentSettings:
    data = msgspec.to_builtins(settings)
    data.update(changes)
    patched = msgspec.convert(data, ev.TournamentSettings)
    for name, value in changes.items():  # an old ledger may hold a change outside the domain
        problem = setting_problem(name, value)
        if problem:
            raise ValueError(problem)
    if check is not None and {"criteria", "policy", "policy_overrides"} & set(changes):
        check(patched)  # names the registries must know
    return patched


_RANKS_SEEN: set[str] = set()
"""Rank texts known to parse: the fold checks each new one once."""


def _ignored(state: TournamentState, e: ev.Event, problem: str | None) -> bool:
    """Record that an (old) event outside its domain is ignored, naming it (issue 18)."""
    if problem is None:
        return False
    _anomaly(state, f"event {state.seq} ({e.type_name()}) was ignored: {problem}")
    return True


def _on_registered(state: TournamentState, e: ev.PlayerRegistered) -> None:
    if _ignored(state, e, rank_problem(e.rank, "rank") if e.rank not in _RANKS_SEEN else None):
        return
    _RANKS_SEEN.add(e.rank)
    if e.player_id in state.players:
        _anomaly(state, f"player {e.player_id} registered twice; the second registration was ignored")
        return
    fields = msgspec.structs.asdict(e)
    fields["id"] = fields.pop("player_id")
    state.players[e.player_id] = PlayerState(**fields, registered_seq=state.seq)


def _player(state: TournamentState, player_id: str, what: str) -> PlayerState | None:
    player = state.players.get(player_id)
    if player is None:
        _anomaly(state, f"{what} refers to unknown player {player_id}")
    return player


def _on_updated(state: TournamentState, e: ev.PlayerUpdated) -> None:
    player = _player(state, e.player_id, "PlayerUpdated")
    if player is None:
        return
    for name, value in e.changes.items():
        if name not in ev.PLAYER_FIELDS:
            _anomaly(state, f"PlayerUpdated names an unknown field {name!r}")
            continue
        if name == "rank" and _ignored(state, e, rank_problem(value, "rank")):
            continue
        if name == "rating_list" and isinstance(value, dict):
            try:
                value = msgspec.convert(value, ev.ListProvenance)
            except msgspec.ValidationError as exc:
                _anomaly(state, f"PlayerUpdated gives an unreadable rating list ({exc})")
                continue
        setattr(player, name, value)
    origin = player.rating_list
    if origin is not None and "rating_list" not in e.changes and not set(origin.fields).isdisjoint(e.changes):
        # a field changed by hand no longer comes from the list
        player.rating_list = msgspec.structs.replace(
            origin, fields=tuple(f for f in origin.fields if f not in e.changes))


def _on_withdrew(state: TournamentState, e: ev.PlayerWithdrew) -> None:
    player = _player(state, e.player_id, "PlayerWithdrew")
    if player is not None:
        player.withdrawn_from = e.from_round
        player.withdrawal_reason = e.reason


def _on_unregistered(state: TournamentState, e: ev.PlayerUnregistered) -> None:
    player = _player(state, e.player_id, "PlayerUnregistered")
    if player is None:
        return
    if any(e.player_id in index for index in state.table_of.values()) or any(
            e.player_id in byes for byes in state.byes.values()):
        _anomaly(state, f"PlayerUnregistered for {e.player_id}, who has a game or a bye, was ignored")
        return
    state.unregistered[e.player_id] = state.players.pop(e.player_id)
    for partners in state.pairing_constraints.values():
        partners.pop(e.player_id, None)
    state.pairing_constraints.pop(e.player_id, None)


def _on_reinstated(state: TournamentState, e: ev.PlayerReinstated) -> None:
    player = _player(state, e.player_id, "PlayerReinstated")
    if player is None or player.withdrawn_from is None:
        return
    if e.from_round > player.withdrawn_from:
        # The rounds he missed stay missed: they become announced absences worth nothing.
        for round_ in range(player.withdrawn_from, e.from_round):
            player.absences.setdefault(round_, 0)
    player.withdrawn_from = None
    player.withdrawal_reason = ""


def _on_participation(state: TournamentState, e: ev.ParticipationChanged) -> None:
    player = _player(state, e.player_id, "ParticipationChanged")
    if player is None:
        return
    if e.participating:
        player.absences.pop(e.round, None)
    else:
        player.absences[e.round] = e.points2
        state.check_ins.get(e.round, {}).pop(player.id, None)


def _on_checked_in(state: TournamentState, e: ev.CheckedIn) -> None:
    if not 1 <= e.round <= 99 and _ignored(state, e, f"round {e.round} is outside 1..99"):
        return
    if _player(state, e.player_id, "CheckedIn") is not None:
        state.check_ins.setdefault(e.round, {})[e.player_id] = state.seq


def _on_bye(state: TournamentState, e: ev.ByeAssigned) -> None:
    if not 1 <= e.round <= 99 and _ignored(state, e, f"round {e.round} is outside 1..99"):
        return
    if _player(state, e.player_id, "ByeAssigned") is not None:
        state.byes.setdefault(e.round, {})[e.player_id] = e.points2


def _on_bye_removed(state: TournamentState, e: ev.ByeRemoved) -> None:
    byes = state.byes.get(e.round, {})
    if e.player_id not in byes:
        _anomaly(state, f"ByeRemoved: {e.player_id} has no bye in round {e.round}")
        return
    del byes[e.player_id]
    if not byes:
        state.byes.pop(e.round, None)
    details = state.bye_details.get(e.round, {})
    details.pop(e.player_id, None)
    if not details:
        state.bye_details.pop(e.round, None)


def _on_paired(state: TournamentState, e: ev.GamePaired) -> None:
    round_, table = e.round, e.table
    if not 1 <= round_ <= 99 and _ignored(state, e, f"round {round_} is outside 1..99"):
        return
    if e.komi is not None and _ignored(state, e, komi_problem(e.komi)):
        return
    players = state.players  # (what _player does, inline: every pairing of a log comes here)
    white, black = players.get(e.white), players.get(e.black)
    if white is None or black is None:
        _anomaly(state, f"GamePaired refers to unknown player {e.white if white is None else e.black}")
        return
    tables = state.games.setdefault(round_, {})
    replaced = table in tables
    if replaced:
        _anomaly(state, f"round {round_} table {table} paired twice; the later pairing replaces the earlier")
    # The players' registered id objects, not the event's equal copies: lookups by one
    # shared string object skip the character comparison (scoring a congress does millions).
    white_id, black_id = white.id, black.id
    tables[table] = GameState(
        round=round_, table=table, white=white_id, black=black_id, handicap=e.handicap,
        komi=e.komi, color_known=e.color_known, paired_seq=state.seq,
    )
    if replaced:
        _reindex(state, round_)
    else:
        index = state.table_of.setdefault(round_, {})
        # the first game in table order is his game
        if index.get(white_id, table) >= table:
            index[white_id] = table
        if index.get(black_id, table) >= table:
            index[black_id] = table


def _reindex(state: TournamentState, round_: int) -> None:
    index: dict[str, int] = {}
    tables = state.games.get(round_, {})
    for table in sorted(tables):
        game = tables[table]
        index.setdefault(game.white, table)
        index.setdefault(game.black, table)
    if index:
        state.table_of[round_] = index
    else:
        state.table_of.pop(round_, None)


def _on_unpaired(state: TournamentState, e: ev.PairingRemoved) -> None:
    tables = state.games.get(e.round, {})
    removed = tables.pop(e.table, None)
    if removed is None:
        _anomaly(state, f"PairingRemoved: round {e.round} has no table {e.table}")
    if not tables:
        state.games.pop(e.round, None)
    index = state.table_of.get(e.round, {})
    if removed is not None and removed.white != removed.black and len(index) == 2 * (len(tables) + 1):
        # Every player of the round had exactly one game: only the removed game's players
        # leave the index (no rebuild per removal: unpairing a round stays linear).
        index.pop(removed.white, None)
        index.pop(removed.black, None)
        if not index:
            state.table_of.pop(e.round, None)
        return
    _reindex(state, e.round)


def _on_result(state: TournamentState, e: ev.ResultRecorded | ev.ResultCorrected) -> None:
    game = state.games.get(e.round, {}).get(e.table)
    if game is None:
        _anomaly(state, f"{e.type_name()}: round {e.round} has no table {e.table}")
        return
    game.result = e.result
    game.by_default = e.by_default
    game.result_seq = state.seq


def _on_edited(state: TournamentState, e: ev.GameEdited) -> None:
    """A hand edit (issue 31): the result follows the players when the colours swap."""
    game = state.games.get(e.round, {}).get(e.table)
    if game is None:
        _anomaly(state, f"GameEdited: round {e.round} has no table {e.table}")
        return
    if e.komi is not None and _ignored(state, e, komi_problem(e.komi)):
        return
    if e.swap_colours:
        game.white, game.black = game.black, game.white
        game.result = game.result.flipped()
    if e.handicap is not None:
        game.handicap = e.handicap
    if e.komi is not None:
        game.komi = e.komi


def _move_games(state: TournamentState, round_: int, moves: dict[int, int], what: str) -> None:
    """Move games of ``round_`` between tables (old → new), each with its result and
    annotations; refused (an anomaly) when a table is missing or two games would share one."""
    tables = state.games.get(round_, {})
    missing = [t for t in moves if t not in tables]
    if missing:
        _anomaly(state, f"{what}: round {round_} has no table {missing[0]}")
        return
    staying = set(tables) - set(moves)
    targets = list(moves.values())
    if len(set(targets)) != len(targets) or staying & set(targets):
        _anomaly(state, f"{what}: two games of round {round_} would share a table; ignored")
        return
    moved = {new: tables.pop(old) for old, new in moves.items()}
    for new, game in moved.items():
        game.table = new
        tables[new] = game
    _reindex(state, round_)


def _on_moved(state: TournamentState, e: ev.GameMoved) -> None:
    tables = state.games.get(e.round, {})
    moves = {e.table: e.to_table}
    if e.to_table in tables and e.to_table != e.table:
        moves[e.to_table] = e.table
    _move_games(state, e.round, moves, "GameMoved")


def _on_renumbered(state: TournamentState, e: ev.TablesRenumbered) -> None:
    moves = dict(e.tables)
    if len(moves) != len(e.tables):
        _anomaly(state, f"TablesRenumbered: a table of round {e.round} is listed twice; ignored")
        return
    _move_games(state, e.round, moves, "TablesRenumbered")


def _on_annotated(state: TournamentState, e: ev.PairingAnnotated) -> None:
    if e.bye is not None:
        if e.bye not in state.byes.get(e.round, {}):
            _anomaly(state, f"PairingAnnotated: {e.bye} has no bye in round {e.round}")
            return
        state.bye_details.setdefault(e.round, {})[e.bye] = ByeDetails(table=e.table, extras=dict(e.extras))
        return
    game = state.games.get(e.round, {}).get(e.table)
    if game is None:
        _anomaly(state, f"PairingAnnotated: round {e.round} has no table {e.table}")
        return
    game.result_points = e.result_points
    game.extras = dict(e.extras)


def _on_constraint(state: TournamentState, e: ev.PairingConstraintSet) -> None:
    if _player(state, e.player_a, "PairingConstraintSet") is None:
        return
    if _player(state, e.player_b, "PairingConstraintSet") is None:
        return
    if e.player_a == e.player_b:
        _anomaly(state, f"PairingConstraintSet names {e.player_a} twice")
        return
    a, b = sorted((e.player_a, e.player_b))
    if e.constraint == "none":
        partners = state.pairing_constraints.get(a, {})
        partners.pop(b, None)
        if not partners:
            state.pairing_constraints.pop(a, None)
    else:
        state.pairing_constraints.setdefault(a, {})[b] = e.constraint
    rounds = state.constraint_rounds.get(a, {})
    rounds.pop(b, None)
    if e.constraint != "none" and (e.from_round is not None or e.until_round is not None):
        rounds[b] = [e.from_round, e.until_round]
    if rounds:
        state.constraint_rounds[a] = rounds
    else:
        state.constraint_rounds.pop(a, None)


def _on_fixed_pair(state: TournamentState, e: ev.PairingFixed) -> None:
    if _player(state, e.player_a, "PairingFixed") is None or _player(state, e.player_b, "PairingFixed") is None:
        return
    if e.player_a == e.player_b:
        _anomaly(state, f"PairingFixed names {e.player_a} twice")
        return
    a, b = sorted((e.player_a, e.player_b))
    fixed = state.fixed_pairs.setdefault(e.round, {})
    if e.lifted:
        fixed.pop(a, None)
    else:
        for x in [x for x, (y, _) in fixed.items() if {x, y} & {a, b}]:
            del fixed[x]  # a player has one fixed opponent per round: the later one replaces
        fixed[a] = (b, e.table)
    if not fixed:
        state.fixed_pairs.pop(e.round, None)


def _on_fixed_table(state: TournamentState, e: ev.TableFixed) -> None:
    if _player(state, e.player_id, "TableFixed") is not None:
        state.fixed_tables.setdefault(e.player_id, {})[e.from_round] = e.table


def _on_round_paired(state: TournamentState, e: ev.RoundPaired) -> None:
    state.round_pairings.setdefault(e.round, []).append(state.seq)


def _on_round_unpaired(state: TournamentState, e: ev.RoundUnpaired) -> None:
    state.round_pairings.pop(e.round, None)
    state.shown_rounds.pop(e.round, None)


def _on_round_shown(state: TournamentState, e: ev.RoundShown) -> None:
    state.shown_rounds[e.round] = state.seq


def _on_team(state: TournamentState, e: ev.TeamRegistered) -> None:
    state.teams[e.team_id] = TeamState(id=e.team_id, name=e.name, number=e.number, short_name=e.short_name,
                                       boards=e.boards, registered_seq=state.seq)


def _on_team_member(state: TournamentState, e: ev.TeamMemberAssigned) -> None:
    team = state.teams.get(e.team_id)
    if team is None or _player(state, e.player_id, "TeamMemberAssigned") is None:
        if team is None:
            _anomaly(state, f"TeamMemberAssigned refers to unknown team {e.team_id}")
        return
    team.members.append((e.player_id, e.board, e.round))
    team.changes.append((e.player_id, e.board, e.round, e.from_round))


def _on_team_member_removed(state: TournamentState, e: ev.TeamMemberRemoved) -> None:
    team = state.teams.get(e.team_id)
    if team is None:
        _anomaly(state, f"TeamMemberRemoved refers to unknown team {e.team_id}")
        return
    team.changes.append((e.player_id, None, e.round, e.from_round))


def _on_team_removed(state: TournamentState, e: ev.TeamRemoved) -> None:
    if state.teams.pop(e.team_id, None) is None:
        _anomaly(state, f"TeamRemoved refers to unknown team {e.team_id}")


def _on_unit(state: TournamentState, e: ev.UnitFormed) -> None:
    missing = [p for p in e.members if _player(state, p, "UnitFormed") is None]
    if missing:
        return
    state.units[e.unit_id] = UnitState(id=e.unit_id, name=e.name, members=tuple(e.members), sexes=tuple(e.sexes),
                                       registered_seq=state.seq)


def _on_unit_dissolved(state: TournamentState, e: ev.UnitDissolved) -> None:
    if state.units.pop(e.unit_id, None) is None:
        _anomaly(state, f"UnitDissolved refers to unknown unit {e.unit_id}")


def _on_frozen(state: TournamentState, e: ev.StandingsFrozen) -> None:
    state.frozen = (state.seq, e.reason)


def _on_unfrozen(state: TournamentState, e: ev.StandingsUnfrozen) -> None:
    state.frozen = None


def _on_claim(state: TournamentState, e: ev.ResultClaimed) -> None:
    """A player's report replaces his earlier one of the same round."""
    state.claims.setdefault(e.round, {})[e.player_id] = Claim(table=e.table, opponent=e.opponent, outcome=e.outcome,
                                                              margin=e.margin, seq=state.seq)


def _on_checkpoint(state: TournamentState, e: ev.Checkpoint) -> None:
    state.checkpoints.append((state.seq, e))


_HANDLERS: dict[type[ev.Event], Any] = {
    ev.TournamentCreated: _on_created,
    ev.PlayerRegistered: _on_registered,
    ev.PlayerUpdated: _on_updated,
    ev.PlayerWithdrew: _on_withdrew,
    ev.PlayerReinstated: _on_reinstated,
    ev.PlayerUnregistered: _on_unregistered,
    ev.ParticipationChanged: _on_participation,
    ev.ByeAssigned: _on_bye,
    ev.ByeRemoved: _on_bye_removed,
    ev.GamePaired: _on_paired,
    ev.PairingRemoved: _on_unpaired,
    ev.ResultRecorded: _on_result,
    ev.ResultCorrected: _on_result,
    ev.GameEdited: _on_edited,
    ev.GameMoved: _on_moved,
    ev.TablesRenumbered: _on_renumbered,
    ev.PairingAnnotated: _on_annotated,
    ev.PairingConstraintSet: _on_constraint,
    ev.PairingFixed: _on_fixed_pair,
    ev.TableFixed: _on_fixed_table,
    ev.RoundPaired: _on_round_paired,
    ev.RoundUnpaired: _on_round_unpaired,
    ev.RoundShown: _on_round_shown,
    ev.CheckedIn: _on_checked_in,
    ev.TeamRegistered: _on_team,
    ev.TeamMemberAssigned: _on_team_member,
    ev.TeamMemberRemoved: _on_team_member_removed,
    ev.TeamRemoved: _on_team_removed,
    ev.UnitFormed: _on_unit,
    ev.UnitDissolved: _on_unit_dissolved,
    ev.Checkpoint: _on_checkpoint,
    ev.ResultClaimed: _on_claim,
    ev.StandingsFrozen: _on_frozen,
    ev.StandingsUnfrozen: _on_unfrozen,
}
