"""Team standings exactly as OpenGotha 3.51.02 computes them (``Tournament.matchesListUpTo``,
``Match.buildMatch``, ``Match.getTeamScore``, ``ScoredTeamsSet.updateOrderedScoredTeamsList``,
``ScoredTeamComparator``; the facts are in ``../shared/team-oracle/README.md`` and
docs/teams.md).

All values are integers; BDW-type values are "wx2", twice the board wins.

* **Board value** (``getWX2``): a win 2, a jigo 1, both-win 2 each, both-lose and unknown 0;
  a by-default result counts as played; a player not in the game gets 0.
* **Matches.** For each team T and round k: T's board-1 player, his game of round k and its
  opponent; the opponent's team is the first team in OpenGotha's map order having him on any
  board. The match exists only when T's name sorts before that team's (UTF-16 order), so a
  match whose board 1s do not face each other may be lost (the ``opengotha`` policy's quirk).
  The white team is the one whose board-1 player has White.
* **Boards.** For board i (1 … 10) with members on both sides, the game is the white team's
  player's; the white team gets his value in it, the black team its own board-i player's
  value in that same game (0 when he is not in it).
* **Team score.** W and O are the two sums over all boards: 2 when W > max(team size, O),
  1 when W = max(team size, O), else 0 (a 1–1 on four boards with two unplayed is 0 : 0).
* **Criteria** over the matches of rounds 1 … R: TEAMP (team scores), BDW (board values of
  boards 1 … team size), BDWkU (boards 1 … min(k, team size)), SOST (the opponents' TEAMP
  after R, an opponent met twice counted twice), MNR (the round-1 members' ratings, clamped to
  −900 … 2949, summed over every board and divided by the team size with truncation), NULL 0.
* **Order.** The six values, higher first, then the lower team number. Places are the row
  numbers; the printed place is empty when all six values equal the previous row's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n import gettext
from goledger.i18n.messages import say
from goledger.ledger.domains import name_key
from goledger.ledger.values import Result
from goledger.replay.fold.state import GameState, TournamentState
from goledger.replay.scoring.hashmap_order import iteration_order
from goledger.teams.model import MAX_BOARDS, Roster, roster, team_criteria

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "CRITERION_COEF",
    "BoardResult",
    "Match",
    "TeamRow",
    "TeamStandings",
    "TeamTerm",
    "explain_team",
    "format_fract",
    "match_score",
    "matches_of_round",
    "matches_up_to",
    "team_standings",
    "wx2",
]

_WX2: Final = {Result.WHITE: (2, 0), Result.BLACK: (0, 2), Result.JIGO: (1, 1), Result.BOTH_WIN: (2, 2),
               Result.BOTH_LOSE: (0, 0), Result.UNKNOWN: (0, 0)}


def wx2(game: GameState | None, player_id: str | None) -> int:
    """``Tournament.getWX2``: twice the wins ``player_id`` gets from ``game`` (0 when he is
    not in it).

    >>> g = GameState(round=1, table=1, white="a", black="b", result=Result.JIGO)
    >>> wx2(g, "a"), wx2(g, "c"), wx2(None, "a")
    (1, 0, 0)
    """
    if game is None or player_id is None:
        return 0
    white, black = _WX2[game.result]
    if player_id == game.white:
        return white
    if player_id == game.black:
        return black
    return 0


def format_fract(raw: int, coef: int) -> str:
    """``Gotha.formatFractNumber``-style: ``raw / coef`` with "½" for a half.

    >>> format_fract(7, 2), format_fract(1, 2), format_fract(4, 2), format_fract(-3, 2), format_fract(12, 1)
    ('3½', '½', '2', '-1½', '12')
    """
    if coef == 1:
        return str(raw)
    whole, half = divmod(abs(raw), 2)
    sign = "-" if raw < 0 else ""
    if not half:
        return f"{sign}{whole}"
    return f"{sign}{whole if whole else ''}½"


class BoardResult(msgspec.Struct, frozen=True, kw_only=True):
    """Board ``board`` of a match: the two members, the white team's player's game (``None``:
    none) and each side's value."""

    board: int
    a_player: str
    b_player: str
    table: int | None
    a_wx2: int
    b_wx2: int
    play_each_other: bool


class Match(msgspec.Struct, frozen=True, kw_only=True):
    """A match of round ``round``: ``team_a`` is the white team (its board-1 player has White)."""

    round: int
    team_a: str
    team_b: str
    boards: tuple[BoardResult, ...]
    board1_table: int

    def wx2_of(self, team_id: str, upto: int = MAX_BOARDS) -> int:
        """The team's board values over boards 1 … ``upto``."""
        a = team_id == self.team_a
        return sum(b.a_wx2 if a else b.b_wx2 for b in self.boards if b.board <= upto)

    def opponent(self, team_id: str) -> str:
        return self.team_b if team_id == self.team_a else self.team_a


def match_score(own: int, other: int, size: int) -> int:
    """``Match.getTeamScore``: 2 when ``own`` > max(team size, ``other``), 1 when equal, else 0
    (``own`` and ``other`` in wx2).

    >>> match_score(2, 2, 4), match_score(4, 2, 4), match_score(4, 4, 4), match_score(6, 0, 3)
    (0, 1, 1, 2)
    """
    bar = max(size, other)
    return 2 if own > bar else 1 if own == bar else 0


def _round_games(state: TournamentState, round_: int) -> dict[str, list[GameState]]:
    """Each player's games of ``round_`` in ``hmGames`` iteration order (``gamesPlayedBy``):
    a player has two only in an invalid file, which OpenGotha loads as it is;
    ``Tournament.getGame(round, player)`` is the first of them."""
    games = state.games_of_round(round_)
    if len({p for g in games for p in (g.white, g.black)}) < 2 * len(games):
        every = list(state.all_games())
        games = [g for g in iteration_order(every, len(every)) if g.round == round_]
    out: dict[str, list[GameState]] = {}
    for g in games:
        out.setdefault(g.white, []).append(g)
        if g.black != g.white:
            out.setdefault(g.black, []).append(g)
    return out


class _Round(msgspec.Struct, kw_only=True):
    round: int
    slots: dict[str, dict[int, str]]
    games: dict[str, list[GameState]]

    def game(self, pid: str | None) -> GameState | None:
        found = self.games.get(pid) if pid is not None else None
        return found[0] if found else None


def _round_facts(state: TournamentState, ro: Roster, round_: int) -> _Round:
    return _Round(round=round_, slots={tid: ro.members(state, tid, round_) for tid in ro.ids},
                  games=_round_games(state, round_))


def _build(state: TournamentState, ro: Roster, rf: _Round, tid: str, game: GameState) -> Match | None:
    """``Match.buildMatch`` from team ``tid``'s board-1 game, when the opponent's team sorts
    after ``tid`` by name (the side that creates the match)."""
    first = rf.slots[tid][1]
    other = ro.team_of(state, game.opponent(first), rf.round, rf.slots)
    if other is None or not _java_less(ro.name[tid], ro.name[other]):
        return None
    white_team, black_team = (tid, other) if game.white == first else (other, tid)
    boards: list[BoardResult] = []
    for board in range(1, MAX_BOARDS + 1):
        wp, bp = rf.slots[white_team].get(board), rf.slots[black_team].get(board)
        if wp is None or bp is None:
            continue
        g = rf.game(wp)
        boards.append(BoardResult(board=board, a_player=wp, b_player=bp, table=g.table if g else None,
                                  a_wx2=wx2(g, wp), b_wx2=wx2(g, bp),
                                  play_each_other=g is not None and bp in (g.white, g.black)))
    return Match(round=rf.round, team_a=white_team, team_b=black_team, boards=tuple(boards),
                 board1_table=game.table)


def matches_of_round(state: TournamentState, round_: int, ro: Roster | None = None) -> list[Match]:
    """OpenGotha's ``matchesList(round)``: for each team in map order, a match from each game
    of its board-1 player in the round (module docstring), ordered by board 1's table."""
    ro = ro or roster(state)
    rf = _round_facts(state, ro, round_)
    found: list[Match] = []
    for tid in ro.map_order:
        first = rf.slots[tid].get(1)
        for game in rf.games.get(first, []) if first is not None else []:
            m = _build(state, ro, rf, tid, game)
            if m is not None:
                found.append(m)
    found.sort(key=lambda m: m.board1_table)
    return found


def matches_up_to(state: TournamentState, last: int, ro: Roster | None = None) -> list[Match]:
    """OpenGotha's ``matchesListUpTo``, the matches the standings use, in its order: team by
    team in map order, round by round, from the board-1 player's game (``getGame``: his
    first game of the round)."""
    ro = ro or roster(state)
    rounds = [_round_facts(state, ro, k) for k in range(1, last + 1)]
    found: list[Match] = []
    for tid in ro.map_order:
        for rf in rounds:
            first = rf.slots[tid].get(1)
            game = rf.game(first)
            if game is not None:
                m = _build(state, ro, rf, tid, game)
                if m is not None:
                    found.append(m)
    return found


def _java_less(a: str, b: str) -> bool:
    """``a.compareTo(b) < 0`` (UTF-16 code units)."""
    return a.encode("utf-16-be") < b.encode("utf-16-be")


CRITERION_COEF: Final = {"TEAMP": 1, "SOST": 1, "MNR": 1, "NULL": 1, "BDW": 2} | {f"BDW{k}U": 2 for k in range(1, 10)}
"""``TeamPlacementParameterSet.criterionCoef``: the display divisor of each criterion."""


class TeamMatch(msgspec.Struct, frozen=True, kw_only=True):
    """One match seen from a team: round, opponent, board-1 colour, team score and board values."""

    round: int
    opponent: str
    board1_colour: str
    team_score: int
    wx2: int
    opponent_wx2: int
    boards_wx2: tuple[int, ...]


class TeamRow(msgspec.Struct, frozen=True, kw_only=True):
    team_id: str
    name: str
    number: int
    place: int
    place_shown: str
    values: tuple[int, ...]
    half_matches: tuple[str, ...]
    matches: tuple[TeamMatch, ...]
    members: tuple[str | None, ...]


class TeamStandings(msgspec.Struct, frozen=True, kw_only=True):
    """The team standings after round ``round`` on ``criteria`` (six names, NULL included)."""

    round: int
    criteria: tuple[str, ...]
    size: int
    rows: tuple[TeamRow, ...]
    matches: tuple[Match, ...]
    policy: str = "opengotha"

    def shown(self, row: TeamRow) -> list[str]:
        return [format_fract(v, CRITERION_COEF[c]) for c, v in zip(self.criteria, row.values, strict=True)]

    def to_dict(self, state: TournamentState) -> dict[str, Any]:
        """``{"round", "criteria", "teams": [{"name", "place", "values", "matches"}]}`` (NULLs
        left out of ``criteria`` and ``values``)."""
        names = {tid: row.name for row in self.rows for tid in [row.team_id]}
        crit = [c for c in self.criteria if c != "NULL"]

        def person(pid: str | None) -> str | None:
            return None if pid is None else _player_name(state, pid)

        return {
            "round": self.round, "policy": self.policy, "team_size": self.size, "criteria": crit,
            "teams": [
                {"id": row.team_id, "name": row.name, "number": row.number, "place": row.place,
                 "place_shown": row.place_shown,
                 "values": {c: v for c, v in zip(self.criteria, row.values, strict=True) if c != "NULL"},
                 "values_shown": {c: s for c, s in zip(self.criteria, self.shown(row), strict=True) if c != "NULL"},
                 "half_matches": list(row.half_matches),
                 "members": [person(p) for p in row.members],
                 "matches": [{"round": m.round, "opponent": m.opponent, "board1_colour": m.board1_colour,
                              "team_score": m.team_score, "wx2": m.wx2, "opponent_wx2": m.opponent_wx2,
                              "boards_wx2": list(m.boards_wx2)} for m in row.matches]}
                for row in self.rows
            ],
            "matches": [{"round": m.round, "white_team": names[m.team_a], "black_team": names[m.team_b],
                         "board1_table": m.board1_table,
                         "boards": [{"board": b.board, "white_team_player": person(b.a_player),
                                     "black_team_player": person(b.b_player), "table": b.table,
                                     "white_team_wx2": b.a_wx2, "black_team_wx2": b.b_wx2} for b in m.boards]}
                        for m in sorted((x for x in self.matches if x.round == self.round),
                                        key=lambda x: x.board1_table)],
        }


def _player_name(state: TournamentState, pid: str) -> str:
    p = state.players.get(pid)
    return f"{p.surname}, {p.first_name}" if p is not None else pid


def _bdw_limit(criterion: str, size: int) -> int:
    if criterion == "BDW":
        return size
    return min(int(criterion[3:-1]), size)


def _mnr(state: TournamentState, ro: Roster, tid: str) -> int:
    total = 0
    for pid in ro.members(state, tid, 1).values():
        rating = state.players[pid].rating or 0
        total += max(-900, min(2949, rating))
    quotient = abs(total) // ro.size  # Java's int division truncates toward 0
    return quotient if total >= 0 else -quotient


def team_standings(state: TournamentState, round_: int | None = None,
                   criteria: Sequence[str] | None = None) -> TeamStandings:
    """The team standings after ``round_`` (default: the last round with a game)."""
    if not state.teams:
        raise CommandRejected("this tournament has no teams; add them with goledger team add")
    last = state.last_round_with_games() if round_ is None else round_
    if round_ is not None and not 0 <= round_ <= max(state.rounds, 1):
        raise CommandRejected(f"round {round_} is outside 0..{state.rounds} of this tournament")
    crit = tuple(criteria) if criteria else team_criteria(state)
    ro = roster(state)
    size = ro.size
    all_matches = matches_up_to(state, last, ro)
    by_team: dict[str, list[Match]] = {tid: [] for tid in ro.ids}
    for m in all_matches:
        by_team[m.team_a].append(m)
        by_team[m.team_b].append(m)
    score = {tid: sum(match_score(m.wx2_of(tid), m.wx2_of(m.opponent(tid)), size) for m in ms)
             for tid, ms in by_team.items()}

    def value(tid: str, c: str) -> int:
        if c == "TEAMP":
            return score[tid]
        if c.startswith("BDW"):
            limit = _bdw_limit(c, size)
            return sum(m.wx2_of(tid, limit) for m in by_team[tid])
        if c == "SOST":
            return sum(score[m.opponent(tid)] for m in by_team[tid])
        if c == "MNR":
            return _mnr(state, ro, tid)
        return 0

    values = {tid: tuple(value(tid, c) for c in crit) for tid in ro.ids}
    order = sorted(ro.ids, key=lambda tid: (tuple(-v for v in values[tid]), ro.number[tid]))
    row_of = {tid: i + 1 for i, tid in enumerate(order)}
    rows: list[TeamRow] = []
    previous: tuple[int, ...] | None = None
    for i, tid in enumerate(order):
        own = sorted(by_team[tid], key=lambda m: m.round)
        halves: list[str] = []
        for k in range(1, last + 1):
            # a team in two matches of one round (duplicated teams): the last one written wins
            found = next((x for x in reversed(by_team[tid]) if x.round == k), None)
            if found is None:
                halves.append("0-")
                continue
            other = found.opponent(tid)
            s = match_score(found.wx2_of(tid), found.wx2_of(other), size)
            halves.append(f"{row_of[other]:>3}{'+=-'[2 - s]}({format_fract(found.wx2_of(tid), 2)})")
        tm = tuple(TeamMatch(round=m.round, opponent=ro.name[m.opponent(tid)],
                             board1_colour="white" if m.team_a == tid else "black",
                             team_score=match_score(m.wx2_of(tid), m.wx2_of(m.opponent(tid)), size),
                             wx2=m.wx2_of(tid), opponent_wx2=m.wx2_of(m.opponent(tid)),
                             boards_wx2=tuple(_board_values(m, tid, size))) for m in own)
        members = ro.members(state, tid, max(last, 1))
        rows.append(TeamRow(team_id=tid, name=ro.name[tid], number=ro.number[tid], place=i + 1,
                            place_shown="" if previous == values[tid] else str(i + 1), values=values[tid],
                            half_matches=tuple(halves), matches=tm,
                            members=tuple(members.get(b) for b in range(1, size + 1))))
        previous = values[tid]
    return TeamStandings(round=last, criteria=crit, size=size, rows=tuple(rows), matches=tuple(all_matches))


def _board_values(m: Match, tid: str, size: int) -> list[int]:
    a = tid == m.team_a
    got = {b.board: (b.a_wx2 if a else b.b_wx2) for b in m.boards}
    return [got.get(b, 0) for b in range(1, size + 1)]


class TeamTerm(msgspec.Struct, frozen=True, kw_only=True):
    """One term of a team criterion: the round, what it came from, and its value."""

    round: int | None
    source: str
    value: int


def explain_team(state: TournamentState, team: str, round_: int | None = None) -> dict[str, Any]:
    """Every criterion of ``team`` (id, name or number) after ``round_``, term by term: the
    matches (team score, the board values counted), the opponents' TEAMP for SOST, the round-1
    members' ratings for MNR."""
    standings = team_standings(state, round_)
    ro = roster(state)
    tid = _find_team(state, ro, team)
    row = next(r for r in standings.rows if r.team_id == tid)
    by_name = {r.name: r for r in standings.rows}
    explained: list[dict[str, Any]] = []
    for c, v in zip(standings.criteria, row.values, strict=True):
        terms: list[TeamTerm] = []
        rule = ""
        if c == "TEAMP":
            rule = gettext("team score per match: 2 if own board wins (wx2) > max(team size, opponent's), 1 if "
                           "equal, else 0")
            terms = [TeamTerm(round=m.round, source=gettext("against %(team)s: %(own)s – %(other)s board wins") % {
                "team": m.opponent, "own": format_fract(m.wx2, 2), "other": format_fract(m.opponent_wx2, 2)},
                value=m.team_score) for m in row.matches]
        elif c.startswith("BDW"):
            limit = _bdw_limit(c, standings.size)
            rule = gettext("board wins ×2 on boards 1..%(boards)d (win 2, jigo 1)") % {"boards": limit}
            terms = [TeamTerm(round=m.round, source=gettext("against %(team)s, boards 1..%(boards)d: ") % {
                "team": m.opponent, "boards": limit} + " ".join(str(x) for x in m.boards_wx2[:limit]),
                value=sum(m.boards_wx2[:limit])) for m in row.matches]
        elif c == "SOST":
            rule = gettext("the opponents' TEAMP after round %(round)d") % {"round": standings.round}
            terms = [TeamTerm(round=m.round, source=gettext("%(team)s's TEAMP") % {"team": m.opponent},
                              value=by_name[m.opponent].values[standings.criteria.index("TEAMP")]
                              if "TEAMP" in standings.criteria else _teamp(standings, m.opponent, state))
                     for m in row.matches]
        elif c == "MNR":
            rule = gettext("round-1 members' ratings (clamped to -900..2949) summed, divided by the team size "
                           "%(size)d (truncated)") % {"size": standings.size}
            members = ro.members(state, tid, 1)
            terms = [TeamTerm(round=1, source=gettext("board %(board)d: %(player)s") % {
                "board": b, "player": _player_name(state, p)},
                              value=max(-900, min(2949, state.players[p].rating or 0)))
                     for b, p in sorted(members.items())]
        if c == "NULL":
            continue
        explained.append({"criterion": c, "value": v, "shown": format_fract(v, CRITERION_COEF[c]), "rule": rule,
                          "terms": [msgspec.to_builtins(t) for t in terms]})
    return {"team": row.name, "id": tid, "number": row.number, "round": standings.round, "place": row.place,
            "criteria": explained}


def _teamp(standings: TeamStandings, name: str, state: TournamentState) -> int:
    full = team_standings(state, standings.round, ("TEAMP", "NULL", "NULL", "NULL", "NULL", "NULL"))
    return next(r.values[0] for r in full.rows if r.name == name)


def _find_team(state: TournamentState, ro: Roster, ref: str) -> str:
    if ref in state.teams:
        return ref
    exact = [t for t in ro.ids if ro.name[t] == ref or state.teams[t].name == ref or state.teams[t].short_name == ref]
    if len(exact) == 1:
        return exact[0]
    if ref.isascii() and ref.isdigit() and len(ref) <= 18:
        numbered = [t for t in ro.ids if ro.number[t] == int(ref)]
        if len(numbered) == 1:
            return numbered[0]
    key = name_key(ref)  # as player names are compared: case, Unicode twins, invisible characters
    folded = [t for t in ro.ids if key and (name_key(ro.name[t]) == key or name_key(state.teams[t].short_name) == key)]
    if len(folded) == 1:
        return folded[0]
    if len(exact) > 1 or len(folded) > 1:
        raise CommandRejected(say("%(ref)r names more than one team; use the team id", ref=ref))
    raise CommandRejected(say("no team %(ref)r in this tournament", ref=ref))


def find_team(state: TournamentState, ref: str) -> str:
    """The id of the team ``ref`` names (id, name, short name or shown number), or a refusal."""
    return _find_team(state, roster(state), ref)


__all__ += ["TeamMatch", "find_team"]
