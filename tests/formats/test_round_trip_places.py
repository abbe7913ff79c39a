"""Round trips keep the winner, or the import names each difference (issue 40, item 5).

A McMahon tournament with a 3p, a bar at 1d, handicap games, a jigo, a withdrawn player and
an announced absence in the last round is built through the CLI; it is exported to EGD, TRF,
OpenGotha and MacMahon and each file imported again, every step a ``goledger`` process. The
re-imported ledger must give every player the place (and Go rank) he had; and a file whose
carried lines are gone or changed must be imported with one warning per player it places
differently from goledger's rebuilt standings — never silently.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli

FORMATS = ("egd", "trf", "opengotha", "macmahon")


def ok(*args: str | Path) -> str:
    result = run_cli(*args)
    assert result.code == 0, result
    return result.out


@pytest.fixture(scope="module")
def cup(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three rounds of a McMahon cup (bar 1d, floor 20k) played through the CLI."""
    db = tmp_path_factory.mktemp("cup") / "cup.db"
    ok("new", "--db", db, "--name", "Cup", "--rounds", "3", "--system", "mcmahon", "--bar", "1d", "--floor", "20k")
    for surname, first, rank in (("Pro", "Paul", "3p"), ("Dan", "Dora", "5d"), ("One", "Ole", "1d"),
                                 ("Kyu", "Kim", "2k"), ("Low", "Lee", "10k"), ("Wd", "Will", "4k"),
                                 ("Mid", "Mia", "6k")):
        ok("register", "--db", db, "--surname", surname, "--first-name", first, "--rank", rank)
    play_round(db, 1, jigo_at=2)
    ok("withdraw", "--db", db, "Wd", "--from-round", "2", "--reason", "ill")
    play_round(db, 2, forfeit_at=1)
    ok("absent", "--db", db, "Kyu", "--round", "3")
    play_round(db, 3)
    return db


def play_round(db: Path, round_: int, jigo_at: int = 0, forfeit_at: int = 0) -> None:
    """Pair ``round_`` by the engine and record a result at every table: a jigo at table
    ``jigo_at``, else white at odd tables and black at even ones, by default at ``forfeit_at``
    (an EGD table writes a forfeit as two free rounds)."""
    ok("pair-round", str(round_), "--db", db)
    pairing = json.loads(ok("pairings", "--db", db, "--round", str(round_), "--json"))
    for game in pairing["tables"]:
        table = game["table"]
        result = "jigo" if table == jigo_at else ("white" if table % 2 else "black")
        ok("result", "--db", db, "--round", str(round_), "--table", str(table), result,
           *(["--by-default"] if table == forfeit_at else []))


def places(db: Path) -> dict[str, tuple[int, str]]:
    """Player name → (place, Go rank) in the ledger's standings (CLI, ``--json``)."""
    table = json.loads(ok("standings", "--db", db, "--json"))
    return {f"{row['surname']} {row['first_name']}": (row["place"], row["rank"]) for row in table["rows"]}


def round_trip(db: Path, fmt: str, folder: Path, edit: Any = None) -> tuple[Path, dict[str, Any]]:
    """Export ``db`` to ``fmt``, optionally rewrite the file's text with ``edit``, import it
    into a new ledger; the new ledger and the import report (JSON)."""
    exported = folder / f"cup.{fmt}"
    ok("export", fmt, "--db", db, "-o", exported)
    if edit is not None:
        exported.write_text(edit(exported.read_text(encoding="utf-8")), encoding="utf-8")
    back, report = folder / f"back-{fmt}.db", folder / f"back-{fmt}.json"
    ok("import", fmt, exported, "--db", back, "--report", report)
    return back, json.loads(report.read_text(encoding="utf-8"))


def place_warnings(report: dict[str, Any]) -> list[str]:
    return [e["message"] for e in report["entries"] if e["kind"] == "places" and e["severity"] == "warning"]


def test_the_cup_has_what_round_trips_lose(cup: Path) -> None:
    """The fixture holds each thing the issue names: a 3p, a withdrawal, a jigo, a last-round
    absence, and a forfeit."""
    shown = places(cup)
    assert shown["Pro Paul"][1] == "3p"
    log = ok("log", "--db", cup)
    assert "PlayerWithdrew" in log and "result=jigo" in log and "participating=False" in log
    assert "by_default=True" in log


@pytest.mark.parametrize("fmt", FORMATS)
def test_export_then_import_keeps_every_place_and_rank(cup: Path, fmt: str, tmp_path: Path) -> None:
    back, report = round_trip(cup, fmt, tmp_path)
    assert places(back) == places(cup)
    assert place_warnings(report) == []
    agree = [e["message"] for e in report["entries"] if e["kind"] == "places"]
    assert len(agree) == 1 and agree[0].startswith(f"the {len(places(cup))} places the file states agree"), agree


def test_trf_round_trip_keeps_the_withdrawal_and_the_last_round_absence(cup: Path, tmp_path: Path) -> None:
    """A TRF writes a withdrawal and an absence as ``Z`` alike; an absence in the last round
    came back a withdrawal. The standings' values (SOSM counts the handicaps) are the same too."""
    back, _report = round_trip(cup, "trf", tmp_path)
    players = {p["surname"]: p for p in json.loads(ok("players", "--db", back, "--json"))["players"]}
    original = {p["surname"]: p for p in json.loads(ok("players", "--db", cup, "--json"))["players"]}
    for name in ("Wd", "Kyu"):
        kept = ("status", "rank", "plays", "absent")
        assert {k: players[name][k] for k in kept} == {k: original[name][k] for k in kept}
    before = json.loads(ok("standings", "--db", cup, "--json"))["rows"]
    after = json.loads(ok("standings", "--db", back, "--json"))["rows"]
    assert [(r["surname"], r["values"]) for r in after] == [(r["surname"], r["values"]) for r in before]


def _without_carried(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if "goledger rules" not in line
                     and "goledger ranks" not in line) + ""


def test_egd_table_without_goledger_rules_names_each_difference(cup: Path, tmp_path: Path) -> None:
    """Without the comment line the bar falls back to 9d: the 3p and the 5d start above the
    1d they were level with. Every player the rebuilt standings place elsewhere than the
    table's place column is named, and no other."""
    back, report = round_trip(cup, "egd", tmp_path, _without_carried)
    table = (tmp_path / "cup.egd").read_text(encoding="utf-8")
    stated = {" ".join(m.group(2, 3)).replace("_", " "): int(m.group(1))
              for m in re.finditer(r"^\s*(\d+) (\S+) (\S+)\s", table, re.M)}
    rebuilt = {name: place for name, (place, _rank) in places(back).items()}
    moved = sorted(name for name, place in stated.items() if rebuilt[name] != place)
    assert moved, "the bar at 9d should move someone"
    warned = place_warnings(report)
    assert sorted(re.match(r"places differ: (.+?) is ", m).group(1) for m in warned) == moved  # type: ignore[union-attr]
    for message in warned:
        name = re.match(r"places differ: (.+?) is ", message).group(1)  # type: ignore[union-attr]
        assert f"is {ordinal(stated[name])} in the file, {ordinal(rebuilt[name])} in goledger's" in message


def test_trf_without_goledger_lines_names_each_difference(cup: Path, tmp_path: Path) -> None:
    """Read as a FIDE tournament (no McMahon rules, every rank 30k), the standings differ:
    each player placed elsewhere than the rank column says is named."""
    back, report = round_trip(cup, "trf", tmp_path, lambda text: "\n".join(
        line for line in text.split("\n") if not line.startswith("### goledger")))
    stated = {line[14:47].strip().replace(",", ""): int(line[85:89]) for line in
              (tmp_path / "cup.trf").read_text(encoding="utf-8").splitlines() if line.startswith("001")}
    rebuilt = {name: place for name, (place, _rank) in places(back).items()}
    moved = sorted(name for name, place in stated.items() if rebuilt[name] != place)
    assert moved
    warned = sorted(re.match(r"places differ: (.+?) is ", m).group(1)  # type: ignore[union-attr]
                    for m in place_warnings(report))
    assert warned == moved


@pytest.mark.parametrize("fmt", ("opengotha", "macmahon"))
def test_xml_places_line_changed_names_each_difference(cup: Path, fmt: str, tmp_path: Path) -> None:
    """An XML file states no places of its own; goledger's places comment, swapped for two
    players, makes the import name exactly those two."""
    def swap(text: str) -> str:
        match = re.search(r"<!-- goledger places ([^>]*) -->", text)
        assert match is not None
        values = match.group(1).split()
        first, last = values.index("1"), values.index(str(max(int(v) for v in values if v != "-")))
        values[first], values[last] = values[last], values[first]
        return text[:match.start(1)] + " ".join(values) + text[match.end(1):]

    back, report = round_trip(cup, fmt, tmp_path, swap)
    assert places(back) == places(cup)  # the rules still come back: only the stated places are wrong
    warned = place_warnings(report)
    assert len(warned) == 2, warned
    ranked = sorted(places(cup).items(), key=lambda item: item[1][0])
    assert {ranked[0][0], ranked[-1][0]} == {re.match(r"places differ: (.+?) is ", m).group(1)  # type: ignore[union-attr]
                                           for m in warned}


def test_opengotha_writes_a_professional_rank_as_its_grade(cup: Path, tmp_path: Path) -> None:
    """OpenGotha ranks a 3p 7D (its rank scale stops at 9D) and keeps the rank as professed in
    ``grade``: goledger writes 3P there and reads the 3p back."""
    exported = tmp_path / "cup.xml"
    ok("export", "opengotha", "--db", cup, "-o", exported)
    player = re.search(r'<Player [^>]*name="Pro"[^>]*/>', exported.read_text(encoding="utf-8"))
    assert player is not None and 'grade="3P"' in player.group(0) and 'rank="7D"' in player.group(0)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def test_a_damaged_goledger_line_is_ignored_with_a_warning(cup: Path, tmp_path: Path) -> None:
    """A carried line that cannot be read (a hand edit broke its JSON, a ranks line lost a
    rank) is ignored with a warning naming it; the import still says where places differ."""
    def damage(text: str) -> str:
        text = text.replace('; goledger rules {"system"', '; goledger rules {"system"::')
        return re.sub(r"(; goledger status \S+) \S+", r"\1 9z9", text)

    _back, report = round_trip(cup, "egd", tmp_path, damage)
    carried = [e["message"] for e in report["entries"] if e["kind"] == "carried" and e["severity"] == "warning"]
    assert len(carried) == 2, carried
    assert carried[0].startswith("goledger's line 'goledger rules {\"system\"::") and carried[0].endswith("; ignored")
    assert carried[1].startswith("goledger's line 'goledger status") and "'9z9' is not a withdrawal" in carried[1]
    assert place_warnings(report)  # the bar falls back to 9d: the places differ, and each is named
