"""Per-round values and accumulated scores: the ground every criterion stands on.

A :class:`ScoringContext` looks at a state *at round R under a policy* (spec ``scoring.md``
§2.1): only rounds 1..R count, and every opponent value is taken at round R. It builds,
once, for **every registered player** (criteria and direct-confrontation groups always
cover them all, as OpenGotha does; :attr:`ScoringContext.players` is the listed subset):

* per round ``r`` (index ``r - 1``): the status (``paired``, ``bye``, ``withdrawn``,
  ``absent``, ``not-assigned``), the game, the opponent, the game points in half-points
  (:attr:`res2`: win 2, jigo ``Rules.jigo2``, loss/both-lose/unknown 0; by-default results
  count the same), the signed handicap (:attr:`hd`: +h when the player had White and so
  gave the stones, −h with Black) and the half-points a round without a game brings;
* the starting McMahon score :attr:`smms` (whole points);
* the accumulated scores :attr:`nbw2` and :attr:`mms2`, in half-points, one row per player
  indexed by round ``0..R`` (row[0] is the value before round 1);
* the "virtual" scores :attr:`nbw2_virtual` / :attr:`mms2_virtual` of the half-point option.

These lists come from a :class:`~goledger.replay.scoring.rounds.RoundTable` built once per state and
policy for every round and shared by the contexts of all rounds (cut at R here), so the
standings after every round cost little more than after one.

Criteria read these and cache their own results in :attr:`ScoringContext.values`;
:meth:`ScoringContext.memoized` shares intermediate results (per-round SOS contributions…)
between criteria of one context. :attr:`ScoringContext.entries` offers the same per-round
facts as :class:`RoundEntry` objects (built on first use) for explanations and for criteria
modules that prefer objects to parallel lists.

Accumulation (spec §1.1, policy option ``round_down``)::

    G(r) = game points of rounds 1..r       (win 2, jigo 1, loss/unknown 0; forfeits count)
    S(r) = bye/absent points of rounds 1..r (values from the policy or the tournament)
    unpaired-part:  score(r) = G(r) + 2·⌊S(r)/2⌋          (OpenGotha)
    whole-score:    score(r) = 2·⌊(G(r) + S(r))/2⌋        (EGF, read literally)
    none:           score(r) = G(r) + S(r)
    MMS(r) = 2·smms + the same sum with the MMS values

Virtual scores (spec §1.1, used as *opponent* values in the SOS family when the half-point
option is on): the points of games actually played (known result, not by default) plus ½
for every other round, with no bye/absent values and no rounding.

The starting McMahon score is ``clamp(rank, floor, bar) − zero + correction`` in OpenGotha's
rank integers, so with zero 30k a 1d starts on 30 (spec §1.1). The bar, floor and zero are
those in force for round R (``RulesChanged`` is retroactive unless given a round); the
correction is the player's current one (retroactive, spec §2.7.8).
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, cast

from goledger.ledger.values import Result
from goledger.replay.scoring.choices import resolve_criteria
from goledger.replay.scoring.criteria import Criterion, get_criterion
from goledger.replay.scoring.rounds import round_table, rounded
from goledger.replay.scoring.start_scores import rank_value, start_mms

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Mapping, Sequence

    from goledger.replay.fold.state import GameState, RoundStatus, TournamentState
    from goledger.replay.scoring.policies import Policy
    from goledger.replay.scoring.rules import Rules

__all__ = ["RoundEntry", "ScoringContext", "category_index", "rank_value", "rounded", "start_mms"]


def category_index(rank: str, limits: Sequence[str]) -> int:
    """0-based category of a rank: categories are given by their lower rank limits,
    strongest first; the last category is open-ended (spec opengotha-xml §7.1).

    >>> [category_index(r, ("1d", "5k")) for r in ("3d", "1d", "1k", "5k", "6k")]
    [0, 0, 1, 1, 2]
    """
    value = rank_value(rank)
    for index, limit in enumerate(limits):
        if value >= rank_value(limit):
            return index
    return len(limits)


class RoundEntry:
    """One player's round: status, game, opponent, colour and the points it brings.

    ``game_points2`` is what the board gave (0 for an unknown result and for rounds
    without a game); ``handicap_signed`` is +h when the player had White (gave stones),
    −h with Black (spec §2.2 notation); ``unpaired_nbw2`` / ``unpaired_mms2`` are the
    half-points a round without a game brings before rounding (0 for a paired round).
    """

    __slots__ = (
        "game",
        "game_points2",
        "handicap_signed",
        "is_white",
        "opponent",
        "round",
        "status",
        "unpaired_mms2",
        "unpaired_nbw2",
    )

    def __init__(
        self,
        round_: int,
        status: RoundStatus,
        game: GameState | None = None,
        opponent: str | None = None,
        is_white: bool = False,
        game_points2: int = 0,
        handicap_signed: int = 0,
        unpaired_nbw2: int = 0,
        unpaired_mms2: int = 0,
    ) -> None:
        self.round = round_
        self.status = status
        self.game = game
        self.opponent = opponent
        self.is_white = is_white
        self.game_points2 = game_points2
        self.handicap_signed = handicap_signed
        self.unpaired_nbw2 = unpaired_nbw2
        self.unpaired_mms2 = unpaired_mms2

    @property
    def paired(self) -> bool:
        return self.game is not None

    @property
    def played(self) -> bool:
        """A game actually played over the board: known result, not by default."""
        return self.game is not None and self.game.result.is_known and not self.game.by_default

    def __repr__(self) -> str:
        return f"RoundEntry(r{self.round} {self.status} vs {self.opponent} {self.game_points2})"


def _score2_key(family: str) -> str:
    """The memo key of :meth:`ScoringContext.score2` of ``family``."""
    return f"score2-{family}"


class ScoringContext:
    """A state seen at round ``round`` under ``policy``; see the module docstring.

    ``criteria`` is the placement list the values serve (direct confrontation depends on the
    criteria around it); ``None`` means the tournament's own list (or the policy default).
    """

    def __init__(
        self,
        state: TournamentState,
        round_: int,
        policy: Policy,
        criteria: Sequence[str] | None = None,
    ) -> None:
        if state.settings is None:
            raise ValueError("the ledger has no TournamentCreated event")
        self.state = state
        self.round = round_
        self.policy = policy
        self.settings = state.settings_for_round(max(round_, 1))
        self.criteria: tuple[str, ...] | None = tuple(criteria) if criteria is not None else None
        """The placement criteria being ranked on (given here or set by the standings), for
        criteria that depend on the ones around them (direct encounter / comparison)."""
        self.all_players: list[str] = list(state.players)
        self.values: dict[str, dict[str, int]] = {}
        self.memo: dict[str, Any] = {}
        table = round_table(state, policy, self.settings, round_)
        self.table = table
        """The shared :class:`~goledger.replay.scoring.rounds.RoundTable` (rounds past R included:
        read it only through the context's lists, which stop at R)."""
        self.rules: Rules = table.rules
        """The rules of round R's settings under ``policy`` (:mod:`goledger.replay.scoring.rules`)."""
        self.not_played_as_half: bool = self.rules.not_played_as_half
        self.smms: dict[str, int] = table.smms
        self.players: list[str] = list(table.listed)
        self._previous = table.previous_view(round_)
        """``(values, memo)`` of a context of the same round on the table this one was derived
        from (an audit's previous point), or ``None``: see :meth:`dirty`."""
        table.views[round_] = (self.values, self.memo)
        self._dirty: dict[int, set[str]] = {}

    # The per-round lists and score rows, cut at round R (built on first use; criteria in a
    # hurry read ``self.table`` directly and bound their loops by ``self.round``).

    @cached_property
    def status(self) -> dict[str, list[RoundStatus]]:
        return {pid: row[: self.round] for pid, row in self.table.status.items()}

    @cached_property
    def game(self) -> dict[str, list[GameState | None]]:
        return {pid: row[: self.round] for pid, row in self.table.game.items()}

    @cached_property
    def opp(self) -> dict[str, list[str | None]]:
        return {pid: row[: self.round] for pid, row in self.table.opp.items()}

    @cached_property
    def res2(self) -> dict[str, list[int]]:
        return {pid: row[: self.round] for pid, row in self.table.res2.items()}

    @cached_property
    def hd(self) -> dict[str, list[int]]:
        return {pid: row[: self.round] for pid, row in self.table.hd.items()}

    @cached_property
    def unpaired_nbw2(self) -> dict[str, list[int]]:
        return {pid: row[: self.round] for pid, row in self.table.unpaired_nbw2.items()}

    @cached_property
    def unpaired_mms2(self) -> dict[str, list[int]]:
        return {pid: row[: self.round] for pid, row in self.table.unpaired_mms2.items()}

    @cached_property
    def nbw2(self) -> dict[str, list[int]]:
        return {pid: row[: self.round + 1] for pid, row in self.table.nbw2.items()}

    @cached_property
    def mms2(self) -> dict[str, list[int]]:
        return {pid: row[: self.round + 1] for pid, row in self.table.mms2.items()}

    # ---------------------------------------------------------------- construction

    def bye_players(self, round_: int) -> list[str]:
        """The players who have the bye of a round (under ``quirk_last_bye_only``, only the
        last one recorded, as OpenGotha keeps)."""
        return self.table.bye_players(round_)

    def unpaired_points2(self, player_id: str, entry: RoundEntry | int, family: str) -> int:
        """Half-points a round without a game brings in the ``"nbw"`` or ``"mms"`` family
        (before rounding): the bye or absent value of the policy, else of the tournament
        (settings in force for that round); a bye or absence recorded with its own value
        keeps it; 0 for a paired round and, under ``not_assigned="zero"``, a not-assigned one.
        ``entry`` is a :class:`RoundEntry` or a round number."""
        round_ = entry if isinstance(entry, int) else entry.round
        return self.table.unpaired_points2(player_id, round_, family)

    def round_down_scope(self) -> str:
        """``unpaired-part``, ``whole-score`` or ``none`` (:attr:`Rules.round_down`)."""
        return self.rules.round_down

    # ---------------------------------------------------------------- derived facts

    @cached_property
    def entries(self) -> dict[str, list[RoundEntry]]:
        """Every player's rounds 1..R as :class:`RoundEntry` objects."""
        out: dict[str, list[RoundEntry]] = {}
        for pid in self.all_players:
            status, games, opp, res2, hd = self.status[pid], self.game[pid], self.opp[pid], self.res2[pid], self.hd[pid]
            un_nbw, un_mms = self.unpaired_nbw2[pid], self.unpaired_mms2[pid]
            rows = []
            for i in range(self.round):
                g = games[i]
                rows.append(
                    RoundEntry(
                        i + 1, status[i], g, opp[i], g is not None and g.white == pid,
                        res2[i], hd[i], un_nbw[i], un_mms[i],
                    )
                )
            out[pid] = rows
        return out

    @cached_property
    def nbw2_virtual(self) -> dict[str, list[int]]:
        """Virtual NBW rows (half-points, rounds 0..R): played games' points plus ½ for every
        other round (spec §1.1)."""
        return self._virtual(0)

    @cached_property
    def mms2_virtual(self) -> dict[str, list[int]]:
        """Virtual MMS rows: ``2·smms`` plus the virtual NBW increments."""
        return self._virtual(1)

    def _virtual(self, with_start: int) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for pid in self.all_players:
            total = 2 * self.smms[pid] * with_start
            row = [total]
            games, res2 = self.table.game[pid], self.table.res2[pid]
            extra = self.table.extra_played2.get(pid)
            for i in range(self.round):
                g = games[i]
                if g is not None and not g.by_default and g.result is not Result.UNKNOWN:
                    total += res2[i]
                else:
                    total += 1
                if extra is not None:  # several games in a round (several_games_in_round)
                    total += extra[i]
                row.append(total)
            out[pid] = row
        return out

    def played(self, player_id: str, round_: int) -> bool:
        """Whether the player actually played a game in ``round_`` (known result, not by default)."""
        g = self.table.game[player_id][round_ - 1]
        return g is not None and not g.by_default and g.result is not Result.UNKNOWN

    def score2(self, family: str) -> dict[str, int]:
        """Every player's accumulated ``"nbw"`` or ``"mms"`` score at round R (half-points);
        shared, read-only."""
        rows = self.table.nbw2 if family == "nbw" else self.table.mms2
        r = self.round

        def build_for(players: Collection[str]) -> dict[str, int]:
            return {pid: rows[pid][r] for pid in players}

        return self.per_player(_score2_key(family), 0, build_for)

    def previous_score2(self, family: str) -> dict[str, int] | None:
        """:meth:`score2` at the previous point of an audit's forward pass, when it was computed
        there for every player (``None`` otherwise)."""
        found: dict[str, int] | None = self.previous_memo(_score2_key(family))
        return found

    def opponent_score2(self, family: str) -> dict[str, int]:
        """The score an opponent brings to the SOS family at round R: the virtual score with
        the half-point option (spec §2.2), else the accumulated one."""
        if not self.not_played_as_half:
            return self.score2(family)
        rows = self.nbw2_virtual if family == "nbw" else self.mms2_virtual
        r = self.round
        return {pid: row[r] for pid, row in rows.items()}

    # ---------------------------------------------------------------- access

    def value(self, criterion: str) -> dict[str, int]:
        """Values of a registered criterion for every player (computed once per context)."""
        found = self.values.get(criterion)
        if found is None:
            crit = get_criterion(criterion)
            found = self.values.get(crit.name)
            if found is None:
                found = self._compute(crit)
                self.values[crit.name] = found
            self.values[criterion] = found
        return found

    def _compute(self, crit: Criterion[ScoringContext]) -> dict[str, int]:
        """A criterion's values: the previous point's, brought up to date by the criterion's
        ``update`` or else for the players :meth:`dirty` at its depth, when it declares one;
        else computed for everyone."""
        compute_for, depth = crit.compute_for, crit.depth
        if compute_for is not None and depth is not None and self._previous is not None:
            before = self._previous[0].get(crit.name)
            if before is not None:
                found = crit.update(self, before) if crit.update is not None else None
                if found is not None:
                    return found
                return self._updated(before, depth, lambda players: compute_for(self, players))
        return crit.compute(self)

    def _updated(self, before: dict[str, Any], depth: int, build_for: Callable[[Collection[str]], dict[str, Any]]
                 ) -> dict[str, Any]:
        """The previous point's entries ``before``, those of the players :meth:`dirty` at
        ``depth`` rebuilt (all of them: built afresh, in the players' order)."""
        dirty = self._dirty_at(depth)
        if len(dirty) == len(self.all_players):
            return build_for(self.all_players)
        found = dict(before)
        found.update(build_for(dirty))
        return found

    def few(self, players: Collection[str]) -> bool:
        """Whether ``players`` are under half the field: then a result is built for them
        alone (:meth:`values_for`); else for everyone, which costs about the same."""
        return 2 * len(players) < len(self.all_players)

    def _part(self, key: str, players: Collection[str], build_for: Callable[[Collection[str]], dict[str, Any]]
              ) -> dict[str, Any]:
        """Entries of ``players`` (and of any asked for before) under ``key``, built as needed."""
        part: dict[str, Any] = self.memo.setdefault(f"part:{key}", {})
        missing = [pid for pid in players if pid not in part]
        if missing:
            part.update(build_for(missing))
        return part

    def dirty(self, depth: int) -> set[str] | None:
        """The players whose values of ``depth`` (see :class:`~goledger.replay.scoring.criteria.Criterion`)
        may differ from those at the previous point of an audit's forward pass: at depth 0 the
        players whose rows changed (:attr:`RoundTable.changed`), at depth d + 1 those and their
        opponents of rounds 1..R, before and after (a game is seen from both sides, so a
        player is dirty when an opponent is). ``None`` when this context follows no other:
        every value is computed."""
        if self._previous is None:
            return None
        return self._dirty_at(depth)

    def _dirty_at(self, depth: int) -> set[str]:
        found = self._dirty.get(depth)
        if found is None:
            table, parent = self.table, self.table.parent
            assert table.changed is not None and parent is not None
            if depth == 0:
                found = set(table.changed)
            elif 2 * len(self._dirty_at(depth - 1)) > len(self.all_players):
                found = set(self.all_players)  # most of the field: no point in telling the rest apart
            else:
                inner = self._dirty_at(depth - 1)
                r = self.round
                reached: set[str | None] = set(inner)
                for rows in (table.opp, parent.opp):
                    for pid in inner:
                        row = rows.get(pid)
                        if row is not None:
                            reached.update(row[:r])
                reached.discard(None)
                found = cast("set[str]", reached & table.status.keys())  # the registered ones
            self._dirty[depth] = found
        return found

    def previous_memo(self, key: str) -> Any:
        """What the context of the previous point of an audit's forward pass memoized under
        ``key`` (``None``: nothing, or no previous point)."""
        return self._previous[1].get(key) if self._previous is not None else None

    def memoized(self, key: str, build: Callable[[], Any]) -> Any:
        """Share an intermediate result between criteria of this context."""
        if key not in self.memo:
            self.memo[key] = build()
        return self.memo[key]

    def values_for(self, criterion: str, players: Collection[str]) -> Mapping[str, int]:
        """Values of a criterion for at least ``players``: every player's when they are known
        or when ``players`` are many, else only those of ``players`` (and of any asked for
        before), with the criterion's ``compute_for``. One player's place needs the second
        criterion of the players equal with him on the first only, and so on
        (:func:`~goledger.replay.scoring.standings.rank_players` with ``only``)."""
        crit = get_criterion(criterion)
        found = self.values.get(crit.name)
        if found is not None:
            return found
        compute_for = crit.compute_for
        if compute_for is None or crit.depth is None or not self.few(players):
            return self.value(crit.name)
        return self._part(crit.name, players, lambda missing: compute_for(self, missing))

    def per_player(self, key: str, depth: int | None, build_for: Callable[[Collection[str]], dict[str, Any]],
                   players: Collection[str] | None = None) -> dict[str, Any]:
        """:meth:`memoized` for a result with one entry per player whose entries reach ``depth``
        (as a criterion's values do): ``build_for(players)`` gives the entries of ``players``;
        following a previous point, only the :meth:`dirty` players' are rebuilt. With
        ``players`` (fewer than half the field), only their entries are sure to be there."""
        found = self.memo.get(key)
        if found is None and players is not None and self.few(players):
            return self._part(key, players, build_for)
        if found is None:
            before = self.previous_memo(key) if depth is not None else None
            found = self._updated(before, depth, build_for) if before is not None and depth is not None else (
                build_for(self.all_players))
            self.memo[key] = found
        return found

    def placement_criteria(self) -> tuple[str, ...]:
        """The placement list these values serve: the context's, else the tournament's,
        else the policy's default for the system, else the system's main score."""
        if self.criteria is not None:
            return self.criteria
        return resolve_criteria(self.state, self.policy, None)
