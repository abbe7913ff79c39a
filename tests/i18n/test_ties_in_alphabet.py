"""Inside a shared place, players are listed in the page's alphabet (issue 44, item 6).

A Turkish and a Hungarian McMahon before round 1: three players of one rank share a place
between a stronger and a weaker one. The desk's standings, the players' standings (HTTP on a
running ``goledger serve``) and the CLI's table and HTML printout list the tie as the
language's alphabet has it — Turkish ``Akçin, Çoban, Kıyak`` (code points: ``Akçin, Kıyak,
Çoban``), Hungarian ``Cukor, Csizmadia`` and ``Sütő, Szabó`` (code points: ``Csizmadia,
Cukor``, ``Szabó, Sütő``) — while the places and the JSON (the engine's order, OpenGotha's)
stay as they were."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from goledger import commands as rec

from ..conftest import run_cli
from ..desk_server import TOKEN, DeskServer

TURKISH = [("Zeki", "Ali", "2d"), ("Kıyak", "Can", "1k"), ("Çoban", "Eda", "1k"), ("Akçin", "Ece", "1k"),
           ("Ağar", "Mert", "5k")]
TURKISH_TIE = ["Akçin", "Çoban", "Kıyak"]
HUNGARIAN = [("Zách", "Béla", "2d"), ("Csizmadia", "Anna", "1k"), ("Szabó", "Gyula", "1k"), ("Cukor", "Ida", "1k"),
             ("Sütő", "Lőrinc", "1k"), ("Ács", "Péter", "5k")]
HUNGARIAN_TIE = ["Cukor", "Csizmadia", "Sütő", "Szabó"]
PLAYED = [("Tan", "Ali", "1k"), ("Çoban", "Eda", "1k"), ("Pala", "Can", "3k"), ("Öz", "Ece", "3k"),
          ("Vural", "Mert", "5k"), ("Üner", "Oya", "5k")]
ALPHABET = ["Çoban", "Öz", "Pala", "Tan", "Üner", "Vural"]
"""The surnames of the played tournament as the Turkish alphabet has them (ç after c, ö after o,
ü after u): each pair of one rank plays itself to a jigo and shares a place, and in code points
(``Pala < Tan < Vural < Çoban < Öz < Üner``) every pair is the other way round."""
CASES = {"tr": (TURKISH, TURKISH_TIE), "hu": (HUNGARIAN, HUNGARIAN_TIE)}


@pytest.fixture(scope="module")
def ledgers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("ties")
    built = {}
    for language, (names, _) in CASES.items():
        db = folder / f"{language}.db"
        rec.new(db, "Kupa", 3, "mcmahon", language=language)
        for surname, first, rank in names:
            rec.register(db, surname, first, rank)
        built[language] = db
    return built


def order(text: str, language: str) -> list[str]:
    """The surnames of ``language``'s players in the order ``text`` shows them."""
    names = [surname for surname, _, _ in CASES[language][0]]
    found = sorted((m.start(), name) for name in names for m in re.finditer(re.escape(name) + r"\b", text))
    return [name for _, name in found]


def expected(language: str) -> list[str]:
    """The stronger player, the tie in the alphabet, the weaker one: the places keep their order."""
    names, tie = CASES[language]
    return [names[0][0], *tie, names[-1][0]]


@pytest.mark.parametrize("language", ["tr", "hu"])
def test_cli_standings_list_a_tie_in_the_alphabet(ledgers: dict[str, Path], language: str) -> None:
    db = ledgers[language]
    table = run_cli("standings", "--db", db)  # the tournament's language
    assert table.code == 0, table.err
    assert order(table.out, language) == expected(language)
    given = run_cli("standings", "--db", db, "--language", language, "--format", "html")
    assert given.code == 0, given.err
    assert order(given.out, language) == expected(language)
    data = run_cli("standings", "--db", db, "--json")
    rows = json.loads(data.out)["rows"]
    engine = [r["surname"] for r in rows]
    assert engine != expected(language)  # the JSON keeps the engine's (code-point) order inside the tie
    assert engine[1:-1] == sorted(CASES[language][1])
    assert [r["place"] for r in rows] == [1, 2, *[2] * (len(rows) - 3), len(rows)]


@pytest.mark.parametrize("language", ["tr", "hu"])
def test_desk_and_public_standings_list_a_tie_in_the_alphabet(ledgers: dict[str, Path], language: str) -> None:
    with DeskServer(ledgers[language]) as desk:
        status, public, _ = desk.get(f"/standings?lang={language}")
        assert status == 200
        assert order(public, language) == expected(language)
        status, page, _ = desk.get(f"/desk/standings?lang={language}", headers={"Authorization": f"Bearer {TOKEN}"})
        assert status == 200, page
        assert 'name="criteria"' in page or "/desk/standings" in page  # the director's page, not the login
        assert order(page, language) == expected(language)
        status, english, _ = desk.get("/standings?lang=en")  # the root alphabet: Csizmadia before Cukor
        assert status == 200
        if language == "hu":
            assert order(english, language)[1:3] == ["Csizmadia", "Cukor"]


@pytest.mark.parametrize("language", ["tr", "hu"])
def test_wall_list_lists_a_tie_in_the_alphabet_numbered_as_listed(ledgers: dict[str, Path], language: str) -> None:
    db = ledgers[language]
    wall = run_cli("wall-list", "--db", db, "--format", "csv")  # the tournament's language
    assert wall.code == 0, wall.err
    assert order(wall.out, language) == expected(language)
    numbers = [line.split(",")[0] for line in wall.out.splitlines()[1:] if line]
    assert numbers[:len(expected(language))] == [str(i) for i in range(1, len(expected(language)) + 1)]
    data = json.loads(run_cli("wall-list", "--db", db, "--json").out)
    assert [r["name"].split()[0] for r in data["rows"]] != expected(language)  # the engine's order for programs
    with DeskServer(db) as desk:
        status, page, _ = desk.get(f"/print/wall?lang={language}")
        assert status == 200
        assert order(page, language) == expected(language)


@pytest.mark.parametrize("language", ["tr", "hu"])
def test_the_crosstable_lists_a_tie_in_the_alphabet(ledgers: dict[str, Path], language: str) -> None:
    db = ledgers[language]
    shown = run_cli("crosstable", "--db", db, "--format", "csv")
    assert shown.code == 0, shown.err
    assert order(shown.out, language) == expected(language)
    data = json.loads(run_cli("crosstable", "--db", db, "--json").out)
    assert [r["name"].split()[0] for r in data["rows"]] != expected(language)


def test_numbers_of_the_wall_list_and_crosstable_follow_the_listed_order(tmp_path: Path) -> None:
    """Each round cell names its opponent by his line number: with the tie listed in the
    alphabet, the numbers still point at the opponents the pairings give."""
    import csv
    import io

    from ..systems_support import pair_next

    db = tmp_path / "played.db"
    rec.new(db, "Kupa", 3, "mcmahon", language="tr")
    for surname, first, rank in PLAYED:
        rec.register(db, surname, first, rank)
    for g in pair_next(db, 1).games:
        rec.result(db, 1, g.table, "jigo")
    games = json.loads(run_cli("pairings", "--db", db, "--round", "1", "--json").out)["tables"]
    opponent = {**{g["white"]: g["black"] for g in games}, **{g["black"]: g["white"] for g in games}}
    for command, column in (("wall-list", 6), ("crosstable", 3)):
        shown = run_cli(command, "--db", db, "--format", "csv")
        assert shown.code == 0, shown.err
        rows = list(csv.reader(io.StringIO(shown.out)))[1:]
        names = [r[2] for r in rows]
        groups: list[list[str]] = []
        for row in rows:  # a place written once: the rows under it share it
            if row[1] or not groups:
                groups.append([])
            groups[-1].append(row[2].split()[0])
        assert [len(group) for group in groups] == [2, 2, 2], rows
        for group in groups:
            assert group == sorted(group, key=ALPHABET.index), (command, group)
        for row in rows:
            number = int(re.match(r"[0-9]+", row[column]).group())  # type: ignore[union-attr]
            if row[2] in opponent:
                assert names[number - 1] == opponent[row[2]], (command, row)
