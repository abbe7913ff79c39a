"""``register --from-file``'s rows decided in memory (:mod:`goledger.commands.bulk`): each
against the tournament and the rows before it, all or nothing."""

from __future__ import annotations

from typing import Any

import pytest

from goledger.commands.bulk import BulkRejected, decide_register_from_file, decide_rows
from goledger.ledger import events as ev
from goledger.replay.fold.state import TournamentState


def row(line: int, surname: str, first: str = "X", rank: str = "5k", pin: str = "") -> tuple[int, dict[str, Any], None]:
    return (line, {"surname": surname, "first_name": first, "rank": rank, "grade": "", "rating": None,
                   "country": "", "club": "", "egd_pin": pin}, None)


def test_every_row_is_registered_against_the_rows_before_it(state: TournamentState) -> None:
    events, decisions = decide_rows(state, [row(2, "Fox"), row(3, "fox", "x"), row(4, "Gil")])
    assert [e.player_id for e in events if isinstance(e, ev.PlayerRegistered)] == ["p0006", "p0007"]
    assert [d.decision for d in decisions] == ["registered", "refused", "registered"]
    assert decisions[1].message == "fox x is already registered as p0006; use --force to register a namesake"


def test_one_refused_row_refuses_the_file(state: TournamentState) -> None:
    with pytest.raises(BulkRejected) as caught:
        decide_register_from_file(state, [row(2, "Fox"), (3, "a row needs a rank", None)])
    assert caught.value.message == "1 of 2 rows refused (line 3); nothing was written"
    assert [d.decision for d in caught.value.report.rows] == ["would register", "refused"]


def test_a_pin_of_the_tournament_is_refused(state: TournamentState) -> None:
    _, [decision] = decide_rows(state, [row(2, "New", pin="12345678")])
    assert decision.message == "EGD PIN 12345678 is already registered for p0001 Ali Veli"
