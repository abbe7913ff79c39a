"""Per-round facts of every player and the accumulated scores, for a state under a policy
(spec ``scoring.md`` §1.1): built once and shared by the scoring contexts of every round.

A :class:`RoundTable` holds, for **every registered player** and every round 1..N (N = the
tournament's rounds, or the last round with a game or a bye when later), in lists indexed
``r − 1``:

* ``status`` — ``paired`` (a game, whatever its result), ``bye``, ``withdrawn`` (round at or
  after the withdrawal), ``absent`` (announced absence), ``not-assigned`` (participating,
  neither paired nor bye), in this precedence;
* ``game``, ``opp`` (opponent id), ``res2`` (game points in half-points: win 2, jigo
  ``Rules.jigo2``, loss/both-lose/unknown 0; by-default results count the same), ``hd``
  (signed handicap: +h when the player had White and gave the stones, −h with Black);
* ``unpaired_nbw2`` / ``unpaired_mms2`` — what a round without a game brings before rounding;

plus ``nbw2`` / ``mms2`` rows indexed by round 0..N (accumulated scores after each round,
rounded per the policy), ``smms`` and the players the policy lists. Values of round r only
depend on rounds ≤ r, which is why one table serves every standings round; a
:class:`~goledger.replay.scoring.scoring.ScoringContext` shows its criteria the lists cut at R.

Tables are cached per (state, its event count, policy, settings in force): a state changes
only through :func:`~goledger.replay.fold.state.apply`, which moves its sequence number, so a
cached table is never stale. The cache keeps the last few tables only.

**Incremental replay.** An audit walks one state forward event by event and asks for the
standings at many points (:mod:`goledger.audit.trace`). While a state is tracked
(:func:`track`, :func:`note_event` before each ``apply``), the table at a later point is
derived from the one at an earlier point: only the rows of the players the events in between
touched are rebuilt (:meth:`RoundTable.derived`); rule changes, cancelled registrations and
pairing annotations force a full rebuild. The derived table equals the one built from scratch
(``tests/replay/test_incremental_tables.py`` compares them after every event).

A player touched only by games and byes of some rounds has only those rounds' cells redone;
a derived table keeps its :attr:`RoundTable.parent` and the players it :attr:`~RoundTable.changed`,
so that the criteria of the parent's contexts update rather than recompute
(:meth:`~goledger.replay.scoring.scoring.ScoringContext.dirty`, ``tests/replay/test_incremental_values.py``).
The passes of one bisection share a *lineage* (:func:`track`): what each event touched is
recorded once, and a point derives from the nearest point computed before it in any pass.
:func:`derive_table` serves a state built beside another one (the state without one event,
:mod:`goledger.replay.fold.without`).
"""

from __future__ import annotations

from collections import OrderedDict
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from goledger.ledger.values import Result
from goledger.nogc import nogc
from goledger.replay.scoring.hashmap_order import iteration_order
from goledger.replay.scoring.rules import Rules, rules_for
from goledger.replay.scoring.start_scores import start_scores

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterable, Mapping

    from goledger.ledger.events import TournamentSettings
    from goledger.replay.fold.state import GameState, PlayerState, RoundStatus, TournamentState
    from goledger.replay.scoring.policies import Policy

__all__ = [
    "RoundTable",
    "derive_table",
    "forget",
    "keep_only",
    "note_event",
    "round_table",
    "rounded",
    "track",
    "untrack",
]


def rounded(game2: int, unpaired2: int, scope: str) -> int:
    """An accumulated score in half-points from its game part and its bye/absent part under a
    round-down scope (``unpaired-part``, ``whole-score`` or ``none``; spec §1.1, §7.4).

    >>> rounded(5, 3, "unpaired-part"), rounded(5, 3, "whole-score"), rounded(5, 3, "none")
    (7, 8, 8)
    >>> rounded(1, 1, "unpaired-part"), rounded(1, 1, "whole-score")
    (1, 2)
    """
    if scope == "unpaired-part":
        return game2 + 2 * (unpaired2 // 2)
    if scope == "whole-score":
        return 2 * ((game2 + unpaired2) // 2)
    return game2 + unpaired2


class RoundTable:
    """Every player's rounds 1..``size`` under one policy (see the module docstring)."""

    def __init__(self, state: TournamentState, policy: Policy, settings: TournamentSettings, size: int) -> None:
        self.state = state
        self.policy = policy
        self.settings = settings
        self.size = size
        self._set_rules()
        self.smms: dict[str, int] = start_scores(state, self.rules.start_settings)
        """Start McMahon scores (bar and floor, grouped McMahon, EGF super-group, correction)."""
        self.extra2: dict[str, list[int]] = {}
        """Under ``several_games_in_round="opengotha"``, per player with several games in a
        round: the points of his other games of each round (added to NBW, MMS and CPS)."""
        self.extra_played2: dict[str, list[int]] = {}
        """The same for games actually played (the virtual scores of the half-point option)."""
        self.extra_games: dict[tuple[str, int], list[GameState]] = {}
        """(player, round index) → his other games of that round (direct confrontation, which
        OpenGotha computes over every game)."""
        self.status: dict[str, list[RoundStatus]] = {}
        self.game: dict[str, list[GameState | None]] = {}
        self.opp: dict[str, list[str | None]] = {}
        self.res2: dict[str, list[int]] = {}
        self.hd: dict[str, list[int]] = {}
        self._fill_rounds()
        self.listed: tuple[str, ...] = self._listed()
        self.unpaired_nbw2: dict[str, list[int]] = {}
        self.unpaired_mms2: dict[str, list[int]] = {}
        self.nbw2: dict[str, list[int]] = {}
        self.mms2: dict[str, list[int]] = {}
        self._accumulate()
        self.seq = state.seq
        """The state's sequence number when the table was built (the state object moves on)."""
        self.parent: RoundTable | None = None
        """The table this one was derived from (:meth:`derived`), whose contexts' values the
        contexts of this one update (:meth:`ScoringContext.dirty`); older ones are dropped."""
        self.changed: frozenset[str] | None = None
        """The players whose rows differ from :attr:`parent`'s (``None``: not derived, or
        derived with new players or several games of a player in a round)."""
        self.views: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
        """Per standings round, the values and memo of the latest context on this table."""
        self._listed_members: frozenset[str] | None = None
        self._cached: dict[str, dict[str, Any]] = {}
        self._records_changed = True
        """Whether a player's own record may differ from :attr:`parent`'s (one of the events
        in between was a player's own): else every :meth:`cached` fact is the parent's."""

    def cached(self, key: str, build_for: Callable[[Iterable[str]], dict[str, Any]]) -> dict[str, Any]:
        """A per-player fact of the table's state that depends on the player's own record only
        (his names…), for every registered player: ``build_for(players)`` gives it; a derived
        table shares its parent's when no player's own event came in between, else copies it
        and rebuilds the :attr:`changed` players' only. Read only."""
        found = self._cached.get(key)
        if found is None:
            changed, parent = self.changed, self.parent
            before = parent._cached.get(key) if parent is not None and changed is not None else None
            if before is not None and not self._records_changed:
                found = before
            elif before is not None and changed is not None:
                found = dict(before)
                found.update(build_for(changed))
            else:
                found = build_for(self.state.players)
            self._cached[key] = found
        return found

    def names(self) -> dict[str, tuple[str, str]]:
        """Every registered player's ``(surname, first name)`` (:meth:`cached`)."""
        players = self.state.players
        return self.cached("names", lambda ids: {pid: (players[pid].surname, players[pid].first_name) for pid in ids})

    def previous_view(self, round_: int) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The values and memo of the parent's context of ``round_``, when this table's rows
        are the parent's but for :attr:`changed`."""
        if self.parent is None or self.changed is None:
            return None
        return self.parent.views.get(round_)

    @classmethod
    def derived(cls, previous: RoundTable, state: TournamentState, settings: TournamentSettings,
                touched: set[str], players_changed: bool = True,
                cells: dict[str, set[int]] | None = None) -> RoundTable:
        """The table of ``state`` from ``previous`` (the table of the same state object some
        events ago, or of the state it is an unchanged copy of, same policy and size) when those
        events touched only the players ``touched`` (see :func:`note_event`): their rows are
        rebuilt, the others' are shared (tables are read-only). Start scores are recomputed,
        and the players whose score moved rebuilt too, only when one of the events is a
        player's own (``players_changed``: registration, update, withdrawal, absence);
        ``settings`` are those in force for the new state (equal to ``previous``'s).
        ``cells``: players only some of whose rounds the events touched (games and byes of
        those rounds), whose other rounds are kept."""
        if previous.policy.several_games_in_round == "opengotha" and _has_several_games(state):
            # OpenGotha's choice among several games of a round depends on every game of the
            # tournament (its HashMap's size): no row can be kept from the previous table.
            return cls(state, previous.policy, settings, previous.size)
        table = cls.__new__(cls)
        table.parent, table.changed, table.views, table._listed_members = previous, None, {}, None
        table._cached = {}
        table._records_changed = players_changed
        previous.parent = None  # a chain of two tables: the previous point, no older one
        table.extra2, table.extra_played2, table.extra_games = {}, {}, {}
        table.state, table.policy, table.settings = state, previous.policy, settings
        table.size = previous.size
        table._set_rules()
        redo = {pid for pid in touched if pid in state.players}
        if players_changed:
            table.smms = start_scores(state, table.rules.start_settings)
            old = previous.smms
            redo.update(pid for pid, v in table.smms.items() if old.get(pid) != v)
        else:
            table.smms = previous.smms
        if not redo.issubset(previous.status):
            # New players: rows in registration order, as a full build lists them.
            redo = [pid for pid in state.players if pid in redo]  # type: ignore[assignment]
        elif not _has_several_games(state):  # else a player's opponents may not all see him
            table.changed = frozenset(redo)
        table.status, table.game, table.opp = dict(previous.status), dict(previous.game), dict(previous.opp)
        table.res2, table.hd = dict(previous.res2), dict(previous.hd)
        if cells and table.changed is not None:
            whole = [pid for pid in redo if pid not in cells]
            size = table.size  # an event of a round past the table (ignored by the fold) changes no cell
            table._fill_cells({pid: [i for i in cells[pid] if i < size] for pid in redo if pid in cells})
        else:
            whole = list(redo)
        table._fill_players(whole)
        table.listed = table._listed_after(previous, redo)
        table.unpaired_nbw2, table.unpaired_mms2 = dict(previous.unpaired_nbw2), dict(previous.unpaired_mms2)
        table.nbw2, table.mms2 = dict(previous.nbw2), dict(previous.mms2)
        table._accumulate(redo)
        table.seq = state.seq
        return table

    def _fill_players(self, players: Iterable[str]) -> None:
        """Rebuild the round rows of ``players`` (what :meth:`_fill_rounds` gives them)."""
        size = self.size
        for pid in players:
            self.status[pid], self.game[pid], self.opp[pid], self.res2[pid], self.hd[pid] = (
                _base_statuses(self.state.players[pid], size), [None] * size, [None] * size, [0] * size, [0] * size)
        self._fill_cells({pid: range(size) for pid in players}, fresh=True)

    def _fill_cells(self, cells: Mapping[str, Iterable[int]], fresh: bool = False) -> None:
        """Recompute round ``i`` (0-based) of each player's rows for the ``i`` of ``cells``,
        keeping the others (copied first unless ``fresh``: rows are shared between tables).
        A cell is what :meth:`_fill_rounds` gives it: the player's status from his absences
        and withdrawal, then the bye, then his game of the round (first in table order)."""
        state = self.state
        points = {result: result.points2() for result in Result}
        points[Result.JIGO] = (self.rules.jigo2, self.rules.jigo2)
        byes: dict[int, set[str]] = {}
        table_of, games_of, players = state.table_of, state.games, state.players
        status_rows, game_rows, opp_rows, res2_rows, hd_rows = self.status, self.game, self.opp, self.res2, self.hd
        for pid, rounds_ in cells.items():
            if fresh:
                status, games, opp, res2, hd = (status_rows[pid], game_rows[pid], opp_rows[pid], res2_rows[pid],
                                                hd_rows[pid])
            else:
                status, games, opp = status_rows[pid][:], game_rows[pid][:], opp_rows[pid][:]
                res2, hd = res2_rows[pid][:], hd_rows[pid][:]
                player = players[pid]
                if player.absences or player.withdrawn_from is not None:
                    base = _base_statuses(player, self.size)
                    for i in rounds_:
                        status[i] = base[i]
                else:  # what _base_statuses gives a player never absent nor withdrawn
                    for i in rounds_:
                        status[i] = "not-assigned"
                for i in rounds_:
                    games[i], opp[i], res2[i], hd[i] = None, None, 0, 0
            for i in rounds_:
                round_ = i + 1
                on_bye = byes.get(round_)
                if on_bye is None:
                    on_bye = byes[round_] = set(self.bye_players(round_))
                if pid in on_bye:
                    status[i] = "bye"
                of_round = table_of.get(round_)
                table_no = of_round.get(pid) if of_round is not None else None
                if table_no is None:
                    continue
                g = games_of[round_][table_no]
                status[i] = "paired"
                games[i] = g
                if g.white == pid:
                    other = g.black
                    res2[i] = points[g.result][0]
                    hd[i] = g.handicap
                else:
                    other = g.white
                    res2[i] = points[g.result][1]
                    hd[i] = -g.handicap
                known = players.get(other)
                opp[i] = other if known is None else known.id
            status_rows[pid], game_rows[pid], opp_rows[pid], res2_rows[pid], hd_rows[pid] = (
                status, games, opp, res2, hd)

    def bye_players(self, round_: int) -> list[str]:
        """The players who have the bye of a round (under ``quirk_last_bye_only``, only the
        last one recorded, as OpenGotha keeps)."""
        byes = list(self.state.byes.get(round_, ()))
        if self.policy.quirk_last_bye_only and len(byes) > 1:
            return byes[-1:]
        return byes

    def _fill_rounds(self) -> None:
        state, size = self.state, self.size
        jigo2 = self.rules.jigo2
        points = {result: result.points2() for result in Result}
        points[Result.JIGO] = (jigo2, jigo2)
        # One tuple of row lists per player (and his id), so that a game costs one lookup per
        # side. Opponents are stored as the registered id objects: the games' own id strings
        # are copies (decoded per event), and every later lookup by an identical object skips
        # the string comparison.
        rows: dict[str, tuple[list[RoundStatus], list[GameState | None], list[str | None], list[int], list[int], str]]
        rows = {}
        for pid, player in state.players.items():
            rows[pid] = (_base_statuses(player, size), [None] * size, [None] * size, [0] * size, [0] * size, pid)
        several: dict[tuple[str, int], list[GameState]] | None = (
            {} if self.policy.several_games_in_round == "opengotha" else None)
        for r in range(1, size + 1):
            i = r - 1
            for pid in self.bye_players(r):
                if pid in rows:
                    rows[pid][0][i] = "bye"
            tables = state.games.get(r)
            if not tables:
                continue
            # The first game of a player in a round (in table order) counts; an unknown
            # player's side is skipped. Further games are kept for several_games_in_round.
            for table in sorted(tables):
                g = tables[table]
                w, b = g.white, g.black
                pw, pb = points[g.result]
                row_w, row_b = rows.get(w), rows.get(b)
                if several is not None:
                    for pid, row in ((w, row_w), (b, row_b)):
                        if row is not None and (earlier := row[1][i]) is not None and w != b:
                            several.setdefault((pid, i), [earlier]).append(g)
                if row_w is not None and row_w[1][i] is None:
                    row_w[0][i] = "paired"
                    row_w[1][i] = g
                    row_w[2][i] = b if row_b is None else row_b[5]
                    row_w[3][i] = pw
                    row_w[4][i] = g.handicap
                if row_b is not None and row_b[1][i] is None:
                    row_b[0][i] = "paired"
                    row_b[1][i] = g
                    row_b[2][i] = w if row_w is None else row_w[5]
                    row_b[3][i] = pb
                    row_b[4][i] = -g.handicap
        if several:
            self._several_games(several, rows, points)
        for pid, (status, games, opp, res2, hd, _) in rows.items():
            self.status[pid] = status
            self.game[pid] = games
            self.opp[pid] = opp
            self.res2[pid] = res2
            self.hd[pid] = hd

    def _several_games(self, several: dict[tuple[str, int], list[GameState]], rows: dict[str, tuple],
                       points: dict[Result, tuple[int, int]]) -> None:
        """OpenGotha with several games of one player in one round (issue 19.3): the row keeps
        the game its HashMap iterates last (:mod:`goledger.replay.scoring.hashmap_order`) and the
        other games' points go to :attr:`extra2` / :attr:`extra_played2`."""
        size = sum(len(tables) for tables in self.state.games.values())
        for (pid, i), games in several.items():
            ordered = iteration_order(games, size)
            chosen = ordered[-1]
            row = rows[pid]
            white = chosen.white == pid
            other = chosen.black if white else chosen.white
            row[1][i] = chosen
            row[2][i] = other if other not in rows else rows[other][5]
            row[3][i] = points[chosen.result][0 if white else 1]
            row[4][i] = chosen.handicap if white else -chosen.handicap
            extra = self.extra2.setdefault(pid, [0] * self.size)
            extra_played = self.extra_played2.setdefault(pid, [0] * self.size)
            self.extra_games[(pid, i)] = ordered[:-1]
            for g in ordered[:-1]:
                value = points[g.result][0 if g.white == pid else 1]
                extra[i] += value
                if g.result is not Result.UNKNOWN and not g.by_default:
                    extra_played[i] += value

    def game_points2(self, player_id: str) -> list[int]:
        """Per round, the points of every game of the player (``res2`` plus :attr:`extra2`)."""
        extra = self.extra2.get(player_id)
        res2 = self.res2[player_id]
        return res2 if extra is None else [a + b for a, b in zip(res2, extra, strict=True)]

    def _listed_after(self, previous: RoundTable, redo: Iterable[str]) -> tuple[str, ...]:
        """:meth:`_listed` of a derived table: ``previous``'s list when no player of ``redo``
        (the players whose rows were rebuilt) entered or left it."""
        if self.policy.listed_players == "all" or self.changed is None or min(self.state.games, default=1) < 1:
            return self._listed()
        byes = self._players_with_byes()
        before = previous._listed_set()
        game = self.game
        if all((pid in byes or any(game[pid])) == (pid in before) for pid in redo):
            self._listed_members = before
            return previous.listed
        return self._listed()

    def _players_with_byes(self) -> set[str]:
        """The players who have the bye of some round (:meth:`bye_players`)."""
        byes: set[str] = set()
        for round_ in self.state.byes:
            byes.update(self.bye_players(round_))
        return byes

    def _listed_set(self) -> frozenset[str]:
        found = self._listed_members
        if found is None:
            found = self._listed_members = frozenset(self.listed)
        return found

    def _listed(self) -> tuple[str, ...]:
        """Every player, or under ``listed_players="implied"`` those with a game or a bye in
        any round of the tournament (OpenGotha's ``isPlayerImplied``)."""
        players = self.state.players
        if self.policy.listed_players == "all":
            return tuple(players)
        byes = self._players_with_byes()
        if min(self.state.games, default=1) >= 1:
            # Every game of rounds 1..size has its players' rows (a player's first game of a
            # round is in his row, and a second game of the round leaves him implied anyway).
            game = self.game
            return tuple(pid for pid in players if pid in byes or any(game[pid]))
        implied = set(byes)
        for tables in self.state.games.values():
            for g in tables.values():
                implied.add(g.white)
                implied.add(g.black)
        return tuple(pid for pid in players if pid in implied)

    def _set_rules(self) -> None:
        """The table's :class:`~goledger.replay.scoring.rules.Rules` (those of the standings
        round's settings: round-down, start scores) and each round's (its bye and absent
        values follow the settings in force for it)."""
        state, policy = self.state, self.policy
        self.rules: Rules = rules_for(policy, self.settings)
        self.round_down_scope: str = self.rules.round_down
        self.round_rules: list[Rules] = (
            [rules_for(policy, state.settings_for_round(r)) for r in range(1, self.size + 1)]
            if state.round_settings else [self.rules] * self.size)
        """Per round (0-based), the rules of the settings in force for it."""

    def unpaired_points2(self, player_id: str, round_: int, family: str) -> int:
        """Half-points a round without a game brings in the ``"nbw"`` or ``"mms"`` family
        (before rounding); see :meth:`ScoringContext.unpaired_points2`."""
        status = self.status[player_id][round_ - 1]
        if status == "paired":
            return 0
        rules = self.round_rules[round_ - 1]
        if status == "bye":
            override = self.state.byes.get(round_, {}).get(player_id)
            if override is not None:
                return override
            return rules.nbw2_bye if family == "nbw" else rules.mms2_bye
        if status == "absent":
            override = self.state.players[player_id].absences.get(round_)
            if override is not None:
                return override
        elif (status == "not-assigned" and rules.not_assigned == "zero") or (
            status == "withdrawn" and rules.withdrawn == "zero"
        ):
            return 0
        return rules.nbw2_absent if family == "nbw" else rules.mms2_absent

    def _unpaired_defaults(self) -> list[dict[str, tuple[int, int]]]:
        """Per round (0-based), the (nbw, mms) half-points of each unpaired status when the
        bye or absence carries no value of its own: :meth:`unpaired_points2` without its
        per-player overrides, computed once per round instead of once per player-round."""
        out: list[dict[str, tuple[int, int]]] = []
        for rules in self.round_rules:
            absent = (rules.nbw2_absent, rules.mms2_absent)
            out.append({
                "bye": (rules.nbw2_bye, rules.mms2_bye), "absent": absent,
                "not-assigned": (0, 0) if rules.not_assigned == "zero" else absent,
                "withdrawn": (0, 0) if rules.withdrawn == "zero" else absent,
            })
        return out

    def _accumulate(self, only: Iterable[str] | None = None) -> None:
        """The score rows of every player (of ``only``, when given)."""
        scope, size = self.round_down_scope, self.size
        exact = scope != "whole-score"  # game points alone are never rounded
        defaults = self._unpaired_defaults()
        byes, players = self.state.byes, self.state.players
        memo: dict[tuple[tuple[str, ...], tuple[int, ...]], tuple[list[int], list[int], list[int], list[int]]] = {}
        nothing_unpaired = [0] * size  # shared by every player paired in every round (rows are read only)
        for pid in (players if only is None else only):
            base = 2 * self.smms[pid]
            status, res2 = self.status[pid], self.game_points2(pid)
            if exact and status.count("paired") == size:
                # Paired in every round (most players): plain running sums.
                nbw_row = list(accumulate(res2, initial=0))
                self.nbw2[pid] = nbw_row
                self.mms2[pid] = [base + v for v in nbw_row] if base else nbw_row[:]
                self.unpaired_nbw2[pid] = nothing_unpaired
                self.unpaired_mms2[pid] = nothing_unpaired
                continue
            plain = "bye" not in status and "absent" not in status  # no round with a value of its own
            if plain:
                key = (tuple(status), tuple(res2))
                known = memo.get(key)
                if known is not None:  # another player's rounds exactly: his rows, moved by the start score
                    nbw_row, mms_row, un_nbw, un_mms = known
                    self.nbw2[pid], self.unpaired_nbw2[pid], self.unpaired_mms2[pid] = nbw_row, un_nbw, un_mms
                    self.mms2[pid] = [base + v for v in mms_row]
                    continue
            g = s_nbw = s_mms = 0
            nbw_row = [0] * (size + 1)
            mms_row = [base] * (size + 1)
            un_nbw = [0] * size
            un_mms = [0] * size
            absences = players[pid].absences
            for i in range(size):
                st = status[i]
                if st == "paired":
                    g += res2[i]
                else:
                    override = (byes.get(i + 1, {}).get(pid) if st == "bye"
                                else absences.get(i + 1) if st == "absent" else None)
                    if override is None:
                        v_nbw, v_mms = defaults[i][st]
                    else:
                        v_nbw = v_mms = override
                    un_nbw[i] = v_nbw
                    un_mms[i] = v_mms
                    s_nbw += v_nbw
                    s_mms += v_mms
                if scope == "unpaired-part":
                    nbw_row[i + 1] = g + (s_nbw & ~1)
                    mms_row[i + 1] = base + g + (s_mms & ~1)
                else:
                    nbw_row[i + 1] = rounded(g, s_nbw, scope)
                    mms_row[i + 1] = base + rounded(g, s_mms, scope)
            self.nbw2[pid] = nbw_row
            self.mms2[pid] = mms_row
            self.unpaired_nbw2[pid] = un_nbw
            self.unpaired_mms2[pid] = un_mms
            if plain:
                memo[key] = (nbw_row, [v - base for v in mms_row], un_nbw, un_mms)


def _base_statuses(player: PlayerState, size: int) -> list[RoundStatus]:
    """A player's status in rounds 1..``size`` before byes and games: ``withdrawn`` from his
    withdrawal on, else ``absent`` where he announced it, else ``not-assigned``."""
    status: list[RoundStatus] = ["not-assigned"] * size
    for r in player.absences:
        if 1 <= r <= size:
            status[r - 1] = "absent"
    if player.withdrawn_from is not None:
        for r in range(max(player.withdrawn_from, 1), size + 1):
            status[r - 1] = "withdrawn"
    return status


_CACHE: OrderedDict[tuple[int, int, Policy, int, int], RoundTable] = OrderedDict()
_CACHE_SIZE = 6


def table_size(state: TournamentState, round_: int) -> int:
    """Rounds a table covers: the tournament's rounds, or more when games, byes or the
    round asked for go further."""
    return max(round_, state.rounds, max(state.games, default=0), max(state.byes, default=0))


@nogc
def round_table(state: TournamentState, policy: Policy, settings: TournamentSettings, round_: int) -> RoundTable:
    """The (cached) table of ``state`` under ``policy`` covering at least ``round_`` rounds;
    ``settings`` are those in force for the standings round (bar, floor, zero, and the
    defaults of the bye/absent values)."""
    size = table_size(state, round_)
    key = (id(state), state.seq, policy, id(settings), size)
    table = _CACHE.get(key)
    if table is not None and table.state is state and table.settings is settings:
        _CACHE.move_to_end(key)
        return table
    table = None
    since = _TOUCHED.get(id(state))
    if since is not None and since.state is state:
        origin = since.origin
        parent: RoundTable | None = None
        for (_, _, pol, sett, sz), cached in reversed(_CACHE.items()):
            if pol != policy or sz != size:
                continue
            same = cached.state is state and sett == id(settings) and cached.settings is settings
            copied = (origin is not None and cached.state is origin and cached.seq == origin.seq == since.start
                      and cached.settings == settings)
            if same or copied:
                parent = cached
                break
        for earlier in _LINEAGES.get(since.lineage, ()) if since.lineage is not None else ():
            # A table of an earlier pass over the same events: nearer points derive cheaper.
            if (since.start <= earlier.seq <= state.seq and (parent is None or earlier.seq > parent.seq)
                    and earlier.policy == policy and earlier.size == size and earlier.settings == settings):
                parent = earlier
        if parent is not None:
            found = since.between(parent.seq, state.seq)
            if found is not None:
                table = RoundTable.derived(parent, state, settings, *found)
    if table is None:
        table = RoundTable(state, policy, settings, size)
    if since is not None and since.state is state and since.lineage is not None:
        kept = _LINEAGES.setdefault(since.lineage, [])
        if len(kept) * max(1, len(state.players)) < LINEAGE_ROWS:
            kept.append(table)
    _cache_put(key, table)
    return table


def _cache_put(key: tuple[int, int, Policy, int, int], table: RoundTable) -> None:
    """Keep ``table`` under ``key``, dropping the oldest beyond :data:`_CACHE_SIZE`."""
    _CACHE[key] = table
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)


def derive_table(previous: RoundTable, state: TournamentState, touched: set[str], players_changed: bool
                 ) -> RoundTable:
    """The table of ``state`` (same policy, settings and size as ``previous``), a state whose
    rows are those of ``previous.state`` but for the players ``touched`` (a state without one
    event, :mod:`goledger.replay.fold.without`), derived from ``previous`` and cached where
    :func:`round_table` finds it, so that the criteria of ``previous``'s contexts update."""
    table = RoundTable.derived(previous, state, previous.settings, touched, players_changed)
    _cache_put((id(state), state.seq, previous.policy, id(previous.settings), previous.size), table)
    return table


# --------------------------------------------------------------------------- incremental replay

_NO_PLAYERS: frozenset[str] = frozenset()
_STRUCTURAL = frozenset({"TournamentCreated", "RulesChanged", "PlayerUnregistered", "PairingAnnotated"})
"""Event types after which a table is rebuilt rather than derived."""
_OWN = frozenset({"PlayerRegistered", "PlayerUpdated", "PlayerWithdrew", "PlayerReinstated", "ParticipationChanged"})
"""A player's own events: the only ones that can move start scores (rank, correction, the
super group's participants)."""
_NEUTRAL = frozenset({"PairingConstraintSet", "TeamRegistered", "TeamMemberAssigned", "SourceImported", "Checkpoint",
                      "PseudonymisedCopy", "CheckedIn"})
"""Event types that change no round row."""


_BOARD = frozenset({"GamePaired", "PairingRemoved", "ResultRecorded", "ResultCorrected"})
"""Event types about the game at a (round, table): they touch its players, old and new."""


class _Touches:
    """The players each event applied to one state object touched, from ``start`` on."""

    def __init__(self, state: TournamentState, origin: TournamentState | None, lineage: object = None) -> None:
        self.state = state
        self.origin = origin
        self.lineage = lineage
        self.start = state.seq
        self.touched: list[frozenset[str] | None] = []  # per event after ``start``; None: structural
        self.own: list[bool] = []  # per event: one of the player's own (registration, update, withdrawal…)
        self.rounds: list[int | None] = []  # per event: the one round it touches (games, byes), else None

    def between(self, after: int, upto: int) -> tuple[set[str], bool, dict[str, set[int]]] | None:
        """Players touched by events ``after+1 … upto``, whether one of them is a player's
        own event, and the rounds (0-based) touched of the players only games and byes
        touched (``None``: rebuild the table)."""
        if after < self.start or upto > self.start + len(self.touched):
            return None
        lo, hi = after - self.start, upto - self.start
        by_round: dict[int | None, set[str]] = {}  # the players each round's events touched
        for players, round_ in zip(self.touched[lo:hi], self.rounds[lo:hi], strict=True):
            if players is None:
                return None
            found = by_round.get(round_)
            if found is None:
                by_round[round_] = set(players)
            else:
                found.update(players)
        whole: set[str] = set()
        out: set[str] = set()
        cells: dict[str, set[int]] = {}
        for round_, of_round in by_round.items():
            out.update(of_round)
            if round_ is None or round_ < 1:
                whole.update(of_round)
                continue
            for pid in of_round:
                cells.setdefault(pid, set()).add(round_ - 1)
        for pid in whole:
            cells.pop(pid, None)
        return out, any(self.own[lo:hi]), cells


_TOUCHED: dict[int, _Touches] = {}


def _has_several_games(state: TournamentState) -> bool:
    """Whether some player has more than one game in a round (an invalid file OpenGotha loads
    as it is): the round's player index then has fewer entries than the games' sides."""
    return any(len(state.table_of.get(r, ())) < 2 * len(tables) for r, tables in state.games.items())


_LINEAGES: dict[object, list[RoundTable]] = {}
"""Per lineage (:func:`track`), the tables built while states of it were tracked."""
LINEAGE_ROWS = 150_000
"""Player rows of the tables a lineage keeps, at most (a table of 1,500 players holds about
1 MB): the first ones built are kept, later ones derive from them or from their pass."""
_LINEAGE_TOUCHES: dict[object, _Touches] = {}
"""Per lineage, the first pass's record of what each event touched (shared by the next)."""


def track(state: TournamentState, origin: TournamentState | None = None, lineage: object = None) -> None:
    """Start recording what events applied to ``state`` touch, so that :func:`round_table`
    can derive its tables from earlier ones (one forward pass of an audit); call
    :func:`note_event` before applying each event and :func:`untrack` when done.
    ``origin``: a state ``state`` is an unchanged copy of right now, whose tables at this
    sequence number may serve as the first ones. ``lineage``: a token shared by passes
    that apply the same events to copies of one origin (the levels of a bisection): a table
    of one pass may then serve the next, from the nearest earlier point; :func:`forget`
    the token when the passes are over."""
    record = _Touches(state, origin, lineage)
    earlier = _LINEAGE_TOUCHES.get(lineage) if lineage is not None else None
    if earlier is not None and earlier.start == record.start:  # the same events again: what they touch is known
        record.touched, record.own, record.rounds = earlier.touched, earlier.own, earlier.rounds
    elif lineage is not None:
        _LINEAGE_TOUCHES[lineage] = record
    _TOUCHED[id(state)] = record


def untrack(state: TournamentState) -> None:
    _TOUCHED.pop(id(state), None)


def keep_only(lineage: object, seqs: Collection[int]) -> None:
    """Keep, of the tables of ``lineage``, those at the sequence numbers ``seqs`` (the points
    later passes may still derive from)."""
    kept = _LINEAGES.get(lineage)
    if kept is not None:
        kept[:] = [table for table in kept if table.seq in seqs]


def forget(lineage: object) -> None:
    """Drop the tables (and touches) kept for ``lineage``."""
    _LINEAGES.pop(lineage, None)
    _LINEAGE_TOUCHES.pop(lineage, None)


def note_event(state: TournamentState, event: Any) -> None:
    """Record the players ``event`` touches, read on ``state`` before the event is applied."""
    record = _TOUCHED.get(id(state))
    if record is None or record.state is not state:
        return
    position = state.seq - record.start
    if 0 <= position < len(record.touched):
        return  # known from an earlier pass over the same events (one lineage)
    if position != len(record.touched):
        record.start, record.touched, record.own, record.rounds = state.seq, [], [], []
    name = type(event).__name__
    players: frozenset[str] | None
    round_of: int | None = None
    if name in _BOARD:  # most of a log: looked at first
        round_, table = event.round, event.table
        of_round = state.games.get(round_)
        game = of_round.get(table) if of_round is not None else None
        if name == "GamePaired":
            players = (frozenset((event.white, event.black)) if game is None
                       else frozenset((game.white, game.black, event.white, event.black)))
        else:
            players = _NO_PLAYERS if game is None else frozenset((game.white, game.black))
        round_of = round_
    elif name in _STRUCTURAL:
        players = None
    elif name in _NEUTRAL:
        players = _NO_PLAYERS
    elif name in ("ByeAssigned", "ByeRemoved"):
        round_ = event.round
        players = frozenset({event.player_id, *state.byes.get(round_, {})})
        round_of = round_
    elif name in ("PlayerRegistered", "PlayerUpdated", "PlayerWithdrew", "PlayerReinstated", "ParticipationChanged"):
        players = frozenset({event.player_id})
    else:
        players = None
    record.touched.append(players)
    record.own.append(name in _OWN)
    record.rounds.append(round_of if isinstance(round_of, int) else None)
