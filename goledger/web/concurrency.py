"""Concurrency per game, not per ledger (issue 32, item 1).

A desk's form carries the head its page was rendered at. The store refuses any write whose
head moved (:meth:`goledger.ledger.store.Ledger.writing`); the desk then looks at the events
appended since and asks whether any of them is about something the form *depends on*:

- a result or correction at round R table T depends on that table (its pairing and result:
  ``("table", R, T)``), on both players' pairing in round R (``("player in round", P, R)``:
  a bye, an absence, a re-pairing) and on the round's pairing as a whole (``("round", R)``:
  ``unpair-round``);
- pairing two players by hand depends on both players in that round, on both players
  themselves (a withdrawal) and on the table it names;
- a player's round action (bye, absence, withdrawal…) on that player and that player's round;
- a registration or an update of a player on that player only.

When none of the events since touches a dependency, the write is made against the new head
without a question (the command validates it again against the new state, inside the write
lock, so two results for one table can never both be recorded); when one does, the write is
refused with what changed, in words, and the page offers to keep what is recorded or replace
it. A form of any other kind (change-rules, publish, pair-round…) depends on the whole ledger.

Subjects are those of :func:`goledger.ledger.subjects.subjects`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from goledger.describe.events import describe_event
from goledger.errors import CommandRejected, StaleHeadError
from goledger.i18n.messages import say
from goledger.ledger import events as ev
from goledger.ledger.store import Record
from goledger.ledger.subjects import Subject, subjects
from goledger.ledger.values import Result
from goledger.render.html import gettext
from goledger.replay.fold.state import TournamentState

__all__ = ["MAX_ATTEMPTS", "Conflict", "conflicts", "depends_on", "replacement", "run_per_subject", "stale_words",
           "words", "write_per_subject"]

Form = Mapping[str, Any]

MAX_ATTEMPTS = 50
"""How often a write that conflicts with nothing is tried again against a newer head before
the desk gives up (each attempt is refused only when another write landed in between)."""


def _text(form: Form, name: str) -> str:
    value = form.get(name, "")
    return value.strip() if isinstance(value, str) else ""


def _int(form: Form, name: str) -> int | None:
    from goledger.web.forms import number_or_none

    return number_or_none(form, name)


def _table_of(form: Form) -> int | None:
    if _text(form, "entry"):
        from goledger.web.actions import parse_entry

        try:
            return parse_entry(_text(form, "entry"))[0]
        except CommandRejected:
            return None
    return _int(form, "table")


def _player_id(state: TournamentState, reference: str) -> str | None:
    from goledger.replay.fold.players import find_player

    try:
        return find_player(state, reference).id
    except Exception:  # an unknown player: the command refuses it with its own sentence
        return None


def depends_on(state: TournamentState, action: str, form: Form) -> set[Subject] | None:
    """What the form of ``action`` depends on, read from ``state`` (the current one), or
    ``None`` when it depends on the whole ledger.

    >>> from goledger.ledger import events as ev
    >>> from goledger.replay.fold.state import fold
    >>> s = fold([ev.TournamentCreated(settings=ev.TournamentSettings(name="T", rounds=2)),
    ...           ev.PlayerRegistered(player_id="p0001", surname="Sato", rank="2d"),
    ...           ev.PlayerRegistered(player_id="p0002", surname="Ito", rank="1k"),
    ...           ev.GamePaired(round=1, table=3, white="p0001", black="p0002")])
    >>> sorted(depends_on(s, "result", {"round": "1", "entry": "3 w"}))
    [('player in round', 'p0001', 1), ('player in round', 'p0002', 1), ('round', 1), ('table', 1, 3)]
    >>> depends_on(s, "change-rules", {}) is None
    True
    """
    round_ = _int(form, "round")
    if action in ("result", "correct", "unpair"):
        table = _table_of(form)
        if round_ is None or table is None:
            return None
        deps: set[Subject] = {("table", round_, table), ("round", round_)}
        game = state.games.get(round_, {}).get(table)
        if game is not None:
            deps |= {("player in round", game.white, round_), ("player in round", game.black, round_)}
        return deps
    if action == "pair":
        if round_ is None:
            return None
        deps = {("round", round_)}
        for field in ("white", "black"):
            pid = _player_id(state, _text(form, field))
            if pid is None:
                return None
            deps |= {("player in round", pid, round_), ("player", pid)}
        if (table := _int(form, "table")) is not None:
            deps.add(("table", round_, table))
        return deps
    if action in ("player", "withdraw", "reinstate", "absent", "present", "bye", "unbye"):
        pid = _player_id(state, _text(form, "player"))
        if pid is None or round_ is None:
            return None
        deps = {("player", pid), ("round", round_)}
        deps |= {("player in round", pid, r) for r in range(1, max(state.rounds, round_) + 1)}
        return deps
    if action == "update-player":
        pid = _player_id(state, _text(form, "player"))
        return None if pid is None else {("player", pid)}
    if action == "register":
        return {("rules",)}
    return None


def conflicts(since: Iterable[Record], deps: set[Subject]) -> list[Record]:
    """The records of ``since`` about a subject in ``deps`` (an undecodable record counts as
    a conflict: the desk cannot tell what it changed)."""
    found = []
    for record in since:
        try:
            touched = subjects(record.event)
        except Exception:
            found.append(record)
            continue
        if touched & deps:
            found.append(record)
    return found


@dataclass(frozen=True)
class Conflict:
    """A write refused because something it depends on changed: the head it was tried
    against, the records about its subjects, and what they say in words."""

    head: int
    records: tuple[Record, ...]
    sentences: tuple[str, ...]
    result_now: str
    """The result the form's table has now (``""`` when it has none or the form names none)."""


def _full_name(state: TournamentState) -> Callable[[str], str]:
    def name_of(pid: str) -> str:
        player = state.players.get(pid)
        return player.full_name if player is not None else pid

    return name_of


_RESULT_WORDS = {
    Result.WHITE: "white won", Result.BLACK: "black won", Result.JIGO: "jigo",
    Result.BOTH_LOSE: "both lost", Result.BOTH_WIN: "both won", Result.UNKNOWN: "no result",
}


def words(record: Record, state: TournamentState) -> str:
    """One record in the words a director at another desk reads: who did what, when.

    The names are the players' (never their ids); results say who won."""
    name_of = _full_name(state)
    who = (say("desk %(name)s", name=record.actor[5:]) if record.actor.startswith("desk ")
           else record.actor or gettext("someone"))
    when = record.recorded_at[11:19] if len(record.recorded_at) >= 19 else record.recorded_at
    event = record.event
    match event:
        case ev.ResultRecorded(round=r, table=t, result=res) | ev.ResultCorrected(round=r, table=t, result=res):
            game = state.games.get(r, {}).get(t)
            players = f" ({name_of(game.white)} – {name_of(game.black)})" if game is not None else ""
            verb = gettext("recorded") if isinstance(event, ev.ResultRecorded) else gettext("corrected")
            what = gettext(_RESULT_WORDS[res]) + (" " + gettext("by default") if event.by_default else "")
            return gettext("At {when}, {who} {verb} table {table}{players}: {what}.").format(
                when=when, who=who, verb=verb, table=t, players=players, what=what)
        case ev.GamePaired(table=t, white=w, black=b):
            return gettext("At {when}, {who} paired table {table}: {white} (white) – {black} (black).").format(
                when=when, who=who, table=t, white=name_of(w), black=name_of(b))
        case ev.PairingRemoved(table=t):
            return gettext("At {when}, {who} removed the pairing of table {table}.").format(
                when=when, who=who, table=t)
    return gettext("At {when}, {who}: {what}.").format(when=when, who=who,
                                                       what=describe_event(event, name_of))


def run_per_subject(run: Callable[[int | None, bool], Any], expected_head: int, deps: set[Subject] | None,
                    state_now: Callable[[], TournamentState], table: tuple[int, int] | None = None) -> Any:
    """``run(expected_head, retry)`` against the page's head; when the head moved and no
    event since touches ``deps``, again against the newest head seen (never with ``retry``:
    each attempt is still refused if yet another write landed meanwhile, and then judged
    again). Returns the command's outcome, or raises :class:`ConflictError` naming what
    changed, or the store's :class:`StaleHeadError` when ``deps`` is ``None``."""
    head = expected_head
    for _ in range(MAX_ATTEMPTS):
        try:
            return run(head, False)
        except StaleHeadError as exc:
            if deps is None or not exc.since:
                raise
            found = conflicts(exc.since, deps)
            if found:
                state = state_now()
                result_now = ""
                if table is not None:
                    game = state.games.get(table[0], {}).get(table[1])
                    if game is not None and game.result is not Result.UNKNOWN:
                        result_now = game.result.value
                raise ConflictError(Conflict(exc.since[-1].seq, tuple(found),
                                             tuple(words(r, state) for r in found), result_now)) from None
            head = exc.since[-1].seq
    raise StaleHeadError(gettext("the ledger is changing too fast to record this; try again"),
                         expected=expected_head)


class ConflictError(StaleHeadError):
    """A write refused because an event since the page's head touched what it depends on."""

    code = "conflict"

    def __init__(self, conflict: Conflict) -> None:
        super().__init__(" ".join(conflict.sentences), expected=conflict.head, since=conflict.records)
        self.conflict = conflict


__all__ += ["ConflictError"]


def write_per_subject(db: Path, run: Callable[[int | None, bool], Any], action: str, form: Form,
                      expected_head: int, retry: bool) -> Any:
    """A desk write (``run(head, retry)``) in the worker process (:mod:`goledger.web.isolate`):
    first against the page's head; only when that head has moved is the state read, what the
    form depends on found (:func:`depends_on`) and the write judged per subject
    (:func:`run_per_subject`). ``retry`` (the director's one-click retry) goes straight to the
    command, which re-checks against the new events."""
    from goledger.replay.views import state_as_of

    if retry:
        return run(expected_head, True)
    try:
        return run(expected_head, False)
    except StaleHeadError as exc:
        if not exc.since:
            raise
    deps = depends_on(state_as_of(db, None), action, form)
    return run_per_subject(run, expected_head, deps, lambda: state_as_of(db, None), form_table(form))


def form_table(fields: Form) -> tuple[int, int] | None:
    """(round, table) a result form names, if it names one."""
    from goledger.web.actions import table_subject

    subject = next(iter(table_subject(fields)), None)
    return None if subject is None else (subject[1], subject[2])


def replacement(name: str, fields: Form, conflict: Conflict) -> dict[str, str]:
    """The form that replaces what another desk recorded with this desk's entry: a result
    whose table now has one becomes a correction (with a reason saying so); anything else is
    the same form against the newer head."""
    from goledger.web.actions import parse_entry

    keep = {k: str(v) for k, v in fields.items() if k not in ("csrf", "retry", "expected_head")}
    out = {"action": name, **keep, "expected_head": str(conflict.head)}
    if name in ("result", "correct") and conflict.result_now:
        if str(fields.get("entry", "")).strip():
            table, word, by_default = parse_entry(str(fields["entry"]))
            keep.pop("entry", None)
            keep.update(table=str(table), result=word, by_default="1" if by_default else "")
        out = {"action": "correct", **keep, "expected_head": str(conflict.head),
               "reason": gettext("replaced at the desk: it conflicted with a result entered at another desk")}
    return out


def stale_words(exc: StaleHeadError) -> str:
    """The store's refusal of a moved head, in browser words."""
    if not exc.since:
        return exc.message
    return gettext("Nothing was written: {count} event(s) were recorded after this page was shown "
                   "(the last is event {seq}). Check them, then record it again.").format(
        count=len(exc.since), seq=exc.since[-1].seq)
