"""OpenGotha's ``costValue``: the weight of pairing two players (spec ``pairing.md`` §2.3;
``Tournament.costValue`` of 3.51.02). Higher is better; the matching maximises the sum.

``cost = 1 + dupl + random + balance + categories + score + dudd + seeding + handicap + geo``:

* **dupl** ``paiBaAvoidDuplGame`` if the two have not met before round R;
* **random** ``detRandom(paiBaRandom, p1, p2)`` (0 with the default weight 0); with
  ``paiBaDeterministic`` off OpenGotha draws ``Math.random``, which nobody can replay, so goledger
  draws from the request's seed instead (:func:`seeded_random`: the same seed, the same pairing);
* **balance** ``paiBaBalanceWB`` if the would-be handicap is 0 and the white–black balances
  have strictly opposite signs, half of it if one is 0 and the other at least 2 in size;
* **categories** ``(long)(w·(1−x)·(1+k·x))`` with ``x = |cat1−cat2| / numberOfCategories``,
  only with more than one category (``k = paiStandardNX1Factor``, IEEE doubles);
* **score** the same concavity with ``x = |group1−group2| / numberOfGroups``, same category only;
* **dudd** for groups 1–3 apart: a position term per player (TOP/MID/BOT modes) plus
  ``scenario × paiMaDUDDWeight/5`` (scenario 2, −1 per player already drawn that way, +1 per
  earlier opposite draw it corrects, with ``paiMaCompensateDUDD``), then divided by
  ``(catGap+1)`` four times;
* **seeding** same group only: split and random (``w − detRandom(⌊0.2·w⌋)`` across the
  halves), split and fold (``w − w·x/(n−1)·x/(n−1)``, ``x = c1+c2−(n−1)``) or split and slip
  (``w − w·x/n·x/n``, ``x = 2|c1−c2|−n``), system 1 up to ``paiMaLastRoundForSeedSystem1``;
* **handicap** ``paiSeMinimizeHandicap`` concavity of the pseudo-MMS gap over ``secRange``
  (a player above the thresholds counts as the maximum MMS);
* **geo** ``min(geoMax, scoreWeight − (long)(geoMax·f(geoRatio)))`` from the country and
  club ratios.

All of it is Java ``long`` arithmetic evaluated left to right: truncating division, ``(long)``
casts of doubles (toward zero, saturating), wrap-around on overflow. :func:`cost_terms` does one
pair with Python integers (the explain view); :func:`cost_matrix` does a whole group with
numpy ``int64`` arrays (the engine), and the tests hold both to OpenGotha's own numbers.
"""

from __future__ import annotations

import hashlib
import math
from typing import TYPE_CHECKING

import numpy as np

from goledger.pairing.opengotha.colours import det_random, handicap_of, pseudo_rank
from goledger.pairing.opengotha.facts import MIN_RANK, jdiv

if TYPE_CHECKING:
    from collections.abc import Sequence

    from numpy.typing import NDArray

    from goledger.pairing.opengotha.facts import RoundFacts

__all__ = ["TERMS", "cost_matrix", "cost_terms", "jlong", "seeded_random", "wrap"]

TERMS = ("base", "duplicate", "random", "balance_wb", "categories", "score", "dudd", "seeding", "handicap",
         "geography")
"""The cost terms by name, in ``costValue``'s order (``base`` is the constant 1)."""

_LONG_MIN, _LONG_MAX = -(2**63), 2**63 - 1


def wrap(value: int) -> int:
    """A Python integer reduced to Java ``long`` (two's complement wrap-around).

    >>> wrap(2**63), wrap(-1)
    (-9223372036854775808, -1)
    """
    return ((value + 2**63) % 2**64) - 2**63


def jlong(value: float) -> int:
    """Java's ``(long)`` cast of a double: toward zero, NaN → 0, saturating at the ends.

    >>> jlong(-2.7), jlong(1e30), jlong(float("nan"))
    (-2, 9223372036854775807, 0)
    """
    if math.isnan(value):
        return 0
    if value >= 9.223372036854775807e18:
        return _LONG_MAX
    if value <= -9.223372036854775808e18:
        return _LONG_MIN
    return int(value)


def seeded_random(seed: int, first: str, second: str, maximum: int) -> int:
    """goledger's replayable stand-in for ``Pairing.nonDetRandom(max)``: an integer in
    0 … max from a hash of the seed and the two player ids (in matrix order).

    >>> seeded_random(7, "p0001", "p0002", 10) == seeded_random(7, "p0001", "p0002", 10)
    True
    """
    if maximum <= 0:
        return 0
    digest = hashlib.blake2b(f"{seed}|{first}|{second}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % (maximum + 1)


def _concave(weight: int, x: float, k: float) -> int:
    return jlong(float(weight) * (1.0 - x) * (1.0 + k * x))


def _geo_table(facts: RoundFacts) -> dict[tuple[bool, int], int]:
    """geoCost for (countries differ, club relation: 0 same club, 1 same clubs group, 2 neither)."""
    w = facts.weights
    sco_range = facts.number_of_groups
    out: dict[tuple[bool, int], int] = {}
    for country_differs in (False, True):
        for club in (0, 1, 2):
            country_ratio = 0.0
            if country_differs and w.country_factor != 0:
                country_ratio = min(float(w.country_factor) / float(sco_range), 1.0)
            club_ratio = 0.0
            if club == 1 and w.club_factor != 0:
                club_ratio = float(w.club_factor) / 2.0 / float(sco_range)
            elif club == 2 and w.club_factor != 0:
                club_ratio = float(w.club_factor) * 1.2 / float(sco_range)
            club_ratio = min(club_ratio, 1.0)
            geo_ratio = max(country_ratio, club_ratio) + min(country_ratio, club_ratio) / 2.0
            if geo_ratio > 0.0:
                geo_ratio += 0.5 / float(sco_range)
            db = float(w.avoid_same_geo) * (1.0 - geo_ratio) * (1.0 + w.nx1 * geo_ratio)
            out[(country_differs, club)] = min(wrap(w.minimize_score_difference - jlong(db)), w.avoid_same_geo)
    return out


def _sec_range(facts: RoundFacts) -> int:
    if facts.mcmahon_type:
        return facts.number_of_groups
    return (facts.bar - facts.floor + 2 - (-1)) + facts.rn


def pseudo_mms(facts: RoundFacts, pid: str) -> int:
    """The MMS the handicap term uses: the maximum MMS above the thresholds (rank + wins at
    least ``paiSeRankThreshold``, or wins at least half the rounds when active, or the start
    score at the bar when active), else the McMahon score after round R−1 halved."""
    w = facts.weights
    nbw2 = facts.nbw2[pid]
    threshold = facts.rounds if w.nbw_threshold_active else 2 * facts.rounds
    strong = 2 * facts.rank[pid] + nbw2 >= 2 * w.rank_threshold
    many = nbw2 >= threshold
    above_bar = facts.smms[pid] >= facts.bar - MIN_RANK and w.bar_threshold_active
    if many or strong or above_bar:
        return facts.bar + 2 - MIN_RANK + facts.rn
    return jdiv(facts.mms2[pid], 2)


def _dudd_position(mode: int, weight: int, size: int, inner: int) -> int:
    half = jdiv(weight, 2)
    if mode == 1:
        return jdiv(wrap(half * (size - 1 - inner)), size)
    if mode == 2:
        return jdiv(wrap(half * (size - 1 - abs(2 * inner - size + 1))), size)
    if mode == 3:
        return jdiv(wrap(half * inner), size)
    return 0


def _scenario(facts: RoundFacts, a: str, b: str) -> int:
    ga, gb = facts.group[a], facts.group[b]
    du, dd = facts.du, facts.dd
    s = 2
    if du[a] > 0 and ga > gb:
        s -= 1
    if dd[a] > 0 and ga < gb:
        s -= 1
    if du[b] > 0 and gb > ga:
        s -= 1
    if dd[b] > 0 and gb < ga:
        s -= 1
    if s != 0 and du[a] > 0 and dd[a] < du[a] and ga < gb:
        s += 1
    if s != 0 and dd[a] > 0 and du[a] < dd[a] and ga > gb:
        s += 1
    if s != 0 and du[b] > 0 and dd[b] < du[b] and gb < ga:
        s += 1
    if s != 0 and dd[b] > 0 and du[b] < dd[b] and gb > ga:
        s += 1
    return s


def _scenario_bonus(facts: RoundFacts, scenario: int, unit: int) -> int:
    if scenario == 0:
        return 0
    if scenario == 1:
        return unit
    if scenario == 2 or (scenario > 2 and not facts.weights.compensate_dudd):
        return 2 * unit
    if scenario == 3:
        return 3 * unit
    if scenario == 4:
        return 4 * unit
    return 0


def cost_terms(facts: RoundFacts, a: str, b: str) -> dict[str, int]:
    """Every term of ``costValue(a, b)`` by name (:data:`TERMS`); their sum, wrapped to a
    Java ``long``, is the cost. ``a`` is the player that comes first in OpenGotha's matrix."""
    w = facts.weights
    out = dict.fromkeys(TERMS, 0)
    out["base"] = 1
    if frozenset((a, b)) not in facts.played:
        out["duplicate"] = w.avoid_dupl
    if w.random:
        out["random"] = (det_random(w.random, facts.name_key(a), facts.name_key(b)) if w.deterministic
                         else seeded_random(facts.seed, a, b, w.random))
    if handicap_of(facts, a, b) == 0:
        wb1, wb2 = facts.wb[a], facts.wb[b]
        if wb1 * wb2 < 0:
            out["balance_wb"] = w.balance_wb
        elif (wb1 == 0 and abs(wb2) >= 2) or (wb2 == 0 and abs(wb1) >= 2):
            out["balance_wb"] = jdiv(w.balance_wb, 2)
    ca, cb = facts.category[a], facts.category[b]
    if facts.number_of_categories > 1:
        out["categories"] = _concave(w.avoid_mixing_categories, float(abs(ca - cb)) / float(facts.number_of_categories),
                                     w.nx1)
    ga, gb = facts.group[a], facts.group[b]
    if ca == cb:
        out["score"] = _concave(w.minimize_score_difference, float(abs(ga - gb)) / float(facts.number_of_groups), w.nx1)
    dudd = 0
    if abs(ga - gb) < 4 and ga != gb:
        unit = jdiv(w.dudd_weight, 5)
        upper, lower = (a, b) if ga < gb else (b, a)
        dudd = wrap(_dudd_position(w.dudd_upper_mode, unit, facts.group_size[upper], facts.inner[upper])
                    + _dudd_position(w.dudd_lower_mode, unit, facts.group_size[lower], facts.inner[lower]))
        dudd = wrap(dudd + _scenario_bonus(facts, _scenario(facts, a, b), unit))
    gap = abs(ca - cb) + 1
    for _ in range(4):
        dudd = jdiv(dudd, gap)
    out["dudd"] = dudd
    if ga == gb:
        size, c1, c2 = facts.group_size[a], facts.inner[a], facts.inner[b]
        ms = w.maximize_seeding
        system = w.seed_system1 if facts.rn <= w.last_round_seed1 else w.seed_system2
        if system == 1:
            if (2 * c1 < size <= 2 * c2) or (2 * c1 >= size > 2 * c2):
                rand_range = jlong(float(ms) * 0.2)
                out["seeding"] = wrap(ms - det_random(rand_range, facts.name_key(a), facts.name_key(b)))
        elif system == 2:
            x = c1 + c2 - (size - 1)
            out["seeding"] = wrap(ms - jdiv(wrap(jdiv(wrap(ms * x), size - 1) * x), size - 1))
        elif system == 3:
            x = 2 * abs(c1 - c2) - size
            out["seeding"] = wrap(ms - jdiv(wrap(jdiv(wrap(ms * x), size) * x), size))
    ratio = float(abs(pseudo_mms(facts, a) - pseudo_mms(facts, b))) / float(_sec_range(facts))
    out["handicap"] = _concave(w.minimize_handicap, ratio, w.nx1)
    club = 0 if facts.club[a] == facts.club[b] else (1 if facts.common_group(a, b) else 2)
    out["geography"] = _geo_table(facts)[(facts.country[a] != facts.country[b], club)]
    return out


# ---------------------------------------------------------------------------- matrix

def _tdiv(a: NDArray[np.int64], b: NDArray[np.int64] | int) -> NDArray[np.int64]:
    """Element-wise Java ``long`` division (toward zero); a zero divisor gives 0."""
    bb = np.asarray(b, dtype=np.int64)
    safe = np.where(bb == 0, 1, bb)
    q = np.abs(a) // np.abs(safe)
    q = np.where((a < 0) != (safe < 0), -q, q)
    return np.where(bb == 0, 0, q).astype(np.int64)


def _table_lookup(diffs: NDArray[np.int64], weight: int, denominator: int, k: float) -> NDArray[np.int64]:
    """``(long)(w·(1−x)·(1+k·x))`` with ``x = d/denominator`` for each distinct ``d``."""
    values, inverse = np.unique(diffs, return_inverse=True)
    table = np.array([_concave(weight, float(int(d)) / float(denominator), k) if weight else 0 for d in values],
                     dtype=np.int64)
    return table[inverse.reshape(diffs.shape)]


def cost_matrix(facts: RoundFacts, order: Sequence[str]) -> tuple[NDArray[np.intp], NDArray[np.intp],
                                                                  NDArray[np.int64]]:
    """``costValue(order[i], order[j])`` for every ``i < j``: the index arrays ``i``, ``j`` and
    the costs (numpy ``int64``, wrapping as Java's ``long`` does)."""
    n = len(order)
    ii, jj = np.triu_indices(n, 1)
    with np.errstate(over="ignore"):
        return ii, jj, _costs(facts, order, ii, jj)


def _arr(values: Sequence[int]) -> NDArray[np.int64]:
    return np.asarray(values, dtype=np.int64)


def _costs(facts: RoundFacts, order: Sequence[str], ii: NDArray[np.intp],
           jj: NDArray[np.intp]) -> NDArray[np.int64]:
    weights = facts.weights
    cost = np.ones(len(ii), dtype=np.int64)
    index = {pid: i for i, pid in enumerate(order)}

    # duplicate
    dupl = np.full(len(ii), weights.avoid_dupl, dtype=np.int64)
    if facts.played:
        n = len(order)
        met = []
        for pair in facts.played:
            a, b = tuple(pair)
            ia, ib = index.get(a), index.get(b)
            if ia is not None and ib is not None:
                lo, hi = min(ia, ib), max(ia, ib)
                met.append(lo * n - lo * (lo + 1) // 2 + (hi - lo - 1))
        if met:
            dupl[np.asarray(met, dtype=np.intp)] = 0
    cost += dupl

    # random (deterministic; pair-dependent strings)
    names = [facts.name_key(pid) for pid in order]
    if weights.random and weights.deterministic:
        cost += _det_random_array(weights.random, names, ii, jj)
    elif weights.random:
        cost += _arr([seeded_random(facts.seed, order[i], order[j], weights.random)
                      for i, j in zip(ii.tolist(), jj.tolist(), strict=True)])

    # balance W/B (only when the would-be handicap is 0)
    pr = _arr([pseudo_rank(facts, pid) for pid in order])
    hd = pr[ii] - pr[jj]
    corr, ceil = weights.hd_correction, weights.hd_ceiling
    hd = np.where(hd > 0, np.maximum(hd - corr, 0), hd)
    hd = np.where(hd < 0, np.minimum(hd + corr, 0), hd)
    hd = np.maximum(-ceil, np.minimum(ceil, hd))
    wb = _arr([facts.wb[pid] for pid in order])
    wb1, wb2 = wb[ii], wb[jj]
    full = (wb1 * wb2) < 0
    half = ((wb1 == 0) & (np.abs(wb2) >= 2)) | ((wb2 == 0) & (np.abs(wb1) >= 2))
    bw = np.where(full, weights.balance_wb, np.where(half, jdiv(weights.balance_wb, 2), 0))
    cost += np.where(hd == 0, bw, 0).astype(np.int64)

    # categories
    cat = _arr([facts.category[pid] for pid in order])
    cat_gap = np.abs(cat[ii] - cat[jj])
    if facts.number_of_categories > 1:
        cost += _table_lookup(cat_gap, weights.avoid_mixing_categories, facts.number_of_categories, weights.nx1)

    # score difference (same category)
    grp = _arr([facts.group[pid] for pid in order])
    gap = np.abs(grp[ii] - grp[jj])
    sco = _table_lookup(gap, weights.minimize_score_difference, facts.number_of_groups, weights.nx1)
    cost += np.where(cat_gap == 0, sco, 0)

    # draw-up / draw-down
    size = _arr([facts.group_size[pid] for pid in order])
    inner = _arr([facts.inner[pid] for pid in order])
    mask = (gap < 4) & (gap != 0)
    if mask.any():
        cost += _dudd_array(facts, order, ii[mask], jj[mask], grp, size, inner, cat_gap[mask], mask)

    # seeding (same group)
    same = np.nonzero(gap == 0)[0]
    if len(same):
        cost[same] += _seeding_array(facts, names, ii[same], jj[same], size, inner)

    # handicap (secondary)
    if weights.minimize_handicap:
        pm = _arr([pseudo_mms(facts, pid) for pid in order])
        cost += _table_lookup(np.abs(pm[ii] - pm[jj]), weights.minimize_handicap, _sec_range(facts), weights.nx1)

    # geography
    geo = _geo_table(facts)
    country_codes = _codes([facts.country[pid] for pid in order])
    club_codes = _codes([facts.club[pid] for pid in order])
    country_differs = country_codes[ii] != country_codes[jj]
    club_rel = np.where(club_codes[ii] == club_codes[jj], 0, 2)
    if facts.club_groups:
        masks = _arr([sum(1 << g for g, clubs in enumerate(facts.club_groups) if facts.club[pid] in clubs)
                      for pid in order]) if len(facts.club_groups) < 63 else None
        if masks is not None:
            common = (masks[ii] & masks[jj]) != 0
        else:
            common = np.array([facts.common_group(order[i], order[j]) for i, j in zip(ii, jj, strict=True)], dtype=bool)
        club_rel = np.where((club_rel == 2) & common, 1, club_rel)
    table = np.array([[geo[(False, c)] for c in (0, 1, 2)], [geo[(True, c)] for c in (0, 1, 2)]], dtype=np.int64)
    cost += table[country_differs.astype(np.intp), club_rel]
    return cost


def _codes(values: Sequence[str]) -> NDArray[np.int64]:
    seen: dict[str, int] = {}
    return _arr([seen.setdefault(v, len(seen)) for v in values])


def _det_random_array(maximum: int, names: Sequence[list[int]], ii: NDArray[np.intp],
                      jj: NDArray[np.intp]) -> NDArray[np.int64]:
    """detRandom(max, order[i], order[j]) for each pair: Σ over the concatenation a+b of
    c·(position) = W(a) + W(b) + len(a)·P(b), with W the position-weighted and P the plain sums."""
    weighted = _arr([sum(c * (i + 1) for i, c in enumerate(s)) for s in names])
    plain = _arr([sum(s) for s in names])
    length = _arr([len(s) for s in names])
    rank_of = {tuple(s): r for r, s in enumerate(sorted({tuple(s) for s in names}))}
    rank = _arr([rank_of[tuple(s)] for s in names])
    inverse = rank[ii] > rank[jj]
    first = np.where(inverse, jj, ii)
    second = np.where(inverse, ii, jj)
    total = weighted[first] + weighted[second] + length[first] * plain[second]
    n = (total * 1234567) % (maximum + 1)
    return np.where(inverse, maximum - n, n).astype(np.int64)


def _dudd_array(facts: RoundFacts, order: Sequence[str], ii: NDArray[np.intp], jj: NDArray[np.intp],
                grp: NDArray[np.int64], size: NDArray[np.int64], inner: NDArray[np.int64],
                cat_gap: NDArray[np.int64], mask: NDArray[np.bool_]) -> NDArray[np.int64]:
    w = facts.weights
    du = _arr([facts.du[pid] for pid in order])
    dd = _arr([facts.dd[pid] for pid in order])
    ga, gb = grp[ii], grp[jj]
    dua, dda, dub, ddb = du[ii], dd[ii], du[jj], dd[jj]
    s = np.full(len(ii), 2, dtype=np.int64)
    s -= ((dua > 0) & (ga > gb)).astype(np.int64)
    s -= ((dda > 0) & (ga < gb)).astype(np.int64)
    s -= ((dub > 0) & (gb > ga)).astype(np.int64)
    s -= ((ddb > 0) & (gb < ga)).astype(np.int64)
    s += ((s != 0) & (dua > 0) & (dda < dua) & (ga < gb)).astype(np.int64)
    s += ((s != 0) & (dda > 0) & (dua < dda) & (ga > gb)).astype(np.int64)
    s += ((s != 0) & (dub > 0) & (ddb < dub) & (gb < ga)).astype(np.int64)
    s += ((s != 0) & (ddb > 0) & (dub < ddb) & (gb > ga)).astype(np.int64)
    unit = jdiv(w.dudd_weight, 5)
    upper = np.where(ga < gb, ii, jj)
    lower = np.where(ga < gb, jj, ii)
    total = _position_array(w.dudd_upper_mode, unit, size[upper], inner[upper])
    total = total + _position_array(w.dudd_lower_mode, unit, size[lower], inner[lower])
    if w.compensate_dudd:
        factor = np.select([s == 1, s == 2, s == 3, s == 4], [1, 2, 3, 4], 0)
    else:
        factor = np.select([s == 1, s >= 2], [1, 2], 0)
    total = total + factor.astype(np.int64) * np.int64(unit)
    g = cat_gap + 1
    for _ in range(4):
        total = _tdiv(total, g)
    out = np.zeros(len(mask), dtype=np.int64)
    out[mask] = total
    return out


def _position_array(mode: int, unit: int, size: NDArray[np.int64], inner: NDArray[np.int64]) -> NDArray[np.int64]:
    half = np.int64(jdiv(unit, 2))
    if mode == 1:
        return _tdiv(half * (size - 1 - inner), size)
    if mode == 2:
        return _tdiv(half * (size - 1 - np.abs(2 * inner - size + 1)), size)
    if mode == 3:
        return _tdiv(half * inner, size)
    return np.zeros(len(size), dtype=np.int64)


def _seeding_array(facts: RoundFacts, names: Sequence[list[int]], ii: NDArray[np.intp],
                   jj: NDArray[np.intp], size: NDArray[np.int64], inner: NDArray[np.int64]) -> NDArray[np.int64]:
    w = facts.weights
    ms = np.int64(w.maximize_seeding)
    system = w.seed_system1 if facts.rn <= w.last_round_seed1 else w.seed_system2
    n, c1, c2 = size[ii], inner[ii], inner[jj]
    if system == 1:
        across = ((2 * c1 < n) & (2 * c2 >= n)) | ((2 * c1 >= n) & (2 * c2 < n))
        rand = _det_random_array(jlong(float(w.maximize_seeding) * 0.2), names, ii, jj)
        return np.where(across, ms - rand, 0).astype(np.int64)
    if system == 2:
        x = c1 + c2 - (n - 1)
        return (ms - _tdiv(_tdiv(ms * x, n - 1) * x, n - 1)).astype(np.int64)
    if system == 3:
        x = 2 * np.abs(c1 - c2) - n
        return (ms - _tdiv(_tdiv(ms * x, n) * x, n)).astype(np.int64)
    return np.zeros(len(ii), dtype=np.int64)
