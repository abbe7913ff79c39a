"""The desk's pairing page (issue 43, item 4) over HTTP on a running ``goledger serve``: hand
pairing by picking two unpaired players, the rule's game shown before it is recorded and
recorded as shown; the round's games selected to swap colours, move or exchange tables; and
forbidden pairs, fixed pairings and fixed tables as a page, which hand pairing then keeps to."""

from __future__ import annotations

import html
import re
from pathlib import Path

import httpx
import pytest

from goledger import commands
from goledger.commands.hand import decide_pair
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.ledger.values import effective_komi
from goledger.replay.loading.load import load_state
from tests.desk_server import DeskServer
from tests.web.test_web_pair_round import Director, head, play

PLAYERS = [("Fischer", "Ann", "1k"), ("Smet", "Bo", "6k"), ("Abe", "Cy", "3k"), ("Dal", "Di", "3k"),
           ("Ek", "Ed", "9k"), ("Fu", "Fa", "2d")]


@pytest.fixture
def hall(tmp_path: Path) -> Path:
    db = tmp_path / "hall.db"
    commands.new(db, "Hall Open", 3, bar="4d", floor="20k")
    for surname, first, rank in PLAYERS:
        commands.register(db, surname, first, rank)
    return db


def state(db: Path) -> object:
    with Ledger.open(db) as ledger:
        return load_state(ledger)


def form_of(page: str, form_id: str) -> tuple[str, dict[str, str]]:
    found = re.search(rf'<form method="post" action="(/desk/do/[a-z-]+)"[^>]*id="{form_id}">(.*?)</form>', page, re.S)
    assert found, f"the page has #{form_id}"
    return found.group(1), {k: html.unescape(v) for k, v in
                            re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', found.group(2))}


def test_hand_pairing_picks_two_players_and_records_the_game_it_showed(hall: Path) -> None:
    with DeskServer(hall) as desk:
        director = Director(desk)
        page = director.page(1).text
        picks = re.search(r'<select name="white" id="pair-white">(.*?)</select>', page, re.S)
        assert picks, "the unpaired players are offered in a list"
        offered = re.findall(r'<option value="(p\d{4})">([^<]+)</option>', picks.group(1))
        assert [name.split()[0] for _, name in offered] == sorted(s for s, _, _ in PLAYERS)  # by name
        before = head(hall)
        shown = director.page(1, "?white=p0002&black=p0001&colours=rule").text
        assert head(hall) == before, "showing the game writes nothing"
        expected = decide_pair(load_state(Ledger.open(hall)), 1, "p0002", "p0001")[0]  # type: ignore[arg-type]
        assert isinstance(expected, ev.GamePaired)
        komi = effective_komi("7.5", expected.komi, expected.handicap)
        game = re.search(r'<p id="pair-game">(.*?)</p>', shown)
        assert game and html.unescape(game.group(1)) == (
            f"Table {expected.table}: Fischer Ann (White) – Smet Bo (Black), handicap {expected.handicap}, "
            f"komi {komi}"), game
        unsaid = director.page(1, "?white=p0002&black=p0001").text  # no colours chosen: the rule's
        assert '<option value="rule" selected>' in unsaid and game.group(0) in unsaid
        action, fields = form_of(shown, "pair-record")
        assert director.client.post(action, data=fields).status_code == 303
        recorded = load_state(Ledger.open(hall)).games[1][expected.table]
        assert (recorded.white, recorded.black, recorded.handicap) == (expected.white, expected.black,
                                                                       expected.handicap)
        # the rule gives Fischer White with a handicap: Smet White as picked is refused in the page
        agrees = director.page(1, "?white=p0004&black=p0005&colours=picked").text
        assert 'id="pair-problem"' not in agrees  # the colours picked are the rule's: shown
        problem = director.page(1, "?white=p0005&black=p0006&colours=picked").text
        sentence = re.search(r'<p class="msg refused" id="pair-problem">(.*?)</p>', problem)
        assert sentence and "gives Fu Fa White with handicap" in html.unescape(sentence.group(1))
        assert 'id="pair-record"' not in problem and head(hall) == before + 1


def test_the_players_to_pick_show_their_score_as_opengotha_lists_them(hall: Path) -> None:
    from goledger.ledger.values import format_points
    from goledger.replay.scoring.standings import standings

    commands.pair_round(hall, 1)
    play(hall, 1)
    table = standings(load_state(Ledger.open(hall)), 1)
    shown = {row.player_id: f"MMS {format_points(row.values['MMS'], table.scales['MMS'])}" for row in table.rows}
    with DeskServer(hall) as desk:
        page = Director(desk).page(2).text
    picks = re.search(r'<select name="white" id="pair-white">(.*?)</select>', page, re.S)
    assert picks
    offered = dict(re.findall(r'<option value="(p\d{4})">[^<]*, (MMS [^)<]+)\)</option>', picks.group(1)))
    assert offered == shown and len(offered) == len(PLAYERS)


def test_selected_games_swap_colours_move_and_exchange_tables(hall: Path) -> None:
    for table, (white, black) in enumerate((("p0001", "p0002"), ("p0003", "p0004"), ("p0005", "p0006")), 1):
        commands.pair(hall, 1, white, black, table, 0)
    with DeskServer(hall) as desk:
        director = Director(desk)
        action, fields = form_of(director.page(1).text, "games-form")
        assert action == "/desk/do/edit-games"
        before = head(hall)
        nothing = director.client.post(action, data={**fields, "what": "swap"})
        assert nothing.status_code == 400 and "select the games first" in nothing.text and head(hall) == before
        swapped = director.client.post(action, data={**fields, "what": "swap", "game_1": "1", "game_3": "1"})
        assert swapped.status_code == 303 and head(hall) == before + 2  # one event per game, one write
        games = load_state(Ledger.open(hall)).games[1]
        assert [(games[t].white, games[t].black) for t in (1, 2, 3)] == [
            ("p0002", "p0001"), ("p0003", "p0004"), ("p0006", "p0005")]
        _, fields = form_of(director.page(1).text, "games-form")
        exchanged = director.client.post(action, data={**fields, "what": "exchange", "game_1": "1", "game_2": "1"})
        assert exchanged.status_code == 303
        games = load_state(Ledger.open(hall)).games[1]
        assert (games[1].white, games[2].white) == ("p0003", "p0002")
        _, fields = form_of(director.page(1).text, "games-form")
        two = director.client.post(action, data={**fields, "what": "move", "move_to": "9", "game_1": "1",
                                                 "game_3": "1"})
        assert two.status_code == 400 and "select one game to move (2 are selected)" in two.text
        moved = director.client.post(action, data={**fields, "what": "move", "move_to": "9", "game_3": "1"})
        assert moved.status_code == 303
        assert sorted(load_state(Ledger.open(hall)).games[1]) == [1, 2, 9]


def test_constraints_as_a_page(hall: Path) -> None:
    with DeskServer(hall) as desk:
        director = Director(desk)
        page = director.client.get("/desk/constraints").text
        assert 'id="no-forbidden-pairs"' in page and 'id="no-fixed-tables"' in page
        action, fields = form_of(page, "forbid-form")
        done = director.client.post(action, data={**fields, "player_a": "p0001", "player_b": "p0002",
                                                  "kind": "forbidden", "from_round": "", "until_round": ""})
        assert done.status_code == 303
        page = director.client.get("/desk/constraints").text
        assert re.search(r'<table id="forbidden-pairs">.*Fischer Ann.*Smet Bo.*never paired', page, re.S)
        # hand pairing keeps to it: the two are refused in the page, in the command's words
        shown = director.page(1, "?white=p0001&black=p0002&colours=rule").text
        assert "must not be paired in round 1" in html.unescape(shown) and 'id="pair-record"' not in shown
        action, fields = form_of(page, "fix-table-form")
        assert director.client.post(action, data={**fields, "player": "p0003", "table": "7",
                                                  "from_round": "1"}).status_code == 303
        action, fields = form_of(director.client.get("/desk/constraints").text, "fix-pairing-form")
        assert director.client.post(action, data={**fields, "player_a": "p0004", "player_b": "p0005",
                                                  "round": "2", "table": ""}).status_code == 303
        page = director.client.get("/desk/constraints").text
        assert re.search(r'<table id="fixed-tables">.*Abe Cy</td><td class="num">7</td>', page, re.S)
        assert re.search(r'<table id="fixed-pairings">.*<td class="num">2</td><td>Dal Di</td><td>Ek Ed</td>', page,
                         re.S)
        s = load_state(Ledger.open(hall))
        assert s.fixed_table("p0003", 1) == 7 and s.constraint_in("p0001", "p0002", 1) == "forbidden"
        # each one lifted by its button
        for button in ("lift-pair-p0001-p0002", "lift-table-p0003", "lift-fixed-2-p0004"):
            page = director.client.get("/desk/constraints").text
            found = re.search(rf'<form method="post" action="(/desk/do/[a-z-]+)" class="inline">((?:(?!</form>).)*'
                              rf'id="{button}".*?)</form>', page, re.S)
            assert found, button
            data = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', found.group(2)))
            assert director.client.post(found.group(1), data=data).status_code == 303, button
        s = load_state(Ledger.open(hall))
        assert s.fixed_table("p0003", 1) is None and s.constraint_in("p0001", "p0002", 1) is None
        assert not s.fixed_pairs.get(2)


def test_the_constraints_page_is_the_directors(hall: Path) -> None:
    with DeskServer(hall) as desk:
        assert httpx.get(f"{desk.url}/desk/constraints", timeout=30).status_code == 401
