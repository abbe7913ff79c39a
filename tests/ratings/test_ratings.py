"""The ratings store (issue 34, points 1 and 2): the EGD list reader, import, info, search."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from goledger.errors import CommandRejected
from goledger.formats.ratinglists import import_list, read_list
from goledger.formats.ratinglists.egd import read
from goledger.ratings.store import RatingsStore, default_path, save_list

from ..conftest import needs_shared
from ..ratings_support import (
    EGD_LIST,
    PLAYERS,
    egd_line,
    write_list,
)


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = tmp_path / "ratings.db"
    import_list(write_list(tmp_path / "list.txt"), "egd", path)
    return path


def test_every_player_line_is_parsed_or_listed(tmp_path: Path) -> None:
    bad = (egd_line("1370153", "Short Pin", "TR", "Ist", "1k", 2004, "T190217A"),
           egd_line("13462834", "Qiu Danyun", "0+", "8+", "8d", 2800, "T190216K"),
           egd_line("17301064", "_ _", "XX", "xxx", "4d", 2388, "T140802A"),
           egd_line("17301065", "Odd Grade", "XX", "xxx", "4x", 2388, "T140802A"),
           egd_line("17301066", "Odd Code", "XX", "xxx", "4d", 2388, "T141399A"),
           " 17301067  garbage")
    parsed = read_list(write_list(tmp_path / "l.txt", extra=bad))
    assert parsed.player_lines == len(PLAYERS) + len(bad) == parsed.declared_players
    assert len(parsed.players) + len(parsed.unparsed) == parsed.player_lines
    whys = [u.why for u in parsed.unparsed]
    assert whys == ["PIN '1370153' is not 8 digits", "country '0+' is not two capital letters",
                    "the name is blank", "grade '4x' is not a grade like 20k, 1k, 1d, 7d or 1p",
                    "last appearance 'T141399A' is not a tournament code like T190217A",
                    "not the columns PIN, name, country, club, grade, P&D, GoR, NT, last appearance"]
    assert parsed.ref.date == "2019-02-17"
    van = next(p for p in parsed.players if p.pin == "16825589")
    assert (van.surname, van.first_name) == ("Aarle", "Barbara van")


def test_a_player_without_tournaments_has_no_last_appearance() -> None:
    text = egd_line("18950052", "Choi Su-gyeom", "KR", "xxxx", "5d", 0, "", nt=0, pd="20k") + "\n" + egd_line(
        *PLAYERS[0])
    parsed = read(text.encode())
    choi = parsed.players[0]
    assert (choi.last_tournament, choi.nt, choi.promotion, choi.gor) == ("", 0, "20k", 0)


def test_a_file_that_is_no_list_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x.txt").write_text("hello\nworld\n")
    with pytest.raises(CommandRejected, match="not an EGD rating list"):
        read_list(tmp_path / "x.txt")
    with pytest.raises(CommandRejected, match="unknown rating list source 'fide'"):
        read_list(tmp_path / "x.txt", "fide")


def test_default_path_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GOLEDGER_RATINGS", str(tmp_path / "r.db"))
    assert default_path() == tmp_path / "r.db"
    monkeypatch.delenv("GOLEDGER_RATINGS")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "goledger" / "ratings.db"


def test_reimport_is_a_no_op_and_a_newer_list_replaces(tmp_path: Path, store: Path) -> None:
    again = import_list(tmp_path / "list.txt", "egd", store)
    assert again.status == "unchanged"
    newer = [*PLAYERS[:3], ("19999999", "Newman Nora", "DE", "Hamb", "4k", 1700, "T190301A")]
    outcome = import_list(write_list(tmp_path / "newer.txt", newer), "egd", store)
    assert (outcome.status, outcome.info.players, outcome.info.ref.date) == ("replaced", 4, "2019-03-01")
    assert outcome.previous is not None and outcome.previous.date == "2019-02-17"
    with RatingsStore(store) as s:
        assert s.lookup("12413126")[1] is None
        assert s.lookup("19999999")[1] is not None
        assert [m.player.pin for m in s.search("Nora Newman").matches] == ["19999999"]
    with sqlite3.connect(store) as conn:  # the old rows are gone, not hidden
        assert conn.execute("SELECT COUNT(*) FROM players").fetchone()[0] == 4
    with pytest.raises(CommandRejected, match=r"already holds a newer egd list \(2019-03-01\)"):
        import_list(tmp_path / "list.txt", "egd", store)


def test_a_search_never_sees_half_a_list(tmp_path: Path, store: Path) -> None:
    """A reader inside a read transaction keeps the old list while the new one is written
    and switched: the switch is one transaction (WAL snapshot)."""
    reader = sqlite3.connect(store, isolation_level=None)
    reader.execute("BEGIN")
    count = "SELECT COUNT(*) FROM players p JOIN lists l ON l.id = p.list WHERE l.current = 1"
    assert reader.execute(count).fetchone()[0] == len(PLAYERS)
    newer = [(f"1900{i:04d}", f"Name{i} First", "DE", "Hamb", "4k", 1700, "T190301A") for i in range(500)]
    import_list(write_list(tmp_path / "newer.txt", newer), "egd", store)
    assert reader.execute(count).fetchone()[0] == len(PLAYERS)
    reader.execute("COMMIT")
    assert reader.execute(count).fetchone()[0] == 500
    reader.close()


@pytest.mark.parametrize(("query", "pin"), [
    ("Çelebican Barkın", "13701534"), ("barkin celebican", "13701534"), ("CELEBICAN, Barkin", "13701534"),
    ("Celebicn Barkin", "13701534"), ("Celebiccan Barkin", "13701534"), ("Celebican Bakrin", "13701534"),
    ("Müller Cas", "10437416"), ("Kai Müller", "10437746"), ("Muller Kai", "10437746"), ("Kövács Antal", "12413126"),
    ("Barbara van Aarle", "16825589"), ("Dvořák Jakub", "12525931"), ("Łukasz Lew", "12913120"),
    ("İsmail Şahin", "14000003"), ("Françoise Dubois", "14000004"), ("Celeb", "13701534"), ("13701534", "13701534"),
])
def test_search_finds_the_player_as_he_says_his_name(store: Path, query: str, pin: str) -> None:
    with RatingsStore(store) as s:
        assert s.search(query).matches[0].player.pin == pin


def test_exact_first_and_homonyms_all_shown(store: Path) -> None:
    with RatingsStore(store) as s:
        matches = s.search("Mehmet Yılmaz").matches
        assert [(m.player.pin, m.score) for m in matches[:2]] == [("14000002", 100), ("14000001", 100)]
        kovacs = s.search("kovacs").matches
        assert {m.player.pin for m in kovacs} == {"12413126", "18625508"}
        assert [m.player.pin for m in s.search("kovacs", country="CZ").matches] == []
        assert s.search("Celebican Barkin").matches[0].score == 100
        assert s.search("Celebicn Barkin").matches[0].score < 100


def test_cli_import_info_search(cli, tmp_path: Path) -> None:
    env = {"GOLEDGER_RATINGS": str(tmp_path / "r.db")}
    listed = write_list(tmp_path / "list.txt", extra=(egd_line("13462834", "Qiu Danyun", "0+", "8+", "8d", 2800,
                                                               "T190216K"),))
    r = cli("ratings", "import", listed, "--json", env=env)
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert list(data)[:5] == ["source", "date", "sha256", "players", "unparsed"]
    assert (data["source"], data["date"], data["players"], data["status"]) == ("egd", "2019-02-17", 12, "imported")
    assert data["unparsed"] == [{"line": 22, "text": egd_line("13462834", "Qiu Danyun", "0+", "8+", "8d", 2800,
                                                              "T190216K"),
                                 "why": "country '0+' is not two capital letters"}]
    assert json.loads(cli("ratings", "import", listed, "--json", env=env).out)["status"] == "unchanged"
    r = cli("ratings", "info", env=env)
    assert "players: 12, unparsed lines: 1" in r.out and data["sha256"] in r.out
    r = cli("ratings", "search", "Çelebican Barkın", "--json", env=env)
    found = json.loads(r.out)
    assert found["list"] == {"source": "egd", "date": "2019-02-17", "sha256": data["sha256"]}
    assert found["matches"][0] == {"pin": "13701534", "surname": "Celebican", "first_name": "Barkin", "country": "TR",
                                   "club": "Ist", "grade": "1k", "gor": 2004, "last_tournament": "T190217A",
                                   "score": 100}
    r = cli("ratings", "search", "yilmaz", "--limit", "1", env=env)
    assert r.code == 0 and r.out.count("Yilmaz Mehmet") == 1
    other = tmp_path / "other.db"
    r = cli("ratings", "search", "kovacs", "--ratings", other, "--json", env=env)
    assert r.code == 1 and json.loads(r.err)["error"].startswith(f"no ratings store at {other}")
    r = cli("ratings", "search", "kovacs", "--limit", "0", "--json", env=env)
    assert r.code == 1 and json.loads(r.err) == {"error": "--limit 0 is outside 1..1000", "code": "rejected"}


def test_save_list_refuses_an_unwritable_store(tmp_path: Path) -> None:
    parsed = read_list(write_list(tmp_path / "list.txt"))
    (tmp_path / "dir.db").mkdir()
    with pytest.raises(CommandRejected, match="cannot write the ratings store"):
        save_list(parsed, "list.txt", tmp_path / "dir.db")


@needs_shared
def test_the_shared_egd_list_imports_with_every_line_accounted(shared: Path, tmp_path: Path) -> None:
    path = shared / EGD_LIST
    parsed = read_list(path)
    assert parsed.player_lines == parsed.declared_players == 45524
    assert len(parsed.players) + len(parsed.unparsed) == 45524
    assert {u.line for u in parsed.unparsed} == {32372, 45533}  # Qiu Danyun's '0+' country, the nameless '_ _'
    outcome = import_list(path, "egd", tmp_path / "r.db")
    assert outcome.info.players == len(parsed.players)
    with RatingsStore(tmp_path / "r.db") as s:
        _, barkin = s.lookup("13701534")
        assert barkin is not None and (barkin.full_name, barkin.country, barkin.club, barkin.grade, barkin.gor) == (
            "Celebican Barkin", "TR", "Ist", "1k", 2004)
        assert s.search("Çelebican Barkın").matches[0].player.pin == "13701534"


@needs_shared
def test_the_fast_reading_of_a_line_is_the_careful_one(shared: Path) -> None:
    """Every player of the shared list as the one-match reading gives him is what the
    column-by-column reading (the one that says why a line is not a player) gives."""
    from goledger.formats.ratinglists.egd import _player

    lines = (shared / EGD_LIST).read_text(encoding="utf-8").splitlines()
    parsed = read_list(shared / EGD_LIST)
    for player in parsed.players:
        assert _player(lines[player.line - 1], player.line) == player


def test_every_latin_letter_folds_as_anyascii_writes_it() -> None:
    """names.to_ascii gives Latin letters without loading anyascii, the same words as anyascii."""
    from anyascii import anyascii

    from goledger.ratings.names import to_ascii, tokens

    letters = [chr(c) for c in range(0xC0, 0x250) if chr(c).isalpha()]
    assert [c for c in letters if tokens(to_ascii(c)) != tokens(anyascii(c))] == []


def test_a_search_loads_no_typo_library(store: Path) -> None:
    """A search, a typo's included, loads no string-distance library (rapidfuzz cost some
    20 ms to load, a fifth of a whole ``ratings search``: issue 43): the typo is still found."""
    import subprocess
    import sys

    from ..conftest import REPO

    code = ("import sys; from goledger.ratings.store import RatingsStore; s = RatingsStore(sys.argv[1]); "
            "a = s.search('Çelebican Barkın').matches[0].player.pin; "
            "b = s.search('Celebicn Barkin').matches[0]; print(a, b.player.pin, b.score, 'rapidfuzz' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, str(store)], capture_output=True, text=True, cwd=REPO,
                         check=True).stdout.split()
    assert out == ["13701534", "13701534", "90", "False"]


def test_the_store_is_laid_out_as_sqlite_utils_lays_it_out(store: Path, tmp_path: Path) -> None:
    """The store writes its tables' DDL itself (importing sqlite-utils costs a tenth of an
    import); it stays exactly what sqlite-utils creates, and sqlite-utils reads it."""
    sqlite_utils = pytest.importorskip("sqlite_utils")
    theirs = sqlite_utils.Database(tmp_path / "theirs.db")
    theirs["lists"].create({"id": int, "source": str, "date": str, "sha256": str, "players": int, "unparsed": str,
                            "file": str, "imported_at": str, "current": int}, pk="id")
    theirs["lists"].create_index(["source", "current"])
    theirs["players"].create({"id": int, "list": int, "pin": str, "surname": str, "first_name": str, "country": str,
                              "club": str, "grade": str, "promotion": str, "gor": int, "nt": int,
                              "last_tournament": str, "last_date": str, "line": int, "name_key": str}, pk="id")
    theirs["players"].create_index(["list", "pin"])
    theirs["vocab"].create({"list": int, "length": int, "tokens": str}, pk=("list", "length"))
    query = "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'players_fts%' ORDER BY name"
    ours = sqlite3.connect(store)
    assert ours.execute(query).fetchall() == theirs.conn.execute(query).fetchall()
    ours.close()
    read_back = sqlite_utils.Database(store)
    assert read_back["players"].count == len(PLAYERS)
    assert read_back.execute("SELECT pin FROM players WHERE rowid IN (SELECT rowid FROM players_fts "
                             "WHERE players_fts MATCH 'celebican')").fetchall() == [("13701534",)]
