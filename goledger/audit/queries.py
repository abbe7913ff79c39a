"""Audit views: standings as of any event, diffs with their causes, what-if, history (DESIGN §6).

Everything here reads; nothing writes to the log (``goledger publish`` lives with the
recording commands, :mod:`goledger.commands.publish`).

* :func:`as_of` / :func:`after_round` — the state after event ``seq`` and its standings
  after round ``R`` (``goledger standings --as-of SEQ --round R``).
* :func:`diff` — players whose place or any criterion value changed between two events (or
  between the standings as published and as corrected now), old → new, the events in
  between, and for every changed player the events that changed his row (own games and
  results, opponents' later results, withdrawals, corrections, rule changes…), found by
  incremental replay (:mod:`goledger.audit.trace`).
* :func:`what_if` — standings of a filtered (``without``), re-ruled (``policy``) or extended
  (``add``) event list, beside the real ones.
* :func:`history` — every event that changed one player's place or values, with the row
  after it.

Both sides of a comparison are computed **after the same round** ``R`` (default: the latest
round paired at the later point), so that a difference is one of facts, not of the round
looked at. Values are compared as the registry's integers; criteria are looked up by name
only, so any criterion list works.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import msgspec

from goledger.audit.compare import Cause, PlayerChange, Snapshot, changed_players
from goledger.audit.event_index import EventIndex
from goledger.audit.published import PUBLISHED_LABEL, load_published, policy_for
from goledger.audit.trace import AUTO, Trace, trace
from goledger.errors import CommandRejected, FormatError
from goledger.i18n import N_, current_language
from goledger.i18n.messages import say, say_at
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger, Record
from goledger.ledger.values import bounded_int
from goledger.nogc import nogc
from goledger.replay.fold.players import find_player
from goledger.replay.fold.state import TournamentState, fold
from goledger.replay.scoring.registries import check_registered
from goledger.replay.scoring.standings import (
    Ranking,
    Standings,
    check_round,
    ranking,
    resolve_policy,
    standings,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterable, Sequence

__all__ = [
    "AuditDiff",
    "History",
    "WhatIf",
    "after_round",
    "as_of",
    "compare_snapshots",
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

PathLike = str | os.PathLike[str]


# --------------------------------------------------------------------------- as of, after round


def as_of(events: Sequence[ev.Event], seq: int | None = None) -> TournamentState:
    """The state after event ``seq`` (1-based; default: after the last event)."""
    if seq is not None and not 0 <= seq <= len(events):
        raise CommandRejected(say("event %(seq)d is outside the ledger's events 1..%(head)d", seq=seq,
                                  head=len(events)))
    return fold(events if seq is None else events[:seq], check=check_registered)


def after_round(state: TournamentState, round: int | None = None, policy: str | None = None,  # noqa: A002
                criteria: Sequence[str] | None = None) -> Standings:
    """The standings of ``state`` after ``round`` (rounds 1..R only; default the latest paired)."""
    return standings(state, round, policy, criteria)


def record_json(record: Record) -> dict[str, Any]:
    """An event as ``goledger log --json`` shows it: the envelope with the decoded payload."""
    data = msgspec.to_builtins(record)
    data["payload"] = msgspec.json.decode(record.payload)
    return data


def opponents_by_player(state: TournamentState, round_: int) -> dict[str, set[str]]:
    """Each player's opponents in rounds 1..``round_``."""
    found: dict[str, set[str]] = {}
    for r, tables in state.games.items():
        if r > round_:
            continue
        for game in tables.values():
            found.setdefault(game.white, set()).add(game.black)
            found.setdefault(game.black, set()).add(game.white)
    return found


def _views(policy: str | None, published: bool) -> Callable[[TournamentState], Any]:
    """How each evaluated state resolves its policy: as a published view, or like `standings`."""
    if published:
        return lambda state: policy_for(state, policy)
    return lambda state: resolve_policy(state, policy)


def _evaluator(round_: int, policy: str | None, criteria: Sequence[str] | None,
               published: bool = False, only: Collection[str] | None = None) -> Callable[[TournamentState], Ranking]:
    """The standings a trace computes at each point (of the players ``only``, when given)."""
    resolve = _views(policy, published)
    names = list(criteria) if criteria else None
    return lambda state: ranking(state, round_, resolve(state), names, only)


def _causes(tr: Trace, index: EventIndex, opponents: dict[str, set[str]],
            focus: Iterable[str] | None) -> dict[str, list[Cause]]:
    """For every player, the intervals of the trace where his row changed."""
    focus_list = list(focus) if focus is not None else None
    out: dict[str, list[Cause]] = {}
    for a, b in tr.intervals:
        pa, pb = tr.points[a], tr.points[b]
        types = tuple(dict.fromkeys(index.event(s).type_name() for s in range(a + 1, b + 1)))
        single = b == a + 1
        summary = index.describe(b) if single else f"{b - a} events ({', '.join(types)}) not attributed one by one"
        relation = ""
        for pid in changed_players(pa, pb, focus_list):
            if single:
                relation = index.relation(b, pid, opponents.get(pid, set()))
            out.setdefault(pid, []).append(Cause(
                first_seq=a + 1, last_seq=b, types=types, relation=relation, summary=summary,
                before=pa.view(pid), after=pb.view(pid),
            ))
    return out


def _merged_scales(snapshots: Iterable[Snapshot]) -> dict[str, int]:
    scales: dict[str, int] = {}
    for snap in snapshots:
        scales.update(snap.scales)
    return scales


def compare_tables(before: Standings, after: Standings) -> list[PlayerChange]:
    """Players whose place or values differ between two standings tables (no causes), in
    the order of :func:`~goledger.audit.compare.changed_players`."""
    return compare_snapshots(Snapshot.of(before), Snapshot.of(after))


def compare_snapshots(a: Snapshot, b: Snapshot, causes: dict[str, list[Cause]] | None = None
                      ) -> list[PlayerChange]:
    """:func:`compare_tables` of two snapshots (of standings or rankings), each change with
    its ``causes`` when given (:func:`diff_events`)."""
    changes = []
    for pid in changed_players(a, b):
        surname, first_name = b.name(pid) or a.name(pid) or (pid, "")
        changes.append(PlayerChange(player_id=pid, surname=surname, first_name=first_name,
                                    before=a.view(pid), after=b.view(pid),
                                    causes=causes.get(pid, []) if causes is not None else []))
    return changes


# --------------------------------------------------------------------------- diff


class AuditDiff(msgspec.Struct, kw_only=True):
    """What changed between two points of the log, seen after round ``round``."""

    from_seq: int
    to_seq: int
    round: int
    policy: str
    criteria: tuple[str, ...]
    scales: dict[str, int]
    changes: list[PlayerChange]
    records: list[Record]
    replays: int
    complete: bool
    published: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "from_seq": self.from_seq,
            "to_seq": self.to_seq,
            "round": self.round,
            "policy": self.policy,
            "criteria": list(self.criteria),
            "published": self.published,
            "changes": [c.to_dict(self.scales) for c in self.changes],
            "events": [record_json(r) for r in self.records],
            "attribution": {"complete": self.complete, "replays": self.replays},
        }


@nogc
def diff_events(
    events: Sequence[ev.Event],
    records: Sequence[Record],
    from_seq: int,
    to_seq: int | None = None,
    round: int | None = None,  # noqa: A002
    policy: str | None = None,
    criteria: Sequence[str] | None = None,
    max_replays: int | str | None = AUTO,
    *,
    published_view: bool = False,
    base: TournamentState | None = None,
) -> AuditDiff:
    """:func:`diff` on a decoded log (``records`` are the envelopes of ``from_seq+1..to_seq``).

    ``base``, when the caller already holds it, is the state after ``from_seq`` (it is read,
    never changed); else the first ``from_seq`` events are folded."""
    head = len(events)
    to = head if to_seq is None else to_seq
    if not 1 <= from_seq <= head:
        raise CommandRejected(say_at("--from %(seq)d is outside the ledger's events 1..%(head)d",
                                     N_("“Diff from event” %(seq)d is outside the ledger's events 1..%(head)d"),
                                     seq=from_seq, head=head))
    if not from_seq <= to <= head:
        raise CommandRejected(say_at("--to %(to)d must lie between --from %(seq)d and the last event %(head)d",
                                     N_("“to event” %(to)d must lie between “Diff from event” %(seq)d and the last "
                                        "event %(head)d"), to=to, seq=from_seq, head=head))
    if base is None:
        base = fold(events[:from_seq], check=check_registered)
    elif base.seq != from_seq:
        raise ValueError(f"base is the state after event {base.seq}, not after {from_seq}")
    end = fold(events[from_seq:to], start=base, check=check_registered)
    if end.settings is None:
        raise CommandRejected(say("the ledger has no tournament yet"))
    round_ = check_round(end, round)
    span = events[from_seq:to]
    tr = trace(base, span, _evaluator(round_, policy, criteria, published_view), max_replays=max_replays,
               view_round=round_)
    index = EventIndex(base, span, {pid: p.full_name for pid, p in end.players.items()})
    opponents = opponents_by_player(end, round_)
    for pid, opps in opponents_by_player(base, round_).items():
        opponents.setdefault(pid, set()).update(opps)
    causes = _causes(tr, index, opponents, None)
    before, after = tr.before, tr.after
    changes = compare_snapshots(before, after, causes)
    return AuditDiff(
        from_seq=from_seq, to_seq=to, round=round_, policy=after.policy, criteria=after.criteria,
        scales=_merged_scales(tr.points.values()), changes=changes, records=list(records),
        replays=tr.replays, complete=tr.complete,
    )


def diff(
    db: PathLike,
    from_seq: int | None = None,
    to_seq: int | None = None,
    round: int | None = None,  # noqa: A002
    policy: str | None = None,
    criteria: Sequence[str] | None = None,
    published: int | None = None,
    max_replays: int | str | None = AUTO,
) -> AuditDiff:
    """Players whose place or any value changed between events ``from_seq`` and ``to_seq``
    (default: the last event), and the events that caused it.

    With ``published=R`` the earlier side is the standings after round R as published (the
    latest ``published`` checkpoint of R, recomputed and digest-checked, chain verified) and
    the later side the same round, policy and criteria as of ``to_seq``: *as published versus
    as corrected now*.
    """
    if (from_seq is None) == (published is None):
        raise CommandRejected(say_at("diff needs either --from SEQ or --published ROUND (not both)",
                                     N_("a diff needs either “Diff from event” or “or as published, round” "
                                        "(not both)")))
    with Ledger.open(db) as ledger:
        if published is not None:
            if round is not None or policy is not None or criteria:
                raise CommandRejected(say_at("--published uses the round, policy and criteria it was published with",
                                         N_("a diff against a published round uses the round, policy and criteria it "
                                            "was published with")))
            shown, events = load_published(ledger, published)
            cp = shown.checkpoint
            start = cp.event_count
            records = list(ledger.records(after=start, upto=to_seq))
        else:
            events = ledger.events()
            start = from_seq or 0
            records = list(ledger.records(after=start, upto=to_seq)) if 1 <= start <= len(events) else []
    if published is None:
        return diff_events(events, records, start, to_seq, round, policy, criteria, max_replays)
    result = diff_events(events, records, start, to_seq, cp.round, cp.policy or None, cp.criteria, max_replays,
                         published_view=True)
    result.published = {
        "round": cp.round, "seq": shown.seq, "recorded_at": shown.recorded_at, "event_count": cp.event_count,
        "digest": cp.digest, "note": cp.note, "label": PUBLISHED_LABEL,
    }
    return result


# --------------------------------------------------------------------------- what-if


class WhatIf(msgspec.Struct, kw_only=True):
    """Hypothetical standings beside the real ones (both after the same round)."""

    hypothetical: Standings
    actual: Standings
    without: tuple[int, ...]
    added: int
    anomalies: list[str]
    changes: list[PlayerChange]

    @property
    def scales(self) -> dict[str, int]:
        return {**self.actual.scales, **self.hypothetical.scales}

    def to_dict(self) -> dict[str, Any]:
        """``standings --json`` of the hypothetical, plus ``without``, ``added``, ``anomalies``,
        ``changes`` (actual → hypothetical) and the real standings under ``actual``."""
        return {
            **self.hypothetical.to_dict(),
            "without": list(self.without),
            "added": self.added,
            "anomalies": self.anomalies,
            "changes": [c.to_dict(self.scales) for c in self.changes],
            "actual": self.actual.to_dict(),
        }


def read_added_events(path: PathLike) -> list[ev.Event]:
    """Events from a JSON file: a list of objects in the events' own JSON form (with ``type``),
    or exactly what ``goledger log --json`` prints (envelopes whose ``payload`` is the event),
    or a command's ``--json`` outcome (``{"message": …, "events": [envelopes]}``)."""
    target = Path(path)
    try:
        data = msgspec.json.decode(target.read_bytes())
    except OSError as exc:
        raise FormatError(f"cannot read {target}: {exc.strerror}") from None
    except msgspec.DecodeError as exc:
        raise FormatError(f"{target} is not JSON: {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("events"), list):
        data = data["events"]
    if not isinstance(data, list):
        raise FormatError(f"{target} must hold a JSON list of events")
    out: list[ev.Event] = []
    for number, item in enumerate(data, start=1):
        if not isinstance(item, dict):
            raise FormatError(f"{target}: item {number} is not a JSON object")
        if isinstance(item.get("payload"), dict):  # an envelope of `goledger log --json`
            item = {"type": item.get("type"), **item["payload"]}
        try:
            out.append(ev.event_from_json(item))
        except (ValueError, msgspec.ValidationError) as exc:
            raise FormatError(f"{target}: item {number} is not a valid event: {exc}") from None
    return out


MAX_WITHOUT: Final = 100_000
"""The most events one what-if leaves out (``--without``, the desk's ``?without=``): a list of
them is built, so never a huge one; no tournament's ledger holds that many."""


def _grouped(number: int) -> str:
    """``number`` with the thousands grouped as the language in force writes them (``100,000``,
    Turkish ``100.000``)."""
    from babel.numbers import format_decimal

    return str(format_decimal(number, locale=current_language()))


def parse_without(text: str) -> tuple[int, ...]:
    """The events a what-if leaves out, written ``"12, 15-17"`` → ``(12, 15, 16, 17)``.

    The domain: event sequence numbers, from 1; a range ``A-B`` with ``A <= B``; at most
    :data:`MAX_WITHOUT` events in all. Every number is bounded as text (ASCII digits, at most
    18) before it is parsed, and a range is counted before any list is built, so neither
    ``1-99999999999999999`` nor ``1e999999999`` costs anything; anything else is refused
    with one sentence (:class:`CommandRejected`: exit 1 on the command line, 400 at the desk).
    Whether the events exist is the ledger's question (:func:`what_if_events`).

    >>> parse_without("12, 15-17")
    (12, 15, 16, 17)
    >>> parse_without("1-99999999999")
    Traceback (most recent call last):
    ...
    goledger.errors.CommandRejected: without: leave out at most 100,000 events at once
    >>> parse_without("5-2")
    Traceback (most recent call last):
    ...
    goledger.errors.CommandRejected: without: '5-2' is not an event sequence number or a range like 12-15
    """

    if len(text) > 16 * MAX_WITHOUT:
        raise CommandRejected(say("without: the list of events is longer than %(most)s characters",
                                  most=_grouped(16 * MAX_WITHOUT)))
    out: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        first, dash, last = part.partition("-")
        shown = part if len(part) <= 40 else part[:40] + "…"
        try:
            low = bounded_int(first, signed=False)
            high = bounded_int(last, signed=False) if dash else low
        except ValueError:
            raise CommandRejected(say("without: %(part)r is not an event sequence number or a range like 12-15",
                                      part=shown)) from None
        if low > high:
            raise CommandRejected(say("without: %(part)r is not an event sequence number or a range like 12-15",
                                      part=shown))
        if low < 1:
            raise CommandRejected(say("without: %(part)r names event 0; events are numbered from 1", part=shown))
        if high - low + 1 + len(out) > MAX_WITHOUT:
            raise CommandRejected(say("without: leave out at most %(most)s events at once", most=_grouped(MAX_WITHOUT)))
        out.extend(range(low, high + 1))
    return tuple(out)


def what_if_events(
    events: Sequence[ev.Event],
    without: Collection[int] = (),
    policy: str | None = None,
    add: Sequence[ev.Event] = (),
    round: int | None = None,  # noqa: A002
    criteria: Sequence[str] | None = None,
) -> WhatIf:
    """:func:`what_if` on a decoded log."""
    head = len(events)
    dropped = tuple(sorted(set(without)))
    bad = [s for s in dropped if not 1 <= s <= head]
    if bad:
        raise CommandRejected(say_at("--without %(seq)d is outside the ledger's events 1..%(head)d",
                                     N_("“What if without events”: %(seq)d is outside the ledger's events 1..%(head)d"),
                                     seq=bad[0], head=head))
    if not dropped and not add and policy is None:
        raise CommandRejected(say_at("what-if needs --without, --add or --policy",
                                     N_("a what-if needs “What if without events” or “under policy”")))
    skip = set(dropped)
    kept = [e for seq, e in enumerate(events, start=1) if seq not in skip]
    actual_state = fold(events, check=check_registered)
    hypo_state = fold([*kept, *add], check=check_registered)
    if hypo_state.settings is None:
        raise CommandRejected(say("without its TournamentCreated event the ledger holds no tournament"))
    if round is None:
        round_ = max(actual_state.last_round_with_games(), hypo_state.last_round_with_games())
        round_ = min(round_, actual_state.rounds, hypo_state.rounds)
    else:
        round_ = round
    actual = standings(actual_state, check_round(actual_state, round_), None, criteria)
    hypothetical = standings(hypo_state, check_round(hypo_state, round_), policy, criteria)
    changes = compare_tables(actual, hypothetical)
    anomalies = [f"event {a.seq}: {a.message}" for a in hypo_state.anomalies]
    return WhatIf(hypothetical=hypothetical, actual=actual, without=dropped, added=len(add),
                  anomalies=anomalies, changes=changes)


def what_if(
    db: PathLike,
    without: Collection[int] = (),
    policy: str | None = None,
    add: PathLike | None = None,
    round: int | None = None,  # noqa: A002
    criteria: Sequence[str] | None = None,
) -> WhatIf:
    """Standings from the log without the events ``without``, under ``policy``, extended by the
    events of the JSON file ``add`` — beside the real standings. Nothing is written.

    Hypothetical sequence numbers are positions in the filtered, extended list
    (``as_of_seq`` of the hypothetical side). The fold is total: a kept event that refers to
    a left-out one (a result of a removed pairing) is reported in ``anomalies``.
    """
    added = read_added_events(add) if add is not None else []
    with Ledger.open(db) as ledger:
        events = ledger.events()
    return what_if_events(events, without, policy, added, round, criteria)


# --------------------------------------------------------------------------- history


class History(msgspec.Struct, kw_only=True):
    """Every event that changed one player's place or values, after round ``round``."""

    player_id: str
    surname: str
    first_name: str
    round: int
    policy: str
    criteria: tuple[str, ...]
    scales: dict[str, int]
    entries: list[Cause]
    replays: int
    complete: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "player_id": self.player_id,
            "surname": self.surname,
            "first_name": self.first_name,
            "round": self.round,
            "policy": self.policy,
            "criteria": list(self.criteria),
            "entries": [e.to_dict(self.scales) for e in self.entries],
            "attribution": {"complete": self.complete, "replays": self.replays},
        }


@nogc
def history_events(
    events: Sequence[ev.Event],
    player: str,
    round: int | None = None,  # noqa: A002
    policy: str | None = None,
    criteria: Sequence[str] | None = None,
    max_replays: int | str | None = AUTO,
) -> History:
    """:func:`history` on a decoded log."""

    end = fold(events, check=check_registered)
    if end.settings is None:
        raise CommandRejected(say("the ledger has no tournament yet"))
    pid = find_player(end, player).id
    round_ = check_round(end, round)
    start = next(i for i, e in enumerate(events, start=1) if isinstance(e, ev.TournamentCreated))
    base = fold(events[:start], check=check_registered)
    span = events[start:]
    index = EventIndex(base, span, {p: s.full_name for p, s in end.players.items()})
    opponents = opponents_by_player(end, round_)
    near = {pid, *opponents.get(pid, set())}
    isolate = [s for s in range(start + 1, len(events) + 1) if near.intersection(index.involved(s))]
    tr = trace(base, span, _evaluator(round_, policy, criteria, only=[pid]), isolate=isolate,
               max_replays=max_replays, focus=[pid], view_round=round_)
    entries = _causes(tr, index, opponents, [pid]).get(pid, [])
    entries = _with_hand_edits(entries, tr, index, pid, isolate, opponents.get(pid, set()))
    p = end.players[pid]
    return History(
        player_id=pid, surname=p.surname, first_name=p.first_name, round=round_, policy=tr.after.policy,
        criteria=tr.after.criteria, scales=_merged_scales(tr.points.values()), entries=entries,
        replays=tr.replays, complete=tr.complete,
    )


_HAND_EDITS: Final = frozenset({"GameEdited", "GameMoved", "TablesRenumbered"})
"""Hand edits of a game (issue 31): listed in a player's history even when no value moved."""


def _with_hand_edits(entries: list[Cause], tr: Trace, index: EventIndex, pid: str, isolated: Iterable[int],
                     opponents: set[str]) -> list[Cause]:
    """``entries`` plus every hand edit of ``pid``'s games (``edit-game``, ``renumber-tables``,
    a game paired with values given by hand) that changed none of his values, in log order."""
    seen = {c.last_seq for c in entries}
    added: list[Cause] = []
    for seq in isolated:
        e = index.event(seq)
        name = e.type_name()
        hand = e.by_hand if isinstance(e, ev.GamePaired) else ()
        if seq in seen or not (name in _HAND_EDITS or hand) or pid not in index.involved(seq):
            continue
        before, after = tr.points.get(seq - 1), tr.points.get(seq)
        if before is None or after is None:
            continue
        added.append(Cause(first_seq=seq, last_seq=seq, types=(name,), relation=index.relation(seq, pid, opponents),
                           summary=index.describe(seq) + (f" ({', '.join(hand)} by hand)" if hand else ""),
                           before=before.view(pid), after=after.view(pid)))
    return sorted([*entries, *added], key=lambda c: c.first_seq) if added else entries


def history(
    db: PathLike,
    player: str,
    round: int | None = None,  # noqa: A002
    policy: str | None = None,
    criteria: Sequence[str] | None = None,
    max_replays: int | str | None = AUTO,
) -> History:
    """Every event that changed ``player``'s place or values in the standings after ``round``
    (default: the latest paired round): his own games and results, his opponents' results
    (also those of later rounds), withdrawals, corrections, rule changes… each with his place
    and values after it. Events touching him or his opponents are each evaluated on their own;
    the others are searched by bisection (see :mod:`goledger.audit.trace`)."""
    with Ledger.open(db) as ledger:
        events = ledger.events()
    return history_events(events, player, round, policy, criteria, max_replays)
