"""The rating preview: every player's EGD rating after the tournament, before it is submitted
(issue 21; spec ``egd.md`` §11 and §6).

The ``gor-2021`` policy is the EGD's 2021 system. What §11 marks confirmed (✓) is fixed here:
the per-game formula, ``con``, ``bonus``, ``Se`` with the handicap adjustment, the −900 floor,
the class weights' values, new players starting from their grade. What §11 leaves unconfirmed is
a named option of :class:`GorOptions`, whose defaults follow the best reading of the sources:

* ``weight_on`` — ``"change"`` (default; kovarex, janos-r): the class weight multiplies the whole
  change; ``"con"``: it multiplies the ``con · (Sa − Se)`` term only.
* ``loss_cap`` — ``None`` (default): no cap; ``N``: a tournament lowers a rating by at most N
  points (the old system's 100-point cap, which may not survive in 2021).
* ``grade_reset`` — ``False`` (default); ``True``: a player entered at least two grades above
  the grade of his rating starts from his grade's value (at most 1d = 2100), BGA's rule. The
  EGD compares with the *previous highest entry grade*, which a ledger does not know; the grade
  of the rating stands in for it, so the option is off unless the director asks.
* ``rounding`` — ``"output"`` (default): sum the exact changes and round only what is shown;
  ``"game"``: round each game's change to 0.001 first, as if the EGD stored rounded deltas.

Every game is evaluated from both players' ratings at the start of the tournament and the
changes are summed (§11, "Per tournament"). Games the EGD does not rate are listed with the
reason: forfeits, byes, games without a result (or with both players losing or winning),
rounds whose adjusted time is under 30 minutes (§6), boards other than 19×19, and every game
when the tournament has no EGF class (``X``) and none is given.

>>> from goledger.ledger import events as ev
>>> from goledger.ledger.values import Result
>>> from goledger.replay.fold.state import fold
>>> state = fold([
...     ev.TournamentCreated(settings=ev.TournamentSettings(name="Cup", rounds=1)),
...     ev.PlayerRegistered(player_id="a", surname="Ash", rank="1d", rating=2100),
...     ev.PlayerRegistered(player_id="b", surname="Birch", rank="1d"),
...     ev.GamePaired(round=1, table=1, white="a", black="b"),
...     ev.ResultRecorded(round=1, table=1, result=Result.WHITE),
... ])
>>> p = preview_state(state)
>>> [(x.id, shown(x.rating_before), shown(x.change), shown(x.rating_after)) for x in p.players]
[('a', '2100.000', '9.306', '2109.306'), ('b', '2100.000', '-8.275', '2091.725')]
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final, Literal

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n import gettext
from goledger.i18n.messages import say
from goledger.ledger.values import MAX_NUMBER_DIGITS, Rank, RankError, Result
from goledger.rating import gor
from goledger.rating.classes import adjusted_seconds, egf_class
from goledger.rating.gor import FLOOR, Sa, shown
from goledger.rating.grades import GRADE_STEP, grade_of_rating, grade_value
from goledger.rating.mge import load_parameters, mge_preview

if TYPE_CHECKING:
    import os
    from collections.abc import Mapping

    from goledger.rating.mge import MgePreview
    from goledger.replay.fold.state import PlayerState, TournamentState

__all__ = [
    "CLASS_WEIGHTS",
    "RATING_SYSTEMS",
    "GameChange",
    "GorOptions",
    "PlayerPreview",
    "RatingPreview",
    "parse_options",
    "preview_state",
    "rating_preview",
]

RATING_SYSTEMS: Final = ("gor-2021", "mge")
"""The rating policies a preview can follow."""

CLASS_WEIGHTS: Final = {"A": Decimal("1.00"), "B": Decimal("0.75"), "C": Decimal("0.50"), "D": Decimal("0.25")}
"""The weight of a tournament's games in GoR by EGF class (spec ``egd.md`` §6)."""

MIN_RATED_SECONDS: Final = 1800
"""Games under 30 minutes of adjusted time are not rated (spec ``egd.md`` §6, S3)."""

_SCALE_TOP: Final = Decimal("3299.999")


class GorOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The unconfirmed rules of the ``gor-2021`` policy (module docstring; spec §11).

    >>> GorOptions().to_dict()
    {'weight_on': 'change', 'loss_cap': None, 'grade_reset': False, 'rounding': 'output'}
    """

    weight_on: Literal["change", "con"] = "change"
    loss_cap: int | None = None
    grade_reset: bool = False
    rounding: Literal["output", "game"] = "output"

    def to_dict(self) -> dict[str, Any]:
        return msgspec.to_builtins(self)


def parse_options(pairs: Mapping[str, str]) -> GorOptions:
    """Options from ``name=value`` text (the CLI's ``--option``), refused when unknown or bad.

    >>> parse_options({"weight_on": "con", "loss_cap": "100"}).to_dict()
    {'weight_on': 'con', 'loss_cap': 100, 'grade_reset': False, 'rounding': 'output'}
    """
    fields = GorOptions.__struct_fields__
    values: dict[str, Any] = {}
    for name, text in pairs.items():
        if name not in fields:
            raise CommandRejected(say("gor-2021 has no option %(name)r: use one of %(options)s", name=name,
                                      options=", ".join(fields)))
        if name == "loss_cap":
            if text.lower() in ("", "none", "off"):
                values[name] = None
            elif text.isascii() and text.isdigit() and len(text) <= MAX_NUMBER_DIGITS:
                values[name] = int(text)
            else:
                raise CommandRejected(say("loss_cap must be a whole number of points or none, not %(text)r",
                                          text=text))
        elif name == "grade_reset":
            if text.lower() not in ("true", "false", "yes", "no", "on", "off"):
                raise CommandRejected(say("grade_reset must be true or false, not %(text)r", text=text))
            values[name] = text.lower() in ("true", "yes", "on")
        else:
            values[name] = text
    try:
        return msgspec.convert(values, GorOptions)
    except msgspec.ValidationError as exc:
        raise CommandRejected(say("bad gor-2021 option: %(error)s", error=str(exc))) from None


class GameChange(msgspec.Struct, frozen=True, kw_only=True):
    """One game of one player: rated (with ``expected``, ``con``, ``bonus``, ``change``) or not
    (with the ``reason``). ``opponent`` is ``None`` for a bye."""

    round: int
    opponent: str | None
    colour: str | None
    handicap: int
    result: str
    rated: bool
    reason: str = ""
    opponent_rating: Decimal | None = None
    expected: Decimal | None = None
    con: Decimal | None = None
    bonus: Decimal | None = None
    change: Decimal | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"round": self.round, "opponent": self.opponent, "colour": self.colour,
                               "handicap": self.handicap, "result": self.result, "rated": self.rated}
        if not self.rated:
            out["reason"] = self.reason
            return out
        for name in ("opponent_rating", "expected", "con", "bonus", "change"):
            value = getattr(self, name)
            out[name] = None if value is None else shown(value)
        return out


class PlayerPreview(msgspec.Struct, frozen=True, kw_only=True):
    """A player's rating before, the games, the total change and the rating after. ``start``
    says where ``rating_before`` came from: ``ledger``, ``grade`` (new or unrated) or
    ``reset`` (``grade_reset``). ``flags`` are what a director should check before submitting."""

    id: str
    surname: str
    first_name: str
    grade: str
    egd_pin: str
    rating_before: Decimal
    start: str
    change: Decimal
    rating_after: Decimal
    games: tuple[GameChange, ...]
    flags: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "surname": self.surname, "first_name": self.first_name, "grade": self.grade,
                "egd_pin": self.egd_pin, "rating_before": shown(self.rating_before), "start": self.start,
                "change": shown(self.change), "rating_after": shown(self.rating_after),
                "flags": list(self.flags), "games": [g.to_dict() for g in self.games]}


class RatingPreview(msgspec.Struct, frozen=True, kw_only=True):
    """The preview of a whole tournament under one rating policy."""

    system: str
    egd_class: str
    class_source: str
    weight: Decimal
    options: dict[str, Any]
    players: tuple[PlayerPreview, ...]

    @property
    def rated_games(self) -> int:
        return sum(1 for p in self.players for g in p.games if g.rated) // 2

    def to_dict(self) -> dict[str, Any]:
        return {"system": self.system, "class": self.egd_class, "class_source": self.class_source,
                "weight": str(self.weight), "precision": gor.PRECISION, "options": self.options,
                "rated_games": self.rated_games, "players": [p.to_dict() for p in self.players]}


def _grade(player: PlayerState) -> Rank:
    """The professed grade when it reads as a rank, else the canonical rank."""
    for text in (player.grade, player.rank):
        try:
            return Rank.parse(text)
        except RankError:
            continue
    return Rank.parse("30k")


def _start(player: PlayerState, grade: Rank, options: GorOptions) -> tuple[Decimal, str, list[str]]:
    value = Decimal(grade_value(grade))
    flags: list[str] = []
    if player.rating is None:
        return value, "grade", flags
    rating = Decimal(player.rating)
    if abs(rating - value) > GRADE_STEP:
        flags.append(gettext("rating %(rating)s is more than a grade from %(grade)s (%(value)s): check the PIN, the "
                             "grade and the rating") % {"rating": player.rating, "grade": grade,
                                                        "value": grade_value(grade)})
    if rating < FLOOR:
        flags.append(gettext("rating %(rating)s is below the GoR floor; −900 used") % {"rating": player.rating})
        rating = FLOOR
    elif rating > _SCALE_TOP:
        flags.append(gettext("rating %(rating)s is beyond the GoR scale; %(top)s used") % {"rating": player.rating,
                                                                                            "top": _SCALE_TOP})
        rating = _SCALE_TOP
    if options.grade_reset and grade.value - grade_of_rating(rating).value >= 2:
        target = min(value, Decimal(2100))
        if target > rating:
            return target, "reset", flags
    return rating, "ledger", flags


def _player_result(result: Result, white: bool) -> str:
    if result is Result.JIGO:
        return "jigo"
    if result in (Result.WHITE, Result.BLACK):
        return "win" if (result is Result.WHITE) == white else "loss"
    return result.value


_PLAYER_RESULT: Final = {(result, white): _player_result(result, white) for result in Result for white in (True, False)}
"""A game's result as one player's (``win``, ``loss``, ``jigo`` or the board result), by colour."""

_SA_VALUE: Final = {"win": Sa.WIN.value, "jigo": Sa.JIGO.value}
_LOSS: Final = Sa.LOSS.value
_ONE: Final = Decimal(1)


def _class_of(state: TournamentState, egd_class: str | None) -> tuple[str, str]:
    if egd_class is not None:
        wanted = egd_class.strip().upper()
        if wanted not in CLASS_WEIGHTS:
            raise CommandRejected(f"--class must be A, B, C or D, not {egd_class!r}")
        return wanted, "given"
    settings = state.settings
    assert settings is not None
    if settings.time is None:
        return "X", "no time settings"
    return egf_class(settings.time, settings.internet), "time settings"


def preview_state(state: TournamentState, egd_class: str | None = None,
                  options: GorOptions | None = None) -> RatingPreview:
    """The ``gor-2021`` preview of a folded tournament (module docstring for the rules)."""
    if state.settings is None:
        raise CommandRejected(say("the ledger holds no tournament yet"))
    options = options or GorOptions()
    cls, source = _class_of(state, egd_class)
    weight = CLASS_WEIGHTS.get(cls, Decimal(0))
    tournament_reason = ""
    if cls not in CLASS_WEIGHTS:
        tournament_reason = (gettext("no time settings: give --class to preview") if source == "no time settings"
                             else gettext("the time settings meet no EGF class (X): give --class to preview"))
    elif state.settings.board_size != 19:
        size = state.settings.board_size
        tournament_reason = gettext("the EGD rates 19×19 games only, not %(size)d×%(size)d") % {"size": size}

    grades = {pid: _grade(p) for pid, p in state.players.items()}
    starts = {pid: _start(p, grades[pid], options) for pid, p in state.players.items()}
    rating = {pid: start[0] for pid, start in starts.items()}
    con_bonus: dict[Decimal, tuple[Decimal, Decimal]] = {}

    def terms(pid: str) -> tuple[Decimal, Decimal]:
        r = rating[pid]
        found = con_bonus.get(r)
        if found is None:
            found = con_bonus[r] = (gor.con(r), gor.bonus(r))
        return found

    c = gor.context()
    lines: dict[str, list[GameChange]] = {pid: [] for pid in state.players}
    for rnd in sorted(set(state.games) | set(state.byes)):
        round_reason = tournament_reason
        round_time = state.settings_for_round(rnd).time
        if not round_reason and round_time is not None:  # unknown time settings: the given --class stands
            seconds = adjusted_seconds(round_time)
            if seconds < MIN_RATED_SECONDS:
                round_reason = gettext("below the time limit: adjusted time %(minutes)d min, under 30") % {
                    "minutes": seconds // 60}
        for table in sorted(state.games.get(rnd, {})):
            g = state.games[rnd][table]
            if g.white not in starts or g.black not in starts:
                continue
            reason = round_reason
            if not reason:
                if g.by_default:
                    reason = gettext("forfeit (by default)")
                elif g.result is Result.UNKNOWN:
                    reason = gettext("no result")
                elif g.result is Result.BOTH_LOSE:
                    reason = gettext("both-lose: not a result the EGD rates")
                elif g.result is Result.BOTH_WIN:
                    reason = gettext("both-win: not a result the EGD rates")
            se_white: Decimal | None = None
            for pid, opp, white in ((g.white, g.black, True), (g.black, g.white, False)):
                result = _PLAYER_RESULT[g.result, white]
                colour = "white" if white else "black"
                if reason:
                    lines[pid].append(GameChange(round=rnd, opponent=opp, colour=colour, handicap=g.handicap,
                                                 result=result, rated=False, reason=reason))
                    continue
                own, other = rating[pid], rating[opp]
                if se_white is None:  # Black's expectation is White's complement
                    se_white = gor.expected(own, other, g.handicap)
                se = se_white if white else c.subtract(_ONE, se_white)
                k, b = terms(pid)
                swing = c.multiply(k, c.subtract(_SA_VALUE.get(result, _LOSS), se))
                if options.weight_on == "con":
                    delta = c.add(c.multiply(weight, swing), b)
                else:
                    delta = c.multiply(weight, c.add(swing, b))
                if options.rounding == "game":
                    delta = Decimal(shown(delta))
                lines[pid].append(GameChange(round=rnd, opponent=opp, colour=colour, handicap=g.handicap,
                                             result=result, rated=True, opponent_rating=other, expected=se,
                                             con=k, bonus=b, change=delta))
        for pid in sorted(state.byes.get(rnd, {})):
            if pid in lines:
                lines[pid].append(GameChange(round=rnd, opponent=None, colour=None, handicap=0, result="bye",
                                             rated=False, reason=gettext("bye: no game")))

    players: list[PlayerPreview] = []
    for pid, p in state.players.items():
        before, start, flags = starts[pid]
        total = Decimal(0)
        for line in lines[pid]:
            if line.change is not None:
                total = c.add(total, line.change)
        if options.loss_cap is not None and total < -options.loss_cap:
            total = Decimal(-options.loss_cap)
        after = max(FLOOR, c.add(before, total))
        players.append(PlayerPreview(
            id=pid, surname=p.surname, first_name=p.first_name, grade=str(grades[pid]), egd_pin=p.egd_pin,
            rating_before=before, start=start, change=c.subtract(after, before), rating_after=after,
            games=tuple(lines[pid]), flags=tuple(flags)))
    players.sort(key=lambda x: (-x.rating_after, x.surname, x.first_name, x.id))
    return RatingPreview(system="gor-2021", egd_class=cls, class_source=source, weight=weight,
                         options=options.to_dict(), players=tuple(players))


def rating_preview(db: str | os.PathLike[str], egd_class: str | None = None,
                   options: Mapping[str, str] | None = None, system: str = "gor-2021",
                   parameters: str | os.PathLike[str] | None = None) -> RatingPreview | MgePreview:
    """``goledger rating-preview``: the preview of the ledger ``db`` at its head under the rating
    ``system``: ``gor-2021`` (the EGD's) with the EGF class ``egd_class`` (default: from the time
    settings) and ``options`` (``name → text``, :func:`parse_options`), or ``mge`` with the
    ``parameters`` file the seed's rules need (:mod:`goledger.rating.mge`)."""
    # the store and the loader load late: a preview of a state in hand needs neither
    from goledger.ledger.store import Ledger
    from goledger.replay.loading.load import load_state

    if system not in RATING_SYSTEMS:
        raise CommandRejected(say("unknown rating system %(system)r: use %(systems)s", system=system,
                                  systems=" or ".join(RATING_SYSTEMS)))
    if system == "mge":
        if parameters is None:
            raise CommandRejected("the mge policy needs --parameters FILE (lower limits, game points, constant: "
                                  "the seed gives none of them)")
        if egd_class is not None or options:
            raise CommandRejected("--class and --option belong to gor-2021, not mge")
        mge_parameters = load_parameters(parameters)
        with Ledger.open(db) as ledger:
            state = load_state(ledger)
        return mge_preview(state, mge_parameters)
    if parameters is not None:
        raise CommandRejected("--parameters belongs to the mge policy; gor-2021 takes --option")
    parsed = parse_options(options or {})
    with Ledger.open(db) as ledger:
        state = load_state(ledger)
    return preview_state(state, egd_class, parsed)
