"""Per-round values and accumulated scores: the ground every criterion stands on.

A :class:`ScoringContext` looks at a state *at round R under a policy* (spec ``scoring.md``
§2.1): only rounds 1..R count, and every opponent value is taken at round R. It builds,
once, each listed player's round entries and the accumulated number-of-wins (NBW) and
McMahon (MMS) scores, in **half-points**; criteria read them and cache their own results
in :attr:`ScoringContext.values`.

Accumulation (spec §1.1, policy option ``round_down``)::

    G(r) = game points of rounds 1..r       (win 2, jigo 1, loss/unknown 0; forfeits count)
    S(r) = bye/absent points of rounds 1..r (values from the policy or the tournament)
    unpaired-part:  score(r) = G(r) + 2·⌊S(r)/2⌋          (OpenGotha)
    whole-score:    score(r) = 2·⌊(G(r) + S(r))/2⌋        (EGF, read literally)
    none:           score(r) = G(r) + S(r)
    MMS(r) = 2·smms + NBW-like sum with the MMS values

The starting McMahon score is ``clamp(rank, floor, bar) − zero + correction`` in OpenGotha's
rank integers, so with zero 30k a 1d starts on 30 (spec §1.1).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from goledger.ledger.events import TournamentSettings
from goledger.ledger.values import Rank
from goledger.replay.policy import Policy
from goledger.replay.state import GameState, RoundStatus, TournamentState

__all__ = ["RoundEntry", "ScoringContext", "rank_value", "start_mms"]


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


class RoundEntry:
    """One player's round: status, game, opponent, colour and the points it brings.

    ``game_points2`` is what the board gave (0 for an unknown result and for rounds
    without a game); ``handicap_signed`` is +h when the player had White (gave stones),
    −h with Black (spec §2.2 notation).
    """

    __slots__ = ("game", "game_points2", "handicap_signed", "is_white", "opponent", "round", "status")

    def __init__(
        self,
        round_: int,
        status: RoundStatus,
        game: GameState | None = None,
        opponent: str | None = None,
        is_white: bool = False,
        game_points2: int = 0,
        handicap_signed: int = 0,
    ) -> None:
        self.round = round_
        self.status = status
        self.game = game
        self.opponent = opponent
        self.is_white = is_white
        self.game_points2 = game_points2
        self.handicap_signed = handicap_signed

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
    """A state seen at round ``round`` under ``policy``. Cheap to build; criteria fill
    :attr:`values` (criterion name → player id → integer in the criterion's unit) lazily."""

    def __init__(self, state: TournamentState, round_: int, policy: Policy) -> None:
        if state.settings is None:
            raise ValueError("the ledger has no TournamentCreated event")
        self.state = state
        self.round = round_
        self.policy = policy
        self.settings = state.settings_for_round(max(round_, 1))
        self.all_players: list[str] = list(state.players)
        self.values: dict[str, dict[str, int]] = {}
        self.criteria: tuple[str, ...] = ()
        """The placement criteria being ranked on (set by the standings), for criteria that
        depend on the ones before them (direct encounter / comparison)."""
        self.memo: dict[str, Any] = {}
        self.entries: dict[str, list[RoundEntry]] = self._build_entries()
        self.players: list[str] = self._listed_players()
        self.smms: dict[str, int] = {
            pid: start_mms(p.rank, p.mm_correction, self.settings) for pid, p in state.players.items()
        }
        self.nbw2, self.mms2 = self._accumulate()

    # ---------------------------------------------------------------- construction

    def _build_entries(self) -> dict[str, list[RoundEntry]]:
        state = self.state
        entries: dict[str, list[RoundEntry]] = {pid: [] for pid in state.players}
        for r in range(1, self.round + 1):
            paired: dict[str, GameState] = {}
            for game in state.games_of_round(r):
                paired.setdefault(game.white, game)
                paired.setdefault(game.black, game)
            byes = state.byes.get(r, {})
            for pid, player in state.players.items():
                game = paired.get(pid)
                if game is not None:
                    white = game.white == pid
                    pw, pb = game.result.points2()
                    entries[pid].append(
                        RoundEntry(
                            r, "paired", game, game.black if white else game.white, white,
                            pw if white else pb, game.handicap if white else -game.handicap,
                        )
                    )
                elif pid in byes:
                    entries[pid].append(RoundEntry(r, "bye"))
                elif player.is_withdrawn(r):
                    entries[pid].append(RoundEntry(r, "withdrawn"))
                elif r in player.absences:
                    entries[pid].append(RoundEntry(r, "absent"))
                else:
                    entries[pid].append(RoundEntry(r, "not-assigned"))
        return entries

    def _listed_players(self) -> list[str]:
        if self.policy.listed_players == "all":
            return list(self.all_players)
        implied: set[str] = set()
        for tables in self.state.games.values():
            for game in tables.values():
                implied.add(game.white)
                implied.add(game.black)
        for byes in self.state.byes.values():
            implied.update(byes)
        return [pid for pid in self.all_players if pid in implied]

    def unpaired_points2(self, player_id: str, entry: RoundEntry, family: str) -> int:
        """Half-points a round without a game brings in the ``"nbw"`` or ``"mms"`` family."""
        settings = self.state.settings_for_round(entry.round)
        policy = self.policy
        if entry.status == "bye":
            override = self.state.byes.get(entry.round, {}).get(player_id)
            if override is not None:
                return override
            if family == "nbw":
                return settings.nbw2_bye if policy.nbw2_bye is None else policy.nbw2_bye
            return settings.mms2_bye if policy.mms2_bye is None else policy.mms2_bye
        if entry.status == "absent":
            override = self.state.players[player_id].absences.get(entry.round)
            if override is not None:
                return override
        elif (entry.status == "not-assigned" and policy.not_assigned == "zero") or entry.status == "paired":
            return 0
        if family == "nbw":
            return settings.nbw2_absent if policy.nbw2_absent is None else policy.nbw2_absent
        return settings.mms2_absent if policy.mms2_absent is None else policy.mms2_absent

    def round_down_scope(self) -> str:
        if self.policy.round_down is not None:
            return self.policy.round_down
        return "unpaired-part" if self.settings.round_down else "none"

    def _accumulate(self) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        scope = self.round_down_scope()
        nbw2: dict[str, list[int]] = {}
        mms2: dict[str, list[int]] = {}
        for pid, entries in self.entries.items():
            base = 2 * self.smms[pid]
            g = s_nbw = s_mms = 0
            nbw_row = [0]
            mms_row = [base]
            for entry in entries:
                if entry.game is not None:
                    g += entry.game_points2
                else:
                    s_nbw += self.unpaired_points2(pid, entry, "nbw")
                    s_mms += self.unpaired_points2(pid, entry, "mms")
                nbw_row.append(_rounded(g, s_nbw, scope))
                mms_row.append(base + _rounded(g, s_mms, scope))
            nbw2[pid] = nbw_row
            mms2[pid] = mms_row
        return nbw2, mms2

    # ---------------------------------------------------------------- access

    def value(self, criterion: str) -> dict[str, int]:
        """Values of a registered criterion for every player (computed once per context)."""
        found = self.values.get(criterion)
        if found is None:
            from goledger.replay.criteria import get_criterion

            found = get_criterion(criterion).compute(self)
            self.values[criterion] = found
        return found

    def memoized(self, key: str, build: Callable[[], Any]) -> Any:
        """Share an intermediate result between criteria of this context."""
        if key not in self.memo:
            self.memo[key] = build()
        return self.memo[key]


def _rounded(game2: int, unpaired2: int, scope: str) -> int:
    if scope == "unpaired-part":
        return game2 + 2 * (unpaired2 // 2)
    if scope == "whole-score":
        return 2 * ((game2 + unpaired2) // 2)
    return game2 + unpaired2
