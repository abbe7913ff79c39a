"""FIDE tie-break criteria (C.07; spec ``scoring.md`` §4.2–4.4), named as TRF-2026 spells them.

Units: points criteria in half-points (scale 2), Sonneborn-Berger in quarter points
(scale 4), AOB in hundredths (scale 100), counts and ratings as integers (scale 1).
Unplayed rounds enter Buchholz and Sonneborn-Berger as :mod:`goledger.replay.scoring.fide_unplayed`
says, under the policy's options. In standings after round R every rule speaking of "the
last round" takes round R (policy ``fide_last_round``).

=========  ===========================================================================
PTS        points (the actual score, byes and forfeits included)
BH         Buchholz (8.1): opponents' adjusted scores; own unplayed rounds substituted
BH-C1/C2   Buchholz without the 1/2 least significant values (14.1, VURs first: 16.5)
BH-M1/M2   Buchholz without the 1/2 least and the 1/2 most significant values (14.2)
FB, FB-C1  Fore Buchholz (8.3): as if every paired game of the last round were drawn
AOB        average of the Buchholz of the opponents played over the board (8.2)
SB, SB-C1  Sonneborn-Berger (9.1): Σ opponent's adjusted score × points scored
PS, PS-C1  progressive score (7.5): Σ running scores (PS-C1 without the first)
KS         Koya (9.2): points against opponents with ≥ 50 % of the maximum score
ARO(-C1)   average rating of the opponents played over the board (10.1)
TPR, PTP   tournament performance rating (10.2), perfect tournament performance (10.3)
APRO/APPO  average of the opponents' TPR / PTP (10.4, 10.5)
WIN, WON   rounds won with or without playing (7.1), games won over the board (7.2)
BPG, BWG   games played / won with Black (7.3, 7.4)
REP        rounds elected to play: rounds − requested byes − forfeit losses (7.6)
DE         direct encounter (6): rank inside the group tied on the criteria before DE
KASHDAN    win 4, draw 2, loss 1, unplayed round 2 (policy ``kashdan_points``)
=========  ===========================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from goledger.i18n import N_, gettext, pgettext
from goledger.ledger.values import format_points
from goledger.replay.scoring.criteria import Criterion, Explanation, Term, register
from goledger.replay.scoring.criteria.fide_rating import perfect_performance, round_half_up, tournament_performance
from goledger.replay.scoring.fide_unplayed import FideData, FideRound, Kind, fide_data

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from goledger.replay.scoring.scoring import ScoringContext

__all__ = [
    "Part",
    "apply_cuts",
    "bh_parts",
    "cut_sb",
    "de_order",
    "direct_encounter_points",
    "progressive",
    "sb_parts",
]


@dataclass(slots=True)
class Part:
    """One round's contribution to BH or SB: its value, whether it comes from a voluntary
    unplayed round (VUR, cut first), the opponent score behind it and where it comes from."""

    round: int
    value: int
    vur: bool
    source: str
    rule: str
    opponent: str | None = None
    score2: int = 0
    factor2: int = 0
    detail: dict[str, object] = field(default_factory=dict)


# --------------------------------------------------------------------------- building blocks


def _points(value2: int) -> str:
    return format_points(value2, 2)


def outcome_word(outcome: str) -> str:
    """A game's outcome for the player (``win``, ``draw``, ``loss``) in words."""
    return {"win": gettext("win"), "loss": gettext("loss"), "draw": pgettext("game outcome", "draw")}.get(
        outcome, outcome)


def _game_word(fr: FideRound) -> str:
    """``game win``, ``game loss``… for a game, the category for an unplayed round."""
    if fr.kind is not Kind.GAME:
        return fr.kind.category_word
    return gettext("game %(outcome)s") % {"outcome": outcome_word(fr.outcome)}


def _detail(fr: FideRound) -> dict[str, object]:
    detail: dict[str, object] = {"kind": fr.kind.value}
    if fr.category is not None:
        detail["category"] = fr.category
        detail["vur"] = fr.kind.vur
    if fr.kind.has_opponent and fr.opponent is not None:
        detail["scheduled_opponent"] = fr.opponent
    return detail


def _opponent_part(data: FideData, fr: FideRound, value: int) -> tuple[str, str]:
    assert fr.opponent is not None
    view = data.opponent_view
    actual = view.score2[fr.opponent]
    adjusted = view.adjusted2[fr.opponent]
    if actual == adjusted:
        source = gettext("opponent's score %(score)s after round %(round)d") % {
            "score": _points(adjusted), "round": view.round}
    else:
        source = gettext("opponent's adjusted score %(score)s (actual %(actual)s) after round %(round)d") % {
            "score": _points(adjusted), "actual": _points(actual), "round": view.round}
    if fr.kind.unplayed:
        source += "; " + gettext("%(category)s counted as a game") % {"category": fr.kind.category_word}
    rule = {
        "none": gettext("opponent's actual score"),
        "all-unplayed-as-draw": gettext("opponent's unplayed rounds count as draws (C.02 §13.15, 2009)"),
        "withdrawal-as-draw": gettext("opponent's category-5 rounds count as draws (C.07 16.3)"),
    }[data.adjustment]
    return source, rule


def bh_parts(data: FideData, pid: str, texts: bool = False) -> list[Part]:
    """Per-round Buchholz contributions of ``pid`` (half-points); ``texts`` adds the words
    ``explain`` shows (the values are the same without them, only faster)."""
    parts: list[Part] = []
    round_robin = data.round_robin
    for fr in data.rounds[pid]:
        vur = fr.kind.vur and not round_robin
        if data.counts_as_game(fr) and fr.opponent is not None:
            value = data.opponent_score2(fr.opponent)
            if texts:
                source, rule = _opponent_part(data, fr, value)
                parts.append(Part(fr.round, value, vur, source, rule, fr.opponent, value, fr.points2, _detail(fr)))
            else:
                parts.append(Part(fr.round, value, vur, "", "", fr.opponent, value, fr.points2))
        else:
            sub = data.substitute(pid, fr)
            source = f"{fr.kind.category_word}: {sub.source}" if texts else ""
            parts.append(Part(fr.round, sub.value2, vur, source, sub.rule, None, sub.value2, fr.points2,
                              _detail(fr) if texts else {}))
    return parts


def sb_parts(data: FideData, pid: str, texts: bool = False) -> list[Part]:
    """Per-round Sonneborn-Berger products of ``pid`` (quarter points): the opponent's
    adjusted score (or the own-unplayed substitute) × the points scored in the round."""
    decisive = data.policy.sodos_weighting == "decisive-wins"
    parts: list[Part] = []
    for fr in data.rounds[pid]:
        vur = fr.kind.vur and not data.round_robin
        factor = (2 if fr.won and fr.kind.has_opponent else 0) if decisive else fr.points2
        as_game = data.counts_as_game(fr) and fr.opponent is not None
        if as_game:
            score = data.opponent_score2(fr.opponent)  # type: ignore[arg-type]
            source, rule = _opponent_part(data, fr, score) if texts else ("", "")
        else:
            sub = data.substitute(pid, fr, for_sb=True)
            score, source, rule = sub.value2, f"{fr.kind.category_word}: {sub.source}" if texts else "", sub.rule
        if texts:
            source = gettext("%(source)s × points scored %(points)s") % {"source": source, "points": _points(factor)}
        parts.append(Part(fr.round, score * factor, vur, source, rule, fr.opponent if as_game else None,
                          score, factor, _detail(fr) if texts else {}))
    return parts


def apply_cuts(parts: list[Part], low: int, high: int, vur_first: bool) -> tuple[list[Part], list[Part]]:
    """Drop ``low`` least and ``high`` most significant values (C.07 14). With ``vur_first``
    the lowest VUR contribution is cut before any other low value (16.5).

    >>> ps = [Part(r, v, False, "", "") for r, v in enumerate([4, 6, 7, 8, 10], 1)]
    >>> [sum(p.value for p in apply_cuts(ps, lo, hi, True)[0]) for lo, hi in ((0, 0), (1, 0), (2, 0), (1, 1), (2, 2))]
    [35, 31, 25, 21, 7]
    """
    kept = list(parts)
    cut: list[Part] = []
    for _ in range(low):
        if not kept:
            break
        pool = [p for p in kept if p.vur] if vur_first else []
        victim = min(pool or kept, key=lambda p: (p.value, p.round))
        kept.remove(victim)
        cut.append(victim)
    for _ in range(high):
        if not kept:
            break
        victim = max(kept, key=lambda p: (p.value, -p.round))
        kept.remove(victim)
        cut.append(victim)
    return kept, cut


def cut_sb(parts: list[Part], vur_first: bool) -> tuple[list[Part], list[Part]]:
    """SB-C1 (C.07 14.1, 16.5): the least significant value is the product of the opponent
    with the lowest score (the lowest product among equals); with ``vur_first`` the lowest
    VUR product is compared with it and the higher of the two is cut."""
    if not parts:
        return [], []
    lsv = min(parts, key=lambda p: (p.score2, p.value, p.round))
    victim = lsv
    if vur_first:
        vurs = [p for p in parts if p.vur]
        if vurs:
            lowest_vur = min(vurs, key=lambda p: (p.value, p.round))
            if lowest_vur.value > lsv.value:
                victim = lowest_vur
    return [p for p in parts if p is not victim], [victim]


def _vur_first(data: FideData) -> bool:
    return data.policy.cut_rule == "vur-first" and not data.round_robin


def _explain_parts(
    ctx: ScoringContext, name: str, pid: str, scale: int, rule: str, kept: list[Part], cut: list[Part]
) -> Explanation:
    terms = [Term(p.round, p.value, p.source, p.opponent, p.rule, p.detail) for p in sorted(kept + cut,
                                                                                          key=lambda p: p.round)]
    for p in cut:
        why = (gettext("voluntary unplayed round cut first (C.07 16.5)") if p.vur
               else gettext("least/most significant value (C.07 14)"))
        terms.append(Term(p.round, -p.value, gettext("cut round %(round)d") % {"round": p.round}, p.opponent, why))
    value = sum(p.value for p in kept)
    return Explanation(name, pid, ctx.round, value, scale, rule, tuple(terms))


# --------------------------------------------------------------------------- Buchholz family


def _buchholz_rule(low: int, high: int, fore: bool) -> str:
    """The rule of a Buchholz criterion, in the language written in."""
    rule = gettext("Buchholz (C.07 8.1): sum of the opponents' adjusted scores; own unplayed rounds per article 16")
    if fore:
        rule = gettext("Fore Buchholz (C.07 8.3): Buchholz as if every paired game of the last round were drawn")
    if high:
        rule += "; " + gettext("cut %(low)d lowest and %(high)d highest") % {"low": low, "high": high}
    elif low:
        rule += "; " + gettext("cut %(low)d lowest") % {"low": low}
    return rule


def _buchholz(name: str, low: int, high: int, *, fore: bool = False) -> Criterion:
    rule = _buchholz_rule(low, high, fore)

    def parts_of(ctx: ScoringContext, pid: str, texts: bool = False) -> tuple[list[Part], list[Part]]:
        data = fide_data(ctx, fore=fore)
        return apply_cuts(bh_parts(data, pid, texts), low, high, _vur_first(data))

    def compute(ctx: ScoringContext) -> dict[str, int]:
        if not low and not high:
            data = fide_data(ctx, fore=fore)
            return {pid: sum(p.value for p in bh_parts(data, pid)) for pid in ctx.state.players}
        return {pid: sum(p.value for p in parts_of(ctx, pid)[0]) for pid in ctx.state.players}

    def explain(ctx: ScoringContext, pid: str) -> Explanation:
        kept, cut = parts_of(ctx, pid, texts=True)
        return _explain_parts(ctx, name, pid, 2, _buchholz_rule(low, high, fore), kept, cut)

    return Criterion(name, 2, compute, explain, rule, aliases=(name.replace("-", "/"),))


for _name, _low, _high in (("BH", 0, 0), ("BH-C1", 1, 0), ("BH-C2", 2, 0), ("BH-M1", 1, 1), ("BH-M2", 2, 2)):
    register(_buchholz(_name, _low, _high))
register(_buchholz("FB", 0, 0, fore=True))
register(_buchholz("FB-C1", 1, 0, fore=True))


# --------------------------------------------------------------------------- Sonneborn-Berger


def _sonneborn_rule(cut: bool) -> str:
    rule = gettext("Sonneborn-Berger (C.07 9.1): Σ opponent's adjusted score × points scored against him")
    if cut:
        rule += "; " + gettext("the product of the lowest-score opponent cut (VUR exception, C.07 16.5)")
    return rule


def _sonneborn(name: str, cut: bool) -> Criterion:
    rule = _sonneborn_rule(cut)

    def parts_of(ctx: ScoringContext, pid: str, texts: bool = False) -> tuple[list[Part], list[Part]]:
        data = fide_data(ctx)
        parts = sb_parts(data, pid, texts)
        return cut_sb(parts, _vur_first(data)) if cut else (parts, [])

    def compute(ctx: ScoringContext) -> dict[str, int]:
        return {pid: sum(p.value for p in parts_of(ctx, pid)[0]) for pid in ctx.state.players}

    def explain(ctx: ScoringContext, pid: str) -> Explanation:
        kept, cut_parts = parts_of(ctx, pid, texts=True)
        return _explain_parts(ctx, name, pid, 4, _sonneborn_rule(cut), kept, cut_parts)

    return Criterion(name, 4, compute, explain, rule, aliases=(name.replace("-", "/"),))


register(_sonneborn("SB", False))
register(_sonneborn("SB-C1", True))


# --------------------------------------------------------------------------- simple sums


def _simple(
    name: str,
    scale: int,
    rule: str,
    terms_of: Callable[[ScoringContext, FideData, str], Iterable[Term]],
    aliases: tuple[str, ...] = (),
) -> Criterion:
    """A criterion whose value is the sum of its explanation's terms."""

    def compute(ctx: ScoringContext) -> dict[str, int]:
        data = fide_data(ctx)
        return {pid: sum(t.value for t in terms_of(ctx, data, pid)) for pid in ctx.state.players}

    def explain(ctx: ScoringContext, pid: str) -> Explanation:
        terms = tuple(terms_of(ctx, fide_data(ctx), pid))
        return Explanation(name, pid, ctx.round, sum(t.value for t in terms), scale, gettext(rule) % {}, terms)

    return Criterion(name, scale, compute, explain, rule % {}, aliases=aliases)


def _pts_terms(ctx: ScoringContext, data: FideData, pid: str) -> list[Term]:
    terms = []
    for fr in data.rounds[pid]:
        terms.append(Term(fr.round, fr.points2, _game_word(fr), fr.opponent,
                          gettext("points awarded (policy point_system)"), _detail(fr)))
    return terms


register(_simple("PTS", 2, N_("points: the actual score, byes and forfeits included"), _pts_terms, ("POINTS",)))


def progressive(data: FideData, pid: str, cut_first: int = 0) -> int:
    """Progressive score in half-points: Σ of the running scores after each round, without
    the first ``cut_first`` of them (spec §4.2: 1, 0, 1, 1 → 1+1+2+3 = 7)."""
    running = data.running2[pid]
    return sum(running[1 + cut_first:])


def _ps_terms(cut_first: int) -> Callable[[ScoringContext, FideData, str], list[Term]]:
    def terms(ctx: ScoringContext, data: FideData, pid: str) -> list[Term]:
        running = data.running2[pid]
        return [
            Term(r, running[r], gettext("score after round %(round)d") % {"round": r},
                 rule=gettext("progressive score (C.07 7.5)"))
            for r in range(1 + cut_first, len(running))
        ]

    return terms


register(_simple("PS", 2, N_("progressive score (C.07 7.5): Σ of the running scores"), _ps_terms(0)))
register(_simple("PS-C1", 2, N_("progressive score without the score after round 1 (C.07 7.5, 14.1)"), _ps_terms(1),
                 ("PS/C1",)))


def koya_counts(data: FideData, fr: FideRound) -> bool:
    """Does a round with a scheduled opponent count in Koya? Games (and games without a result)
    always; a forfeit under ``koya_forfeits="count"`` (TieBreakServer: every round with a
    scheduled opponent), and under ``"exclude"`` only with pre-determined pairings, where
    forfeits are games (C.07 15)."""
    if fr.kind in (Kind.GAME, Kind.PENDING):
        return True
    if not fr.kind.has_opponent:
        return False
    return data.policy.koya_forfeits == "count" or data.round_robin


def _koya_terms(ctx: ScoringContext, data: FideData, pid: str) -> list[Term]:
    view = data.opponent_view
    limit = data.policy.koya_limit_percent
    maximum2 = data.points.win2 * view.round
    terms = []
    for fr in data.rounds[pid]:
        if fr.opponent is None or not koya_counts(data, fr):
            continue
        opp2 = view.score2[fr.opponent]
        if opp2 * 100 >= limit * maximum2:
            terms.append(Term(fr.round, fr.points2, gettext(
                "points against %(opponent)s (%(score)s ≥ %(limit)s %% of %(maximum)s)") % {
                    "opponent": fr.opponent, "score": _points(opp2), "limit": limit, "maximum": _points(maximum2)},
                fr.opponent, "Koya (C.07 9.2)"))
    return terms


register(_simple("KS", 2, N_("Koya (C.07 9.2): points scored against opponents with at least 50 %% of the maximum"),
                 _koya_terms, ("KOYA",)))


def _count_terms(rule: str, keep: Callable[[FideData, FideRound], bool]) -> Callable[..., list[Term]]:
    def terms(ctx: ScoringContext, data: FideData, pid: str) -> list[Term]:
        return [Term(fr.round, 1, _game_word(fr), fr.opponent, gettext(rule), _detail(fr))
                for fr in data.rounds[pid] if keep(data, fr)]

    return terms


def _played_for_type_b(data: FideData, fr: FideRound) -> bool:
    """A game for type-B tie-breaks: played over the board; in a round robin a forfeit win too
    (with pre-determined pairings only forfeit losses are unplayed, C.07 15)."""
    return fr.kind is Kind.GAME or (data.round_robin and fr.kind is Kind.FORFEIT_WIN)


register(_simple("WIN", 1, N_("rounds won with or without playing (C.07 7.1)"),
                 _count_terms(N_("win points obtained (C.07 7.1)"), lambda d, fr: fr.won)))
register(_simple("WON", 1, N_("games won over the board (C.07 7.2)"),
                 _count_terms(N_("game won (C.07 7.2)"), lambda d, fr: fr.won and _played_for_type_b(d, fr))))
register(_simple("BPG", 1, N_("games played with Black (C.07 7.3)"),
                 _count_terms(N_("played with Black (C.07 7.3)"),
                              lambda d, fr: fr.white is False and _played_for_type_b(d, fr))))
register(_simple("BWG", 1, N_("games won with Black (C.07 7.4)"),
                 _count_terms(N_("won with Black (C.07 7.4)"),
                              lambda d, fr: fr.white is False and fr.won and _played_for_type_b(d, fr))))
register(_simple("REP", 1, N_("rounds elected to play: rounds minus requested byes and forfeit losses (C.07 7.6)"),
                 _count_terms(N_("round elected to play (C.07 7.6)"), lambda d, fr: not fr.kind.vur)))


def _kashdan_terms(ctx: ScoringContext, data: FideData, pid: str) -> list[Term]:
    win, draw, loss, unplayed = data.policy.kashdan_points
    terms = []
    for fr in data.rounds[pid]:
        if fr.kind is Kind.GAME:
            value = {"win": win, "draw": draw, "loss": loss}[fr.outcome]
            what = _game_word(fr)
        elif fr.kind is Kind.PENDING:
            value, what = 0, fr.kind.category_word
        else:
            value, what = unplayed, gettext("unplayed (%(category)s)") % {"category": fr.kind.category_word}
        terms.append(Term(fr.round, value, what, fr.opponent, gettext(
            "Kashdan: win %(win)s, draw %(draw)s, loss %(loss)s, unplayed %(unplayed)s (policy kashdan_points)") % {
                "win": win, "draw": draw, "loss": loss, "unplayed": unplayed}))
    return terms


register(_simple("KASHDAN", 1, N_("Kashdan score (policy kashdan_points: win, draw, loss, unplayed)"), _kashdan_terms))


# --------------------------------------------------------------------------- rating-based


def _rated_games(ctx: ScoringContext, data: FideData, pid: str) -> list[tuple[FideRound, int]]:
    """Games played over the board against rated opponents (forfeits are unplayed for every
    rating-based tie-break, C.07 15), with the opponent's rating."""
    default = data.policy.unrated_opponent_rating
    games = []
    for fr in data.rounds[pid]:
        if fr.kind is not Kind.GAME or fr.opponent is None:
            continue
        rating = ctx.state.players[fr.opponent].rating or default
        if rating:
            games.append((fr, rating))
    return games


def _unrated_played(ctx: ScoringContext, data: FideData, pid: str) -> FideRound | None:
    """The first round the player met an unrated opponent over the board while unrated
    opponents are left out (``unrated_opponent_rating`` None), else None."""
    if data.policy.unrated_opponent_rating:
        return None
    for fr in data.rounds[pid]:
        if fr.kind is Kind.GAME and fr.opponent is not None and not ctx.state.players[fr.opponent].rating:
            return fr
    return None


def _aro(cut: bool) -> Callable[[ScoringContext, str], tuple[int, list[Term]]]:
    def value(ctx: ScoringContext, pid: str) -> tuple[int, list[Term]]:
        data = fide_data(ctx)
        games = _rated_games(ctx, data, pid)
        terms = [Term(fr.round, rating, gettext("rating of %(opponent)s") % {"opponent": fr.opponent}, fr.opponent,
                      gettext("opponent played over the board")) for fr, rating in games]
        ratings = [rating for _, rating in games]
        unrated = _unrated_played(ctx, data, pid) if cut and data.policy.aro_cut_unrated == "unrated-first" else None
        if unrated is not None:
            terms.append(Term(unrated.round, 0, gettext("cut: unrated %(opponent)s") % {"opponent": unrated.opponent},
                              unrated.opponent,
                              gettext("C.07 14.1: the unrated opponent is the value cut (policy aro_cut_unrated)")))
        elif cut and ratings:
            lowest = min(range(len(ratings)), key=lambda i: (ratings[i], i))
            terms.append(Term(games[lowest][0].round, -ratings[lowest], gettext("cut: lowest rating"),
                              rule="C.07 14.1"))
            ratings.pop(lowest)
        if not ratings:
            return 0, terms
        return round_half_up(Fraction(sum(ratings), len(ratings))), terms

    return value


def _performance(kind: str) -> Callable[[ScoringContext, str], tuple[int, list[Term]]]:
    def value(ctx: ScoringContext, pid: str) -> tuple[int, list[Term]]:
        data = fide_data(ctx)
        games = _rated_games(ctx, data, pid)
        ratings = [rating for _, rating in games]
        score = Fraction(sum(fr.points2 for fr, _ in games), data.points.win2 or 2)
        terms = [Term(fr.round, rating, gettext("%(outcome)s against %(opponent)s rated %(rating)s") % {
                          "outcome": outcome_word(fr.outcome), "opponent": fr.opponent, "rating": rating},
                      fr.opponent, gettext("game played over the board")) for fr, rating in games]
        found = tournament_performance(ratings, score) if kind == "TPR" else perfect_performance(ratings, score)
        return (found or 0), terms

    return value


def _average_of(criterion: str) -> Callable[[ScoringContext, str], tuple[int, list[Term]]]:
    def value(ctx: ScoringContext, pid: str) -> tuple[int, list[Term]]:
        data = fide_data(ctx)
        values = ctx.value(criterion)
        terms = []
        numbers = []
        for fr in data.rounds[pid]:
            if fr.kind is Kind.GAME and fr.opponent is not None and values.get(fr.opponent):
                numbers.append(values[fr.opponent])
                terms.append(Term(fr.round, values[fr.opponent], gettext("%(criterion)s of %(opponent)s") % {
                    "criterion": criterion, "opponent": fr.opponent}, fr.opponent,
                    gettext("opponent played over the board")))
        if not numbers:
            return 0, terms
        return round_half_up(Fraction(sum(numbers), len(numbers))), terms

    return value


def _averaged(name: str, rule: str, fn: Callable[[ScoringContext, str], tuple[int, list[Term]]],
              aliases: tuple[str, ...] = ()) -> Criterion:
    def compute(ctx: ScoringContext) -> dict[str, int]:
        return {pid: fn(ctx, pid)[0] for pid in ctx.state.players}

    def explain(ctx: ScoringContext, pid: str) -> Explanation:
        total, terms = fn(ctx, pid)
        return Explanation(name, pid, ctx.round, total, 1, gettext(rule), tuple(terms))

    return Criterion(name, 1, compute, explain, rule, aliases=aliases)


register(_averaged("ARO", N_("average rating of the opponents played over the board, rounded half up (C.07 10.1)"),
                   _aro(False)))
register(_averaged("ARO-C1", N_("ARO without the lowest-rated opponent (C.07 10.1, 14.1)"), _aro(True), ("ARO/C1",)))
register(_averaged("TPR", N_("tournament performance rating: ARO + dp(p) of FIDE table 8.1(a) (C.07 10.2)"),
                   _performance("TPR")))
register(_averaged("PTP", N_("perfect tournament performance: lowest rating expecting the score (C.07 10.3)"),
                   _performance("PTP")))
register(_averaged("APRO", N_("average of the opponents' TPR, rounded half up (C.07 10.4)"), _average_of("TPR")))
register(_averaged("APPO", N_("average of the opponents' PTP, rounded half up (C.07 10.5)"), _average_of("PTP")))


def _aob(ctx: ScoringContext, pid: str) -> tuple[int, list[Term]]:
    data = fide_data(ctx)
    bh = ctx.value("BH")
    terms = []
    total = 0
    count = 0
    for fr in data.rounds[pid]:
        if fr.kind is Kind.GAME and fr.opponent is not None:
            total += bh[fr.opponent]
            count += 1
            terms.append(Term(fr.round, bh[fr.opponent] * 50, gettext("BH %(value)s of %(opponent)s") % {
                "value": _points(bh[fr.opponent]), "opponent": fr.opponent}, fr.opponent,
                gettext("opponent played over the board")))
    if not count:
        return 0, terms
    return round_half_up(Fraction(total * 50, count)), terms


def _aob_criterion() -> Criterion:
    rule = N_("average of the Buchholz of the opponents played over the board, in hundredths, half up (C.07 8.2)")

    def compute(ctx: ScoringContext) -> dict[str, int]:
        return {pid: _aob(ctx, pid)[0] for pid in ctx.state.players}

    def explain(ctx: ScoringContext, pid: str) -> Explanation:
        total, terms = _aob(ctx, pid)
        return Explanation("AOB", pid, ctx.round, total, 100, gettext(rule), tuple(terms))

    return Criterion("AOB", 100, compute, explain, rule)


register(_aob_criterion())


# --------------------------------------------------------------------------- direct encounter


def direct_encounter_points(data: FideData, group: Iterable[str]) -> tuple[dict[str, Fraction], set[frozenset[str]]]:
    """Points each member scored against the others (C.07 6): a pair that met several times
    counts the average of its games; forfeits only with policy ``fide_de_forfeits``.
    Returns the points and the set of pairs that met."""
    members = set(group)
    include_forfeits = data.policy.fide_de_forfeits
    games: dict[tuple[str, str], list[int]] = {}
    for pid in members:
        for fr in data.rounds[pid]:
            if fr.opponent not in members:
                continue
            if fr.kind is Kind.GAME or (include_forfeits and fr.kind.has_opponent and fr.kind is not Kind.PENDING):
                games.setdefault((pid, fr.opponent), []).append(fr.points2)
    points = {pid: Fraction(0) for pid in members}
    met: set[frozenset[str]] = set()
    for (pid, opp), values in games.items():
        points[pid] += Fraction(sum(values), 2 * len(values))
        met.add(frozenset((pid, opp)))
    return points, met


def de_order(data: FideData, group: Iterable[str]) -> list[list[str]]:
    """Tie classes of ``group``, best first, by direct encounter (C.07 6).

    If all members met, the encounter points decide, re-applied to every sub-group still
    tied. Otherwise a member who stays alone on top whatever the missing games give is
    ranked first, and the rule is applied again to the others; when nobody is sure to be
    first the rest stay tied.
    """
    members = sorted(group)
    if len(members) <= 1:
        return [members] if members else []
    points, met = direct_encounter_points(data, members)
    pairs = [frozenset((a, b)) for i, a in enumerate(members) for b in members[i + 1:]]
    if all(pair in met for pair in pairs):
        by_points: dict[Fraction, list[str]] = {}
        for pid in members:
            by_points.setdefault(points[pid], []).append(pid)
        if len(by_points) == 1:
            return [members]
        classes: list[list[str]] = []
        for value in sorted(by_points, reverse=True):
            classes.extend(de_order(data, by_points[value]))
        return classes
    win = Fraction(data.points.win2, 2)
    missing = {pid: sum(1 for other in members if other != pid and frozenset((pid, other)) not in met)
               for pid in members}
    for pid in members:
        if all(points[pid] > points[other] + win * missing[other] for other in members if other != pid):
            return [[pid], *de_order(data, [m for m in members if m != pid])]
    return [members]


def _tie_groups(ctx: ScoringContext, before: tuple[str, ...]) -> list[list[str]]:
    players = list(ctx.state.players)
    if not before:
        return [players]
    columns = [ctx.value(name) for name in before]
    groups: dict[tuple[int, ...], list[str]] = {}
    for pid in players:
        groups.setdefault(tuple(col[pid] for col in columns), []).append(pid)
    return list(groups.values())


def _criteria_before_de(ctx: ScoringContext) -> tuple[str, ...]:
    placement: tuple[str, ...] = tuple(getattr(ctx, "criteria", ()) or ())
    if "DE" in placement:
        return placement[: placement.index("DE")]
    return ("PTS",)


def _de_values(ctx: ScoringContext) -> tuple[dict[str, int], dict[str, list[str]]]:
    def build() -> tuple[dict[str, int], dict[str, list[str]]]:
        data = fide_data(ctx)
        values: dict[str, int] = {}
        group_of: dict[str, list[str]] = {}
        for group in _tie_groups(ctx, _criteria_before_de(ctx)):
            classes = de_order(data, group)
            below = len(group)
            for cls in classes:
                below -= len(cls)
                for pid in cls:
                    values[pid] = below
                    group_of[pid] = group
        return values, group_of

    result: tuple[dict[str, int], dict[str, list[str]]] = ctx.memoized("fide:DE", build)
    return result


def _explain_de(ctx: ScoringContext, pid: str) -> Explanation:
    values, group_of = _de_values(ctx)
    group = group_of[pid]
    data = fide_data(ctx)
    points, _ = direct_encounter_points(data, group)
    terms = []
    for fr in data.rounds[pid]:
        if fr.opponent in group and fr.opponent != pid and (fr.kind is Kind.GAME or (
                data.policy.fide_de_forfeits and fr.kind.has_opponent)):
            terms.append(Term(fr.round, 0, gettext("%(outcome)s against %(opponent)s") % {
                "outcome": outcome_word(fr.outcome), "opponent": fr.opponent}, fr.opponent,
                gettext("encounter between tied players (C.07 6)"), {"points2": fr.points2}))
    order = " > ".join("=".join(cls) for cls in de_order(data, group))
    rule = gettext("direct encounter among %(count)d tied players (%(order)s); %(player)s scored %(points)s against "
                   "them; value = tied players ranked below") % {
                       "count": len(group), "order": order, "player": pid, "points": points[pid]}
    return Explanation("DE", pid, ctx.round, values[pid], 1, rule, tuple(terms))


register(Criterion("DE", 1, lambda ctx: _de_values(ctx)[0], _explain_de,
                   "direct encounter (C.07 6): rank inside the group tied on the criteria before DE"))
