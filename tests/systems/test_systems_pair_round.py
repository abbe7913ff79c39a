"""The tournament systems as a director runs them (issue 29): ``new``, ``register``,
``pair-round``, ``result``, repeated until ``pair-round`` says the event is decided — through
the library functions the CLI calls (:func:`goledger.commands.pairing.pair_round`), through
``goledger`` in a subprocess, and through the desk's ``POST /api/pair-round`` and
``POST /api/results``.

The issue's "Done when": a knockout of 8, 13 and 76 players takes 3, 4 and 7 rounds with
N − 1 games, a double knockout of 8 and 13 has 2N − 2 or 2N − 1 games, a Paramus of 6 and 9
has N − 1, and each ends with exactly one winner. On the way every ``RoundPaired`` accounts
for every registered player: in a game, or listed in ``not_paired`` with the reason.
"""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from goledger import commands
from goledger.errors import CommandRejected, EventDecided
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.replay.loading.load import load_state
from goledger.systems import places_of
from goledger.systems.double_knockout import double_knockout_rounds

DONE_WHEN = [("knockout", 8), ("knockout", 13), ("knockout", 76), ("double-knockout", 8), ("double-knockout", 13),
             ("paramus", 6), ("paramus", 9)]
KNOCKOUT_ROUNDS = {8: 3, 13: 4, 76: 7}


def state_of(db: Path) -> Any:
    with Ledger.open(db) as ledger:
        return load_state(ledger)


def events_of(db: Path) -> list[ev.Event]:
    with Ledger.open(db) as ledger:
        return ledger.events()


def rank_of(i: int) -> str:
    """Player i's rank: a spread of kyu and dan grades, with ties (so seeding uses its tiebreaks)."""
    return f"{(i * 7) % 25 + 1}k" if i % 4 else f"{i % 5 + 1}d"


def register_all(db: Path, n: int) -> None:
    for i in range(1, n + 1):
        commands.register(db, f"P{i}", "", rank_of(i))


Pairer = Callable[[int], dict[str, Any]]
"""Pair round R; return the JSON of ``pair-round R --json`` (raises EventDecided when decided)."""
Resulter = Callable[[int, int, str], None]


def drive(pair: Pairer, result: Resulter, pick: Callable[[dict[str, Any]], str] = lambda g: "white",
          first: int = 1, max_rounds: int = 40) -> tuple[int, int, str]:
    """Pair and play rounds from ``first`` until ``pair`` says the event is decided: (the last
    round paired, games played, the decided sentence)."""
    games = 0
    for round_ in range(first, max_rounds + 1):
        try:
            data = pair(round_)
        except EventDecided as exc:
            return round_ - 1, games, exc.message
        assert data["round"] == round_
        for g in data["games"]:
            result(round_, g["table"], pick(g))
            games += 1
    raise AssertionError(f"not decided after {max_rounds} rounds")


def library_doors(db: Path) -> tuple[Pairer, Resulter]:
    def pair(round_: int) -> dict[str, Any]:
        return commands.pair_round(db, round_).to_dict()

    def result(round_: int, table: int, res: str) -> None:
        commands.result(db, round_, table, res)

    return pair, result


def check_accounts(db: Path) -> None:
    """Every ``RoundPaired`` in force accounts for every registered player exactly once: in a
    game or bye of the round, or in ``not_paired`` with a reason."""
    events = events_of(db)
    state = state_of(db)
    everyone = set(state.players)
    for k, e in enumerate(events):
        if not isinstance(e, ev.RoundPaired):
            continue
        games = [g for g in events[k + 1: k + 1 + len(e.tables)] if isinstance(g, ev.GamePaired)]
        placed = [p for g in games for p in (g.white, g.black)] + ([e.bye] if e.bye else [])
        listed = [p for p, _ in e.not_paired]
        assert sorted(placed + listed) == sorted(everyone), f"round {e.round} does not account for everyone"
        assert all(why.strip() for _, why in e.not_paired)


def one_winner(db: Path) -> str:
    places = places_of(state_of(db))
    assert places is not None and places.finished
    first = [r for r in places.rows if r.place == 1]
    assert len(first) == 1 and not first[0].shared, places.rows[:3]
    return first[0].player_id


def assert_done_when(system: str, n: int, rounds: int, games: int, db: Path) -> None:
    state = state_of(db)
    if system == "knockout":
        assert (rounds, games) == (KNOCKOUT_ROUNDS[n], n - 1)
        assert state.rounds == KNOCKOUT_ROUNDS[n]
    elif system == "double-knockout":
        assert games in (2 * n - 2, 2 * n - 1)
        assert state.rounds == double_knockout_rounds(n) and rounds in (state.rounds, state.rounds - 1)
    else:
        assert games == rounds == n - 1 == state.rounds
    one_winner(db)


# --------------------------------------------------------------------------- the Done-when counts


@pytest.mark.parametrize(("system", "n"), DONE_WHEN)
def test_done_when_through_the_commands(tmp_path: Path, system: str, n: int) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "T", None, system)
    register_all(db, n)
    rounds, games, decided = drive(*library_doors(db))
    assert_done_when(system, n, rounds, games, db)
    winner = state_of(db).players[one_winner(db)].full_name
    assert decided.startswith(f"the {system.replace('-', ' ').replace('paramus', 'Paramus')} is decided: {winner} won")
    assert "\n" not in decided
    drawn = [e for e in events_of(db) if isinstance(e, ev.RulesChanged)]
    assert [e.changes for e in drawn] == [{"rounds": state_of(db).rounds}]  # once, at the draw
    check_accounts(db)
    assert commands.check_pairings(db).ok  # pair-round --check re-derives every system's rounds


def test_an_explicit_round_count_too_small_is_refused_at_the_draw(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "T", 3, "knockout")
    register_all(db, 13)
    head = len(events_of(db))
    with pytest.raises(CommandRejected, match=r"a knockout of 13 entrants has ⌈log₂ 13⌉ = 4 rounds, but this "
                                              r"tournament was created with 3; set goledger change-rules rounds=4"):
        commands.pair_round(db, 1)
    assert len(events_of(db)) == head
    commands.change_rules(db, {"rounds": 4})
    rounds, games, _ = drive(*library_doors(db))
    assert (rounds, games) == (4, 12)
    assert not [e for e in events_of(db) if isinstance(e, ev.RulesChanged) and e.changes == {"rounds": 4}][1:]


def test_an_explicit_round_count_larger_than_needed_ends_when_decided(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "T", 6, "paramus")
    register_all(db, 4)
    rounds, games, decided = drive(*library_doors(db))
    assert (rounds, games) == (3, 3) and state_of(db).rounds == 6 and "the Paramus is decided" in decided


def test_settings_show_the_round_count_before_and_after_the_draw(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "T", None, "knockout")
    register_all(db, 13)
    before = {s.name: s for s in commands.settings.settings(db)}["rounds"]  # type: ignore[attr-defined]
    assert before.help == "to be set at the draw: a knockout of 13 entrants has ⌈log₂ 13⌉ = 4 rounds"
    commands.pair_round(db, 1)
    after = {s.name: s for s in commands.settings.settings(db)}["rounds"]  # type: ignore[attr-defined]
    assert after.value == 4 and after.help.startswith("set at the draw: a knockout of 13 entrants")


def test_new_without_rounds_is_for_the_drawn_systems_only(tmp_path: Path) -> None:
    with pytest.raises(CommandRejected, match="a mcmahon tournament needs --rounds"):
        commands.new(tmp_path / "a.db", "A", None, "mcmahon")
    with pytest.raises(CommandRejected, match="either --rounds or the option rounds-at-draw"):
        commands.new(tmp_path / "b.db", "B", 3, "knockout", options={"rounds-at-draw": "yes"})
    assert not (tmp_path / "a.db").exists() and not (tmp_path / "b.db").exists()


# --------------------------------------------------------------------------- odd fields, withdrawals, corrections


@pytest.mark.parametrize("system", ["knockout", "double-knockout", "paramus"])
@pytest.mark.parametrize("n", [3, 5, 7, 13])
def test_odd_fields_with_random_results(tmp_path: Path, system: str, n: int) -> None:
    rng = random.Random(n * 31 + len(system))
    db = tmp_path / "t.db"
    commands.new(db, "T", None, system)
    register_all(db, n)
    rounds, games, _ = drive(*library_doors(db), pick=lambda g: rng.choice(("white", "black")))
    if system == "knockout":
        assert games == n - 1 and rounds == (n - 1).bit_length()
    elif system == "double-knockout":
        assert games in (2 * n - 2, 2 * n - 1)
    else:
        assert games == n - 1
    one_winner(db)
    check_accounts(db)


def reasons(db: Path, round_: int) -> dict[str, str]:
    stored = [e for e in events_of(db) if isinstance(e, ev.RoundPaired) and e.round == round_][-1]
    return dict(stored.not_paired)


def test_knockout_byes_walkovers_and_eliminations_are_said(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "T", None, "knockout")
    for i in range(1, 6):
        commands.register(db, f"P{i}", "", f"{6 - i}d")  # P1 strongest
    commands.pair_round(db, 1)
    why = reasons(db, 1)
    assert why == dict.fromkeys(("p0001", "p0002", "p0003"),
                                "a bye: the bracket has 8 places for 5 entrants, a walk-over into round 2")
    commands.result(db, 1, 1, "black" if state_of(db).games[1][1].black == "p0005" else "white")  # P5 beats P4
    commands.withdraw(db, "p0003", 2)
    outcome = commands.pair_round(db, 2)
    assert [{g["white"]["id"], g["black"]["id"]} for g in outcome.to_dict()["games"]] == [{"p0001", "p0005"}]
    why = reasons(db, 2)
    assert why == {"p0002": "a walk-over into round 3: p0003 P3 withdrew from round 2",
                   "p0003": "withdrew from round 2", "p0004": "eliminated: lost in round 1 to p0005 P5"}
    commands.result(db, 2, 1, "white")
    final = commands.pair_round(db, 3).pairing.games[0]
    assert "p0002" in (final.white, final.black)
    commands.result(db, 3, 1, "white" if final.white == "p0002" else "black")
    with pytest.raises(EventDecided, match=r"^the knockout is decided: P2 won the final$"):
        commands.pair_round(db, 4)
    assert one_winner(db) == "p0002"
    check_accounts(db)


def test_a_correction_before_the_next_round_changes_the_bracket(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "T", None, "knockout")
    register_all(db, 4)
    first = commands.pair_round(db, 1).to_dict()["games"]
    for g in first:
        commands.result(db, 1, g["table"], "white")
    commands.correct(db, 1, 1, "black", reason="slip read wrong")
    final = commands.pair_round(db, 2).to_dict()["games"][0]
    assert first[0]["black"]["id"] in (final["white"]["id"], final["black"]["id"])
    assert reasons(db, 2)[first[0]["white"]["id"]].startswith("eliminated: lost in round 1 to")
    with pytest.raises(CommandRejected, match="unpair the later rounds"):
        commands.correct(db, 1, 1, "white", reason="again")
    commands.result(db, 2, 1, "white")
    assert one_winner(db) == final["white"]["id"]


def test_double_knockout_sitters_and_withdrawal(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "T", None, "double-knockout")
    register_all(db, 7)
    seen: set[str] = set()
    games = 0
    for round_ in range(1, 20):
        if round_ == 3:
            commands.withdraw(db, "p0002", 3)
        try:
            data = commands.pair_round(db, round_).to_dict()
        except EventDecided:
            break
        seen.update(reasons(db, round_).values())
        for g in data["games"]:
            commands.result(db, round_, g["table"], "black")
            games += 1
    assert any(w.startswith("sits the round out") for w in seen)
    assert any(w.startswith("eliminated in round") for w in seen)
    assert "withdrew from round 3" in seen
    one_winner(db)
    check_accounts(db)
    assert commands.check_pairings(db).ok


def test_paramus_waiting_players_and_a_walkover(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "T", None, "paramus")
    for i in range(1, 6):
        commands.register(db, f"P{i}", "", f"{6 - i}d")
    commands.pair_round(db, 1)  # P5 (weakest) holds, P4 enters
    assert reasons(db, 1) == dict.fromkeys(("p0001", "p0002", "p0003"), "waits for his turn on the ladder")
    commands.result(db, 1, 1, "white")
    commands.absent(db, "p0003", 2)  # P3's turn: a walk-over
    outcome = commands.pair_round(db, 2)
    assert outcome.pairing.games == ()
    holder = next(p for p, why in reasons(db, 2).items() if why.startswith("a walk-over"))
    assert reasons(db, 2)[holder] == "a walk-over: p0003 P3 is absent in round 2"
    with pytest.raises(CommandRejected, match=r"round 1 is already paired: nobody left to pair \(p0001 P1: waits"):
        commands.pair_round(db, 1)
    rounds, _, decided = drive(*library_doors(db), first=3)
    assert rounds == 4 and "the Paramus is decided" in decided
    check_accounts(db)


# --------------------------------------------------------------------------- the other systems


def test_round_robin_to_its_last_round_with_a_withdrawal(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "T", None, "round-robin")
    register_all(db, 5)
    pair, result = library_doors(db)

    def pair_with_withdrawal(round_: int) -> dict[str, Any]:
        if round_ == 4:
            commands.withdraw(db, "p0005", 4)
        return pair(round_)

    rounds, games, decided = drive(pair_with_withdrawal, result)
    assert rounds == 5 == state_of(db).rounds
    assert decided == "the tournament is over: its 5 rounds are paired and played"
    assert games < 10 and any("his Berger opponent p0005 P5 withdrew from round 4" in w
                              for r in (4, 5) for w in reasons(db, r).values())
    check_accounts(db)


@pytest.mark.parametrize(("system", "n", "rounds"), [("handicap", 7, 4), ("match", 2, 5),
                                                     ("continuous-handicap", 3, 9), ("swiss", 5, 3)])
def test_fixed_count_systems_to_their_last_round(tmp_path: Path, system: str, n: int, rounds: int) -> None:
    db = tmp_path / "t.db"
    options = {"max-games-per-pair": "1", "max-rank-difference": "30"} if system == "continuous-handicap" else None
    commands.new(db, "T", rounds, system, options=options)
    register_all(db, n)
    played, games, decided = drive(*library_doors(db))
    if system == "match":
        assert decided.startswith("the match is decided: ") and games == played == 3
    elif system == "continuous-handicap":  # 3 players, one game per pair: 3 games, one each round
        assert games == 3 and decided.startswith("the continuous handicap tournament is decided")
    else:
        assert played == rounds and decided == f"the tournament is over: its {rounds} rounds are paired and played"
    check_accounts(db)


# --------------------------------------------------------------------------- the CLI


def test_cli_knockout_session_with_a_withdrawal_and_a_correction(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "k.db"
    assert cli("new", "--name", "Cup", "--system", "knockout", "--db", db).code == 0
    for i in range(1, 6):
        assert cli("register", "--surname", f"P{i}", "--rank", f"{6 - i}d", "--db", db).code == 0
    out = cli("settings", "--db", db)
    assert "set at the draw (3 for the entrants now)" in out.out
    one = cli("pair-round", "1", "--db", db)
    assert one.code == 0 and "not paired: p0001 P1: a bye: the bracket has 8 places for 5 entrants" in one.out
    assert "3 rounds set at the draw" in one.out
    assert cli("result", "--round", "1", "--table", "1", "white", "--db", db).code == 0
    assert cli("correct", "--round", "1", "--table", "1", "black", "--reason", "slip", "--db", db).code == 0
    assert cli("withdraw", "p0002", "--from-round", "2", "--db", db).code == 0
    two = json.loads(cli("pair-round", "2", "--json", "--db", db).out)
    why = {e["player"]["id"]: e["why"] for e in two["not_paired"]}
    assert why["p0004"] == "eliminated: lost in round 1 to p0005 P5" and two["rounds"] == 3
    assert why["p0003"] == "a walk-over into round 3: p0002 P2 withdrew from round 2"
    assert [{g["white"]["id"], g["black"]["id"]} for g in two["games"]] == [{"p0001", "p0005"}]
    assert cli("result", "--round", "2", "--table", "1", "white", "--db", db).code == 0
    three = json.loads(cli("pair-round", "3", "--json", "--db", db).out)
    champion = three["games"][0]["white"]["surname"]
    assert cli("result", "--round", "3", "--table", "1", "white", "--db", db).code == 0
    done = cli("pair-round", "4", "--json", "--db", db)
    assert done.code == 1 and json.loads(done.err) == {"error": f"the knockout is decided: {champion} won the final",
                                                       "code": "decided"}
    text = cli("pair-round", "4", "--db", db)
    assert text.err == f"error: the knockout is decided: {champion} won the final\n"
    assert "3 (set at the draw)" in cli("settings", "--db", db).out
    assert cli("pair-round", "0", "--check", "--db", db).code == 0


def _cli_play(cli, db: Path, first: int = 1) -> tuple[int, int, dict[str, Any]]:  # type: ignore[no-untyped-def]
    """``pair-round R --json`` and ``result … white`` until refused: (rounds, games, the refusal)."""
    games = 0
    for round_ in range(first, 40):
        res = cli("pair-round", str(round_), "--json", "--db", db)
        if res.code:
            return round_ - 1, games, json.loads(res.err)
        for g in json.loads(res.out)["games"]:
            assert cli("result", "--round", str(round_), "--table", str(g["table"]), "white", "--db", db).code == 0
            games += 1
    raise AssertionError("no end")


@pytest.mark.parametrize(("system", "n", "rounds", "expect"), [
    ("double-knockout", 3, None, (None, 4, "the double knockout is decided: ")),
    ("paramus", 3, None, (2, 2, "the Paramus is decided: ")),
    ("round-robin", 3, None, (3, 3, "the tournament is over: its 3 rounds")),
    ("match", 2, "3", (3, 3, "the match is decided: ")),
    ("handicap", 3, "2", (2, 2, "the tournament is over: its 2 rounds")),
    ("continuous-handicap", 3, "7", (6, 6, "the continuous handicap tournament is decided")),
])
def test_cli_session_per_system(tmp_path: Path, cli, system: str, n: int, rounds: str | None,  # type: ignore[no-untyped-def]
                                expect: tuple[int | None, int, str]) -> None:
    db = tmp_path / "s.db"
    extra = ["--rounds", rounds] if rounds else []
    assert cli("new", "--name", "S", "--system", system, *extra, "--db", db).code == 0
    for i in range(1, n + 1):
        assert cli("register", "--surname", f"P{i}", "--rank", f"{i}k", "--db", db).code == 0
    played, games, refusal = _cli_play(cli, db)
    want_rounds, want_games, sentence = expect
    assert refusal["code"] == "decided" and refusal["error"].startswith(sentence), refusal
    assert games == want_games and (want_rounds is None or played == want_rounds)
    check_accounts(db)


@pytest.mark.slow
@pytest.mark.parametrize(("system", "n"), DONE_WHEN)
def test_done_when_as_a_script_of_cli_commands(tmp_path: Path, cli, system: str, n: int) -> None:  # type: ignore[no-untyped-def]
    """The issue's script: only ``new``, ``register``, ``pair-round`` and ``result``, results "white"."""
    db = tmp_path / "s.db"
    assert cli("new", "--name", "S", "--system", system, "--db", db).code == 0
    for i in range(1, n + 1):
        assert cli("register", "--surname", f"P{i}", "--rank", rank_of(i), "--db", db).code == 0
    rounds, games, refusal = _cli_play(cli, db)
    assert refusal["code"] == "decided"
    assert_done_when(system, n, rounds, games, db)


# --------------------------------------------------------------------------- the desk's API


TOKEN = "director-token-for-tests"


def _client(db: Path) -> Any:
    pytest.importorskip("starlette")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from goledger.web import create_app

    return TestClient(create_app(db, TOKEN))


def api_doors(db: Path) -> tuple[Pairer, Resulter]:
    client = _client(db)
    auth = {"Authorization": f"Bearer {TOKEN}"}

    def head() -> int:
        return int(client.get("/api/head").json()["seq"])

    def pair(round_: int) -> dict[str, Any]:
        r = client.post("/api/pair-round", json={"round": round_, "expected_head": head()}, headers=auth)
        if r.status_code == 400 and r.json().get("code") == "decided":
            raise EventDecided(r.json()["error"])
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def result(round_: int, table: int, res: str) -> None:
        r = client.post("/api/results", json={"round": round_, "table": table, "result": res,
                                              "expected_head": head()}, headers=auth)
        assert r.status_code == 200, r.text

    return pair, result


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize(("system", "n"), DONE_WHEN)
def test_done_when_through_the_desk_api(tmp_path: Path, system: str, n: int) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "T", None, system)
    register_all(db, n)
    rounds, games, decided = drive(*api_doors(db))
    assert_done_when(system, n, rounds, games, db)
    assert " is decided: " in decided
    check_accounts(db)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_api_pair_round_needs_the_token_and_a_fresh_head(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "T", None, "knockout")
    register_all(db, 4)
    client = _client(db)
    seen = len(events_of(db))
    body = {"round": 1, "expected_head": seen}
    assert client.post("/api/pair-round", json=body).status_code == 401
    assert client.post("/api/pair-round", json=body, headers={"Authorization": "Bearer nope"}).status_code == 401
    auth = {"Authorization": f"Bearer {TOKEN}"}
    assert client.post("/api/pair-round", content=b"{", headers=auth).status_code == 400
    for bad in ({}, {"round": "1"}, {"round": 1, "seed": True}, {"round": 1, "dry_run": "yes"}, {"round": 1, "x": 1}):
        r = client.post("/api/pair-round", json=bad, headers=auth)
        assert r.status_code == 400 and r.json()["code"] == "rejected", bad
    r = client.post("/api/pair-round", json={**body, "expected_head": seen - 1}, headers=auth)
    assert r.status_code == 409 and r.json()["head"] == seen
    dry = client.post("/api/pair-round", json={**body, "dry_run": True}, headers=auth)
    assert dry.status_code == 200 and dry.json()["seqs"] == [] and len(events_of(db)) == seen
    r = client.post("/api/pair-round", json=body, headers=auth)
    assert r.status_code == 200
    data = r.json()
    assert data["games"] == dry.json()["games"] and data["rounds"] == 2 and len(data["seqs"]) == 4
    assert data["seqs"][0] == seen + 1 and data["message"].startswith("round 1 paired by knockout: 2 games")
    assert len(events_of(db)) == seen + 4  # RulesChanged (2 rounds), RoundPaired, two games


def test_the_round_count_table_of_the_docs_is_the_codes() -> None:
    from goledger.systems.bracket import knockout_rounds
    from goledger.systems.round_robin import berger_rounds

    from ..conftest import REPO

    text = (REPO / "docs" / "systems.md").read_text(encoding="utf-8")
    count = {"knockout": knockout_rounds, "double-knockout": double_knockout_rounds,
             "paramus": lambda n: n - 1, "round-robin": lambda n: len(berger_rounds(n))}
    for system, rounds in count.items():
        row = next(line for line in text.splitlines() if line.startswith(f"| `{system}` |"))
        assert row.rstrip(" |").split(" | ")[-3:] == [str(rounds(n)) for n in (8, 13, 76)], row


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_desk_forms_run_a_knockout_of_13(tmp_path: Path) -> None:
    """The director's desk in a logged-in browser session: a new knockout without rounds, then
    the round page's pair-round and results forms until the refusal says it is decided."""
    pytest.importorskip("starlette")
    from ..web.test_web import Desk

    db = tmp_path / "cup.db"
    commands.new(db, "Cup", None, "knockout")
    register_all(db, 13)
    desk = Desk(db)
    games = 0
    for round_ in range(1, 8):
        r = desk.post("pair-round", round=str(round_), back=f"/desk/round/{round_}")
        if r.status_code != 303:
            assert r.status_code == 400 and "the knockout is decided: " in r.text and round_ == 5
            break
        for g in state_of(db).games_of_round(round_):
            assert desk.post("result", round=str(round_), table=str(g.table), result="white").status_code == 303
            games += 1
    assert games == 12 and state_of(db).rounds == 4
    one_winner(db)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_desk_preview_says_why_each_player_is_left_out(tmp_path: Path) -> None:
    """The round page's preview (a dry run) of a knockout's second round lists the players it
    leaves out with the engine's reason, and appends nothing; ``?explain=P`` leads to the
    pairing report of that player."""
    pytest.importorskip("starlette")
    from ..web.test_web import Desk

    db = tmp_path / "cup.db"
    commands.new(db, "Cup", None, "knockout")
    register_all(db, 8)
    commands.pair_round(db, 1)
    for g in state_of(db).games_of_round(1):
        commands.result(db, 1, g.table, "white")
    losers = [g.black for g in state_of(db).games_of_round(1)]
    desk = Desk(db)
    head = state_of(db).seq
    page = desk.page("/desk/round/2?preview=1").text
    assert state_of(db).seq == head
    part = page.split('id="preview-not-paired"')[1].split("</ul>")[0]
    assert part.count("<li>") == 4
    for pid in losers:
        assert f'<span class="muted">{pid}</span>: eliminated' in part, part
    r = desk.client.get("/desk/round/2?explain=p0001", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/desk/round/2/report?player=p0001"


def test_a_berger_schedule_is_the_draw_of_a_round_robin_without_rounds(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "T", None, "round-robin")
    register_all(db, 6)
    from goledger.commands.schedule import schedule

    schedule(db, berger=True)
    assert state_of(db).rounds == 5 and len(state_of(db).games_of_round(5)) == 3


def test_players_option_and_explain_pairing_in_a_knockout(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "T", None, "knockout")
    for i in range(1, 5):
        commands.register(db, f"P{i}", "", f"{5 - i}d")
    with pytest.raises(CommandRejected, match=r"^p0001 P1 is not paired in round 1: his bracket opponent p0004 P4 "
                                              r"is not among the players to pair$"):
        commands.pair_round(db, 1, players=["p0001", "p0002", "p0003"])
    part = commands.pair_round(db, 1, players=["p0001", "p0004"])
    assert [(g.white, g.black) for g in part.pairing.games] == [("p0001", "p0004")]
    assert dict(part.not_paired) == dict.fromkeys(("p0002", "p0003"), "not among the players named to pair")
    rest = commands.pair_round(db, 1)
    assert [(g.white, g.black, g.table) for g in rest.pairing.games] == [("p0002", "p0003", 2)]
    assert commands.check_pairings(db, 1).ok
    assert [g.chosen.terms for g in commands.explain_pairing(db, 1).games] == [{"bracket": 1}]
