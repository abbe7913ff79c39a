"""What OpenGotha's cost function knows about each player before round R (spec ``pairing.md``
§2.2; ``Tournament.fillPairingInfo``, ``ScoredPlayer``, ``Pairing.wbBalance`` of 3.51.02).

Everything comes from the existing projections: scores and placement criteria from a
:class:`~goledger.replay.scoring.scoring.ScoringContext` under the ``opengotha`` policy (the criteria
are the ones that match OpenGotha on the scoring oracle), ranks as OpenGotha's integers
(30k = −30 … 9d = 8), categories from :func:`~goledger.replay.scoring.scoring.category_index`. This
module only adds what pairing alone needs, computed over **every registered player** as
OpenGotha does (not only those being paired):

* the main score (MMS, NBW or CPS: the first of them in the placement criteria, NBW if
  none) after round R−1, halved with Java's truncating ``/ 2``;
* the score groups: per category 0, 1, … and per main-score level from the maximum down to
  the minimum (McMahon: ``floor − 1 + 30`` … ``bar + 2 + (R−1) + 30``; cup: 0 … 2^(R−1);
  otherwise 0 … R−1), empty levels counted; ``inner`` is the place inside the group on the
  placement criteria plus the additional criterion of the seeding system, ties by name then
  first name;
* draw-ups and draw-downs (``du``/``dd``): earlier games against an opponent whose main
  score before that round was higher/lower;
* the white–black balance of handicap-0 games, and the pairs that already met.

Round numbers: ``round`` is goledger's 1-based R; ``rn = R − 1`` is OpenGotha's 0-based
``roundNumber``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from goledger.replay.scoring.criteria import get_criterion
from goledger.replay.scoring.policies import Policy, get_policy
from goledger.replay.scoring.scoring import ScoringContext, category_index
from goledger.replay.scoring.standings import rank_players, resolve_criteria, tie_key
from goledger.replay.scoring.start_scores import rank_value

if TYPE_CHECKING:
    from collections.abc import Sequence

    from goledger.pairing.opengotha.parameters import Weights
    from goledger.replay.fold.state import TournamentState

__all__ = ["MIN_RANK", "RoundFacts", "jdiv", "pairing_policy", "utf16"]

MIN_RANK = -30
"""``Gotha.MIN_RANK`` (30k)."""
CLUBS_GROUPS_KEY = "opengotha.ClubsGroups.groups"
"""Where an OpenGotha import keeps the clubs groups (JSON ``[[name, [club, …]], …]``)."""
_MAIN = ("NBW", "MMS", "CPS")


def jdiv(a: int, b: int) -> int:
    """Java's integer division: truncates toward zero.

    >>> jdiv(-7, 2), jdiv(7, 2), jdiv(-7, -2)
    (-3, 3, 3)
    """
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def utf16(text: str) -> list[int]:
    """The UTF-16 code units of a string (what Java's ``charAt`` walks).

    >>> utf16("a\\U0001f600")
    [97, 55357, 56832]
    """
    raw = text.encode("utf-16-le")
    return [raw[i] | (raw[i + 1] << 8) for i in range(0, len(raw), 2)]


def pairing_policy(state: TournamentState) -> Policy:
    """The ``opengotha`` policy (with the tournament's overrides when it is the tournament's
    own policy), listing every player so that each one has a place."""
    assert state.settings is not None
    policy = get_policy("opengotha")
    if state.settings.policy == "opengotha":
        policy = policy.with_overrides(dict(state.settings.policy_overrides))
    return policy.with_overrides({"listed_players": "all"})


class RoundFacts:
    """The per-player facts for pairing round ``round`` (see the module docstring). Plain
    dictionaries keyed by player id; built once per pairing."""

    def __init__(self, state: TournamentState, round_: int, weights: Weights, seed: int = 0) -> None:
        assert state.settings is not None
        self.state = state
        self.seed = seed
        """The request's seed: it stands in for ``Math.random`` when ``paiBaDeterministic`` is off."""
        self.round = round_
        self.rn = rn = round_ - 1
        self.weights = weights
        settings = state.settings_for_round(max(round_, 1))
        self.settings = settings
        self.policy = policy = pairing_policy(state)
        self.criteria: tuple[str, ...] = resolve_criteria(state, policy, None)
        self.main = next((c for c in self.criteria if c in _MAIN), "NBW")
        self.mcmahon_type = bool(self.criteria) and self.criteria[0] == "MMS"
        self.rounds = settings.rounds
        self.bar = rank_value(settings.mm_bar)
        self.floor = rank_value(settings.mm_floor)
        limits = tuple(settings.category_limits)
        declared = settings.extras.get("opengotha.GeneralParameterSet.numberOfCategories")
        self.number_of_categories = int(declared) if declared and declared.isdigit() else len(limits) + 1
        players = state.players
        self.ids: list[str] = list(players)

        # Scores and criteria after round R−1 (OpenGotha's getCritValue(crit, rn − 1)).
        self.before = ScoringContext(state, rn, policy, self.criteria)
        before = self.before
        self.rank = {pid: rank_value(p.rank) for pid, p in players.items()}
        cats = self.number_of_categories > 1
        self.category = {pid: category_index(p.rank, limits) if cats else 0 for pid, p in players.items()}
        self.rating = before.value("Rating")
        self.smms = before.smms
        self.mms2 = before.value("MMS")
        self.nbw2 = before.value("NBW")
        self.main2 = before.value(self.main)
        self.surname = {pid: p.surname for pid, p in players.items()}
        self.first_name = {pid: p.first_name for pid, p in players.items()}
        self.country = {pid: p.country.lower() for pid, p in players.items()}
        self.club = {pid: p.club.lower() for pid, p in players.items()}
        self.club_groups = self._club_groups(settings.extras.get(CLUBS_GROUPS_KEY, ""))

        # Main score bounds (fillPairingInfo / makeAutomaticPairing).
        if self.main == "MMS":
            self.score_min = self.floor - 1 - MIN_RANK
            self.score_max = self.bar + 2 + rn - MIN_RANK
        elif self.main == "CPS":
            self.score_min, self.score_max = 0, 2 ** rn
        else:
            self.score_min, self.score_max = 0, rn
        self.main_level = {pid: jdiv(v, 2) for pid, v in self.main2.items()}

        self._groups(weights)
        self._history()

    # ------------------------------------------------------------------ construction

    @staticmethod
    def _club_groups(raw: str) -> list[set[str]]:
        if not raw:
            return []
        try:
            groups = json.loads(raw)
            return [{str(c).lower() for c in clubs} for _, clubs in groups]
        except (ValueError, TypeError):
            return []

    def _placement_key(self, ctx: ScoringContext, names: Sequence[str]) -> dict[str, tuple[Any, ...]]:
        """Per player: the criteria values negated (better sorts first), then the name key."""
        columns = [ctx.value(n) for n in names]
        tie = tie_key(ctx)
        return {pid: (*(-col[pid] for col in columns), *tie(pid)) for pid in self.ids}

    def _groups(self, w: Weights) -> None:
        rn = self.rn
        additional = w.additional_crit1 if rn <= w.last_round_seed1 else w.additional_crit2
        names = list(self.criteria)
        if additional and additional.upper() != "NULL":
            names.append(get_criterion(additional).name)
        key = self._placement_key(self.before, names)
        buckets: dict[tuple[int, int], list[str]] = {}
        for pid in self.ids:
            buckets.setdefault((self.category[pid], self.main_level[pid]), []).append(pid)
        self.group: dict[str, int] = dict.fromkeys(self.ids, 0)
        self.group_size: dict[str, int] = dict.fromkeys(self.ids, 0)
        self.inner: dict[str, int] = dict.fromkeys(self.ids, 0)
        number = 0
        for cat in range(self.number_of_categories):
            for level in range(self.score_max, self.score_min - 1, -1):
                members = buckets.get((cat, level))
                if members:
                    members.sort(key=key.__getitem__)
                    size = len(members)
                    for place, pid in enumerate(members):
                        self.group[pid] = number
                        self.group_size[pid] = size
                        self.inner[pid] = place
                number += 1
        self.number_of_groups = number

    def _history(self) -> None:
        state, rn = self.state, self.rn
        self.wb: dict[str, int] = dict.fromkeys(self.ids, 0)
        self.du: dict[str, int] = dict.fromkeys(self.ids, 0)
        self.dd: dict[str, int] = dict.fromkeys(self.ids, 0)
        self.played: set[frozenset[str]] = set()
        self.byes: dict[str, int] = dict.fromkeys(self.ids, 0)
        for q in range(1, rn + 1):
            games = state.games_of_round(q)
            for pid in state.byes.get(q, {}):
                if pid in self.byes:
                    self.byes[pid] += 1
            if not games:
                continue
            # Main score before round q, i.e. after round q − 1 (scoreBefore in fillPairingInfo).
            before_q = ScoringContext(state, q - 1, self.policy, self.criteria).value(self.main)
            level = {pid: jdiv(v, 2) for pid, v in before_q.items()}
            for g in games:
                if g.white not in self.wb or g.black not in self.wb:
                    continue
                self.played.add(frozenset((g.white, g.black)))
                if g.handicap == 0:
                    self.wb[g.white] += 1
                    self.wb[g.black] -= 1
                lw, lb = level[g.white], level[g.black]
                if lw < lb:
                    self.du[g.white] += 1
                    self.dd[g.black] += 1
                elif lw > lb:
                    self.dd[g.white] += 1
                    self.du[g.black] += 1
        # "Already played" counts the games of every other round, later ones included (issue 40:
        # a round paired after a later one must not repeat its games); only the history above
        # (colours, draw-ups and -downs, byes) stays that of the rounds before R.
        for q in sorted(r for r in state.games if r > rn):
            for g in state.games_of_round(q):
                if g.white in self.wb and g.black in self.wb:
                    self.played.add(frozenset((g.white, g.black)))

    # ------------------------------------------------------------------ queries

    def order(self, players: Sequence[str]) -> list[str]:
        """``players`` in OpenGotha's pairing-list order: the standings after round R−1 on the
        placement criteria (``orderedScoredPlayersList(R−2)``; round 1: the start), exact
        ties by name then first name."""
        wanted = set(players)
        rows = rank_players(self.before, self.criteria).rows
        ordered = [row.player_id for row in rows if row.player_id in wanted]
        seen = set(ordered)
        return ordered + [p for p in players if p not in seen]

    def placement_now(self) -> dict[str, tuple[int, ...]]:
        """Per player, the placement criteria values *at round R* before it is played (what
        ``renumberTablesByBestScoreThenRating`` compares; round R not assigned yet)."""
        ctx = ScoringContext(self.state, self.round, self.policy, self.criteria)
        columns = [ctx.value(n) for n in self.criteria]
        return {pid: tuple(col[pid] for col in columns) for pid in self.ids}

    def common_group(self, a: str, b: str) -> bool:
        """Whether both clubs are in one clubs group (``playersAreInCommonGroup``)."""
        ca, cb = self.club[a], self.club[b]
        return any(ca in g and cb in g for g in self.club_groups)

    def name_key(self, pid: str) -> list[int]:
        """``name + firstName`` as UTF-16 code units (``Pairing.detRandom``'s string)."""
        return utf16(self.surname[pid] + self.first_name[pid])
