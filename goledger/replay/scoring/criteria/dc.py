"""DC and SDC as criteria (spec ``scoring.md`` §2.4, §6.3; oracle README items 13–14).

Direct confrontation depends on the placement list it sits in:

1. the **tied groups** are the players equal on every criterion placed *before* the first
   DC/SDC of the list (over every registered player, as OpenGotha does);
2. OpenGotha's DC orders a group by its win graph and, where the graph leaves players
   unordered, by their **secondary rank**: the rank by the criteria placed *after* DC (none
   when only SDC is in the list);
3. a player alone in his group gets 0.

The list is the context's (``ScoringContext.criteria``: the standings' criteria), else the
tournament's. When it holds neither DC nor SDC (``goledger explain --criterion DC`` on a
McMahon event, say) DC is placed right after the main score (NBW, MMS, CPS or STS; else
after the first criterion), which is how the oracle's ``DC_var`` column is defined.

Head-to-head games: rounds ≤ R between two group members. ``policy.dc_results``
``"decisive"`` counts plain white/black wins only (jigo, both-win, both-lose ignored);
``"scored"`` counts every known result with its points. By-default results count only with
``policy.dc_by_default``. Flavours: ``policy.direct_comparison`` ``"opengotha"`` (Walraet's
algorithm, :func:`~goledger.replay.scoring.criteria.direct_confrontation.walraet_dc`) or ``"egf"``
(:func:`~goledger.replay.scoring.criteria.direct_confrontation.egf_dc`). SDC is always OpenGotha's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from goledger.errors import CommandRejected
from goledger.i18n import gettext
from goledger.ledger.values import Result
from goledger.replay.scoring.criteria import Criterion, Explanation, Term, get_criterion, register
from goledger.replay.scoring.criteria.direct_confrontation import egf_dc, simplified_dc, walraet_dc
from goledger.replay.scoring.criteria.go import game_term

if TYPE_CHECKING:
    from collections.abc import Sequence

    from goledger.replay.fold.state import GameState
    from goledger.replay.scoring.scoring import ScoringContext

DC_NAMES = ("DC", "SDC")
MAIN_SCORES = ("NBW", "MMS", "CPS", "STS")


def with_dc_variant(names: Sequence[str], which: str = "DC") -> tuple[str, ...]:
    """A placement list with any DC/SDC removed and ``which`` inserted right after the main
    score (else after the first criterion) — the oracle's ``DC_var`` / ``SDC_var`` lists.

    >>> with_dc_variant(["MMS", "SOSM", "SOSOSM"])
    ('MMS', 'DC', 'SOSM', 'SOSOSM')
    >>> with_dc_variant(["CAT", "NBW", "EXT"], "SDC")
    ('CAT', 'NBW', 'SDC', 'EXT')
    """
    rest = [n for n in names if n not in DC_NAMES]
    at = next((i + 1 for i, n in enumerate(rest) if n in MAIN_SCORES), min(1, len(rest)))
    return (*rest[:at], which, *rest[at:])


class DcLayout:
    """Where DC sits in a placement list: the criteria that define the tied groups and the
    criteria that give the secondary rank."""

    def __init__(self, names: Sequence[str]) -> None:
        canonical = [get_criterion(n).name for n in names]
        self.variant = not any(n in DC_NAMES for n in canonical)
        if self.variant:
            canonical = list(with_dc_variant(canonical))
        self.names = tuple(canonical)
        first = min(canonical.index(n) for n in DC_NAMES if n in canonical)
        self.before = tuple(canonical[:first])
        if "DC" in canonical:
            self.after = tuple(n for n in canonical[canonical.index("DC") + 1 :] if n not in DC_NAMES)
        else:
            self.after = ()


class DcGroups:
    """Tied groups of a context with their head-to-head balances (shared by DC and SDC)."""

    def __init__(self, ctx: ScoringContext) -> None:
        self.layout = DcLayout(ctx.placement_criteria())
        columns = [ctx.value(n) for n in self.layout.before]
        buckets: dict[tuple[int, ...], list[str]] = {}
        players = ctx.all_players
        keys = zip(*([col[pid] for pid in players] for col in columns), strict=True) if columns else (
            () for _ in players)
        for pid, key in zip(players, keys, strict=True):
            buckets.setdefault(key, []).append(pid)
        self.groups = [g for g in buckets.values() if len(g) > 1]
        self.group_of = {pid: g for g in self.groups for pid in g}
        self.net: dict[str, dict[str, int]] = {}
        for group in self.groups:
            self.net.update(head_to_head(ctx, group))


def counted(ctx: ScoringContext, player_id: str, round_: int) -> bool:
    """Whether the player's game of ``round_`` counts in direct confrontation."""
    g = ctx.table.game[player_id][round_ - 1]
    if g is None or g.result is Result.UNKNOWN or (g.by_default and not ctx.policy.dc_by_default):
        return False
    return ctx.policy.dc_results == "scored" or g.result in (Result.WHITE, Result.BLACK)


def head_to_head(ctx: ScoringContext, group: Sequence[str]) -> dict[str, dict[str, int]]:
    """Net balance of each member against each other member (+1 per win, −1 per loss), over
    the games of rounds ≤ R (every game of a round under ``several_games_in_round="opengotha"``,
    as OpenGotha's pair matrix runs over all its games)."""
    members = set(group)
    table, r = ctx.table, ctx.round
    by_default_counts = ctx.policy.dc_by_default
    scored = ctx.policy.dc_results == "scored"
    decisive = (Result.WHITE, Result.BLACK)
    net: dict[str, dict[str, int]] = {}
    extra = table.extra_games
    for pid in group:
        row: dict[str, int] = {}
        opp = table.opp[pid]
        for i in range(r):
            first = table.game[pid][i]
            if first is None:
                continue
            # every game of the round under several_games_in_round="opengotha"
            games: list[GameState] = [first, *extra.get((pid, i), ())] if extra else [first]
            for g in games:
                o = opp[i] if g is first else g.opponent(pid)
                if o is None or o not in members:
                    continue
                # counted(): a known result, by default only under dc_by_default, decisive
                # unless dc_results is "scored".
                if g.result is Result.UNKNOWN or (g.by_default and not by_default_counts):
                    continue
                if not scored and g.result not in decisive:
                    continue
                mine, theirs = g.points2(pid), g.points2(o)
                row[o] = row.get(o, 0) + (mine > theirs) - (mine < theirs)
        net[pid] = row
    return net


def secondary_ranks(ctx: ScoringContext, group: Sequence[str], after: Sequence[str]) -> dict[str, int]:
    """Rank inside the group by the criteria after DC: 1 + number strictly better."""
    columns = [ctx.value(n) for n in after]
    keys = {pid: tuple(col[pid] for col in columns) for pid in group}
    ranks: dict[str, int] = {}
    previous: tuple[int, ...] | None = None
    rank = 0
    for index, pid in enumerate(sorted(group, key=keys.__getitem__, reverse=True), start=1):
        if keys[pid] != previous:
            rank, previous = index, keys[pid]
        ranks[pid] = rank
    return ranks


def egf_scores(ctx: ScoringContext, sub: Sequence[str]) -> tuple[dict[str, int], dict[str, int]]:
    """Each member's points (half-points) and number of counted games against the sub-group."""
    members = set(sub)
    scores: dict[str, int] = {}
    counts: dict[str, int] = {}
    for pid in sub:
        s = n = 0
        opp, res2 = ctx.table.opp[pid], ctx.table.res2[pid]
        for i in range(ctx.round):
            o = opp[i]
            if o is not None and o in members and counted(ctx, pid, i + 1):
                s += res2[i]
                n += 1
        scores[pid] = 2 * (s // 2) if ctx.policy.dc_round_down else s
        counts[pid] = n
    return scores, counts


def dc_groups(ctx: ScoringContext) -> DcGroups:
    return ctx.memoized("dc-groups", lambda: DcGroups(ctx))


def _dc(ctx: ScoringContext) -> dict[str, int]:
    groups = dc_groups(ctx)
    out = dict.fromkeys(ctx.all_players, 0)
    flavour = ctx.policy.direct_comparison
    for group in groups.groups:
        if flavour == "opengotha":
            secondary = secondary_ranks(ctx, group, groups.layout.after)
            out.update(walraet_dc(group, groups.net, secondary, net_one_edge=ctx.policy.quirk_dc_net_one_edge))
        elif flavour == "egf":
            out.update(egf_dc(group, lambda sub: egf_scores(ctx, sub))[0])
        else:
            raise CommandRejected(f"policy {ctx.policy.name}: direct comparison {flavour!r} is not a Go DC flavour "
                                  f"({ctx.policy.go_criterion_hint()})")
    return out


def _sdc(ctx: ScoringContext) -> dict[str, int]:
    groups = dc_groups(ctx)
    out = dict.fromkeys(ctx.all_players, 0)
    for group in groups.groups:
        out.update(simplified_dc(group, groups.net))
    return out


# ----------------------------------------------------------------------------- explain


def _group_terms(ctx: ScoringContext, player_id: str, group: Sequence[str]) -> list[Term]:
    members = set(group)
    terms = []
    for r in range(1, ctx.round + 1):
        o = ctx.opp[player_id][r - 1]
        if o is None or o not in members:
            continue
        ok = counted(ctx, player_id, r)
        g = ctx.game[player_id][r - 1]
        assert g is not None
        if ok:
            rule = gettext("head-to-head game inside the tied group")
        elif g.by_default:
            rule = gettext("by-default result: ignored in direct confrontation")
        elif g.result is Result.UNKNOWN:
            rule = gettext("result unknown: ignored")
        else:
            rule = gettext("%(result)s: only plain wins count under policy %(policy)s") % {
                "result": g.result.value, "policy": ctx.policy.name}
        terms.append(game_term(ctx, player_id, r, ctx.res2[player_id][r - 1] if ok else 0, rule))
    return terms


def _explain(name: str):
    def explain(ctx: ScoringContext, player_id: str) -> Explanation:
        groups = dc_groups(ctx)
        value = ctx.value(name)[player_id]
        layout = groups.layout
        group = groups.group_of.get(player_id)
        where = gettext("list %(criteria)s") % {"criteria": "/".join(layout.names)} + (
            gettext(" (DC placed after the main score)") if layout.variant else "")
        if group is None:
            return Explanation(name, player_id, ctx.round, value, 1,
                               gettext("no other player is equal on %(criteria)s (%(where)s): 0") % {
                                   "criteria": "/".join(layout.before) or gettext("(nothing)"), "where": where},
                               ())
        terms = _group_terms(ctx, player_id, group)
        detail: dict[str, Any] = {"group": list(group), "tied_on": list(layout.before)}
        if name == "SDC":
            rule = gettext("SDC: number of group members beaten when every pair of the group has a decisive "
                           "head-to-head balance, else 0")
            detail["balance"] = dict(groups.net.get(player_id, {}))
        elif ctx.policy.direct_comparison == "opengotha":
            secondary = secondary_ranks(ctx, group, layout.after)
            detail["secondary_rank"] = secondary
            detail["secondary_criteria"] = list(layout.after)
            detail["balance"] = dict(groups.net.get(player_id, {}))
            rule = gettext("DC (Walraet): win graph inside the tied group, cycles collapsed, ordered bottom-up "
                           "with the secondary rank by %(criteria)s; value = number of group members placed "
                           "below") % {"criteria": "/".join(layout.after) or gettext("nothing")}
        else:
            _, steps = egf_dc(group, lambda sub: egf_scores(ctx, sub))
            detail["steps"] = [{"sub_group": sub, "scores2": scores} for sub, scores in steps if player_id in sub]
            rule = gettext("EGF direct comparison: number-of-wins among the tied players, iterated on the "
                           "sub-groups left tied; 0 for all when they did not all play the same number of games "
                           "against each other; value = number of group members placed below")
        terms.append(Term(None, value, gettext("%(name)s in a group of %(num)d tied on %(criteria)s") % {
                              "name": name, "num": len(group), "criteria": "/".join(layout.before)},
                          rule=where, detail=detail))
        return Explanation(name, player_id, ctx.round, value, 1, rule, tuple(terms))

    return explain


register(Criterion("DC", 1, _dc, _explain("DC"), "direct confrontation inside the tied group"))
register(Criterion("SDC", 1, _sdc, _explain("SDC"), "simplified direct confrontation (OpenGotha)"))
