"""Group commit (:func:`goledger.commands.recording.record_many`): intents decided in turn
against the state as the earlier ones left it, refused one by one, appended in one transaction
with each intent's own actor."""

from __future__ import annotations

from pathlib import Path

from goledger import commands
from goledger.commands.checking_in import answer_intent
from goledger.commands.recording import Outcome, record_many
from goledger.errors import CommandRejected


def test_each_intent_sees_the_ones_before_it_and_is_refused_alone(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "Group Open", 2)
    for surname in ("Abe", "Ban", "Cal"):
        commands.register(db, surname, "Jo", "3k")
    head = len(commands.log(db))
    answers = record_many(db, [
        answer_intent("p0001", 1, True, "player p0001"),
        answer_intent("p0001", 1, True, "player p0001"),  # the same answer again, in the same batch
        answer_intent("p0002", 1, False, "player p0002"),
        answer_intent("p0009", 1, True, "player p0009"),  # nobody
        answer_intent("p0002", 1, True, "player p0002"),  # came after all: his absence cancelled
    ])
    assert [type(a) for a in answers] == [Outcome, CommandRejected, Outcome, CommandRejected, Outcome]
    assert isinstance(answers[1], CommandRejected) and "already checked in" in answers[1].message
    assert isinstance(answers[4], Outcome) and "absence is cancelled" in answers[4].message
    written = [(r.type, r.actor) for r in commands.log(db)[head:]]
    assert written == [("CheckedIn", "player p0001"), ("ParticipationChanged", "player p0002"),
                       ("ParticipationChanged", "player p0002"), ("CheckedIn", "player p0002")]
    assert [r.seq for a in answers if isinstance(a, Outcome) for r in a.records] == list(range(head + 1, head + 5))
    assert commands.verify(db).ok


def test_a_batch_of_refusals_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "Group Open", 2)
    head = len(commands.log(db))
    answers = record_many(db, [answer_intent("p0001", 1, True, "player p0001"),
                               answer_intent("p0001", 3, False, "player p0001")])
    assert all(isinstance(a, CommandRejected) for a in answers)
    assert len(commands.log(db)) == head
