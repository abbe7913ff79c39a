"""Refresh the ratings of every registered player from the machine's rating list (issue 43,
item 3): the desk's "refresh ratings of registered players", previewed, then recorded as one
action.

Each player with an EGD PIN is brought up to the current list exactly as ``update-player
--from-ratings`` brings one (:func:`goledger.commands.registration.refresh_changes`: country,
club, rank, grade and rating, never the names, which may carry accents the ASCII list lacks);
a player without a PIN, whose PIN the list lacks or names someone else, is left as he is, with
the reason. :func:`refresh_plan` is what the preview shows; :func:`decide_refresh_ratings`
records one ``PlayerUpdated`` per player who changes, all in one transaction, and refuses
when nobody changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Unpack

from goledger.commands.recording import Outcome, PathLike, Plumbing, record
from goledger.errors import CommandRejected
from goledger.i18n import gettext, ngettext
from goledger.ledger import events as ev
from goledger.replay.fold.state import TournamentState

__all__ = ["RefreshRow", "decide_refresh_ratings", "refresh_plan", "refresh_ratings", "refresh_ratings_message"]

SHOWN: tuple[str, ...] = ("rank", "rating", "club", "country")
"""The fields the preview shows, in its order (the EGD grade goes with the rank)."""


@dataclass(frozen=True, slots=True)
class RefreshRow:
    """One registered player in the refresh: ``changes`` (field → (now, from the list)),
    empty when he agrees with the list or is ``skipped`` (the reason, in words)."""

    player_id: str
    name: str
    changes: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    skipped: str = ""
    update: dict[str, Any] = field(default_factory=dict)
    """The ``PlayerUpdated`` changes (with the list as ``rating_list``)."""


def refresh_plan(state: TournamentState, ratings: PathLike | None = None) -> list[RefreshRow]:
    """Every registered player (by id) with what the current list would change; a store
    without a list is refused in one sentence."""
    from goledger.commands.registration import lookup, refresh_changes
    from goledger.ratings.store import ratings_path

    if not ratings_path(ratings).is_file():
        raise CommandRejected(gettext("there is no rating list on this machine yet; import one first"))
    rows = []
    for p in sorted(state.players.values(), key=lambda p: p.id):
        if not p.egd_pin:
            rows.append(RefreshRow(p.id, p.full_name, skipped=gettext("no EGD PIN")))
            continue
        try:
            update = refresh_changes(p, ratings, state.settings)
        except CommandRejected as exc:
            ref, listed = lookup(p.egd_pin, ratings)
            reason = (gettext("his EGD PIN is not in the list") if ref is not None and listed is None
                      else exc.message)
            rows.append(RefreshRow(p.id, p.full_name, skipped=reason))
            continue
        changes = {k: (getattr(p, k), update[k]) for k in SHOWN if k in update}
        rows.append(RefreshRow(p.id, p.full_name, changes=changes, update=update if changes else {}))
    return rows


def decide_refresh_ratings(state: TournamentState, ratings: PathLike | None = None) -> list[ev.Event]:
    """One ``PlayerUpdated`` per player the list changes (:func:`refresh_plan`); refuses
    when it changes nobody."""
    events: list[ev.Event] = [ev.PlayerUpdated(player_id=row.player_id, changes=row.update)
                              for row in refresh_plan(state, ratings) if row.changes]
    if not events:
        raise CommandRejected(gettext("every registered player with an EGD PIN already agrees with the rating list; "
                                      "nothing to change"))
    return events


def refresh_ratings_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``ratings refreshed from the egd list of 2019-02-22: 3 players changed``."""
    first = next(e for e in events if isinstance(e, ev.PlayerUpdated))
    origin = first.changes.get("rating_list") or {}
    return ngettext("ratings refreshed from the %(source)s list of %(date)s: %(num)d player changed",
                    "ratings refreshed from the %(source)s list of %(date)s: %(num)d players changed",
                    len(events)) % {"source": origin.get("source", ""), "date": origin.get("date", ""),
                                    "num": len(events)}


def refresh_ratings(db: PathLike, ratings: PathLike | None = None, **plumbing: Unpack[Plumbing]) -> Outcome:
    """Record :func:`decide_refresh_ratings` (one transaction, every change at once)."""
    return record(db, lambda state: decide_refresh_ratings(state, ratings), refresh_ratings_message, **plumbing)
