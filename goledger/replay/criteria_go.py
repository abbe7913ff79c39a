"""Main scores and player attributes as criteria: NBW, MMS, Rank, Rating (spec scoring §2.2)."""

from __future__ import annotations

from goledger.replay.criteria import Criterion, Explanation, Term, register
from goledger.replay.scoring import ScoringContext, rank_value


def _nbw(ctx: ScoringContext) -> dict[str, int]:
    return {pid: row[ctx.round] for pid, row in ctx.nbw2.items()}


def _mms(ctx: ScoringContext) -> dict[str, int]:
    return {pid: row[ctx.round] for pid, row in ctx.mms2.items()}


def _explain_score(family: str) -> object:
    def explain(ctx: ScoringContext, player_id: str) -> Explanation:
        rows = ctx.nbw2 if family == "nbw" else ctx.mms2
        terms: list[Term] = []
        if family == "mms":
            terms.append(
                Term(None, 2 * ctx.smms[player_id], "start score",
                     rule="clamp(rank, floor, bar) − McMahon zero + correction (spec §1.1)")
            )
        for entry in ctx.entries[player_id]:
            if entry.game is not None:
                game = entry.game
                flag = " by default" if game.by_default else ""
                terms.append(
                    Term(entry.round, entry.game_points2, f"game {game.result.value}{flag}",
                         opponent=entry.opponent,
                         rule="win 1, jigo ½, loss/unknown 0; by-default results count the same",
                         detail={"colour": "white" if entry.is_white else "black",
                                 "handicap": game.handicap, "table": game.table})
                )
            else:
                value = ctx.unpaired_points2(player_id, entry, family)
                terms.append(Term(entry.round, value, entry.status,
                                  rule=f"{entry.status} value of policy {ctx.policy.name}"))
        total = rows[player_id][ctx.round]
        raw = sum(t.value for t in terms)
        if raw != total:
            terms.append(Term(None, total - raw, "rounding",
                              rule=f"round down ({ctx.round_down_scope()})"))
        name = "NBW" if family == "nbw" else "MMS"
        return Explanation(name, player_id, ctx.round, total, 2,
                           "sum of round values" + (" on top of the start score" if family == "mms" else ""),
                           tuple(terms))

    return explain


register(Criterion("NBW", 2, _nbw, _explain_score("nbw"), "number of wins (a score: jigo ½, bye/absent values)",
                   aliases=("WINS",)))
register(Criterion("MMS", 2, _mms, _explain_score("mms"), "McMahon score", aliases=("MCMAHON",)))
register(Criterion("Rank", 1, lambda ctx: {pid: rank_value(ctx.state.players[pid].rank) for pid in ctx.entries},
                   None, "declared rank, 30k = −30 … 9d = 8", aliases=("RANK",)))
register(Criterion("Rating", 1, lambda ctx: {pid: ctx.state.players[pid].rating or 0 for pid in ctx.entries},
                   None, "rating as registered (0 when none)", aliases=("RATING", "RTNG")))
