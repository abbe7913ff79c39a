"""A player's timeline (issue 42, item 1): his place and main values after each round, and
every event since that moved them, in words.

* **Rounds.** For each round 1..R (R: the latest paired, or ``round``), his place and values
  in the standings after that round, as the log stands now.
* **Entries.** Every event recorded once the tournament was under way (after its first
  pairing) that is not the ordinary course of a round — a withdrawal or reinstatement, a
  correction, a rule change, a player's details changed, a game or bye taken back or given,
  an absence for a round already paired, a hand edit, a *late* result (recorded after a later
  round was paired) — and that moved his place or a value in the standings after round R.
  Each comes with his place and values just before and just after it, what it did in words,
  the rule it applied, how it concerns him, who recorded it and why, and the events a
  what-if leaves out with it (:func:`goledger.audit.consequences.consequences`).

Events that did not move him are left out: a registration of someone else before round 1 is
not his history. Pairings and results of a round in its course are the rounds themselves.

Cost: one fold of the log and one forward pass of the incremental replay
(:func:`goledger.audit.trace.trace`, no bisection) computing his row just before and just
after each such event, plus one row per round.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Final

import msgspec

from goledger.audit.compare import RowView
from goledger.audit.consequences import consequences
from goledger.audit.queries import _evaluator
from goledger.audit.trace import trace
from goledger.describe.disputes import changed_values, relation_words, rule_words
from goledger.describe.events import describe_event
from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.nogc import nogc
from goledger.replay.fold.players import find_player
from goledger.replay.fold.state import TournamentState, fold
from goledger.replay.scoring.choices import rules_at
from goledger.replay.scoring.registries import check_registered
from goledger.replay.scoring.standings import check_round, json_number, ranking, resolve_policy

if TYPE_CHECKING:
    from collections.abc import Sequence

    from goledger.replay.scoring.policies import Policy

__all__ = ["RoundPoint", "Timeline", "TimelineEntry", "noteworthy", "opponent_rounds", "subject_of", "timeline",
           "timeline_events"]

PathLike = str | os.PathLike[str]

_ALWAYS: Final = (ev.PlayerWithdrew, ev.PlayerReinstated, ev.PlayerUpdated, ev.PlayerUnregistered,
                  ev.RulesChanged, ev.ResultCorrected, ev.PairingRemoved, ev.ByeRemoved, ev.GameEdited,
                  ev.GameMoved, ev.TablesRenumbered)
"""Event types that are never the ordinary course of a round."""


def noteworthy(events: Sequence[ev.Event]) -> dict[int, tuple[int, int | None]]:
    """The events a timeline looks at (see the module doc): ``seq → (rounds paired when it was
    recorded, the latest round paired when it is a late result or else None)``."""
    found: dict[int, tuple[int, int | None]] = {}
    paired = 0
    for seq, event in enumerate(events, start=1):
        if isinstance(event, ev.GamePaired):
            paired = max(paired, event.round)
            continue
        if not paired:
            continue  # the tournament's setting up: registrations, absences, rules before round 1
        if isinstance(event, _ALWAYS):
            found[seq] = (paired, None)
        elif isinstance(event, ev.ResultRecorded) and event.round < paired:
            found[seq] = (paired, paired)
        elif isinstance(event, ev.ParticipationChanged | ev.ByeAssigned) and event.round < paired:
            found[seq] = (paired, None)
    return found


def opponent_rounds(state: TournamentState, player_id: str) -> dict[str, list[int]]:
    """Each opponent of ``player_id`` with the rounds they played, in round order."""
    out: dict[str, list[int]] = {}
    for r in sorted(state.games):
        for game in state.games[r].values():
            if game.white == player_id:
                out.setdefault(game.black, []).append(r)
            elif game.black == player_id:
                out.setdefault(game.white, []).append(r)
    return out


class RoundPoint(msgspec.Struct, kw_only=True):
    """His place and values in the standings after one round, as the log stands now."""

    round: int
    place: int | None
    values: dict[str, int]


class TimelineEntry(msgspec.Struct, kw_only=True):
    """One event that moved him."""

    seq: int
    type: str
    after_round: int
    """The rounds paired when it was recorded (it happened during or after this round)."""
    subject: str | None
    """The player the event is about (``None``: the whole tournament)."""
    what: str
    rule: str
    relation: str
    before: RowView | None
    after: RowView | None
    changed: list[tuple[str, str, str]]
    without: tuple[int, ...]
    """The event and its consequences: what its what-if leaves out."""
    recorded_at: str = ""
    actor: str = ""
    reason: str = ""


class Timeline(msgspec.Struct, kw_only=True):
    """A player's timeline (see the module doc)."""

    player_id: str
    name: str
    round: int
    policy: str
    criteria: tuple[str, ...]
    scales: dict[str, int]
    rounds: list[RoundPoint]
    entries: list[TimelineEntry]
    head_seq: int
    head_hash: str = ""

    @property
    def place(self) -> int | None:
        """His place now, in the standings after :attr:`round`."""
        return self.rounds[-1].place if self.rounds else None

    def entry(self, seq: int) -> TimelineEntry | None:
        return next((e for e in self.entries if e.seq == seq), None)

    def to_dict(self) -> dict[str, Any]:
        def values(v: dict[str, int] | None) -> dict[str, Any] | None:
            return None if v is None else {k: json_number(x, self.scales.get(k, 1)) for k, x in v.items()}

        def row(r: RowView | None) -> dict[str, Any] | None:
            return None if r is None else {"place": r.place, "values": values(r.values)}

        return {
            "player_id": self.player_id, "name": self.name, "round": self.round, "policy": self.policy,
            "criteria": list(self.criteria), "head": {"seq": self.head_seq, "hash": self.head_hash},
            "rounds": [{"round": p.round, "place": p.place, "values": values(p.values)} for p in self.rounds],
            "entries": [{
                "seq": e.seq, "type": e.type, "after_round": e.after_round, "subject": e.subject, "what": e.what,
                "rule": e.rule, "relation": e.relation, "before": row(e.before), "after": row(e.after),
                "changed": [{"criterion": c, "before": a, "after": b} for c, a, b in e.changed],
                "without": list(e.without), "recorded_at": e.recorded_at, "actor": e.actor, "reason": e.reason,
            } for e in self.entries],
        }


def subject_of(event: ev.Event, end: TournamentState, pid: str, opponents: dict[str, list[int]]) -> str | None:
    """The player an event is about, as it concerns ``pid``: the player of a player's event;
    for an event about a game, ``pid`` if it is his game, else the player of that game who
    played him (else its white player); ``None`` for a tournament-wide event."""
    who = getattr(event, "player_id", None)
    if isinstance(who, str):
        return who
    round_, table = getattr(event, "round", None), getattr(event, "table", None)
    game = end.games.get(round_, {}).get(table) if isinstance(round_, int) and isinstance(table, int) else None
    if game is None:
        return None
    players = (game.white, game.black)
    if pid in players:
        return pid
    return next((p for p in players if p in opponents), game.white)


def _rounds(state: TournamentState, round_: int, policy: Policy, criteria: Sequence[str] | None,
            pid: str) -> list[RoundPoint]:
    points = []
    for r in range(1, round_ + 1):
        rank = ranking(state, r, policy, criteria, [pid])
        found = next(((place, values) for place, who, values in rank.placed if who == pid), None)
        points.append(RoundPoint(round=r, place=found[0] if found else None,
                                 values=dict(zip(rank.criteria, found[1], strict=True)) if found else {}))
    return points


@nogc
def timeline_events(
    events: Sequence[ev.Event],
    player: str,
    round: int | None = None,  # noqa: A002
    policy: str | None = None,
    criteria: Sequence[str] | None = None,
    end: TournamentState | None = None,
) -> Timeline:
    """:func:`timeline` on a decoded log, without the envelopes (who recorded each entry and
    why, the head's hash: :func:`timeline` adds them); ``end``: the state after every event,
    when the caller holds it (read, never changed)."""

    found = noteworthy(events)
    start = next((i for i, e in enumerate(events, start=1) if isinstance(e, ev.TournamentCreated)), len(events))
    candidates = sorted(s for s in found if s > start)
    first = candidates[0] - 1 if candidates else len(events)  # the replay starts just before the first one
    base = fold(events[:first], check=check_registered) if candidates else None
    if end is None:  # folded on from the replay's start (which is read, never changed)
        end = fold(events[first:], start=base, check=check_registered) if base is not None else fold(
            events, check=check_registered)
    if end.settings is None:
        raise CommandRejected(say("the ledger has no tournament yet"))
    pid = find_player(end, player).id
    round_ = check_round(end, round)
    pol = resolve_policy(end, policy)
    names = {p: s.full_name for p, s in end.players.items()}
    rounds = _rounds(end, round_, pol, criteria, pid)
    entries: list[TimelineEntry] = []
    scales: dict[str, int] = {}
    shown_criteria: tuple[str, ...] = ()
    if base is not None:
        tr = trace(base, events[first:], _evaluator(round_, policy, criteria, only=[pid]), isolate=candidates,
                   max_replays=0, focus=[pid], view_round=round_)
        for snap in tr.points.values():
            scales.update(snap.scales)
        shown_criteria = tr.after.criteria
        opponents = opponent_rounds(end, pid)
        places = {who: place for place, who, _ in ranking(end, round_, pol, criteria, list(opponents)).placed}
        for seq in candidates:
            before, after = tr.points[seq - 1].view(pid), tr.points[seq].view(pid)
            if before == after:
                continue
            event = events[seq - 1]
            paired, late = found[seq]
            subject = subject_of(event, end, pid, opponents)
            entries.append(TimelineEntry(
                seq=seq, type=event.type_name(), after_round=paired, subject=subject,
                what=describe_event(event, lambda p: names.get(p, p)),
                rule=rule_words(event, rules_at(end, getattr(event, "from_round", None) or 1, pol), late, names),
                relation=relation_words(subject, pid, names[pid], opponents, names, places),
                before=before, after=after,
                changed=changed_values(before.values if before else None, after.values if after else None, scales),
                without=consequences(events, seq)))
    if not shown_criteria:
        shown_criteria = tuple(ranking(end, round_, pol, criteria, [pid]).criteria)
        scales.update(ranking(end, round_, pol, criteria, [pid]).scales)
    return Timeline(player_id=pid, name=names[pid], round=round_, policy=pol.name, criteria=shown_criteria,
                    scales=scales, rounds=rounds, entries=entries, head_seq=len(events))


def timeline(
    db: PathLike,
    player: str,
    round: int | None = None,  # noqa: A002
    policy: str | None = None,
    criteria: Sequence[str] | None = None,
) -> Timeline:
    """``player``'s place and values after each round and every event since that moved them,
    in words (see the module doc). Nothing is written."""
    with Ledger.open(db) as ledger:
        events = ledger.events()
        result = timeline_events(events, player, round, policy, criteria)
        for entry in result.entries:
            for record in ledger.records(after=entry.seq - 1, upto=entry.seq):
                entry.recorded_at, entry.actor, entry.reason = record.recorded_at, record.actor, record.reason
        result.head_hash = ledger.head().hash
    return result
