"""The data of the team printouts (issue 30, item 4): the team pairing list of a round (match by
match, boards in order, tables), one result sheet per match, and the team crosstable. The
team standings are :func:`goledger.teams.standings.team_standings`. Rendering (text, CSV, HTML
through the Jinja2 renderer, JSON) is :mod:`goledger.render.teams`."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import msgspec

from goledger.errors import CommandRejected
from goledger.replay.views import state_as_of
from goledger.teams.model import roster
from goledger.teams.standings import format_fract, match_score, matches_of_round, team_standings

if TYPE_CHECKING:
    from goledger.replay.fold.state import TournamentState

__all__ = ["MatchBoard", "TeamMatchRow", "TeamPairingList", "team_crosstable", "team_pairings"]

PathLike = str | os.PathLike[str]

_RESULT_TEXT = {"white": "1-0", "black": "0-1", "jigo": "½-½", "both-lose": "0-0", "both-win": "1-1", "unknown": ""}


class MatchBoard(msgspec.Struct, frozen=True, kw_only=True):
    board: int
    table: int | None
    white: str
    white_rank: str
    black: str
    black_rank: str
    handicap: int
    result: str
    white_side: str
    """Which team's player has White on this board: ``"a"`` (the first team) or ``"b"``."""


class TeamMatchRow(msgspec.Struct, frozen=True, kw_only=True):
    """One match of the round: ``team_a`` is the white team of board 1 (OpenGotha's)."""

    team_a: str
    team_b: str
    boards: tuple[MatchBoard, ...]
    score_a: str
    score_b: str
    team_points_a: int
    team_points_b: int
    finished: bool


class TeamPairingList(msgspec.Struct, frozen=True, kw_only=True):
    tournament: str
    round: int
    rounds: int
    as_of_seq: int
    matches: tuple[TeamMatchRow, ...]
    idle: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = msgspec.to_builtins(self)
        return data


def _name(state: TournamentState, pid: str) -> str:
    return state.players[pid].full_name


def pairing_list(state: TournamentState, round_: int) -> TeamPairingList:
    """The matches of ``round_`` with their boards and results (a pure function of the state)."""
    if state.settings is None:
        raise CommandRejected("the ledger has no tournament yet")
    if not 1 <= round_ <= state.rounds:
        raise CommandRejected(f"round {round_} is outside 1..{state.rounds} of this tournament")
    if not state.teams:
        raise CommandRejected("this tournament has no teams; add them with goledger team add")
    ro = roster(state)
    rows: list[TeamMatchRow] = []
    playing: set[str] = set()
    for m in matches_of_round(state, round_, ro):
        playing |= {m.team_a, m.team_b}
        boards = []
        done = True
        for b in m.boards:
            game = state.game_of(b.a_player, round_)
            if game is None:
                continue
            forfeit = game.by_default and game.result.value != "unknown"
            result = _RESULT_TEXT[game.result.value] + ("!" if forfeit else "")
            done = done and game.result.value != "unknown"
            boards.append(MatchBoard(board=b.board, table=game.table, white=_name(state, game.white),
                                     white_rank=state.players[game.white].rank, black=_name(state, game.black),
                                     black_rank=state.players[game.black].rank, handicap=game.handicap,
                                     result=result, white_side="a" if game.white == b.a_player else "b"))
        wa, wb = m.wx2_of(m.team_a), m.wx2_of(m.team_b)
        rows.append(TeamMatchRow(team_a=ro.name[m.team_a], team_b=ro.name[m.team_b], boards=tuple(boards),
                                 score_a=format_fract(wa, 2), score_b=format_fract(wb, 2),
                                 team_points_a=match_score(wa, wb, ro.size), team_points_b=match_score(wb, wa, ro.size),
                                 finished=done))
    idle = tuple(ro.name[t] for t in ro.ids if t not in playing and ro.members(state, t, round_))
    return TeamPairingList(tournament=state.settings.name, round=round_, rounds=state.rounds, as_of_seq=state.seq,
                           matches=tuple(rows), idle=idle)


def team_pairings(db: PathLike, round_: int, as_of: int | None = None) -> TeamPairingList:
    """``goledger team pairings --round R``: the team pairing list (also the result sheets' data)."""
    return pairing_list(state_as_of(db, as_of), round_)


def crosstable(state: TournamentState, round_: int | None = None) -> dict[str, Any]:
    """Teams in standings order against each other: each cell the board wins of the row team,
    ``+``/``=``/``-`` for its team score, and the round (``"2½+ r3"``)."""
    standings = team_standings(state, round_)
    names = [row.name for row in standings.rows]
    cells: dict[str, dict[str, list[str]]] = {n: {} for n in names}
    for row in standings.rows:
        for m in row.matches:
            mark = "+=-"[2 - m.team_score]
            cells[row.name].setdefault(m.opponent, []).append(f"{format_fract(m.wx2, 2)}{mark} r{m.round}")
    return {"tournament": state.settings.name if state.settings else "", "round": standings.round,
            "teams": [{"place": row.place_shown, "name": row.name, "cells": [" ".join(cells[row.name].get(o, []))
                                                                              for o in names]}
                      for row in standings.rows]}


def team_crosstable(db: PathLike, round_: int | None = None, as_of: int | None = None) -> dict[str, Any]:
    """``goledger team crosstable``: the team crosstable (:func:`crosstable`)."""
    return crosstable(state_as_of(db, as_of), round_)
