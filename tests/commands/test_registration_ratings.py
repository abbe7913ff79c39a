"""Registration from the rating list (issue 34, points 3, 4 and 6): ``register --egd-pin``,
``update-player --from-ratings``, the ratings freeze, ``register --from-file``, and every
refusal at the door, each through the command line (exit 1, one sentence, nothing written)."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from goledger import commands
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.replay.fold.state import fold

from ..conftest import needs_shared, run_cli
from ..ratings.test_ratings import EGD_LIST
from ..ratings_support import write_list


@pytest.fixture
def desk(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A new ledger and a ratings store holding the small test list."""
    store = tmp_path / "ratings.db"
    env = {"GOLEDGER_RATINGS": str(store)}
    assert run_cli("ratings", "import", write_list(tmp_path / "list.txt"), env=env).code == 0
    db = tmp_path / "t.db"
    commands.new(db, "Ratings Open", 5)
    return db, env


def head(db: Path) -> int:
    with Ledger.open(db) as led:
        return led.head().seq


def registered(db: Path) -> list[ev.PlayerRegistered]:
    with Ledger.open(db) as led:
        return [r.event for r in led.records() if isinstance(r.event, ev.PlayerRegistered)]


def refused(db: Path, env: dict[str, str], *args: str) -> str:
    """Run a command that must be refused with --json; return its sentence."""
    before = head(db)
    r = run_cli(*args, "--db", db, "--json", env=env)
    assert r.code == 1, r
    error = json.loads(r.err)
    assert error["code"] == "rejected" and error["error"].count(". ") == 0
    assert head(db) == before
    return str(error["error"])


def test_register_by_pin_fills_the_fields_and_names_the_list(desk: tuple[Path, dict[str, str]]) -> None:
    db, env = desk
    r = run_cli("register", "--egd-pin", "13701534", "--db", db, env=env)
    assert r.code == 0, r.err
    assert "from the egd list of 2019-02-17: surname, first name, country, club, rank, grade, rating" in r.out
    (event,) = registered(db)
    assert (event.surname, event.first_name, event.country, event.club, event.rank, event.rating, event.egd_pin) == (
        "Celebican", "Barkin", "TR", "Ist", "1k", 2004, "13701534")
    info = json.loads(run_cli("ratings", "info", "--json", env=env).out)
    assert event.rating_list == ev.ListProvenance(source="egd", date="2019-02-17", sha256=info["sha256"],
                                                  fields=("surname", "first_name", "country", "club", "rank",
                                                          "grade", "rating"))


def test_fields_given_win_and_the_output_says_so(desk: tuple[Path, dict[str, str]]) -> None:
    db, env = desk
    r = run_cli("register", "--egd-pin", "10437746", "--surname", "Müller", "--club", "Hamb", "--rank", "1d",
                "--db", db, env=env)
    assert r.code == 0, r.err
    assert "as given: surname, club, rank" in r.out and "from the egd list of 2019-02-17: first name, country" in r.out
    (event,) = registered(db)
    assert (event.surname, event.first_name, event.club, event.rank, event.rating) == ("Müller", "Kai", "Hamb", "1d",
                                                                                      1900)
    assert event.rating_list is not None and "rank" not in event.rating_list.fields


@pytest.mark.parametrize("pin", ["1234", "123456789", "1370153x", "１３７０１５３４"])
def test_a_pin_that_is_not_8_digits_is_refused(desk: tuple[Path, dict[str, str]], pin: str) -> None:
    db, env = desk
    assert refused(db, env, "register", "--egd-pin", pin) == f"EGD PIN {pin!r} must be 8 digits"
    assert refused(db, env, "register", "--egd-pin", pin, "--surname", "X", "--rank", "1k").endswith("must be 8 digits")


def test_a_pin_already_registered_is_refused(desk: tuple[Path, dict[str, str]]) -> None:
    db, env = desk
    assert run_cli("register", "--egd-pin", "13701534", "--db", db, env=env).code == 0
    assert refused(db, env, "register", "--egd-pin", "13701534") == (
        "EGD PIN 13701534 is already registered for p0001 Celebican Barkin")


def test_a_pin_whose_list_name_differs_is_refused_unless_forced(desk: tuple[Path, dict[str, str]]) -> None:
    db, env = desk
    message = refused(db, env, "register", "--egd-pin", "13701534", "--surname", "Yilmaz", "--first-name", "Ali")
    assert message == ("EGD PIN 13701534 is Celebican Barkin (TR, Ist) in the egd list of 2019-02-17, not Yilmaz Ali; "
                       "use --force to register the PIN under the name given")
    # the same name with its accents, in another order, is the list's name
    ok = run_cli("register", "--egd-pin", "13701534", "--surname", "Barkın", "--first-name", "Çelebican", "--db", db,
                 env=env)
    assert ok.code == 0, ok.err
    forced = run_cli("register", "--egd-pin", "10437746", "--surname", "Someone", "--force", "--db", db, env=env)
    assert forced.code == 0 and registered(db)[-1].surname == "Someone"


def test_a_pin_not_in_the_list_needs_a_name_and_is_flagged(desk: tuple[Path, dict[str, str]]) -> None:
    db, env = desk
    assert refused(db, env, "register", "--egd-pin", "99999999") == (
        "EGD PIN 99999999 is not in the egd list of 2019-02-17; give --surname and --rank to register him anyway")
    r = run_cli("register", "--egd-pin", "99999999", "--surname", "Newcomer", "--rank", "3k", "--db", db, env=env)
    assert r.code == 0 and "PIN not in the egd list of 2019-02-17" in r.out
    assert run_cli("register", "--egd-pin", "13701534", "--db", db, env=env).code == 0
    players = json.loads(run_cli("players", "--db", db, "--json").out)["players"]
    by_name = {p["surname"]: p for p in players}
    assert (by_name["Newcomer"]["pin_in_list"], by_name["Newcomer"]["rank_source"]) == (False, "given")
    assert (by_name["Celebican"]["pin_in_list"], by_name["Celebican"]["rank_source"]) == (True, "egd 2019-02-17")
    text = run_cli("players", "--db", db).out
    assert "EGD PIN" in text and "Rank from" in text
    assert "99999999 (not in list)" in text and "egd 2019-02-17" in text


def test_the_ratings_freeze_refuses_a_newer_list(desk: tuple[Path, dict[str, str]]) -> None:
    db, env = desk
    assert run_cli("register", "--egd-pin", "10437746", "--db", db, env=env).code == 0
    assert run_cli("change-rules", "ratings_date=2019-01-01", "--db", db).code == 0
    freeze = ("the egd list of 2019-02-17 is newer than this tournament's ratings freeze (2019-01-01); import the list "
              "of 2019-01-01 or move the freeze with 'change-rules ratings_date=YYYY-MM-DD'")
    assert refused(db, env, "register", "--egd-pin", "13701534") == freeze
    assert refused(db, env, "update-player", "p0001", "--from-ratings") == freeze
    assert refused(db, env, "change-rules", "ratings_date=2019-1-1") == (
        "ratings date '2019-1-1' is not a date like 2026-05-30")
    assert run_cli("change-rules", "ratings_date=2019-02-17", "--db", db).code == 0
    assert run_cli("register", "--egd-pin", "13701534", "--db", db, env=env).code == 0


def test_update_player_from_ratings_records_what_changed(desk: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    db, env = desk
    assert run_cli("register", "--egd-pin", "12413126", "--surname", "Kovács", "--db", db, env=env).code == 0
    assert run_cli("update-player", "p0001", "--rank", "3k", "--db", db).code == 0
    players = json.loads(run_cli("players", "--db", db, "--json").out)["players"]
    assert players[0]["rank_source"] == "given"  # changed by hand: no longer the list's
    newer = [("12413126", "Kovacs Antal", "HU", "Szeg", "5k", 1560, "T190301A")]
    assert run_cli("ratings", "import", write_list(tmp_path / "newer.txt", newer), env=env).code == 0
    r = run_cli("update-player", "p0001", "--from-ratings", "--db", db, env=env)
    assert r.code == 0, r.err
    assert "club 'BuPe' → 'Szeg', rank '3k' → '5k', grade '7k' → '5k', rating 1351 → 1560" in r.out
    assert "(from the egd list of 2019-03-01)" in r.out
    with Ledger.open(db) as led:
        update = list(led.records())[-1].event
    assert isinstance(update, ev.PlayerUpdated) and update.changes["rating_list"]["date"] == "2019-03-01"
    state = fold(r.event for r in Ledger.open(db).records())
    player = state.players["p0001"]
    assert player.surname == "Kovács" and player.rating_list is not None
    assert player.rating_list.fields == ("club", "rank", "grade", "rating")
    assert refused(db, env, "update-player", "p0001", "--from-ratings") == (
        "p0001 Kovács Antal already agrees with the list; nothing to change")


def test_update_player_from_ratings_refusals(desk: tuple[Path, dict[str, str]]) -> None:
    db, env = desk
    commands.register(db, "Plain", "Jo", "5k")
    assert refused(db, env, "update-player", "p0001", "--from-ratings") == (
        "p0001 Plain Jo has no EGD PIN; give one with --egd-pin first")
    assert refused(db, env, "update-player", "p0001", "--egd-pin", "123") == "EGD PIN '123' must be 8 digits"
    commands.update_player(db, "p0001", egd_pin="13701534")
    assert refused(db, env, "update-player", "p0001", "--from-ratings") == (
        "EGD PIN 13701534 is Celebican Barkin in the egd list of 2019-02-17, not Plain Jo; correct the PIN with "
        "--egd-pin")


def test_register_without_a_store_works_as_before(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "No Store", 3)
    env = {"GOLEDGER_RATINGS": str(tmp_path / "none.db")}
    r = run_cli("register", "--surname", "Ali", "--rank", "1d", "--egd-pin", "12345678", "--db", db, env=env)
    assert r.code == 0 and "PIN not checked: no ratings store" in r.out
    assert registered(db)[0].rating_list is None
    r = run_cli("register", "--egd-pin", "12345679", "--db", db, "--json", env=env)
    assert r.code == 1 and "a player needs a rank" in json.loads(r.err)["error"]


def test_register_from_file_is_all_or_nothing_with_a_report(desk: tuple[Path, dict[str, str]],
                                                            tmp_path: Path) -> None:
    db, env = desk
    bad = tmp_path / "bad.csv"
    bad.write_text("pin,surname,first_name,rank,club\n13701534,,,,\n,Newbie,Ned,12k,Paris\n1234,,,,\n"
                   "13701534,,,,\n,Newbie,Ned,12k,\n99999999,,,,\n", encoding="utf-8")
    before = head(db)
    r = run_cli("register", "--from-file", bad, "--db", db, "--json", env=env)
    assert r.code == 1 and head(db) == before
    assert json.loads(r.err) == {"error": "4 of 6 rows refused (lines 4, 5, 6, 7); nothing was written",
                                 "code": "rejected"}
    report = json.loads(r.out)
    assert report["written"] is False
    assert [(row["line"], row["decision"]) for row in report["rows"]] == [
        (2, "would register"), (3, "would register"), (4, "refused"), (5, "refused"), (6, "refused"), (7, "refused")]
    whys = [row["message"] for row in report["rows"]]
    assert whys[2] == "EGD PIN '1234' must be 8 digits"
    assert whys[3] == "EGD PIN 13701534 is already registered for p0001 Celebican Barkin"
    assert whys[4] == "Newbie Ned is already registered as p0002; use --force to register a namesake"
    assert whys[5].startswith("EGD PIN 99999999 is not in the egd list")
    good = tmp_path / "good.csv"
    good.write_text("PIN;Name;Rank\n13701534;;\n;Newbie Ned;12k\n12913120;Łukasz Lew;\n", encoding="utf-8")
    r = run_cli("register", "--from-file", good, "--db", db, env=env)
    assert r.code == 0, r.err
    assert r.out.splitlines()[0].startswith("line 2: registered: registered p0001 Celebican Barkin (1k)")
    # a "name" column is read surname first; the list's "Lew Lukasz" is the same words
    assert [(p.player_id, p.surname, p.rank) for p in registered(db)] == [
        ("p0001", "Celebican", "1k"), ("p0002", "Newbie", "12k"), ("p0003", "Łukasz", "1d")]
    unknown = tmp_path / "unknown.csv"
    unknown.write_text("pin,shoe size\n1,2\n", encoding="utf-8")
    assert "unknown column 'shoe size'" in refused(db, env, "register", "--from-file", str(unknown))


def test_an_old_registration_event_still_folds() -> None:
    """Schema 1 of PlayerRegistered (before ``rating_list``) decodes and folds unchanged."""
    old = {"type": "PlayerRegistered", "player_id": "p0001", "surname": "Sato", "first_name": "", "rank": "2d",
           "grade": "", "rating": None, "rating_origin": "", "country": "", "club": "", "egd_pin": "",
           "status": "final", "mm_correction": 0, "ids": {}, "start_number": 1, "extras": {}}
    payload = msgspec.json.encode(old)
    assert ev.PlayerRegistered.schema_version == 2
    event = ev.decode_event("PlayerRegistered", 1, payload)
    assert isinstance(event, ev.PlayerRegistered) and event.rating_list is None
    created = ev.TournamentCreated(settings=ev.TournamentSettings(name="Old", rounds=3))
    rows = [("TournamentCreated", 1, ev.canonical_bytes(created).decode()), ("PlayerRegistered", 1, payload.decode())]
    state = fold(ev.decode_rows(rows))
    assert state.players["p0001"].surname == "Sato" and state.players["p0001"].rating_list is None


@needs_shared
def test_acceptance_register_celebican_barkin_from_the_shared_list(shared: Path, tmp_path: Path) -> None:
    env = {"GOLEDGER_RATINGS": str(tmp_path / "ratings.db")}
    imported = json.loads(run_cli("ratings", "import", shared / EGD_LIST, "--json", env=env).out)
    db = tmp_path / "t.db"
    assert run_cli("new", "--name", "Istanbul Open", "--rounds", "5", "--db", db).code == 0
    r = run_cli("register", "--egd-pin", "13701534", "--db", db, "--json", env=env)
    assert r.code == 0, r.err
    out = json.loads(r.out)
    assert "from the egd list of 2019-02-22" in out["message"]
    payload = out["events"][0]["payload"]
    (event,) = registered(db)
    assert (event.surname, event.first_name, event.country, event.club, event.rank, event.rating) == (
        "Celebican", "Barkin", "TR", "Ist", "1k", 2004)
    assert event.rating_list is not None
    assert (event.rating_list.source, event.rating_list.date, event.rating_list.sha256) == (
        "egd", imported["date"], imported["sha256"])
    assert payload["rating_list"]["sha256"] == imported["sha256"] and payload["rating_list"]["listed"] is True


def test_the_log_says_where_a_registration_came_from(desk: tuple[Path, dict[str, str]]) -> None:
    db, env = desk
    assert run_cli("register", "--egd-pin", "13701534", "--club", "Ank", "--db", db, env=env).code == 0
    assert run_cli("register", "--egd-pin", "99999999", "--surname", "New", "--rank", "3k", "--db", db,
                   env=env).code == 0
    history = run_cli("history", "p0001", "--db", db).out + run_cli("history", "p0002", "--db", db).out
    assert ("p0001 Celebican Barkin registered (1k); surname, first_name, country, rank, grade, rating from the egd "
            "list of 2019-02-17") in history
    assert "p0002 New registered (3k); PIN not in the egd list of 2019-02-17" in history
