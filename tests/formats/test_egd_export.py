"""EGD export: what each line and cell holds, what the report lists, that every export
validates, and that an exported file imported again gives the same games, results and
free rounds."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from goledger.formats.egd.read import read_egd
from goledger.formats.egd.syntax import decode_egd, parse_table
from goledger.formats.egd.validate import ValidationResult, validate_table
from goledger.formats.egd.write import write_egd
from goledger.formats.report import InterchangeReport
from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.replay.fold.state import TournamentState, fold

from ..conftest import SHARED, needs_shared

# --------------------------------------------------------------------------- a small tournament


def example_events() -> list[ev.Event]:
    """Six players, three rounds, every kind of round an EGD table must handle."""
    settings = ev.TournamentSettings(
        name="Example Cup", location="Lyon", begin_date="2024-05-11", end_date="2024-05-12", rounds=3,
        system="swiss", criteria=("NBW",), komi="6.5",
        time=ev.TimeSettings(basic_minutes=60, system="canadian", canadian_stones=15, canadian_seconds=300),
    )
    players = [
        ("p0001", "Dupont", "Jean Marc", "2d", "FR", "Go Club de Lyon", "12345678"),
        ("p0002", "Van der Berg", "Anna", "1k", "NL", "Amst", ""),
        ("p0003", "Kowalski", "Łukasz", "3k", "PL", "Warszawa Go Club", ""),
        ("p0004", "Lee", "Min", "5k", "", "", "123"),
        ("p0005", "Martin", "Luc", "3k", "FR", "69Ly", ""),
        ("p0006", "Zed", "Zoe", "10k", "DE", "", ""),
    ]
    out: list[ev.Event] = [ev.TournamentCreated(settings=settings)]
    out += [ev.PlayerRegistered(player_id=i, surname=s, first_name=f, rank=r, country=c, club=cl, egd_pin=pin)
            for i, s, f, r, c, cl, pin in players]

    def game(round_: int, table: int, white: str, black: str, result: Result | None, *, handicap: int = 0,
             by_default: bool = False, color_known: bool = True) -> list[ev.Event]:
        paired: list[ev.Event] = [ev.GamePaired(round=round_, table=table, white=white, black=black,
                                                handicap=handicap, color_known=color_known)]
        if result is not None:
            paired.append(ev.ResultRecorded(round=round_, table=table, result=result, by_default=by_default))
        return paired

    out += game(1, 1, "p0001", "p0002", Result.WHITE)
    out += game(1, 2, "p0003", "p0004", Result.BLACK, handicap=2, color_known=False)
    out += game(1, 3, "p0005", "p0006", Result.WHITE, by_default=True)
    out += game(2, 1, "p0003", "p0001", Result.JIGO)
    out += game(2, 2, "p0002", "p0005", Result.BOTH_LOSE)
    out.append(ev.ByeAssigned(round=2, player_id="p0004"))
    out.append(ev.ParticipationChanged(player_id="p0006", round=2, participating=False))
    out += game(3, 1, "p0005", "p0001", Result.BLACK)
    out += game(3, 2, "p0002", "p0003", Result.WHITE)
    out += game(3, 3, "p0004", "p0006", None)
    return out


def export(state: TournamentState, **options: object) -> tuple[str, InterchangeReport, ValidationResult]:
    data, report = write_egd(state, **options)  # type: ignore[arg-type]
    text, encoding, _ = decode_egd(data)
    return text, report, validate_table(parse_table(text, "export.h9", encoding))


def rows(text: str) -> list[list[str]]:
    return [line.split() for line in text.splitlines() if line and not line.startswith(";")]


def messages(report: InterchangeReport, kind: str) -> list[str]:
    return [e.message for e in report.entries if e.kind == kind]


def test_example_export_line_by_line() -> None:
    text, report, validation = export(fold(example_events()), country="FR")
    header = [line for line in text.splitlines() if line.startswith("; ") and "[" in line
              and not line.startswith("; goledger ")]
    assert header == [
        "; CL[A]", "; EV[Example Cup]", "; PC[FR,Lyon]", "; DT[2024-05-11,2024-05-12]", "; HA[h1]", "; KM[6.5]",
        "; TM[80]", "; CM[Canadian byo-yomi: 60 min + 15 stones in 5 min]",
    ]
    # NBW after round 3: Dupont 2½, Lee 2, Martin 1 = Van der Berg 1 (tie: by surname), Kowalski ½.
    # Zed has no game the EGD can rate (a forfeit and a game without result): not listed.
    assert rows(text) == [
        ["1", "Dupont", "Jean_Marc", "2d", "FR", "Lyon", "2.5", "4+/w0", "5=/b0", "3+/b0", "|12345678"],
        ["2", "Lee", "Min", "5k", "XX", "xxxx", "2", "5+/b2", "0+", "0-"],
        ["3", "Martin", "Luc", "3k", "FR", "69Ly", "1", "0+", "0-", "1-/w0"],
        ["4", "Van_der_Berg", "Anna", "1k", "NL", "Amst", "1", "1-/b0", "0-", "5+/w0"],
        ["5", "Kowalski", "Łukasz", "3k", "PL", "Wars", "0.5", "2-/w2", "1=/w0", "4-/b0"],
    ]
    # The validator finds only what the report warned about: Lee's unknown country.
    assert dict(validation.codes()) == {"country-unknown": 1}
    assert messages(report, "country") == ["Lee Min (p0004) has no country: written as XX"]
    forfeits = messages(report, "forfeit")
    assert len(forfeits) == 1 and "white by default; written as free rounds 0+ (white) and 0- (black)" in forfeits[0]
    not_written = messages(report, "not-written")
    assert any("both-lose cannot be rated" in m for m in not_written)
    assert any("round 3, Lee Min (p0004) (white) vs Zed Zoe (p0006): no result" in m for m in not_written)
    assert any(m.startswith("Zed Zoe (p0006) has no game the EGD can rate") for m in not_written)
    assert messages(report, "tie-broken") == [
        "2 players share place 3 on NBW; written as places 3–4 ordered by surname, first name, then ledger id: "
        "Martin Luc (p0005); Van der Berg Anna (p0002)"
    ]
    assert any("'Go Club de Lyon'" in m and "'Lyon'" in m for m in messages(report, "club"))
    assert any("'Warszawa Go Club'" in m and "'Wars'" in m for m in messages(report, "club"))
    assert messages(report, "pin") == ["Lee Min (p0004)'s EGD PIN '123' is not 8 digits: not written"]
    assert any("round 1, Kowalski" in m and "colour not known" in m for m in messages(report, "colour"))
    assert report.counts["games"] == {"read": 8, "recorded": 5}
    assert report.counts["players"] == {"read": 6, "recorded": 5}


def test_marked_forfeits_latin1_class_round_and_refusals() -> None:
    state = fold(example_events())
    text, report, validation = export(state, forfeits="marked", encoding="latin-1", egd_class="B", country="FR")
    table = rows(text)
    assert table[2][7] == "6+!w0" and table[5][7] == "3-!b0"
    assert dict(validation.codes()) == {"country-unknown": 1, "forfeit-marked": 2}
    assert "; CL[B]" in text and table[4][2] == "Lukasz" and len(table) == 6
    assert "first name 'Łukasz' written as 'Lukasz'" in messages(report, "transliterated")
    data, _ = write_egd(state, encoding="latin-1", country="FR")
    data.decode("latin-1")  # no UnicodeDecodeError, and no ½ anywhere
    # Round 1 only: one cell per player, standings after round 1.
    text1, _, validation1 = export(state, round=1, country="FR")
    assert {len(r) for r in rows(text1)} <= {8, 9} and validation1.rounds == 1
    from goledger.errors import CommandRejected

    for bad in ({"encoding": "cp1252"}, {"forfeits": "drop"}, {"egd_class": "X"}, {"round": 4}, {"country": "SW"}):
        with pytest.raises(CommandRejected):
            write_egd(state, **bad)  # type: ignore[arg-type]


def test_header_falls_back_and_reports() -> None:
    events = example_events()
    base = events[0]
    assert isinstance(base, ev.TournamentCreated)
    odd = ev.TournamentCreated(settings=ev.TournamentSettings(
        **{**{f: getattr(base.settings, f) for f in base.settings.__struct_fields__},
           "begin_date": "2024-05-12", "end_date": "2024-05-11",
           "time": ev.TimeSettings(basic_minutes=20, system="sudden-death")}))
    text, report, validation = export(fold([odd, *events[1:]]))
    assert "CL[" not in text and "DT[" not in text and "; PC[FR,Lyon]" not in text
    assert "; PC[,Lyon]" in text  # the city without the country, as OpenGotha writes it (issue 19.11)
    assert dict(validation.codes()) == {"country-unknown": 1, "tag-missing": 2, "pc-country-missing": 1}  # CL, DT
    headers = " ".join(messages(report, "header"))
    assert "meet no EGF class" in headers and "before the first" in headers and "country is unknown" in headers


def test_no_game_refuses() -> None:
    from goledger.errors import CommandRejected

    with pytest.raises(CommandRejected, match="nothing to export"):
        write_egd(fold(example_events()[:7]))


def test_games_without_a_rated_result_refuse_instead_of_writing_an_empty_table() -> None:
    """Games paired but none with a result the EGD rates (OpenGotha's ``Essai.h9`` holds only
    ``?`` results): the export wrote a table with no player line, which the validator (and
    the EGD) reject; it now refuses, and says how forfeits could be written."""
    from goledger.errors import CommandRejected

    events = example_events()[:7]
    events += [ev.GamePaired(round=1, table=1, white="p0001", black="p0002"),
               ev.GamePaired(round=1, table=2, white="p0003", black="p0004"),
               ev.ResultRecorded(round=1, table=2, result=Result.BOTH_LOSE),
               ev.GamePaired(round=1, table=3, white="p0005", black="p0006"),
               ev.ResultRecorded(round=1, table=3, result=Result.WHITE, by_default=True)]
    with pytest.raises(CommandRejected, match=r"no game of rounds 1\.\.1 has a result the EGD can rate .*nor are "
                                              r"forfeits, unless --forfeits marked"):
        write_egd(fold(events))
    text, _report, validation = export(fold(events), forfeits="marked")
    assert validation.ok and "2+!w0" in text


# --------------------------------------------------------------------------- round trip


def _signature(surname: str, first: str, rank: str) -> tuple[str, str, str]:
    return (" ".join(surname.replace("_", " ").split()), " ".join(first.replace("_", " ").split()), rank)


def _games(state: TournamentState, last_round: int, forfeits: str) -> Counter[tuple[object, ...]]:
    """The games an EGD table can hold, by player signature."""
    sig = {pid: _signature(p.surname, p.first_name, p.rank) for pid, p in state.players.items()}
    out: Counter[tuple[object, ...]] = Counter()
    for g in state.all_games():
        if g.round > last_round or g.result in (Result.UNKNOWN, Result.BOTH_WIN, Result.BOTH_LOSE):
            continue
        if g.by_default and forfeits == "free":
            continue
        out[(g.round, sig[g.white], sig[g.black], g.handicap, g.result, g.by_default)] += 1
    return out


def _free_cells(text: str) -> Counter[tuple[object, ...]]:
    table = parse_table(text)
    return Counter(
        (_signature(p.name_tokens[0], p.name_tokens[1], p.rank_text), r, c.text)
        for p in table.players for r, c in enumerate(p.cells, start=1) if c.is_free
    )


def round_trip(state: TournamentState, forfeits: str) -> None:
    first, report = write_egd(state, forfeits=forfeits)  # type: ignore[arg-type]
    last_round = int(report.dialect.rsplit(" ", 1)[1])
    events, import_report = read_egd(first, "export.h9")
    assert not import_report.has_errors and not import_report.has_warnings, import_report.render()
    again = fold(events)
    assert _games(again, last_round, forfeits) == _games(state, last_round, forfeits)
    # the other games of listed players (forfeits, results the EGD does not rate) come back
    # from goledger's games line (issue 40): every game between two listed players is there
    listed = {_signature(p.surname, p.first_name, p.rank) for p in again.players.values()}
    sig = {pid: _signature(p.surname, p.first_name, p.rank) for pid, p in state.players.items()}
    assert sum(1 for _ in again.all_games()) == sum(1 for g in state.all_games() if g.round <= last_round
                                                    and sig[g.white] in listed and sig[g.black] in listed)
    second, _ = write_egd(again, forfeits=forfeits)  # type: ignore[arg-type]
    assert _free_cells(second.decode()) == _free_cells(first.decode())


@pytest.mark.parametrize("forfeits", ["free", "marked"])
def test_example_round_trip(forfeits: str) -> None:
    round_trip(fold(example_events()), forfeits)


# --------------------------------------------------------------------------- every shared tournament


def _shared_xml() -> list[Path]:
    if SHARED is None:
        return []
    files = sorted((SHARED / "oracle" / "inputs").glob("*.xml")) + sorted((SHARED / "realdata" / "opengotha").glob(
        "*.xml"))
    return [f for f in files if not f.stem.endswith("-as-saved")]


# Validator warnings an export may carry, each with the export-report kind that announced it.
EXPLAINED = {"country-unknown": "country", "tag-missing": "header", "forfeit-marked": "forfeit",
             "name-lost-characters": "name", "duplicate-player": "name", "pc-country-missing": "header"}


def _load_xml(path: Path) -> TournamentState:
    from goledger.formats.opengotha.read import read_opengotha

    return fold(read_opengotha(path.read_bytes(), source=path.name).events)


@needs_shared
@pytest.mark.parametrize("path", _shared_xml(), ids=lambda p: p.name)
@pytest.mark.parametrize("forfeits", ["free", "marked"])
def test_every_shared_tournament_exports_a_valid_file_that_round_trips(path: Path, forfeits: str) -> None:
    state = _load_xml(path)
    if not any(True for _ in state.all_games()):
        pytest.skip("no game in this file (nothing to export)")
    text, report, validation = export(state, forfeits=forfeits)
    assert validation.ok, validation.render(limit=10)
    kinds = {e.kind for e in report.entries if e.severity == "warning"}
    for problem in validation.warnings:
        assert problem.code in EXPLAINED, problem
        assert EXPLAINED[problem.code] in kinds, problem
    places = [p.place for p in parse_table(text).players]
    assert places == list(range(1, len(places) + 1))
    round_trip(state, forfeits)


# --------------------------------------------------------------------------- command line


def test_cli_export_import_and_reports(tmp_path: Path, cli) -> None:
    from goledger.ledger.store import Ledger

    db = tmp_path / "cup.db"
    with Ledger.create(db) as ledger:
        ledger.append(example_events(), actor="test")
    out = tmp_path / "cup.h9"
    report_file = tmp_path / "export.json"
    done = cli("export", "egd", "--db", db, "-o", out, "--country", "FR", "--report", report_file)
    assert done.code == 0, done.err
    assert "wrote" in done.out and out.read_text(encoding="utf-8").startswith("; CL[A]")
    assert json.loads(report_file.read_text())["direction"] == "export"
    to_stdout = cli("export", "egd", "--db", db, "--country", "FR", "--forfeits", "marked")
    assert to_stdout.code == 0 and "6+!w0" in to_stdout.out and "forfeit" in to_stdout.err
    assert cli("export", "egd", "--db", db, "--forfeits", "drop").code == 2
    refused = cli("export", "egd", "--db", db, "--class", "X")
    assert refused.code == 1 and "class 'X'" in refused.err

    imported = tmp_path / "again.db"
    done = cli("import", "egd", out, "--db", imported, "--report", tmp_path / "import.json")
    assert done.code == 0, done.err
    assert "5 players, 5 games, 5 free rounds" in done.out
    assert json.loads((tmp_path / "import.json").read_text())["format"] == "egd"
    standings = cli("standings", "--db", imported, "--json")
    assert standings.code == 0 and len(json.loads(standings.out)["rows"]) == 5
    again = cli("import", "egd", out, "--db", imported)
    assert again.code == 1 and "already exists" in again.err
    strict = cli("import", "egd", out, "--db", tmp_path / "strict.db", "--strict")
    assert strict.code == 0  # our own export has no warning to refuse


def test_cli_import_refuses_an_inconsistent_file(tmp_path: Path, cli) -> None:
    bad = tmp_path / "bad.h9"
    bad.write_text(
        "; EV[Bad]\n   1 A a 2d FR 69Ly 1 2+/w0\n   2 B b 1k NL Amst 1 3+/b0\n   3 C c 1k NL Amst 1 2-/w0\n",
        encoding="utf-8",
    )
    report = tmp_path / "r.json"
    refused = cli("import", "egd", bad, "--db", tmp_path / "bad.db", "--report", report)
    assert refused.code == 1 and "nothing was written" in refused.err
    assert not (tmp_path / "bad.db").exists()
    assert not report.exists()  # a refusal writes no report (issue 40, item 6); stderr shows it
    assert "played someone else" in refused.err
    as_json = cli("import", "egd", bad, "--db", tmp_path / "bad.db", "--report", report, "--json")
    assert as_json.code == 1 and "played someone else" in json.loads(as_json.err)["error"] and not report.exists()
    lenient = cli("import", "egd", tmp_path / "missing.h9")
    assert lenient.code == 1 and "no such file" in lenient.err


def test_names_the_validator_would_flag_are_reported() -> None:
    events = example_events()
    events[2] = ev.PlayerRegistered(player_id="p0002", surname="Dupont", first_name="Jean Marc", rank="2d",
                                    country="NL")
    events[3] = ev.PlayerRegistered(player_id="p0003", surname="K?walski", first_name="Łukasz", rank="3k",
                                    country="PL")
    _text, report, validation = export(fold(events), country="FR")
    assert dict(validation.codes()) == {"country-unknown": 1, "duplicate-player": 1, "name-lost-characters": 1}
    names = messages(report, "name")
    assert any("'K?walski' contains '?'" in m for m in names)
    assert any("Dupont Jean_Marc 2d appears twice" in m for m in names)
