"""The adjusted-score view and policy comparisons (spec ``scoring.md`` §4.3–4.4).

:func:`adjusted_view` is what ``goledger standings --adjusted`` prints (read from a ledger by
:func:`goledger.replay.views.adjusted_scores`): for every player the actual score, the
adjusted score his opponents see under the policy (C.07 16.3 / C.02 §13.15), and every
unplayed round with its kind, the word the director knows it by (bye, forfeit win, forfeit
loss, absence, withdrawal), its FIDE category (16.2.1–16.2.5), whether it is voluntary (VUR),
the points awarded, what it adds to the score the opponents see, and what it brings to the
player's own Buchholz (virtual opponent, dummy or capped dummy).

``compare_policies`` puts the same tie-breaks side by side under several policies and keeps
the players whose values differ: the ``diff`` of two rule books on one tournament.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import msgspec

from goledger.errors import CommandRejected
from goledger.replay.scoring.criteria import get_criterion
from goledger.replay.scoring.fide_unplayed import CATEGORY_TEXT, FideData, fide_data
from goledger.replay.scoring.policies import get_policy
from goledger.replay.scoring.scoring import ScoringContext
from goledger.replay.scoring.standings import check_round, json_number, resolve_policy

if TYPE_CHECKING:
    from collections.abc import Sequence

    from goledger.replay.fold.state import TournamentState

__all__ = ["AdjustedRow", "AdjustedScores", "UnplayedRound", "adjusted_view", "compare_policies"]


class UnplayedRound(msgspec.Struct, kw_only=True):
    """One unplayed round of a player (half-points)."""

    round: int
    kind: str
    category: str
    fide_category: int | None
    fide_category_text: str
    vur: bool
    points2: int
    seen_by_opponents2: int
    seen_rule: str
    own_buchholz2: int
    own_source: str
    scheduled_opponent: str | None = None


class AdjustedRow(msgspec.Struct, kw_only=True):
    player_id: str
    surname: str
    first_name: str
    start_number: int | None
    actual2: int
    adjusted2: int
    opponents: list[str]
    """Players who count this player's adjusted score (his opponents in games and, when the
    policy counts forfeits as games, in forfeits)."""
    unplayed: list[UnplayedRound]


class AdjustedScores(msgspec.Struct, kw_only=True):
    round: int
    as_of_seq: int
    policy: str
    adjustment: str
    own_unplayed: str
    round_robin: bool
    rows: list[AdjustedRow]

    def to_dict(self) -> dict[str, Any]:
        """JSON shape: points as exact JSON numbers (halves)."""
        return {
            "round": self.round,
            "as_of_seq": self.as_of_seq,
            "policy": self.policy,
            "opponent_score_adjustment": self.adjustment,
            "sos_own_unplayed": self.own_unplayed,
            "round_robin_rules": self.round_robin,
            "rows": [
                {
                    "player_id": row.player_id,
                    "surname": row.surname,
                    "first_name": row.first_name,
                    "start_number": row.start_number,
                    "actual": json_number(row.actual2, 2),
                    "adjusted": json_number(row.adjusted2, 2),
                    "opponents": row.opponents,
                    "unplayed": [
                        {
                            "round": u.round,
                            "kind": u.kind,
                            "category": u.category,
                            "fide_category": u.fide_category,
                            "fide_category_text": u.fide_category_text,
                            "vur": u.vur,
                            "points": json_number(u.points2, 2),
                            "seen_by_opponents": json_number(u.seen_by_opponents2, 2),
                            "seen_rule": u.seen_rule,
                            "own_buchholz": json_number(u.own_buchholz2, 2),
                            "own_source": u.own_source,
                            "scheduled_opponent": u.scheduled_opponent,
                        }
                        for u in row.unplayed
                    ],
                }
                for row in self.rows
            ],
        }


def adjusted_view(state: TournamentState, round: int | None = None, policy: Any = None) -> AdjustedScores:  # noqa: A002
    """The adjusted-score view of a state after ``round`` under ``policy``."""
    if state.settings is None:
        raise CommandRejected("the ledger has no tournament yet")
    round_ = check_round(state, round)
    pol = resolve_policy(state, policy)
    ctx = ScoringContext(state, round_, pol)
    data = fide_data(ctx)
    opponents: dict[str, list[str]] = {pid: [] for pid in state.players}
    for pid, rows in data.rounds.items():
        for fr in rows:
            if fr.opponent is not None and data.counts_as_game(fr):
                opponents[fr.opponent].append(pid)
    out: list[AdjustedRow] = []
    for pid, player in state.players.items():
        unplayed = []
        for fr in data.rounds[pid]:
            if not fr.kind.unplayed:
                continue
            own = _own_value(data, pid, fr)
            unplayed.append(UnplayedRound(
                round=fr.round, kind=fr.kind.value, category=fr.kind.category_word, fide_category=fr.category,
                fide_category_text=CATEGORY_TEXT.get(fr.category or 0, ""), vur=fr.kind.vur, points2=fr.points2,
                seen_by_opponents2=data.seen2(fr), seen_rule=data.seen_rule(fr), own_buchholz2=own[0],
                own_source=own[1], scheduled_opponent=fr.opponent,
            ))
        out.append(AdjustedRow(
            player_id=pid, surname=player.surname, first_name=player.first_name, start_number=player.start_number,
            actual2=data.score2[pid], adjusted2=data.adjusted2[pid], opponents=sorted(set(opponents[pid])),
            unplayed=unplayed,
        ))
    out.sort(key=lambda row: (-row.actual2, -row.adjusted2, row.start_number or 0, row.player_id))
    return AdjustedScores(round=round_, as_of_seq=state.seq, policy=pol.name, adjustment=data.adjustment,
                          own_unplayed=pol.sos_own_unplayed, round_robin=data.round_robin, rows=out)


def _own_value(data: FideData, pid: str, fr: Any) -> tuple[int, str]:
    if data.counts_as_game(fr) and fr.opponent is not None:
        return data.opponent_score2(fr.opponent), "scheduled opponent's adjusted score (counted as a game)"
    sub = data.substitute(pid, fr)
    return sub.value2, sub.source


class PolicyDifference(msgspec.Struct, kw_only=True):
    player_id: str
    criterion: str
    values: dict[str, Fraction]
    """policy name → exact value."""


def compare_policies(
    state: TournamentState,
    policies: Sequence[str],
    criteria: Sequence[str],
    round: int | None = None,  # noqa: A002
) -> list[PolicyDifference]:
    """Every (player, criterion) whose value is not the same under all ``policies``."""
    round_ = check_round(state, round)
    names = [get_criterion(c).name for c in criteria]
    tables: dict[str, dict[str, dict[str, Fraction]]] = {}
    for name in policies:
        ctx = ScoringContext(state, round_, get_policy(name))
        ctx.criteria = tuple(names)
        tables[name] = {
            c: {pid: Fraction(v, get_criterion(c).scale) for pid, v in ctx.value(c).items()} for c in names
        }
    differences = []
    for pid in state.players:
        for c in names:
            values = {name: tables[name][c][pid] for name in policies}
            if len(set(values.values())) > 1:
                differences.append(PolicyDifference(player_id=pid, criterion=c, values=values))
    return differences
