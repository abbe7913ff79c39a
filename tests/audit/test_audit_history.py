"""`goledger history PLAYER` and `goledger standings --as-of SEQ --round R`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from goledger import audit
from goledger.audit.compare import Snapshot
from goledger.errors import CommandRejected
from goledger.ledger import events as ev
from goledger.replay import views
from goledger.replay.fold.state import fold
from goledger.replay.scoring.standings import standings

from ..audit_support import ledger_events, opponent_sum

CRITERIA = ["MMS", "NBW"]


def _row(events: list[ev.Event], seq: int, round_: int, pid: str, criteria: list[str]):  # type: ignore[no-untyped-def]
    return Snapshot.of(standings(fold(events[:seq]), round_, None, criteria)).view(pid)


def test_history_lists_exactly_the_events_that_changed_the_players_row(club: tuple[Path, dict[str, int]]) -> None:
    """Compared with a brute-force replay that computes the standings after every event."""
    path, _ = club
    events = ledger_events(path)
    with opponent_sum() as name:
        crit = ["MMS", name]
        result = audit.history(path, "Dias Rui", criteria=crit, max_replays=None)
        brute = [seq for seq in range(2, len(events) + 1)
                 if _row(events, seq - 1, 4, "p0004", crit) != _row(events, seq, 4, "p0004", crit)]
        assert result.complete and result.player_id == "p0004" and result.round == 4
        assert [(e.first_seq, e.last_seq) for e in result.entries] == [(s, s) for s in brute]
        for entry in result.entries:
            assert entry.after == _row(events, entry.last_seq, 4, "p0004", crit)
    relations = {e.relation for e in result.entries}
    assert {"own pairing", "own result", "opponent's result", "own bye"} <= relations
    opponents = audit.opponents_by_player(fold(events), 4)["p0004"]
    later = [e for e in result.entries if e.relation == "opponent's result"
             and isinstance(events[e.last_seq - 1], ev.ResultRecorded)
             and events[e.last_seq - 1].round > 1]
    assert later, "an opponent's result of a later round changed his opponent-sum"
    for entry in later:
        assert entry.before.values[name] != entry.after.values[name]
        assert opponents


def test_history_of_the_withdrawn_player_and_of_the_correction(club: tuple[Path, dict[str, int]]) -> None:
    path, notable = club
    result = audit.history(path, "p0001", criteria=CRITERIA)
    by_seq = {e.last_seq: e for e in result.entries}
    withdrawal = by_seq[notable["withdrawal"]]
    assert withdrawal.relation == "own withdrawal"
    assert withdrawal.after.values["MMS"] == withdrawal.before.values["MMS"] + 2
    events = ledger_events(path)
    game = fold(events).games[2][3]
    loser_or_winner = audit.history(path, game.white, criteria=CRITERIA)
    fix = {e.last_seq: e for e in loser_or_winner.entries}[notable["correction"]]
    assert fix.relation == "correction of own result" and "slip swapped" in fix.summary


def test_history_refuses_an_unknown_player(club: tuple[Path, dict[str, int]]) -> None:
    with pytest.raises(CommandRejected, match="no player matches 'Nobody'"):
        audit.history(club[0], "Nobody", criteria=CRITERIA)


def test_cli_history(cli, club: tuple[Path, dict[str, int]]) -> None:
    path, notable = club
    res = cli("history", "--db", path, "p0001", "--criteria", "MMS,NBW", "--json")
    assert res.code == 0, res.err
    data = json.loads(res.out)
    assert data["player_id"] == "p0001" and data["round"] == 4 and data["criteria"] == CRITERIA
    seqs = [e["last_seq"] for e in data["entries"]]
    assert notable["withdrawal"] in seqs and seqs == sorted(seqs)
    assert all(set(e["after"]) == {"place", "values"} for e in data["entries"])
    text = cli("history", "--db", path, "Abe", "--criteria", "MMS,NBW", "--round", "2")
    assert text.code == 0 and "own withdrawal" not in text.out and "own result" in text.out


# --------------------------------------------------------------------------- standings --as-of / --round


def test_standings_as_of_and_round_in_any_combination(cli, club: tuple[Path, dict[str, int]]) -> None:
    path, notable = club
    events = ledger_events(path)

    def shown(*args: object) -> dict:
        res = cli("standings", "--db", path, "--criteria", "MMS,NBW", "--json", *args)
        assert res.code == 0, res.err
        return json.loads(res.out)

    head = len(events)
    middle = notable["withdrawal"]  # rounds 1 and 2 recorded, round 3 not paired yet
    cases = [((), head, 4), (("--round", "2"), head, 2), (("--as-of", middle), middle, 2),
             (("--as-of", middle, "--round", "4"), middle, 4)]
    for args, seq, round_ in cases:
        data = shown(*args)
        assert (data["as_of_seq"], data["round"]) == (seq, round_), args
        assert data == standings(fold(events[:seq]), round_, None, CRITERIA).to_dict()
    for as_of, round_, seq, expected_round in [(middle, 1, middle, 1), (None, 0, head, 0), (5, None, 5, 0)]:
        table = views.standings(path, round_, as_of, None, CRITERIA)
        assert (table.as_of_seq, table.round) == (seq, expected_round)
        assert table.to_dict() == standings(fold(events[:seq]), expected_round, None, CRITERIA).to_dict()
    # as of the withdrawal, rounds 3-4 are not played: everyone's MMS after round 4 is his MMS
    # after round 2 plus what the withdrawal gives p0001 (two absences, ½ each)
    after2 = {r.player_id: r.values["MMS"] for r in views.standings(path, 2, middle, None, CRITERIA).rows}
    after4 = {r.player_id: r.values["MMS"] for r in views.standings(path, 4, middle, None, CRITERIA).rows}
    assert {p: after4[p] - after2[p] for p in after4} == {p: (2 if p == "p0001" else 0) for p in after4}
    for args, message in [(("--as-of", "0"), "--as-of 0 is outside the ledger's events 1..61"),
                          (("--as-of", "5", "--round", "9"), "round 9 is outside 1..4")]:
        res = cli("standings", "--db", path, "--criteria", "MMS", *args)
        assert res.code == 1 and message in res.err, (args, res.err)
    with pytest.raises(CommandRejected, match=f"--as-of {head + 1} is outside"):
        views.standings(path, None, head + 1, None, CRITERIA)
