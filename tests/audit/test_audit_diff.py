"""`goledger diff`: what changed between two events, and the events that caused it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from goledger import audit, commands
from goledger.audit.compare import Snapshot, changed_players
from goledger.audit.event_index import EventIndex
from goledger.errors import CommandRejected
from goledger.ledger.store import Ledger
from goledger.replay.fold.state import fold
from goledger.replay.scoring.standings import standings

from ..audit_support import ledger_events, opponent_sum

CRITERIA = ["MMS", "NBW"]


def _table(events: list, seq: int, round_: int, criteria: list[str]) -> Snapshot:
    return Snapshot.of(standings(fold(events[:seq]), round_, None, criteria))


def check_attribution(events: list, result: audit.AuditDiff, criteria: list[str]) -> None:
    """The diff agrees with standings computed directly, and every player's causes chain
    exactly from his row at ``from`` to his row at ``to``; single-event causes are real."""
    before = _table(events, result.from_seq, result.round, criteria)
    after = _table(events, result.to_seq, result.round, criteria)
    assert [c.player_id for c in result.changes] == changed_players(before, after)
    for change in result.changes:
        assert change.before == before.view(change.player_id)
        assert change.after == after.view(change.player_id)
        assert change.causes, f"{change.player_id} changed without a cause"
        assert change.causes[0].before == change.before
        assert change.causes[-1].after == change.after
        for left, right in zip(change.causes, change.causes[1:], strict=False):
            assert left.after == right.before
            assert left.last_seq < right.first_seq
        for cause in change.causes:
            assert cause.before != cause.after
            assert result.from_seq < cause.first_seq <= cause.last_seq <= result.to_seq
            if cause.first_seq == cause.last_seq:
                seq = cause.last_seq
                assert _table(events, seq - 1, result.round, criteria).view(change.player_id) == cause.before
                assert _table(events, seq, result.round, criteria).view(change.player_id) == cause.after
                assert cause.relation and cause.summary


def test_diff_across_a_correction_names_it_as_the_only_cause(club: tuple[Path, dict[str, int]]) -> None:
    path, notable = club
    seq = notable["correction"]
    result = audit.diff(path, seq - 1, seq, criteria=CRITERIA)
    assert result.round == 2 and [r.seq for r in result.records] == [seq]
    events = ledger_events(path)
    check_attribution(events, result, CRITERIA)
    assert result.changes and result.complete
    game = fold(events[:seq]).games[2][3]
    own = {game.white, game.black}
    for change in result.changes:
        assert [(c.first_seq, c.last_seq) for c in change.causes] == [(seq, seq)]
        relation = change.causes[0].relation
        if change.player_id in own:
            assert relation == "correction of own result"
        else:
            assert relation in ("correction", "correction of an opponent's result")
    assert own <= {c.player_id for c in result.changes}
    assert sum(c.after.values["NBW"] - c.before.values["NBW"] for c in result.changes if c.player_id in own) == 0


@pytest.mark.parametrize("span", [(1, None), (12, 40), (25, 61), (39, 52), (33, 33), (60, 61)])
def test_diff_causes_telescope_to_the_net_change(club: tuple[Path, dict[str, int]], span: tuple[int, int | None]
                                                 ) -> None:
    path, _ = club
    result = audit.diff(path, span[0], span[1], criteria=CRITERIA, max_replays=None)
    assert result.complete
    check_attribution(ledger_events(path), result, CRITERIA)


def test_opponents_later_results_are_causes_of_an_sos_like_value(club: tuple[Path, dict[str, int]]) -> None:
    """A criterion built on the opponents' scores (registered for this test only) changes with
    the opponents' later results: the diff attributes each step to that result."""
    path, notable = club
    events = ledger_events(path)
    with opponent_sum() as name:
        crit = ["MMS", name]
        result = audit.diff(path, notable["withdrawal"], None, 4, criteria=crit, max_replays=None)
        check_attribution(events, result, crit)
    state = fold(events)
    opponents = audit.opponents_by_player(state, 4)
    seen = set()
    for change in result.changes:
        for cause in change.causes:
            if cause.relation == "opponent's result":
                seen.add(change.player_id)
                game_players = set(EventIndex(fold(events[:1]), events[1:]).involved(cause.last_seq))
                assert game_players & opponents[change.player_id]
                assert cause.before.values[name] != cause.after.values[name]
    assert len(seen) >= 6


def test_a_limited_budget_leaves_ranges_that_still_add_up(club: tuple[Path, dict[str, int]]) -> None:
    path, _ = club
    result = audit.diff(path, 14, None, 4, criteria=CRITERIA, max_replays=3)
    assert not result.complete and result.replays <= len(result.records) + 5
    assert any(c.first_seq < c.last_seq for ch in result.changes for c in ch.causes)
    check_attribution(ledger_events(path), result, CRITERIA)


def test_sparse_changes_in_a_long_span_cost_few_replays(club: tuple[Path, dict[str, int]]) -> None:
    """Seen after round 1, everything from round 2 on changes nothing but the correction of a
    round-1 result appended at the end: the attribution finds it without replaying every event."""
    path, _ = club
    with Ledger.open(path) as ledger:
        head = ledger.head().seq
    copy = path.parent / "late-fix.db"
    shutil.copy(path, copy)
    state = fold(ledger_events(copy))
    game = state.games[1][1]
    fixed = "black" if game.result.value == "white" else "white"
    seq = commands.correct(copy, 1, 1, fixed, "late appeal").seqs[0]
    end_of_round_1 = 1 + 12 + 12  # creation, registrations, six pairings and six results
    assert fold(ledger_events(copy)[:end_of_round_1]).last_complete_round() == 1
    result = audit.diff(copy, end_of_round_1, None, 1, criteria=CRITERIA, max_replays=None)
    assert result.complete and len(result.records) == head - end_of_round_1 + 1
    assert result.replays <= 8  # the two ends and both sides of the three isolated events
    assert {(c.first_seq, c.last_seq) for ch in result.changes for c in ch.causes} == {(seq, seq)}
    assert {game.white, game.black} <= {c.player_id for c in result.changes}


def test_refusals(club: tuple[Path, dict[str, int]]) -> None:
    path, _ = club
    with pytest.raises(CommandRejected, match="--from 0 is outside"):
        audit.diff(path, 0, criteria=CRITERIA)
    with pytest.raises(CommandRejected, match=r"--to 5 must lie between --from 9"):
        audit.diff(path, 9, 5, criteria=CRITERIA)
    with pytest.raises(CommandRejected, match="either --from SEQ or --published"):
        audit.diff(path, criteria=CRITERIA)
    with pytest.raises(CommandRejected, match=r"round 7 is outside 1\.\.4"):
        audit.diff(path, 3, round=7, criteria=CRITERIA)


def test_cli_diff_json_shape(cli, club: tuple[Path, dict[str, int]]) -> None:
    path, notable = club
    seq = notable["correction"]
    res = cli("diff", "--db", path, "--from", seq - 1, "--criteria", "MMS,NBW", "--json")
    assert res.code == 0, res.err
    data = json.loads(res.out)
    assert data["from_seq"] == seq - 1 and data["to_seq"] == notable["head"]
    assert data["criteria"] == CRITERIA and data["round"] == 4
    assert [e["seq"] for e in data["events"]] == list(range(seq, notable["head"] + 1))
    first = data["events"][0]
    assert first["type"] == "ResultCorrected" and first["payload"]["reason"] == "slip swapped"
    assert len(first["hash"]) == 64 and first["prev_hash"]
    direct = audit.diff(path, seq - 1, criteria=CRITERIA)
    assert [c["player_id"] for c in data["changes"]] == [c.player_id for c in direct.changes]
    for entry in data["changes"]:
        assert set(entry) >= {"player_id", "surname", "first_name", "before", "after", "caused_by"}
        for side in ("before", "after"):
            assert set(entry[side]) == {"place", "values"} and set(entry[side]["values"]) == set(CRITERIA)
        assert entry["caused_by"] and all("first_seq" in c and "relation" in c for c in entry["caused_by"])
    text = cli("diff", "--db", path, "--from", seq - 1, "--to", seq, "--criteria", "MMS,NBW")
    assert text.code == 0 and "ResultCorrected (correction of own result)" in text.out
    assert "Events between (1):" in text.out


def test_cli_diff_usage_errors(cli, club: tuple[Path, dict[str, int]]) -> None:
    path, _ = club
    res = cli("diff", "--db", path, "--criteria", "MMS")
    assert res.code == 2 and "either --from SEQ or --published ROUND" in res.err
    res = cli("diff", "--db", path, "--from", "999", "--criteria", "MMS")
    assert res.code == 1 and "--from 999 is outside the ledger's events 1..61" in res.err
