"""Main scores and player attributes as criteria (spec ``scoring.md`` §1.1, §2.2):
NBW, MMS, STS, CPS, CUSSW, CUSSM, Rank, Rating, CAT, and the virtual scores of the
half-point option (NBWvirtual, MMSvirtual — not placement criteria in OpenGotha, but
explainable values used by the SOS family).

Units (``scale``): scores in half-points (2), Rank/Rating/CAT in whole units (1). CAT is
stored negated (category 1 = 0, category 2 = −1…) so that higher is better.
"""

from __future__ import annotations

from goledger.i18n import N_, gettext
from goledger.ledger.values import Result
from goledger.replay.scoring.criteria import Compute, Criterion, Explain, Explanation, Term, register
from goledger.replay.scoring.scoring import ScoringContext, category_index, rank_value, rounded

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
        text = gettext("result unknown")
    elif result is Result.JIGO:
        text = gettext("jigo")
    elif result is Result.BOTH_WIN:
        text = gettext("both win")
    elif result is Result.BOTH_LOSE:
        text = gettext("both lose")
    else:
        text = gettext("win") if (result is Result.WHITE) == (game.white == player_id) else gettext("loss")
    return gettext("%(outcome)s by default") % {"outcome": text} if game.by_default else text


def game_term(ctx: ScoringContext, player_id: str, round_: int, value: int, rule: str) -> Term:
    """A term for a round the player was paired in, with the game's facts in ``detail``."""
    i = round_ - 1
    game = ctx.game[player_id][i]
    assert game is not None
    white = game.white == player_id
    return Term(
        round_, value, outcome(ctx, player_id, round_), opponent=ctx.opp[player_id][i], rule=rule,
        detail={"colour": gettext("white") if white else gettext("black"), "handicap": game.handicap,
                "table": game.table,
                "result": game.result.value, "by_default": game.by_default,
                "points2": ctx.res2[player_id][i]},
    )


def unpaired_rule(ctx: ScoringContext, player_id: str, round_: int, family: str) -> str:
    """The rule that gave a round without a game its value (for explanations): the same
    :class:`~goledger.replay.scoring.rules.Rules` of that round the value was read from."""
    status = ctx.status[player_id][round_ - 1]
    rules = ctx.table.round_rules[round_ - 1]
    policy = rules.policy.name
    name = "NBW" if family == "nbw" else "MMS"
    if status == "bye":
        if ctx.state.byes.get(round_, {}).get(player_id) is not None:
            return gettext("bye recorded with its own value")
        if rules.source(f"{family}2_bye") == "policy":
            return gettext("%(name)s bye value of policy %(policy)s") % {"name": name, "policy": policy}
        return gettext("%(name)s bye value of the tournament") % {"name": name}
    if status == "absent" and ctx.state.players[player_id].absences.get(round_) is not None:
        return gettext("absence recorded with its own value")
    if status == "not-assigned" and rules.not_assigned == "zero":
        return gettext("not assigned (present, neither paired nor bye): 0 under policy %(policy)s") % {
            "policy": policy}
    if status == "withdrawn" and rules.withdrawn == "zero":
        return gettext("withdrawn: 0 under policy %(policy)s") % {"policy": policy}
    what = gettext("absent") if status == "absent" else gettext("%(status)s (counted as absent)") % {
        "status": status_word(status)}
    if rules.source(f"{family}2_absent") == "policy":
        return gettext("%(name)s %(what)s value of policy %(policy)s") % {"name": name, "what": what,
                                                                           "policy": policy}
    return gettext("%(name)s %(what)s value of the tournament") % {"name": name, "what": what}


def status_word(status: str) -> str:
    """A round's status without a game (``TournamentState.status``) in words."""
    return {"bye": gettext("bye"), "absent": gettext("absent"), "withdrawn": gettext("withdrawn"),
            "not-assigned": gettext("not paired"), "paired": gettext("paired")}.get(status, status)


def score_terms(ctx: ScoringContext, player_id: str, family: str, upto: int) -> list[Term]:
    """The round terms of NBW or MMS up to round ``upto``, with a rounding term when the
    rounding rule changed the raw sum."""
    rows = ctx.nbw2 if family == "nbw" else ctx.mms2
    unpaired = ctx.unpaired_nbw2 if family == "nbw" else ctx.unpaired_mms2
    terms: list[Term] = []
    if family == "mms":
        terms.append(Term(None, 2 * ctx.smms[player_id], gettext("start score"),
                          rule=start_score_rule(ctx, player_id)))
    for r in range(1, upto + 1):
        status = ctx.status[player_id][r - 1]
        if status == "paired":
            terms.append(game_term(ctx, player_id, r, ctx.res2[player_id][r - 1],
                                   gettext("win 1, jigo ½, loss/both-lose/unknown 0; by-default results count the "
                                           "same")))
        else:
            terms.append(Term(r, unpaired[player_id][r - 1], status_word(status),
                              rule=unpaired_rule(ctx, player_id, r, family)))
    total = rows[player_id][upto]
    raw = sum(t.value for t in terms)
    if raw != total:
        terms.append(Term(None, total - raw, gettext("rounding"),
                          rule=gettext("round down (%(scope)s): %(what)s") % {
                              "scope": ctx.round_down_scope(),
                              "what": {"unpaired-part": gettext("only the accumulated bye/absent points"),
                                       "whole-score": gettext("the whole accumulated score")}.get(
                                  ctx.round_down_scope(), "")}))
    return terms


def start_score_rule(ctx: ScoringContext, player_id: str) -> str:
    p = ctx.state.players[player_id]
    rules = ctx.rules
    corr = " " + gettext("%(correction)+d correction") % {"correction": p.mm_correction} if p.mm_correction else ""
    zero = rules.mm_zero
    if rules.mm_zero_ignored:
        zero = gettext("30k (the tournament's %(zero)s is ignored, as OpenGotha 3.51.02 does)") % {
            "zero": rules.settings.mm_zero}
    return gettext("clamp(%(rank)s, floor %(floor)s, bar %(bar)s) − McMahon zero %(zero)s%(correction)s "
                   "= %(start)s (spec §1.1)") % {
        "rank": p.rank, "floor": rules.mm_floor, "bar": rules.mm_bar, "zero": zero, "correction": corr,
        "start": ctx.smms[player_id]}


def _explain_score(family: str):
    def explain(ctx: ScoringContext, player_id: str) -> Explanation:
        name = "NBW" if family == "nbw" else "MMS"
        rows = ctx.nbw2 if family == "nbw" else ctx.mms2
        return Explanation(
            name, player_id, ctx.round, rows[player_id][ctx.round], 2,
            gettext("sum of round values on top of the start score") if family == "mms"
            else gettext("sum of round values"),
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
        top2 = 2 * (rank_value(ctx.rules.mm_bar) - rank_value(ctx.rules.sts_zero))
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
        terms.append(Term(k, 4, gettext("Strasbourg bonus"),
                          rule=gettext("MMS after round %(round)d = bar start score + %(round)d (won every game "
                                       "from the bar)") % {"round": k}))
    return Explanation("STS", player_id, ctx.round, ctx.value("STS")[player_id], 2,
                       gettext("MMS plus the Strasbourg bonus of unbeaten top-group players"), tuple(terms))


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
        terms = tuple(Term(r, rows[player_id][r], gettext("%(criterion)s after round %(round)d") % {
            "criterion": name, "round": r}, rule=gettext("running score")) for r in range(1, ctx.round + 1))
        return Explanation(f"CUSS{name[0]}", player_id, ctx.round, sum(t.value for t in terms), 2,
                           gettext("sum of the running %(criterion)s after each round 1..R") % {"criterion": name},
                           terms)

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
            terms.append(Term(None, 2 * ctx.smms[player_id], gettext("start score"),
                              rule=start_score_rule(ctx, player_id)))
        for r in range(1, ctx.round + 1):
            if ctx.played(player_id, r):
                terms.append(game_term(ctx, player_id, r, ctx.res2[player_id][r - 1], gettext("game actually played")))
            else:
                status = ctx.status[player_id][r - 1]
                game = ctx.game[player_id][r - 1]
                what = status_word(status) if game is None else (
                    gettext("by default") if game.by_default else gettext("result unknown"))
                terms.append(Term(r, 1, gettext("not played (%(why)s)") % {"why": what},
                                  opponent=ctx.opp[player_id][r - 1],
                                  rule=gettext("half-point option: a round without a played game counts ½")))
        name = "NBWvirtual" if family == "nbw" else "MMSvirtual"
        return Explanation(name, player_id, ctx.round, sum(t.value for t in terms), 2,
                           gettext("virtual score: played games plus ½ for every other round (spec §1.1)"),
                           tuple(terms))

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


FILE_PLACE_KEY = "file.place"
"""The player extra holding the place printed in the file a tournament was imported from."""
_UNPLACED = -(10**6)


def _file_place(ctx: ScoringContext) -> dict[str, int]:
    """Minus the place the imported file printed (``extras["file.place"]``), so that place 1
    ranks first and players the file placed equal stay equal; a player without one (never
    in the file) ranks after everyone placed."""
    values: dict[str, int] = {}
    for pid, p in ctx.state.players.items():
        text = p.extras.get(FILE_PLACE_KEY, "")
        values[pid] = -int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else _UNPLACED
    return values


def _explain_file_place(ctx: ScoringContext, player_id: str) -> Explanation:
    value = ctx.value("FilePlace")[player_id]
    rule = gettext(_FILE_PLACE_RULE)
    text = (gettext("not placed by the imported file") if value == _UNPLACED
            else gettext("place %(place)s in the imported file") % {"place": -value})
    return Explanation("FilePlace", player_id, ctx.round, value, 1, rule, (Term(None, value, text, rule=rule),))


def _explain_attribute(name: str, rule: str):
    def explain(ctx: ScoringContext, player_id: str) -> Explanation:
        value = ctx.value(name)[player_id]
        p = ctx.state.players[player_id]
        return Explanation(name, player_id, ctx.round, value, 1, gettext(rule),
                           (Term(None, value, gettext("rank %(rank)s, rating %(rating)s") % {
                               "rank": p.rank, "rating": p.rating}, rule=gettext(rule)),))

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
register(Criterion("Rank", 1, _rank, _explain_attribute("Rank", N_("declared rank, 30k = −30 … 1d = 0 … 9d = 8")),
                   "declared rank, 30k = −30 … 9d = 8", aliases=("RANK",)))
_RATING_RULE = N_("rating as registered (0 when none), clamped to the policy's rating range")
register(Criterion("Rating", 1, _rating, _explain_attribute("Rating", _RATING_RULE), _RATING_RULE,
                   aliases=("RATING",)))
_FILE_PLACE_RULE = N_("the place printed in the imported file (an FFG .tou lists its final standings), negated")
register(Criterion("FilePlace", 1, _file_place, _explain_file_place, _FILE_PLACE_RULE, aliases=("FILEPLACE",)))
register(Criterion("CAT", 1, _cat,
                   _explain_attribute("CAT", N_("minus the 0-based category index, categories by lower rank limits")),
                   "category (stored negated: category 1 = 0, category 2 = −1 …)", aliases=("CATEGORY",)))
