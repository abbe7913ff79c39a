"""Concurrency per game, not per ledger (issue 32, item 1).

A desk's form carries the head its page was rendered at. The desk says what the form
*depends on* (:func:`depends_on`, through :func:`goledger.commands.recording.depending`), and
the store, inside the write lock, refuses the write only when an event appended since that
head touches it or the events the command decided (one rule for the CLI's ``--retry``, the
desk and the workers: :func:`goledger.ledger.store.touching`):

- a result or correction at round R table T depends on that table (its pairing and result:
  ``("table", R, T)``), on both players' pairing in round R (``("player in round", P, R)``:
  a bye, an absence, a re-pairing) and on the round's pairing as a whole (``("round", R)``:
  ``unpair-round``);
- pairing two players by hand depends on both players in that round, on both players
  themselves (a withdrawal) and on the table it names;
- a player's round action (bye, absence, withdrawal…) on that player and that player's round;
- a registration or an update of a player on that player only.

When none of the events since touches a dependency, the write is made against the new head
without a question (the command decides on the new state, inside the write lock, so two
results for one table can never both be recorded); when one does, the write is refused with
what changed, in words, and the page offers to keep what is recorded or replace it. A form of
any other kind (change-rules, publish, pair-round…) depends on the whole ledger.

Subjects are those of :func:`goledger.ledger.subjects.subjects`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from goledger.describe.events import describe_event
from goledger.errors import CommandRejected, StaleHeadError
from goledger.i18n.messages import say
from goledger.ledger import events as ev
from goledger.ledger.store import Record
from goledger.ledger.subjects import Subject
from goledger.ledger.values import Result
from goledger.render.html import gettext
from goledger.replay.fold.state import TournamentState

__all__ = ["Conflict", "depends_on", "replacement", "stale_words", "words", "write_per_subject"]

Form = Mapping[str, Any]

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


class ConflictError(StaleHeadError):
    """A write refused because an event since the page's head touched what it depends on."""

    code = "conflict"

    def __init__(self, conflict: Conflict) -> None:
        super().__init__(" ".join(conflict.sentences), expected=conflict.head, since=conflict.records)
        self.conflict = conflict


__all__ += ["ConflictError"]


def write_per_subject(db: Path, run: Callable[[int | None, bool], Any], action: str, form: Form,
                      expected_head: int, retry: bool) -> Any:
    """A desk write (``run(head, retry)``) in the worker process (:mod:`goledger.web.isolate`),
    depending on what the form depends on (:func:`depends_on`): the store refuses it only when
    an event since the page's head touches that (:class:`ConflictError`, what changed in words),
    or plainly when the form depends on the whole ledger. ``retry`` (the director's one-click
    retry) depends on the decided events alone, as the CLI's ``--retry`` does."""
    from goledger.commands.recording import ChangedSince, depending
    from goledger.replay.views import state_as_of

    if retry:
        return run(expected_head, True)
    try:
        with depending(lambda state: depends_on(state, action, form)):
            return run(expected_head, False)
    except ChangedSince as exc:
        state = state_as_of(db, None)
        result_now = ""
        if (table := form_table(form)) is not None:
            game = state.games.get(table[0], {}).get(table[1])
            if game is not None and game.result is not Result.UNKNOWN:
                result_now = game.result.value
        raise ConflictError(Conflict(exc.head, exc.records, tuple(words(r, state) for r in exc.records),
                                     result_now)) from None


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
