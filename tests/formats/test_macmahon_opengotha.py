"""Every real OpenGotha tournament of ../shared converted to MacMahon and back.

OpenGotha file → ledger A (OpenGotha importer) → MacMahon 3.10 XML → ledger B (MacMahon
importer). B keeps A's players, games, results, byes and absences, and gives the same
standings under the same policy: ``macmahon`` (every MacMahon criterion, every round) and
``egf`` (OpenGotha's MMS/NBW/SOSM/SOSOSM/SODOSM with the EGF rules' own values). Exporting B
gives the bytes exporting A gave.

Under the ``opengotha`` policy a file can differ: it scores with the file's own bye/absent
values and rounding, which a MacMahon file has no element for; the export report must then
name them (checked below).

Values compared modulo what MacMahon itself normalises (spec macmahon.md §B.6, §B.8, §B.12):
surrounding spaces, the case of country codes, leading zeros of EGD PINs, a rating of 0,
and a club without a country (which MacMahon cannot store).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from goledger.formats.macmahon.read import read_macmahon
from goledger.formats.macmahon.write import write_macmahon
from goledger.formats.opengotha.read import read_opengotha
from goledger.replay.fold.state import PlayerState, TournamentState, fold
from goledger.replay.scoring.macmahon_rules import macmahon_ids
from goledger.replay.scoring.standings import standings

from ..conftest import needs_shared
from ..opengotha_files import file_ids, shared_opengotha_files

FILES = shared_opengotha_files()
MACMAHON = ("MM-Score", "MM-ScoreX", "MM-Points", "MM-SOS", "MM-SOSOS", "MM-SODOS", "MM-SORP")
OPENGOTHA_FAMILY = ("MMS", "NBW", "SOSM", "SOSOSM", "SODOSM")


def _player(p: PlayerState) -> tuple[object, ...]:
    country = p.country.strip().upper()
    return (p.surname.strip(), p.first_name.strip(), p.rank, p.rating or None, country,
            p.club.strip() if country else "", p.egd_pin.strip().lstrip("0"), p.status, p.mm_correction)


def _absences(state: TournamentState) -> set[tuple[str, int]]:
    return {(pid, r) for pid in state.players for r in range(1, state.rounds + 1)
            if state.status(pid, r) in ("absent", "withdrawn")}


def _rows(state: TournamentState, round_: int, policy: str, criteria: tuple[str, ...],
          name: dict[str, str]) -> list[tuple[int, str, dict[str, int]]]:
    table = standings(state, round_, policy, criteria)
    return [(row.place, name[row.player_id], row.values) for row in table.rows]


@needs_shared
@pytest.mark.parametrize("path", FILES, ids=file_ids(FILES))
def test_opengotha_to_macmahon_and_back(path: Path) -> None:
    a = fold(read_opengotha(path.read_bytes(), source=path.name).events)
    data, export_report = write_macmahon(a)
    back = read_macmahon(data, source="converted.xml")
    assert not back.report.errors and not back.report.warnings, back.report.render(5)
    b = fold(back.events)
    assert b.anomalies == []

    # players, matched through the MacMahon Id (A's start number)
    ids = macmahon_ids(a.players)
    by_id = {p.start_number: pid for pid, p in b.players.items()}
    to_b = {pid: by_id[ids[pid]] for pid in a.players}
    assert len(b.players) == len(a.players)
    assert {to_b[pid]: _player(p) for pid, p in a.players.items()} == {pid: _player(p) for pid, p in b.players.items()}

    # games, results (with the referee/by-default flag), byes, absences
    def games(state: TournamentState, key: dict[str, str]) -> list[tuple[object, ...]]:
        return sorted((g.round, g.table, key[g.white], key[g.black], g.handicap, g.result.value, g.by_default)
                      for g in state.all_games())

    same = {pid: pid for pid in b.players}
    assert games(a, to_b) == games(b, same)
    assert {r: {to_b[p] for p in v} for r, v in a.byes.items() if v} == {r: set(v) for r, v in b.byes.items() if v}
    assert {(to_b[pid], r) for pid, r in _absences(a)} == _absences(b)

    # standings under the same policy
    for r in range(a.rounds + 1):
        assert _rows(a, r, "macmahon", MACMAHON, to_b) == _rows(b, r, "macmahon", MACMAHON, same), r
    final = a.rounds
    assert _rows(a, final, "egf", OPENGOTHA_FAMILY, to_b) == _rows(b, final, "egf", OPENGOTHA_FAMILY, same)
    if _rows(a, final, "opengotha", OPENGOTHA_FAMILY, to_b) != _rows(b, final, "opengotha", OPENGOTHA_FAMILY, same):
        assert any("scoring parameters of other programs" in e.message for e in export_report.warnings)

    # and the MacMahon file is byte-stable
    assert write_macmahon(b)[0] == data
