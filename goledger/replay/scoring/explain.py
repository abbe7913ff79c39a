"""Why a player has his values and his place (DESIGN §5, issue "explain").

:func:`explain` looks at the standings after round R under a policy and, for one player,
returns:

* for each criterion asked for (default: every placement criterion), the
  :class:`~goledger.replay.scoring.criteria.Explanation` of its value: each term with its round,
  opponent, colour, handicap and the opponent's value at R, and each substitute for a
  round without a game with the rule that produced it;
* the place, the players sharing it, and for the nearest player placed above and below the
  first criterion that separates them (or "tied on every criterion").

The JSON form (:meth:`PlayerExplanation.to_dict`) gives values as exact JSON numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from goledger.errors import CommandRejected
from goledger.i18n import gettext
from goledger.replay.fold.players import find_player
from goledger.replay.scoring.choices import rules_at
from goledger.replay.scoring.criteria import Explanation, Term, get_criterion
from goledger.replay.scoring.scoring import ScoringContext
from goledger.replay.scoring.standings import (
    StandingRow,
    Standings,
    check_round,
    json_number,
    rank_players,
    resolve_criteria,
    resolve_policy,
)
from goledger.replay.scoring.withdrawals import withdrawal_rule

if TYPE_CHECKING:
    from collections.abc import Sequence

    from goledger.replay.fold.state import TournamentState
    from goledger.replay.scoring.policies import Policy

__all__ = ["Neighbour", "PlaceExplanation", "PlayerExplanation", "explain"]


@dataclass(frozen=True)
class Neighbour:
    """The nearest player placed above or below, and what separates them."""

    player_id: str
    name: str
    place: int
    criterion: str | None
    """The first criterion whose values differ (``None``: equal on every criterion)."""
    player_value: int | None = None
    neighbour_value: int | None = None
    scale: int = 1


@dataclass(frozen=True)
class PlaceExplanation:
    place: int | None
    """``None`` when the policy does not list the player (OpenGotha: not implied in any game)."""
    tied_with: tuple[str, ...] = ()
    above: Neighbour | None = None
    below: Neighbour | None = None
    note: str = ""


@dataclass(frozen=True)
class PlayerExplanation:
    player_id: str
    name: str
    round: int
    as_of_seq: int
    policy: str
    criteria: tuple[str, ...]
    explanations: tuple[Explanation, ...]
    place: PlaceExplanation
    names: dict[str, str] = field(default_factory=dict)
    """Player id → display name of every player the explanation mentions."""
    withdrawal: str = ""
    """For a player withdrawn by round R: what his missing rounds count and which setting
    changes it (:func:`goledger.replay.scoring.withdrawals.withdrawal_rule`)."""

    def to_dict(self) -> dict[str, Any]:
        def term(t: Term, scale: int) -> dict[str, Any]:
            return {
                "round": t.round,
                "value": json_number(t.value, scale),
                "source": t.source,
                "opponent": t.opponent,
                "opponent_name": self.names.get(t.opponent or "", None),
                "rule": t.rule,
                "detail": _jsonable(t.detail),
            }

        def neighbour(n: Neighbour | None) -> dict[str, Any] | None:
            if n is None:
                return None
            return {
                "player_id": n.player_id,
                "name": n.name,
                "place": n.place,
                "criterion": n.criterion,
                "player_value": None if n.player_value is None else json_number(n.player_value, n.scale),
                "neighbour_value": None if n.neighbour_value is None else json_number(n.neighbour_value, n.scale),
            }

        return {
            "player_id": self.player_id,
            "name": self.name,
            "round": self.round,
            "as_of_seq": self.as_of_seq,
            "policy": self.policy,
            "criteria": list(self.criteria),
            "place": {
                "place": self.place.place,
                "tied_with": list(self.place.tied_with),
                "above": neighbour(self.place.above),
                "below": neighbour(self.place.below),
                "note": self.place.note,
            },
            "explanations": [
                {
                    "criterion": e.criterion,
                    "value": json_number(e.value, e.scale),
                    "rule": e.rule,
                    "terms": [term(t, e.scale) for t in e.terms],
                }
                for e in self.explanations
            ],
            **({"withdrawal": self.withdrawal} if self.withdrawal else {}),
        }


def _jsonable(value: Any, half_points: bool = False) -> Any:
    """Term details as JSON. Keys ending in ``2`` hold half-points (``points2``,
    ``opponent_value2``…): they lose the suffix and become exact numbers of points."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            key = str(k)
            if key.endswith("2") and key[:-1].isidentifier() and not key[:-1].endswith("_"):
                out[key[:-1]] = _jsonable(v, True)
            else:
                out[key] = _jsonable(v, half_points)
        return out
    if isinstance(value, (list, tuple)):
        return [_jsonable(v, half_points) for v in value]
    if half_points and isinstance(value, int) and not isinstance(value, bool):
        return json_number(value, 2)
    return value


def _resolve_player(state: TournamentState, ref: str) -> str:
    return find_player(state, ref).id


def explain(
    state: TournamentState,
    player: str,
    criterion: str | None = None,
    round: int | None = None,  # noqa: A002 - the CLI option is --round
    policy: str | Policy | None = None,
    criteria: Sequence[str] | None = None,
) -> PlayerExplanation:
    """Explain ``player``'s values (``criterion``, default every placement criterion) and
    place after ``round`` under ``policy`` with the placement list ``criteria``."""
    if state.settings is None:
        raise CommandRejected("the ledger has no tournament yet")
    pid = _resolve_player(state, player)
    round_ = check_round(state, round)
    pol = resolve_policy(state, policy)
    names = resolve_criteria(state, pol, criteria)
    ctx = ScoringContext(state, round_, pol, names)
    table = rank_players(ctx, names)
    asked = [get_criterion(pol.criterion_name(criterion)).name] if criterion else list(names)
    explanations = []
    for name in asked:
        crit = get_criterion(name)
        if crit.explain is None:
            value = ctx.value(name)[pid]
            explanations.append(Explanation(name, pid, round_, value, crit.scale, crit.description,
                                            (Term(None, value, crit.description or name),)))
        else:
            explanations.append(crit.explain(ctx, pid))
    mentioned = {pid}
    for e in explanations:
        mentioned.update(t.opponent for t in e.terms if t.opponent)
        for t in e.terms:
            group = t.detail.get("group") if isinstance(t.detail, dict) else None
            if isinstance(group, (list, tuple)):
                mentioned.update(str(g) for g in group)
    place = explain_place(table, pid)
    for n in (place.above, place.below):
        if n is not None:
            mentioned.add(n.player_id)
    mentioned.update(place.tied_with)
    withdrawn_from = state.players[pid].withdrawn_from
    withdrawal = ""
    if withdrawn_from is not None and withdrawn_from <= max(round_, 1):
        withdrawal = gettext("withdrawn from round %(round)d: %(rule)s") % {
            "round": withdrawn_from, "rule": withdrawal_rule(rules_at(state, withdrawn_from, pol))}
    return PlayerExplanation(
        player_id=pid,
        name=state.players[pid].full_name,
        round=round_,
        as_of_seq=state.seq,
        policy=pol.name,
        criteria=names,
        explanations=tuple(explanations),
        place=place,
        names={p: state.players[p].full_name for p in mentioned if p in state.players},
        withdrawal=withdrawal,
    )


def _separating(table: Standings, a: StandingRow, b: StandingRow) -> tuple[str | None, int | None, int | None, int]:
    for name in table.criteria:
        if a.values[name] != b.values[name]:
            return name, a.values[name], b.values[name], table.scales[name]
    return None, None, None, 1


def explain_place(table: Standings, player_id: str) -> PlaceExplanation:
    """The player's place, who shares it, and what separates him from the nearest players
    placed above and below."""
    rows = table.rows
    index = next((i for i, row in enumerate(rows) if row.player_id == player_id), None)
    if index is None:
        return PlaceExplanation(None, note=gettext("not listed under policy %(policy)s (no game or bye in the "
                                                   "tournament)") % {"policy": table.policy})
    row = rows[index]
    tied = tuple(r.player_id for r in rows if r.place == row.place and r.player_id != player_id)
    above_rows = [r for r in rows[:index] if r.place < row.place]
    below_rows = [r for r in rows[index + 1 :] if r.place > row.place]

    def neighbour(other: StandingRow | None) -> Neighbour | None:
        if other is None:
            return None
        crit, mine, theirs, scale = _separating(table, row, other)
        return Neighbour(other.player_id, f"{other.surname} {other.first_name}".strip(), other.place, crit,
                         mine, theirs, scale)

    note = ""
    if tied:
        note = gettext("equal on every criterion with %(players)s: the place is shared (listed by name)") % {
            "players": ", ".join(tied)}
    return PlaceExplanation(row.place, tied, neighbour(above_rows[-1] if above_rows else None),
                            neighbour(below_rows[0] if below_rows else None), note)
