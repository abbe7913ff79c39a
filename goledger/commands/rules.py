"""Changing the rules: ``goledger change-rules``.

``changes`` names ``TournamentSettings`` fields or rule-policy fields (kept in
``policy_overrides``), as ``goledger settings`` lists them; every value is checked against the
domain listed there (:mod:`goledger.commands.settings`), and the standings are computed once
under the new rules before anything is appended.
"""

from __future__ import annotations

from typing import Any, Unpack

from goledger.commands.checks import check_round
from goledger.commands.recording import Outcome, PathLike, Plumbing, first_event, record
from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.ledger import events as ev
from goledger.replay.fold.state import TournamentState

__all__ = ["change_rules", "decide_change_rules"]


def decide_change_rules(state: TournamentState, changes: dict[str, Any], from_round: int | None = None
                        ) -> list[ev.Event]:
    """The ``RulesChanged`` of the ``changes`` that change something, retroactive unless
    ``from_round``. Refuses unknown fields, values outside their domain, an unknown policy
    or pairing parameter, no-op changes, and rules under which the standings cannot be
    computed."""
    from goledger.commands.settings import check_views_after, resolve_changes

    if from_round is not None:
        check_round(state, from_round)
    effective, _ = resolve_changes(state, changes)
    if not effective:
        raise CommandRejected(say("these settings already have these values; nothing to change"))
    if "policy" in effective:
        from goledger.replay.scoring.policies import get_policy

        get_policy(effective["policy"])
    if "pairing" in effective:
        from goledger.pairing import check_parameters

        check_parameters(effective["pairing"])
    event = ev.RulesChanged(changes=effective, from_round=from_round)
    check_views_after(state, event)
    return [event]


def change_rules_message(state: TournamentState, events: list[ev.Event], changes: dict[str, Any]) -> str:
    """``rules changed retroactively: criteria MMS, SOSM → …`` (the phrases of ``changes``)."""
    from goledger.commands.settings import resolve_changes

    event = first_event(events, ev.RulesChanged)
    _, phrases = resolve_changes(state, changes)
    changed = "; ".join(phrases) or ", ".join(sorted(event.changes))
    if event.from_round is None:
        return say("rules changed retroactively: %(changes)s", changes=changed)
    return say("rules changed from round %(round)d: %(changes)s", round=event.from_round, changes=changed)


def change_rules(
    db: PathLike,
    changes: dict[str, Any],
    from_round: int | None = None,
    **plumbing: Unpack[Plumbing],
) -> Outcome:
    """Change tournament settings, retroactively unless ``from_round`` is given
    (:func:`decide_change_rules`); the message says what changed."""
    return record(db, lambda state: decide_change_rules(state, changes, from_round),
                  lambda state, events: change_rules_message(state, events, changes), **plumbing)
