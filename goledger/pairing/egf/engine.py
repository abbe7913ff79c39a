"""goledger's own pairing engine, ``egf``: the seeds' rules R1–R14 (spec ``pairing.md`` §1.5)
as integer weights (:class:`~goledger.pairing.egf.parameters.EgfParameters`) and a maximum
weight perfect matching (``rustworkx.max_weight_matching``).

How a round is paired:

1. **Who**: the request's players, in pairing order: main score before the round (MMS in
   McMahon, wins in Swiss and the other systems, in half-points) highest first, then strength
   (rank, rating, registration). A *score group* is a run of equal scores; in round 1 with
   ``round1 = lot`` each group's order is a lot drawn from the seed.
2. **Fixed pairs** (``PairingFixed`` of the round) are placed first and leave the pool.
3. **Bye** (R10), when the rest is odd: the lowest-placed player with the fewest byes — fewest
   byes, then lowest score, then lowest rank, then the latest registered. If the first
   candidate would force a repeat the next ones with as few byes are tried (up to three).
4. **Weights**: for every candidate pair, ``1 +`` the terms of :mod:`~.parameters`
   (computed with numpy over whole chunks, never a Python loop over pairs). A ``forbidden``
   pair, and in a handicap tournament a pair beyond ``max_rank_gap``, gets no edge.
5. **Chunks**: the ordered pool is cut into chunks of about ``chunk_size`` players between
   score groups (a bigger group is cut inside); each is matched on its complete graph. A chunk
   whose best matching is not perfect or repeats a game is merged with its neighbour and matched
   again, up to the whole pool: so a repeat happens only when no repeat-free pairing of the pool
   exists (for the chosen bye).
6. **Games**: handicap (R9, ``handicap = egf``: grade difference − 2 between two players of 15k
   and below, komi 0.5), colours (R6: handicap → the weaker takes Black; a rematch reverses the
   last game's colours; else the player with more whites takes Black; a tie is a seeded coin),
   tables by the pair's best score, then best rank, fixed tables (``TableFixed``, fixed pairs)
   first.

Every random choice is a SHA-256 of the seed and the players' ids: the same log and seed give
the same pairing on every machine.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

import msgspec
import numpy as np

from goledger.errors import CommandRejected
from goledger.pairing.egf.parameters import EgfParameters
from goledger.pairing.engine import ByeChoice, PairedGame, Pairing, PairingRequest, PairTerms
from goledger.replay.scoring.scoring import ScoringContext
from goledger.replay.scoring.standings import resolve_policy
from goledger.replay.scoring.start_scores import rank_value

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from goledger.replay.fold.state import TournamentState

__all__ = ["ENGINE", "EgfEngine"]

VERSION = "1"
BYE_CANDIDATES_KEPT = 10
BYE_TRIES = 3
TERMS = ("no_repeat", "score", "seeding", "draw", "club", "country", "colour", "rank_gap", "favourites")

BYE_RULE = ("the lowest-placed player with the fewest byes: fewest byes, then lowest main score, then "
            "lowest rank, then the latest registered (seeds R10)")


def _member(codes: np.ndarray, sorted_codes: np.ndarray) -> np.ndarray:
    """``codes[k] in sorted_codes`` for every k (a binary search, cheaper than ``np.isin``)."""
    if len(sorted_codes) == 0:
        return np.zeros(len(codes), dtype=bool)
    at = np.minimum(np.searchsorted(sorted_codes, codes), len(sorted_codes) - 1)
    return np.asarray(sorted_codes[at] == codes)


def _coin(seed: int, *ids: str) -> int:
    """A deterministic 64-bit number from the seed and some ids."""
    digest = hashlib.sha256(":".join((str(seed), *ids)).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


class Prepared:
    """Everything the weights need about one request, as numpy arrays over the pool (the
    request's players minus fixed pairs, in pairing order)."""

    def __init__(self, state: TournamentState, request: PairingRequest) -> None:
        if state.settings is None:
            raise CommandRejected("the ledger has no tournament yet")
        round_ = request.round
        self.round = round_
        self.seed = request.seed
        settings = state.settings_for_round(round_)
        self.settings = settings
        own = {k[4:]: v for k, v in settings.pairing.items() if k.startswith("egf.")}
        self.params = params = EgfParameters.from_texts({**own, **request.parameters})
        for pid in request.players:
            if pid not in state.players:
                raise CommandRejected(f"{pid} is not a registered player")
        if len(set(request.players)) != len(request.players):
            raise CommandRejected("a player is named twice in the players to pair")
        ctx = ScoringContext(state, round_ - 1, resolve_policy(state, None))
        rows = ctx.mms2 if settings.system == "mcmahon" else ctx.nbw2
        self.rows = rows
        players = state.players

        def strength(pid: str) -> tuple[int, int, int]:
            p = players[pid]
            return (-rank_value(p.rank), -(p.rating if p.rating is not None else -10**9), p.registered_seq)

        score2 = {pid: rows[pid][round_ - 1] for pid in request.players}
        ordered = self._fixed_then_ordered(state, request, score2, strength)
        self._pool_arrays(state, ordered, score2, strength)
        self._history(state, request, rows, ordered)
        self._constraint_codes(state, ordered)
        self.handicap_on = params.handicap == "egf" and settings.handicap.ceiling > 0

    def _fixed_then_ordered(self, state: TournamentState, request: PairingRequest, score2: dict[str, int],
                            strength: Callable[[str], tuple[int, int, int]]) -> list[str]:
        """The round's fixed pairs (both players in the request, else a refusal) leave the pool; the
        others in pairing order: score, then (round 1 by lot) the coin, then strength."""
        round_, params = self.round, self.params
        # Fixed pairs of the round leave the pool first.
        self.fixed: list[tuple[str, str, int | None]] = []
        wanted = set(request.players)
        for a, (b, table) in sorted(state.fixed_pairs.get(round_, {}).items()):
            if a in wanted and b in wanted:
                self.fixed.append((a, b, table))
            elif a in wanted or b in wanted:
                missing = b if a in wanted else a
                raise CommandRejected(
                    f"round {round_} fixes a game of {a} and {b}, but {missing} is not among the players to pair; "
                    "lift the fixed pairing or pair him first")
        in_fixed = {p for a, b, _ in self.fixed for p in (a, b)}
        lot = round_ == 1 and params.round1 == "lot"
        ordered = sorted((p for p in request.players if p not in in_fixed),
                         key=lambda p: (-score2[p], _coin(self.seed, "lot", p) if lot else 0, strength(p)))
        self.method = "adjacent" if lot else params.seeding
        self.ids: list[str] = ordered
        self.index = {p: i for i, p in enumerate(ordered)}
        return ordered

    def _pool_arrays(self, state: TournamentState, ordered: list[str], score2: dict[str, int],
                     strength: Callable[[str], tuple[int, int, int]]) -> None:
        """Score groups (start, position, size), rank, club and country codes, the bar and the
        favourites, as arrays over the pool."""

        round_, params, settings, players = self.round, self.params, self.settings, state.players
        n = len(ordered)
        self.score2 = np.array([score2[p] for p in ordered], dtype=np.int64)
        self.rank = np.array([rank_value(players[p].rank) for p in ordered], dtype=np.int64)
        group = np.zeros(n, dtype=np.int64)
        pos = np.zeros(n, dtype=np.int64)
        size = np.zeros(n, dtype=np.int64)
        start = 0
        for i in range(1, n + 1):
            if i == n or self.score2[i] != self.score2[start]:
                group[start:i] = start
                pos[start:i] = np.arange(i - start)
                size[start:i] = i - start
                start = i
        self.group, self.pos, self.size = group, pos, size
        self.club = self._codes([players[p].club.strip().casefold() for p in ordered])
        self.country = self._codes([players[p].country.strip().upper() for p in ordered])
        bar = rank_value(settings.mm_bar) if settings.system == "mcmahon" else 99
        self.above_bar = self.rank >= bar
        strongest = set(sorted((p.id for p in players.values() if p.status == "final" and not p.is_withdrawn(round_)),
                               key=strength)[: params.favourites])
        self.favourite = np.array([p in strongest for p in ordered], dtype=bool)
        self.favourites_apart = round_ <= (params.favourites_until or state.rounds // 2)
        self.strength = {p: strength(p) for p in score2}
        self.all_score2 = score2


    def _history(self, state: TournamentState, request: PairingRequest, rows: dict[str, list[int]],
                 ordered: list[str]) -> None:
        """Opponents met, draw-ups and draw-downs, colour balance, last colours and byes of the
        rounds before this one."""
        round_ = self.round
        # History: opponents, draw-ups/downs, colour balance, last colours, byes (rounds < R).
        du = dict.fromkeys(request.players, 0)
        dd = dict.fromkeys(request.players, 0)
        balance = dict.fromkeys(request.players, 0)
        self.byes = dict.fromkeys(request.players, 0)
        self.met: set[frozenset[str]] = set()
        self.last_white: dict[frozenset[str], str] = {}
        for game in state.all_games():
            if game.round == round_ or game.white == game.black:
                continue
            pair = frozenset((game.white, game.black))
            self.met.add(pair)
            if game.round > round_:
                continue
            self.last_white[pair] = game.white  # all_games runs in round order: the last one stays
            w, b = game.white, game.black
            if w in du or b in du:
                sw, sb = rows[w][game.round - 1], rows[b][game.round - 1]
                if sw != sb:
                    down, up = (w, b) if sw > sb else (b, w)
                    if down in dd:
                        dd[down] += 1
                    if up in du:
                        du[up] += 1
                if game.handicap == 0 and game.color_known:
                    if w in balance:
                        balance[w] += 1
                    if b in balance:
                        balance[b] -= 1
        for r, holders in state.byes.items():
            if r < round_:
                for pid in holders:
                    if pid in self.byes:
                        self.byes[pid] += 1
        self.du = np.array([du[p] for p in ordered], dtype=np.int64)
        self.dd = np.array([dd[p] for p in ordered], dtype=np.int64)
        self.balance_of = balance
        self.balance = np.array([balance[p] for p in ordered], dtype=np.int64)

    def _constraint_codes(self, state: TournamentState, ordered: list[str]) -> None:
        """Pairs already met, forbidden and unwanted, as sorted codes ``i * n + j`` (``i < j``)."""
        round_, n = self.round, len(ordered)
        idx = self.index
        self.met_codes = np.array(sorted(
            min(idx[a], idx[b]) * n + max(idx[a], idx[b])
            for a, b in (tuple(pair) for pair in self.met if len(pair) == 2) if a in idx and b in idx), dtype=np.int64)
        forbidden: list[int] = []
        unwanted: list[int] = []
        for a, partners in state.pairing_constraints.items():
            for b in partners:
                if a in idx and b in idx:
                    kind = state.constraint_in(a, b, round_)
                    code = min(idx[a], idx[b]) * n + max(idx[a], idx[b])
                    if kind == "forbidden":
                        forbidden.append(code)
                    elif kind == "unwanted":
                        unwanted.append(code)
        self.forbidden_codes = np.array(sorted(forbidden), dtype=np.int64)
        self.unwanted_codes = np.array(sorted(unwanted), dtype=np.int64)

    @staticmethod
    def _codes(texts: Sequence[str]) -> np.ndarray:
        """Integer codes of texts (−1 for an empty one)."""
        seen: dict[str, int] = {}
        return np.array([-1 if not t else seen.setdefault(t, len(seen)) for t in texts], dtype=np.int64)

    # ----------------------------------------------------------------- weights

    def handicaps(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """R9: the stones of each pair (0 unless ``handicap = egf`` and both are 15k or below)."""
        if not self.handicap_on:
            return np.zeros(len(i), dtype=np.int64)
        ri, rj = self.rank[i], self.rank[j]
        low = (ri <= -15) & (rj <= -15)
        stones = np.clip(np.abs(ri - rj) - 2, 0, min(9, self.settings.handicap.ceiling))
        return np.where(low, stones, 0)

    def weights(self, i: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray], np.ndarray]:
        """For pairs ``(i[k], j[k])`` of pool indices: which may be paired at all, the terms,
        and the totals (``1 + Σ terms``), as int64 arrays."""
        p = self.params
        n = len(self.ids)
        codes = np.minimum(i, j) * n + np.maximum(i, j)
        met = _member(codes, self.met_codes) | _member(codes, self.unwanted_codes)
        allowed = ~_member(codes, self.forbidden_codes)
        s_i, s_j = self.score2[i], self.score2[j]
        d2 = np.abs(s_i - s_j)
        terms: dict[str, np.ndarray] = {}
        terms["no_repeat"] = np.where(met, 0, p.no_repeat)
        terms["score"] = np.maximum(0, p.score - p.score_gap * d2 * d2 // 4)
        same = self.group[i] == self.group[j]
        size, c1, c2 = self.size[i], self.pos[i], self.pos[j]
        if self.method == "fold":
            x, span = c1 + c2 - (size - 1), size - 1
        elif self.method == "slide":
            x, span = 2 * np.abs(c1 - c2) - size, size
        else:
            x, span = np.abs(c1 - c2) - 1, size - 1
        span = np.maximum(span, 1)
        seeding = np.maximum(0, p.seeding_weight * (span * span - x * x) // (span * span))
        terms["seeding"] = np.where(same, seeding, 0)
        upper = np.where(s_i >= s_j, i, j)
        lower = np.where(s_i >= s_j, j, i)
        quarter, half = p.draw // 4, p.draw // 2
        position = self._position(upper, p.draw_down, quarter) + self._position(lower, p.draw_up, quarter)
        scenario = 2 + np.sign(self.du[upper] - self.dd[upper]) + np.sign(self.dd[lower] - self.du[lower])
        terms["draw"] = np.where(same, p.draw, np.where(d2 <= p.draw_span, position + half * scenario // 4, 0))
        exempt = self.above_bar[i] | self.above_bar[j]
        for name, codes_of, weight in (("club", self.club, p.club), ("country", self.country, p.country)):
            a, b = codes_of[i], codes_of[j]
            terms[name] = np.where(exempt | (a < 0) | (b < 0) | (a != b), weight, 0)
        stones = self.handicaps(i, j)
        b_i, b_j = self.balance[i], self.balance[j]
        one_side = ((b_i > 0) & (b_j > 0)) | ((b_i < 0) & (b_j < 0))
        terms["colour"] = np.where(one_side & (stones == 0), 0, p.colour)
        gap = np.abs(self.rank[i] - self.rank[j])
        excess = np.maximum(0, gap - p.max_rank_gap)
        if self.handicap_on:
            allowed &= excess == 0
        terms["rank_gap"] = p.rank_gap * np.maximum(0, 10 - excess) // 10
        both = self.favourite[i] & self.favourite[j]
        terms["favourites"] = np.where(both & self.favourites_apart, 0, p.favourites_weight)
        total = np.ones(len(i), dtype=np.int64)
        for name in TERMS:
            total = total + terms[name]
        return allowed, terms, total

    def _position(self, who: np.ndarray, mode: str, weight: int) -> np.ndarray:
        """R4: ``weight`` when ``who`` stands where ``mode`` wants the drawn player in his group,
        falling linearly to 0 at the other end."""
        size, pos = self.size[who], self.pos[who]
        span = 2 * (size - 1)
        target = np.zeros_like(size) if mode == "top" else (size - 1 if mode == "middle" else span)
        distance = np.abs(2 * pos - target)
        span = np.maximum(span, 1)
        return np.asarray(weight * (span - distance) // span)

    # ----------------------------------------------------------------- matching

    def match(self, members: Sequence[int]) -> tuple[list[tuple[int, int, int]], int, bool, bool]:
        """The best perfect matching of ``members`` (pool indices) on their complete graph:
        (pairs with their weights, total weight, perfect?, repeat-free?)."""
        # rustworkx loads late: only a round matched needs it (numpy is loaded for the weights)
        import rustworkx as rx

        m = len(members)
        if m == 0:
            return [], 0, True, True
        local_i, local_j = np.triu_indices(m, 1)
        arr = np.asarray(members, dtype=np.int64)
        i, j = arr[local_i], arr[local_j]
        allowed, terms, total = self.weights(i, j)
        graph = rx.PyGraph()
        graph.add_nodes_from(range(m))
        keep = np.nonzero(allowed)[0]
        graph.add_edges_from(list(zip(local_i[keep].tolist(), local_j[keep].tolist(), total[keep].tolist(),
                                      strict=True)))
        chosen = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda w: w)
        pairs: list[tuple[int, int, int]] = []
        weight = 0
        repeat_free = True
        no_repeat = terms["no_repeat"]
        for a, b in sorted(tuple(sorted(e)) for e in chosen):
            x, y = int(arr[a]), int(arr[b])
            k = a * m - a * (a + 1) // 2 + (b - a - 1)  # the pair's place in triu_indices order
            pairs.append((x, y, int(total[k])) if x < y else (y, x, int(total[k])))
            weight += int(total[k])
            if int(no_repeat[k]) == 0 and frozenset((self.ids[x], self.ids[y])) in self.met:
                repeat_free = False
        return pairs, weight, 2 * len(pairs) == m, repeat_free

    def chunks_of(self, members: Sequence[int]) -> list[list[int]]:
        """Cut ``members`` (in pairing order) into chunks of about ``chunk_size``, between score
        groups where possible, each of even size. A group bigger than a chunk is cut so that
        each player's ideal partner stays in his piece: for ``fold`` the pieces take players
        from both ends of the group (1, n, 2, n−1, …), for ``slide`` from both halves (1,
        n/2+1, 2, n/2+2, …), for ``adjacent`` (and a round-1 lot) neighbours."""
        limit = max(2, self.params.chunk_size)
        out: list[list[int]] = []
        current: list[int] = []
        groups: list[list[int]] = []
        for x in members:
            if groups and self.score2[groups[-1][-1]] == self.score2[x]:
                groups[-1].append(x)
            else:
                groups.append([x])
        runs: list[list[int]] = []
        for group in groups:
            if len(group) > limit:
                group = self._partners_together(group)
            runs += [group[k:k + limit] for k in range(0, len(group), limit)]
        for run in runs:
            if current and len(current) + len(run) > limit:
                if len(current) % 2:  # one player of the next group is drawn into this chunk
                    current, run = current + run[:1], run[1:]
                out.append(current)
                current = []
            current = current + run
        if current:
            if out and len(current) % 2:
                out[-1] = out[-1] + current
            else:
                out.append(current)
        return out

    def _partners_together(self, group: list[int]) -> list[int]:
        """A big group reordered so that ideal partners under the seeding method sit side by side."""
        n = len(group)
        if self.method == "fold":
            order = [group[k // 2] if k % 2 == 0 else group[n - 1 - k // 2] for k in range(n)]
        elif self.method == "slide":
            half = n // 2
            order = [x for pair in zip(group[:half], group[half:2 * half], strict=True) for x in pair]
            order += group[2 * half:]
        else:
            return group
        return order

    def match_all(self, members: Sequence[int]) -> tuple[list[tuple[int, int, int]], int, list[int], bool, bool]:
        """Match ``members`` chunk by chunk (see the module docstring, step 5): pairs, total
        weight, chunk sizes, perfect?, repeat-free?"""
        chunks = self.chunks_of(members)
        results: list[tuple[list[tuple[int, int, int]], int, bool, bool]] = []
        k = 0
        while k < len(chunks):
            result = self.match(chunks[k])
            good = result[2] and result[3]
            if not good and len(chunks) > 1:
                if k + 1 < len(chunks):
                    chunks[k] = chunks[k] + chunks.pop(k + 1)
                else:
                    chunks[k - 1] = chunks[k - 1] + chunks.pop(k)
                    results.pop()
                    k -= 1
                continue
            results.append(result)
            k += 1
        pairs = [p for r in results for p in r[0]]
        return (pairs, sum(r[1] for r in results), [len(c) for c in chunks], all(r[2] for r in results),
                all(r[3] for r in results))


class EgfEngine:
    """The ``egf`` engine (see the module docstring)."""

    name = "egf"
    version = VERSION

    def __init__(self) -> None:
        self._cache: tuple[tuple[Any, ...], Prepared] | None = None

    def prepared(self, state: TournamentState, request: PairingRequest) -> Prepared:
        """The request's :class:`Prepared` data (the last one is kept for explain views)."""
        key = (id(state), state.seq, request.round, tuple(request.players), request.seed,
               tuple(sorted(request.parameters.items())))
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, Prepared(state, request))
        return self._cache[1]

    def pair(self, state: TournamentState, request: PairingRequest) -> Pairing:
        """Pair the request (the module docstring says how)."""
        prep = self.prepared(state, request)
        everyone = list(range(len(prep.ids)))
        bye: ByeChoice | None = None
        if len(everyone) % 2:
            order = sorted(everyone, key=lambda x: (prep.byes[prep.ids[x]], int(prep.score2[x]), int(prep.rank[x]),
                                                    -state.players[prep.ids[x]].registered_seq))
            keyed = [(prep.ids[x], prep.byes[prep.ids[x]] * 10**6 + int(prep.score2[x]) * 100 + int(prep.rank[x]) + 30)
                     for x in order]
            best: tuple[int, tuple[list[tuple[int, int, int]], int, list[int], bool, bool]] | None = None
            skipped = 0
            fewest = prep.byes[prep.ids[order[0]]]
            tries = [x for x in order[:BYE_TRIES] if prep.byes[prep.ids[x]] == fewest]  # never a second bye first
            for tried, x in enumerate(tries):
                result = self.match_rest(prep, everyone, x)
                if result[3] and best is None:
                    best = (x, result)
                if result[3] and result[4]:
                    best, skipped = (x, result), tried
                    break
            if best is None:
                raise CommandRejected(self._impossible(prep))
            x, (pairs, total, chunks, _, _) = best
            rule = BYE_RULE + (f"; the first {skipped} candidate(s) would have forced a repeat" if skipped else "")
            bye = ByeChoice(player=prep.ids[x], candidates=tuple(keyed[:BYE_CANDIDATES_KEPT]), rule=rule)
        else:
            pairs, total, chunks, perfect, _ = prep.match_all(everyone)
            if not perfect:
                raise CommandRejected(self._impossible(prep))
        games = self._games(state, prep, pairs)
        total += len(prep.fixed)  # a fixed pair weighs 1: the matching never saw it
        return Pairing(engine=self.name, version=self.version, round=request.round, games=tuple(games), bye=bye,
                       total_weight=total, chunks=tuple(chunks), parameters=prep.params.texts(), seed=request.seed)

    @staticmethod
    def match_rest(prep: Prepared, everyone: list[int], bye: int) -> tuple[list[tuple[int, int, int]], int,
                                                                           list[int], bool, bool]:
        """Match everyone but the bye (see :meth:`Prepared.match_all`)."""
        return prep.match_all([x for x in everyone if x != bye])

    @staticmethod
    def _impossible(prep: Prepared) -> str:
        hard = " and the rank gap limit of a handicap tournament" if prep.handicap_on else ""
        return (f"no pairing of round {prep.round} gives every player an opponent while respecting the forbidden "
                f"pairs{hard}; lift a constraint or pair some games by hand")

    def _games(self, state: TournamentState, prep: Prepared, pairs: list[tuple[int, int, int]]) -> list[PairedGame]:
        """Colours, handicap, komi and tables of the matched and the fixed pairs (a fixed
        pair weighs 1: the matching never saw it)."""
        drafts = [(a, b, table, 1) for a, b, table in prep.fixed]
        drafts += [(prep.ids[a], prep.ids[b], None, w) for a, b, w in pairs]
        made: list[tuple[tuple[Any, ...], PairedGame, int | None]] = []
        for a, b, table, weight in drafts:
            white, black, stones = self._colours(state, prep, a, b)
            komi = "0.5" if stones > 0 else None
            s_a, s_b = prep.all_score2[a], prep.all_score2[b]
            key = (-max(s_a, s_b), min(prep.strength[a], prep.strength[b]), a)
            wanted = table or state.fixed_table(a, prep.round) or state.fixed_table(b, prep.round)
            made.append((key, PairedGame(table=0, white=white, black=black, handicap=stones, komi=komi,
                                         weight=weight), wanted))
        made.sort(key=lambda item: item[0])
        taken = set(state.games.get(prep.round, {}))
        out: list[PairedGame] = []
        placed: list[PairedGame | None] = [None] * len(made)
        for k, (_, game, wanted) in enumerate(made):
            if wanted is not None and wanted not in taken:
                taken.add(wanted)
                placed[k] = msgspec.structs.replace(game, table=wanted)
        free = 1
        for k, (_, game, _) in enumerate(made):
            if placed[k] is None:
                while free in taken:
                    free += 1
                taken.add(free)
                placed[k] = msgspec.structs.replace(game, table=free)
        out = [g for g in placed if g is not None]
        out.sort(key=lambda g: g.table)
        return out

    def _colours(self, state: TournamentState, prep: Prepared, a: str, b: str) -> tuple[str, str, int]:
        """(white, black, handicap) of a pair (module docstring, step 6)."""
        players = state.players

        ra, rb = rank_value(players[a].rank), rank_value(players[b].rank)
        stones = 0
        if prep.handicap_on and ra <= -15 and rb <= -15:
            stones = max(0, min(abs(ra - rb) - 2, 9, prep.settings.handicap.ceiling))
        if stones > 0:
            return (a, b, stones) if ra > rb else (b, a, stones)
        last = prep.last_white.get(frozenset((a, b)))
        if last is not None:
            return (b, a, 0) if last == a else (a, b, 0)
        ba, bb = prep.balance_of[a], prep.balance_of[b]
        if ba != bb:
            return (b, a, 0) if ba > bb else (a, b, 0)
        first, second = sorted((a, b))
        return (first, second, 0) if _coin(prep.seed, "colour", first, second) % 2 else (second, first, 0)

    @staticmethod
    def _terms(prep: Prepared, a: str, b: str) -> tuple[int, dict[str, int]]:
        """The weight and terms of a pair (a fixed pair's players are outside the pool: weight
        1, no terms)."""
        if a not in prep.index or b not in prep.index:
            return 1, {}
        _, terms, total = prep.weights(np.array([prep.index[a]]), np.array([prep.index[b]]))
        return int(total[0]), {name: int(values[0]) for name, values in terms.items()}

    def pair_terms(self, state: TournamentState, request: PairingRequest, first: str, second: str) -> PairTerms:
        """The weight of ``first`` against ``second`` in this request, term by term."""
        prep = self.prepared(state, request)
        for pid in (first, second):
            if pid not in request.players:
                raise CommandRejected(f"{pid} is not among the players this pairing matched")
        if first not in prep.index or second not in prep.index:
            return PairTerms(first=first, second=second, total=1, terms={"fixed": 1})
        total, terms = self._terms(prep, first, second)
        return PairTerms(first=first, second=second, total=total, terms=terms)

    def best_alternative(self, state: TournamentState, request: PairingRequest, player: str,
                         exclude: Sequence[str] = ()) -> PairTerms | None:
        """The heaviest pair of ``player`` with anyone of the pool but ``exclude``."""
        prep = self.prepared(state, request)
        if player not in prep.index:
            return None
        me = prep.index[player]
        skip = {prep.index[p] for p in exclude if p in prep.index} | {me}
        others = np.array([x for x in range(len(prep.ids)) if x not in skip], dtype=np.int64)
        if len(others) == 0:
            return None
        allowed, _, total = prep.weights(np.full(len(others), me, dtype=np.int64), others)
        total = np.where(allowed, total, -1)
        k = int(np.argmax(total))
        if total[k] < 0:
            return None
        return self.pair_terms(state, request, player, prep.ids[int(others[k])])


ENGINE = EgfEngine()
