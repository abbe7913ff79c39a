"""Team commands (issue 30, docs/teams.md): ``team add``, ``team assign``, ``team remove``.

Each is a pure decider ``decide_team_*(state, …) -> list[Event]`` that refuses in one sentence
what the rules forbid, and a thin wrapper that appends its events. The rules:

* a team's name is unique, compared as player names are (case, Unicode twins: composed or
  decomposed accents, full-width letters, variation selectors and other invisible
  characters; :func:`goledger.ledger.domains.name_key`); its boards are 1 … the team size (at most 10);
* a player is on one board of one team in any round (OpenGotha's ``getTeamOfPlayer`` would
  otherwise pick one of the two silently);
* only a final (not preliminary) registration goes on a board (OpenGotha's "Pair" refuses a
  team holding one);
* a team that has played a match is not deleted (its results would vanish from the team
  standings); take its players off the boards from a round on instead.

>>> from goledger.replay.fold.state import fold
>>> from goledger.ledger import events as ev
>>> state = fold([ev.TournamentCreated(settings=ev.TournamentSettings(name="T", rounds=3, system="team-swiss"))])
>>> [type(e).__name__ for e in decide_team_add(state, "Lions")]
['TeamRegistered']
"""

from __future__ import annotations

from typing import Any, Unpack

import msgspec

from goledger.commands.checks import check_round, checked_text
from goledger.commands.recording import Outcome, PathLike, Plumbing, first_event, record
from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.ledger import events as ev
from goledger.ledger.domains import name_key
from goledger.replay.fold.players import find_player
from goledger.replay.fold.state import TeamState, TournamentState
from goledger.teams.model import MAX_BOARDS, roster, team_size
from goledger.teams.pairing import BoardPairing, MatchPairing, met_before, pair_match
from goledger.teams.standings import find_team, matches_of_round

__all__ = ["PairTeamsOutcome", "decide_pair_teams", "decide_team_add", "decide_team_assign", "decide_team_remove",
           "pair_teams", "team_add", "team_assign", "team_remove"]


def _next_id(state: TournamentState) -> str:
    used = {int(t[1:]) for t in state.teams if t[1:].isdigit()}
    k = max(used, default=0) + 1
    return f"t{k:03d}"


def decide_team_add(state: TournamentState, name: str, short_name: str = "", boards: int | None = None
                    ) -> list[ev.Event]:
    """A ``TeamRegistered`` for a new team ``name`` (numbered after the last team)."""
    text = checked_text(name.strip(), "team name")
    if not text:
        raise CommandRejected(say("a team needs a name"))
    if len(text) > 80:
        raise CommandRejected(say("a team name has at most 80 characters"))
    short = checked_text(short_name.strip(), "short name")
    key, short_key = name_key(text), name_key(short)
    taken = [t for t in state.teams.values() if name_key(t.name) == key
             or (short and name_key(t.short_name) == short_key)]
    if taken:
        raise CommandRejected(say("team %(team)s is already called %(name)r", team=taken[0].id, name=taken[0].name))
    size = team_size(state)
    if boards is not None and not 1 <= boards <= size:
        raise CommandRejected(say("a team of this tournament has 1..%(size)d boards, not %(boards)d", size=size,
                                  boards=boards))
    number = max((t.number or 0 for t in state.teams.values()), default=0) + 1
    return [ev.TeamRegistered(team_id=_next_id(state), name=text, number=number, short_name=short,
                              boards=None if boards in (None, size) else boards)]


def _covered(state: TournamentState, round_: int | None, from_round: int | None) -> range:
    if round_ is not None:
        return range(round_, round_ + 1)
    return range(from_round or 1, state.rounds + 1)


def _team(state: TournamentState, ref: str) -> TeamState:
    return state.teams[find_team(state, ref)]


def decide_team_assign(state: TournamentState, team: str, player: str, board: int, round_: int | None = None,
                       from_round: int | None = None) -> list[ev.Event]:
    """Put ``player`` on ``board`` of ``team`` in ``round_`` only, or from ``from_round`` on
    (neither: every round)."""
    t = _team(state, team)
    p = find_player(state, player)
    if round_ is not None and from_round is not None:
        raise CommandRejected(say("give either a round or a first round, not both"))
    for r in (round_, from_round):
        if r is not None:
            check_round(state, r)
    boards = t.boards or team_size(state)
    if not 1 <= board <= min(boards, MAX_BOARDS):
        raise CommandRejected(say("board %(board)d is past the %(boards)d boards of team %(team)s", board=board,
                                  boards=boards, team=t.name))
    if p.status != "final":
        raise CommandRejected(say("%(player)s is a preliminary entry; confirm him before putting him on a board",
                                  player=f"{p.id} {p.full_name}"))
    for r in _covered(state, round_, from_round):
        for other in state.teams.values():
            slots = other.member_slots(r)
            if other.id != t.id and p.id in slots.values():
                raise CommandRejected(say("%(player)s plays for team %(team)s in round %(round)d; take him off that "
                                          "team first", player=f"{p.id} {p.full_name}", team=other.name, round=r))
            if other.id == t.id:
                mine = [b for b, q in slots.items() if q == p.id and b != board]
                if mine:
                    raise CommandRejected(say("%(player)s is already on board %(board)d of team %(team)s in round "
                                              "%(round)d", player=f"{p.id} {p.full_name}", board=mine[0],
                                              team=t.name, round=r))
    return [ev.TeamMemberAssigned(team_id=t.id, player_id=p.id, board=board, round=round_, from_round=from_round)]


def _has_match(state: TournamentState, team_id: str) -> int | None:
    for r in range(1, state.last_round_with_games() + 1):
        if any(team_id in (m.team_a, m.team_b) for m in matches_of_round(state, r)):
            return r
    return None


def decide_team_remove(state: TournamentState, team: str, player: str | None = None, round_: int | None = None,
                       from_round: int | None = None, reason: str = "") -> list[ev.Event]:
    """Without ``player``: delete ``team`` (refused once it has a match). With ``player``:
    take him off the team's boards in ``round_`` only or from ``from_round`` on."""
    t = _team(state, team)
    if player is None:
        if round_ is not None or from_round is not None:
            raise CommandRejected(say("a whole team is removed for every round; name a player to remove him from a "
                                      "round"))
        played = _has_match(state, t.id)
        if played is not None:
            raise CommandRejected(say("team %(team)s played a match in round %(round)d; take its players off the "
                                      "boards instead of deleting it", team=t.name, round=played))
        return [ev.TeamRemoved(team_id=t.id, reason=reason)]
    p = find_player(state, player)
    if round_ is not None and from_round is not None:
        raise CommandRejected(say("give either a round or a first round, not both"))
    for r in (round_, from_round):
        if r is not None:
            check_round(state, r)
    if not any(p.id in t.member_slots(r).values() for r in _covered(state, round_, from_round)):
        raise CommandRejected(say("%(player)s is on no board of team %(team)s in those rounds",
                                  player=f"{p.id} {p.full_name}", team=t.name))
    return [ev.TeamMemberRemoved(team_id=t.id, player_id=p.id, round=round_, from_round=from_round)]


def team_add_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``team t001 Paris registered (number 1)``."""
    added = first_event(events, ev.TeamRegistered)
    return say("team %(team)s registered (number %(number)d)", team=f"{added.team_id} {added.name}",
               number=added.number)


def team_add(db: PathLike, name: str, short_name: str = "", boards: int | None = None,
             **plumbing: Unpack[Plumbing]) -> Outcome:
    """Register a team (``goledger team add NAME [--short S] [--boards N]``)."""
    return record(db, lambda state: decide_team_add(state, name, short_name, boards), team_add_message, **plumbing)


def team_assign_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``p0004 Abe Ann on board 2 of team Paris from round 3``."""
    e = first_event(events, ev.TeamMemberAssigned)
    p = state.players[e.player_id]
    player, team = f"{p.id} {p.full_name}", state.teams[e.team_id].name
    if e.round:
        return say("%(player)s on board %(board)d of team %(team)s in round %(round)d", player=player,
                   board=e.board, team=team, round=e.round)
    if e.from_round:
        return say("%(player)s on board %(board)d of team %(team)s from round %(round)d", player=player,
                   board=e.board, team=team, round=e.from_round)
    return say("%(player)s on board %(board)d of team %(team)s", player=player, board=e.board, team=team)


def team_assign(db: PathLike, team: str, player: str, board: int, round_: int | None = None,
                from_round: int | None = None, **plumbing: Unpack[Plumbing]) -> Outcome:
    """Put a player on a board of a team (``goledger team assign TEAM PLAYER --board B``)."""
    return record(db, lambda state: decide_team_assign(state, team, player, board, round_, from_round),
                  team_assign_message, **plumbing)


def team_remove_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``team t002 Lyon removed`` or ``p0004 taken off team Paris``."""
    e = events[0]
    if isinstance(e, ev.TeamRemoved):
        return say("team %(team)s removed", team=f"{e.team_id} {state.teams[e.team_id].name}")
    assert isinstance(e, ev.TeamMemberRemoved)
    return say("%(player)s taken off team %(team)s", player=e.player_id, team=state.teams[e.team_id].name)


def team_remove(db: PathLike, team: str, player: str | None = None, round_: int | None = None,
                from_round: int | None = None, **plumbing: Unpack[Plumbing]) -> Outcome:
    """Delete a team, or take a player off its boards (``goledger team remove TEAM [--player P]``)."""
    reason = plumbing.get("reason", "")
    return record(db, lambda state: decide_team_remove(state, team, player, round_, from_round, reason),
                  team_remove_message, **plumbing)


class PairTeamsOutcome(msgspec.Struct, frozen=True, kw_only=True):
    """What ``pair-teams`` paired (or would pair, ``dry_run``): the match and its boards."""

    round: int
    t0: str
    t1: str
    names: dict[str, str]
    boards: tuple[BoardPairing, ...]
    balance: tuple[int, int]
    det_random: int
    dry_run: bool
    message: str
    records: tuple[Any, ...] = ()

    @property
    def seqs(self) -> list[int]:
        return [r.seq for r in self.records]

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "t0": self.names[self.t0], "t1": self.names[self.t1],
                "board1_wb_balance": list(self.balance), "board1_detRandom": self.det_random,
                "dry_run": self.dry_run, "message": self.message, "events": self.seqs,
                "boards": [{"board": b.board, "table": b.table, "white": b.white, "black": b.black,
                            "white_name": self.names[b.white], "black_name": self.names[b.black],
                            "handicap": b.handicap, "t0_white": b.t0_white} for b in self.boards]}


def decide_pair_teams(state: TournamentState, round_: int, team_a: str, team_b: str,
                      allow_repeat: bool = False) -> tuple[MatchPairing, list[ev.Event]]:
    """The boards of the match ``team_a`` – ``team_b`` in ``round_`` by OpenGotha's ``pairTeams``
    rule (:mod:`goledger.teams.pairing`) and the ``GamePaired`` events that record them."""
    check_round(state, round_)
    a, b = find_team(state, team_a), find_team(state, team_b)
    paired = pair_match(state, round_, a, b, allow_repeat=allow_repeat)
    return paired, [ev.GamePaired(round=round_, table=x.table, white=x.white, black=x.black, handicap=x.handicap,
                                  forced=allow_repeat and bool(met_before(state, roster(state), a, b, round_)))
                    for x in paired.boards]


def pair_teams(db: PathLike, round_: int, team_a: str, team_b: str, *, dry_run: bool = False,
               allow_repeat: bool = False, **plumbing: Unpack[Plumbing]) -> PairTeamsOutcome:
    """``goledger pair-teams R TEAM_A TEAM_B``: pair one chosen match board by board (board i
    against board i; OpenGotha's colour, handicap and table rule) and record its games;
    ``dry_run`` writes nothing."""
    found: list[tuple[MatchPairing, dict[str, str]]] = []

    def decide(state: TournamentState) -> list[ev.Event]:
        paired, events = decide_pair_teams(state, round_, team_a, team_b, allow_repeat)
        ro = roster(state)
        names = {paired.t0: ro.name[paired.t0], paired.t1: ro.name[paired.t1]}
        names |= {pid: state.players[pid].full_name for x in paired.boards for pid in (x.white, x.black)}
        found[:] = [(paired, names)]
        return events

    def describe(state: TournamentState, events: list[ev.Event]) -> str:
        paired, names = found[0]
        return (f"round {round_}: {names[paired.t0]} – {names[paired.t1]} paired on {len(paired.boards)} boards, "
                f"tables {paired.boards[0].table}–{paired.boards[-1].table}")

    outcome = record(db, decide, describe, dry_run=dry_run, **plumbing)
    paired, names = found[0]
    return PairTeamsOutcome(round=round_, t0=paired.t0, t1=paired.t1, names=names, boards=paired.boards,
                            balance=paired.balance, det_random=paired.det_random, dry_run=dry_run,
                            message=outcome.message, records=tuple(outcome.records))
