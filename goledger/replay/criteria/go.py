"""Main scores and player attributes as criteria (spec ``scoring.md`` §1.1, §2.2):
NBW, MMS, STS, CPS, CUSSW, CUSSM, Rank, Rating, CAT, and the virtual scores of the
half-point option (NBWvirtual, MMSvirtual — not placement criteria in OpenGotha, but
explainable values used by the SOS family).

Units (``scale``): scores in half-points (2), Rank/Rating/CAT in whole units (1). CAT is
stored negated (category 1 = 0, category 2 = −1…) so that higher is better.
"""

from __future__ import annotations

from goledger.ledger.values import Result
from goledger.replay.criteria import Compute, Criterion, Explain, Explanation, Term, register
from goledger.replay.scoring import ScoringContext, category_index, rank_value, rounded

# ----------------------------------------------------------------------------- NBW / MMS


def _nbw(ctx: ScoringContext) -> dict[str, int]:
    return ctx.score2("nbw")


def _mms(ctx: ScoringContext) -> dict[str, int]:
    return ctx.score2("mms")


def outcome(ctx: ScoringContext, player_id: str, round_: int) -> str:
    """The player's result of a round's game in words: ``win``, ``loss``, ``jigo``,
    ``both win``, ``both lose`` or ``result unknown``, plus ``by default`` for forfeits."""
    game = ctx.game[player_id][round_ - 1]
    assert game is not None
    result = game.result
    if result is Result.UNKNOWN:
        text = "result unknown"
    elif result is Result.JIGO:
        text = "jigo"
    elif result is Result.BOTH_WIN:
        text = "both win"
    elif result is Result.BOTH_LOSE:
        text = "both lose"
    else:
        text = "win" if (result is Result.WHITE) == (game.white == player_id) else "loss"
    return text + (" by default" if game.by_default else "")


def game_term(ctx: ScoringContext, player_id: str, round_: int, value: int, rule: str) -> Term:
    """A term for a round the player was paired in, with the game's facts in ``detail``."""
    i = round_ - 1
    game = ctx.game[player_id][i]
    assert game is not None
    white = game.white == player_id
    return Term(
        round_, value, outcome(ctx, player_id, round_), opponent=ctx.opp[player_id][i], rule=rule,
        detail={"colour": "white" if white else "black", "handicap": game.handicap, "table": game.table,
                "result": game.result.value, "by_default": game.by_default,
                "points2": ctx.res2[player_id][i]},
    )


def unpaired_rule(ctx: ScoringContext, player_id: str, round_: int, family: str) -> str:
    """The rule that gave a round without a game its value (for explanations)."""
    status = ctx.status[player_id][round_ - 1]
    policy = ctx.policy
    name = "NBW" if family == "nbw" else "MMS"
    if status == "bye":
        if ctx.state.byes.get(round_, {}).get(player_id) is not None:
            return "bye recorded with its own value"
        own = policy.nbw2_bye if family == "nbw" else policy.mms2_bye
        return f"{name} bye value of policy {policy.name}" if own is not None else f"{name} bye value of the tournament"
    if status == "absent" and ctx.state.players[player_id].absences.get(round_) is not None:
        return "absence recorded with its own value"
    if status == "not-assigned" and policy.not_assigned == "zero":
        return f"not assigned (present, neither paired nor bye): 0 under policy {policy.name}"
    if status == "withdrawn" and policy.withdrawn == "zero":
        return f"withdrawn: 0 under policy {policy.name}"
    own = policy.nbw2_absent if family == "nbw" else policy.mms2_absent
    what = "absent" if status == "absent" else f"{status} (counted as absent)"
    src = f"policy {policy.name}" if own is not None else "the tournament"
    return f"{name} {what} value of {src}"


def score_terms(ctx: ScoringContext, player_id: str, family: str, upto: int) -> list[Term]:
    """The round terms of NBW or MMS up to round ``upto``, with a rounding term when the
    rounding rule changed the raw sum."""
    rows = ctx.nbw2 if family == "nbw" else ctx.mms2
    unpaired = ctx.unpaired_nbw2 if family == "nbw" else ctx.unpaired_mms2
    terms: list[Term] = []
    if family == "mms":
        terms.append(Term(None, 2 * ctx.smms[player_id], "start score",
                          rule=start_score_rule(ctx, player_id)))
    for r in range(1, upto + 1):
        status = ctx.status[player_id][r - 1]
        if status == "paired":
            terms.append(game_term(ctx, player_id, r, ctx.res2[player_id][r - 1],
                                   "win 1, jigo ½, loss/both-lose/unknown 0; by-default results count the same"))
        else:
            terms.append(Term(r, unpaired[player_id][r - 1], status, rule=unpaired_rule(ctx, player_id, r, family)))
    total = rows[player_id][upto]
    raw = sum(t.value for t in terms)
    if raw != total:
        terms.append(Term(None, total - raw, "rounding",
                          rule=f"round down ({ctx.round_down_scope()}): "
                               + {"unpaired-part": "only the accumulated bye/absent points",
                                  "whole-score": "the whole accumulated score"}.get(ctx.round_down_scope(), "")))
    return terms


def start_score_rule(ctx: ScoringContext, player_id: str) -> str:
    p = ctx.state.players[player_id]
    s = ctx.settings
    corr = f" {p.mm_correction:+d} correction" if p.mm_correction else ""
    zero = s.mm_zero
    if ctx.policy.quirk_mm_zero_30k and rank_value(zero) != -30:
        zero = f"30k (the tournament's {s.mm_zero} is ignored, as OpenGotha 3.51.02 does)"
    return (f"clamp({p.rank}, floor {s.mm_floor}, bar {s.mm_bar}) − McMahon zero {zero}{corr} "
            f"= {ctx.smms[player_id]} (spec §1.1)")


def _explain_score(family: str):
    def explain(ctx: ScoringContext, player_id: str) -> Explanation:
        name = "NBW" if family == "nbw" else "MMS"
        rows = ctx.nbw2 if family == "nbw" else ctx.mms2
        return Explanation(
            name, player_id, ctx.round, rows[player_id][ctx.round], 2,
            "sum of round values" + (" on top of the start score" if family == "mms" else ""),
            tuple(score_terms(ctx, player_id, family, ctx.round)),
        )

    return explain


# ----------------------------------------------------------------------------- STS / CPS


def sts_checks(ctx: ScoringContext) -> dict[str, list[int]]:
    """Per player, the rounds k from which a Strasbourg bonus of +2 points counts (see
    :func:`sts_bonus`): k = n−2 or n−1 when the MMS after round k is the bar start score + k.
    Under ``quirk_sts_short_tournament`` (OpenGotha) the MMS "after round k" of a k below 1
    reads 0 (an array index below 0), so with 1 or 2 rounds the start score never fires it,
    and a bonus that fires anyway counts from round 1 (issue 19.2)."""

    def build() -> dict[str, list[int]]:
        n = ctx.state.rounds
        zero = -30 if ctx.policy.quirk_sts_zero_30k else rank_value(ctx.settings.mm_zero)
        top2 = 2 * (rank_value(ctx.settings.mm_bar) - zero)
        short = ctx.policy.quirk_sts_short_tournament
        out: dict[str, list[int]] = {}
        for pid, row in ctx.table.mms2.items():
            fired = []
            for k in (n - 2, n - 1):
                if k > ctx.round:
                    continue
                if short:
                    if (row[k] if k >= 1 else 0) == top2 + 2 * k:
                        fired.append(max(k, 1))
                elif k >= 0 and row[k] == top2 + 2 * k:
                    fired.append(k)
            out[pid] = fired
        return out

    return ctx.memoized("sts-checks", build)


def sts_bonus(ctx: ScoringContext) -> dict[str, list[int]]:
    """STS − MMS per player and round 0..R (spec §1.1, oracle README item 11): with n the
    configured number of rounds, +2 points (4 half-points) from round n−2 on when the MMS after round
    n−2 is the bar start score + (n−2), and +2 more from round n−1 on when the MMS after
    n−1 is bar start + (n−1)."""

    def build() -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for pid, fired in sts_checks(ctx).items():
            bonus = [0] * (ctx.round + 1)
            for k in fired:
                for r in range(k, ctx.round + 1):
                    bonus[r] += 4
            out[pid] = bonus
        return out

    return ctx.memoized("sts-bonus", build)


def _sts(ctx: ScoringContext) -> dict[str, int]:
    bonus = sts_bonus(ctx)
    r = ctx.round
    return {pid: row[r] + bonus[pid][r] for pid, row in ctx.table.mms2.items()}


def _explain_sts(ctx: ScoringContext, player_id: str) -> Explanation:
    terms = score_terms(ctx, player_id, "mms", ctx.round)
    for k in sts_checks(ctx)[player_id]:
        terms.append(Term(k, 4, "Strasbourg bonus",
                          rule=f"MMS after round {k} = bar start score + {k} (won every game from the bar)"))
    return Explanation("STS", player_id, ctx.round, ctx.value("STS")[player_id], 2,
                       "MMS plus the Strasbourg bonus of unbeaten top-group players", tuple(terms))


def _cps_parts(ctx: ScoringContext, player_id: str) -> tuple[int, int]:
    """(doubled game part, rounded bye/absent part) of CPS at round R."""
    c = s = 0
    t = ctx.table
    status, res2, un = t.status[player_id], t.game_points2(player_id), t.unpaired_nbw2[player_id]
    for i in range(ctx.round):
        c = 2 * c + (res2[i] if status[i] == "paired" else 0)
        s += un[i]
    return c, rounded(c, s, ctx.round_down_scope()) - c


def _cps(ctx: ScoringContext) -> dict[str, int]:
    out = {}
    for pid in ctx.all_players:
        c, s = _cps_parts(ctx, pid)
        out[pid] = c + s
    return out


def _explain_cps(ctx: ScoringContext, player_id: str) -> Explanation:
    terms = []
    R = ctx.round
    for r in range(1, R + 1):
        if ctx.status[player_id][r - 1] == "paired":
            pts = ctx.res2[player_id][r - 1]
            terms.append(game_term(ctx, player_id, r, pts << (R - r),
                                   f"game points × 2^{R - r} (each later round doubles the earlier ones)"))
    c, s = _cps_parts(ctx, player_id)
    if s:
        terms.append(Term(None, s, "bye/absent points", rule="accumulated NBW bye/absent values, not doubled"))
    return Explanation("CPS", player_id, R, c + s, 2, "cup score: earlier wins weigh more", tuple(terms))


# ----------------------------------------------------------------------------- CUSS


def _cuss(family: str) -> tuple[Compute, Explain]:
    def compute(ctx: ScoringContext) -> dict[str, int]:
        rows = ctx.table.nbw2 if family == "nbw" else ctx.table.mms2
        r = ctx.round
        return {pid: sum(row[1 : r + 1]) for pid, row in rows.items()}

    def explain(ctx: ScoringContext, player_id: str) -> Explanation:
        rows = ctx.nbw2 if family == "nbw" else ctx.mms2
        name = "NBW" if family == "nbw" else "MMS"
        terms = tuple(Term(r, rows[player_id][r], f"{name} after round {r}", rule="running score")
                      for r in range(1, ctx.round + 1))
        return Explanation(f"CUSS{name[0]}", player_id, ctx.round, sum(t.value for t in terms), 2,
                           f"sum of the running {name} after each round 1..R", terms)

    return compute, explain


# ----------------------------------------------------------------------------- virtual


def _virtual(family: str) -> tuple[Compute, Explain]:
    def compute(ctx: ScoringContext) -> dict[str, int]:
        rows = ctx.nbw2_virtual if family == "nbw" else ctx.mms2_virtual
        r = ctx.round
        return {pid: row[r] for pid, row in rows.items()}

    def explain(ctx: ScoringContext, player_id: str) -> Explanation:
        terms: list[Term] = []
        if family == "mms":
            terms.append(Term(None, 2 * ctx.smms[player_id], "start score", rule=start_score_rule(ctx, player_id)))
        for r in range(1, ctx.round + 1):
            if ctx.played(player_id, r):
                terms.append(game_term(ctx, player_id, r, ctx.res2[player_id][r - 1], "game actually played"))
            else:
                status = ctx.status[player_id][r - 1]
                game = ctx.game[player_id][r - 1]
                what = status if game is None else ("by default" if game.by_default else "result unknown")
                terms.append(Term(r, 1, f"not played ({what})", opponent=ctx.opp[player_id][r - 1],
                                  rule="half-point option: a round without a played game counts ½"))
        name = "NBWvirtual" if family == "nbw" else "MMSvirtual"
        return Explanation(name, player_id, ctx.round, sum(t.value for t in terms), 2,
                           "virtual score: played games plus ½ for every other round (spec §1.1)", tuple(terms))

    return compute, explain


# ----------------------------------------------------------------------------- attributes


def _rank(ctx: ScoringContext) -> dict[str, int]:
    return {pid: rank_value(p.rank) for pid, p in ctx.state.players.items()}


def _rating(ctx: ScoringContext) -> dict[str, int]:
    clamp = ctx.policy.rating_clamp
    if clamp is None:
        return {pid: p.rating or 0 for pid, p in ctx.state.players.items()}
    low, high = clamp
    return {pid: max(low, min(high, p.rating or 0)) for pid, p in ctx.state.players.items()}


def _cat(ctx: ScoringContext) -> dict[str, int]:
    limits = ctx.settings.category_limits
    return {pid: -category_index(p.rank, limits) for pid, p in ctx.state.players.items()}


def _explain_attribute(name: str, rule: str):
    def explain(ctx: ScoringContext, player_id: str) -> Explanation:
        value = ctx.value(name)[player_id]
        p = ctx.state.players[player_id]
        return Explanation(name, player_id, ctx.round, value, 1, rule,
                           (Term(None, value, f"rank {p.rank}, rating {p.rating}", rule=rule),))

    return explain


register(Criterion("NBW", 2, _nbw, _explain_score("nbw"), "number of wins (a score: jigo ½, bye/absent values)",
                   aliases=("WINS",)))
register(Criterion("MMS", 2, _mms, _explain_score("mms"), "McMahon score", aliases=("MCMAHON",)))
register(Criterion("STS", 2, _sts, _explain_sts, "Strasbourg score: MMS with a bonus for unbeaten top-group players"))
register(Criterion("CPS", 2, _cps, _explain_cps, "cup score: game points doubled each round"))
register(Criterion("CUSSW", 2, *_cuss("nbw"), "cumulative sum of the running NBW"))
register(Criterion("CUSSM", 2, *_cuss("mms"), "cumulative sum of the running MMS (includes R × start score)"))
register(Criterion("NBWvirtual", 2, *_virtual("nbw"), "virtual NBW of the half-point option",
                   aliases=("NBWV",)))
register(Criterion("MMSvirtual", 2, *_virtual("mms"), "virtual MMS of the half-point option",
                   aliases=("MMSV",)))
register(Criterion("Rank", 1, _rank, _explain_attribute("Rank", "declared rank, 30k = −30 … 1d = 0 … 9d = 8"),
                   "declared rank, 30k = −30 … 9d = 8", aliases=("RANK",)))
_RATING_RULE = "rating as registered (0 when none), clamped to the policy's rating range"
register(Criterion("Rating", 1, _rating, _explain_attribute("Rating", _RATING_RULE), _RATING_RULE,
                   aliases=("RATING",)))
register(Criterion("CAT", 1, _cat,
                   _explain_attribute("CAT", "minus the 0-based category index, categories by lower rank limits"),
                   "category (stored negated: category 1 = 0, category 2 = −1 …)", aliases=("CATEGORY",)))
