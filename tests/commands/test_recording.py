"""The one write path (:func:`goledger.commands.recording.record`): a decider's events are
appended in one transaction with the envelope's actor and reason; a refusal, an event outside
its domain or a dry run writes nothing; a moved head is refused unless ``retry``."""

from __future__ import annotations

from pathlib import Path

import pytest

from goledger import commands
from goledger.commands.recording import DRY_RUN, ChangedSince, depending, record
from goledger.errors import CommandRejected, StaleHeadError
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.replay.fold.state import TournamentState


def _head(db: Path) -> int:
    with Ledger.open(db) as ledger:
        return ledger.head().seq


def _bye(state: TournamentState) -> list[ev.Event]:
    return [ev.ByeAssigned(round=1, player_id="p0001")]


def _said(state: TournamentState, events: list[ev.Event]) -> str:
    return f"{len(events)} event(s) after {len(state.players)} players"


def test_record_appends_with_the_envelope(db: Path) -> None:
    outcome = record(db, _bye, _said, actor="desk-a", reason="late")
    assert outcome.message == "1 event(s) after 2 players" and outcome.seqs == [4]
    [stored] = commands.log(db, after=3)
    assert (stored.type, stored.actor, stored.reason) == ("ByeAssigned", "desk-a", "late")


def test_a_dry_run_decides_and_writes_nothing(db: Path) -> None:
    before = _head(db)
    outcome = record(db, _bye, _said, dry_run=True)
    assert outcome.message == DRY_RUN + "1 event(s) after 2 players" and outcome.records == []
    assert _head(db) == before


def test_a_refusal_writes_nothing(db: Path) -> None:
    def refuse(state: TournamentState) -> list[ev.Event]:
        raise CommandRejected("no")

    before = _head(db)
    with pytest.raises(CommandRejected, match=r"^no$"):
        record(db, refuse, _said)
    assert _head(db) == before


def test_an_event_outside_its_domain_is_refused(db: Path) -> None:
    with pytest.raises(CommandRejected):
        record(db, lambda state: [ev.ByeAssigned(round=10**9, player_id="p0001")], _said)
    assert _head(db) == 3


def test_a_moved_head_is_refused_naming_what_came_since(db: Path) -> None:
    commands.absent(db, "Ban", 2)
    with pytest.raises(StaleHeadError, match="since event 3") as caught:
        record(db, _bye, _said, expected_head=3)
    assert "1 event was recorded since" in caught.value.message
    assert record(db, _bye, _said, expected_head=3, retry=True).seqs == [5]


def test_a_retry_is_refused_when_the_events_since_touch_the_same_thing(db: Path) -> None:
    commands.bye(db, "Abe", 1)
    with pytest.raises(CommandRejected, match="changed since event 3"):
        record(db, _bye, _said, expected_head=3, retry=True)


def test_what_the_caller_read_is_checked_before_deciding_and_the_events_after(db: Path) -> None:
    """:func:`depending` (the desk's form): another write about what the decision read is a
    conflict named with its records and the head now, before the decider could refuse it;
    ``None`` (the whole ledger) is the plain refusal; anything else lets the head move."""
    decided: list[int] = []

    def bye(state: TournamentState) -> list[ev.Event]:
        decided.append(len(state.players))
        return _bye(state)

    commands.absent(db, "Ban", 2)  # event 4: p0002 in round 2
    with depending(lambda state: {("player in round", "p0002", 2)}), pytest.raises(ChangedSince) as caught:
        record(db, bye, _said, expected_head=3)
    assert [r.seq for r in caught.value.records] == [4] and caught.value.head == 4 and decided == []
    with depending(lambda state: None), pytest.raises(StaleHeadError, match="1 event was recorded since"):
        record(db, bye, _said, expected_head=3)
    commands.bye(db, "Abe", 2)  # event 5: p0001's round 2, not what _bye writes (round 1)
    with depending(lambda state: {("player", "p0002")}):
        assert record(db, bye, _said, expected_head=3).seqs == [6]
    assert decided == [2]
    commands.present(db, "Ban", 2)  # event 7; the bye decided again touches event 6, appended since head 5
    with depending(lambda state: set()), pytest.raises(ChangedSince, match="changed since event 5") as caught:
        record(db, bye, _said, expected_head=5)
    assert [r.seq for r in caught.value.records] == [6] and caught.value.head == 7 and _head(db) == 7


def test_a_ledger_without_a_tournament_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    Ledger.create_complete(path, [])
    with pytest.raises(CommandRejected, match="has no tournament"):
        record(path, _bye, _said)
