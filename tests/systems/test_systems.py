"""The tournament systems through real ledgers (SQLite) and the CLI: the seeds' examples
(spec ``pairing.md`` §1.1: the 8-player fold/adjacent/slide pairings, the 76-player knockout in
7 rounds), places with their reasons, and every refusal (one sentence, nothing written)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import msgspec
import pytest

from goledger import commands as rec
from goledger.errors import CommandRejected, EventDecided
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.systems import places_of
from goledger.systems.bracket import first_round, knockout_rounds
from goledger.systems.continuous import RANKINGS
from tests.systems_support import new_event, pair_next, play_out, state_of

LETTERS = "ABCDEFGH"


def _head(db: Path) -> int:
    with Ledger.open(db) as ledger:
        return ledger.head().seq


def _refused(db: Path, action, *words: str) -> str:  # type: ignore[no-untyped-def]
    """Run ``action``; it must be refused with one sentence naming ``words``, writing nothing."""
    before = _head(db)
    with pytest.raises(CommandRejected) as info:
        action()
    message = str(info.value)
    assert _head(db) == before
    assert message and "\n" not in message and message.rstrip(".").count(". ") == 0, message
    for word in words:
        assert word in message, message
    return message


# --------------------------------------------------------------------------- the seed's examples


@pytest.mark.parametrize(("method", "expected"), [
    ("fold", {"A-H", "B-G", "C-F", "D-E"}),
    ("adjacent", {"A-B", "C-D", "E-F", "G-H"}),
    ("slide", {"A-E", "B-F", "C-G", "D-H"}),
])
def test_eight_players_round_one_by_the_seeds_methods(tmp_path: Path, method: str, expected: set[str]) -> None:
    db = new_event(tmp_path, "knockout", 8, 3, {"method": method}, ranks=lambda i: f"{8 - i}d")
    pairing = pair_next(db, 1)
    letter = {f"p{i + 1:04d}": LETTERS[i] for i in range(8)}
    got = {"-".join(sorted((letter[g.white], letter[g.black]))) for g in pairing.games}
    assert got == expected
    assert [g.table for g in pairing.games] == [1, 2, 3, 4]
    assert letter[pairing.games[0].white] == "A"  # the top seed has table 1 and White
    assert {(a, b) for a, b in first_round(8, method)} == {
        (LETTERS.index(x) + 1, LETTERS.index(y) + 1) for x, y in (p.split("-") for p in expected)}


def test_fold_keeps_the_top_seeds_apart_until_the_final(tmp_path: Path) -> None:
    db = new_event(tmp_path, "knockout", 8, 3, ranks=lambda i: f"{8 - i}d")
    play_out(db, pick=lambda g: "white" if g.white < g.black else "black")  # the better seed always wins
    state = state_of(db)
    final = state.games_of_round(3)[0]
    assert {final.white, final.black} == {"p0001", "p0002"}
    semis = {frozenset((g.white, g.black)) for g in state.games_of_round(2)}
    assert semis == {frozenset(("p0001", "p0004")), frozenset(("p0002", "p0003"))}


def test_the_seeds_76_player_knockout_has_7_rounds(tmp_path: Path) -> None:
    assert knockout_rounds(76) == 7
    db = new_event(tmp_path, "knockout", 76, 7)
    rounds = play_out(db, rng=random.Random(76))
    state = state_of(db)
    assert rounds == 7
    assert [len(state.games_of_round(r)) for r in range(1, 8)] == [12, 32, 16, 8, 4, 2, 1]
    assert sum(len(state.games_of_round(r)) for r in range(1, 8)) == 75
    places = places_of(state)
    assert places.finished and [r.place for r in places.rows[:4]] == [1, 2, 3, 4]
    assert {r.place for r in places.rows[4:8]} == {5}
    assert {r.place for r in places.rows if "round 1 of 7" in r.why} == {65}  # 12 round-1 losers share 65–76
    # the 52 byes of round 1 went to the top 52 seeds
    in_round1 = {p for g in state.games_of_round(1) for p in (g.white, g.black)}
    from goledger.systems.knockout import build_bracket

    seeds = build_bracket(state).seeds
    assert in_round1 == set(seeds[52:])
    _refused(db, lambda: rec.pair(db, 7, seeds[0], seeds[1]), "eliminated")


# --------------------------------------------------------------------------- knockout places and refusals


def test_semi_final_losers_are_placed_by_whom_they_lost_to(tmp_path: Path) -> None:
    db = new_event(tmp_path, "knockout", 4, 2, ranks=lambda i: f"{4 - i}d")
    pair_next(db, 1)  # 1-4 and 2-3
    rec.result(db, 1, 1, "black")  # 4 beats 1
    rec.result(db, 1, 2, "white")  # 2 beats 3
    pair_next(db, 2)
    final = state_of(db).games_of_round(2)[0]
    rec.result(db, 2, 1, "white" if final.white == "p0002" else "black")  # 2 wins the final
    places = places_of(state_of(db))
    assert [(r.place, r.player_id) for r in places.rows] == [(1, "p0002"), (2, "p0004"), (3, "p0003"), (4, "p0001")]
    assert places.explain("p0003").endswith("lost the semi-final to the winner")


def test_third_place_game_decides_three_and_four(tmp_path: Path) -> None:
    db = new_event(tmp_path, "knockout", 4, 2, {"third_place": True}, ranks=lambda i: f"{4 - i}d")
    play_out(db, pick=lambda g: "black")
    state = state_of(db)
    assert len(state.games_of_round(2)) == 2
    places = places_of(state)
    assert [r.why for r in places.rows[2:4]] == ["won the third-place game", "lost the third-place game"]


def test_knockout_refuses_what_the_bracket_forbids(tmp_path: Path) -> None:
    db = new_event(tmp_path, "knockout", 5, 5, ranks=lambda i: f"{5 - i}d")
    _refused(db, lambda: rec.pair(db, 1, "p0001", "p0002"), "p0001", "nobody (a bye)")
    _refused(db, lambda: rec.pair(db, 1, "p0004", "p0003"), "pairs p0004", "p0005")
    _refused(db, lambda: rec.pair(db, 2, "p0001", "p0004"), "round 1 has not decided")
    _refused(db, lambda: rec.bye(db, "p0004", 1), "no bye")
    rec.bye(db, "p0001", 1)  # the bracket's bye may be written down
    rec.pair(db, 1, "p0004", "p0005")
    _refused(db, lambda: rec.result(db, 1, 1, "jigo"), "replay")
    _refused(db, lambda: rec.result(db, 1, 1, "both-lose"), "exactly one")
    rec.result(db, 1, 1, "white")
    _refused(db, lambda: rec.pair(db, 2, "p0005", "p0001"), "eliminated in round 1")
    _refused(db, lambda: rec.pair(db, 4, "p0001", "p0004"), "has 3 rounds")
    rec.register(db, "Late", "", "9d", joins_round=1)  # after round 1's first game: not in the draw
    _refused(db, lambda: rec.pair(db, 1, "p0006", "p0002"), "not in the bracket")
    assert len(places_of(state_of(db)).rows) == 5


def test_a_withdrawal_is_a_walkover(tmp_path: Path) -> None:
    db = new_event(tmp_path, "knockout", 4, 2, ranks=lambda i: f"{4 - i}d")
    rec.withdraw(db, "p0004", 1)  # before round 1: not an entrant
    rec.withdraw(db, "p0003", 2)
    pairing = pair_next(db, 1)  # 3 entrants: 1 has a bye, 2-3 play
    assert [(g.white, g.black) for g in pairing.games] == [("p0002", "p0003")]
    rec.result(db, 1, 1, "black")  # 3 wins, then withdraws from round 2
    with pytest.raises(EventDecided, match="the knockout is decided: P01 won the final by walk-over"):
        pair_next(db, 2)  # nothing left to pair: the final is a walk-over
    places = places_of(state_of(db))
    assert places.finished and places.rows[0].player_id == "p0001"
    assert "walkover" in places.rows[0].why


def test_higher_seed_jigo_rule(tmp_path: Path) -> None:
    db = new_event(tmp_path, "knockout", 2, 1, {"jigo": "higher-seed"}, ranks=lambda i: f"{2 - i}d")
    pairing = pair_next(db, 1)
    rec.result(db, 1, 1, "jigo")
    assert pairing.games[0].white == "p0001"
    assert places_of(state_of(db)).rows[0].player_id == "p0001"


# --------------------------------------------------------------------------- double knockout


def test_double_knockout_refusals_and_places(tmp_path: Path) -> None:
    db = new_event(tmp_path, "double-knockout", 4, 8, ranks=lambda i: f"{4 - i}d")
    pair_next(db, 1)  # 1-4, 2-3
    rec.result(db, 1, 1, "black")
    rec.result(db, 1, 2, "black")  # 4 and 3 win; 1 and 2 drop
    _refused(db, lambda: rec.pair(db, 2, "p0001", "p0004"), "winners' bracket", "losers' bracket", "grand final")
    _refused(db, lambda: rec.bye(db, "p0001", 2), "no byes")
    pairing = pair_next(db, 2)
    assert {frozenset((g.white, g.black)) for g in pairing.games} == {frozenset(("p0003", "p0004")),
                                                                       frozenset(("p0001", "p0002"))}
    for g in pairing.games:  # the better seed wins every game
        rec.result(db, 2, g.table, "white")
    status_places = places_of(state_of(db))
    assert not status_places.finished
    loser = next(r for r in status_places.rows if not r.active)
    assert loser.player_id == "p0002" and "second loss in round 2" in loser.why
    _refused(db, lambda: rec.pair(db, 3, "p0002", "p0001"), "eliminated in round 2")
    play_out(db, pick=lambda g: "black")
    places = places_of(state_of(db))
    assert places.finished
    champion = places.rows[0]
    assert champion.why in ("champion with 1 loss", "champion with 0 losses")


def test_double_knockout_withdrawals_are_walkovers(tmp_path: Path) -> None:
    db = new_event(tmp_path, "double-knockout", 6, 20, ranks=lambda i: f"{6 - i}d")
    pair_next(db, 1)
    for g in state_of(db).games_of_round(1):
        rec.result(db, 1, g.table, "white")
    rec.withdraw(db, "p0001", 2)  # unbeaten: a walkover in the winners' bracket, then in the losers'
    rec.withdraw(db, "p0005", 2)  # one loss: out at once
    play_out(db, rng=random.Random(2))
    places = places_of(state_of(db))
    why = {row.player_id: row.why for row in places.rows}
    assert places.finished and why["p0001"] == "gave a walkover in round 3"
    assert why["p0005"] == "gave a walkover in round 2"
    assert not any(p in (g.white, g.black) for g in state_of(db).all_games() if g.round >= 2
                   for p in ("p0001", "p0005"))


# --------------------------------------------------------------------------- Paramus


def test_paramus_climbs_the_list_from_the_bottom(tmp_path: Path) -> None:
    db = new_event(tmp_path, "paramus", 5, 4, ranks=lambda i: f"{5 - i}d")
    first = pair_next(db, 1)
    assert {first.games[0].white, first.games[0].black} == {"p0004", "p0005"}
    rec.result(db, 1, 1, "black")  # p0005 (Black, the weaker) wins
    _refused(db, lambda: rec.pair(db, 2, "p0004", "p0003"), "p0005", "p0003")
    _refused(db, lambda: rec.bye(db, "p0001", 2), "no byes")
    play_out(db, pick=lambda g: "white")  # then the stronger (White) always wins
    state = state_of(db)
    assert len(list(state.all_games())) == 4
    entrants = [next(p for p in (g.white, g.black) if p != h) for g, h in
                zip(state.all_games(), ["p0005", "p0005", "p0003", "p0002"], strict=True)]
    assert entrants == ["p0004", "p0003", "p0002", "p0001"]
    places = places_of(state)
    assert places.finished and places.rows[0].player_id == "p0001"
    _refused(db, lambda: rec.pair(db, 5, "p0001", "p0002"), "outside")


def test_paramus_team_mates_never_meet(tmp_path: Path) -> None:
    db = new_event(tmp_path, "paramus", 4, 3, {"teams": True}, ranks=lambda i: f"{4 - i}d")
    with Ledger.open(db) as ledger, ledger.writing() as tx:
        tx.append([ev.TeamRegistered(team_id="t1", name="Red"), ev.TeamRegistered(team_id="t2", name="Blue"),
                   ev.TeamMemberAssigned(team_id="t1", player_id="p0003", board=1),
                   ev.TeamMemberAssigned(team_id="t1", player_id="p0004", board=2),
                   ev.TeamMemberAssigned(team_id="t2", player_id="p0001", board=1),
                   ev.TeamMemberAssigned(team_id="t2", player_id="p0002", board=2)], actor="t")
    first = pair_next(db, 1)
    assert {first.games[0].white, first.games[0].black} == {"p0004", "p0002"}  # p0003 is p0004's team-mate
    rec.result(db, 1, 1, "white")
    play_out(db, pick=lambda g: "white")
    for g in state_of(db).all_games():
        team = {"p0001": 2, "p0002": 2, "p0003": 1, "p0004": 1}
        assert team[g.white] != team[g.black]


# --------------------------------------------------------------------------- match


def test_match_refuses_games_after_it_is_decided(tmp_path: Path) -> None:
    db = new_event(tmp_path, "match", 2, 9, {"target": "2"}, ranks=lambda i: f"{2 - i}d")
    for r, result in ((1, "white"), (2, "jigo"), (3, "white")):
        pairing = pair_next(db, r)
        rec.result(db, r, 1, result)
        assert pairing.games[0].white == ("p0001" if r % 2 else "p0002")  # colours alternate
    places = places_of(state_of(db))
    assert places.finished and places.rows[0].player_id == "p0001"  # 1 + ½ + 1 = 2½
    _refused(db, lambda: rec.pair(db, 4, "p0001", "p0002"), "decided")
    from goledger.replay.scoring.crosstable import crosstable_of

    table = crosstable_of(state_of(db))
    assert table.round_robin and [row.cells for row in table.rows] == [["*", "1 ½ 1"], ["0 ½ 0", "*"]]
    db2 = new_event(tmp_path, "match", 3, 9, name="three.db")
    _refused(db2, lambda: rec.pair(db2, 1, "p0001", "p0002"), "between two players")


def test_match_max_games(tmp_path: Path) -> None:
    db = new_event(tmp_path, "match", 2, 9, {"target": "3", "max_games": 2})
    for r in (1, 2):
        pair_next(db, r)
        rec.result(db, r, 1, "white")  # 1–1
    places = places_of(state_of(db))
    assert places.finished and all(row.place == 1 and row.shared for row in places.rows)
    _refused(db, lambda: rec.pair(db, 3, "p0001", "p0002"), "2 games")


# --------------------------------------------------------------------------- MGE handicap systems


def test_handicap_tournament_stones_and_limit(tmp_path: Path) -> None:
    ranks = ["5d", "1k", "10k", "12k"]
    db = new_event(tmp_path, "handicap", 4, 3, {"max_rank_difference": 9}, ranks=lambda i: ranks[i])
    pairing = pair_next(db, 1)
    assert {(g.white, g.black, g.handicap) for g in pairing.games} == {("p0001", "p0002", 5), ("p0003", "p0004", 2)}
    assert all(g.komi == "0.5" for g in pairing.games)
    _refused(db, lambda: rec.pair(db, 2, "p0001", "p0003"), "14 grades apart", "at most 9")


def test_continuous_handicap_caps_and_ranking(tmp_path: Path) -> None:
    db = new_event(tmp_path, "continuous-handicap", 3, 99, ranks=lambda i: ["2k", "4k", "15k"][i])
    rec.pair(db, 1, "p0001", "p0002")
    rec.pair(db, 2, "p0002", "p0001", handicap=0)  # colours reversed by hand: an even game
    _refused(db, lambda: rec.pair(db, 3, "p0001", "p0002"), "played 2 games together")
    _refused(db, lambda: rec.pair(db, 3, "p0001", "p0003"), "13 grades apart")
    _refused(db, lambda: rec.bye(db, "p0003", 3), "no byes")
    default = RANKINGS["wins-times-ratio"]
    assert default(Fraction(5), 10) < default(Fraction(8), 16)  # the seed's example
    assert default(Fraction(5), 10) < default(Fraction(7), 16) < default(Fraction(8), 16)
    other = RANKINGS["wins-minus-half-losses"]
    assert other(Fraction(5), 10) < other(Fraction(8), 16) and other(Fraction(7), 16) == other(Fraction(5), 10)


def test_continuous_places_follow_the_named_ranking(tmp_path: Path) -> None:
    db = new_event(tmp_path, "continuous-handicap", 4, 99, {"max_games_per_pair": 9}, ranks=lambda i: "5k")
    # p0001: 2 wins of 2; p0002: 3 wins of 4 (3·3/4 = 2¼ > 2); p0003, p0004: the rest
    games = [("p0001", "p0003"), ("p0001", "p0004"), ("p0002", "p0003"), ("p0002", "p0004"), ("p0002", "p0003"),
             ("p0004", "p0002")]
    for r, (w, b) in enumerate(games, start=1):
        rec.pair(db, r, w, b)
        rec.result(db, r, 1, "white")
    places = places_of(state_of(db))
    assert [row.player_id for row in places.rows[:2]] == ["p0002", "p0001"]
    assert "2 1/4" in places.rows[0].why


# --------------------------------------------------------------------------- round robins


@pytest.mark.parametrize(("n", "cycles"), [(5, 1), (6, 1), (5, 2), (4, 2)])
def test_round_robin_engine(tmp_path: Path, n: int, cycles: int) -> None:
    rounds = (n - 1 + n % 2) * cycles
    db = new_event(tmp_path, "round-robin", n, rounds + 1, {"cycles": cycles})
    for r in range(1, rounds + 1):
        pair_next(db, r)
    state = state_of(db)
    met: dict[frozenset[str], list[tuple[str, str]]] = {}
    for g in state.all_games():
        met.setdefault(frozenset((g.white, g.black)), []).append((g.white, g.black))
    assert len(met) == n * (n - 1) // 2 and all(len(v) == cycles for v in met.values())
    if cycles == 2:
        assert all(v[0] == (v[1][1], v[1][0]) for v in met.values())  # colours reversed in the second cycle
    sat_out = [p for r in range(1, rounds + 1) for p in state.byes.get(r, {})]
    assert sorted(sat_out) == (sorted(list(state.players) * cycles) if n % 2 else [])
    first = next(iter(met.values()))[0]
    _refused(db, lambda: rec.pair(db, rounds + 1, first[0], first[1]), "already met")


# --------------------------------------------------------------------------- settings, CLI, views


def test_old_settings_payloads_decode_without_system_options() -> None:
    settings = ev.TournamentSettings(name="x", rounds=3)
    data = msgspec.json.decode(ev.canonical_bytes(ev.TournamentCreated(settings=settings)))
    del data["settings"]["system_options"]
    decoded = ev.decode_event("TournamentCreated", 1, msgspec.json.encode(data))
    assert isinstance(decoded, ev.TournamentCreated) and decoded.settings.system_options == {}


def test_new_refuses_unknown_options(tmp_path: Path) -> None:
    with pytest.raises(CommandRejected, match="no option 'metod'"):
        rec.new(tmp_path / "a.db", "a", 3, "knockout", options={"metod": "x"})
    with pytest.raises(CommandRejected, match="method"):
        rec.new(tmp_path / "b.db", "b", 3, "knockout", options={"method": "zigzag"})
    with pytest.raises(CommandRejected, match="no system options"):
        rec.new(tmp_path / "c.db", "c", 3, "mcmahon", options={"method": "fold"})
    assert not (tmp_path / "a.db").exists()


def test_cli_session(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "cup.db"
    out = cli("new", "--name", "Cup", "--rounds", "2", "--system", "knockout", "--option", "method=adjacent",
              "--option", "third-place=yes", "--db", db)
    assert out.code == 0, out
    for i in range(4):
        assert cli("register", "--surname", f"P{i}", "--rank", f"{4 - i}d", "--db", db).code == 0
    assert cli("pair", "--round", "1", "--white", "p0001", "--black", "p0002", "--db", db).code == 0
    bad = cli("pair", "--round", "1", "--white", "p0003", "--black", "p0001", "--db", db)
    assert bad.code == 1 and bad.err.count("\n") == 1 and "already paired" in bad.err
    bad = cli("pair", "--round", "2", "--white", "p0003", "--black", "p0004", "--db", db)
    assert bad.code == 1 and "round 1 has not decided" in bad.err
    text = cli("bracket", "--db", db)
    assert text.code == 0 and "Semi-finals (R1)" in text.out and "Final (R2)" in text.out
    assert "Third place (R2)" in text.out
    html = cli("bracket", "--format", "html", "--db", db)
    assert html.code == 0 and "<svg" in html.out and "<script" not in html.out and "http" not in html.out.lower()
    places = json.loads(cli("standings", "--json", "--db", db).out)
    assert places["system"] == "knockout" and all(r["active"] for r in places["rows"])
    page = cli("standings", "--format", "html", "--db", db)
    assert page.code == 0 and 'id="places"' in page.out and "still in the bracket" in page.out
    plain = cli("standings", "--criteria", "NBW", "--db", db)
    assert plain.code == 0 and "NBW" in plain.out
    why = cli("place", "P3", "--db", db)
    assert why.code == 0 and why.out.strip() == "P3 is still in: still in the bracket"


def test_pair_round_uses_the_system_engine(tmp_path: Path) -> None:
    pairing_module = pytest.importorskip("goledger.commands.pairing")
    db = new_event(tmp_path, "knockout", 8, 3, {"method": "slide"}, ranks=lambda i: f"{8 - i}d")
    pairing_module.pair_round(db, 1)
    state = state_of(db)
    assert {frozenset((g.white, g.black)) for g in state.games_of_round(1)} == {
        frozenset((f"p{a:04d}", f"p{b:04d}")) for a, b in ((1, 5), (2, 6), (3, 7), (4, 8))}


# --------------------------------------------------------------------------- report, exports, imports


def test_report_and_exports_say_what_the_system_is(tmp_path: Path) -> None:
    from goledger.formats.opengotha.write import write_opengotha
    from goledger.formats.trf.write import write_trf
    from goledger.render.audit_report import report

    db = new_event(tmp_path, "knockout", 4, 2, {"method": "adjacent"}, ranks=lambda i: f"{4 - i}d")
    play_out(db, pick=lambda g: "white")
    html = tmp_path / "r.html"
    report(db, html)
    page = html.read_text(encoding="utf-8")
    assert 'id="system"' in page and "method=adjacent" in page and "won the final" in page and "<svg" in page
    state = state_of(db)
    _, og = write_opengotha(state)
    assert any("knockout system has no OpenGotha equivalent" in e.message for e in og.entries)
    _, trf = write_trf(state)
    assert any("knockout system" in e.message and "no TRF record" in e.message for e in trf.entries)


def test_opengotha_cup_import_keeps_its_bracket(tmp_path: Path, shared: Path) -> None:
    from goledger.formats.opengotha import import_opengotha
    from goledger.systems.views import bracket

    source = shared / "oracle" / "inputs" / "cdfa-2020-cup.xml"
    if not source.exists():
        pytest.skip("cdfa-2020-cup.xml is not in ../shared")
    db = tmp_path / "cup.db"
    import_opengotha(source, db)
    view = bracket(db)
    assert view.system == "cup" and [c.label for c in view.sections[0].columns] == ["R1", "R2", "R3", "R4"]
    for column in view.sections[0].columns[1:]:
        paths = [box.note.split(" · ")[0] for box in column.boxes]
        assert paths == sorted(paths, key=lambda p: p.replace("W", "0").replace("L", "1"))
        assert len(set(paths)) == 2 ** (int(column.label[1:]) - 1)  # winners meet winners, losers losers
    assert view.champion == "Karadaban Denis"  # the only player with four wins


def test_seeding_by_lot_is_repeatable(tmp_path: Path) -> None:
    def draw(name: str, options: dict[str, object]) -> list[tuple[str, str]]:
        db = new_event(tmp_path, "knockout", 8, 3, options, ranks=lambda i: f"{8 - i}d", name=name)
        return [(g.white, g.black) for g in pair_next(db, 1).games]

    first = draw("a.db", {"seeding": "lot", "lot_seed": 7})
    assert draw("b.db", {"seeding": "lot", "lot_seed": 7}) == first
    assert first != draw("c.db", {})  # by rank: 1-8, 2-7 …


def test_handicap_bye_goes_to_the_last_player_without_one(tmp_path: Path) -> None:
    db = new_event(tmp_path, "handicap", 5, 3, ranks=lambda i: f"{i + 1}k")
    first = pair_next(db, 1)
    assert first.bye is not None and first.bye.player == "p0005"  # the last of the list
    for g in first.games:
        rec.result(db, 1, g.table, "white")
    second = pair_next(db, 2)
    assert second.bye is not None and second.bye.player != "p0005"


def test_a_correction_cannot_rewrite_a_paired_bracket(tmp_path: Path) -> None:
    db = new_event(tmp_path, "knockout", 4, 2, ranks=lambda i: f"{4 - i}d")
    pair_next(db, 1)
    rec.result(db, 1, 1, "white")
    rec.correct(db, 1, 1, "black", reason="slip swapped")  # round 2 not paired yet: fine
    rec.result(db, 1, 2, "white")
    pair_next(db, 2)
    _refused(db, lambda: rec.correct(db, 1, 1, "white", reason="again"), "unpair the later rounds")
    rec.correct(db, 1, 1, "black", by_default=True, reason="forfeit")  # same winner: allowed
    rec.unpair(db, 2, 1)
    rec.correct(db, 1, 1, "white", reason="slip swapped back")
    assert places_of(state_of(db)).rows[0].active
