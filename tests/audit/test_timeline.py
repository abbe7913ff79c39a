"""A player's timeline, the what-if of one event with its consequences, and the dispute sheet
(issue 42), on the audit tests' club open (a withdrawal before round 3, a correction, an
absence): every number is checked against standings folded independently."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from goledger import commands
from goledger.audit.consequences import consequences
from goledger.audit.disputes import dispute_sheet, event_what_if
from goledger.audit.timeline import timeline
from goledger.errors import CommandRejected
from goledger.i18n import use_language
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.replay.fold.state import fold
from goledger.replay.scoring.registries import check_registered
from goledger.replay.scoring.standings import ranking, standings

ROUND = 4


def _events(path: Path) -> list[ev.Event]:
    with Ledger.open(path) as ledger:
        return ledger.events()


def _row(events: list[ev.Event], pid: str) -> tuple[int, dict[str, int]] | None:
    """His place and values after round 4, from the fold of ``events`` (an independent path)."""
    rank = ranking(fold(events, check=check_registered), ROUND, None, None)
    return next(((place, dict(zip(rank.criteria, values, strict=True)))
                 for place, who, values in rank.placed if who == pid), None)


def _opponents(events: list[ev.Event], pid: str) -> set[str]:
    state = fold(events, check=check_registered)
    return {g.black if g.white == pid else g.white for tables in state.games.values() for g in tables.values()
            if pid in (g.white, g.black)}


def test_every_entry_is_an_event_that_moved_him_with_his_rows_before_and_after(
        club: tuple[Path, dict[str, int]]) -> None:
    path, notable = club
    events = _events(path)
    for pid in ("p0002", "p0003", "p0005", "p0009"):
        line = timeline(path, pid)
        assert [p.round for p in line.rounds] == [1, 2, 3, 4]
        state = fold(events, check=check_registered)
        for point in line.rounds:
            table = standings(state, point.round)
            row = next(r for r in table.rows if r.player_id == pid)
            assert (point.place, point.values) == (row.place, dict(row.values))
        for entry in line.entries:
            before, after = _row(events[:entry.seq - 1], pid), _row(events[:entry.seq], pid)
            assert before != after
            assert entry.before is not None and (entry.before.place, entry.before.values) == before
            assert entry.after is not None and (entry.after.place, entry.after.values) == after
            assert entry.what and entry.actor and entry.recorded_at
        seqs = {e.seq for e in line.entries}
        # the withdrawal is in the timeline of every opponent it moved, and in no one's who never met him
        if "p0001" in _opponents(events, pid):
            moved = _row(events[:notable["withdrawal"] - 1], pid) != _row(events[:notable["withdrawal"]], pid)
            assert (notable["withdrawal"] in seqs) == moved
        # a registration of someone else, a pairing or a result in its round is never "history"
        assert all(not isinstance(events[s - 1], ev.PlayerRegistered | ev.GamePaired) for s in seqs)


def test_the_withdrawal_entry_speaks_in_names_and_rules(club: tuple[Path, dict[str, int]]) -> None:
    path, notable = club
    line = timeline(path, "p0002")
    entry = line.entry(notable["withdrawal"])
    assert entry is not None
    assert "Abe Jo" in entry.what and "Abe Jo" in entry.relation and "Berg Anna" in entry.relation
    assert "round 3" in entry.rule and "MMS" in entry.rule and "§" not in entry.rule
    assert entry.reason == "called away" and entry.after_round == 2
    with use_language("hu"):
        hungarian = timeline(path, "p0002").entry(notable["withdrawal"])
    assert hungarian is not None and "visszalépett" in hungarian.rule


def test_what_if_an_event_leaves_out_exactly_it_and_its_consequences(club: tuple[Path, dict[str, int]]) -> None:
    path, notable = club
    events = _events(path)
    for seq in (notable["withdrawal"], notable["correction"], notable["absence"]):
        found = event_what_if(path, seq)
        kept = [e for s, e in enumerate(events, start=1) if s not in found.without]
        expected = standings(fold(kept, check=check_registered), ROUND)
        got = found.result.hypothetical
        assert [(r.place, r.player_id, r.values) for r in got.rows] == \
            [(r.place, r.player_id, r.values) for r in expected.rows]
        assert found.result.anomalies == []
        assert found.rule and found.what


def test_a_withdrawal_takes_its_reinstatement_with_it(tmp_path: Path, club: tuple[Path, dict[str, int]]) -> None:
    path, notable = club
    copy = tmp_path / "club.db"
    shutil.copy(path, copy)
    done = commands.reinstate(copy, "p0001", 4, actor="td")
    reinstated = done.seqs[0]
    events = _events(copy)
    assert consequences(events, notable["withdrawal"]) == (notable["withdrawal"], reinstated)
    found = event_what_if(copy, notable["withdrawal"])
    assert found.without == (notable["withdrawal"], reinstated)
    # without both, the log is as if he never withdrew: no anomaly, nothing refers to what is gone
    kept = [e for s, e in enumerate(events, start=1) if s not in found.without]
    assert not any(isinstance(e, ev.PlayerWithdrew | ev.PlayerReinstated) for e in kept)
    assert found.result.anomalies == []
    assert "Rounds 3, 4" in found.note
    # a pairing takes its result and the correction of that result
    round2 = next(s for s, e in enumerate(events, start=1)
                  if isinstance(e, ev.GamePaired) and (e.round, e.table) == (2, 3))
    assert consequences(events, round2) == (round2, notable["correction"] - 1, notable["correction"])


def test_the_dispute_sheet_compares_the_standings_around_him(club: tuple[Path, dict[str, int]]) -> None:
    path, _ = club
    sheet = dispute_sheet(path, "p0003")
    line = timeline(path, "p0003")
    assert sheet.what_if.seq == line.entries[-1].seq  # the latest event that moved him
    events = _events(path)
    kept = [e for s, e in enumerate(events, start=1) if s not in sheet.what_if.without]
    hypo = standings(fold(kept, check=check_registered), ROUND)
    mine = next(r for r in hypo.rows if r.player_id == "p0003")
    assert sheet.place_without == mine.place
    assert any(r.mark and r.player_id == "p0003" for r in sheet.real)
    assert sheet.head_seq == len(events) and len(sheet.head_hash) == 64


def test_a_player_nothing_moved_has_no_entries_and_no_sheet(tmp_path: Path) -> None:
    db = tmp_path / "quiet.db"
    commands.new(db, "Quiet Cup", 2, "mcmahon")
    for name in ("Ana", "Ben", "Cem", "Dan"):
        commands.register(db, name, "", "5k")
    commands.pair(db, 1, "p0001", "p0002", 1, 0)
    commands.result(db, 1, 1, "white")
    commands.register(db, "Eda", "", "3k")  # a late registration of someone else is not his history
    line = timeline(db, "p0001")
    assert line.entries == [] and [p.round for p in line.rounds] == [1]
    with pytest.raises(CommandRejected, match="nothing to dispute"):
        dispute_sheet(db, "p0001")
    commands.correct(db, 1, 1, "black", "slip misread")
    line = timeline(db, "p0001")
    assert [e.type for e in line.entries] == ["ResultCorrected"]
    assert line.entries[0].before is not None and line.entries[0].after is not None
    assert line.entries[0].after.values["MMS"] < line.entries[0].before.values["MMS"]  # his win became a loss
