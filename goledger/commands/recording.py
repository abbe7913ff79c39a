"""The one write path of every recording command: :func:`record`.

A command is a pure decider (``decide_<command>(state, …) -> list[Event]``, refusing with
:class:`~goledger.errors.CommandRejected` and one sentence) and a thin wrapper handing it to
:func:`record`, which carries what every command shares: the ledger's write lock and one
transaction, the fold of the current state, the declared domains of every event
(:func:`goledger.ledger.domains.event_problem`), the envelope's ``actor`` and ``reason``,
optimistic concurrency (``expected_head``, ``retry``) and ``dry_run``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TypedDict, TypeVar

import msgspec

from goledger.describe.events import describe_event, describe_subject, names_from
from goledger.errors import CommandRejected, GoledgerError, StaleHeadError
from goledger.i18n.messages import resolve_articles, say
from goledger.ledger import events as ev
from goledger.ledger.domains import event_problem
from goledger.ledger.store import Ledger, Record
from goledger.ledger.subjects import all_subjects, subjects
from goledger.replay.fold.state import TournamentState

__all__ = ["Actors", "Appending", "Decide", "Describe", "Intent", "Outcome", "PathLike", "Plumbing", "default_actor",
           "first_event", "record", "record_many", "record_text"]

PathLike = str | os.PathLike[str]

Decide = Callable[[TournamentState], list[ev.Event]]
"""A decider with its intent bound: the state as it stands → the events to append."""

Describe = Callable[[TournamentState, list[ev.Event]], str]
"""The director's one-line summary of decided events, from the state they were decided on."""

Actors = Callable[[TournamentState, ev.Event], str]
"""Each decided event's own envelope actor, from the state it was decided on (a player's
report and the result it completes name different actors, issue 46)."""

DRY_RUN = "(dry run, nothing written) "

E = TypeVar("E", bound=ev.Event)


def first_event(events: Sequence[ev.Event], kind: type[E]) -> E:
    """The first of decided ``events``, a ``kind`` (the event a message describes)."""
    event = events[0]
    assert isinstance(event, kind)
    return event


class Appending(TypedDict, total=False):
    """The keywords every recording command passes on to :func:`record` (``reason`` aside,
    which some commands take as an argument of their own)."""

    actor: str
    expected_head: int | None
    retry: bool


class Plumbing(Appending, total=False):
    """:class:`Appending` and the ``reason`` kept in the envelope."""

    reason: str


class Outcome(msgspec.Struct, frozen=True):
    """What a command appended, with a one-line summary for the director."""

    message: str
    records: list[Record]

    @property
    def seqs(self) -> list[int]:
        return [r.seq for r in self.records]


def default_actor() -> str:
    """The envelope's actor when none is given: ``$GOLEDGER_ACTOR``, else ``$USER``."""
    return os.environ.get("GOLEDGER_ACTOR") or os.environ.get("USER") or "director"


def record(
    db: PathLike,
    decide: Decide,
    describe: Describe,
    *,
    actor: str = "",
    reason: str = "",
    expected_head: int | None = None,
    retry: bool = False,
    dry_run: bool = False,
    actors: Actors | None = None,
) -> Outcome:
    """Lock the ledger, fold it, let ``decide`` refuse or produce events, append them in one
    transaction; the outcome's message is ``describe`` of them.

    With ``expected_head`` (the last event the desk saw): a moved head is refused with a
    sentence naming what was recorded since; with ``retry`` the command is decided against
    the new state and appended unless the events since touch the same table, player-round,
    player or rules as the new ones (see :mod:`goledger.ledger.subjects`). ``dry_run``: the
    decision on the current state, its message marked, nothing written (no records).
    ``actors``: each event's own actor instead of ``actor`` (one transaction all the same)."""
    if dry_run:
        state = _current_state(db)
        events = decide(state)
        _check_frozen(state, events)
        return Outcome(DRY_RUN + _described(describe, state, events), [])
    return _append(db, decide, describe, actor=actor, reason=reason, expected_head=expected_head, retry=retry,
                   actors=actors)


class Intent(msgspec.Struct, frozen=True):
    """One writer's intent in a group write (:func:`record_many`): its decider, its summary,
    the actor its events carry (or ``actors``, each event's own); with ``expected_head`` (the
    head its page was shown at), ``stale`` is called with the records stored since that head
    and refuses the intent (raising) when one of them touches what it depends on."""

    decide: Decide
    describe: Describe
    actor: str
    actors: Actors | None = None
    expected_head: int | None = None
    stale: Callable[[list[Record]], None] | None = None


def record_many(db: PathLike, intents: Sequence[Intent], *, reason: str = "") -> list[Outcome | GoledgerError]:
    """Group commit: lock the ledger and fold it once, decide each intent in turn against the
    state as the intents before it left it (each decided event folded in), and append all
    their events in ONE transaction, each intent's with its own actor. The answer is per
    intent, in order: its :class:`Outcome`, or the refusal (:class:`GoledgerError`) of its
    ``stale`` check, its decider, the domains or frozen standings; a refused intent appends nothing and
    does not stop the others. Many small writes (players' phones, issue 46) then cost one
    fold and one commit instead of one each."""
    from goledger.replay.fold.state import apply, fold
    from goledger.replay.loading.load import load_state
    from goledger.replay.scoring.registries import check_registered

    answers: list[Outcome | GoledgerError] = []
    with Ledger.open(db) as ledger, ledger.writing(None) as tx:
        state = fold([], start=load_state(tx))  # a copy: the intents' events are folded into it
        _check_tournament(db, state)
        heads = [i.expected_head for i in intents if i.expected_head is not None and i.stale is not None]
        stored = list(tx.records(after=min(heads))) if heads and min(heads) < state.seq else []
        decided: list[tuple[int, list[tuple[ev.Event, str]], str]] = []
        for n, intent in enumerate(intents):
            try:
                if intent.stale is not None and intent.expected_head is not None:
                    intent.stale([r for r in stored if r.seq > intent.expected_head])
                events = intent.decide(state)
                message = _described(intent.describe, state, events)
                _check_frozen(state, events)
                problem = next((p for p in map(event_problem, events) if p), None)
                if problem:
                    raise CommandRejected(problem)
            except GoledgerError as exc:
                answers.append(exc)
                continue
            acted = [(e, intent.actors(state, e) if intent.actors is not None else intent.actor) for e in events]
            for event in events:
                apply(state, event, check_registered)
            decided.append((n, acted, message))
            answers.append(Outcome(message, []))
        for n, acted, message in decided:
            answers[n] = Outcome(message, [r for e, actor in acted for r in tx.append([e], actor=actor, reason=reason)])
    return answers


def _described(describe: Describe, state: TournamentState, events: list[ev.Event]) -> str:
    """``describe``'s summary with any Hungarian ``a(z)`` a translation left resolved to
    *a*/*az* (:func:`goledger.i18n.messages.resolve_articles`); a catalog message stays one."""
    message = describe(state, events)
    return message if "(z)" not in message else resolve_articles(message)


def _current_state(db: PathLike) -> TournamentState:
    from goledger.replay.loading.load import load_state

    with Ledger.open(db) as ledger:
        state = load_state(ledger)
    _check_tournament(db, state)
    return state


def _check_frozen(state: TournamentState, events: list[ev.Event]) -> None:
    """Frozen standings refuse what would change them (:func:`goledger.commands.frozen.check_frozen`)."""
    if state.frozen is not None:
        from goledger.commands.frozen import check_frozen

        check_frozen(state, events)


def _check_tournament(db: PathLike, state: TournamentState) -> None:
    if state.settings is None:
        raise CommandRejected(say("%(db)s has no tournament (its log has no TournamentCreated event)", db=str(db)))


def _append(
    db: PathLike, decide: Decide, describe: Describe, *, actor: str, reason: str, expected_head: int | None,
    retry: bool, actors: Actors | None = None,
) -> Outcome:
    from goledger.replay.loading.load import load_state

    with Ledger.open(db) as ledger:
        try:
            with ledger.writing(expected_head, retry=retry) as tx:
                state = load_state(tx)
                _check_tournament(db, state)
                since: list[Record] = []
                if expected_head is not None and tx.head.seq != expected_head:
                    since = list(tx.records(after=expected_head))
                name_of = names_from(state.players)
                try:
                    events = decide(state)
                    message = _described(describe, state, events)
                except CommandRejected as exc:
                    if not since:
                        raise
                    raise CommandRejected(
                        f"{exc.message} (recorded since event {expected_head}: {_since_text(since, name_of)})"
                    ) from None
                _check_frozen(state, events)
                for event in events:  # the declared domains: nothing outside them is appended
                    problem = event_problem(event)
                    if problem:
                        raise CommandRejected(problem)
                if since:
                    _refuse_conflicts(events, since, expected_head, name_of)
                if actors is not None:
                    records = [r for e in events for r in tx.append([e], actor=actors(state, e), reason=reason)]
                else:
                    records = tx.append(events, actor=actor or default_actor(), reason=reason)
                return Outcome(message, records)
        except StaleHeadError as exc:
            if not exc.since:
                raise
            name_of = names_from(load_state(ledger).players)
            count = len(exc.since)
            raise StaleHeadError(
                f"the ledger changed since event {exc.expected}, the last one you saw: {count} "
                f"event{'s were' if count > 1 else ' was'} recorded since ({_since_text(exc.since, name_of)}); "
                "nothing was written: check them, then repeat with --retry to record yours against them",
                expected=exc.expected, since=exc.since,
            ) from None


def _since_text(records: Sequence[Record], name_of: Callable[[str], str], limit: int = 5) -> str:
    """``"813 round 4 table 12: result white (desk-b, 14:02 UTC); …"`` for the first ``limit``."""
    parts = [record_text(r, name_of) for r in records[:limit]]
    more = f"; and {len(records) - limit} more" if len(records) > limit else ""
    return "; ".join(parts) + more


def record_text(record: Record, name_of: Callable[[str], str]) -> str:
    """``"813 round 4 table 12: result white (desk-b, 14:02 UTC)"``: one stored event."""
    try:
        what = describe_event(record.event, name_of)
    except (ValueError, msgspec.ValidationError, msgspec.DecodeError):
        what = record.type
    by = ", ".join(x for x in (record.actor, f"{record.recorded_at[11:16]} UTC" if record.recorded_at else "") if x)
    return f"{record.seq} {what}" + (f" ({by})" if by else "")


def _refuse_conflicts(
    events: Sequence[ev.Event], since: Sequence[Record], expected_head: int | None,
    name_of: Callable[[str], str],
) -> None:
    """Refuse (``--retry``) when an event recorded since the expected head touches what the
    new events touch."""
    mine = all_subjects(events)
    for stored in since:
        try:
            theirs = subjects(stored.event)
        except (ValueError, msgspec.ValidationError, msgspec.DecodeError):
            continue
        shared = mine & theirs
        if shared:
            what = describe_subject(sorted(shared, key=str)[0], name_of)
            raise CommandRejected(
                f"{what} changed since event {expected_head}, the last one you saw "
                f"({record_text(stored, name_of)}); nothing was written: check it, then repeat with "
                f"--expected-head {since[-1].seq} if your command still applies"
            )
