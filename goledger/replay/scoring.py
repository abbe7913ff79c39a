"""Per-round values and accumulated scores: the ground every criterion stands on.

A :class:`ScoringContext` looks at a state *at round R under a policy* (spec ``scoring.md``
§2.1): only rounds 1..R count, and every opponent value is taken at round R. It builds,
once, for **every registered player** (criteria and direct-confrontation groups always
cover them all, as OpenGotha does; :attr:`ScoringContext.players` is the listed subset):

* per round ``r`` (index ``r - 1``): the status (``paired``, ``bye``, ``withdrawn``,
  ``absent``, ``not-assigned``), the game, the opponent, the game points in half-points
  (:attr:`res2`: win 2, jigo ``policy.jigo2``, loss/both-lose/unknown 0; by-default results
  count the same), the signed handicap (:attr:`hd`: +h when the player had White and so
  gave the stones, −h with Black) and the half-points a round without a game brings;
* the starting McMahon score :attr:`smms` (whole points);
* the accumulated scores :attr:`nbw2` and :attr:`mms2`, in half-points, one row per player
  indexed by round ``0..R`` (row[0] is the value before round 1);
* the "virtual" scores :attr:`nbw2_virtual` / :attr:`mms2_virtual` of the half-point option.

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

from collections.abc import Callable, Sequence
from functools import cached_property, lru_cache
from typing import Any

from goledger.ledger.events import TournamentSettings
from goledger.ledger.values import Rank, Result
from goledger.replay.policy import Policy
from goledger.replay.state import GameState, RoundStatus, TournamentState

__all__ = ["RoundEntry", "ScoringContext", "category_index", "rank_value", "rounded", "start_mms"]


@lru_cache(maxsize=512)
def rank_value(text: str) -> int:
    """OpenGotha's rank integer (30k = −30 … 9d = 8) of a rank string."""
    return Rank.parse(text).value


def start_mms(rank: str, correction: int, settings: TournamentSettings) -> int:
    """Starting McMahon score in whole points: ``clamp(rank, floor, bar) − zero + correction``.

    >>> s = TournamentSettings(name="t", rounds=5, mm_bar="4d", mm_floor="20k")
    >>> start_mms("1d", 0, s), start_mms("25k", 0, s), start_mms("6d", 0, s), start_mms("6d", 1, s)
    (30, 10, 33, 34)
    """
    value = max(rank_value(settings.mm_floor), min(rank_value(settings.mm_bar), rank_value(rank)))
    return value - rank_value(settings.mm_zero) + correction


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
        from goledger.replay.start_scores import start_scores

        self.smms: dict[str, int] = start_scores(state, self.settings)
        """Start McMahon scores (bar and floor, grouped McMahon, EGF super-group, correction)."""
        self.not_played_as_half = (
            self.settings.not_played_as_half if policy.not_played_as_half is None else policy.not_played_as_half
        )
        self._build_rounds()
        self.players: list[str] = self._listed_players()
        self.nbw2, self.mms2 = self._accumulate()

    # ---------------------------------------------------------------- construction

    def _build_rounds(self) -> None:
        """Fill the per-round lists (index r − 1) of every player."""
        state, size = self.state, self.round
        jigo2 = self.policy.jigo2
        self.status: dict[str, list[RoundStatus]] = {}
        self.game: dict[str, list[GameState | None]] = {}
        self.opp: dict[str, list[str | None]] = {}
        self.res2: dict[str, list[int]] = {}
        self.hd: dict[str, list[int]] = {}
        for pid, player in state.players.items():
            status: list[RoundStatus] = ["not-assigned"] * size
            for r in player.absences:
                if 1 <= r <= size:
                    status[r - 1] = "absent"
            if player.withdrawn_from is not None:
                for r in range(max(player.withdrawn_from, 1), size + 1):
                    status[r - 1] = "withdrawn"
            self.status[pid] = status
            self.game[pid] = [None] * size
            self.opp[pid] = [None] * size
            self.res2[pid] = [0] * size
            self.hd[pid] = [0] * size
        for r in range(1, size + 1):
            i = r - 1
            for pid in self.bye_players(r):
                if pid in self.status:
                    self.status[pid][i] = "bye"
            tables = state.games.get(r)
            if not tables:
                continue
            for table in sorted(tables):
                g = tables[table]
                w, b = g.white, g.black
                pw, pb = g.result.points2()
                if g.result is Result.JIGO:
                    pw = pb = jigo2
                for pid, other, points, hd in ((w, b, pw, g.handicap), (b, w, pb, -g.handicap)):
                    games = self.game.get(pid)
                    if games is None or games[i] is not None:
                        continue  # unknown player or a second game in the round: the first counts
                    games[i] = g
                    self.status[pid][i] = "paired"
                    self.opp[pid][i] = other
                    self.res2[pid][i] = points
                    self.hd[pid][i] = hd

    def bye_players(self, round_: int) -> list[str]:
        """The players who have the bye of a round (under ``quirk_last_bye_only``, only the
        last one recorded, as OpenGotha keeps)."""
        byes = list(self.state.byes.get(round_, ()))
        if self.policy.quirk_last_bye_only and len(byes) > 1:
            return byes[-1:]
        return byes

    def _listed_players(self) -> list[str]:
        """Every player, or under ``listed_players="implied"`` those with a game or a bye in
        any round of the tournament (OpenGotha's ``isPlayerImplied``)."""
        if self.policy.listed_players == "all":
            return list(self.all_players)
        implied: set[str] = set()
        for tables in self.state.games.values():
            for game in tables.values():
                implied.add(game.white)
                implied.add(game.black)
        for round_ in self.state.byes:
            implied.update(self.bye_players(round_))
        return [pid for pid in self.all_players if pid in implied]

    def unpaired_points2(self, player_id: str, entry: RoundEntry | int, family: str) -> int:
        """Half-points a round without a game brings in the ``"nbw"`` or ``"mms"`` family
        (before rounding): the bye or absent value of the policy, else of the tournament
        (settings in force for that round); a bye or absence recorded with its own value
        keeps it; 0 for a paired round and, under ``not_assigned="zero"``, a not-assigned one.
        ``entry`` is a :class:`RoundEntry` or a round number."""
        round_ = entry if isinstance(entry, int) else entry.round
        status = self.status[player_id][round_ - 1]
        policy = self.policy
        if status == "paired":
            return 0
        settings = self.state.settings_for_round(round_) if self.state.round_settings else self.settings
        if status == "bye":
            override = self.state.byes.get(round_, {}).get(player_id)
            if override is not None:
                return override
            if family == "nbw":
                return settings.nbw2_bye if policy.nbw2_bye is None else policy.nbw2_bye
            return settings.mms2_bye if policy.mms2_bye is None else policy.mms2_bye
        if status == "absent":
            override = self.state.players[player_id].absences.get(round_)
            if override is not None:
                return override
        elif (status == "not-assigned" and policy.not_assigned == "zero") or (
            status == "withdrawn" and policy.withdrawn == "zero"
        ):
            return 0
        if family == "nbw":
            return settings.nbw2_absent if policy.nbw2_absent is None else policy.nbw2_absent
        return settings.mms2_absent if policy.mms2_absent is None else policy.mms2_absent

    def round_down_scope(self) -> str:
        """``unpaired-part``, ``whole-score`` or ``none`` (policy, else the tournament's flag)."""
        if self.policy.round_down is not None:
            return self.policy.round_down
        return "unpaired-part" if self.settings.round_down else "none"

    def _accumulate(self) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        scope = self.round_down_scope()
        nbw2: dict[str, list[int]] = {}
        mms2: dict[str, list[int]] = {}
        self.unpaired_nbw2: dict[str, list[int]] = {}
        self.unpaired_mms2: dict[str, list[int]] = {}
        for pid in self.all_players:
            base = 2 * self.smms[pid]
            status, res2 = self.status[pid], self.res2[pid]
            g = s_nbw = s_mms = 0
            nbw_row = [0]
            mms_row = [base]
            un_nbw = [0] * self.round
            un_mms = [0] * self.round
            for i in range(self.round):
                if status[i] == "paired":
                    g += res2[i]
                else:
                    un_nbw[i] = v_nbw = self.unpaired_points2(pid, i + 1, "nbw")
                    un_mms[i] = v_mms = self.unpaired_points2(pid, i + 1, "mms")
                    s_nbw += v_nbw
                    s_mms += v_mms
                nbw_row.append(rounded(g, s_nbw, scope))
                mms_row.append(base + rounded(g, s_mms, scope))
            nbw2[pid] = nbw_row
            mms2[pid] = mms_row
            self.unpaired_nbw2[pid] = un_nbw
            self.unpaired_mms2[pid] = un_mms
        return nbw2, mms2

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
            games, res2 = self.game[pid], self.res2[pid]
            for i in range(self.round):
                g = games[i]
                if g is not None and not g.by_default and g.result is not Result.UNKNOWN:
                    total += res2[i]
                else:
                    total += 1
                row.append(total)
            out[pid] = row
        return out

    def played(self, player_id: str, round_: int) -> bool:
        """Whether the player actually played a game in ``round_`` (known result, not by default)."""
        g = self.game[player_id][round_ - 1]
        return g is not None and not g.by_default and g.result is not Result.UNKNOWN

    def score2(self, family: str) -> dict[str, int]:
        """Every player's accumulated ``"nbw"`` or ``"mms"`` score at round R (half-points)."""
        rows = self.nbw2 if family == "nbw" else self.mms2
        r = self.round
        return {pid: row[r] for pid, row in rows.items()}

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
            from goledger.replay.criteria import get_criterion

            crit = get_criterion(criterion)
            found = self.values.get(crit.name)
            if found is None:
                found = crit.compute(self)
                self.values[crit.name] = found
            self.values[criterion] = found
        return found

    def memoized(self, key: str, build: Callable[[], Any]) -> Any:
        """Share an intermediate result between criteria of this context."""
        if key not in self.memo:
            self.memo[key] = build()
        return self.memo[key]

    def placement_criteria(self) -> tuple[str, ...]:
        """The placement list these values serve: the context's, else the tournament's,
        else the policy's default for the system, else the system's main score."""
        if self.criteria is not None:
            return self.criteria
        from goledger.replay.standings import resolve_criteria

        return resolve_criteria(self.state, self.policy, None)


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
