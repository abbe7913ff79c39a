"""What a view looks at when it is not told: the policy, the criteria and the round (spec
``scoring.md`` §2.5), and the :class:`~goledger.replay.scoring.rules.Rules` they make. Every
view of the scoring floor and the scoring context itself resolve them here
(:func:`goledger.replay.scoring.standings.standings` re-exports them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.replay.scoring.criteria import get_criterion
from goledger.replay.scoring.policies import Policy, get_policy
from goledger.replay.scoring.rules import MAIN_SCORE, Rules, rules_for

if TYPE_CHECKING:
    from collections.abc import Sequence

    from goledger.replay.fold.state import TournamentState

__all__ = ["check_round", "main_score", "resolve_criteria", "resolve_policy", "rules_at"]


def main_score(state: TournamentState) -> str:
    """The tournament's main score criterion (MMS for McMahon, NBW for Swiss…)."""
    assert state.settings is not None
    return MAIN_SCORE.get(state.settings.system, "NBW")


def resolve_policy(state: TournamentState, policy: str | Policy | None) -> Policy:
    """The policy a view uses: the one asked for, else the tournament's (with its overrides)."""
    if isinstance(policy, Policy):
        return policy
    if state.settings is None:
        raise CommandRejected("the ledger has no tournament yet")
    if policy is None:
        return get_policy(state.settings.policy).with_overrides(state.settings.policy_overrides)
    return get_policy(policy)


def rules_at(state: TournamentState, round_: int, policy: str | Policy | None = None) -> Rules:
    """The :class:`~goledger.replay.scoring.rules.Rules` of ``state`` for round ``round_``
    (the settings in force for it) under ``policy`` (:func:`resolve_policy`'s choice)."""
    chosen = resolve_policy(state, policy)
    return rules_for(chosen, state.settings_for_round(max(round_, 1)))


def resolve_criteria(state: TournamentState, policy: Policy, criteria: Sequence[str] | None) -> tuple[str, ...]:
    """Criteria asked for, else :attr:`Rules.criteria <goledger.replay.scoring.rules.Rules.criteria>`
    (the tournament's, else the policy's default, else the main score)."""
    if criteria:
        names = criteria
    elif state.settings is not None:
        names = rules_for(policy, state.settings).criteria
    else:
        names = ("NBW",)
    return tuple(get_criterion(policy.criterion_name(n)).name for n in names if n and n.upper() != "NULL")


def check_round(state: TournamentState, round_: int | None) -> int:
    """The round a view looks at: the one asked for (0 … rounds), else the latest paired."""
    if round_ is None:
        return state.last_round_with_games()
    if not 0 <= round_ <= state.rounds:
        raise CommandRejected(say("round %(round)d is outside 1..%(rounds)d of this tournament", round=round_,
                                  rounds=state.rounds))
    return round_
