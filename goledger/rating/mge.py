"""The ``mge`` rating policy: the Hungarian federation's rating rules (Magyar Go Egyesület,
"Versenyszabályok"; seed example ``mge-rating.json``), with every number the seed does not give
taken as a parameter (issue 21).

What the seed gives, and this module applies as given:

* each game is rated on the **handicap-equalised rating difference**
  (:func:`goledger.replay.scoring.mge_rating.equalised_difference`);
* a game gives the two players **opposite game points** in [−1, 1], ½ / −½ at equal equalised
  rating; the points are summed per tournament, **multiplied by the tournament constant**,
  added to the rating and **rounded**;
* when ``constant × rounds > 300`` the tournament is **rated in parts**, later parts starting
  from the earlier parts' results;
* unrated players take part with the **lower rating limit** of their rank.

What the seed does not give, and :class:`MgeParameters` must supply (goledger invents none):
the table of lower rating limits per rank (``lower_limits``), the game-point curve
(``game_points``: the winner's points by his equalised advantage; the loser gets the opposite),
and the tournament constant (``constant``). Readings of ours where the seed is silent, each a
parameter with a stated default: the parts are consecutive blocks of ``300 // constant`` rounds
(``part_rounds`` overrides); the rounding is half away from zero (``rounding``); a jigo has no
stated value, so a jigo is listed as not rated; a forfeit, a bye, a game without result are not
rated (they are not games).

>>> params = MgeParameters(lower_limits={"1d": 1900, "3d": 2040}, constant=20,
...                        game_points=((-100, "0.75"), (-1, "0.6"), (0, "0.5"), (100, "0.4"), (10000, "0.25")))
>>> params.points_for_win(-30), params.points_for_win(0), params.points_for_win(250)
(Fraction(3, 5), Fraction(1, 2), Fraction(1, 4))
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final, Literal

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.ledger.values import Rank, RankError, Result, parse_number
from goledger.replay.scoring.mge_rating import equalised_difference

if TYPE_CHECKING:
    import os

    from goledger.replay.fold.state import TournamentState

__all__ = ["MgeGame", "MgeParameters", "MgePlayer", "MgePreview", "load_parameters", "mge_preview"]

SPLIT_LIMIT = 300
"""The seed's limit: a tournament whose ``constant × rounds`` exceeds it is rated in parts."""


class MgeParameters(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The numbers MGE's rules need and the seed does not give (module docstring).

    ``lower_limits`` maps ranks (``"1d"``) to their lower rating limits; ``game_points`` is a
    step table ``(up to this equalised advantage, winner's points)`` in ascending order, the
    points as decimal strings in [0, 1] with exactly ½ at advantage 0 (the seed); ``constant``
    is the tournament constant.
    """

    lower_limits: dict[str, int]
    game_points: tuple[tuple[int, str], ...]
    constant: int
    part_rounds: int | None = None
    rounding: Literal["half-up", "half-even"] = "half-up"

    def __post_init__(self) -> None:
        bounds = [b for b, _ in self.game_points]
        if not self.game_points or bounds != sorted(set(bounds)):
            raise CommandRejected(say("mge game_points must be rows (advantage, points) in strictly ascending order"))
        for _, text in self.game_points:
            try:
                value = parse_number(text) if isinstance(text, str) else None  # bounded as text
            except ValueError:
                value = None
            if value is None:
                raise CommandRejected(say("mge game points must be decimal strings such as 0.75, not %(text)r",
                                          text=str(text)[:32]))
            if not 0 <= value <= 1:
                raise CommandRejected(say("mge game points %(text)s are outside [0, 1]", text=text))
        if self.points_for_win(0) != Fraction(1, 2):
            raise CommandRejected(say("mge game_points must give ½ at equal equalised rating (the seed's rule)"))
        if self.constant <= 0:
            raise CommandRejected(say("the mge tournament constant must be positive, not %(constant)d",
                                      constant=self.constant))
        for rank in self.lower_limits:
            try:
                Rank.parse(rank)
            except RankError as exc:
                raise CommandRejected(say("mge lower_limits: %(error)s", error=str(exc))) from None

    def points_for_win(self, advantage: int) -> Fraction:
        """The winner's game points when his equalised rating exceeds the loser's by
        ``advantage`` (negative: he was the underdog); beyond the last row, the last row's."""
        for bound, text in self.game_points:
            if advantage <= bound:
                return parse_number(text)
        return parse_number(self.game_points[-1][1])

    def lower_limit(self, rank: Rank) -> int:
        found = self.lower_limits.get(str(rank))
        if found is None:
            raise _MissingLimit(str(rank))
        return found

    def parts(self, rounds: int) -> list[range]:
        """The rounds of each part: one part when ``constant × rounds ≤ 300``, else blocks of
        ``part_rounds`` (default ``300 // constant``) consecutive rounds."""
        if self.constant * rounds <= SPLIT_LIMIT:
            return [range(1, rounds + 1)]
        size = self.part_rounds or max(1, SPLIT_LIMIT // self.constant)
        return [range(start, min(rounds, start + size - 1) + 1) for start in range(1, rounds + 1, size)]


class _MissingLimit(Exception):
    """A rank without a lower limit in the parameters."""


class MgeGame(msgspec.Struct, frozen=True, kw_only=True):
    """One game of one player under ``mge``: the equalised advantage (his equalised rating minus
    the opponent's) and his game points, or the reason it is not rated."""

    round: int
    part: int
    opponent: str | None
    handicap: int
    result: str
    rated: bool
    reason: str = ""
    advantage: int | None = None
    points: Fraction | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"round": self.round, "part": self.part, "opponent": self.opponent,
                               "handicap": self.handicap, "result": self.result, "rated": self.rated}
        if self.rated:
            out["advantage"] = self.advantage
            out["points"] = _decimal(self.points or Fraction(0))
        else:
            out["reason"] = self.reason
        return out


class MgePlayer(msgspec.Struct, frozen=True, kw_only=True):
    """A player's MGE rating before, after each part, and after the tournament."""

    id: str
    surname: str
    first_name: str
    rank: str
    rating_before: int
    start: str
    after_parts: tuple[int, ...]
    rating_after: int
    games: tuple[MgeGame, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "surname": self.surname, "first_name": self.first_name, "rank": self.rank,
                "rating_before": self.rating_before, "start": self.start, "after_parts": list(self.after_parts),
                "change": self.rating_after - self.rating_before, "rating_after": self.rating_after,
                "games": [g.to_dict() for g in self.games]}


class MgePreview(msgspec.Struct, frozen=True, kw_only=True):
    system: str
    parameters: dict[str, Any]
    parts: tuple[tuple[int, int], ...]
    players: tuple[MgePlayer, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"system": self.system, "parameters": self.parameters,
                "parameters_note": "lower_limits, game_points and constant are not in the seed; they are the "
                                   "caller's", "parts": [list(p) for p in self.parts],
                "players": [p.to_dict() for p in self.players]}


def _decimal(value: Fraction) -> str:
    """Exact decimal text of a fraction whose denominator has only the factors 2 and 5,
    else ``p/q``."""
    d = value.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d != 1:
        return f"{value.numerator}/{value.denominator}"
    return str(Decimal(value.numerator) / Decimal(value.denominator))


def _round(value: Fraction, mode: str) -> int:
    """``value`` rounded to a whole number: half away from zero, or half to even.

    >>> _round(Fraction(5, 2), "half-up"), _round(Fraction(-5, 2), "half-up"), _round(Fraction(5, 2), "half-even")
    (3, -3, 2)
    """
    if mode == "half-even":
        return round(value)
    magnitude = math.floor(abs(value) + Fraction(1, 2))
    return magnitude if value >= 0 else -magnitude


def mge_preview(state: TournamentState, parameters: MgeParameters) -> MgePreview:
    """The ``mge`` preview of a folded tournament under ``parameters`` (module docstring)."""
    if state.settings is None:
        raise CommandRejected(say("the ledger holds no tournament yet"))
    rounds = max([state.settings.rounds, *state.games, *state.byes])
    parts = parameters.parts(rounds)

    ranks: dict[str, Rank] = {}
    current: dict[str, int] = {}
    start: dict[str, str] = {}
    for pid, p in state.players.items():
        try:
            ranks[pid] = Rank.parse(p.rank)
        except RankError:
            ranks[pid] = Rank.parse("30k")
        if p.rating is None:
            try:
                current[pid] = parameters.lower_limit(ranks[pid])
            except _MissingLimit:
                raise CommandRejected(say("%(surname)s %(first_name)s (%(player)s) is unrated and the mge parameters "
                                          "give no lower limit for %(rank)s", surname=p.surname,
                                          first_name=p.first_name, player=pid, rank=str(ranks[pid]))) from None
            start[pid] = "lower limit"
        else:
            current[pid] = p.rating
            start[pid] = "ledger"
    before = dict(current)
    lines: dict[str, list[MgeGame]] = {pid: [] for pid in state.players}
    after_parts: dict[str, list[int]] = {pid: [] for pid in state.players}
    for number, part in enumerate(parts, 1):
        points: dict[str, Fraction] = {pid: Fraction(0) for pid in state.players}
        for rnd in part:
            for table in sorted(state.games.get(rnd, {})):
                g = state.games[rnd][table]
                if g.white not in current or g.black not in current:
                    continue
                reason = _not_rated(g.result, g.by_default)
                advantage_white = 0
                if not reason:
                    try:
                        advantage_white = _advantage(g.white, g.black, g.handicap, current, ranks, parameters)
                    except _MissingLimit as missing:
                        reason = f"the mge parameters give no lower limit for {missing.args[0]}"
                    except ValueError as exc:
                        reason = str(exc)
                win_white = g.result is Result.WHITE
                for pid, opp, white in ((g.white, g.black, True), (g.black, g.white, False)):
                    won = win_white == white
                    result = "win" if won else "loss"
                    if g.result is Result.JIGO or g.result not in (Result.WHITE, Result.BLACK):
                        result = g.result.value
                    if reason:
                        lines[pid].append(MgeGame(round=rnd, part=number, opponent=opp, handicap=g.handicap,
                                                  result=result, rated=False, reason=reason))
                        continue
                    advantage = advantage_white if white else -advantage_white
                    winner_advantage = advantage if won else -advantage
                    value = parameters.points_for_win(winner_advantage)
                    mine = value if won else -value
                    points[pid] += mine
                    lines[pid].append(MgeGame(round=rnd, part=number, opponent=opp, handicap=g.handicap,
                                              result=result, rated=True, advantage=advantage, points=mine))
            for pid in sorted(state.byes.get(rnd, {})):
                if pid in lines:
                    lines[pid].append(MgeGame(round=rnd, part=number, opponent=None, handicap=0, result="bye",
                                              rated=False, reason="bye: no game"))
        for pid in current:
            current[pid] += _round(points[pid] * parameters.constant, parameters.rounding)
            after_parts[pid].append(current[pid])
    players = [MgePlayer(id=pid, surname=p.surname, first_name=p.first_name, rank=str(ranks[pid]),
                         rating_before=before[pid], start=start[pid], after_parts=tuple(after_parts[pid]),
                         rating_after=current[pid], games=tuple(lines[pid])) for pid, p in state.players.items()]
    players.sort(key=lambda x: (-x.rating_after, x.surname, x.first_name, x.id))
    return MgePreview(system="mge", parameters=msgspec.to_builtins(parameters),
                      parts=tuple((part.start, part.stop - 1) for part in parts), players=tuple(players))


def _not_rated(result: Result, by_default: bool) -> str:
    if by_default:
        return "forfeit (by default)"
    if result is Result.UNKNOWN:
        return "no result"
    if result is Result.JIGO:
        return "jigo: the MGE rules give no game points for it"
    if result in (Result.BOTH_LOSE, Result.BOTH_WIN):
        return f"{result.value}: not a game result"
    return ""


def _advantage(white: str, black: str, handicap: int, rating: dict[str, int], ranks: dict[str, Rank],
               parameters: MgeParameters) -> int:
    """White's equalised rating minus Black's. The stones go to Black, who must not be the
    stronger-ranked player when there are any."""
    if handicap > 0 and ranks[black] > ranks[white]:
        raise ValueError("the handicap went to the stronger-ranked player: no equalised difference")
    if ranks[black] > ranks[white]:  # even game, Black the stronger-ranked: the raw difference
        return rating[white] - rating[black]
    return equalised_difference((rating[white], ranks[white]), (rating[black], ranks[black]), handicap,
                                parameters.lower_limit)


_MAX_PARAMETERS_BYTES: Final = 1 << 20


def load_parameters(path: str | os.PathLike[str]) -> MgeParameters:
    """:class:`MgeParameters` from a JSON file, refused with one sentence when malformed."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(_MAX_PARAMETERS_BYTES + 1)  # bounded: --parameters /dev/zero must not hang
    except OSError as exc:
        raise CommandRejected(say("cannot read the mge parameters %(path)s: %(error)s", path=str(path),
                                  error=str(exc.strerror))) from None
    if len(data) > _MAX_PARAMETERS_BYTES:
        raise CommandRejected(say("the mge parameters %(path)s are over %(kb)d KB; a parameter file is a few lines "
                                  "of JSON", path=str(path), kb=_MAX_PARAMETERS_BYTES // 1024))
    try:
        return msgspec.json.decode(data, type=MgeParameters)
    except msgspec.ValidationError as exc:
        raise CommandRejected(say("bad mge parameters in %(path)s: %(error)s", path=str(path),
                                  error=str(exc))) from None
    except msgspec.DecodeError as exc:
        raise CommandRejected(say("%(path)s is not JSON: %(error)s", path=str(path), error=str(exc))) from None
