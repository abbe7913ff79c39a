"""``pair-round`` on a team tournament: a Swiss (or McMahon) of teams, then the boards
(issue 30; docs/teams.md). OpenGotha 3.51.02 has no automatic team pairing, so this is
goledger's own, engine ``teams`` version 1; its boards follow OpenGotha's ``pairTeams``.

1. **Teams to pair**: every team with at least one member in round R and no game yet in R;
   each must be complete (every board a final registration playing in R), else the round is
   refused naming the first gap.
2. **Order** (best first): the team score — Swiss: TEAMP after R−1; McMahon: the team's start
   (its round-R members' mean McMahon start score, truncated, ×2) + TEAMP — then board points
   (BDW), then MNR, then the lower team number.
3. **Bye team** for an odd count: the team with the fewest idle rounds so far, then the lowest
   in the order (it gets nothing, as in OpenGotha: an idle team scores 0).
4. **Matching**: a maximum-weight perfect matching over the teams (``rustworkx``, integer
   weights). No edge joins two teams that already met (no repeat match). The weight of a pair
   is ``BASE − (SCORE·Δscore² + BOARDS·min(Δbdw², 10⁴) + CLUB·same club + FOLD·|fold distance|)``
   with the fold distance ``| |i − j| − n/2 |`` on the order (top half meets bottom half inside a
   score group, as a Swiss fold); ``same club`` when both teams' clubs (the club most of a
   team's members share) are equal and ``avoid_same_club`` is on.
5. **Boards**: board i against board i by ``pairTeams``; matches take tables in the order of
   their better team (the top match at table 1).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Final

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n import N_
from goledger.i18n.messages import nsay, say, say_at
from goledger.pairing.engine import PairedGame, Pairing, PairingRequest, PairTerms
from goledger.teams.model import Roster, roster
from goledger.teams.pairing import MatchPairing, board_facts, incomplete_reason, pair_match
from goledger.teams.standings import matches_of_round, team_standings

if TYPE_CHECKING:
    from goledger.replay.fold.state import TournamentState

__all__ = ["ENGINE", "TeamPlan", "TeamsEngine", "plan_round"]

BASE: Final = 10**15
SCORE: Final = 10**10
BOARDS: Final = 10**5
CLUB: Final = 10**4
FOLD: Final = 10


class TeamPlan(msgspec.Struct, frozen=True, kw_only=True):
    """A team round decided: the order, the bye team and why, the matches with their terms."""

    round: int
    order: tuple[str, ...]
    score: dict[str, int]
    bdw: dict[str, int]
    bye: str | None
    bye_rule: str
    matches: tuple[MatchPairing, ...]
    terms: tuple[dict[str, int], ...]
    total_weight: int
    parameters: dict[str, str]


def _club(state: TournamentState, members: dict[int, str]) -> str:
    clubs = Counter(state.players[p].club.strip().casefold() for p in members.values() if state.players[p].club)
    if not clubs:
        return ""
    club, count = clubs.most_common(1)[0]
    return club if 2 * count > len(members) else ""


def _options(state: TournamentState) -> dict[str, Any]:
    assert state.settings is not None
    return dict(state.settings.system_options)


def _teams_to_pair(state: TournamentState, ro: Roster, round_: int) -> list[str]:
    out = []
    for tid in ro.ids:
        members = ro.members(state, tid, round_)
        if not members:
            continue
        if any(state.game_of(p, round_) is not None for p in members.values()):
            continue
        reason = incomplete_reason(state, ro, tid, round_)
        if reason:
            raise CommandRejected(say("%(why)s; complete the team or take it out of the round before pairing",
                                      why=reason))
        out.append(tid)
    return out


class _Context(msgspec.Struct, kw_only=True):
    """What the matching of a team round is computed from."""

    ro: Roster
    order: list[str]
    score: dict[str, int]
    bdw: dict[str, int]
    club: dict[str, str]
    met: set[frozenset[str]]
    avoid_club: bool
    bye: str | None
    bye_rule: str
    facts: Any


def _context(state: TournamentState, round_: int) -> _Context:
    if state.settings is None:
        raise CommandRejected(say("the ledger has no tournament yet"))
    if not 1 <= round_ <= state.rounds:
        raise CommandRejected(say("round %(round)d is outside 1..%(rounds)d of this tournament", round=round_,
                                  rounds=state.rounds))
    ro = roster(state)
    teams = _teams_to_pair(state, ro, round_)
    if len(teams) < 2:
        raise CommandRejected(nsay("round %(round)d has %(n)d team left to pair; a match needs two",
                                   "round %(round)d has %(n)d teams left to pair; a match needs two", len(teams),
                                   round=round_, n=len(teams)))
    before = team_standings(state, round_ - 1, ("TEAMP", "BDW", "MNR", "NULL", "NULL", "NULL"))
    values = {row.team_id: row.values for row in before.rows}
    mcmahon = state.settings.system == "team-mcmahon"
    facts = board_facts(state, round_)
    start: dict[str, int] = {}
    for tid in teams:
        members = ro.members(state, tid, round_)
        total = sum(facts.smms.get(p, 0) for p in members.values())
        start[tid] = 2 * int(total / len(members)) if mcmahon and members else 0
    score = {tid: start[tid] + values[tid][0] for tid in teams}
    bdw = {tid: values[tid][1] for tid in teams}
    order = sorted(teams, key=lambda t: (-score[t], -bdw[t], -values[t][2], ro.number[t]))
    bye: str | None = None
    bye_rule = ""
    if len(order) % 2:
        idle = {t: sum(1 for r in range(1, round_) if ro.members(state, t, r)
                       and not any(t in (m.team_a, m.team_b) for m in matches_of_round(state, r, ro)))
                for t in order}
        position = {t: i for i, t in enumerate(order)}
        bye = min(order, key=lambda t: (idle[t], -position[t]))
        bye_rule = (f"bye team {bye} {ro.name[bye]}: the team with the fewest idle rounds ({idle[bye]}), "
                    "then the lowest placed")
        order = [t for t in order if t != bye]
    return _Context(ro=ro, order=order, score=score, bdw=bdw,
                    club={t: _club(state, ro.members(state, t, round_)) for t in order},
                    met={frozenset((m.team_a, m.team_b)) for r in sorted(state.games) if r != round_
                         for m in matches_of_round(state, r, ro)},  # every other round, later ones too
                    avoid_club=bool(_options(state).get("avoid_same_club", True)), bye=bye, bye_rule=bye_rule,
                    facts=facts)


def _terms(ctx: _Context, i: int, j: int) -> dict[str, int]:
    """The cost terms of the pair at positions ``i`` < ``j`` of the order, and its weight."""
    a, b = ctx.order[i], ctx.order[j]
    t = {"score": SCORE * (ctx.score[a] - ctx.score[b]) ** 2,
         "boards": BOARDS * min((ctx.bdw[a] - ctx.bdw[b]) ** 2, 10**4),
         "club": CLUB if ctx.avoid_club and ctx.club[a] and ctx.club[a] == ctx.club[b] else 0,
         "fold": FOLD * abs(2 * (j - i) - len(ctx.order))}
    return {**t, "weight": BASE - sum(t.values())}


def plan_round(state: TournamentState, round_: int, seed: int = 0) -> TeamPlan:
    """The pairing of team round ``round_`` (module docstring). Pure: state in, plan out."""
    # rustworkx loads late: only a round paired needs it
    import rustworkx as rx

    ctx = _context(state, round_)
    ro, order = ctx.ro, ctx.order
    n = len(order)
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(n))
    terms: dict[tuple[int, int], dict[str, int]] = {}
    for i in range(n):
        for j in range(i + 1, n):
            if frozenset((order[i], order[j])) in ctx.met:
                continue
            terms[(i, j)] = _terms(ctx, i, j)
            graph.add_edge(i, j, terms[(i, j)]["weight"])
    mate = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(mate) != n:
        raise CommandRejected(say("the %(n)d teams of round %(round)d cannot all be paired without a repeated match",
                                  n=n, round=round_))
    pairs = sorted((min(u, v), max(u, v)) for u, v in mate)
    used = set(state.games.get(round_, {}))
    matches: list[MatchPairing] = []
    for i, j in pairs:
        m = pair_match(state, round_, order[i], order[j], facts=ctx.facts, ro=ro, used_tables=used)
        used |= {b.table for b in m.boards}
        matches.append(m)
    total = sum(terms[p]["weight"] for p in pairs)
    assert state.settings is not None
    parameters = {
        "system": state.settings.system, "team_size": str(ro.size), "order": "team score, BDW, MNR, team number",
        "weights": f"BASE={BASE} SCORE={SCORE} BOARDS={BOARDS} CLUB={CLUB} FOLD={FOLD}",
        "avoid_same_club": "true" if ctx.avoid_club else "false", "bye_team": ctx.bye or "",
        "teams": ",".join(order),
    }
    score, bdw = ctx.score, ctx.bdw
    for k, ((i, j), m) in enumerate(zip(pairs, matches, strict=True), start=1):
        a, b = order[i], order[j]
        t = terms[(i, j)]
        parameters[f"match.{k}"] = (
            f"{ro.name[a]} ({score[a]}, BDW {bdw[a]}) – {ro.name[b]} ({score[b]}, BDW {bdw[b]}): "
            f"score term {t['score']}, board term {t['boards']}, club term {t['club']}, fold term {t['fold']}, "
            f"tables {m.boards[0].table}–{m.boards[-1].table}")
    return TeamPlan(round=round_, order=tuple(order), score=score, bdw=bdw, bye=ctx.bye, bye_rule=ctx.bye_rule,
                    matches=tuple(matches), terms=tuple(terms[p] for p in pairs), total_weight=total,
                    parameters=parameters)


class TeamsEngine:
    """The ``teams`` engine (module docstring) behind ``pair-round`` on a team tournament.
    ``request`` names the players it will place (the board players of the paired teams), so
    ``pair-round``'s own checks hold: every requested player is placed exactly once."""

    name = "teams"
    version = "1"

    def request(self, state: TournamentState, round_: int, players: Any, seed: int | None) -> PairingRequest:
        if players is not None:
            raise CommandRejected(say_at("a team round pairs whole teams; --players is not for team tournaments (use "
                                         "goledger pair-teams R TEAM_A TEAM_B for one match)",
                                         N_("a team round pairs whole teams, never a choice of players")))
        plan = plan_round(state, round_, seed or 0)
        placed = tuple(p for m in plan.matches for b in m.boards for p in (b.white, b.black))
        return PairingRequest(round=round_, players=placed, seed=seed or 0)

    def pair(self, state: TournamentState, request: PairingRequest) -> Pairing:
        plan = plan_round(state, request.round, request.seed)
        games = tuple(PairedGame(table=b.table, white=b.white, black=b.black, handicap=b.handicap, komi=None)
                      for m in plan.matches for b in m.boards)
        parameters = dict(plan.parameters)
        if plan.bye:
            parameters["bye_rule"] = plan.bye_rule
        return Pairing(engine=self.name, version=self.version, round=request.round, games=games, bye=None,
                       total_weight=plan.total_weight, chunks=(len(plan.order),), parameters=parameters,
                       seed=request.seed)

    def pair_terms(self, state: TournamentState, request: PairingRequest, first: str, second: str) -> PairTerms:
        """The cost of the match between ``first``'s and ``second``'s teams, term by term
        (``repeat`` when they already met: no such match is possible)."""
        ctx = _context(state, request.round)
        at = {t: i for i, t in enumerate(ctx.order)}
        teams = [ctx.ro.team_of(state, p, request.round) for p in (first, second)]
        if teams[0] is None or teams[1] is None or teams[0] not in at or teams[1] not in at:
            raise CommandRejected(say("%(a)s and %(b)s are not both in teams paired in round %(round)d", a=first,
                                      b=second, round=request.round))
        if teams[0] == teams[1]:
            return PairTerms(first=first, second=second, total=0, terms={"same team": 0})
        i, j = sorted((at[teams[0]], at[teams[1]]))
        terms = _terms(ctx, i, j)
        if frozenset(teams) in ctx.met:
            terms = {**terms, "repeat": -terms["weight"]}
        total = terms.pop("weight") + terms.get("repeat", 0)
        return PairTerms(first=first, second=second, total=total, terms=terms)


ENGINE = TeamsEngine()
