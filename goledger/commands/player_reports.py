"""Players report their own results (issue 46): ``report_result`` and ``approve_reports``.

A player, identified by his key at the players' door (the key itself never reaches the log),
reports the game he has in a round: he ``won``, ``lost``, or it was a ``jigo``, with a margin
if he wants (``R`` resignation, ``T`` time, or the points). The claim is a ``ResultClaimed``
event whose envelope actor is ``player <id>`` (:func:`goledger.keys.player_actor`).

The rules (:func:`decide_report`):

- only a player of the game, for the game he has in that round, once it is paired and shown
  to the players and until the round is closed (the next round paired, or the standings after
  it published: :func:`goledger.replay.scoring.reports.closed_reason`); the form names the
  opponent the player saw, and a game re-paired since is refused;
- never over a recorded result (a correction is the director's); a later claim of the same
  player replaces his earlier one; the same claim twice is refused as nothing new;
- when the tournament's ``player_reports`` is ``record`` and the opponent's claim agrees, the
  result is recorded in the same transaction, a ``ResultRecorded`` whose actor names both
  players (``players <white> <black>``); with ``approve`` (the default) it waits for the desk's
  :func:`approve_reports`, whose results name both players and the desk that approved them
  (``players <white> <black> (approved by desk NAME)``); ``off`` refuses reports.

Two claims sent at once are serialised by the ledger's write lock: each is decided on the
state that includes the other, so the second one records the result (under ``record``). A
result the desk records meanwhile makes a claim refused, never the desk's result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, Unpack

from goledger.commands.recording import Intent, Outcome, PathLike, Plumbing, record
from goledger.describe.events import describe_event
from goledger.describe.results import outcome_words
from goledger.errors import CommandRejected
from goledger.i18n import gettext, ngettext
from goledger.keys.store import player_actor
from goledger.ledger import events as ev
from goledger.ledger.store import Record
from goledger.ledger.values import Result
from goledger.replay.fold.state import Claim, TournamentState
from goledger.replay.scoring.reports import MARGIN, closed_reason, current_claim, reconcile, round_reports

__all__ = ["OUTCOMES", "ClaimOutcome", "approve_reports", "approve_reports_message", "decide_approve_reports",
           "decide_report", "players_actor", "report_message", "report_result", "reporters"]

ClaimOutcome = Literal["won", "lost", "jigo"]
OUTCOMES: tuple[ClaimOutcome, ...] = ("won", "lost", "jigo")


def players_actor(white: str, black: str, approved_by: str = "") -> str:
    """The envelope actor of a result both players reported: ``players p0012 p0345``, and
    ``players p0012 p0345 (approved by desk Anna)`` when the desk approved it."""
    return f"players {white} {black}" + (f" (approved by {approved_by})" if approved_by else "")


def reporters(actor: str) -> tuple[str, ...]:
    """The players an envelope actor names as the source of an event (``()`` for a director).

    >>> reporters("players p0012 p0345 (approved by desk Anna)"), reporters("player p0007"), reporters("desk web")
    (('p0012', 'p0345'), ('p0007',), ())
    """
    head, _, _ = actor.partition(" (")
    words = head.split()
    if (len(words), words[:1]) in ((2, ["player"]), (3, ["players"])):
        return tuple(words[1:])
    return ()


def _check_margin(outcome: str, margin: str) -> None:
    if not margin:
        return
    if outcome == "jigo":
        raise CommandRejected(gettext("a jigo has no margin"))
    if not MARGIN.match(margin):
        raise CommandRejected(gettext("the margin is R (resignation), T (time) or the points, e.g. 2.5"))


def decide_report(state: TournamentState, player_id: str, round_: int, outcome: str, margin: str = "",
                  opponent: str | None = None) -> list[ev.Event]:
    """The ``ResultClaimed`` of ``player_id``'s game in ``round_``, and under
    ``player_reports=record`` the ``ResultRecorded`` it completes when the opponent's claim
    agrees (see the module's rules)."""
    assert state.settings is not None
    if state.settings.player_reports == "off":
        raise CommandRejected(gettext("this tournament does not take results from the players"))
    if outcome not in OUTCOMES:
        raise CommandRejected(gettext("the result is one of: won, lost, jigo"))
    margin = margin.strip().upper()
    _check_margin(outcome, margin)
    player = state.players.get(player_id)
    if player is None:
        raise CommandRejected(gettext("this player is not registered"))
    if not 1 <= round_ <= state.rounds:
        raise CommandRejected(gettext("round %(round)d is not a round of this tournament") % {"round": round_})
    game = state.game_of(player_id, round_)
    if game is None or game.white == game.black or not state.round_visible(round_):
        raise CommandRejected(gettext("you have no game to report in round %(round)d") % {"round": round_})
    if opponent is not None and opponent != game.opponent(player_id):
        raise CommandRejected(gettext("your game in round %(round)d was paired again since your page was shown; "
                                      "reload it") % {"round": round_})
    if player.is_withdrawn(round_):
        raise CommandRejected(gettext("you withdrew before round %(round)d") % {"round": round_})
    closed = closed_reason(state, round_)
    if closed is not None:
        why = (gettext("round %(round)d is paired") if closed[0] == "paired"
               else gettext("the standings after round %(round)d are published")) % {"round": closed[1]}
        raise CommandRejected(gettext("round %(round)d is closed (%(why)s): ask the desk") % {
            "round": round_, "why": why})
    if game.result is not Result.UNKNOWN:
        raise CommandRejected(gettext("the result of your game is already recorded; only the desk can correct it"))
    before = current_claim(state, game, player_id)
    if before is not None and before.outcome == outcome and before.margin == margin:
        raise CommandRejected(gettext("you have already reported this result"))
    claim = ev.ResultClaimed(round=round_, table=game.table, player_id=player_id, opponent=game.opponent(player_id),
                             outcome=outcome, margin=margin)
    events: list[ev.Event] = [claim]
    if state.settings.player_reports == "record":
        mine = Claim(table=game.table, opponent=claim.opponent, outcome=outcome, margin=margin)
        white = mine if player_id == game.white else current_claim(state, game, game.white)
        black = mine if player_id == game.black else current_claim(state, game, game.black)
        row = reconcile(game, white, black)
        if row.status == "agree" and row.claimed is not None:
            events.append(ev.ResultRecorded(round=round_, table=game.table, result=row.claimed, margin=row.margin))
    return events


def _claim_actor(state: TournamentState, event: ev.Event) -> str:
    """A claim's actor is its player; a result it completes names both players."""
    if isinstance(event, ev.ResultClaimed):
        return player_actor(event.player_id)
    assert isinstance(event, ev.ResultRecorded)
    game = state.games[event.round][event.table]
    return players_actor(game.white, game.black)


def report_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``round 3 table 12: Sato Ken reports a win by resignation`` and, when it completed the result, who won."""
    claim = events[0]
    assert isinstance(claim, ev.ResultClaimed)
    game = state.games[claim.round][claim.table]
    text = describe_event(claim, lambda pid: state.players[pid].full_name)
    if len(events) > 1:
        result = events[1]
        assert isinstance(result, ev.ResultRecorded)
        white, black = (state.players[p].full_name for p in (game.white, game.black))
        text += "; " + gettext("both reports agree, the result is recorded: %(result)s") % {
            "result": outcome_words(result.result, result.margin, False, white, black)}
    return text


def report_result(
    db: PathLike,
    player_id: str,
    round: int,  # noqa: A002
    outcome: str,
    margin: str = "",
    opponent: str | None = None,
    **plumbing: Unpack[Plumbing],
) -> Outcome:
    """Record a player's own report of his game (:func:`decide_report`); the envelope's actor
    is the player (:func:`goledger.keys.player_actor`; any ``actor`` given is ignored), and a
    result it completes names both players."""
    plumbing.pop("actor", None)
    return record(db, lambda state: decide_report(state, player_id, round, outcome, margin, opponent),
                  report_message, actors=_claim_actor, **plumbing)


def report_intent(player_id: str, round_: int, outcome: str, margin: str, opponent: str | None,
                  expected_head: int | None = None, stale: Callable[[list[Record]], None] | None = None) -> Intent:
    """A player's report as one intent of a group write
    (:func:`goledger.commands.recording.record_many`), decided and acted as
    :func:`report_result`'s; ``expected_head`` and ``stale`` as :class:`Intent`'s."""
    return Intent(lambda state: decide_report(state, player_id, round_, outcome, margin, opponent), report_message,
                  "", actors=_claim_actor, expected_head=expected_head, stale=stale)


def decide_approve_reports(state: TournamentState, round_: int, tables: Sequence[int] = ()) -> list[ev.Event]:
    """A ``ResultRecorded`` for every game of ``round_`` (of ``tables`` when given) whose two
    players' reports agree and that has no result yet; refuses when there is none."""
    if not 1 <= round_ <= state.rounds:
        raise CommandRejected(gettext("round %(round)d is not a round of this tournament") % {"round": round_})
    wanted = set(tables)
    events: list[ev.Event] = []
    for row in round_reports(state, round_):
        if row.status == "agree" and row.claimed is not None and (not wanted or row.table in wanted):
            events.append(ev.ResultRecorded(round=round_, table=row.table, result=row.claimed, margin=row.margin))
    if not events:
        raise CommandRejected(gettext("round %(round)d has no agreeing reports waiting for approval") % {
            "round": round_})
    return events


def approve_reports_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``approved 12 results reported by both players in round 3``."""
    first = events[0]
    assert isinstance(first, ev.ResultRecorded)
    return ngettext("approved %(n)d result reported by both players in round %(round)d",
                    "approved %(n)d results reported by both players in round %(round)d", len(events)) % {
        "n": len(events), "round": first.round}


def approve_reports(
    db: PathLike,
    round: int,  # noqa: A002
    tables: Sequence[int] = (),
    **plumbing: Unpack[Plumbing],
) -> Outcome:
    """Record the results both players of a game agree on in ``round`` (all of them, or those
    of ``tables``), each with an actor naming both players and the approver
    (:func:`decide_approve_reports`)."""
    from goledger.commands.recording import default_actor

    approver = plumbing.get("actor") or default_actor()

    def actor_of(state: TournamentState, event: ev.Event) -> str:
        assert isinstance(event, ev.ResultRecorded)
        game = state.games[event.round][event.table]
        return players_actor(game.white, game.black, approved_by=approver)

    return record(db, lambda state: decide_approve_reports(state, round, tables), approve_reports_message,
                  actors=actor_of, **plumbing)

