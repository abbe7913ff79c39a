"""The one write path of every recording command: :func:`record`.

A command is a pure decider (``decide_<command>(state, …) -> list[Event]``, refusing with
:class:`~goledger.errors.CommandRejected` and one sentence) and a thin wrapper handing it to
:func:`record`, which carries what every command shares: the ledger's write lock and one
transaction, the fold of the current state, the declared domains of every event
(:func:`goledger.ledger.domains.event_problem`), the envelope's ``actor`` and ``reason``,
optimistic concurrency (``expected_head``, ``retry``) and ``dry_run``.

**Conflicts: one rule, in the store.** Given the head the writer last saw, a moved head is
refused outright (:class:`~goledger.errors.StaleHeadError` naming every event since) unless the
writer says what its decision depends on; then the decision is made on the new state, inside
the write lock, and the store refuses it only when an event appended since touches one of those
dependencies (:func:`goledger.ledger.store.touching`: subjects shared, or an event it cannot
decode). What a decision depends on is the union of

- the subjects of the events it decided (:func:`goledger.ledger.subjects.all_subjects`), checked
  after deciding: ``retry`` (the CLI's ``--retry``) asks for this alone;
- what its caller says it read (:func:`depending`: the desk's form, e.g. a result depends on
  its table, its round's pairing and both players in that round), checked *before* deciding,
  so that another desk's result for the same table is a conflict to show, not a refusal to
  record a second result. ``None`` there means the whole ledger: a plain refusal.

Either refusal names the events that touched (:class:`ChangedSince`, with the head now).
The caller's dependencies come in a context (:func:`depending`) rather than a parameter: the
desk reaches :func:`record` through the forty commands' own signatures.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypedDict, TypeVar

import msgspec

from goledger.commands.checks import refusal
from goledger.describe.events import describe_event, describe_subject, names_from
from goledger.errors import CommandRejected, GoledgerError, StaleHeadError
from goledger.i18n import N_
from goledger.i18n.messages import nsay, on_desk, resolve_articles, say, say_at, word
from goledger.ledger import events as ev
from goledger.ledger.domains import event_problem
from goledger.ledger.store import Ledger, Record, Transaction
from goledger.ledger.subjects import Subject, all_subjects, record_subjects, subjects
from goledger.replay.fold.state import TournamentState

__all__ = ["Actors", "Appending", "ChangedSince", "Decide", "Depends", "Describe", "Intent", "Outcome", "PathLike",
           "Plumbing", "default_actor", "depending", "first_event", "record", "record_many", "record_text"]

PathLike = str | os.PathLike[str]

Decide = Callable[[TournamentState], list[ev.Event]]
"""A decider with its intent bound: the state as it stands → the events to append."""

Describe = Callable[[TournamentState, list[ev.Event]], str]
"""The director's one-line summary of decided events, from the state they were decided on."""

Actors = Callable[[TournamentState, ev.Event], str]
"""Each decided event's own envelope actor, from the state it was decided on (a player's
report and the result it completes name different actors, issue 46)."""

Depends = Callable[[TournamentState], Collection[Subject] | None]
"""What a caller's decision reads, from the state it is decided on (``None``: the whole ledger)."""

_DEPENDS: ContextVar[Depends | None] = ContextVar("goledger_depends", default=None)

DRY_RUN = "(dry run, nothing written) "


@contextmanager
def depending(depends: Depends) -> Iterator[None]:
    """Within the block, :func:`record` lets the head move and refuses only what touches
    ``depends(state)`` or the decided events' subjects (the module's conflict rule)."""
    token = _DEPENDS.set(depends)
    try:
        yield
    finally:
        _DEPENDS.reset(token)


class ChangedSince(CommandRejected):
    """A write refused because events appended since the writer's expected head touch what it
    depends on: ``records`` (those events), ``expected`` and ``head`` (the head now)."""

    def __init__(self, message: str, *, records: tuple[Record, ...], expected: int | None, head: int) -> None:
        super().__init__(message)
        self.records = records
        self.expected = expected
        self.head = head

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
    sentence naming what was recorded since; with ``retry`` (or within :func:`depending`) the
    command is decided against the new state and appended unless the events since touch what it
    depends on (the module docstring: :class:`ChangedSince`). ``dry_run``: the
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
                    raise refusal(problem)
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

    depends = None if retry else _DEPENDS.get()
    keys_of = record_subjects if retry or depends is not None else None
    with Ledger.open(db) as ledger:
        try:
            with ledger.writing(expected_head, keys_of=keys_of) as tx:
                state = load_state(tx)
                _check_tournament(db, state)
                name_of = names_from(state.players)
                if depends is not None:  # what the caller read, before deciding on it
                    _depend(tx, depends(state), name_of)
                try:
                    events = decide(state)
                    message = _described(describe, state, events)
                except CommandRejected as exc:
                    if not tx.since:
                        raise
                    raise CommandRejected(say("%(refusal)s (recorded since event %(seen)d: %(since)s)",
                                              refusal=exc.message, seen=expected_head or 0,
                                              since=_since_text(tx.since, name_of))) from None
                _check_frozen(state, events)
                for event in events:  # the declared domains: nothing outside them is appended
                    problem = event_problem(event)
                    if problem:
                        raise refusal(problem)
                _depend(tx, all_subjects(events), name_of)
                if actors is not None:
                    records = [r for e in events for r in tx.append([e], actor=actors(state, e), reason=reason)]
                else:
                    records = tx.append(events, actor=actor or default_actor(), reason=reason)
                return Outcome(message, records)
        except StaleHeadError as exc:
            if not exc.since:
                raise
            name_of = names_from(load_state(ledger).players)
            count, since = len(exc.since), _since_text(exc.since, name_of)
            if on_desk():
                moved = nsay("the ledger changed since event %(seen)d, the last one you saw: %(count)d event was "
                             "recorded since (%(since)s); nothing was written: check it, then send your form again",
                             "the ledger changed since event %(seen)d, the last one you saw: %(count)d events were "
                             "recorded since (%(since)s); nothing was written: check them, then send your form again",
                             count, seen=exc.expected or 0, count=count, since=since)
            else:
                moved = nsay("the ledger changed since event %(seen)d, the last one you saw: %(count)d event was "
                             "recorded since (%(since)s); nothing was written: check them, then repeat with --retry "
                             "to record yours against them",
                             "the ledger changed since event %(seen)d, the last one you saw: %(count)d events were "
                             "recorded since (%(since)s); nothing was written: check them, then repeat with --retry "
                             "to record yours against them",
                             count, seen=exc.expected or 0, count=count, since=since)
            raise StaleHeadError(moved, expected=exc.expected, since=exc.since, head=exc.head) from None


def _depend(tx: Transaction, keys: Collection[Subject] | None, name_of: Callable[[str], str]) -> None:
    """The store's conflict check (:meth:`goledger.ledger.store.Transaction.depend`) in the
    director's words: :class:`ChangedSince` naming the subject and the event that touched it.
    ``None`` (the whole ledger) stays the store's plain refusal of a moved head."""
    try:
        tx.depend(keys)
    except StaleHeadError as exc:
        if keys is None:
            raise
        stored, head = exc.since[0], exc.head if exc.head is not None else tx.head.seq
        try:
            shared = set(keys) & subjects(stored.event)
        except (ValueError, msgspec.ValidationError, msgspec.DecodeError):
            shared = set()
        what = describe_subject(sorted(shared, key=str)[0], name_of) if shared else word(N_("the ledger"))
        raise ChangedSince(
            say_at("%(what)s changed since event %(seen)d, the last one you saw (%(event)s); nothing was written: "
                   "check it, then repeat with --expected-head %(head)d if your command still applies",
                   N_("%(what)s changed since event %(seen)d, the last one you saw (%(event)s); nothing was written: "
                      "check it, then send your form again if it still applies"),
                   what=what, seen=exc.expected or 0, event=record_text(stored, name_of), head=head),
            records=tuple(exc.since), expected=exc.expected, head=head,
        ) from None


def _since_text(records: Sequence[Record], name_of: Callable[[str], str], limit: int = 5) -> str:
    """``"813 round 4 table 12: result white (desk-b, 14:02 UTC); …"`` for the first ``limit``."""
    parts = [record_text(r, name_of) for r in records[:limit]]
    more = "; " + say("and %(n)d more", n=len(records) - limit) if len(records) > limit else ""
    return "; ".join(parts) + more


def record_text(record: Record, name_of: Callable[[str], str]) -> str:
    """``"813 round 4 table 12: result white (desk-b, 14:02 UTC)"``: one stored event."""
    try:
        what = describe_event(record.event, name_of)
    except (ValueError, msgspec.ValidationError, msgspec.DecodeError):
        what = record.type
    by = ", ".join(x for x in (record.actor, f"{record.recorded_at[11:16]} UTC" if record.recorded_at else "") if x)
    return f"{record.seq} {what}" + (f" ({by})" if by else "")
