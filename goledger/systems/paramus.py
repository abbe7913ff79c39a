"""Paramus (spec ``pairing.md`` §1.1): a ladder climbed from the bottom, one game a round.

The players are listed strongest to weakest (the options' seeding rule). Round 1: the weakest
plays the one just above him. From then on the winner of the last game (the *holder*) meets
the weakest player of the list who has not played yet, up to the top; the last winner wins.
N players play N − 1 games, and every player except the one at the bottom (who holds from the
start) enters exactly once.

Team variant (``teams``): team-mates never meet (teams are ``goledger`` teams,
``TeamMemberAssigned``). The next entrant is the weakest player not yet entered who is not a
team-mate of the holder; when only team-mates of the holder are left, the ladder ends and the
holder wins (those players never enter).

A withdrawal or an announced absence in the player's round is a walkover: the other player of
that round holds. A jigo follows the options' ``jigo`` rule (``higher-seed``: the player
higher in the list goes on).

Places: the last winner is first; the others by games won, then by the round of their loss
(later first); equal players share a place.

>>> ParamusOptions().teams
False
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from goledger.errors import CommandRejected, EventDecided
from goledger.i18n import N_, gettext, ngettext
from goledger.i18n.messages import nsay, say
from goledger.ledger import events as ev
from goledger.pairing.engine import PairedGame, Pairing, PairingRequest, PairTerms
from goledger.systems.common import (
    JigoRule,
    Place,
    Places,
    SeedingRule,
    decided_winner,
    engine_parameters,
    entrants,
    out_of_round,
    read_options,
    refuse_rewriting,
    refuse_undecided_result,
    seeded,
    share_places,
    who,
)

if TYPE_CHECKING:
    from goledger.replay.fold.state import TournamentState

__all__ = ["ENGINE", "Ladder", "ParamusOptions", "check", "decided", "ladder", "places", "rounds_needed"]


class ParamusOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``goledger new --system paramus --option NAME=VALUE``: the seeding rule, the jigo rule,
    the team variant, the lot's seed."""

    seeding: SeedingRule = "rank"
    jigo: JigoRule = "higher-seed"
    teams: bool = False
    lot_seed: int = 0
    rounds_at_draw: bool = False
    """Set by ``goledger new`` without ``--rounds``: the draw sets N − 1 rounds."""


OPTIONS = ParamusOptions


class Rung(msgspec.Struct, frozen=True, kw_only=True):
    """Round ``round`` of the ladder: the holder against the entrant, and the winner (``None``
    while undecided), decided by ``how`` (``game``, ``walkover``, ``pending``)."""

    round: int
    holder: str
    entrant: str
    winner: str | None = None
    how: str = "pending"
    table: int | None = None


class Ladder(msgspec.Struct, frozen=True, kw_only=True):
    """The ladder as decided so far: the list (best first), every rung played or due, the
    players who never entered (team variant), the winner when the ladder is over."""

    order: tuple[str, ...]
    rungs: tuple[Rung, ...]
    unentered: tuple[str, ...] = ()
    winner: str | None = None

    @property
    def next_round(self) -> int:
        return len(self.rungs) + (0 if self.rungs and self.rungs[-1].winner is None else 1)


def options_of(state: TournamentState) -> ParamusOptions:
    assert state.settings is not None
    return read_options(ParamusOptions, state.settings.system_options, "paramus")


def _team_of(state: TournamentState) -> dict[str, str]:
    team: dict[str, str] = {}
    for t in state.teams.values():
        for pid, _board, _round in t.members:
            team.setdefault(pid, t.id)
    return team


def _unavailable(state: TournamentState, pid: str, round_: int) -> bool:
    p = state.players[pid]
    return bool(p.is_withdrawn(round_) or round_ in p.absences)


def ladder(state: TournamentState, opts: ParamusOptions | None = None) -> Ladder:
    """Read the ladder back from ``state`` (see the module docstring)."""
    opts = opts or options_of(state)
    order = [p.id for p in seeded(entrants(state), opts.seeding, opts.lot_seed)]
    if len(order) < 2:
        raise CommandRejected(say("a Paramus needs at least two players; this one has %(count)d", count=len(order)))
    seed_of = {p: i for i, p in enumerate(order, start=1)}
    team = _team_of(state) if opts.teams else {}
    waiting = order[:-1]
    holder = order[-1]
    rungs: list[Rung] = []
    r = 0
    while waiting:
        allowed = [p for p in waiting if not (team.get(p) and team.get(p) == team.get(holder))]
        if not allowed:
            break
        entrant = allowed[-1]
        waiting.remove(entrant)
        r += 1
        game = state.game_of(holder, r)
        if game is not None and game.opponent(holder) == entrant:
            winner = decided_winner(game, opts.jigo, seed_of)
            rung = Rung(round=r, holder=holder, entrant=entrant, winner=winner,
                        how="game" if winner else "pending", table=game.table)
        elif _unavailable(state, entrant, r) or _unavailable(state, holder, r):
            winner = holder if _unavailable(state, entrant, r) else entrant
            rung = Rung(round=r, holder=holder, entrant=entrant, winner=winner, how="walkover")
        else:
            rung = Rung(round=r, holder=holder, entrant=entrant)
        rungs.append(rung)
        if rung.winner is None:
            return Ladder(order=tuple(order), rungs=tuple(rungs))
        holder = rung.winner
    return Ladder(order=tuple(order), rungs=tuple(rungs), unentered=tuple(waiting), winner=holder)


def _name(state: TournamentState, pid: str) -> str:
    return f"{pid} {state.players[pid].full_name}"


def _due(state: TournamentState, lad: Ladder, round_: int) -> Rung:
    """The rung of ``round_``, refused when the ladder is over or an earlier rung undecided."""
    if lad.winner is not None and round_ > len(lad.rungs):
        raise EventDecided(_decided_text(state, lad))
    if round_ > len(lad.rungs):
        raise CommandRejected(say("round %(last)d of the Paramus has no result yet; round %(round)d comes after",
                                  last=len(lad.rungs), round=round_))
    return lad.rungs[round_ - 1]


def _decided_text(state: TournamentState, lad: Ladder) -> str:
    assert lad.winner is not None
    games = sum(1 for r in lad.rungs if r.how == "game")
    return nsay("the Paramus is decided: %(name)s won the last game of the ladder (%(games)d game)",
                "the Paramus is decided: %(name)s won the last game of the ladder (%(games)d games)", games,
                name=state.players[lad.winner].full_name, games=games)


def decided(state: TournamentState) -> str:
    """``"the Paramus is decided: … won the last game of the ladder"`` once every rung has a
    winner; ``""`` while the ladder goes on."""
    if len(entrants(state)) < 2:
        return ""
    lad = ladder(state)
    return _decided_text(state, lad) if lad.winner is not None else ""


def rounds_needed(state: TournamentState) -> tuple[int, str]:
    """N − 1 rounds for N players (spec ``pairing.md`` §1.1), one game a round."""
    count = len(entrants(state))
    if count < 2:
        raise CommandRejected(say("a Paramus needs at least two players; this one has %(count)d", count=count))
    return count - 1, f"a Paramus of {count} players has {count - 1} rounds, one game each"


def not_paired_why(state: TournamentState, lad: Ladder, rung: Rung, pid: str, allowed: set[str]) -> str:
    """Why ``pid`` plays no game in ``rung``'s round (a few words)."""
    if pid not in lad.order:
        return "not on the ladder: registered after the draw"
    for earlier in lad.rungs[: rung.round - 1]:
        if earlier.winner is not None and pid in (earlier.holder, earlier.entrant) and pid != earlier.winner:
            how = "gave a walk-over" if earlier.how == "walkover" else "lost"
            return f"out of the ladder: {how} in round {earlier.round} to {who(state, earlier.winner)}"
    if pid in (rung.holder, rung.entrant):
        other = rung.entrant if pid == rung.holder else rung.holder
        absent = out_of_round(state, other, rung.round)
        if absent:
            return f"a walk-over: {who(state, other)} {absent}"
        if other not in allowed:
            return f"his opponent {who(state, other)} is not among the players to pair"
        return "this round's game is already decided"
    if pid in lad.unentered:
        return "never enters: only team-mates of the holder are left"
    return "waits for his turn on the ladder"


class ParamusEngine:
    """The next game of the ladder (one per round)."""

    name = "paramus"
    version = "1"

    def pair(self, state: TournamentState, request: PairingRequest) -> Pairing:
        opts = options_of(state)
        lad = ladder(state, opts)
        rung = _due(state, lad, request.round)
        games: tuple[PairedGame, ...] = ()
        allowed = set(request.players)
        if rung.how == "pending" and {rung.holder, rung.entrant} <= allowed:
            white, black = rung.entrant, rung.holder
            if lad.order.index(white) > lad.order.index(black):
                white, black = black, white
            games = (PairedGame(table=1, white=white, black=black),)
        placed = {p for g in games for p in (g.white, g.black)}
        unpaired = tuple((p, not_paired_why(state, lad, rung, p, allowed)) for p in request.players if p not in placed)
        return Pairing(engine=self.name, version=self.version, round=request.round, games=games,
                       parameters=engine_parameters(opts), seed=request.seed, unpaired=unpaired)

    def pair_terms(self, state: TournamentState, request: PairingRequest, first: str, second: str) -> PairTerms:
        rung = _due(state, ladder(state), request.round)
        meets = int({first, second} == {rung.holder, rung.entrant})
        return PairTerms(first=first, second=second, total=meets, terms={"ladder": meets})


ENGINE = ParamusEngine()


def check(state: TournamentState, event: ev.Event) -> None:
    """Refuse a game the ladder does not make, a bye, or an undecided result."""
    opts = options_of(state)
    if isinstance(event, (ev.ResultRecorded, ev.ResultCorrected)):
        refuse_undecided_result(event.result, opts.jigo, N_("Paramus"))
        if isinstance(event, ev.ResultCorrected):
            order = [p.id for p in seeded(entrants(state), opts.seeding, opts.lot_seed)]
            refuse_rewriting(state, event, opts.jigo, {p: i for i, p in enumerate(order, start=1)})
        return
    if isinstance(event, ev.ByeAssigned):
        raise CommandRejected(say("a Paramus has no byes: one game is played each round"))
    if not isinstance(event, ev.GamePaired):
        return
    lad = ladder(state, opts)
    rung = _due(state, lad, event.round)
    if {event.white, event.black} != {rung.holder, rung.entrant}:
        raise CommandRejected(say("round %(round)d of the Paramus is %(holder)s (holding) against %(entrant)s",
                                  round=event.round, holder=_name(state, rung.holder),
                                  entrant=_name(state, rung.entrant)))


def places(state: TournamentState) -> Places:
    """The last winner first, then by games won and the round of the loss (later first)."""
    opts = options_of(state)
    lad = ladder(state, opts)
    name = {p: state.players[p].full_name for p in lad.order}
    wins = dict.fromkeys(lad.order, 0)
    lost: dict[str, int] = {}
    for rung in lad.rungs:
        if rung.winner is None:
            continue
        wins[rung.winner] += 1 if rung.how == "game" else 0
        loser = rung.entrant if rung.winner == rung.holder else rung.holder
        lost[loser] = rung.round
    groups: list[tuple[list[tuple[str, str, str]], bool]] = []
    if lad.winner is not None:
        groups.append(([(lad.winner, name[lad.winner], ngettext("won the last game of the ladder (%(wins)d win)",
                                                        "won the last game of the ladder (%(wins)d wins)",
                                                        wins[lad.winner]) % {"wins": wins[lad.winner]})],
                       False))
    else:
        alive = [p for p in lad.order if p not in lost]
        current = lad.rungs[-1].holder if lad.rungs else lad.order[-1]
        groups.append(([(p, name[p], gettext("holding") if p == current else gettext("still to play"))
                        for p in alive], True))
    rest = sorted((p for p in lost), key=lambda p: (-wins[p], -lost[p]))
    i = 0
    while i < len(rest):
        key = (wins[rest[i]], lost[rest[i]])
        members = [p for p in rest[i:] if (wins[p], lost[p]) == key]
        groups.append(([(p, name[p], ngettext("%(wins)d win, lost in round %(round)d",
                                              "%(wins)d wins, lost in round %(round)d", wins[p])
                         % {"wins": wins[p], "round": lost[p]}) for p in members], False))
        i += len(members)
    if lad.unentered:
        groups.append(([(p, name[p], gettext("never entered: only team-mates of the holder were left"))
                        for p in lad.unentered], False))
    rows: tuple[Place, ...] = share_places(groups)
    return Places(system="paramus", round=len(lad.rungs), finished=lad.winner is not None, rows=rows,
                  notes=((gettext("%(players)d players, team variant, %(games)d games") if opts.teams
                          else gettext("%(players)d players, %(games)d games"))
                         % {"players": len(lad.order), "games": sum(1 for r in lad.rungs if r.how == "game")},))
