"""The check the fold is handed for the names a ``RulesChanged`` sets (issue 18: an old ledger
may hold a change the registries no longer know).

The fold (:mod:`goledger.replay.fold.state`) sits below the criterion and policy registries,
so it cannot look a name up itself: whoever folds a stored log passes
:func:`check_registered` as ``check``, and a ``RulesChanged`` naming an unknown criterion or
policy, or an override the policy refuses, is then ignored as an anomaly
(``event 9 (RulesChanged) was ignored: unknown criterion 'FOO'``) instead of breaking every
view later.

>>> from goledger.ledger.events import TournamentSettings
>>> check_registered(TournamentSettings(name="t", rounds=3, criteria=("MMS", "SOSM")))
>>> check_registered(TournamentSettings(name="t", rounds=3, criteria=("FOO",)))
Traceback (most recent call last):
...
ValueError: unknown criterion 'FOO'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goledger.errors import GoledgerError
from goledger.replay.scoring.policies import get_policy

if TYPE_CHECKING:
    from goledger.ledger.events import TournamentSettings

__all__ = ["check_registered"]


def check_registered(settings: TournamentSettings) -> None:
    """Raise ``ValueError`` (the registry's reason, up to its list of known names) unless every
    criterion of ``settings`` is registered and its policy, with its overrides, exists. The
    registries are imported when a change is first checked: a command whose log changes no
    rule since its snapshot (``goledger result`` on the day) never loads them."""
    # the criteria load late: kept off every recording command's start-up
    from goledger.replay.scoring.criteria import get_criterion

    try:
        for criterion in settings.criteria:
            get_criterion(criterion)
        get_policy(settings.policy).with_overrides(settings.policy_overrides)
    except GoledgerError as exc:
        raise ValueError(exc.message.split(";")[0]) from None
