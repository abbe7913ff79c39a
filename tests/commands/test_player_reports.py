"""Players' own reports (issue 46, :mod:`goledger.commands.player_reports`): the decider and the
reconciliation (:mod:`goledger.replay.scoring.reports`) on tournaments folded in memory, and
the actors and the race on a real ledger file."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from goledger import commands
from goledger.commands.player_reports import (
    approve_reports,
    decide_approve_reports,
    decide_report,
    report_message,
    report_result,
    reporters,
)
from goledger.errors import CommandRejected
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.ledger.values import Result
from goledger.replay.fold.state import TournamentState, fold
from goledger.replay.scoring.reports import round_reports

from .conftest import refusal_open, refused

# refusal_open: round 1 table 1 Ali (p0001, W) – Berg (p0002, B) has a white win; table 2
# Chen (p0003, W) – Dias (p0004, B) has none; Eko (p0005) has the bye.


def claim(pid: str, outcome: str, *, table: int = 2, opponent: str | None = None, margin: str = "",
          round_: int = 1) -> ev.ResultClaimed:
    other = opponent or {"p0003": "p0004", "p0004": "p0003"}[pid]
    return ev.ResultClaimed(round=round_, table=table, player_id=pid, opponent=other, outcome=outcome,  # type: ignore[arg-type]
                            margin=margin)


def with_reports(mode: str, *more: ev.Event) -> TournamentState:
    return fold(refusal_open(ev.RulesChanged(changes={"player_reports": mode}), *more))


def test_a_claim_is_the_players_own_event_and_scores_nothing(state: TournamentState) -> None:
    [event] = decide_report(state, "p0004", 1, "won", "r")
    assert event == claim("p0004", "won", margin="R")
    after = fold([event], start=state)
    assert after.games[1][2].result is Result.UNKNOWN
    assert report_message(state, [event]) == "round 1 table 2: Dias Rui reports a win by resignation"


def test_agreeing_claims_wait_for_the_desk_by_default(state: TournamentState) -> None:
    s = fold([claim("p0003", "lost")], start=state)
    assert [e.type_name() for e in decide_report(s, "p0004", 1, "won", "2.5")] == ["ResultClaimed"]
    s = fold(decide_report(s, "p0004", 1, "won", "2.5"), start=s)
    [row] = [r for r in round_reports(s, 1) if r.table == 2]
    assert (row.status, row.claimed, row.margin) == ("agree", Result.BLACK, "2.5")
    assert decide_approve_reports(s, 1) == [ev.ResultRecorded(round=1, table=2, result=Result.BLACK, margin="2.5")]


def test_under_record_the_second_agreeing_claim_records_the_result() -> None:
    s = with_reports("record", claim("p0003", "jigo"))
    events = decide_report(s, "p0004", 1, "jigo")
    assert events == [claim("p0004", "jigo"), ev.ResultRecorded(round=1, table=2, result=Result.JIGO)]
    assert report_message(s, events).endswith("the result is recorded: jigo between Chen Li (white) and Dias Rui "
                                              "(black)")


@pytest.mark.parametrize(("white", "black", "status"), [
    ("won", "won", "disagree"), ("won", "jigo", "disagree"), ("lost", "lost", "disagree"),
    ("won", "lost", "agree"), ("jigo", "jigo", "agree"), ("won", None, "one"), (None, None, "none"),
])
def test_the_reconciliation_of_two_claims(state: TournamentState, white: str | None, black: str | None,
                                          status: str) -> None:
    events = ([claim("p0003", white)] if white else []) + ([claim("p0004", black)] if black else [])
    s = fold(events, start=state)
    rows = {r.table: r for r in round_reports(s, 1)}
    assert rows[2].status == status
    assert rows[1].status == "recorded"
    if status == "disagree":
        assert "no agreeing reports" in refused(lambda: decide_approve_reports(s, 1))
        assert rows[2].claimed is None and rows[2].white_claim is not None and rows[2].black_claim is not None


def test_under_record_disagreeing_claims_record_nothing() -> None:
    s = with_reports("record", claim("p0003", "won"))
    assert [e.type_name() for e in decide_report(s, "p0004", 1, "won")] == ["ResultClaimed"]


def test_margins_agree_or_the_one_given_is_kept(state: TournamentState) -> None:
    def margin(a: str, b: str) -> str:
        s = fold([claim("p0003", "won", margin=a), claim("p0004", "lost", margin=b)], start=state)
        return next(r.margin for r in round_reports(s, 1) if r.table == 2)

    assert (margin("R", "R"), margin("R", ""), margin("", "3.5"), margin("R", "3.5")) == ("R", "R", "3.5", "")


def test_a_later_claim_replaces_the_earlier_and_the_same_twice_is_refused(state: TournamentState) -> None:
    s = fold([claim("p0003", "won")], start=state)
    assert "already reported" in refused(lambda: decide_report(s, "p0003", 1, "won"))
    s = fold(decide_report(s, "p0003", 1, "lost"), start=s)
    assert s.claims[1]["p0003"].outcome == "lost"


def test_no_claim_over_a_recorded_result(state: TournamentState) -> None:
    assert "only the desk can correct" in refused(lambda: decide_report(state, "p0001", 1, "lost"))


@pytest.mark.parametrize(("player", "round_", "outcome", "margin", "words"), [
    ("p0005", 1, "won", "", "no game to report in round 1"),  # the bye
    ("p0003", 2, "won", "", "no game to report in round 2"),  # not paired yet
    ("p0003", 9, "won", "", "not a round of this tournament"),
    ("p0003", 1, "draw", "", "won, lost, jigo"),
    ("p0003", 1, "jigo", "R", "a jigo has no margin"),
    ("p0003", 1, "won", "F", "the margin is R"),
    ("p0003", 1, "won", "2.25", "the margin is R"),
    ("p0003", 1, "won", "1000", "the margin is R"),
    ("p0099", 1, "won", "", "not registered"),
])
def test_a_claim_is_refused_outside_its_domain(state: TournamentState, player: str, round_: int, outcome: str,
                                               margin: str, words: str) -> None:
    assert words in refused(lambda: decide_report(state, player, round_, outcome, margin))


def test_a_key_reports_only_the_game_it_saw(state: TournamentState) -> None:
    assert "paired again" in refused(lambda: decide_report(state, "p0003", 1, "won", opponent="p0001"))


def test_a_round_closes_when_the_next_is_paired_or_published(state: TournamentState) -> None:
    paired = fold([ev.GamePaired(round=2, table=1, white="p0001", black="p0005")], start=state)
    assert "round 1 is closed (round 2 is paired)" in refused(lambda: decide_report(paired, "p0003", 1, "won"))
    published = fold([ev.Checkpoint(label="published", round=1, event_count=12, head="0" * 64)], start=state)
    assert "standings after round 1 are published" in refused(lambda: decide_report(published, "p0003", 1, "won"))


def test_a_claim_counts_only_against_the_opponent_it_named(state: TournamentState) -> None:
    s = fold([claim("p0003", "won"), claim("p0004", "lost"), ev.PairingRemoved(round=1, table=2),
              ev.GamePaired(round=1, table=2, white="p0003", black="p0005")], start=state)
    assert next(r.status for r in round_reports(s, 1) if r.table == 2) == "none"


def test_reports_can_be_switched_off() -> None:
    s = with_reports("off")
    assert "does not take results from the players" in refused(lambda: decide_report(s, "p0003", 1, "won"))


def test_reporters_reads_the_actor_back() -> None:
    assert reporters("players p0001 p0002") == ("p0001", "p0002")
    assert reporters("desk players") == () and reporters("player") == ()


# ---------------------------------------------------------------------- on a ledger file


def ledger_file(tmp_path: Path, mode: str) -> Path:
    db = tmp_path / "t.db"
    with Ledger.create(db) as ledger:
        ledger.append(refusal_open(ev.RulesChanged(changes={"player_reports": mode})), actor="director")
    return db


def actors(db: Path) -> list[tuple[str, str]]:
    with Ledger.open(db) as ledger:
        return [(r.type, r.actor) for r in ledger.records()][-3:]


def test_the_log_names_the_players_as_actors(tmp_path: Path) -> None:
    db = ledger_file(tmp_path, "record")
    report_result(db, "p0003", 1, "won", actor="somebody else")
    report_result(db, "p0004", 1, "lost", "R")
    assert actors(db) == [("ResultClaimed", "player p0003"), ("ResultClaimed", "player p0004"),
                          ("ResultRecorded", "players p0003 p0004")]


def test_the_desks_approval_names_the_players_and_the_desk(tmp_path: Path) -> None:
    db = ledger_file(tmp_path, "approve")
    report_result(db, "p0003", 1, "won")
    report_result(db, "p0004", 1, "lost")
    outcome = approve_reports(db, 1, actor="desk Anna")
    assert outcome.message == "approved 1 result reported by both players in round 1"
    assert actors(db)[-1] == ("ResultRecorded", "players p0003 p0004 (approved by desk Anna)")
    assert commands.approve_reports is approve_reports


def test_a_desk_result_in_between_refuses_the_claim_not_the_result(tmp_path: Path) -> None:
    db = ledger_file(tmp_path, "record")
    report_result(db, "p0003", 1, "won")
    commands.result(db, 1, 2, "black", actor="desk")
    with pytest.raises(CommandRejected, match="only the desk can correct"):
        report_result(db, "p0004", 1, "lost")


def test_two_claims_at_once_record_the_result_once(tmp_path: Path) -> None:
    db = ledger_file(tmp_path, "record")
    errors: list[Exception] = []

    def send(pid: str, outcome: str) -> None:
        try:
            report_result(db, pid, 1, outcome)
        except Exception as exc:  # collected: the test fails on any
            errors.append(exc)

    threads = [threading.Thread(target=send, args=a) for a in (("p0003", "won"), ("p0004", "lost"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with Ledger.open(db) as ledger:
        kinds = [r.type for r in ledger.records()]
    assert kinds[-3:] == ["ResultClaimed", "ResultClaimed", "ResultRecorded"]
    assert kinds.count("ResultRecorded") == 2  # table 1's and this one


def test_the_audit_shows_which_results_came_from_the_players(tmp_path: Path) -> None:
    """The audit report's event log lists the players' claims and the result they agreed on,
    with the players (and the desk that approved it) as the actors."""
    from goledger.render.audit_report import report

    db = ledger_file(tmp_path, "approve")
    report_result(db, "p0003", 1, "won", "R")
    report_result(db, "p0004", 1, "lost")
    approve_reports(db, 1, actor="desk Anna")
    html = tmp_path / "audit.html"
    report(db, html)
    text = html.read_text(encoding="utf-8")
    assert "players p0003 p0004 (approved by desk Anna)" in text
    assert "round 1 table 2: p0003 Chen Li reports a win by resignation" in text and "player p0004" in text


def test_the_command_line_lists_and_approves_the_reports(tmp_path: Path, cli) -> None:
    db = ledger_file(tmp_path, "approve")
    report_result(db, "p0003", 1, "jigo")
    report_result(db, "p0004", 1, "jigo")
    listed = cli("reports", "--round", "1", "--db", db)
    assert listed.code == 0 and "agree: 1" in listed.out and "table 2: Chen Li – Dias Rui: jigo / jigo → jigo" in (
        listed.out)
    as_json = cli("reports", "--round", "1", "--db", db, "--json")
    assert as_json.code == 0 and '"status": "agree"' in as_json.out
    done = cli("approve-reports", "--round", "1", "--db", db, "--actor", "desk Anna")
    assert done.code == 0, done.err
    assert actors(db)[-1] == ("ResultRecorded", "players p0003 p0004 (approved by desk Anna)")
    again = cli("approve-reports", "--round", "1", "--db", db)
    assert again.code == 1 and "no agreeing reports" in again.err
    assert cli("reports", "--round", "9", "--db", db).code == 1
