"""MacMahon 3.10's own placement criteria (spec ``formats/macmahon.md`` §A), in quarter points.

Criterion names carry an ``MM-`` prefix so that they never collide with OpenGotha's
(``MM-SOS`` is MacMahon's SOS; ``SOSM`` stays OpenGotha's): ``MM-Score``, ``MM-ScoreX``,
``MM-Points`` (alias ``MM-Wins``), ``MM-SOS``, ``MM-SOSOS``, ``MM-SODOS``, ``MM-SORP``.
Scores and the SOS family are integers in **quarter points** (scale 4), wins in half wins
(scale 2), SORP in the file's own result points (scale 1).

Each counted round r ≤ R (R = the standings round) is one of:

* **game** — paired (any result, by the referee or not);
* **bye** — MacMahon's ``PairingWithBye``;
* **absent** — declared absent (``NotPlayingInRound``), withdrawn, or the player is
  preliminary;
* **unpaired** — none of these ("present but unpaired").

Values per round (quarters)::

    Score:  win 4, loss 0, jigo 2, ?-? 2, both-win 4, both-lose 0, bye 4, absent/unpaired 2
    ScoreX: as Score, but absent/unpaired 0
    Points: win 2, jigo 1, both-win 2, bye 2, else 0            (half wins)

``Score = start + Σ``; with ``HalfScoreGroupsRoundDown`` a total with a ½ loses it, unless
``HalfScoreGroupsRoundDownNotJigo`` is on and the player has an odd number of jigos (the
same rounding applies to ScoreX). Every "score" below is the Score at round R.

* **SOS**: absent → own start score (with ``HalfScoreGroupsRoundDown`` rounded down to a
  whole point, as MacMahon does: a ±½ ``ScoreAdjustment`` gives such a start); unpaired →
  own score; bye → max(own score − 4, 0) (0 with ``ByeShouldResultInZeroSOSetc``); game →
  opponent's score, and with ``HandicapIncludeInTieBreakers`` Black subtracts 4·h (the
  running total floored at 0) and White adds 4·h.
* **SOSOS**: absent → own start × R (never rounded); unpaired → own SOS; bye → own SOS (0
  with the bye option); game → opponent's SOS.
* **SODOS**: bye → max(own score − 4, 0) unless the bye option; win → opponent's score
  (∓4·h as in SOS); jigo → ⌊opponent's score / 2⌋ (∓2·h); anything else 0.
* **SORP**: ± the game's ``ResultPoints``: + for the winner, − for the loser; for any other
  result + for Black and − for White.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from goledger.i18n import N_, gettext
from goledger.ledger.values import Result
from goledger.replay.scoring.criteria import Criterion, Explanation, Term, register
from goledger.replay.scoring.macmahon_rules import (
    MacMahonRules,
    adjustment,
    player_level,
    start_score,
    super_bar_member,
)

if TYPE_CHECKING:
    from goledger.replay.scoring.scoring import RoundEntry, ScoringContext

__all__ = ["MacMahonTables", "macmahon_tables", "round_kind"]


def round_kind(entry: RoundEntry, preliminary: bool) -> str:
    """``game``, ``bye``, ``absent`` or ``unpaired`` for one round of a player (module docstring)."""
    if entry.status == "paired":
        return "game"
    if entry.status == "bye":
        return "bye"
    if preliminary or entry.status in ("absent", "withdrawn"):
        return "absent"
    return "unpaired"


def _outcome(entry: RoundEntry) -> str:
    """``win``, ``loss``, ``jigo``, ``both-win``, ``both-lose`` or ``unknown`` for the player."""
    assert entry.game is not None
    result = entry.game.result
    if result is Result.WHITE:
        return "win" if entry.is_white else "loss"
    if result is Result.BLACK:
        return "loss" if entry.is_white else "win"
    if result is Result.UNKNOWN:
        return "unknown"
    return result.value


_SCORE = {"win": 4, "loss": 0, "jigo": 2, "unknown": 2, "both-win": 4, "both-lose": 0}
_WINS = {"win": 2, "jigo": 1, "both-win": 2}


@dataclass
class MacMahonTables:
    """Every MacMahon value of every player at round R, with the terms that produced them."""

    rules: MacMahonRules
    start: dict[str, int] = field(default_factory=dict)
    score: dict[str, int] = field(default_factory=dict)
    scorex: dict[str, int] = field(default_factory=dict)
    wins2: dict[str, int] = field(default_factory=dict)
    sos: dict[str, int] = field(default_factory=dict)
    sosos: dict[str, int] = field(default_factory=dict)
    sodos: dict[str, int] = field(default_factory=dict)
    sorp: dict[str, int] = field(default_factory=dict)
    terms: dict[str, dict[str, list[Term]]] = field(default_factory=dict)
    record: bool = False

    def add_term(self, criterion: str, pid: str, term: Term) -> None:
        if self.record:
            self.terms.setdefault(criterion, {}).setdefault(pid, []).append(term)


def macmahon_tables(ctx: ScoringContext, terms: bool = False) -> MacMahonTables:
    """The MacMahon values of a context (computed once and shared by the criteria); with
    ``terms`` also the terms behind every value (for ``explain``)."""
    key = "macmahon-terms" if terms else "macmahon"
    return ctx.memoized(key, lambda: _compute(ctx, terms))


def _rounded(value: int, jigos: int, rules: MacMahonRules) -> int:
    if rules.round_down and value % 4 == 2 and not (rules.round_down_not_jigo and jigos % 2 == 1):
        return value - 2
    return value


def _compute(ctx: ScoringContext, record: bool) -> MacMahonTables:
    rules = MacMahonRules.of(ctx.settings)
    t = MacMahonTables(rules, record=record)
    players = ctx.state.players
    kinds: dict[str, list[str]] = {}
    for pid, player in players.items():
        on, value = adjustment(player)
        t.start[pid] = start_score(player_level(player), on, value, super_bar_member(player), rules)
        preliminary = player.status == "preliminary"
        kinds[pid] = [round_kind(e, preliminary) for e in ctx.entries[pid]]

    _scores(ctx, t, kinds, rules, record)
    _sos_sodos(ctx, t, kinds, rules, record)
    _sosos_sorp(ctx, t, kinds, rules, record)
    return t


def _scores(ctx: ScoringContext, t: MacMahonTables, kinds: dict[str, list[str]], rules: MacMahonRules,
        record: bool) -> None:
    """Score, ScoreX and Points of every player: start score plus each round's value, rounded
    as the rules say (spec macmahon.md §A)."""
    for pid, entries in ctx.entries.items():
        score = scorex = wins2 = jigos = 0
        for entry, kind in zip(entries, kinds[pid], strict=True):
            if kind == "game":
                outcome = _outcome(entry)
                v, vx, w = _SCORE[outcome], _SCORE[outcome], _WINS.get(outcome, 0)
                jigos += outcome == "jigo"
                source = gettext("game %(outcome)s") % {"outcome": _outcome_word(outcome)} if record else ""
            elif kind == "bye":
                v, vx, w, source = 4, 4, 2, gettext("bye") if record else ""
            else:
                v, vx, w, source = 2, 0, 0, _kind_word(kind) if record else ""
            score += v
            scorex += vx
            wins2 += w
            if record:
                t.add_term("MM-Score", pid, Term(entry.round, v, source, entry.opponent))
            if record:
                t.add_term("MM-ScoreX", pid, Term(entry.round, vx, source, entry.opponent))
            if record:
                t.add_term("MM-Points", pid, Term(entry.round, w, source, entry.opponent))
        start = t.start[pid]
        t.score[pid] = _rounded(start + score, jigos, rules)
        t.scorex[pid] = _rounded(start + scorex, jigos, rules)
        t.wins2[pid] = wins2
        totals = (("MM-Score", t.score[pid], start + score), ("MM-ScoreX", t.scorex[pid], start + scorex))
        for name, total, raw in totals if record else ():
            first = Term(None, start, gettext("start score"), rule=gettext("spec macmahon.md §A start score"))
            t.terms.setdefault(name, {}).setdefault(pid, []).insert(0, first)
            if total != raw:
                t.add_term(name, pid, Term(None, total - raw, gettext("rounding"), rule="HalfScoreGroupsRoundDown"))


def _sos_sodos(ctx: ScoringContext, t: MacMahonTables, kinds: dict[str, list[str]], rules: MacMahonRules,
        record: bool) -> None:
    """SOS and SODOS (they need every player's Score first), with the substitutes for absent,
    unpaired and bye rounds."""
    for pid, entries in ctx.entries.items():
        own = t.score[pid]
        sos = sodos = 0
        for entry, kind in zip(entries, kinds[pid], strict=True):
            r = entry.round
            if kind == "absent":
                v = _rounded(t.start[pid], 0, rules)
                sos += v
                if record:
                    source = (gettext("absent: own start score rounded down (HalfScoreGroupsRoundDown)")
                              if v != t.start[pid] else gettext("absent: own start score"))
                    t.add_term("MM-SOS", pid, Term(r, v, source))
                continue
            if kind == "unpaired":
                sos += own
                if record:
                    t.add_term("MM-SOS", pid, Term(r, own, gettext("unpaired: own score")))
                continue
            if kind == "bye":
                v = 0 if rules.bye_zero else max(own - 4, 0)
                sos += v
                sodos += v
                if record:
                    rule = "ByeShouldResultInZeroSOSetc" if rules.bye_zero else gettext("max(own score − 4, 0)")
                    t.add_term("MM-SOS", pid, Term(r, v, gettext("bye"), rule=rule))
                    t.add_term("MM-SODOS", pid, Term(r, v, gettext("bye"), rule=rule))
                continue
            game = entry.game
            assert game is not None and entry.opponent is not None
            opp = t.score[entry.opponent]
            h = game.handicap if rules.handicap_in_tiebreakers else 0
            before = sos
            sos = _with_handicap(sos, opp, 4 * h, entry.is_white)
            if record:
                colour = gettext("white") if entry.is_white else gettext("black")
                t.add_term("MM-SOS", pid, Term(r, sos - before, gettext("opponent's score"), entry.opponent,
                                               detail={"opponent_score": opp, "handicap": game.handicap,
                                                       "colour": colour}))
            outcome = _outcome(entry)
            if outcome == "win":
                before = sodos
                sodos = _with_handicap(sodos, opp, 4 * h, entry.is_white)
                if record:
                    t.add_term("MM-SODOS", pid, Term(r, sodos - before, gettext("win: opponent's score"),
                                                         entry.opponent))
            elif outcome == "jigo":
                before = sodos
                sodos = _with_handicap(sodos, opp // 2, 2 * h, entry.is_white)
                if record:
                    t.add_term("MM-SODOS", pid, Term(r, sodos - before, gettext("jigo: half the opponent's score"),
                                                     entry.opponent))
        t.sos[pid] = sos
        t.sodos[pid] = sodos


def _sosos_sorp(ctx: ScoringContext, t: MacMahonTables, kinds: dict[str, list[str]], rules: MacMahonRules,
        record: bool) -> None:
    """SOSOS and SORP (they need every player's SOS first)."""
    R = ctx.round
    for pid, entries in ctx.entries.items():
        sosos = sorp = 0
        for entry, kind in zip(entries, kinds[pid], strict=True):
            r = entry.round
            if kind == "absent":
                v, source = t.start[pid] * R, N_("absent: own start score × R")
            elif kind == "unpaired":
                v, source = t.sos[pid], N_("unpaired: own SOS")
            elif kind == "bye":
                v, source = (0, N_("bye (option: 0)")) if rules.bye_zero else (t.sos[pid], N_("bye: own SOS"))
            else:
                assert entry.opponent is not None and entry.game is not None
                v, source = t.sos[entry.opponent], N_("opponent's SOS")
                points = _result_points(entry)
                if points:
                    sorp += points
                    if record:
                        t.add_term("MM-SORP", pid, Term(r, points, gettext("result points"), entry.opponent))
            sosos += v
            if record:
                t.add_term("MM-SOSOS", pid, Term(r, v, gettext(source), entry.opponent))
        t.sosos[pid] = sosos
        t.sorp[pid] = sorp


def _with_handicap(total: int, value: int, stones: int, is_white: bool) -> int:
    """Add ``value``; White adds ``stones`` more, Black subtracts them and the running total
    is floored at 0 (spec §A SOS)."""
    if is_white:
        return total + value + stones
    if stones:
        return max(total + value - stones, 0)
    return total + value


def _result_points(entry: RoundEntry) -> int:
    game = entry.game
    assert game is not None
    points = game.result_points
    if not points:
        return 0
    outcome = _outcome(entry)
    if outcome == "win":
        return points
    if outcome == "loss":
        return -points
    return -points if entry.is_white else points


_FIELDS = {
    "MM-Score": "score",
    "MM-ScoreX": "scorex",
    "MM-Points": "wins2",
    "MM-SOS": "sos",
    "MM-SOSOS": "sosos",
    "MM-SODOS": "sodos",
    "MM-SORP": "sorp",
}
_SCALES = {"MM-Points": 2, "MM-SORP": 1}
_RULES = {
    "MM-Score": N_("start score + win 1, jigo ½, ?-? ½, bye 1, absent/unpaired ½ (MacMahon 3.10, spec §A)"),
    "MM-ScoreX": N_("as MM-Score, but absent or unpaired rounds add 0 (spec §A)"),
    "MM-Points": N_("number of wins: win 1, jigo ½, both-win 1, bye 1 (spec §A)"),
    "MM-SOS": N_("Σ opponents' Score ± 4·handicap; absent: own start; unpaired: own score; bye: own score − 1 "
                 "(spec §A)"),
    "MM-SOSOS": N_("Σ opponents' SOS; absent: own start × R; unpaired/bye: own SOS (spec §A)"),
    "MM-SODOS": N_("Σ defeated opponents' Score, ½ for a jigo, ± handicap; bye: own score − 1 (spec §A)"),
    "MM-SORP": N_("Σ ± ResultPoints: + winner, − loser; otherwise + Black, − White (spec §A)"),
}
"""Each criterion's rule as ``explain`` shows it (translated there)."""


def _outcome_word(outcome: str) -> str:
    """``win``, ``loss``, ``jigo``… (:func:`_outcome`) in words."""
    return {"win": gettext("win"), "loss": gettext("loss"), "jigo": gettext("jigo"), "both-win": gettext("both win"),
            "both-lose": gettext("both lose"), "unknown": gettext("result unknown")}.get(outcome, outcome)


def _kind_word(kind: str) -> str:
    """``absent`` or ``unpaired`` (:func:`round_kind`) in words."""
    return {"absent": gettext("absent"), "unpaired": gettext("not paired")}.get(kind, kind)


def _make(name: str, description: str, aliases: tuple[str, ...] = ()) -> Criterion:
    attr = _FIELDS[name]
    scale = _SCALES.get(name, 4)

    def compute(ctx: ScoringContext) -> dict[str, int]:
        values: dict[str, int] = getattr(macmahon_tables(ctx), attr)
        return dict(values)

    def explain(ctx: ScoringContext, player_id: str) -> Explanation:
        t: Any = macmahon_tables(ctx, terms=True)
        terms = t.terms.get(name, {}).get(player_id, [])
        return Explanation(name, player_id, ctx.round, getattr(t, attr)[player_id], scale,
                           gettext(_RULES[name]), tuple(terms))

    return register(Criterion(name, scale, compute, explain, description, aliases))


_make("MM-Score", "MacMahon's Score (McMahon score, absent/unpaired ½), quarter points")
_make("MM-ScoreX", "MacMahon's ScoreX (absent/unpaired 0), quarter points")
_make("MM-Points", "MacMahon's Points: number of wins, half wins", aliases=("MM-Wins",))
_make("MM-SOS", "MacMahon's SOS, quarter points")
_make("MM-SOSOS", "MacMahon's SOSOS, quarter points")
_make("MM-SODOS", "MacMahon's SODOS, quarter points")
_make("MM-SORP", "MacMahon's SORP: sum of result points")
