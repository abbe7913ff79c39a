"""Rounds as FIDE sees them: unplayed-round categories, scores and adjusted scores.

Spec ``scoring.md`` §4.3–4.4 (FIDE C.07 articles 15–16; C.02 §13.15–13.16 for 2009) and
``formats/trf.md`` §4. Everything is exact: points are integer **half-points** (``2`` is a
standard win) under the policy's point system (:class:`PointSystem`).

**What a round is** (:class:`Kind`), for a player at a round R of the standings:

==========================  =================================================  ==========
ledger fact                 kind                                               16.2 cat.
==========================  =================================================  ==========
game with a known result    ``game`` (played over the board)                   —
game without a result       ``pending`` (counts as a game worth 0)             —
by-default win / loss       ``forfeit-win`` / ``forfeit-loss`` (both-lose:      2 / 4
                            a double forfeit, a loss for each)
by-default jigo             ``forfeit-draw`` (a default tie by arbitration)    2
the round's bye             ``pairing-allocated-bye`` (PAB)                    1
absence worth 1 / ½ / 0     ``full-point-bye`` / ``half-point-bye`` /          1 / 3–5
                            ``zero-point-bye``
participating, unpaired     ``not-paired`` (a zero-point bye)                  3–5
round after a withdrawal    ``withdrawal`` (a zero-point bye, C.07 16.1.1)     3–5
==========================  =================================================  ==========

A **requested bye** is a half- or zero-point bye (not-paired and withdrawal rounds
included); a **VUR** (voluntary unplayed round) is a requested bye or a forfeit loss. A
requested bye is category 3 when a round that is not a VUR follows it, else category 5
("followed only by VURs, or in the last round"). With policy option
``fide_last_round="standings-round"`` (default) round R is the last round in standings
after round R; with ``"scheduled"`` the rounds after R count as known VURs only when the
player has withdrawn from them or announced an absence.

**Opponent side** (16.3, policy ``opponent_score_adjustment``): the score an opponent
sees, the *adjusted score*: ``none`` (actual score), ``all-unplayed-as-draw`` (2009: every
round without a played game counts as a draw), ``withdrawal-as-draw`` (2023+: category-5
rounds count as a draw; option ``fide_withdrawal_detection="trailing-forfeits-too"`` adds
forfeit losses followed only by VURs).

**Own side** (16.4, policy ``sos_own_unplayed``): what an own unplayed round brings to the
player's Buchholz and Sonneborn-Berger: ``virtual-opponent`` (2009:
``SPR + complement(SfPR) + draw·(n − r)``, n = the rounds counted), ``dummy`` (2023/2024:
the player's own score), ``capped-dummy`` (2026: the dummy capped at the scheduled
opponent's adjusted score for forfeits, at draw points × rounds otherwise), ``zero`` or
``start-score`` (0). With ``sos_own_forfeit_round="scheduled-opponent"`` a forfeit round
counts its scheduled opponent like a game.

With pre-determined pairings (round robin, option ``fide_event_type``) article 16 does
not apply: forfeits are games, no score is adjusted, rounds without opponent bring 0.

>>> ps = PointSystem.parse("W=3 D=1 PAB=3")
>>> ps.ww, ps.wd, ps.hpb, ps.pab, ps.fw
(6, 2, 2, 6, 6)
>>> virtual_opponent2(spr2=2, sf2=2, draw2=1, win2=2, loss2=0, rounds=7, round_=2)
7
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final

from goledger.errors import CommandRejected
from goledger.i18n import N_, gettext
from goledger.ledger.values import Result, parse_points2
from goledger.replay.scoring.rules import rules_for

if TYPE_CHECKING:
    from goledger.replay.fold.state import GameState, TournamentState
    from goledger.replay.scoring.policies import Policy
    from goledger.replay.scoring.scoring import ScoringContext

__all__ = [
    "FideData",
    "FideRound",
    "Kind",
    "PointSystem",
    "Substitute",
    "fide_data",
    "virtual_opponent2",
]


class Kind(enum.StrEnum):
    """What a player's round was, in FIDE's terms (see the module docstring)."""

    GAME = "game"
    PENDING = "pending"
    FORFEIT_WIN = "forfeit-win"
    FORFEIT_LOSS = "forfeit-loss"
    FORFEIT_DRAW = "forfeit-draw"
    PAB = "pairing-allocated-bye"
    FULL_BYE = "full-point-bye"
    HALF_BYE = "half-point-bye"
    ZERO_BYE = "zero-point-bye"
    NOT_PAIRED = "not-paired"
    WITHDRAWN = "withdrawal"

    @property
    def has_opponent(self) -> bool:
        """A game or a forfeit: the round has a (scheduled) opponent."""
        return self in _WITH_OPPONENT

    @property
    def played(self) -> bool:
        """Played over the board (a pending game counts as paired, not as played)."""
        return self is Kind.GAME

    @property
    def unplayed(self) -> bool:
        """A round in which the player did not play a game (C.07 15/16)."""
        return self not in (Kind.GAME, Kind.PENDING)

    @property
    def requested_bye(self) -> bool:
        return self in _REQUESTED

    @property
    def vur(self) -> bool:
        """A voluntary unplayed round: a requested bye or a forfeit loss (C.07 16.1)."""
        return self in _REQUESTED or self is Kind.FORFEIT_LOSS

    @property
    def category_word(self) -> str:
        """The word the adjusted-score view uses: bye, forfeit win/loss/draw, absence, withdrawal."""
        return gettext(_WORDS[self])


_WITH_OPPONENT: Final = frozenset({Kind.GAME, Kind.PENDING, Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS, Kind.FORFEIT_DRAW})
_REQUESTED: Final = frozenset({Kind.HALF_BYE, Kind.ZERO_BYE, Kind.NOT_PAIRED, Kind.WITHDRAWN})
_WORDS: Final = {
    Kind.GAME: N_("game"),
    Kind.PENDING: N_("game without result"),
    Kind.FORFEIT_WIN: N_("forfeit win"),
    Kind.FORFEIT_LOSS: N_("forfeit loss"),
    Kind.FORFEIT_DRAW: N_("forfeit draw"),
    Kind.PAB: N_("bye"),
    Kind.FULL_BYE: N_("bye"),
    Kind.HALF_BYE: N_("absence"),
    Kind.ZERO_BYE: N_("absence"),
    Kind.NOT_PAIRED: N_("absence"),
    Kind.WITHDRAWN: N_("withdrawal"),
}

CATEGORY_TEXT: Final = {
    1: "16.2.1 pairing-allocated or full-point bye",
    2: "16.2.2 forfeit win",
    3: "16.2.3 requested bye followed by a round that is not a VUR",
    4: "16.2.4 forfeit loss",
    5: "16.2.5 requested bye followed only by VURs, or in the last round",
}


# --------------------------------------------------------------------------- point system

_XXS_CODES: Final = ("WW", "BW", "WD", "BD", "WL", "BL", "ZPB", "HPB", "FPB", "PAB", "FW", "FL")
_SHORTCUTS: Final = {
    "W": ("WW", "BW", "FW", "FPB"),
    "D": ("WD", "BD", "HPB"),
    "L": ("WL", "BL"),
    "A": ("ZPB", "FL"),
    "P": ("PAB",),
}
_STANDARD: Final = {
    "WW": 2, "BW": 2, "WD": 1, "BD": 1, "WL": 0, "BL": 0, "ZPB": 0, "HPB": 1, "FPB": 2, "FW": 2, "FL": 0,
}


@dataclass(frozen=True, slots=True)
class PointSystem:
    """Points of every outcome in half-points (TRF(x) ``XXS`` codes; spec trf.md §6).

    ``pab`` is ``None`` unless the system names it: the pairing-allocated bye then keeps
    the tournament's (or the policy's) bye value, as the ledger records it.
    """

    ww: int = 2
    bw: int = 2
    wd: int = 1
    bd: int = 1
    wl: int = 0
    bl: int = 0
    zpb: int = 0
    hpb: int = 1
    fpb: int = 2
    pab: int | None = None
    fw: int = 2
    fl: int = 0

    @classmethod
    def parse(cls, text: str) -> PointSystem:
        """Parse ``"W=3 D=1 PAB=3"`` (XXS codes and the shortcuts W, D, L, A, P; later wins).

        >>> PointSystem.parse("") == PointSystem()
        True
        >>> PointSystem.parse("W=1.5 X=2")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        goledger.errors.CommandRejected: point system 'W=1.5 X=2': unknown code 'X'; use WW, BW, ...
        """
        values: dict[str, int] = {}
        for item in text.replace(",", " ").split():
            code, sep, raw = item.partition("=")
            code = code.strip().upper()
            if not sep:
                raise CommandRejected(f"point system {text!r}: {item!r} is not CODE=VALUE")
            if code not in _XXS_CODES and code not in _SHORTCUTS:
                names = ", ".join((*_XXS_CODES, "W", "D", "L", "A")) + " or P"
                raise CommandRejected(f"point system {text!r}: unknown code {code!r}; use {names}")
            try:
                value = parse_points2(raw)
            except ValueError:
                raise CommandRejected(f"point system {text!r}: {raw!r} is not a whole or half point") from None
            for target in _SHORTCUTS.get(code, (code,)):
                values[target] = value
        return cls(**{k.lower(): v for k, v in values.items()})

    @property
    def win2(self) -> int:
        return self.ww

    @property
    def draw2(self) -> int:
        return self.wd

    @property
    def loss2(self) -> int:
        return self.wl

    @property
    def is_standard(self) -> bool:
        """1 / ½ / 0 everywhere (a pairing bye named worth a win counts as standard)."""
        return self.pab in (None, 2) and replace(self, pab=None) == PointSystem()

    def to_text(self) -> str:
        """The non-standard codes in XXS syntax (``""`` for the standard system)."""
        parts = []
        for code in _XXS_CODES:
            value = getattr(self, code.lower())
            if value is None or value == _STANDARD.get(code, 2):
                continue
            parts.append(f"{code}={_decimal(value)}")
        return " ".join(parts)

    def complement2(self, got2: int) -> int:
        """The complementary result's points (2009 virtual opponent): win ↔ loss, draw ↔ draw."""
        if got2 == self.win2:
            return self.loss2
        if got2 == self.loss2:
            return self.win2
        if got2 == self.draw2:
            return self.draw2
        return self.win2 + self.loss2 - got2



def _decimal(value2: int) -> str:
    return f"{value2 // 2}" if value2 % 2 == 0 else f"{value2 / 2:.1f}"


def virtual_opponent2(*, spr2: int, sf2: int, draw2: int, win2: int, loss2: int, rounds: int, round_: int) -> int:
    """The 2009 virtual opponent (C.02 §13.16): ``SPR + complement(SfPR) + draw·(n − r)``.

    ``spr2`` is the player's score before round ``round_``, ``sf2`` what he was awarded in it,
    ``rounds`` the number of rounds counted (n). Half-points. Spec §4.4 examples: 1½ before
    R3, no-show in R3 of 9 → 2½ after R3, 5½ at the end.

    >>> virtual_opponent2(spr2=3, sf2=0, draw2=1, win2=2, loss2=0, rounds=9, round_=3)
    11
    >>> virtual_opponent2(spr2=3, sf2=0, draw2=1, win2=2, loss2=0, rounds=3, round_=3)
    5
    """
    got = sf2
    if got == win2:
        comp = loss2
    elif got == loss2:
        comp = win2
    elif got == draw2:
        comp = draw2
    else:
        comp = win2 + loss2 - got
    return spr2 + comp + draw2 * max(0, rounds - round_)


# --------------------------------------------------------------------------- rounds


@dataclass(slots=True)
class FideRound:
    """One player's round. ``points2`` is what he was awarded; ``opponent`` the scheduled
    opponent (games and forfeits); ``white`` his colour (``None`` without a game);
    ``category`` the 16.2 category of an unplayed round (``None`` for a game)."""

    round: int
    kind: Kind
    points2: int
    opponent: str | None = None
    white: bool | None = None
    category: int | None = None
    table: int | None = None
    won: bool = False
    """Awarded the points of a win (a won game, a forfeit win, a bye worth a win: C.07 7.1)."""
    outcome: str = ""
    """For games and forfeits: ``"win"``, ``"draw"`` or ``"loss"`` (``""`` otherwise)."""


class Substitute:
    """What an own unplayed round brings to BH/SB, and why (for ``explain``)."""

    __slots__ = ("rule", "source", "value2")

    def __init__(self, value2: int, source: str, rule: str) -> None:
        self.value2 = value2
        self.source = source
        self.rule = rule


class FideData:
    """Every player's rounds 1..R under a policy, with scores and adjusted scores.

    ``fore`` builds the Fore-Buchholz variant (C.07 8.3): every paired game of round R
    (the last round counted) becomes a drawn game.
    """

    def __init__(self, state: TournamentState, round_: int, policy: Policy, *, fore: bool = False) -> None:
        if state.settings is None:
            raise ValueError("the ledger has no TournamentCreated event")
        self.state = state
        self.round = round_
        self.policy = policy
        self.fore = fore
        self.points = PointSystem.parse(policy.point_system)
        rules = rules_for(policy, state.settings_for_round(max(round_, 1)))
        self.round_robin = rules.fide_event_type == "round-robin"
        self.scheduled_rounds = max(state.rounds, round_)
        horizon = self.scheduled_rounds if policy.fide_last_round == "scheduled" else round_
        all_rounds = _build_rounds(state, max(round_, horizon), policy, self.points,
                                   fore_round=round_ if fore else None)
        self.rounds: dict[str, list[FideRound]] = {pid: rows[:round_] for pid, rows in all_rounds.items()}
        for pid, rows in self.rounds.items():
            _categorise(rows, all_rounds[pid][round_:], policy, lookahead=horizon > round_)
        self.running2: dict[str, list[int]] = {}
        self.score2: dict[str, int] = {}
        for pid, rows in self.rounds.items():
            total = 0
            running = [0]
            for fr in rows:
                total += fr.points2
                running.append(total)
            self.running2[pid] = running
            self.score2[pid] = total
        self.adjustment = self._adjustment()
        self.adjusted2: dict[str, int] = {pid: sum(self.seen2(fr) for fr in rows) for pid, rows in self.rounds.items()}
        self._opponent_view: FideData = self

    # ----------------------------------------------------------------- policy lookups

    def _adjustment(self) -> str:
        if self.round_robin:
            return "none"
        assert self.state.settings is not None
        return rules_for(self.policy, self.state.settings).opponent_score_adjustment

    def seen2(self, fr: FideRound) -> int:
        """What this round adds to the player's score as his opponents see it (16.3)."""
        adjustment = self.adjustment
        if adjustment == "all-unplayed-as-draw":
            return self.points.draw2 if fr.kind.unplayed else fr.points2
        if adjustment == "withdrawal-as-draw" and fr.category == 5:
            return self.points.draw2
        return fr.points2

    def seen_rule(self, fr: FideRound) -> str:
        adjustment = self.adjustment
        if adjustment == "all-unplayed-as-draw" and fr.kind.unplayed:
            return gettext("unplayed rounds count as draws for opponents (C.02 §13.15, 2009)")
        if adjustment == "withdrawal-as-draw" and fr.category == 5:
            return gettext("category 5 counts as a draw for opponents (C.07 16.3)")
        if adjustment == "none":
            return gettext("opponents see the actual score")
        return gettext("counts as awarded for opponents (C.07 16.3)")

    @property
    def opponent_view(self) -> FideData:
        """Where opponents' values come from (policy ``opponent_score_time``)."""
        return self._opponent_view

    def counts_as_game(self, fr: FideRound) -> bool:
        """Does the round count its (scheduled) opponent in BH/SB, like a played game?"""
        if fr.kind in (Kind.GAME, Kind.PENDING):
            return True
        if fr.kind.has_opponent:
            return self.round_robin or self.policy.sos_own_forfeit_round == "scheduled-opponent"
        return False

    def opponent_score2(self, opponent: str) -> int:
        """An opponent's adjusted score, taken where ``opponent_score_time`` says."""
        return self._opponent_view.adjusted2[opponent]

    def substitute(self, pid: str, fr: FideRound, *, for_sb: bool = False) -> Substitute:
        """The value an own unplayed round brings to BH (or SB), per ``sos_own_unplayed``."""
        if self.round_robin:
            return Substitute(0, gettext("no opponent"), gettext("pre-determined pairings: article 16 does not apply"))
        mode = self.policy.sos_own_unplayed
        view = self._opponent_view
        if mode == "virtual-opponent" and for_sb and not self.policy.virtual_opponent_for_sb:
            if fr.kind.has_opponent and fr.opponent is not None:
                return Substitute(self.opponent_score2(fr.opponent), gettext("scheduled opponent's adjusted score"),
                                  gettext("SB without the virtual opponent (policy virtual_opponent_for_sb)"))
            return Substitute(0, gettext("no opponent"),
                              gettext("SB without the virtual opponent (policy virtual_opponent_for_sb)"))
        if mode == "virtual-opponent":
            ps = self.points
            rounds = view.round
            spr = self.running2[pid][fr.round - 1]
            value = virtual_opponent2(spr2=spr, sf2=fr.points2, draw2=ps.draw2, win2=ps.win2, loss2=ps.loss2,
                                      rounds=rounds, round_=fr.round)
            comp = value - spr - ps.draw2 * max(0, rounds - fr.round)
            return Substitute(
                value,
                gettext("virtual opponent %(score)s + %(complement)s + %(draw)s·(%(rounds)d − %(round)d)") % {
                    "score": _decimal(spr), "complement": _decimal(comp), "draw": _decimal(ps.draw2), "rounds": rounds,
                    "round": fr.round},
                gettext("score before the round + complementary result + a draw per later round (C.02 §13.16, 2009)"),
            )
        if mode in ("dummy", "capped-dummy"):
            own = view.score2.get(pid, self.score2[pid])
            if mode == "dummy":
                return Substitute(own, gettext("dummy with the player's own score %(score)s") % {
                    "score": _decimal(own)}, gettext("dummy opponent with the participant's own score (C.07 16.4)"))
            if fr.kind.has_opponent and fr.opponent is not None:
                cap = self.opponent_score2(fr.opponent)
                cap_text = gettext("scheduled opponent's adjusted score %(score)s") % {"score": _decimal(cap)}
            else:
                rounds = self.scheduled_rounds if self.policy.fide_last_round == "scheduled" else view.round
                cap = self.points.draw2 * rounds
                cap_text = gettext("draw points × %(rounds)d rounds = %(points)s") % {"rounds": rounds,
                                                                                       "points": _decimal(cap)}
            value = min(own, cap)
            return Substitute(value, gettext("dummy min(own score %(score)s, %(cap)s)") % {"score": _decimal(own),
                                                                                          "cap": cap_text},
                              gettext("dummy opponent with the participant's own score, capped (C.07 16.4, 2026)"))
        return Substitute(0, gettext("no opponent"),
                          gettext("own unplayed round counts 0 (policy sos_own_unplayed=%(mode)s)") % {"mode": mode})


def fide_data(ctx: ScoringContext, *, fore: bool = False) -> FideData:
    """The :class:`FideData` of a scoring context (built once and shared by the criteria)."""
    key = "fide:fore" if fore else "fide"

    def build() -> FideData:
        data = FideData(ctx.state, ctx.round, ctx.policy, fore=fore)
        if ctx.policy.opponent_score_time == "latest-round":
            latest = max(ctx.state.last_round_with_games(), ctx.round)
            if latest != ctx.round:
                data._opponent_view = FideData(ctx.state, latest, ctx.policy, fore=fore)
        return data

    result: FideData = ctx.memoized(key, build)
    return result


# --------------------------------------------------------------------------- building


def _build_rounds(
    state: TournamentState, upto: int, policy: Policy, ps: PointSystem, *, fore_round: int | None
) -> dict[str, list[FideRound]]:
    rows: dict[str, list[FideRound]] = {pid: [] for pid in state.players}
    for r in range(1, upto + 1):
        rules = rules_for(policy, state.settings_for_round(r))
        bye2, absent2 = rules.nbw2_bye, rules.nbw2_absent
        seen: set[str] = set()
        for game in state.games_of_round(r):
            for pid in (game.white, game.black):
                if pid in seen or pid not in rows:
                    continue
                seen.add(pid)
                white = pid == game.white
                rows[pid].append(_game_round(r, game, white, ps, fore=fore_round == r))
        byes = state.byes.get(r, {})
        for pid, player in state.players.items():
            if pid in seen:
                continue
            if pid in byes:
                own = byes[pid]
                value = own if own is not None else (ps.pab if ps.pab is not None else bye2)
                rows[pid].append(FideRound(r, Kind.PAB, value, won=value >= ps.win2 > 0))
            elif player.is_withdrawn(r):
                rows[pid].append(FideRound(r, Kind.WITHDRAWN, ps.zpb))
            elif r in player.absences:
                stored = player.absences[r]
                rows[pid].append(_absence(r, absent2 if stored is None else stored, ps))
            elif rules.not_assigned == "absent":
                rows[pid].append(_absence(r, absent2, ps))
            else:
                rows[pid].append(FideRound(r, Kind.NOT_PAIRED, ps.zpb))
    return rows


def _absence(r: int, standard2: int, ps: PointSystem) -> FideRound:
    """An announced absence by its value on the standard scale: 1 full-point, ½ half-point, 0 zero-point bye."""
    if standard2 >= 2:
        return FideRound(r, Kind.FULL_BYE, ps.fpb, won=True)
    if standard2 == 1:
        return FideRound(r, Kind.HALF_BYE, ps.hpb)
    return FideRound(r, Kind.ZERO_BYE, ps.zpb)


def _game_round(r: int, game: GameState, white: bool, ps: PointSystem, *, fore: bool) -> FideRound:
    opponent = game.black if white else game.white
    colour = white if game.color_known else None
    result = game.result
    if fore:
        return FideRound(r, Kind.GAME, ps.wd if white else ps.bd, opponent, colour, table=game.table, outcome="draw")
    if result is Result.UNKNOWN:
        return FideRound(r, Kind.PENDING, 0, opponent, colour, table=game.table)
    pw, pb = result.points2()
    mine, theirs = (pw, pb) if white else (pb, pw)
    if game.by_default:
        if mine > theirs or (mine == theirs == 2):
            return FideRound(r, Kind.FORFEIT_WIN, ps.fw, opponent, colour, table=game.table, won=True, outcome="win")
        if mine == theirs == 1:
            return FideRound(r, Kind.FORFEIT_DRAW, ps.wd if white else ps.bd, opponent, colour, table=game.table,
                             outcome="draw")
        return FideRound(r, Kind.FORFEIT_LOSS, ps.fl, opponent, colour, table=game.table, outcome="loss")
    if mine == 2:
        return FideRound(r, Kind.GAME, ps.ww if white else ps.bw, opponent, colour, table=game.table, won=True,
                         outcome="win")
    if mine == 1:
        return FideRound(r, Kind.GAME, ps.wd if white else ps.bd, opponent, colour, table=game.table, outcome="draw")
    return FideRound(r, Kind.GAME, ps.wl if white else ps.bl, opponent, colour, table=game.table, outcome="loss")


def _categorise(rows: list[FideRound], later: list[FideRound], policy: Policy, *, lookahead: bool) -> None:
    """Set the 16.2 category of every unplayed round (needs the rounds that follow)."""
    trailing = policy.fide_withdrawal_detection == "trailing-forfeits-too"
    # Rounds after R are known VURs only with a withdrawal or an announced absence.
    future_vur = [fr.kind.vur and fr.kind is not Kind.NOT_PAIRED for fr in later] if lookahead else []
    only_vurs_after = all(future_vur)
    for fr in reversed(rows):
        kind = fr.kind
        if kind in (Kind.PAB, Kind.FULL_BYE):
            fr.category = 1
        elif kind in (Kind.FORFEIT_WIN, Kind.FORFEIT_DRAW):
            fr.category = 2
        elif kind is Kind.FORFEIT_LOSS:
            fr.category = 5 if trailing and only_vurs_after else 4
        elif kind.requested_bye:
            fr.category = 5 if only_vurs_after else 3
        only_vurs_after = only_vurs_after and kind.vur
