"""The command ``goledger start-groups``: grouped McMahon start scores and the EGF
super-group rule, recorded as a ``RulesChanged`` of the tournament settings
(retroactive, or from a round on). See :mod:`goledger.replay.scoring.start_scores`."""

from __future__ import annotations

import os
from typing import Unpack

import msgspec

from goledger.commands.recording import Outcome, Plumbing
from goledger.commands.rules import change_rules
from goledger.errors import CommandRejected

__all__ = ["start_groups"]


def start_groups(
    db: str | os.PathLike[str],
    groups: str | None = None,
    super_group: bool | None = None,
    from_round: int | None = None,
    **plumbing: Unpack[Plumbing],
) -> Outcome:
    """Set the start groups (``"5d-9d=33, 1d-4d=31"``; ``""`` removes them) and/or switch the
    EGF super-group rule on or off. Refuses malformed or overlapping groups and no-op changes."""
    from goledger.replay.scoring.start_scores import parse_groups

    changes: dict[str, object] = {}
    if groups is not None:
        changes["mm_groups"] = [msgspec.to_builtins(g) for g in parse_groups(groups)]
    if super_group is not None:
        changes["mm_super_group"] = super_group
    if not changes:
        raise CommandRejected("start-groups needs --groups SPEC or --super-group / --no-super-group")
    return change_rules(db, changes, from_round, **plumbing)
