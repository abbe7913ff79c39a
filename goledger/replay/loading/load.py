"""Reading a ledger into state: the one place that folds a stored log.

``load_state`` folds events ``1..upto`` of a ledger (or of an open write transaction).
Whole-log folds of the current head go through a cached snapshot when one is present
and valid (see :mod:`goledger.replay.loading.snapshots`), so commands and views on a large
tournament do not refold every event; ``fresh_state`` never does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goledger.replay.fold.state import SETTINGS_EVENTS, TournamentState, fold
from goledger.replay.loading.snapshots import cached_state
from goledger.replay.scoring.registries import check_registered

if TYPE_CHECKING:
    from goledger.ledger import events as ev
    from goledger.ledger.store import Ledger, Transaction

__all__ = ["fresh_state", "load_state", "settings_of"]


def load_state(source: Ledger | Transaction, upto: int | None = None) -> TournamentState:
    """The state after event ``upto`` (default: the head), through the snapshot cache."""
    return cached_state(source, upto)


def fresh_state(source: Ledger | Transaction, upto: int | None = None) -> TournamentState:
    """The state after event ``upto`` folded from the log itself, never from a cache: what
    ``publish``, ``verify`` and ``export egd`` use, since what they vouch for must not depend
    on anything a file could hold beside the log (issue 18, point 4)."""
    return fold(source.events(upto=upto), check=check_registered)


def settings_of(ledger: Ledger, upto: int | None = None) -> ev.TournamentSettings | None:
    """The tournament's settings after event ``upto`` (default: the head; ``None`` before
    ``new``), folded from the events that set them alone
    (:data:`~goledger.replay.fold.state.SETTINGS_EVENTS`): what a command asks before it starts,
    such as the language to write in or whether its system has places of its own, without
    loading the whole tournament (some 60 ms of a congress's state from its snapshot)."""
    return fold(ledger.events_of_types(SETTINGS_EVENTS, upto), check=check_registered).settings
