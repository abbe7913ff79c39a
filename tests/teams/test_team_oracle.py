"""Team standings and matches against OpenGotha 3.51.02's own (``../shared/team-oracle``): every
round of the six shared team files — place, printed place, every criterion's raw and shown
value, the half-match strings, the matches each team's standings used, and the round's matches
board by board. Skips cleanly without ../shared."""

from __future__ import annotations

import json
from functools import cache

import pytest

from goledger.formats.opengotha.read import read_opengotha
from goledger.replay.fold.state import TournamentState, fold
from goledger.teams.model import roster
from goledger.teams.standings import matches_of_round, team_standings

from ..conftest import SHARED

STEMS = ("TeamEGC2013", "cml2019d2", "tournoi_equipe_LGO_2020", "20201115220455_ull", "TournoiChinois",
         "Tournoi_de_Juvisy")
_RESULT = {"white": "RESULT_WHITEWINS", "black": "RESULT_BLACKWINS", "jigo": "RESULT_EQUAL",
           "both-lose": "RESULT_BOTHLOSE", "both-win": "RESULT_BOTHWIN", "unknown": "RESULT_UNKNOWN"}


def oracle_rounds() -> list[tuple[str, int]]:
    if SHARED is None:
        return []
    out = []
    for stem in STEMS:
        for path in sorted((SHARED / "team-oracle").glob(f"{stem}.r*.json")):
            out.append((stem, int(path.name.rsplit(".r", 1)[1].split(".")[0])))
    return out


@cache
def loaded(stem: str) -> TournamentState:
    assert SHARED is not None
    xml = SHARED / "realdata" / "opengotha" / f"lucvannier_opengotha__{stem}.xml"
    return fold(read_opengotha(xml.read_bytes(), source=xml.name).events)


def oracle(stem: str, round_: int) -> dict:  # type: ignore[type-arg]
    assert SHARED is not None
    return json.loads((SHARED / "team-oracle" / f"{stem}.r{round_}.json").read_text(encoding="utf-8"))


def name(state: TournamentState, pid: str | None) -> str | None:
    if pid is None:
        return None
    p = state.players[pid]
    return f"{p.surname}, {p.first_name}"


ROUNDS = oracle_rounds()


def test_the_sweep_covers_every_shared_round() -> None:
    if SHARED is None:
        pytest.skip("../shared is not present")
    assert len(ROUNDS) == 27 and {s for s, _ in ROUNDS} == set(STEMS)


@pytest.mark.parametrize(("stem", "round_"), ROUNDS, ids=[f"{s}-r{r}" for s, r in ROUNDS])
def test_team_standings_equal_opengotha(stem: str, round_: int) -> None:
    state, want = loaded(stem), oracle(stem, round_)
    got = team_standings(state, round_)
    assert list(got.criteria) == want["criteria"]
    assert got.size == want["team_size"]
    assert [r.name for r in got.rows] == [t["name"] for t in want["teams"]]
    for row, team in zip(got.rows, want["teams"], strict=True):
        assert row.number == team["number"]
        assert row.place == team["place"] and row.place_shown == team["place_export"]
        assert list(row.values) == team["values_list"], row.name
        assert got.shown(row) == team["values_shown"], row.name
        assert list(row.half_matches) == team["half_match"], row.name
        assert [name(state, p) for p in row.members] == team["members"]
        assert [(m.round, m.opponent, m.board1_colour, m.team_score, m.wx2, m.opponent_wx2, list(m.boards_wx2))
                for m in row.matches] == [
            (m["round"], m["opponent"], m["board1_colour"], m["team_score"], m["wx2"], m["opponent_wx2"],
             m["boards_wx2"]) for m in team["matches"]], row.name


@pytest.mark.parametrize(("stem", "round_"), ROUNDS, ids=[f"{s}-r{r}" for s, r in ROUNDS])
def test_matches_of_the_round_equal_opengotha(stem: str, round_: int) -> None:
    state, want = loaded(stem), oracle(stem, round_)
    ro = roster(state)
    got = matches_of_round(state, round_, ro)
    assert len(got) == len(want["matches"])
    for m, w in zip(got, want["matches"], strict=True):
        assert (ro.name[m.team_a], ro.name[m.team_b], m.board1_table) == (w["team_a"], w["team_b"], w["board1_table"])
        both = [wb for wb in w["boards"] if wb["a_player"] is not None and wb["b_player"] is not None]
        assert all(wb["a_wx2"] == wb["b_wx2"] == 0 for wb in w["boards"] if wb not in both)
        for b, wb in zip(m.boards, both, strict=True):
            assert (b.board, name(state, b.a_player), name(state, b.b_player), b.table, b.a_wx2, b.b_wx2,
                    b.play_each_other) == (wb["board"], wb["a_player"], wb["b_player"], wb["table"], wb["a_wx2"],
                                           wb["b_wx2"], wb["a_and_b_play_each_other"])
            game = state.game_of(b.a_player, round_)
            if game is not None:
                assert _RESULT[game.result.value] == wb["result"].removesuffix("_BYDEF")


@pytest.mark.parametrize("stem", [s for s in STEMS if SHARED is not None], ids=str)
def test_team_files_round_trip_through_the_opengotha_writer(stem: str) -> None:
    """Export then import again: teams, numbers, every round's composition, the team
    parameters and the team standings of the last round are the same."""
    from goledger.formats.opengotha.write import write_opengotha
    from goledger.teams.model import team_criteria, team_size

    state = loaded(stem)
    data, _ = write_opengotha(state, source=f"{stem}.xml")
    again = fold(read_opengotha(data, source=f"{stem}.xml").events)
    a, b = roster(state), roster(again)
    assert [(a.name[t], a.number[t]) for t in a.ids] == [(b.name[t], b.number[t]) for t in b.ids]
    assert (team_size(again), team_criteria(again)) == (team_size(state), team_criteria(state))
    for r in range(1, state.rounds + 1):
        assert [a.members(state, t, r) for t in a.ids] == [b.members(again, t, r) for t in b.ids]
    last = state.last_round_with_games()
    assert team_standings(again, last) == team_standings(state, last)


def test_a_team_tournament_made_here_exports_its_boards_round_by_round() -> None:
    from goledger.formats.opengotha.write import write_opengotha
    from goledger.ledger import events as ev

    settings = ev.TournamentSettings(name="L", rounds=3, system="team-swiss", system_options={"boards": 2})
    events: list[ev.Event] = [ev.TournamentCreated(settings=settings)]
    events += [ev.PlayerRegistered(player_id=f"p{k:04d}", surname=f"S{k}", rank="1k") for k in range(1, 4)]
    events += [ev.TeamRegistered(team_id="t001", name="A", number=1),
               ev.TeamMemberAssigned(team_id="t001", player_id="p0001", board=1),
               ev.TeamMemberAssigned(team_id="t001", player_id="p0002", board=2),
               ev.TeamMemberRemoved(team_id="t001", player_id="p0002", from_round=2),
               ev.TeamMemberAssigned(team_id="t001", player_id="p0003", board=2, from_round=2)]
    state = fold(events)
    data, _ = write_opengotha(state)
    assert b'teamSize="2"' in data
    again = fold(read_opengotha(data).events)
    assert [again.teams["t001"].member_slots(r) for r in (1, 2, 3)] == [
        {1: "p0001", 2: "p0002"}, {1: "p0001", 2: "p0003"}, {1: "p0001", 2: "p0003"}]
