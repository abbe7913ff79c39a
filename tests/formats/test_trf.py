"""FIDE Tournament Report File: import (categories of every bye, forfeit and withdrawal), the
spec's examples with TieBreakServer's values, export, round trips, refusals and the CLI."""

from __future__ import annotations

import json
import re
from fractions import Fraction as F
from pathlib import Path

import msgspec
import pytest

from goledger.errors import FormatError
from goledger.formats.importing import ImportRefused
from goledger.formats.trf import export_trf, import_trf
from goledger.formats.trf.read import point_system_from_162, read_trf
from goledger.formats.trf.write import write_trf
from goledger.ledger import events as ev
from goledger.replay.fold.state import fold
from goledger.replay.scoring.fide_unplayed import FideData, Kind
from goledger.replay.scoring.policies import get_policy
from goledger.replay.scoring.standings import standings

from ..conftest import SHARED
from ..replay.test_fide_policies import withdrawal_tournament

# The two examples of spec formats/trf.md §11 (typed again here so a fresh clone tests them).
EXAMPLE_1 = """\
012 Example Open 2025
022 Oslo
032 NOR
042 2025/03/01
052 2025/03/02
062 6
072 5
092 Individual: Swiss-System
102 IA Ola Nordmann
XXR 3
001    1 w FM Adams, Anna                       2310 ENG      412345 1990/04/12  2.5    1  0004 w 1  0003 b =  0006 w 1
001    2 m    Berg, Bo                          2205 SWE     1723456 1985/11/02  2.0    4  0005 b 1  0000 - H  0003 w =
001    3 w    Costa, Carla                      2100 POR                         2.0    2  0006 w +  0001 w =  0002 b =
001    4 m    Dahl, Dag                         1950 NOR     1500001 2001/01/30  2.0    3  0001 b 0  0005 w 1  0000 - U
001    5 w    Egger, Eva                             AUT                         0.0    6  0002 w 0  0004 b 0  0000 - Z
001    6 m    Falk, Finn                        1800 GER    24600000             1.0    5  0003 b -  0000 - U  0001 b 0
"""

EXAMPLE_2 = """\
012 Club Championship 2026
### TRF-2026 style, written after round 2 of 5 (in-tournament data exchange)
022 Bergen
032 NOR
042 2026/01/10
052 2026/02/07
062 5
072 4
092 Individual: Swiss-System
102 IA Kari Nordmann
132                                                                                        26/01/10  26/01/17
142 5
162  W 1.0    D 0.5    L 0.0    A 0.0    P 1.0
212 PTS,BH/C1,BH,SB
240 H 003    3
XXR 5
001    1 m GM Svensson, Per                     2512 SWE     1700001 1979/06/01  2.0    1  0003 w 1  0000 - U
001    2 wWFM Hansen, Ida                       2088 NOR     1500002 2004/09/15  2.0    2  0004 b +  0005 w 1
001    3 m    Moe, Ola                          1875 NOR     1500003 1961/12/24  0.5    4  0001 b 0  0000 - H
001    4 w    Lie, Kari                         1702 NOR     1500004 1999/02/02  0.0    5  0002 w -
001    5 m    Berg, Jon                              NOR             2012/07/07  1.0    3  0000 - U  0002 b 0
"""


def spec_examples() -> list[str]:
    """The examples as written in ../shared/spec/formats/trf.md (the first two code blocks)."""
    assert SHARED is not None
    text = (SHARED / "spec" / "formats" / "trf.md").read_text(encoding="utf-8")
    return re.findall(r"```\n(.*?)```", text, re.S)[:2]


def _by_number(state: ev.Event | object) -> dict[int, str]:
    return {p.start_number: p.id for p in state.players.values()}  # type: ignore[attr-defined]


def check_example_1(text: str) -> None:
    result = read_trf(text.encode(), "ex1.trf")
    assert not result.report.errors and not result.report.warnings, result.report.render()
    state = fold(result.events)
    assert state.settings is not None and state.settings.system == "swiss" and state.settings.rounds == 3
    assert state.settings.policy == "fide-2024" and state.settings.begin_date == "2025-03-01"
    n = _by_number(state)
    data = FideData(state, 3, get_policy("fide-2024"))
    kinds = {num: [(fr.kind, fr.category) for fr in data.rounds[pid]] for num, pid in n.items()}
    assert kinds[2][1] == (Kind.HALF_BYE, 3)
    assert kinds[3][0] == (Kind.FORFEIT_WIN, 2)
    assert kinds[4][2] == (Kind.PAB, 1)
    assert kinds[5][2] == (Kind.WITHDRAWN, 5)
    assert kinds[6][:2] == [(Kind.FORFEIT_LOSS, 4), (Kind.PAB, 1)]
    assert state.players[n[5]].withdrawn_from == 3
    assert any("withdrawal from round 3 inferred" in e.message for e in result.report.entries)
    assert state.players[n[1]].rating == 2310 and state.players[n[1]].ids == {"fide_id": "412345"}
    assert state.players[n[1]].extras == {"trf.sex": "w", "trf.title": "FM", "trf.federation": "ENG",
                                          "trf.birth": "1990/04/12"}
    assert (state.players[n[1]].surname, state.players[n[1]].first_name) == ("Adams", "Anna")
    table = standings(state, 3, "fide-2024", ["PTS", "BH", "BH-C1", "SB"])
    got = {row.start_number: tuple(table.value(row, c) for c in table.criteria) for row in table.rows}
    # spec §11 Example 1 (TieBreakServer, Swiss mode): PTS, BH, BH-C1, SB
    assert got == {
        1: (F(5, 2), F(5), F(4), F(4)), 2: (F(2), F(9, 2), F(5, 2), F(5, 2)),
        3: (F(2), F(13, 2), F(9, 2), F(17, 4)), 4: (F(2), F(5), F(9, 2), F(5, 2)),
        5: (F(0), F(4), F(4), F(0)), 6: (F(1), F(9, 2), F(7, 2), F(1)),
    }
    adjusted = {num: F(data.adjusted2[pid], 2) for num, pid in n.items()}
    assert adjusted == {1: F(5, 2), 2: F(2), 3: F(2), 4: F(2), 5: F(1, 2), 6: F(1)}


def check_example_2(text: str) -> None:
    result = read_trf(text.encode(), "ex2.trf")
    assert not result.report.errors and not result.report.warnings, result.report.render()
    state = fold(result.events)
    assert state.settings is not None and state.settings.rounds == 5
    assert state.settings.criteria == ("PTS", "BH-C1", "BH", "SB")
    assert state.settings.policy_overrides == {}  # 162 states the standard system
    assert state.settings.extras["trf.132"].startswith("132 ") and "trf.212" not in state.settings.extras
    n = _by_number(state)
    assert state.last_round_with_games() == 2
    assert state.players[n[4]].withdrawn_from == 2
    assert state.players[n[3]].absences == {2: 1, 3: 1}  # R2 block H, R3 from the 240 record
    data = FideData(state, 2, get_policy("fide-2024"))
    assert [(fr.kind, fr.category) for fr in data.rounds[n[4]]] == [(Kind.FORFEIT_LOSS, 4), (Kind.WITHDRAWN, 5)]
    assert F(data.adjusted2[n[4]], 2) == F(1, 2)
    table = standings(state, 2, "fide-2024", ["BH", "SB"])
    got = {row.start_number: (table.value(row, "BH"), table.value(row, "SB")) for row in table.rows}
    # spec §11 Example 2 after round 2: BH 2.5, 3, 2.5, 0, 3 and SB 2.5, 3, 0.25, 0, 1
    assert got == {1: (F(5, 2), F(5, 2)), 2: (F(3), F(3)), 3: (F(5, 2), F(1, 4)), 4: (F(0), F(0)), 5: (F(3), F(1))}


def test_example_1() -> None:
    check_example_1(EXAMPLE_1)


def test_example_2() -> None:
    check_example_2(EXAMPLE_2)


@pytest.mark.shared
@pytest.mark.skipif(SHARED is None, reason="../shared is not present")
def test_spec_examples_from_shared() -> None:
    first, second = spec_examples()
    check_example_1(first)
    check_example_2(second)


def _without_provenance(events: list[ev.Event]) -> list[bytes]:
    return [ev.canonical_bytes(e) for e in events if not isinstance(e, ev.SourceImported)]


@pytest.mark.parametrize("text", [EXAMPLE_1, EXAMPLE_2], ids=["example1", "example2"])
def test_import_export_import_is_stable(text: str) -> None:
    first = read_trf(text.encode(), "a.trf")
    exported, report = write_trf(fold(first.events), lossless=True)
    second = read_trf(exported, "b.trf")
    assert _without_provenance(second.events) == _without_provenance(first.events)
    again, _ = write_trf(fold(second.events), lossless=True)
    assert again == exported
    assert not report.errors


def test_export_from_a_go_ledger_keeps_every_category() -> None:
    """A tournament recorded through goledger (forfeit, half-point bye, withdrawal, pairing
    bye) exported to TRF and read back gives the same FIDE values and categories."""
    state = withdrawal_tournament().state()
    data, report = write_trf(state)
    text = data.decode()
    lines = {line[4:8].strip(): line for line in text.splitlines() if line.startswith("001")}
    assert lines["1"][91:99] == "0002 w 1" and lines["1"][101:109] == "0003 w +"
    assert lines["1"][121:129] == "0000 - H"
    assert lines["3"][101:109] == "0001 b -"
    assert lines["5"][119:] == "  0000 - Z  0000 - Z"
    assert lines["6"][131:139] == "0000 - U"
    assert "XXR 5" in text and "142 5" in text and "212" not in text  # criteria of the policy, not the tournament
    back = fold(read_trf(data, "back.trf").events)
    assert back.players["p0005"].withdrawn_from == 4
    criteria = ["PTS", "BH", "BH-C1", "SB", "PS", "WIN", "REP"]
    for policy in ("fide-2009", "fide-2024", "fide-2026"):
        before = standings(state, 5, policy, criteria)
        after = standings(back, 5, policy, criteria)
        assert [(r.player_id, r.values) for r in after.rows] == [(r.player_id, r.values) for r in before.rows]
    assert any("Go ranks" in e.message for e in report.entries)


def test_unrated_games_and_round_robin_type() -> None:
    text = EXAMPLE_1.replace("0004 w 1  0003 b =", "0004 w W  0003 b =").replace(
        "0001 b 0  0005 w 1", "0001 b L  0005 w 1").replace("Individual: Swiss-System", "Round Robin")
    result = read_trf(text.encode(), "u.trf")
    state = fold(result.events)
    assert state.settings is not None and state.settings.system == "round-robin"
    assert state.settings.extras["trf.unrated"] == "1.1"
    exported, _ = write_trf(state)
    assert "0004 w W" in exported.decode() and "0001 b L" in exported.decode()


def test_point_systems() -> None:
    assert point_system_from_162("162  W 3.0    D 1.0    L 0.0") == ("W=3.0 D=1.0 L=0.0 P=3.0", [])
    text = EXAMPLE_1.replace("XXR 3", "XXR 3\nXXS W=3 D=1 PAB=3")
    result = read_trf(text.encode(), "p.trf")
    state = fold(result.events)
    assert state.settings is not None and state.settings.policy_overrides == {"point_system": "WW=3 BW=3 WD=1 BD=1 "
                                                                              "HPB=1 FPB=3 PAB=3 FW=3"}
    # every points column is now wrong (1-½-0 totals): each line is reported
    mismatches = [e for e in result.report.warnings if "points column" in e.message]
    assert len(mismatches) == 5  # Egger's 0.0 is right under any system
    table = standings(state, 3, None, ["PTS"])
    assert {row.start_number: table.value(row, "PTS") for row in table.rows}[1] == 7  # 3 + 1 + 3
    exported, _ = write_trf(state)
    assert "XXS WW=3 BW=3 WD=1 BD=1 HPB=1 FPB=3 PAB=3 FW=3" in exported.decode()
    assert " 7.0    1" in exported.decode()


def test_reported_problems() -> None:
    bad = EXAMPLE_1.replace("0006 w +", "0005 w +").replace("  2.5    1", "  3.5    1")
    result = read_trf(bad.encode(), "bad.trf")
    messages = [e.message for e in result.report.entries]
    assert any("3 meets 5 but 5's round 1 shows opponent 0002" in m for m in messages)
    assert any("points column says 3.5" in m for m in messages)
    assert result.report.errors
    odd = EXAMPLE_1.replace("0003 b -", "0003 b 0").replace("0000 - H", "0000 - X").replace(
        "XXR 3", "XXR 3\nXXA    1  1.0\n250 junk")
    result = read_trf(odd.encode(), "odd.trf")
    messages = [e.message for e in result.report.entries]
    assert any("do not match" in m for m in messages)
    assert any("result code 'X'" in m for m in messages)
    assert sum("is not used by goledger" in m for m in messages) == 2
    state = fold(result.events)
    assert state.settings is not None and state.settings.extras["trf.unmapped"] == "XXA    1  1.0\n250 junk"
    latin = EXAMPLE_1.replace("Egger, Eva", "Egger, Eva Müller").encode("cp1252")
    result = read_trf(latin, "latin.trf")
    assert any("Windows-1252" in e.message for e in result.report.warnings)
    assert "Eva Müller" in [p.first_name for p in fold(result.events).players.values()]
    with pytest.raises(FormatError, match="neither a player record"):
        read_trf(b"042 2020/09/16\nXXR 5\n", "nameless.trf")
    before_registration = fold(read_trf(b"012 Nothing here\n", "empty.trf").events)
    assert before_registration.players == {} and before_registration.settings is not None
    assert before_registration.settings.name == "Nothing here"


def test_import_refuses_errors_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bad.trf"
    path.write_text(EXAMPLE_1.replace("0006 w +", "0005 w +"), encoding="utf-8")
    db = tmp_path / "bad.db"
    with pytest.raises(ImportRefused, match="could not be imported"):
        import_trf(path, db)
    assert not db.exists()
    outcome = import_trf(path, db, allow_errors=True)
    assert Path(outcome.db).exists()


def test_cli_import_export(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    src = tmp_path / "open.trf"
    src.write_text(EXAMPLE_1, encoding="utf-8")
    db = tmp_path / "open.db"
    result = cli("import", "trf", src, "--db", db, "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["report"]["counts"]["withdrawals"] == {"read": 1, "recorded": 1}
    out = tmp_path / "again.trf"
    result = cli("export", "trf", "--db", db, "-o", out)
    assert result.code == 0, result.err
    assert out.read_text(encoding="utf-8").splitlines()[-1].startswith("001    6 m    Falk, Finn")
    result = cli("standings", "--adjusted", "--json", "--db", db)
    rows = {row["start_number"]: row for row in json.loads(result.out)["rows"]}
    assert rows[5]["adjusted"] == 0.5 and rows[5]["unplayed"][0]["category"] == "withdrawal"
    refused = cli("import", "trf", tmp_path / "missing.trf", "--db", tmp_path / "x.db")
    assert refused.code == 1 and "no such file" in refused.err
    outcome = export_trf(db, crlf=True)
    assert outcome.data.count(b"\r\n") == outcome.data.count(b"\n")
    assert msgspec.json.decode(outcome.report.to_json())["direction"] == "export"


def test_pab_value_inferred_from_the_points_column_and_round_robin_rests_round_trip(tmp_path: Path) -> None:
    """A round robin of 3 on the Berger table: each round one player rests (a bye worth 0).
    The TRF writes the rest as ``U`` with exact points; reading it back infers the bye's value
    from the points column, as TieBreakServer does, so the round trip is stable."""
    from goledger import commands
    from goledger.commands.schedule import schedule
    from goledger.replay.views import state_as_of

    db = tmp_path / "rr.db"
    commands.new(db, "RR3", 3, system="round-robin")
    for name in ("A", "B", "C"):
        commands.register(db, name, "", "1d")
    schedule(db)
    state = state_as_of(db)
    for game in state.all_games():
        commands.result(db, game.round, game.table, "white")
    state = state_as_of(db)
    data, _ = write_trf(state)
    assert data.decode().count("0000 - U") == 3
    back = read_trf(data, "rr.trf")
    assert not back.report.warnings
    assert any("byes worth 0" in e.message for e in back.report.entries)
    rests = [e for e in back.events if isinstance(e, ev.ByeAssigned)]
    assert [e.points2 for e in rests] == [0, 0, 0]
    again, _ = write_trf(fold(back.events))
    assert again == write_trf(fold(read_trf(again, "x").events))[0]


def test_zero_point_rounds_nobody_played_are_not_withdrawals() -> None:
    """Round 4 written as ``0000 - Z`` for everyone (not played yet) is an announced absence,
    not a withdrawal of the whole field; player 5's withdrawal still runs from round 3."""
    lines = [line + ("  0000 - Z" if line.startswith("001") else "") for line in EXAMPLE_1.splitlines()]
    result = read_trf(("\n".join(lines) + "\n").replace("XXR 3", "XXR 4").encode(), "z.trf")
    state = fold(result.events)
    withdrawn = {p.start_number: p.withdrawn_from for p in state.players.values() if p.withdrawn_from}
    assert withdrawn == {5: 3}
    assert state.players["p0001"].absences == {4: 0}
    assert state.last_round_with_games() == 3
