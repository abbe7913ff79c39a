"""``goledger show-round R``: show a round's pairing to the players (issue 32, item 3).

With ``change-rules pairings_visible=manual`` a new round's pairing reaches the players' view
(the public pages, find my table, ``/api/pairings`` without the director token) only once the
director shows it, so that tables can be fixed before anyone walks to them; the default
``auto`` shows a round as soon as it is paired. Showing is an event (``RoundShown``), so the
log says who showed which round when. ``unpair-round`` hides the round again.
"""

from __future__ import annotations

from typing import Unpack

from goledger.commands.checks import check_round
from goledger.commands.recording import Outcome, PathLike, Plumbing, first_event, record
from goledger.errors import CommandRejected
from goledger.i18n import N_
from goledger.i18n.messages import say, say_at
from goledger.ledger import events as ev
from goledger.replay.fold.state import TournamentState

__all__ = ["decide_show_round", "show_round", "show_round_message"]


def decide_show_round(state: TournamentState, round_: int) -> list[ev.Event]:
    """``RoundShown(round_)``; refused unless the tournament shows rounds by hand
    (``pairings_visible=manual``), the round is paired and not shown yet.

    >>> from goledger.replay.fold.state import fold
    >>> s = fold([ev.TournamentCreated(settings=ev.TournamentSettings(name="T", rounds=2, pairings_visible="manual")),
    ...           ev.PlayerRegistered(player_id="p0001", surname="Sato", rank="2d"),
    ...           ev.PlayerRegistered(player_id="p0002", surname="Ito", rank="1k"),
    ...           ev.GamePaired(round=1, table=1, white="p0001", black="p0002")])
    >>> decide_show_round(s, 1)
    [RoundShown(round=1)]
    >>> decide_show_round(s, 2)
    Traceback (most recent call last):
    ...
    goledger.errors.CommandRejected: round 2 is not paired yet: there is nothing to show
    """
    check_round(state, round_)
    if state.settings is not None and state.settings.pairings_visible == "auto":
        raise CommandRejected(say_at("round %(round)d is shown as soon as it is paired (pairings_visible=auto); use "
                                     "change-rules pairings_visible=manual to show rounds by hand",
                                     N_("round %(round)d is shown as soon as it is paired (pairings_visible=auto); "
                                        "set pairings_visible=manual on the settings page to show rounds by hand"),
                                     round=round_))
    if not state.games.get(round_) and not state.byes.get(round_):
        raise CommandRejected(say("round %(round)d is not paired yet: there is nothing to show", round=round_))
    if round_ in state.shown_rounds:
        raise CommandRejected(say("round %(round)d is already shown (event %(event)d)", round=round_,
                                  event=state.shown_rounds[round_]))
    return [ev.RoundShown(round=round_)]


def show_round_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``round 3: pairing shown to the players``."""
    return say("round %(round)d: pairing shown to the players", round=first_event(events, ev.RoundShown).round)


def show_round(db: PathLike, round: int, **plumbing: Unpack[Plumbing]) -> Outcome:  # noqa: A002
    """Show round ``round``'s pairing to the players (:func:`decide_show_round`)."""
    return record(db, lambda state: decide_show_round(state, round), show_round_message, **plumbing)
