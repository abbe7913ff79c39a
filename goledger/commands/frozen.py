"""What frozen standings refuse (docs/freeze.md): :func:`check_frozen`, which the one write
path (:mod:`goledger.commands.recording`) runs on every decided command while a
``StandingsFrozen`` is in force; ``freeze`` and ``unfreeze`` are :mod:`goledger.commands.freezing`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.ledger import events as ev
from goledger.replay.fold.state import TournamentState

__all__ = ["IDENTITY_FIELDS", "check_frozen"]

IDENTITY_FIELDS: Final = frozenset({"surname", "first_name", "club", "country", "egd_pin", "ids"})
"""The player attributes a frozen tournament still corrects: no criterion reads them."""


def check_frozen(state: TournamentState, events: Sequence[ev.Event]) -> None:
    """Refuse (``CommandRejected``) ``events`` that would change a standing of a frozen
    tournament (the module's rules); nothing when it is not frozen."""
    if state.frozen is None:
        return
    rest = [e for e in events if not _identity_only(e) and not isinstance(e, ev.StandingsUnfrozen | ev.Checkpoint)]
    if not rest:
        return
    from goledger.replay.fold.state import fold
    from goledger.replay.scoring.registries import check_registered

    after = fold(events, start=state, check=check_registered)
    if after.frozen is not None and _standing(state) == _standing(after):
        return
    seq, why = state.frozen
    raise CommandRejected(say("the standings are frozen (event %(event)d: %(why)s) and this would change them; only "
                              "names, clubs, countries and PINs can be corrected: unfreeze first (goledger unfreeze "
                              "--reason TEXT)", event=seq, why=why))


def _identity_only(event: ev.Event) -> bool:
    return isinstance(event, ev.PlayerUpdated) and set(event.changes) <= IDENTITY_FIELDS


def _standing(state: TournamentState) -> list[tuple[str, int, dict[str, int]]] | str:
    """Every player's place and criterion values at the last round (or the refusal's text)."""
    from goledger.replay.scoring.standings import standings

    try:
        table = standings(state, state.rounds)
    except CommandRejected as exc:
        return exc.message
    return [(row.player_id, row.place, dict(row.values)) for row in table.rows]


