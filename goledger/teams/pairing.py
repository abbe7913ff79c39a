"""The boards of a match: OpenGotha 3.51.02's ``Tournament.pairTeams`` (``JFrTeamsPairing``'s
"Pair" button; ``../shared/team-oracle/README.md``, "Team pairing"), used by ``goledger
pair-teams`` for one chosen match and by ``pair-round`` for every match of a team round.

* **Who may be paired** (the frame's checks): each team must be complete — every board 1 … team
  size holds a final registration playing in the round — and the two teams must not have met
  before (``matchesListUpTo(R − 2)``: OpenGotha asks and then pairs nothing, whatever the
  answer). ``t0`` is the team with the lower number.
* **Board 1's colour.** Each board-1 player's white/black balance over the rounds before R,
  counting even games of known colour only; the larger balance takes Black. On equal balances
  ``t0``'s board-1 player takes White iff ``detRandom(1, p0, p1) == 0``.
* **Each board i** (board 1 is i = 0) is a two-player ``makeAutomaticPairing``: the handicap of
  ``gameBetween`` (pseudo-ranks from the McMahon score when ``hdBasedOnMMS``, corrected and
  capped). On an even board ``t0``'s player is White iff board 1's colour says so and i is even,
  or not and i is odd: colours alternate down the boards. On a handicap board the stronger
  player is White and nothing alternates.
* **Tables**: boards 1 … team size take, in turn, the first table free in the round
  (``findFirstAvailableTableNumber``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.pairing.opengotha.colours import det_random, handicap_of
from goledger.pairing.opengotha.facts import RoundFacts
from goledger.pairing.opengotha.parameters import resolve
from goledger.teams.model import Roster, roster
from goledger.teams.standings import matches_of_round

if TYPE_CHECKING:
    from collections.abc import Iterable

    from goledger.replay.fold.state import TournamentState

__all__ = ["BoardPairing", "MatchPairing", "board_facts", "first_free_table", "incomplete_reason",
           "met_before", "pair_match", "wb_balance"]

_FAMILY: Final = {"team-swiss": "swiss", "team-mcmahon": "mcmahon"}


class BoardPairing(msgspec.Struct, frozen=True, kw_only=True):
    """One board of a paired match: its table, colours, handicap and whether ``t0``'s player
    has White."""

    board: int
    table: int
    white: str
    black: str
    handicap: int
    t0_white: bool


class MatchPairing(msgspec.Struct, frozen=True, kw_only=True):
    """A paired match: ``t0`` the lower-numbered team, board 1's balances and detRandom, the boards."""

    round: int
    t0: str
    t1: str
    balance: tuple[int, int]
    det_random: int
    boards: tuple[BoardPairing, ...]


def board_facts(state: TournamentState, round_: int) -> RoundFacts:
    """The OpenGotha pairing facts of round ``round_`` (scores before it, handicap parameters)
    that ``makeAutomaticPairing`` reads for each board."""
    if state.settings is None:
        raise CommandRejected(say("the ledger has no tournament yet"))
    settings = state.settings_for_round(max(round_, 1))
    system = _FAMILY.get(settings.system, settings.system)
    params = resolve(settings.pairing, system, {}, settings)
    return RoundFacts(state, round_, params.weights)


def wb_balance(state: TournamentState, player_id: str, round_: int) -> int:
    """White games minus black games before ``round_``, even games of known colour only."""
    balance = 0
    for r in range(1, round_):
        game = state.game_of(player_id, r)
        if game is None or game.handicap != 0 or not game.color_known:
            continue
        balance += 1 if game.white == player_id else -1
    return balance


def incomplete_reason(state: TournamentState, ro: Roster, team_id: str, round_: int) -> str | None:
    """Why a team cannot be paired in ``round_`` (``Tournament.isTeamComplete``), or ``None``."""
    members = ro.members(state, team_id, round_)
    for board in range(1, ro.size + 1):
        pid = members.get(board)
        if pid is None:
            return say("team %(team)s has nobody on board %(board)d in round %(round)d", team=ro.name[team_id],
                       board=board, round=round_)
        p = state.players[pid]
        if p.status != "final":
            return say("team %(team)s's board %(board)d, %(player)s, is a preliminary entry", team=ro.name[team_id],
                       board=board, player=p.full_name)
        if p.is_withdrawn(round_) or round_ in p.absences:
            return say("team %(team)s's board %(board)d, %(player)s, does not play in round %(round)d",
                       team=ro.name[team_id], board=board, player=p.full_name, round=round_)
    return None


def met_before(state: TournamentState, ro: Roster, a: str, b: str, round_: int) -> int | None:
    """The earlier round in which teams ``a`` and ``b`` had a match, or ``None``."""
    for r in range(1, round_):
        if any({m.team_a, m.team_b} == {a, b} for m in matches_of_round(state, r, ro)):
            return r
    return None


def first_free_table(used: Iterable[int]) -> int:
    """``findFirstAvailableTableNumber``: the smallest table from 1 not in ``used``."""
    taken = set(used)
    table = 1
    while table in taken:
        table += 1
    return table


def pair_match(state: TournamentState, round_: int, team_a: str, team_b: str, *,
               facts: RoundFacts | None = None, ro: Roster | None = None,
               used_tables: Iterable[int] | None = None, allow_repeat: bool = False) -> MatchPairing:
    """``pairTeams`` of two teams in ``round_`` (module docstring); refuses what the frame refuses."""
    ro = ro or roster(state)
    if team_a == team_b:
        raise CommandRejected(say("a team cannot meet itself"))
    for tid in (team_a, team_b):
        reason = incomplete_reason(state, ro, tid, round_)
        if reason:
            raise CommandRejected(say("%(why)s; a match needs complete teams", why=reason))
        busy = [pid for pid in ro.members(state, tid, round_).values()
                if state.game_of(pid, round_) is not None or pid in state.byes.get(round_, {})]
        if busy:
            raise CommandRejected(say("%(player)s of team %(team)s already has a game or the bye in round %(round)d",
                                      player=state.players[busy[0]].full_name, team=ro.name[tid], round=round_))
    met = met_before(state, ro, team_a, team_b, round_)
    if met is not None and not allow_repeat:
        raise CommandRejected(say("teams %(a)s and %(b)s already met in round %(round)d", a=ro.name[team_a],
                                  b=ro.name[team_b], round=met))
    t0, t1 = sorted((team_a, team_b), key=lambda t: ro.number[t])
    facts = facts or board_facts(state, round_)
    m0, m1 = ro.members(state, t0, round_), ro.members(state, t1, round_)
    p0, p1 = m0[1], m1[1]
    bal = (wb_balance(state, p0, round_), wb_balance(state, p1, round_))
    rnd = det_random(1, facts.name_key(p0), facts.name_key(p1))
    t0_white_first = bal[0] < bal[1] if bal[0] != bal[1] else rnd == 0
    tables = set(used_tables if used_tables is not None else state.games.get(round_, {}))
    boards: list[BoardPairing] = []
    for board in range(1, ro.size + 1):
        a, b = m0[board], m1[board]
        hd = handicap_of(facts, a, b)
        if hd > 0:
            white, black, stones = a, b, hd
        elif hd < 0:
            white, black, stones = b, a, -hd
        elif t0_white_first == ((board - 1) % 2 == 0):
            white, black, stones = a, b, 0
        else:
            white, black, stones = b, a, 0
        table = first_free_table(tables)
        tables.add(table)
        boards.append(BoardPairing(board=board, table=table, white=white, black=black, handicap=stones,
                                   t0_white=white == a))
    return MatchPairing(round=round_, t0=t0, t1=t1, balance=bal, det_random=rnd, boards=tuple(boards))
