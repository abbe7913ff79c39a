"""The audit layer: standings as of any event, what changed and why, what was published.

Everything here reads the log and never writes to it (``goledger publish`` is a recording
command, :mod:`goledger.commands.publish`). The queries live in
:mod:`goledger.audit.queries`; :mod:`~goledger.audit.trace` replays stretches of events
incrementally, :mod:`~goledger.audit.compare` compares two standings tables,
:mod:`~goledger.audit.published` reads what a ``Checkpoint`` vouched for and
:mod:`~goledger.audit.event_index` links events to the players they concern.
"""

from goledger.audit.queries import (
    AuditDiff,
    History,
    WhatIf,
    after_round,
    as_of,
    compare_tables,
    diff,
    diff_events,
    history,
    history_events,
    opponents_by_player,
    read_added_events,
    record_json,
    what_if,
    what_if_events,
)

__all__ = [
    "AuditDiff",
    "History",
    "WhatIf",
    "after_round",
    "as_of",
    "compare_tables",
    "diff",
    "diff_events",
    "history",
    "history_events",
    "opponents_by_player",
    "read_added_events",
    "record_json",
    "what_if",
    "what_if_events",
]
