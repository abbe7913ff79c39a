"""Match (spec ``pairing.md`` §1.2 and §1.4: EGF and MGE list it as a system): two players play
game after game, one a round, until one reaches the target score (a win 1, a jigo ½ each).

Options: ``target`` (points as an exact decimal, ``"3"`` or ``"2.5"``; default 2: best of
three) and ``max_games`` (0: no cap; with a cap, a match still level after it is drawn).
Colours alternate: the better seed has White in round 1. A game once the match is decided,
beyond the cap, or between other players is refused.

>>> MatchOptions().target
'2'
>>> standing_of_scores({"a": 4, "b": 2}, 4)
('a', True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from goledger.errors import CommandRejected, EventDecided
from goledger.i18n import gettext, ngettext
from goledger.i18n.messages import say
from goledger.ledger import events as ev
from goledger.ledger.values import Result, format_points, parse_points2
from goledger.pairing.engine import PairedGame, Pairing, PairingRequest, PairTerms
from goledger.systems.common import Place, Places, SeedingRule, engine_parameters, entrants, read_options, seeded

if TYPE_CHECKING:
    from collections.abc import Mapping

    from goledger.replay.fold.state import TournamentState

__all__ = ["ENGINE", "MatchOptions", "check", "decided", "places", "score"]


class MatchOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``goledger new --system match --option target=3 --option max-games=5``."""

    target: str = "2"
    max_games: int = 0
    seeding: SeedingRule = "rank"


OPTIONS = MatchOptions


def options_of(state: TournamentState) -> MatchOptions:
    assert state.settings is not None
    opts = read_options(MatchOptions, state.settings.system_options, "match")
    target2(opts)
    return opts


def target2(opts: MatchOptions) -> int:
    """The target in half-points (refused unless positive)."""
    try:
        value = parse_points2(opts.target)
    except ValueError:
        raise CommandRejected(say("the match target %(target)r is not a number of points such as 3 or 2.5",
                                  target=opts.target)) from None
    if value <= 0:
        raise CommandRejected(say("a match target must be more than 0 points"))
    if opts.max_games < 0:
        raise CommandRejected(say("max-games is 0 (no cap) or more"))
    return value


def _players(state: TournamentState, opts: MatchOptions) -> list[str]:
    people = [p.id for p in seeded(entrants(state), opts.seeding)]
    if len(people) != 2:
        raise CommandRejected(say("a match is between two players; this one has %(count)d", count=len(people)))
    return people


def score(state: TournamentState) -> tuple[list[str], dict[str, int], int, bool]:
    """(the two players, better seed first; half-points each; games with a result; whether a
    game is still without result)."""
    opts = options_of(state)
    people = _players(state, opts)
    points = dict.fromkeys(people, 0)
    played = 0
    open_game = False
    for g in state.all_games():
        if {g.white, g.black} != set(people):
            continue
        if g.result is Result.UNKNOWN:
            open_game = True
            continue
        played += 1
        for p in people:
            points[p] += g.points2(p)
    return people, points, played, open_game


def standing_of_scores(points: Mapping[str, int], target: int) -> tuple[str | None, bool]:
    """The leader (``None`` when level) and whether he has reached ``target`` half-points."""
    ranked = sorted(points.items(), key=lambda kv: -kv[1])
    if ranked[0][1] == ranked[1][1]:
        return None, False
    return ranked[0][0], ranked[0][1] >= target


def decided(state: TournamentState) -> str:
    """Why no more game may be played, in one sentence (``""`` while the match goes on)."""
    return _decided(state) if len(entrants(state)) == 2 else ""


def _decided(state: TournamentState) -> str:
    """Why no more game may be played (``""`` while the match goes on)."""
    opts = options_of(state)
    people, points, played, _ = score(state)
    leader, won = standing_of_scores(points, target2(opts))
    a, b = (points[p] for p in people)
    text = f"{format_points(a, 2) or '0'}–{format_points(b, 2) or '0'}"
    if won and leader is not None:
        return say("the match is decided: %(leader)s reached %(target)s points (%(score)s)",
                   leader=state.players[leader].full_name, target=opts.target, score=text)
    if opts.max_games and played >= opts.max_games:
        return say("the match has had its %(games)d games (%(score)s)", games=opts.max_games, score=text)
    return ""


class MatchEngine:
    """The next game of the match, colours alternating."""

    name = "match"
    version = "1"

    def pair(self, state: TournamentState, request: PairingRequest) -> Pairing:
        opts = options_of(state)
        people, _, _, open_game = score(state)
        why = _decided(state)
        if why:
            raise EventDecided(why)
        if open_game:
            raise CommandRejected(say("the last game of the match has no result yet"))
        games: tuple[PairedGame, ...] = ()
        allowed = set(request.players)
        if set(people) <= allowed:
            white, black = (people[0], people[1]) if request.round % 2 else (people[1], people[0])
            games = (PairedGame(table=1, white=white, black=black),)
        unpaired: list[tuple[str, str]] = []
        for p in request.players:
            if p in people and not games:
                other = people[1] if p == people[0] else people[0]
                unpaired.append((p, f"his opponent {other} {state.players[other].full_name} does not play this round"))
            elif p not in people:
                unpaired.append((p, "not in the match: registered after its first game"))
        return Pairing(engine=self.name, version=self.version, round=request.round, games=games,
                       parameters=engine_parameters(opts), seed=request.seed, unpaired=tuple(unpaired))

    def pair_terms(self, state: TournamentState, request: PairingRequest, first: str, second: str) -> PairTerms:
        people, _, _, _ = score(state)
        meets = int({first, second} == set(people))
        return PairTerms(first=first, second=second, total=meets, terms={"match": meets})


ENGINE = MatchEngine()


def check(state: TournamentState, event: ev.Event) -> None:
    """Refuse a game after the match is decided or beyond the cap, or between other players."""
    if isinstance(event, ev.ByeAssigned):
        raise CommandRejected(say("a match has no byes"))
    if not isinstance(event, ev.GamePaired):
        return
    people, _, _, open_game = score(state)
    if {event.white, event.black} != set(people):
        a, b = (f"{p} {state.players[p].full_name}" for p in people)
        raise CommandRejected(say("this match is between %(a)s and %(b)s", a=a, b=b))
    why = _decided(state)
    if why:
        raise CommandRejected(say("%(why)s; no further game", why=why))
    if open_game:
        raise CommandRejected(say("the last game of the match has no result yet; record it first"))


def places(state: TournamentState) -> Places:
    """The winner (once a player reaches the target) or the score so far."""
    opts = options_of(state)
    people, points, played, _ = score(state)
    leader, won = standing_of_scores(points, target2(opts))
    text = {p: ngettext("%(points)s points in %(games)d game", "%(points)s points in %(games)d games", played)
            % {"points": format_points(points[p], 2) or "0", "games": played} for p in people}
    capped = bool(opts.max_games and played >= opts.max_games)
    over = won or capped
    rows: list[Place] = []
    if leader is None:
        for p in people:
            why = (gettext("%(score)s: the match ended level") if capped else gettext("%(score)s: level")) % {
                "score": text[p]}
            rows.append(Place(place=1, player_id=p, name=state.players[p].full_name, why=why, shared=True,
                              active=not over))
    else:
        other = people[1] if leader == people[0] else people[0]
        lead_why = (gettext("%(score)s: won the match") if over else gettext("%(score)s: leads, target %(target)s")
                    ) % {"score": text[leader], "target": opts.target}
        rows.append(Place(place=1, player_id=leader, name=state.players[leader].full_name, why=lead_why,
                          active=not over))
        rows.append(Place(place=2, player_id=other, name=state.players[other].full_name, why=text[other],
                          active=not over))
    return Places(system="match", round=state.last_round_with_games(), finished=over, rows=tuple(rows),
                  notes=((gettext("first to %(target)s points, at most %(games)d games") if opts.max_games
                          else gettext("first to %(target)s points")) % {"target": opts.target,
                                                                          "games": opts.max_games or 0},))
