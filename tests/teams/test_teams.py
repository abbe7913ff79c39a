"""Teams in the ledger (issue 30): the team events and their fold, the deciders of ``team add``,
``team assign`` and ``team remove`` with their one-sentence refusals, and the commands through
the CLI (``new --system team-swiss --boards``, ``team …``, ``standings --teams``, ``explain --team``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from goledger.commands.teams import decide_team_add, decide_team_assign, decide_team_remove
from goledger.errors import CommandRejected
from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.replay.fold.state import TournamentState, apply, fold
from goledger.teams.standings import team_standings


def base(boards: int = 2, players: int = 6, rounds: int = 3) -> TournamentState:
    settings = ev.TournamentSettings(name="League", rounds=rounds, system="team-swiss",
                                     system_options={"boards": boards})
    events: list[ev.Event] = [ev.TournamentCreated(settings=settings)]
    events += [ev.PlayerRegistered(player_id=f"p{k:04d}", surname=f"S{k}", first_name="F", rank="1k",
                                   rating=2000 + k, status="preliminary" if k == players else "final")
               for k in range(1, players + 1)]
    return fold(events)


def run(state: TournamentState, events: list[ev.Event]) -> TournamentState:
    for e in events:
        state.seq += 1
        apply(state, e)
    return state


def add(state: TournamentState, *names: str) -> TournamentState:
    for n in names:
        run(state, decide_team_add(state, n))
    return state


def test_add_numbers_teams_and_refuses_a_taken_name() -> None:
    state = base()
    run(state, decide_team_add(state, "Lions", "LIO"))
    added = decide_team_add(state, "Tigers")
    assert added == [ev.TeamRegistered(team_id="t002", name="Tigers", number=2)]
    with pytest.raises(CommandRejected, match="already called 'Lions'"):
        decide_team_add(state, "lions")
    with pytest.raises(CommandRejected, match=r"1\.\.2 boards"):
        decide_team_add(state, "Bears", boards=3)
    with pytest.raises(CommandRejected, match="needs a name"):
        decide_team_add(state, "  ")


def test_assign_refuses_what_the_rules_forbid() -> None:
    state = base()
    add(state, "Lions", "Tigers")
    run(state, decide_team_assign(state, "Lions", "p0001", 1))
    with pytest.raises(CommandRejected, match="plays for team Lions in round 1"):
        decide_team_assign(state, "Tigers", "p0001", 1)
    with pytest.raises(CommandRejected, match="board 3 is past the 2 boards"):
        decide_team_assign(state, "Tigers", "p0002", 3)
    with pytest.raises(CommandRejected, match="preliminary entry"):
        decide_team_assign(state, "Tigers", "p0006", 1)
    with pytest.raises(CommandRejected, match="already on board 1 of team Lions"):
        decide_team_assign(state, "Lions", "p0001", 2)
    with pytest.raises(CommandRejected, match=r"outside 1\.\.3"):
        decide_team_assign(state, "Lions", "p0002", 2, round_=4)
    with pytest.raises(CommandRejected, match="no team 'Bears'"):
        decide_team_assign(state, "Bears", "p0002", 2)


def test_compositions_change_per_round() -> None:
    state = base()
    add(state, "Lions", "Tigers")
    run(state, decide_team_assign(state, "Lions", "p0001", 1))
    run(state, decide_team_assign(state, "Lions", "p0002", 2))
    run(state, decide_team_remove(state, "Lions", "p0002", from_round=3))
    run(state, decide_team_assign(state, "Lions", "p0003", 2, from_round=3))
    run(state, decide_team_assign(state, "Tigers", "p0002", 1, from_round=3))
    run(state, decide_team_assign(state, "Tigers", "p0004", 2, round_=2))
    lions, tigers = state.teams["t001"], state.teams["t002"]
    assert [lions.member_slots(r) for r in (1, 2, 3)] == [{1: "p0001", 2: "p0002"}, {1: "p0001", 2: "p0002"},
                                                            {1: "p0001", 2: "p0003"}]
    assert [tigers.member_slots(r) for r in (1, 2, 3)] == [{}, {2: "p0004"}, {1: "p0002"}]
    with pytest.raises(CommandRejected, match="on no board of team Tigers"):
        decide_team_remove(state, "Tigers", "p0004", round_=3)


def _match(state: TournamentState) -> TournamentState:
    add(state, "Lions", "Tigers")
    for team, pid, board in (("Lions", "p0001", 1), ("Lions", "p0002", 2), ("Tigers", "p0003", 1),
                             ("Tigers", "p0004", 2)):
        run(state, decide_team_assign(state, team, pid, board))
    return run(state, [ev.GamePaired(round=1, table=1, white="p0001", black="p0003"),
                       ev.GamePaired(round=1, table=2, white="p0004", black="p0002"),
                       ev.ResultRecorded(round=1, table=1, result=Result.WHITE),
                       ev.ResultRecorded(round=1, table=2, result=Result.JIGO)])


def test_a_played_team_is_not_deleted_and_its_standings_count_the_match() -> None:
    state = _match(base())
    with pytest.raises(CommandRejected, match="played a match in round 1"):
        decide_team_remove(state, "Tigers")
    got = team_standings(state, 1)
    assert [(r.name, r.values[:2], r.half_matches) for r in got.rows] == [
        ("Lions", (2, 3), ("  2+(1½)",)), ("Tigers", (0, 1), ("  1-(½)",))]
    assert decide_team_remove(base_with_team(), "Solo") == [ev.TeamRemoved(team_id="t001")]


def base_with_team() -> TournamentState:
    state = base()
    return run(state, decide_team_add(state, "Solo"))


def test_schema_1_team_payloads_read_unchanged() -> None:
    old = ev.decode_event("TeamRegistered", 1, b'{"type":"TeamRegistered","team_id":"t1","name":"A","number":3}')
    assert old == ev.TeamRegistered(team_id="t1", name="A", number=3)
    rows = [("TeamMemberAssigned", 1, '{"type":"TeamMemberAssigned","team_id":"t1","player_id":"p1","board":2}')]
    assert ev.decode_rows(rows) == [ev.TeamMemberAssigned(team_id="t1", player_id="p1", board=2)]


def two_team_league(cli, db: Path) -> None:  # type: ignore[no-untyped-def]
    """A two-round team Swiss with two boards, through the CLI: Lions (p0001, p0002) and
    Tigers (p0003, p0004)."""
    assert cli("new", "--name", "League", "--rounds", "2", "--system", "team-swiss", "--boards", "2",
               "--db", db).code == 0
    for k in range(1, 5):
        assert cli("register", "--surname", f"S{k}", "--first-name", "F", "--rank", "2k", "--db", db).code == 0
    for team in ("Lions", "Tigers"):
        assert cli("team", "add", team, "--db", db).code == 0
    for team, pid, board in (("Lions", "p0001", 1), ("Lions", "p0002", 2), ("Tigers", "p0003", 1),
                             ("Tigers", "p0004", 2)):
        assert cli("team", "assign", team, pid, "--board", str(board), "--db", db).code == 0


def test_team_commands_through_the_cli(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "league.db"
    two_team_league(cli, db)
    refused = cli("team", "assign", "Tigers", "p0001", "--board", "2", "--db", db, "--json")
    assert refused.code == 1 and "plays for team Lions" in json.loads(refused.err)["error"]
    assert cli("pair", "--round", "1", "--white", "p0001", "--black", "p0003", "--db", db).code == 0
    assert cli("pair", "--round", "1", "--white", "p0004", "--black", "p0002", "--db", db).code == 0
    head = json.loads(cli("log", "--json", "--db", db).out)
    assert cli("result", "--round", "1", "--table", "1", "white", "--db", db).code == 0
    assert cli("result", "--round", "1", "--table", "2", "white", "--db", db).code == 0
    data = json.loads(cli("standings", "--teams", "--json", "--db", db).out)
    assert data["round"] == 1 and data["criteria"][:2] == ["TEAMP", "BDW"]
    assert [(t["name"], t["place"], t["values"]["TEAMP"], t["values"]["BDW"]) for t in data["teams"]] == [
        ("Lions", 1, 1, 2), ("Tigers", 2, 1, 2)]
    assert data["teams"][0]["matches"][0]["opponent"] == "Tigers"
    before = json.loads(cli("standings", "--teams", "--json", "--as-of", str(len(head)), "--db", db).out)
    assert [t["values"]["BDW"] for t in before["teams"]] == [0, 0]
    text = cli("explain", "--team", "Lions", "--db", db)
    assert text.code == 0 and "TEAMP = 1" in text.out and "against Tigers" in text.out
    assert cli("team", "remove", "Tigers", "--db", db).code == 1
    table = cli("standings", "--teams", "--db", db)
    assert "Lions" in table.out and "r1" in table.out
    csv_lines = cli("standings", "--teams", "--format", "csv", "--db", db).out.splitlines()
    assert csv_lines[0] == "pl,team,TEAMP,BDW,BDW3U,BDW2U,BDW1U,MNR,r1"
    assert [line.split(",")[:4] for line in csv_lines[1:]] == [["1", "Lions", "1", "2"], ["2", "Tigers", "1", "2"]]


def test_team_printouts_through_the_cli(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Team pairing list, result sheets, crosstable and standings in every format."""
    db = tmp_path / "p.db"
    two_team_league(cli, db)
    assert cli("pair-teams", "1", "Lions", "Tigers", "--db", db).code == 0
    assert cli("result", "--round", "1", "--table", "1", "white", "--db", db).code == 0
    text = cli("team", "pairings", "--round", "1", "--db", db)
    assert text.code == 0 and "team pairings of round 1 of 2" in text.out and "1-0" in text.out
    data = json.loads(cli("team", "pairings", "--round", "1", "--json", "--db", db).out)
    assert [len(m["boards"]) for m in data["matches"]] == [2] and data["matches"][0]["boards"][0]["table"] == 1
    csv_out = cli("team", "pairings", "--round", "1", "--format", "csv", "--db", db).out
    assert csv_out.splitlines()[0].startswith("Match,Board,Table,White")
    sheets = cli("team", "sheets", "--round", "1", "--db", db).out
    assert sheets.startswith("<!DOCTYPE html>") and "Captain" in sheets and "break-after: page" in sheets
    cross = cli("team", "crosstable", "--db", db)
    assert cross.code == 0 and "r1" in cross.out
    page = cli("standings", "--teams", "--format", "html", "--db", db).out
    assert "team standings after round 1" in page and "<td" in page
    h9 = tmp_path / "league.h9"
    exported = cli("export", "egd", "-o", h9, "--db", db)
    assert exported.code == 0, exported.err
    text = h9.read_text(encoding="utf-8")
    assert "; Team Lions: 1 S1 F, 2 S2 F" in text and "; Team Tigers: 1 S3 F, 2 S4 F" in text
    assert cli("validate", "egd", h9).code == 0


def test_team_options_of_a_new_tournament(tmp_path: Path) -> None:
    from goledger import commands
    from goledger.replay.views import state_as_of
    from goledger.teams.model import team_criteria, team_size

    db = tmp_path / "o.db"
    commands.new(db, "League", 3, "team-mcmahon", options={"boards": "5", "team_criteria": "TEAMP,SOST,BDW"})
    state = state_as_of(db)
    assert team_size(state) == 5 and team_criteria(state) == ("TEAMP", "SOST", "BDW", "NULL", "NULL", "NULL")
    with pytest.raises(CommandRejected, match="at most six of"):
        commands.new(tmp_path / "p.db", "League", 3, "team-swiss", options={"team_criteria": "TEAMP,FOO"})
    with pytest.raises(CommandRejected, match=r"1\.\.10 boards"):
        commands.new(tmp_path / "q.db", "League", 3, "team-swiss", options={"boards": "11"})
