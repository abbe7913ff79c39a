"""Team pairing (issue 30): ``pair-teams`` reproduces OpenGotha's ``pairTeams`` boards (the
oracle's ``generated_pairing``: colour, handicap, table, refusals) for every match of the six
shared team files; ``pair-round`` on a synthetic 8 teams × 3 boards × 4 rounds event pairs
every team once per round, never the same two teams twice, board i against board i, and the
results give team standings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from goledger.errors import CommandRejected
from goledger.formats.opengotha.read import read_opengotha
from goledger.ledger import events as ev
from goledger.replay.fold.state import TournamentState, apply, fold
from goledger.teams.model import roster
from goledger.teams.pairing import board_facts, pair_match

from ..conftest import SHARED
from .test_team_oracle import ROUNDS, oracle

_ROUNDED = (ev.GamePaired, ev.ResultRecorded, ev.ResultCorrected, ev.ByeAssigned, ev.ByeRemoved, ev.PairingAnnotated,
            ev.PairingRemoved)


def truncated(stem: str, round_: int) -> TournamentState:
    """The file's state before round ``round_``: every game and bye of rounds ≥ R removed."""
    assert SHARED is not None
    xml = SHARED / "realdata" / "opengotha" / f"lucvannier_opengotha__{stem}.xml"
    events = read_opengotha(xml.read_bytes(), source=xml.name).events
    return fold([e for e in events if not (isinstance(e, _ROUNDED) and e.round >= round_)])


@pytest.mark.parametrize(("stem", "round_"), ROUNDS, ids=[f"{s}-r{r}" for s, r in ROUNDS])
def test_pair_teams_equals_opengotha_generated_pairing(stem: str, round_: int) -> None:
    state, want = truncated(stem, round_), oracle(stem, round_)["generated_pairing"]
    ro = roster(state)
    by_name = {ro.name[t]: t for t in ro.ids}
    facts = board_facts(state, round_)

    def name(pid: str) -> str:
        p = state.players[pid]
        return f"{p.surname}, {p.first_name}"

    paired = 0
    for match in want["matches"]:
        if "refused" in match:
            with pytest.raises(CommandRejected):
                pair_match(state, round_, by_name[match["t0"]], by_name[match["t1"]], facts=facts, ro=ro)
            continue
        got = pair_match(state, round_, by_name[match["t1"]], by_name[match["t0"]], facts=facts, ro=ro)
        assert ro.name[got.t0] == match["t0"]
        assert list(got.balance) == match["board1_wb_balance"] and got.det_random == match["board1_detRandom"]
        assert [(b.board, b.table, name(b.white), name(b.black), b.handicap, b.t0_white) for b in got.boards] == [
            (b["board"], b["table"], b["white"], b["black"], b["handicap"], b["t0_white"]) for b in match["boards"]]
        paired += 1
        for b in got.boards:
            state.seq += 1
            apply(state, ev.GamePaired(round=round_, table=b.table, white=b.white, black=b.black, handicap=b.handicap))
    assert paired == want["n_paired"]


def test_pair_teams_through_the_cli_records_the_boards(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "t.db"
    assert cli("new", "--name", "T", "--rounds", "2", "--system", "team-swiss", "--boards", "2", "--db", db).code == 0
    for k, rank in enumerate(("3d", "1d", "2d", "5k"), start=1):
        assert cli("register", "--surname", f"S{k}", "--rank", rank, "--db", db).code == 0
    for team in ("A", "B"):
        assert cli("team", "add", team, "--db", db).code == 0
    for team, pid, board in (("A", "p0001", 1), ("A", "p0002", 2), ("B", "p0003", 1), ("B", "p0004", 2)):
        assert cli("team", "assign", team, pid, "--board", str(board), "--db", db).code == 0
    dry = cli("pair-teams", "1", "B", "A", "--dry-run", "--json", "--db", db)
    assert dry.code == 0, dry.err
    data = json.loads(dry.out)
    assert data["t0"] == "A" and data["dry_run"] and [b["table"] for b in data["boards"]] == [1, 2]
    assert len(json.loads(cli("log", "--json", "--db", db).out)) == 11
    done = cli("pair-teams", "1", "A", "B", "--db", db)
    assert done.code == 0 and "A – B paired on 2 boards" in done.out
    games = json.loads(cli("pairings", "--round", "1", "--json", "--db", db).out)
    boards = [(t["table"], {t["white_id"], t["black_id"]}, t["white_id"]) for t in games["tables"]]
    assert [(t, pair) for t, pair, _ in boards] == [(1, {"p0001", "p0003"}), (2, {"p0002", "p0004"})]
    team_a = {"p0001", "p0002"}
    assert (boards[0][2] in team_a) != (boards[1][2] in team_a)  # even boards: colours alternate
    again = cli("pair-teams", "1", "A", "B", "--db", db, "--json")
    assert again.code == 1 and "already has a game" in json.loads(again.err)["error"]


def _league(teams: int = 8, boards: int = 3, rounds: int = 4, system: str = "team-swiss") -> TournamentState:
    """``teams`` teams of ``boards`` players; teams 1–2 share the club Paris, the others have their own."""
    from goledger.commands.teams import decide_team_add, decide_team_assign

    settings = ev.TournamentSettings(name="League", rounds=rounds, system=system,  # type: ignore[arg-type]
                                     system_options={"boards": boards}, criteria=("NBW", "SOSW"))
    state = fold([ev.TournamentCreated(settings=settings)])

    def run(events: list[ev.Event]) -> None:
        for e in events:
            state.seq += 1
            apply(state, e)

    ranks = ["5d", "3d", "2d", "1d", "1k", "2k", "4k", "6k", "8k", "10k", "12k", "15k"]
    for k in range(teams * boards):
        club = "Paris" if k // boards < 2 else f"Club{k // boards}"
        run([ev.PlayerRegistered(player_id=f"p{k + 1:04d}", surname=f"Player{k + 1}", first_name="X",
                                 rank=ranks[(k * 5) % len(ranks)], club=club, rating=2000 + 10 * k)])
    for t in range(teams):
        run(decide_team_add(state, f"Team {chr(65 + t)}"))
        for b in range(boards):
            run(decide_team_assign(state, f"Team {chr(65 + t)}", f"p{t * boards + b + 1:04d}", b + 1))
    return state


def _pair_and_play(state: TournamentState, round_: int) -> list[ev.Event]:
    """What ``pair-round`` records for a team round (its own request, engine and events), then a
    result on every board (the stronger rank wins, White on equal ranks)."""
    from goledger.commands.pairing import _check_output, _events
    from goledger.ledger.values import Rank, Result
    from goledger.systems import engine_for

    engine = engine_for(state)
    request = engine.request(state, round_, None, 0)  # type: ignore[attr-defined]
    pairing = engine.pair(state, request)
    _check_output(request, pairing, state)
    events = _events(request, pairing)
    for g in pairing.games:
        w, b = Rank.parse(state.players[g.white].rank), Rank.parse(state.players[g.black].rank)
        events.append(ev.ResultRecorded(round=round_, table=g.table,
                                        result=Result.BLACK if b > w else Result.WHITE))
    for e in events:
        state.seq += 1
        apply(state, e)
    return events


def test_pair_round_pairs_8_teams_of_3_for_4_rounds() -> None:
    from goledger.teams.standings import matches_of_round, team_standings

    state = _league()
    ro = roster(state)
    seen: set[frozenset[str]] = set()
    for r in range(1, 5):
        events = _pair_and_play(state, r)
        paired = events[0]
        assert isinstance(paired, ev.RoundPaired) and paired.engine == "teams" and paired.version == "1"
        assert paired.parameters["teams"].count(",") == 7 and "match.4" in paired.parameters
        matches = matches_of_round(state, r, ro)
        assert len(matches) == 4
        teams = [t for m in matches for t in (m.team_a, m.team_b)]
        assert sorted(teams) == sorted(ro.ids), f"round {r}: every team exactly once"
        for m in matches:
            pair = frozenset((m.team_a, m.team_b))
            assert pair not in seen, f"round {r} repeats a match"
            seen.add(pair)
            assert [b.board for b in m.boards] == [1, 2, 3] and all(b.play_each_other for b in m.boards)
            for b in m.boards:  # board i against board i
                assert ro.members(state, m.team_a, r)[b.board] == b.a_player
                assert ro.members(state, m.team_b, r)[b.board] == b.b_player
        tables = sorted(g.table for g in state.games_of_round(r))
        assert tables == list(range(1, 13))
    standings = team_standings(state, 4)
    assert sum(r.values[0] for r in standings.rows) == 2 * 4 * 4  # every match gives 2 team points (3 boards)
    assert standings.rows[0].values[0] >= standings.rows[-1].values[0]
    assert frozenset(("t001", "t002")) not in seen  # the two Paris teams were kept apart


def test_an_odd_team_gets_the_bye_and_a_repeat_is_refused_when_unavoidable() -> None:
    state = _league(teams=3, boards=2, rounds=4)
    byes = []
    for r in range(1, 4):
        events = _pair_and_play(state, r)
        paired = events[0]
        assert isinstance(paired, ev.RoundPaired)
        byes.append(paired.parameters["bye_team"])
        assert "fewest idle rounds" in paired.parameters["bye_rule"]
    assert sorted(byes) == ["t001", "t002", "t003"]
    from goledger.teams.swiss import plan_round

    with pytest.raises(CommandRejected, match="without a repeated match"):
        plan_round(state, 4)


def test_pair_round_refuses_an_incomplete_team() -> None:
    from goledger.teams.swiss import plan_round

    state = _league(teams=2, boards=2, rounds=2)
    state.seq += 1
    apply(state, ev.TeamMemberRemoved(team_id="t002", player_id="p0004", round=1))
    with pytest.raises(CommandRejected, match="nobody on board 2"):
        plan_round(state, 1)


def test_pair_round_on_a_team_tournament_through_the_cli(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "t.db"
    assert cli("new", "--name", "T", "--rounds", "2", "--system", "team-mcmahon", "--boards", "2",
               "--db", db).code == 0
    for k, rank in enumerate(("3d", "1d", "2d", "5k", "1k", "3k"), start=1):
        assert cli("register", "--surname", f"S{k}", "--rank", rank, "--db", db).code == 0
    for t, team in enumerate(("A", "B", "C")):
        assert cli("team", "add", team, "--db", db).code == 0
        for b in (1, 2):
            assert cli("team", "assign", team, f"p{2 * t + b:04d}", "--board", str(b), "--db", db).code == 0
    dry = cli("pair-round", "1", "--dry-run", "--json", "--db", db)
    assert dry.code == 0, dry.err
    done = cli("pair-round", "1", "--json", "--db", db)
    assert done.code == 0, done.err
    log = json.loads(cli("log", "--json", "--db", db).out)
    paired = [e for e in log if e["type"] == "RoundPaired"]
    assert len(paired) == 1 and paired[0]["payload"]["engine"] == "teams"
    assert paired[0]["payload"]["parameters"]["bye_team"] in ("t001", "t002", "t003")
    assert len([e for e in log if e["type"] == "GamePaired"]) == 2
    why = cli("explain-pairing", "1", "--json", "--db", db)
    assert why.code == 0, why.err
    games = json.loads(why.out)["games"]
    assert len(games) == 2 and set(games[0]["chosen"]["terms"]) == {"score", "boards", "club", "fold"}
    check = cli("pair-round", "1", "--check", "--db", db)
    assert check.code == 0 and "re-derived exactly" in check.out, check.out
    refused = cli("pair-round", "1", "--players", "p0001,p0002", "--json", "--db", db)
    assert refused.code == 1 and "pairs whole teams" in json.loads(refused.err)["error"]
