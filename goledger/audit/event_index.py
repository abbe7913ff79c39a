"""Events in words: who an event concerns and a one-line description (for audit views).

An :class:`EventIndex` walks a stretch of the log once, keeping the occupancy of every
(round, table) so that a result or a correction can be tied to its two players even when the
pairing was recorded long before. It answers, for every sequence number of the stretch:

* ``involved(seq)``: the players the event is about (the registered, updated, withdrawn or
  absent player; the two players of a game; the bye holder);
* ``describe(seq)``: one line such as ``round 2 table 3: Kim Ada (W) – Bauer Bruno (B): white``;
* ``relation(seq, player, opponents)``: how the event concerns one player — ``own result``,
  ``opponent's result``, ``withdrawal of an opponent``, ``rule change``… — the vocabulary of
  ``goledger history`` and of the causes listed by ``goledger diff``.

>>> from goledger.ledger import events as ev
>>> from goledger.ledger.values import Result
>>> from goledger.replay.fold.state import fold
>>> base = fold([ev.TournamentCreated(settings=ev.TournamentSettings(name="t", rounds=2)),
...              ev.PlayerRegistered(player_id="p0001", surname="Kim", first_name="Ada", rank="1d"),
...              ev.PlayerRegistered(player_id="p0002", surname="Bauer", rank="2k")])
>>> index = EventIndex(base, [ev.GamePaired(round=1, table=1, white="p0001", black="p0002"),
...                           ev.ResultRecorded(round=1, table=1, result=Result.WHITE)])
>>> index.describe(5), index.involved(5)
('round 1 table 1: Kim Ada (W) – Bauer (B): white', ('p0001', 'p0002'))
>>> index.relation(5, "p0002", set()), index.relation(5, "p0003", {"p0001"})
('own result', "opponent's result")
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from goledger.describe.events import describe_event, edit_words, origin_text, result_word
from goledger.i18n import current_language, gettext
from goledger.ledger import events as ev
from goledger.outputs import one_line

if TYPE_CHECKING:
    from collections.abc import Collection, Sequence

    from goledger.replay.fold.state import TournamentState

__all__ = ["EventIndex", "relation_kind"]

_KIND: Final[dict[str, str]] = {
    "TournamentCreated": "tournament created",
    "RulesChanged": "rule change",
    "PlayerRegistered": "registration",
    "PlayerUpdated": "player data",
    "PlayerWithdrew": "withdrawal",
    "PlayerReinstated": "reinstatement",
    "PlayerUnregistered": "registration cancelled",
    "ParticipationChanged": "absence",
    "CheckedIn": "check-in",
    "ByeAssigned": "bye",
    "ByeRemoved": "bye removed",
    "GamePaired": "pairing",
    "PairingRemoved": "pairing removed",
    "ResultRecorded": "result",
    "ResultCorrected": "correction",
    "GameEdited": "game edited",
    "GameMoved": "game moved",
    "TablesRenumbered": "tables renumbered",
    "TeamRegistered": "team",
    "TeamMemberAssigned": "team",
    "TeamMemberRemoved": "team",
    "TeamRemoved": "team",
    "UnitFormed": "unit",
    "UnitDissolved": "unit",
    "SourceImported": "import",
    "Checkpoint": "checkpoint",
}


def relation_kind(type_name: str, scope: str) -> str:
    """``scope`` is ``own``, ``opponent`` or ``other``; the kind comes from the event type.

    >>> relation_kind("ResultCorrected", "opponent"), relation_kind("PlayerWithdrew", "own")
    ("correction of an opponent's result", 'own withdrawal')
    >>> relation_kind("RulesChanged", "other")
    'rule change'
    """
    kind = _KIND.get(type_name, type_name)
    if scope == "other" or type_name in ("TournamentCreated", "RulesChanged", "SourceImported", "Checkpoint"):
        return kind
    if type_name == "ResultCorrected":
        return "correction of own result" if scope == "own" else "correction of an opponent's result"
    if scope == "own":
        return f"own {kind}"
    return f"opponent's {kind}" if type_name in ("ResultRecorded", "PlayerUpdated") else f"{kind} of an opponent"


def _players_named(event: ev.Event, tables: dict[tuple[int, int], tuple[str, str]]) -> tuple[str, ...]:
    """Players an event of any other type names: ``player_id`` / ``player_a`` / ``player_b`` /
    ``bye`` fields, else the occupants of the (``round``, ``table``) it refers to."""
    named = tuple(v for k in ("player_id", "player_a", "player_b", "bye")
                  if isinstance(v := getattr(event, k, None), str) and v)
    if named:
        return named
    round_, table = getattr(event, "round", None), getattr(event, "table", None)
    if isinstance(round_, int) and isinstance(table, int):
        return tables.get((round_, table), ())
    return ()


def _move_tables(tables: dict[tuple[int, int], tuple[str, str]], event: ev.GameMoved | ev.TablesRenumbered
                 ) -> tuple[str, ...]:
    """Move the occupants of the tables an event moves; the players of the games it moves."""
    if isinstance(event, ev.GameMoved):
        moves = {event.table: event.to_table}
        if (event.round, event.to_table) in tables and event.to_table != event.table:
            moves[event.to_table] = event.table
    else:
        moves = dict(event.tables)
    taken = {new: tables.pop((event.round, old)) for old, new in moves.items() if (event.round, old) in tables}
    for new, players in taken.items():
        tables[(event.round, new)] = players
    return tuple(p for players in taken.values() for p in players)


_BOARD_EVENTS: Final = (ev.PairingRemoved, ev.ResultRecorded, ev.ResultCorrected, ev.GameEdited)
"""Events about the game at a (round, table): its players are the board's."""
_GAME_EVENTS: Final = (ev.GamePaired, *_BOARD_EVENTS)
"""Events described as a board (a tuple: ``isinstance`` with a union would build it per call)."""


class EventIndex:
    """Players and descriptions of the events ``first_seq = base.seq + 1`` … of a stretch."""

    def __init__(self, base: TournamentState, events: Sequence[ev.Event],
                 names: dict[str, str] | None = None) -> None:
        self.first_seq = base.seq + 1
        self._words: tuple[str, str, str] | None = None
        self.events = list(events)
        self._names = dict(names or {})
        for pid, p in base.players.items():
            self._names.setdefault(pid, p.full_name)
        tables: dict[tuple[int, int], tuple[str, str]] = {
            (r, t): (g.white, g.black) for r, games in base.games.items() for t, g in games.items()
        }
        self._players: list[tuple[str, ...]] = []
        for event in self.events:
            if isinstance(event, ev.PlayerRegistered):
                self._names.setdefault(event.player_id, f"{event.surname} {event.first_name}".strip())
            if isinstance(event, ev.GamePaired):
                tables[(event.round, event.table)] = (event.white, event.black)
                self._players.append((event.white, event.black))
            elif isinstance(event, (ev.GameMoved, ev.TablesRenumbered)):
                self._players.append(_move_tables(tables, event))
            elif isinstance(event, _BOARD_EVENTS):
                self._players.append(tables.get((event.round, event.table), ()))
                if isinstance(event, ev.PairingRemoved):
                    tables.pop((event.round, event.table), None)
                elif isinstance(event, ev.GameEdited) and event.swap_colours:
                    pair = tables.get((event.round, event.table))
                    if pair is not None and len(pair) == 2:
                        tables[(event.round, event.table)] = (pair[1], pair[0])
            else:
                self._players.append(_players_named(event, tables))

    def event(self, seq: int) -> ev.Event:
        return self.events[seq - self.first_seq]

    def involved(self, seq: int) -> tuple[str, ...]:
        """The players an event is about (empty for tournament-wide events)."""
        return self._players[seq - self.first_seq]

    def name(self, player_id: str) -> str:
        return self._names.get(player_id, player_id)

    def relation(self, seq: int, player_id: str, opponents: Collection[str]) -> str:
        """How event ``seq`` concerns ``player_id`` whose opponents are ``opponents``."""
        involved = self.involved(seq)
        if player_id in involved:
            scope = "own"
        elif any(p in opponents for p in involved):
            scope = "opponent"
        else:
            scope = "other"
        return relation_kind(self.event(seq).type_name(), scope)

    def describe(self, seq: int) -> str:
        """One line saying what event ``seq`` recorded."""
        e = self.event(seq)
        name = self.name
        if isinstance(e, _GAME_EVENTS):
            return self._describe_game(seq, e)  # most of a log: looked at first
        if isinstance(e, ev.TournamentCreated):
            s = e.settings
            names = {"name": repr(s.name), "system": s.system, "rounds": s.rounds, "policy": s.policy}
            if s.system_options.get("rounds_at_draw"):
                return gettext("tournament %(name)s created (%(system)s, rounds set at the draw, policy %(policy)s)"
                               ) % names
            return gettext("tournament %(name)s created (%(system)s, %(rounds)d rounds, policy %(policy)s)") % names
        if isinstance(e, ev.RulesChanged):
            changes = ", ".join(f"{k} = {v!r}" for k, v in sorted(e.changes.items()))
            if e.from_round is None:
                return gettext("rules changed retroactively: %(changes)s") % {"changes": changes}
            return gettext("rules changed from round %(round)d: %(changes)s") % {"round": e.from_round,
                                                                                "changes": changes}
        who = f"{getattr(e, 'player_id', '')} {name(getattr(e, 'player_id', ''))}"
        reason = getattr(e, "reason", "")
        why = f" ({one_line(reason)})" if reason else ""
        if isinstance(e, ev.PlayerRegistered):
            return gettext("%(player)s registered (%(rank)s)") % {"player": who, "rank": e.rank} + origin_text(
                e.rating_list)
        if isinstance(e, ev.PlayerUpdated):
            changes = ", ".join(f"{k} = {v!r}" for k, v in sorted(e.changes.items()))
            return gettext("%(player)s updated: %(changes)s") % {"player": who, "changes": changes}
        if isinstance(e, ev.PlayerWithdrew):
            return gettext("%(player)s withdraws from round %(round)d") % {"player": who, "round": e.from_round} + why
        if isinstance(e, ev.PlayerReinstated):
            return gettext("%(player)s plays again from round %(round)d") % {"player": who, "round": e.from_round}
        if isinstance(e, ev.PlayerUnregistered):
            return gettext("registration of %(player)s cancelled") % {"player": who} + why
        if isinstance(e, ev.ParticipationChanged):
            return (gettext("%(player)s present in round %(round)d") if e.participating
                    else gettext("%(player)s absent in round %(round)d")) % {"player": who, "round": e.round}
        if isinstance(e, ev.ByeAssigned):
            return gettext("%(player)s has the bye of round %(round)d") % {"player": who, "round": e.round}
        if isinstance(e, ev.ByeRemoved):
            return gettext("bye of %(player)s in round %(round)d removed") % {"player": who, "round": e.round}
        if isinstance(e, ev.Checkpoint):
            names_c = {"label": one_line(e.label), "round": e.round, "event": e.event_count}
            text = (gettext("checkpoint %(label)s round %(round)d at event %(event)d") if e.round is not None
                    else gettext("checkpoint %(label)s at event %(event)d")) % names_c
            return text + (f": {one_line(e.note)}" if e.note else "")
        if isinstance(e, ev.GameMoved):
            return describe_event(e)
        if isinstance(e, ev.TablesRenumbered):
            moved = ", ".join(f"{a}→{b}" for a, b in e.tables[:8]) + (" …" if len(e.tables) > 8 else "")
            return describe_event(e) + f": {moved}"
        if isinstance(e, ev.SourceImported):
            return gettext("imported %(format)s file %(file)s") % {"format": e.format, "file": e.filename}
        if isinstance(e, ev.ResultClaimed):  # a player's own report (issue 46)
            return describe_event(e, lambda pid: f"{pid} {name(pid)}")
        return e.type_name()

    def _game_words(self) -> tuple[str, str]:
        """A board's and a game's players' words (:func:`~goledger.describe.events.board_words`),
        translated once per language: a report describes some 20,000 games."""
        language = current_language()
        if self._words is None or self._words[0] != language:
            self._words = (language, gettext("round %(round)d table %(table)d"),
                           gettext("%(white)s (W) – %(black)s (B)"))
        return self._words[1], self._words[2]

    def _describe_game(self, seq: int, e: ev.GamePaired | ev.PairingRemoved | ev.ResultRecorded | ev.ResultCorrected
                       | ev.GameEdited) -> str:
        """:meth:`describe` of a pairing or a result: the board, its players, what happened."""
        players = self._players[seq - self.first_seq]
        names = self._names
        words = self._game_words()
        board = words[0] % {"round": e.round, "table": e.table}
        if len(players) == 2:
            white, black = players
            board += ": " + words[1] % {"white": names.get(white, white), "black": names.get(black, black)}
        if type(e) is ev.GamePaired:  # the exact types (events are final): cheaper than isinstance
            return board + (", " + gettext("handicap %(stones)s") % {"stones": e.handicap} if e.handicap else "")
        if type(e) is ev.PairingRemoved:
            return board + ": " + gettext("pairing removed")
        if type(e) is ev.GameEdited:
            return board + ": " + edit_words(e)
        if type(e) is ev.ResultRecorded:
            return board + f": {result_word(e.result.value)}" + (" " + gettext("by default") if e.by_default else "")
        assert type(e) is ev.ResultCorrected
        why = f" ({one_line(e.reason)})" if e.reason else ""
        return (board + ": " + gettext("corrected to %(result)s") % {"result": result_word(e.result.value)}
                + (" " + gettext("by default") if e.by_default else "") + why)
