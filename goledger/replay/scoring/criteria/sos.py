"""The sum-of-opponents family (spec ``scoring.md`` §2.2, §2.3, §6.2): SOSW, SOSW-1, SOSW-2,
SODOSW, SOSOSW (number-of-wins family, "W"); SOSM, SOSM-1, SOSM-2, SODOSM, SOSOSM
(McMahon family, "M"); SOSTS (Strasbourg).

Per-round contribution of a player at standings round R, for each round k ≤ R:

* paired (whatever the result, forfeits included): the opponent's score at R — NBW, MMS or
  STS; the *virtual* score when the half-point option is on — plus, in the M family and
  SOSTS when ``Rules.sos_handicap_correction``, the signed handicap (+h if the player was
  White and gave the stones, −h if Black), in half-points ``2·h``;
* a round without a game (bye, absent, withdrawn, not assigned): 0 in the W family; in the
  M family and SOSTS the player's own start score ``2·smms`` under
  ``sos_own_unplayed="start-score"`` (0 under ``"zero"``).

SOS = Σ contributions. SOS-1 / SOS-2 drop the 1 / 2 smallest contributions among rounds
1..R, unpaired rounds included (OpenGotha quirk: SOSM-1/-2 are 0 after rounds 1–2).
SODOS = Σ contribution × the player's game points (win 2, jigo 1, loss 0; with
``policy.sodos_weighting="decisive-wins"`` 2 for a plain win only), in quarter points;
unpaired rounds 0. SOSOS = Σ the opponents' SOS at R (no handicap term); an
unpaired round gives ``2·smms·R`` in the M family (``sosos_unplayed``), 0 in the W family.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from functools import lru_cache
from typing import Any, cast

from goledger.errors import CommandRejected
from goledger.i18n import gettext, ngettext
from goledger.ledger.values import Result
from goledger.replay.scoring.criteria import Criterion, Explanation, Term, register
from goledger.replay.scoring.criteria.go import game_term, status_word, sts_bonus
from goledger.replay.scoring.scoring import ScoringContext

_FAMILY_NAME = {"nbw": "NBW", "mms": "MMS", "sts": "STS"}
_SOS_NAME = {"nbw": "SOSW", "mms": "SOSM", "sts": "SOSTS"}


def opponent_values(ctx: ScoringContext, family: str) -> dict[str, int]:
    """What each player brings as an opponent in the SOS family at round R (half-points)."""
    if family != "sts":
        return ctx.opponent_score2(family)

    def build() -> dict[str, int]:
        if not ctx.not_played_as_half:
            return ctx.value("STS")
        if ctx.policy.quirk_sosts_virtual_zero:
            return dict.fromkeys(ctx.all_players, 0)

        bonus = sts_bonus(ctx)
        r = ctx.round
        return {pid: row[r] + bonus[pid][r] for pid, row in ctx.mms2_virtual.items()}

    return ctx.memoized("sos-opponent-sts", build)


def _unplayed_value(ctx: ScoringContext, family: str, player_id: str) -> int:
    if family == "nbw":
        return 0
    choice = ctx.policy.sos_own_unplayed
    if choice == "start-score":
        return 2 * ctx.smms[player_id]
    if choice == "zero":
        return 0
    raise CommandRejected(
        f"policy {ctx.policy.name}: sos_own_unplayed={choice!r} is a FIDE rule; the Go SOS criteria "
        f"support 'start-score' and 'zero' ({ctx.policy.go_criterion_hint()})"
    )


def contributions(ctx: ScoringContext, family: str, players: Collection[str] | None = None
                  ) -> dict[str, list[int]]:
    """Per player (at least of ``players``), the SOS contribution of each round 1..R (see the
    module docstring): depth 1, a player's own rounds and his opponents' values (the STS
    family's bonus is a group's, so it is rebuilt in full)."""

    def build_for(players: Collection[str]) -> dict[str, list[int]]:
        values = opponent_values(ctx, family)
        handicap = family != "nbw" and ctx.rules.sos_handicap_correction
        r = ctx.round
        table = ctx.table
        out: dict[str, list[int]] = {}
        value_of = cast("Callable[[str | None], int]", values.__getitem__)
        rows, hds = table.opp, table.hd
        for pid in players:
            opp = rows[pid]
            if len(opp) > r:
                opp = opp[:r]
            if None in opp:  # a round without an opponent
                own = _unplayed_value(ctx, family, pid)
                row = [own if o is None else values[o] for o in opp]
            else:
                row = list(map(value_of, opp))
            if handicap:
                hd = hds[pid]
                if any(hd):
                    for i, o in enumerate(opp):
                        if o is not None and hd[i]:
                            row[i] += 2 * hd[i]
            out[pid] = row
        return out

    if family == "sts":
        return ctx.per_player("sos-contrib-sts", None, build_for)
    return ctx.per_player(f"sos-contrib-{family}", 1, build_for, players)


Values = Callable[[ScoringContext, Collection[str]], dict[str, int]]


@lru_cache(maxsize=8)
def _nones(rounds: int) -> tuple[list[None], ...]:
    """``[None] * k`` for k = 0..rounds: the tail of an opponent row whose last k rounds have
    no opponent (a standings view past the rounds played so far), compared in one step."""
    return tuple([None] * k for k in range(rounds + 1))


def _sos(family: str) -> Values:
    def compute_for(ctx: ScoringContext, players: Collection[str]) -> dict[str, int]:
        """Σ of :func:`contributions`, summed as they are made (no row per player is kept):
        the opponents' values, twice the handicaps of the games with the handicap term, and
        the own value of each round without an opponent."""
        values = opponent_values(ctx, family)
        handicap = family != "nbw" and ctx.rules.sos_handicap_correction
        r = ctx.round
        rows, hds = ctx.table.opp, ctx.table.hd
        value_of = cast("Callable[[str | None], int]", values.__getitem__)
        nones = _nones(r)
        out: dict[str, int] = {}
        for pid in players:
            opp = rows[pid]
            if len(opp) > r:
                opp = opp[:r]
            if None in opp:  # a round without an opponent
                own = _unplayed_value(ctx, family, pid)
                played = r - opp.count(None)
                if opp[played:] == nones[r - played]:  # opponents up to a round, none after (a view past it)
                    total = sum(map(value_of, opp[:played])) + own * (r - played)
                    if handicap:
                        total += 2 * sum(hds[pid][:played])
                else:
                    total = sum([own if o is None else values[o] for o in opp])
                    if handicap:  # (a handicap row runs to the table's size, past R)
                        total += 2 * sum([h for o, h in zip(opp, hds[pid], strict=False) if o is not None])
            else:
                total = sum(map(value_of, opp))
                if handicap:
                    hd = hds[pid]
                    total += 2 * sum(hd[:r] if len(hd) > r else hd)
            out[pid] = total
        return out

    return compute_for


def _sos_update(family: str) -> Callable[[ScoringContext, dict[str, int]], dict[str, int] | None]:
    """SOS from the previous point's: a player whose own rows did not change has the same
    opponents and handicaps as there, so his SOS moves by what his opponents' values moved,
    which only the players whose rows changed (:attr:`RoundTable.changed`) did; those are
    summed again. Each changed player's move is added to the opponents of his rounds 1..R
    (each game is in both players' rows): the work of his games, not of the whole field."""

    def update(ctx: ScoringContext, before: dict[str, int]) -> dict[str, int] | None:
        table = ctx.table
        changed = table.changed
        # the opponents' values are the accumulated scores (not the virtual ones, nor STS)
        earlier = ctx.previous_score2(family) if family != "sts" and not ctx.not_played_as_half else None
        if changed is None or earlier is None or not ctx.few(changed):
            return None  # (most of the field changed: summing everyone's again costs less)
        values = opponent_values(ctx, family)
        found = dict(before)
        r = ctx.round
        rows = table.opp
        for moved in changed:
            delta = values[moved] - earlier[moved]
            if delta:
                for pid in rows[moved][:r]:
                    if pid is not None and pid not in changed and pid in found:
                        found[pid] += delta
        found.update(_sos(family)(ctx, changed))
        return found

    return update


def _cut(family: str, drop: int) -> Values:
    def compute_for(ctx: ScoringContext, players: Collection[str]) -> dict[str, int]:
        if family == "mms" and ctx.policy.quirk_sosm_cut_early_rounds and ctx.round <= 2:
            return dict.fromkeys(players, 0)
        contrib = contributions(ctx, family, players)
        out = {}
        for pid in players:
            row = contrib[pid]
            if len(row) <= drop:
                out[pid] = 0
            elif drop == 1:
                out[pid] = sum(row) - min(row)
            else:
                out[pid] = sum(sorted(row)[drop:])
        return out

    return compute_for


def sodos_factor2(ctx: ScoringContext, player_id: str, round_: int) -> int:
    """The SODOS weight of a round in half-points: the points scored (win 2, jigo 1, both-win
    2; ``policy.sodos_weighting="points-scored"``, OpenGotha) or 2 for a plain win only
    (``"decisive-wins"``, pairgoth ≤ 0.26); 0 without a game."""
    i = round_ - 1
    game = ctx.table.game[player_id][i]
    if game is None:
        return 0
    points = ctx.table.res2[player_id][i]
    if ctx.policy.sodos_weighting == "decisive-wins":
        return 2 if points == 2 and game.result in (Result.WHITE, Result.BLACK) else 0
    return points


def _sodos(family: str) -> Values:
    def compute_for(ctx: ScoringContext, players: Collection[str]) -> dict[str, int]:
        contrib = contributions(ctx, family, players)
        out = {}
        if ctx.policy.sodos_weighting == "decisive-wins":
            for pid in players:
                row = contrib[pid]
                out[pid] = sum(row[r - 1] * f for r in range(1, ctx.round + 1) if (f := sodos_factor2(ctx, pid, r)))
            return out
        for pid in players:
            row, res2, opp = contrib[pid], ctx.table.res2[pid], ctx.table.opp[pid]
            out[pid] = sum(row[i] * res2[i] for i in range(ctx.round) if opp[i] is not None and res2[i])
        return out

    return compute_for


def _sosos(family: str) -> Values:
    sos_name = _SOS_NAME[family]

    def compute_for(ctx: ScoringContext, players: Collection[str]) -> dict[str, int]:
        r = ctx.round
        sos: Mapping[str, int]
        if ctx.few(players):
            rows = ctx.table.opp
            sos = ctx.values_for(sos_name, {o for pid in players for o in rows[pid][:r] if o is not None})
        else:
            sos = ctx.value(sos_name)
        per_round_unplayed = family == "mms" and ctx.policy.sosos_unplayed == "start-score-times-round"
        out = {}
        sos_of = cast("Callable[[str | None], int]", sos.__getitem__)
        rows = ctx.table.opp
        nones = _nones(r)
        for pid in players:
            opp = rows[pid]
            if len(opp) > r:
                opp = opp[:r]
            if None in opp:  # a round without an opponent
                unplayed = 2 * ctx.smms[pid] * r if per_round_unplayed else 0
                missing = opp.count(None)
                played = opp[:r - missing] if opp[r - missing:] == nones[missing] else [o for o in opp if o is not None]
                total = sum(map(sos_of, played)) + unplayed * missing
            else:
                total = sum(map(sos_of, opp))
            out[pid] = total
        return out

    return compute_for


def _everyone(compute_for: Values) -> Callable[[ScoringContext], dict[str, int]]:
    """The values of every player: ``compute_for`` on all of them."""
    return lambda ctx: compute_for(ctx, ctx.all_players)


# ----------------------------------------------------------------------------- explain


def _opponent_rule(ctx: ScoringContext, family: str) -> str:
    name = _FAMILY_NAME[family]
    if family == "sts" and ctx.not_played_as_half and ctx.policy.quirk_sosts_virtual_zero:
        return gettext("opponent's STS counts 0 with the half-point option (OpenGotha quirk: virtual STS never "
                       "filled)")
    if ctx.not_played_as_half:
        return gettext("opponent's virtual %(name)s at round %(round)d (half-point option: not-played rounds count "
                       "½)") % {"name": name, "round": ctx.round}
    return gettext("opponent's %(name)s at round %(round)d") % {"name": name, "round": ctx.round}


def _unplayed_rule(ctx: ScoringContext, family: str) -> str:
    if family == "nbw":
        return gettext("own round without opponent counts 0 in the NBW family")
    if ctx.policy.sos_own_unplayed == "start-score":
        return gettext("own round without opponent counts the player's own start McMahon score (spec §2.2, EGF §6.2)")
    return gettext("own round without opponent counts 0 under policy %(policy)s") % {"policy": ctx.policy.name}


def sos_terms(ctx: ScoringContext, family: str, player_id: str) -> list[Term]:
    """One term per round 1..R: the opponent's value (+ handicap) or the substitute."""
    values = opponent_values(ctx, family)
    contrib = contributions(ctx, family)[player_id]
    terms = []
    for r in range(1, ctx.round + 1):
        i = r - 1
        o = ctx.opp[player_id][i]
        if o is not None:
            term = game_term(ctx, player_id, r, contrib[i], _opponent_rule(ctx, family))
            term.detail["opponent_value2"] = values[o]
            term.detail["handicap_correction2"] = contrib[i] - values[o]
            terms.append(term)
        else:
            status = ctx.status[player_id][i]
            terms.append(Term(r, contrib[i], _no_opponent(status), rule=_unplayed_rule(ctx, family)))
    return terms


def _explain_sos(family: str, drop: int):
    base = _SOS_NAME[family]
    name = base if drop == 0 else f"{base}-{drop}"

    def explain(ctx: ScoringContext, player_id: str) -> Explanation:
        terms = sos_terms(ctx, family, player_id)
        value = ctx.value(name)[player_id]
        rule = gettext("sum of opponents' %(name)s at round %(round)d") % {"name": _FAMILY_NAME[family],
                                                                           "round": ctx.round}
        if family != "nbw" and ctx.rules.sos_handicap_correction:
            rule += gettext(", ± handicap (+h when the player gave the stones)")
        if drop:
            rule += ngettext(", minus the %(num)d smallest round value", ", minus the %(num)d smallest round values",
                             drop) % {"num": drop}
            if family == "mms" and ctx.policy.quirk_sosm_cut_early_rounds and ctx.round <= 2:
                rule += gettext("; OpenGotha quirk: SOSM-1/-2 are 0 after rounds 1 and 2")
                terms = [Term(t.round, 0, t.source, t.opponent, gettext("not stored before round 3 (quirk §2.7.1)"),
                              t.detail) for t in terms]
            else:
                ordered = sorted(terms, key=lambda t: t.value)[:drop]
                dropped = {id(t) for t in ordered}
                terms = [Term(t.round, 0, gettext("%(source)s — dropped") % {"source": t.source}, t.opponent,
                              ngettext("the smallest value (%(value)s) is dropped",
                                       "one of the %(num)d smallest values (%(value)s) is dropped", drop) % {
                                  "num": drop, "value": t.value},
                              {**t.detail, "dropped_value2": t.value}) if id(t) in dropped else t for t in terms]
        return Explanation(name, player_id, ctx.round, value, 2, rule, tuple(terms))

    return explain


def _explain_sodos(family: str):
    name = "SODOSW" if family == "nbw" else "SODOSM"

    def explain(ctx: ScoringContext, player_id: str) -> Explanation:
        terms = []
        for t in sos_terms(ctx, family, player_id):
            if t.opponent is None:
                terms.append(Term(t.round, 0, t.source, rule=gettext("a round without a game adds nothing")))
                continue
            factor2 = sodos_factor2(ctx, player_id, t.round)  # type: ignore[arg-type]
            weighting = (gettext("plain wins only") if ctx.policy.sodos_weighting == "decisive-wins"
                         else gettext("win 1, jigo ½, loss 0"))
            terms.append(Term(t.round, t.value * factor2, t.source, t.opponent,
                              gettext("%(rule)s × result (%(weighting)s)") % {"rule": t.rule, "weighting": weighting},
                              {**t.detail, "factor2": factor2}))
        return Explanation(name, player_id, ctx.round, ctx.value(name)[player_id], 4,
                           gettext("sum of defeated opponents' scores (jigo counts half), quarter points"),
                           tuple(terms))

    return explain


def _explain_sosos(family: str):
    name = "SOSOSW" if family == "nbw" else "SOSOSM"
    sos_name = _SOS_NAME[family]

    def explain(ctx: ScoringContext, player_id: str) -> Explanation:
        sos = ctx.value(sos_name)
        per_round = family == "mms" and ctx.policy.sosos_unplayed == "start-score-times-round"
        terms = []
        for r in range(1, ctx.round + 1):
            o = ctx.opp[player_id][r - 1]
            if o is not None:
                terms.append(game_term(ctx, player_id, r, sos[o], gettext("opponent's %(name)s at round %(round)d")
                                       % {"name": sos_name, "round": ctx.round}))
            else:
                value = 2 * ctx.smms[player_id] * ctx.round if per_round else 0
                rule = (gettext("own round without opponent: own start score × %(rounds)d rounds") % {
                            "rounds": ctx.round}
                        if per_round else gettext("own round without opponent counts 0"))
                terms.append(Term(r, value, _no_opponent(ctx.status[player_id][r - 1]), rule=rule))
        return Explanation(name, player_id, ctx.round, ctx.value(name)[player_id], 2,
                           gettext("sum of opponents' %(name)s (no handicap term)") % {"name": sos_name}, tuple(terms))

    return explain


def _no_opponent(status: str) -> str:
    return gettext("%(status)s (no opponent)") % {"status": status_word(status)}


def _register(name: str, scale: int, compute_for: Values, explain: Any, description: str, depth: int | None,
              aliases: tuple[str, ...] = (), update: Any = None) -> None:
    register(Criterion(name, scale, _everyone(compute_for), explain, description, aliases, depth,
                       compute_for if depth is not None else None, update))


for _fam in ("nbw", "mms"):
    _base = _SOS_NAME[_fam]
    _label = "NBW" if _fam == "nbw" else "MMS"
    _register(_base, 2, _sos(_fam), _explain_sos(_fam, 0), f"sum of opponents' {_label}", 1, update=_sos_update(_fam))
    _register(f"{_base}-1", 2, _cut(_fam, 1), _explain_sos(_fam, 1),
              f"sum of opponents' {_label} minus the smallest round value", 1, (f"{_base}M1",))
    _register(f"{_base}-2", 2, _cut(_fam, 2), _explain_sos(_fam, 2),
              f"sum of opponents' {_label} minus the two smallest round values", 1, (f"{_base}M2",))
    _register("SODOSW" if _fam == "nbw" else "SODOSM", 4, _sodos(_fam), _explain_sodos(_fam),
              f"sum of defeated opponents' {_label}", 1)
    _register(f"SOSOS{'W' if _fam == 'nbw' else 'M'}", 2, _sosos(_fam), _explain_sosos(_fam),
              f"sum of opponents' {_base}", 2)

_register("SOSTS", 2, _sos("sts"), _explain_sos("sts", 0), "sum of opponents' STS", None)
