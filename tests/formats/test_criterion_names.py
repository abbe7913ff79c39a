"""The formats name criteria through the one registry (``replay/scoring/criteria/names.py``,
issue 28 item 6): every criterion of the registry round-trips through every format that has a
name for it, each foreign spelling reads as its criterion, and no format module keeps a table
of criterion names of its own. Tournaments are folded in memory and written and read by the
formats' pure readers and writers (no ledger file)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from goledger.formats.egd.read import _header_criteria, read_egd
from goledger.formats.egd.write import write_egd
from goledger.formats.macmahon.read import read_macmahon
from goledger.formats.macmahon.write import write_macmahon
from goledger.formats.opengotha.read import read_opengotha
from goledger.formats.opengotha.write import write_opengotha
from goledger.formats.trf.read import read_trf
from goledger.formats.trf.write import write_trf
from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.replay.fold.state import TournamentState, fold
from goledger.replay.scoring.criteria import CRITERIA, known_criteria
from goledger.replay.scoring.criteria import names as registry

PACKAGE = Path(__file__).resolve().parents[2] / "goledger"


def _state(criteria: tuple[str, ...], policy: str = "opengotha") -> TournamentState:
    """Two players, one round, a white win, under ``criteria``."""
    settings = ev.TournamentSettings(name="Names Cup", rounds=1, criteria=criteria, policy=policy)
    return fold([
        ev.TournamentCreated(settings=settings),
        ev.PlayerRegistered(player_id="p0001", surname="Ali", first_name="Veli", rank="3d", start_number=1),
        ev.PlayerRegistered(player_id="p0002", surname="Berg", first_name="Anna", rank="1k", start_number=2),
        ev.GamePaired(round=1, table=1, white="p0001", black="p0002"),
        ev.ResultRecorded(round=1, table=1, result=Result.WHITE),
    ])


def _criteria_read(events: list[ev.Event]) -> tuple[str, ...]:
    created = next(e for e in events if isinstance(e, ev.TournamentCreated))
    return tuple(created.settings.criteria)


def _walllist(data: bytes) -> list[bytes]:
    """The short names of a MacMahon file's walllist criteria."""
    return re.findall(rb"<SortCriterionDescriptor[^>]*>\s*<ShortName>(?:<!\[CDATA\[)?([^<\]]+)", data)


def _chunks(names: list[str], size: int) -> list[tuple[str, ...]]:
    return [tuple(names[i : i + size]) for i in range(0, len(names), size)]


def test_the_registry_lists_every_registered_criterion() -> None:
    """One row per criterion goledger registers (its description is the criterion's own)."""
    assert sorted(row.name for row in registry.NAMES) == known_criteria()
    assert len({row.name for row in registry.NAMES}) == len(registry.NAMES)
    assert all(CRITERIA[row.name].description for row in registry.NAMES)


OPENGOTHA = [row.name for row in registry.NAMES if row.opengotha]


@pytest.mark.parametrize("criteria", _chunks(OPENGOTHA, 6), ids="-".join)
def test_opengotha_names_round_trip(criteria: tuple[str, ...]) -> None:
    data, _ = write_opengotha(_state(criteria))
    written = re.findall(rb'<PlacementCriterion name="([^"]+)"', data)[:6]  # then the team criteria
    assert [n.decode() for n in written if n != b"NULL"] == [registry.names_of(c).opengotha for c in criteria]
    events = read_opengotha(data)
    assert _criteria_read(events.events) == criteria


@pytest.mark.parametrize("row", [row for row in registry.NAMES if row.pairgoth], ids=lambda row: row.name)
def test_pairgoths_names_read_as_their_criterion(row: registry.CriterionNames) -> None:
    data, _ = write_opengotha(_state((row.name,)))
    for alias in row.pairgoth:
        result = read_opengotha(data.replace(f'name="{row.opengotha}"'.encode(), f'name="{alias}"'.encode()))
        assert _criteria_read(result.events) == (row.name,)
        assert any(alias in entry.message for entry in result.report.entries)


@pytest.mark.parametrize("row", [row for row in registry.NAMES if row.opengotha_change], ids=lambda row: row.name)
def test_opengotha_writes_the_registrys_criterion_instead(row: registry.CriterionNames) -> None:
    data, report = write_opengotha(_state((row.name,), policy="macmahon"))
    written = [n.decode() for n in re.findall(rb'<PlacementCriterion name="([^"]+)"', data)[:6] if n != b"NULL"]
    assert written == ([row.opengotha_instead] if row.opengotha_instead else [])
    assert any(row.opengotha_change in entry.message for entry in report.entries)


def test_macmahon_names_round_trip() -> None:
    criteria = tuple(row.name for row in registry.NAMES if row.macmahon)
    data, _ = write_macmahon(_state(criteria, policy="macmahon"))
    shorts = _walllist(data)
    assert [s.decode() for s in shorts] == [registry.names_of(c).macmahon for c in criteria]
    events = read_macmahon(data)
    assert _criteria_read(events.events) == criteria


@pytest.mark.parametrize("row", [row for row in registry.NAMES if row.macmahon_instead], ids=lambda row: row.name)
def test_macmahon_writes_the_registrys_short_name_instead(row: registry.CriterionNames) -> None:
    data, _ = write_macmahon(_state((row.name,)))
    shorts = _walllist(data)
    assert [s.decode() for s in shorts] == [row.macmahon_instead]
    events = read_macmahon(_without_carried(data))  # as MacMahon saves it: goledger's comments are gone
    assert _criteria_read(events.events) == (registry.CRITERION_FOR_MACMAHON[row.macmahon_instead or ""],)
    assert _criteria_read(read_macmahon(data).events) == (row.name,)  # goledger's own file keeps the criterion


EGD = [row.name for row in registry.NAMES if row.egd]


def _without_carried(data: bytes) -> bytes:
    """A file without the lines goledger writes for itself (:mod:`goledger.formats.carried`)."""
    return b"\n".join(line for line in data.split(b"\n") if b"goledger rules" not in line
                      and b"goledger places" not in line)


@pytest.mark.parametrize("criteria", _chunks(EGD, 8), ids="-".join)
def test_egd_names_round_trip(criteria: tuple[str, ...]) -> None:
    """The EGD writer heads its columns with the criteria's names; the reader reads them back
    (a table whose first criterion is not a score gets NBW as its main score, kept in front)."""
    data, _ = write_egd(_state(criteria))
    events = read_egd(data)
    read = _criteria_read(events.events)
    assert read[-len(criteria):] == criteria


@pytest.mark.parametrize("row", [row for row in registry.NAMES if row.egd or row.egd_either], ids=lambda r: r.name)
def test_egd_header_names_read_as_their_criterion(row: registry.CriterionNames) -> None:
    """A header name of the criterion reads as it; one of its W/M family as the family, which
    the table's main score turns into the criterion (``SOS`` after ``MMS`` is SOSM)."""
    for token in row.egd:
        assert _header_criteria(f"; Pl Name Rk Co Club {token}") == [row.name]
    for token in row.egd_either:
        (family,) = _header_criteria(f"; Pl Name Rk Co Club {token}")
        letter = "M" if family.replace("*", "M") == row.name else "W"
        assert family.replace("*", letter) == row.name
        main = {"M": "MMS", "W": "NBW"}[letter]
        table = _state((main,))
        data, _ = write_egd(table)
        header = next(x for x in data.decode().splitlines() if " Club" in x and x.startswith(";"))
        edited = data.replace(header.encode(), header.replace(f" {main}", f" {main} {token}").encode())
        events = read_egd(_without_carried(edited))  # the header alone, not goledger's rules line
        assert _criteria_read(events.events)[:2] == (main, row.name)


FIDE = [row.name for row in registry.NAMES if row.fide]


@pytest.mark.parametrize("criteria", _chunks(FIDE, 9), ids="-".join)
def test_fide_codes_round_trip_through_trf(criteria: tuple[str, ...]) -> None:
    data, _ = write_trf(_state(criteria, policy="fide-2024"))
    line = next(x for x in data.decode().splitlines() if x.startswith("212 "))
    assert line == "212 " + ",".join(registry.trf_code(c) or "" for c in criteria)
    events = read_trf(data)
    assert _criteria_read(events.events) == criteria


def test_trf_writes_no_212_without_every_fide_code() -> None:
    data, _ = write_trf(_state(("PTS", "SOSW"), policy="fide-2024"))
    assert not [x for x in data.decode().splitlines() if x.startswith("212 ")]


# --------------------------------------------------------------------------- no other tables

_FOREIGN = (set(known_criteria()) | registry.OPENGOTHA_NAMES | set(registry.PAIRGOTH_NAMES)
            | set(registry.CRITERION_FOR_MACMAHON) | set(registry.EGD_HEADER_NAMES)) - {""}

SCANNED = ("formats", "pairing", "replay/scoring/macmahon_rules.py", "replay/scoring/policies")


def _name_tables(source: str, where: str) -> list[str]:
    """Literal dicts, sets, lists and tuples holding five or more criterion names (goledger's
    or another program's): a name table of its own."""
    found = []
    for node in ast.walk(ast.parse(source)):
        items: list[ast.expr | None] = []
        if isinstance(node, ast.Dict):
            items = [*node.keys, *node.values]
        elif isinstance(node, (ast.Set, ast.List, ast.Tuple)):
            items = list(node.elts)
        names = {i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)} & _FOREIGN
        if len(names) >= 5:
            found.append(f"{where}:{node.lineno} {sorted(names)}")
    return found


def test_no_format_keeps_a_criterion_name_table_of_its_own() -> None:
    paths = [p for part in SCANNED for p in ([PACKAGE / part] if part.endswith(".py") else
                                             sorted((PACKAGE / part).rglob("*.py")))]
    assert len(paths) > 20
    found = [hit for path in paths
             for hit in _name_tables(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE.parent)))]
    assert not found, "criterion names belong in replay/scoring/criteria/names.py:\n" + "\n".join(found)


def test_the_table_check_can_fail() -> None:
    source = 'X = {"SOSW": "SOS", "SOSM": "SOS", "NBW": "Points", "MMS": "Score", "CAT": "x"}\nY = ("NBW", "MMS")\n'
    expected = "probe.py:1 ['CAT', 'MMS', 'NBW', 'Points', 'SOS', 'SOSM', 'SOSW', 'Score']"
    assert _name_tables(source, "probe.py") == [expected]
