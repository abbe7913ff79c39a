"""A disputed standing answered (issue 42, items 2 and 4): "what if this had not happened?"
for one event of the log, and the dispute sheet the director hands to the player.

* :func:`event_what_if` — the standings without an event **and its consequences**
  (:func:`goledger.audit.consequences.consequences`) beside the real ones, the players whose
  place or values differ, the event in words with who recorded it and why, and the rule it
  applied. No one types an event number: the desk's log rows, timeline entries and audit
  pages link to it.
* :func:`dispute_sheet` — for one player and one event (default: the latest event of his
  timeline): the standings around him with and without the event, the event, the rule, his
  values term by term, and the ledger's head and hash to re-check with ``goledger verify``.
"""

from __future__ import annotations

import os
from typing import Any

import msgspec

from goledger.audit.consequences import consequences
from goledger.audit.queries import WhatIf, compare_tables, what_if_events
from goledger.audit.timeline import noteworthy, opponent_rounds, subject_of, timeline_events
from goledger.describe.disputes import relation_words, rule_words
from goledger.describe.events import describe_event
from goledger.errors import CommandRejected
from goledger.i18n import gettext
from goledger.i18n.messages import say
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger, Record
from goledger.ledger.values import format_points
from goledger.replay.fold.players import find_player
from goledger.replay.fold.state import TournamentState, fold
from goledger.replay.fold.without import PlayerEvents, scoring_state_without
from goledger.replay.scoring.choices import rules_at
from goledger.replay.scoring.explain import PlayerExplanation, explain
from goledger.replay.scoring.registries import check_registered
from goledger.replay.scoring.rounds import derive_table, round_table
from goledger.replay.scoring.standings import StandingRow, Standings, check_round, resolve_policy, standings

__all__ = ["DisputeSheet", "EventWhatIf", "dispute_sheet", "event_what_if", "event_what_if_events"]

PathLike = str | os.PathLike[str]

AROUND = 3
"""Players shown above and below him in each standings table of the sheet."""


class EventWhatIf(msgspec.Struct, kw_only=True):
    """The standings without one event and its consequences, beside the real ones."""

    seq: int
    type: str
    what: str
    rule: str
    note: str
    """What the what-if keeps although it depended on the event (later rounds' pairings)."""
    without: tuple[int, ...]
    result: WhatIf
    names: dict[str, str]
    recorded_at: str = ""
    actor: str = ""
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"event": {"seq": self.seq, "type": self.type, "what": self.what, "rule": self.rule,
                          "recorded_at": self.recorded_at, "actor": self.actor, "reason": self.reason},
                "note": self.note, **self.result.to_dict()}


def _kept_note(events: list[ev.Event], seq: int, without: tuple[int, ...], names: dict[str, str]) -> str:
    """A sentence when rounds were paired after a withdrawal or absence while it was in force."""
    event = events[seq - 1]
    if not isinstance(event, ev.PlayerWithdrew | ev.ParticipationChanged):
        return ""
    gone = set(without)
    rounds = sorted({e.round for s, e in enumerate(events[seq:], start=seq + 1)
                     if isinstance(e, ev.GamePaired) and s not in gone and e.round >= getattr(
                         event, "from_round", getattr(event, "round", 0))})
    if not rounds:
        return ""
    return gettext("Rounds %(rounds)s were paired without %(player)s; this what-if keeps the games that were "
                   "played and counts his rounds there as rounds without a game.") % {
        "rounds": ", ".join(map(str, rounds)), "player": names.get(event.player_id, event.player_id)}


def _local_what_if(events: list[ev.Event], end: TournamentState, without: tuple[int, ...],
                   round_: int | None) -> WhatIf | None:
    """:func:`~goledger.audit.queries.what_if_events` without one result or one player's own
    event, from the final state with that one game or player taken back
    (:func:`goledger.replay.fold.without.scoring_state_without`, whose round tables derive from
    the final ones) instead of a refold; ``None`` when the event's effect is not local."""

    if len(without) != 1:
        return None
    local = scoring_state_without(end, PlayerEvents(events), without[0])
    if local is None:
        return None
    state, touched, own = local
    shown = check_round(end, round_)
    policy = resolve_policy(end, None)
    derive_table(round_table(end, policy, end.settings_for_round(max(shown, 1)), shown), state, touched, own)
    actual = standings(end, shown)
    hypothetical = standings(state, shown)
    return WhatIf(hypothetical=hypothetical, actual=actual, without=without, added=0,
                  anomalies=[f"event {a.seq}: {a.message}" for a in end.anomalies],
                  changes=compare_tables(actual, hypothetical))


def event_what_if_events(events: list[ev.Event], seq: int, round: int | None = None,  # noqa: A002
                         end: TournamentState | None = None) -> EventWhatIf:
    """:func:`event_what_if` on a decoded log (no envelope: who recorded it is left empty)."""
    if not 1 <= seq <= len(events):
        raise CommandRejected(say("event %(seq)d is outside the ledger's events 1..%(head)d", seq=seq,
                                  head=len(events)))
    if end is None:
        end = fold(events, check=check_registered)
    if end.settings is None:
        raise CommandRejected(say("the ledger has no tournament yet"))
    event = events[seq - 1]
    if isinstance(event, ev.TournamentCreated):
        raise CommandRejected(say("event %(seq)d creates the tournament: without it there are no standings", seq=seq))
    names = {p: s.full_name for p, s in end.players.items()}
    without = consequences(events, seq)
    late = noteworthy(events).get(seq, (0, None))[1]
    pol = resolve_policy(end, None)
    rule = rule_words(event, rules_at(end, getattr(event, "from_round", None) or 1, pol), late, names)
    result = _local_what_if(events, end, without, round) or what_if_events(events, without, None, (), round)
    return EventWhatIf(seq=seq, type=event.type_name(), what=describe_event(event, lambda p: names.get(p, p)),
                       rule=rule, note=_kept_note(events, seq, without, names), without=without, result=result,
                       names=names)


def _envelope(ledger: Ledger, seq: int) -> Record | None:
    return next(iter(ledger.records(after=seq - 1, upto=seq)), None)


def event_what_if(db: PathLike, seq: int, round: int | None = None,  # noqa: A002
                  end: TournamentState | None = None, *, timeline_only: bool = False) -> EventWhatIf:
    """The standings without event ``seq`` and its consequences beside the real ones (see the
    module doc). ``end``: the state the caller holds (the desk's, at its head), read and never
    changed; the log is then read up to its event. ``timeline_only``: refuse, before any
    computation, an event no timeline shows (:func:`goledger.audit.timeline.noteworthy`: the
    players' view links only those). Nothing is written."""
    with Ledger.open(db) as ledger:
        events = ledger.events(upto=end.seq) if end is not None else ledger.events()
        if timeline_only and seq not in noteworthy(events):
            raise CommandRejected(say("event %(seq)d is not one a player's timeline shows", seq=seq))
        record = _envelope(ledger, seq) if 1 <= seq <= len(events) else None
    found = event_what_if_events(events, seq, round, end=end)
    if record is not None:
        found.recorded_at, found.actor, found.reason = record.recorded_at, record.actor, record.reason
    return found


class SheetRow(msgspec.Struct, kw_only=True):
    place: int
    player_id: str
    name: str
    values: dict[str, str]
    mark: bool


class TermRow(msgspec.Struct, kw_only=True):
    """One round of his values: the opponent (name, place now), and each criterion's term."""

    round: int | None
    opponent: str
    opponent_place: int | None
    terms: dict[str, str]


class DisputeSheet(msgspec.Struct, kw_only=True):
    """What the dispute sheet shows (see the module doc)."""

    tournament: str
    player_id: str
    name: str
    place: int | None
    place_without: int | None
    round: int
    criteria: tuple[str, ...]
    relation: str
    """How the event concerns him, in one sentence."""
    what_if: EventWhatIf
    real: list[SheetRow]
    without: list[SheetRow]
    values: dict[str, str]
    terms: list[TermRow]
    head_seq: int
    head_hash: str
    ledger: str

    def to_dict(self) -> dict[str, Any]:
        return msgspec.to_builtins({**{f: getattr(self, f) for f in self.__struct_fields__
                                       if f != "what_if"},
                                    "event": self.what_if.to_dict()["event"], "note": self.what_if.note,
                                    "consequences": list(self.what_if.without)})


def _around(table: Standings, pid: str, names: dict[str, str]) -> list[SheetRow]:
    rows = table.rows
    index = next((i for i, r in enumerate(rows) if r.player_id == pid), None)
    if index is None:
        return []
    chosen: list[StandingRow] = rows[max(0, index - AROUND): index + AROUND + 1]
    return [SheetRow(place=r.place, player_id=r.player_id, name=names.get(r.player_id, r.player_id),
                     values={c: format_points(r.values[c], table.scales[c]) or "0" for c in table.criteria},
                     mark=r.player_id == pid) for r in chosen]


def _terms(explained: PlayerExplanation, places: dict[str, int], names: dict[str, str]) -> list[TermRow]:
    by_round: dict[int | None, TermRow] = {}
    for e in explained.explanations:
        for t in e.terms:
            row = by_round.setdefault(t.round, TermRow(round=t.round, opponent="", opponent_place=None, terms={}))
            if t.opponent and not row.opponent:
                row.opponent = names.get(t.opponent, t.opponent)
                row.opponent_place = places.get(t.opponent)
            shown = format_points(t.value, e.scale) or "0"
            row.terms[e.criterion] = shown if e.criterion not in row.terms else row.terms[e.criterion] + " + " + shown
    return [by_round[r] for r in sorted(by_round, key=lambda r: -1 if r is None else r)]


def dispute_sheet(db: PathLike, player: str, seq: int | None = None,
                  end: TournamentState | None = None, *, timeline_only: bool = False) -> DisputeSheet:
    """The dispute sheet of ``player`` about event ``seq`` (default: the latest event of his
    timeline; refused when no event moved him). ``end`` and ``timeline_only`` as for
    :func:`event_what_if`. Nothing is written."""

    with Ledger.open(db) as ledger:
        events = ledger.events(upto=end.seq) if end is not None else ledger.events()
        if timeline_only and seq is not None and seq not in noteworthy(events):
            raise CommandRejected(say("event %(seq)d is not one a player's timeline shows", seq=seq))
        if end is None:
            end = fold(events, check=check_registered)
        if end.settings is None:
            raise CommandRejected(say("the ledger has no tournament yet"))
        pid = find_player(end, player).id
        if seq is None:
            line = timeline_events(events, pid, end=end)
            if not line.entries:
                raise CommandRejected(say("no event moved %(player)s since round 1: there is nothing to dispute",
                                             player=line.name))
            seq = line.entries[-1].seq
        record = _envelope(ledger, seq) if 1 <= seq <= len(events) else None
        head = _envelope(ledger, len(events))  # the head of the log the sheet is computed from
    if head is None:
        raise CommandRejected(say("the ledger has no events"))
    round_ = check_round(end, None)
    found = event_what_if_events(events, seq, round_, end=end)
    if record is not None:
        found.recorded_at, found.actor, found.reason = record.recorded_at, record.actor, record.reason
    names = found.names
    opponents = opponent_rounds(end, pid)
    real, hypo = found.result.actual, found.result.hypothetical
    places = {r.player_id: r.place for r in real.rows}
    relation = relation_words(subject_of(events[seq - 1], end, pid, opponents), pid, names[pid], opponents, names,
                              places)
    explained = explain(end, pid, round=round_)
    mine = next((r for r in real.rows if r.player_id == pid), None)
    theirs = next((r for r in hypo.rows if r.player_id == pid), None)
    return DisputeSheet(
        tournament=end.settings.name, player_id=pid, name=names[pid], place=mine.place if mine else None,
        place_without=theirs.place if theirs else None, round=round_, criteria=real.criteria, relation=relation,
        what_if=found, real=_around(real, pid, names), without=_around(hypo, pid, names),
        values={c: format_points(mine.values[c], real.scales[c]) or "0" for c in real.criteria} if mine else {},
        terms=_terms(explained, places, names), head_seq=head.seq, head_hash=head.hash,
        ledger=os.path.basename(os.fspath(db)))
