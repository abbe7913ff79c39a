"""Crosstables: who played whom, with which result (``goledger crosstable``).

Rows follow the standings (place order) and are numbered 1, 2, … in that order; cells refer
to those numbers.

* **Round robin and match** (tournament systems ``round-robin``, ``match``): a square table, one column per
  row number; a cell holds the points scored against that player in each of their games
  (``1``, ``½``, ``0``; ``+``/``-`` for forfeits; ``?`` without result), ``*`` on the
  diagonal, empty if they have not met yet.
* **Other systems**: one column per round; a cell is ``<opponent number><colour><result>``
  (``12w1``, ``3b½``, ``7w+``) or the unplayed round's TRF code (``U`` pairing bye, ``F``
  full-point bye, ``H`` half-point bye, ``Z`` zero-point bye or withdrawal), and ``h2`` after
  the result of a game played at handicap 2 (``12b1h2``). :data:`LEGEND` says it in words.

Points follow the policy's point system (:mod:`goledger.replay.scoring.fide_unplayed`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from goledger.i18n import N_
from goledger.ledger.values import format_points
from goledger.replay.scoring.fide_unplayed import FideRound, Kind, fide_data
from goledger.replay.scoring.scoring import ScoringContext
from goledger.replay.scoring.standings import (
    Standings,
    check_round,
    json_number,
    rank_players,
    resolve_criteria,
    resolve_policy,
)
from goledger.replay.scoring.units import unit_state

if TYPE_CHECKING:
    from collections.abc import Sequence

    from goledger.replay.fold.state import TournamentState

__all__ = ["LEGEND", "CrossRow", "Crosstable", "crosstable_of"]

UNPLAYED_CODE = {
    Kind.PAB: "U",
    Kind.FULL_BYE: "F",
    Kind.HALF_BYE: "H",
    Kind.ZERO_BYE: "Z",
    Kind.NOT_PAIRED: "Z",
    Kind.WITHDRAWN: "Z",
}

LEGEND = (
    ("12w1", N_("against the player on line 12, with white, 1 point (½ a draw or jigo, 0 a loss)")),
    ("b", N_("with black; - when the colour is not known")),
    ("+ / -", N_("won / lost by default (forfeit)")),
    ("?", N_("no result yet")),
    ("h2", N_("played at handicap 2 stones")),
    ("U", N_("pairing-allocated bye")),
    ("F / H", N_("full-point / half-point bye")),
    ("Z", N_("zero-point bye, not paired, absent or withdrawn")),
    ("*", N_("the player himself (round robin)")),
)
"""What the crosstable's codes mean (FIDE TRF letters for unplayed rounds), in English: printouts
show each meaning translated (``gettext``), JSON as it is."""


class CrossRow(msgspec.Struct, kw_only=True):
    number: int
    place: int
    player_id: str
    name: str
    start_number: int | None
    score2: int
    cells: list[str]
    values: dict[str, int]


class Crosstable(msgspec.Struct, kw_only=True):
    round: int
    as_of_seq: int
    policy: str
    round_robin: bool
    criteria: tuple[str, ...]
    scales: dict[str, int]
    columns: list[str]
    rows: list[CrossRow]
    tournament: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "as_of_seq": self.as_of_seq,
            "policy": self.policy,
            "layout": "round-robin" if self.round_robin else "per-round",
            "columns": self.columns,
            "criteria": list(self.criteria),
            "legend": dict(LEGEND),
            "rows": [
                {
                    "number": row.number,
                    "place": row.place,
                    "player_id": row.player_id,
                    "name": row.name,
                    "start_number": row.start_number,
                    "score": json_number(row.score2, 2),
                    "cells": row.cells,
                    "values": {c: json_number(row.values[c], self.scales[c]) for c in self.criteria},
                }
                for row in self.rows
            ],
        }


def _points_text(fr: FideRound) -> str:
    if fr.kind is Kind.PENDING:
        return "?"
    if fr.kind is Kind.FORFEIT_WIN:
        return "+"
    if fr.kind is Kind.FORFEIT_LOSS:
        return "-"
    text = format_points(fr.points2, 2)
    return "0" if text == "" else text


def crosstable_of(
    state: TournamentState, round: int | None = None, policy: Any = None,  # noqa: A002
    criteria: Sequence[str] | None = None, alphabet: str | None = None,
) -> Crosstable:
    """The crosstable of a state after ``round`` (default: the latest paired round); a Pair Go or
    Rengo tournament's is that of its units. With ``alphabet`` (a language), players sharing a
    place are listed in its alphabet, numbered as listed (issue 44, item 6)."""
    state = unit_state(state)
    round_ = check_round(state, round)
    pol = resolve_policy(state, policy)
    names = resolve_criteria(state, pol, criteria)
    ctx = ScoringContext(state, round_, pol)
    table: Standings = rank_players(ctx, names)
    if alphabet is not None:
        table = table.in_alphabet(alphabet)
    data = fide_data(ctx)
    assert state.settings is not None
    round_robin = state.settings.system in ("round-robin", "match")
    number = {row.player_id: i for i, row in enumerate(table.rows, start=1)}
    rows: list[CrossRow] = []
    for i, srow in enumerate(table.rows, start=1):
        pid = srow.player_id
        rounds = data.rounds[pid]
        if round_robin:
            cells = [""] * len(table.rows)
            cells[i - 1] = "*"
            for fr in rounds:
                if fr.opponent in number and fr.kind.has_opponent:
                    j = number[fr.opponent] - 1
                    cells[j] = (cells[j] + " " + _points_text(fr)).strip()
        else:
            cells = []
            for fr in rounds:
                if fr.kind.has_opponent and fr.opponent is not None:
                    colour = "-" if fr.white is None else ("w" if fr.white else "b")
                    game = state.game_of(pid, fr.round)
                    stones = f"h{game.handicap}" if game is not None and game.handicap else ""
                    cells.append(f"{number.get(fr.opponent, 0)}{colour}{_points_text(fr)}{stones}")
                else:
                    cells.append(UNPLAYED_CODE.get(fr.kind, "Z"))
        player = state.players[pid]
        rows.append(CrossRow(number=i, place=srow.place, player_id=pid, name=player.full_name,
                             start_number=player.start_number, score2=data.score2[pid], cells=cells,
                             values=srow.values))
    columns = [str(i) for i in range(1, len(rows) + 1)] if round_robin else [f"R{r}" for r in range(1, round_ + 1)]
    return Crosstable(round=round_, as_of_seq=state.seq, policy=pol.name, round_robin=round_robin,
                      criteria=table.criteria, scales=table.scales, columns=columns, rows=rows,
                      tournament=state.settings.name)
