"""Hand edits that follow the rules (issue 31): ``pair`` by the tournament's rule,
``edit-game``, ``renumber-tables``, late registration, and the better refusals.

The rules are tested on the deciders (events folded in memory); every command and refusal a
director types is tested through the CLI in a subprocess: exit 1, one sentence, log unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from goledger import commands
from goledger.commands.hand import (
    best_score_order,
    decide_edit_game,
    decide_late_absences,
    decide_pair,
    decide_renumber_tables,
    first_free_table,
)
from goledger.commands.hand_rules import GameRule
from goledger.errors import CommandRejected
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.ledger.values import Result
from goledger.replay.fold.state import TournamentState, fold
from goledger.replay.views import state_as_of
from tests.conftest import run_cli

# --------------------------------------------------------------------------- in memory

PLAYERS = [("p0001", "Fischer", "Ann", "1k"), ("p0002", "Smet", "Bo", "6k"), ("p0003", "Abe", "Cy", "3k"),
           ("p0004", "Dal", "Di", "3k"), ("p0005", "Eko", "Ed", "2d"), ("p0006", "Fon", "Fa", "2d")]


def _state(*more: ev.Event, system: str = "mcmahon") -> TournamentState:
    base: list[ev.Event] = [ev.TournamentCreated(settings=ev.TournamentSettings(
        name="T", rounds=4, system=system, mm_bar="4d", mm_floor="20k", criteria=("MMS", "SOSM")))]  # type: ignore[arg-type]
    base += [ev.PlayerRegistered(player_id=i, surname=s, first_name=f, rank=r) for i, s, f, r in PLAYERS]
    return fold([*base, *more])


def test_the_rule_gives_the_handicap_game_the_issue_asked_for() -> None:
    # McMahon difference 5 (1k against 6k): 4 stones (correction 1) and komi ½, the stronger White,
    # whichever order the director names them in.
    state = _state()
    for first, second in (("Smet", "Fischer"), ("Fischer", "Smet")):
        (event,) = decide_pair(state, 1, first, second)
        assert isinstance(event, ev.GamePaired)
        assert (event.white, event.black, event.handicap, event.komi, event.by_hand) == (
            "p0001", "p0002", 4, None, ())


def test_pair_and_pair_round_agree_on_every_pair() -> None:
    # The engine's own games, asked again one by one: same colours, handicap and komi.
    from goledger.pairing.engine import PairingRequest
    from goledger.pairing.opengotha import ENGINE

    state = _state()
    pairing = ENGINE.pair(state, PairingRequest(round=1, players=tuple(p[0] for p in PLAYERS)))
    rule = GameRule(state, 1)
    for g in pairing.games:
        (event,) = decide_pair(state, 1, g.black, g.white, rule=rule)
        assert isinstance(event, ev.GamePaired)
        assert (event.white, event.black, event.handicap, event.komi) == (g.white, g.black, g.handicap, g.komi)


def test_hand_colours_keep_the_rule_s_handicap_or_refuse_against_it() -> None:
    state = _state()
    (even,) = decide_pair(state, 1, "Dal", "Abe", colours_by_hand=True)
    assert isinstance(even, ev.GamePaired)
    assert (even.white, even.black, even.handicap, even.by_hand) == ("p0004", "p0003", 0, ("colours",))
    with pytest.raises(CommandRejected, match="gives Fischer Ann White with handicap 4"):
        decide_pair(state, 1, "Smet", "Fischer", colours_by_hand=True)
    (given,) = decide_pair(state, 1, "Smet", "Fischer", colours_by_hand=True, handicap=0, komi="6.5")
    assert isinstance(given, ev.GamePaired)
    assert (given.white, given.handicap, given.komi, given.by_hand) == ("p0002", 0, "6.5",
                                                                         ("colours", "handicap", "komi"))


def test_other_systems_take_their_own_rule() -> None:
    # The handicap system: stones = the rank difference (no correction by default), komi ½.
    state = _state(system="handicap")
    (event,) = decide_pair(state, 1, "Smet", "Fischer")
    assert isinstance(event, ev.GamePaired)
    assert (event.white, event.black, event.handicap, event.komi) == ("p0001", "p0002", 5, "0.5")


def test_first_free_table_and_a_fixed_table() -> None:
    state = _state(ev.GamePaired(round=1, table=1, white="p0005", black="p0006"),
                   ev.GamePaired(round=1, table=3, white="p0003", black="p0004"))
    assert first_free_table(state, 1) == 2
    fixed = fold([ev.TableFixed(player_id="p0001", table=7)], start=state)
    assert first_free_table(fixed, 1, ("p0001", "p0002")) == 7
    assert first_free_table(fold([ev.TableFixed(player_id="p0003", table=2)], start=state), 1) == 4


def _played() -> TournamentState:
    """Round 1 played: Eko beat Fon (table 1), Abe beat Dal (table 2), Fischer–Smet open (3)."""
    return _state(
        ev.GamePaired(round=1, table=1, white="p0005", black="p0006"),
        ev.GamePaired(round=1, table=2, white="p0003", black="p0004"),
        ev.GamePaired(round=1, table=3, white="p0001", black="p0002", handicap=4),
        ev.ResultRecorded(round=1, table=1, result=Result.WHITE),
        ev.ResultRecorded(round=1, table=2, result=Result.WHITE),
    )


def test_one_event_per_edit_and_the_result_follows_the_players() -> None:
    state = _played()
    events = decide_edit_game(state, 1, 3, swap_colours=True, handicap=0, komi="7", move_to=9)
    assert [type(e).__name__ for e in events] == ["GameEdited", "GameEdited", "GameEdited", "GameMoved"]
    after = fold(events, start=state)
    game = after.games[1][9]
    assert (game.white, game.black, game.handicap, game.komi) == ("p0002", "p0001", 0, "7")
    assert 3 not in after.games[1] and after.game_of("p0001", 1) is game

    with pytest.raises(CommandRejected, match="already has a result"):
        decide_edit_game(state, 1, 2, swap_colours=True)
    forced = decide_edit_game(state, 1, 2, swap_colours=True, force=True)
    assert forced == [ev.GameEdited(round=1, table=2, swap_colours=True, forced=True)]
    swapped = fold(forced, start=state).games[1][2]
    assert (swapped.white, swapped.result) == ("p0004", Result.BLACK)  # Abe still won
    assert swapped.points2("p0003") == 2


def test_move_to_an_occupied_table_swaps_the_two_games_with_their_results() -> None:
    state = _played()
    with pytest.raises(CommandRejected, match="table 1 already has a result"):
        decide_edit_game(state, 1, 3, move_to=1)
    events = decide_edit_game(state, 1, 3, move_to=1, force=True)
    assert events == [ev.GameMoved(round=1, table=3, to_table=1, forced=True)]
    after = fold(events, start=state)
    assert (after.games[1][1].white, after.games[1][3].white) == ("p0001", "p0005")
    assert after.games[1][3].result is Result.WHITE and after.games[1][1].result is Result.UNKNOWN


@pytest.mark.parametrize(("kwargs", "message"), [
    ({}, "needs an edit"),
    ({"handicap": 4}, "already has handicap 4"),
    ({"handicap": 10}, "outside 0..9"),
    ({"komi": "6.3"}, "whole or half"),
    ({"move_to": 3}, "already at table 3"),
    ({"move_to": 0}, "1 or more"),
])
def test_edit_refusals(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(CommandRejected, match=message):
        decide_edit_game(_played(), 1, 3, **kwargs)  # type: ignore[arg-type]


def test_renumbering_follows_opengotha_s_order_and_keeps_the_games() -> None:
    state = _played()
    # Round 2: the winners meet at table 3, the others at 1 and 2.
    state = fold([ev.GamePaired(round=2, table=3, white="p0005", black="p0003"),
                  ev.GamePaired(round=2, table=1, white="p0006", black="p0004"),
                  ev.GamePaired(round=2, table=2, white="p0001", black="p0002"),
                  ev.ResultRecorded(round=2, table=3, result=Result.BLACK)], start=state)
    order = best_score_order(state, 2)
    assert order[0].white == "p0005"  # the winners' game first (best score, then rating)
    (event,) = decide_renumber_tables(state, 2, start=25, skip="26")
    assert isinstance(event, ev.TablesRenumbered)
    after = fold([event], start=state)
    assert sorted(after.games[2]) == [25, 27, 28]
    first = after.games[2][25]
    assert (first.white, first.black, first.result) == ("p0005", "p0003", Result.BLACK)
    with pytest.raises(CommandRejected, match="already numbered this way"):
        decide_renumber_tables(after, 2, start=25, skip="26")
    (shift,) = decide_renumber_tables(after, 2, start=1, keep_order=True)
    assert isinstance(shift, ev.TablesRenumbered) and dict(shift.tables) == {25: 1, 27: 2, 28: 3}
    pinned = fold([ev.TableFixed(player_id="p0002", table=1, from_round=2)], start=state)
    (kept,) = decide_renumber_tables(pinned, 2)
    moved = fold([kept], start=pinned)
    assert moved.games[2][1].white == "p0001" and moved.games[2][2].white == "p0005"
    with pytest.raises(CommandRejected, match="round 3 is not paired yet"):
        decide_renumber_tables(state, 3)


def test_late_absences() -> None:
    state = _played()
    assert decide_late_absences(state, "p0099") == [
        ev.ParticipationChanged(player_id="p0099", round=1, participating=False)]
    assert [e.round for e in decide_late_absences(state, "p0099", 3)] == [1, 2]  # type: ignore[attr-defined]
    assert decide_late_absences(_state(), "p0099") == []


# --------------------------------------------------------------------------- through the CLI


def _ledger(tmp_path: Path) -> Path:
    db = tmp_path / "t.db"
    commands.new(db, "Hand", 4, bar="4d", floor="20k")
    for _, surname, first, rank in PLAYERS:
        commands.register(db, surname, first, rank)
    return db


def _head(db: Path) -> int:
    with Ledger.open(db) as ledger:
        return ledger.head().seq


def _refused(db: Path, *args: str, message: str) -> None:
    head = _head(db)
    res = run_cli(*args, "--db", db)
    assert res.code == 1, res
    assert message in res.err and res.err.count("\n") == 1, res.err
    assert _head(db) == head


def test_pair_by_the_rule_through_the_cli(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    dry = run_cli("pair", "--db", db, "--round", "1", "Smet", "Fischer", "--dry-run")
    assert dry.code == 0 and dry.out.startswith("(dry run, nothing written) round 1 table 1: Fischer Ann (W) – Smet "
                                                 "Bo (B), handicap 4, komi 0.5"), dry
    assert _head(db) == 7
    res = run_cli("pair", "--db", db, "--round", "1", "Smet", "Fischer", "--json")
    assert res.code == 0, res
    data = json.loads(res.out)
    assert data["events"][0]["payload"]["by_hand"] == [] and data["game"]["komi"] == "0.5"
    assert data["game"]["white"]["id"] == "p0001" and data["game"]["handicap"] == 4
    hand = run_cli("pair", "--db", db, "--round", "1", "--white", "Dal", "--black", "Abe", "--komi", "6.5", "--json")
    assert hand.code == 0, hand
    payload = json.loads(hand.out)["events"][0]["payload"]
    assert (payload["table"], payload["white"], payload["by_hand"]) == (2, "p0004", ["colours", "komi"])
    shown = run_cli("pairings", "--db", db, "--round", "1", "--json")
    rows = json.loads(shown.out)["tables"]
    assert [(r["table"], r["white_id"], r["handicap"], r["komi"]) for r in rows] == [
        (1, "p0001", 4, "0.5"), (2, "p0004", 0, "6.5")]
    # the first free table: table 1 freed, the next game takes it
    commands.unpair(db, 1, 1)
    again = run_cli("pair", "--db", db, "--round", "1", "Eko", "Fon", "--json")
    assert json.loads(again.out)["game"]["table"] == 1


def test_pair_refusals_through_the_cli(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    commands.pair(db, 1, players=["Eko", "Fon"])
    _refused(db, "pair", "--round", "1", "--white", "Smet", "--black", "Fischer",
             message="the tournament's rule gives Fischer Ann White with handicap 4; with Smet Bo White give the "
                     "handicap by hand")
    _refused(db, "pair", "--round", "1", "Smet", message="pair takes two players, not 1")
    _refused(db, "pair", "--round", "1", "Smet", "Abe", "--white", "Dal", message="not both")
    _refused(db, "pair", "--round", "1", "Smet", "Eko", message="already paired in round 1 (table 1)")
    _refused(db, "pair", "--round", "1", "Smet", "Abe", "--table", "1", message="table 1 of round 1 is taken")
    _refused(db, "pair", "--round", "1", "Smet", "Abe", "--handicap", "12", message="handicap 12 is outside 0..9")
    res = run_cli("pair", "--db", db, "--round", "1", "--white", "Smet", "--black", "Fischer", "--handicap", "0")
    assert res.code == 0 and "colours, handicap by hand" in res.out, res


def test_edit_game_through_the_cli(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    commands.pair(db, 1, players=["Eko", "Fon"])
    commands.pair(db, 1, players=["Abe", "Dal"])
    res = run_cli("edit-game", "--db", db, "--round", "1", "--table", "2", "--swap-colours", "--handicap", "1",
                  "--komi", "0.5", "--json")
    assert res.code == 0, res
    events = json.loads(res.out)["events"]
    assert [e["type"] for e in events] == ["GameEdited"] * 3
    moved = run_cli("edit-game", "--db", db, "--round", "1", "--table", "2", "--move-to", "1")
    assert moved.code == 0 and "moved to table 1, swapped with F" in moved.out, moved
    rows = json.loads(run_cli("pairings", "--db", db, "--round", "1", "--json").out)["tables"]
    state = state_as_of(db)
    edited = state.games[1][1]
    assert [r["table"] for r in rows] == [1, 2] and rows[0]["white_id"] == edited.white
    assert (edited.handicap, edited.komi, {state.games[1][2].white, state.games[1][2].black}) == (
        1, "0.5", {"p0005", "p0006"})
    log = run_cli("log", "--db", db)
    assert "GameEdited" in log.out and "GameMoved" in log.out
    history = run_cli("history", "--db", db, edited.white)
    assert "colours swapped" in history.out and "moved to table 1" in history.out, history.out
    diff = run_cli("diff", "--db", db, "--from", "9")
    assert diff.code == 0 and "GameEdited" in diff.out and "GameMoved" in diff.out, diff

    commands.result(db, 1, 1, "white")
    winner = state_as_of(db).games[1][1].white
    _refused(db, "edit-game", "--round", "1", "--table", "1", "--swap-colours",
             message="round 1 table 1 already has a result (white); use --force to swap its colours anyway")
    _refused(db, "edit-game", "--round", "1", "--table", "1", message="edit-game needs an edit")
    _refused(db, "edit-game", "--round", "1", "--table", "5", "--komi", "7", message="round 1 has no table 5")
    _refused(db, "edit-game", "--round", "2", "--table", "1", "--komi", "7", message="round 2 is not paired yet")
    forced = run_cli("edit-game", "--db", db, "--round", "1", "--table", "1", "--swap-colours", "--force")
    assert forced.code == 0 and "forced" in forced.out, forced
    game = state_as_of(db).games[1][1]
    assert game.black == winner and game.result is Result.BLACK  # the result stayed with the winner


def test_renumber_tables_through_the_cli(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    commands.pair(db, 1, players=["Eko", "Fon"])
    commands.pair(db, 1, players=["Abe", "Dal"])
    commands.pair(db, 1, players=["Fischer", "Smet"])
    commands.result(db, 1, 3, "black")
    res = run_cli("renumber-tables", "--db", db, "--round", "1", "--start", "25", "--skip", "26")
    assert res.code == 0 and "3 of 3 games change tables (best score, then rating" in res.out, res
    state = state_as_of(db)
    assert sorted(state.games[1]) == [25, 27, 28]
    moved = next(g for g in state.games[1].values() if g.white == "p0001")
    assert moved.result is Result.BLACK  # the result followed its game
    _refused(db, "renumber-tables", "--round", "1", "--start", "25", "--skip", "26",
             message="already numbered this way")
    _refused(db, "renumber-tables", "--round", "1", "--skip", "x", message="--skip 'x' is not a table number")
    _refused(db, "renumber-tables", "--round", "2", message="round 2 is not paired yet")
    shift = run_cli("renumber-tables", "--db", db, "--round", "1", "--keep-order")
    assert shift.code == 0 and sorted(state_as_of(db).games[1]) == [1, 2, 3]


def test_late_registration_through_the_cli(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    commands.pair(db, 1, players=["Eko", "Fon"])
    late = run_cli("register", "--db", db, "--surname", "Late", "--first-name", "Lu", "--rank", "2k")
    assert late.code == 0 and "absent in round 1 (registered late): each counts as an announced absence under " \
                              "policy opengotha: 0 points in NBW and ½ in MMS" in late.out, late
    later = run_cli("register", "--db", db, "--surname", "Later", "--rank", "2k", "--joins-round", "3", "--json")
    assert [e["type"] for e in json.loads(later.out)["events"]] == ["PlayerRegistered"] + [
        "ParticipationChanged"] * 2
    players = {r["surname"]: r for r in json.loads(run_cli("players", "--db", db, "--json").out)["players"]}
    assert (players["Late"]["absent"], players["Late"]["plays"]) == ([1], [2, 3, 4])
    assert (players["Later"]["absent"], players["Later"]["plays"]) == ([1, 2], [3, 4])
    assert players["Smet"]["not_paired"] == [1] and players["Eko"]["plays"] == [1, 2, 3, 4]
    text = run_cli("players", "--db", db)
    assert "plays 3–4 · absent 1–2" in text.out, text.out
    _refused(db, "pair", "--round", "1", "Late", "Smet", message="is marked absent in round 1")
    _refused(db, "register", "--surname", "Last", "--rank", "2k", "--joins-round", "9",
             message="round 9 is outside 1..4")


def test_better_refusals_through_the_cli(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    commands.pair(db, 1, players=["Eko", "Fon"])
    _refused(db, "result", "--round", "2", "--table", "1", "white", message="round 2 is not paired yet")
    _refused(db, "result", "--round", "1", "--table", "4", "white", message="round 1 has no table 4")
    res = run_cli("withdraw", "--db", db, "Smet", "--from-round", "2")
    assert res.code == 0 and "under policy opengotha each round from the withdrawal on counts as an announced " \
                             "absence" in res.out and "goledger explain p0002" in res.out, res


def test_what_if_refolds_a_result_of_an_edited_round() -> None:
    """A result event of a round with a swapped or moved game may not be about the game now at
    its table: leaving it out refolds (``goledger.replay.fold.without``)."""
    from goledger.replay.fold.without import PlayerEvents, scoring_state_without

    events: list[ev.Event] = [ev.TournamentCreated(settings=ev.TournamentSettings(name="T", rounds=2))]
    events += [ev.PlayerRegistered(player_id=i, surname=s, first_name=f, rank=r) for i, s, f, r in PLAYERS[:2]]
    events += [ev.GamePaired(round=1, table=1, white="p0001", black="p0002"),
               ev.ResultRecorded(round=1, table=1, result=Result.WHITE),
               ev.GameEdited(round=1, table=1, swap_colours=True, forced=True),
               ev.ResultCorrected(round=1, table=1, result=Result.JIGO, reason="slip")]
    index = PlayerEvents(events)
    assert scoring_state_without(fold(events), index, len(events)) is None
    without = fold(events[:-1])
    assert without.games[1][1].result is Result.BLACK and without.games[1][1].points2("p0001") == 2
