"""EGD tables: tokenising (egd_syntax) and every validator rule on small hand-made files."""

from __future__ import annotations

import json

import pytest

from goledger.formats.egd.syntax import decode_egd, parse_cell, parse_table
from goledger.formats.egd.validate import validate_table

HEADER = """; CL[A]
; EV[Example Cup]
; PC[FR,Lyon]
; DT[2024-05-11,2024-05-12]
; HA[h9]
; KM[7.5]
; TM[82]
; CM[Canadian byo-yomi]
; Pl Name                  Rk Co Club  MMS  SOS
"""

CLEAN_ROWS = """   1 Dupont Jean           2d FR 69Ly   23   64   3+/w0   2+/b0     0+ |12345678
   2 Van_der_Berg Anna     1k NL Amst   22   65   4+/w0   1-/w0   3+/b0
   3 Martin Luc            3k FR 69Ly   21   66   1-/b0   4+/b0   2-/w0
   4 Lee Min_Ho            5k FR xxxx   20   63   2-/b0   3-/w0     0-
"""


def check(text: str) -> tuple[dict[str, int], list[tuple[int | None, str]]]:
    result = validate_table(parse_table(text, "t.h9"))
    return dict(result.codes()), [(p.line, p.code) for p in result.problems]


def replace_row(row: int, new: str) -> str:
    lines = CLEAN_ROWS.splitlines()
    lines[row - 1] = new
    return HEADER + "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- syntax


def test_cells_of_every_shape_real_files_use() -> None:
    assert parse_cell("23+/w") == parse_cell("23+/w")
    c = parse_cell("11-/b5")
    assert (c.opponent, c.result, c.colour, c.handicap, c.forfeit, c.is_strict) == (11, "-", "b", 5, False, True)
    for text in ("22+!w0", "20+!w", "3+/b0!"):
        cell = parse_cell(text)
        assert cell is not None and cell.forfeit and not cell.is_strict
    assert parse_cell("12+/?0").colour == "?"
    assert parse_cell("0=0").is_free and not parse_cell("0=0").is_strict
    assert parse_cell("5+").colour is None and parse_cell("5+").is_strict
    for not_a_cell in ("12,5", "00", "000", "-3", "Sto", "|12345678", "12.5"):
        assert parse_cell(not_a_cell) is None, not_a_cell


def test_round_count_ignores_tiebreak_values_shaped_like_cells() -> None:
    # "408?" is SOS 408½ after ISO-8859-15: shaped like a cell (opponent 408, result unknown).
    text = HEADER + (
        "   1 A a   2d FR 69Ly   23  408?   2+/w0   3+/b0\n"
        "   2 B b   1k NL Amst   22   395   1-/b0     0-\n"
        "   3 C c   1k NL Amst   22  395?     0-    1-/w0\n"
    )
    table = parse_table(text)
    assert table.rounds == 2
    assert [p.columns for p in table.players] == [("23", "408?"), ("22", "395"), ("22", "395?")]
    codes, where = check(text)
    assert codes == {"tiebreak-cell-shaped": 2}
    assert [line for line, code in where] == [10, 12]


def test_blank_place_numeric_surname_missing_club_and_pin() -> None:
    text = HEADER + (
        "   1 1533 Wei      30k XX xxxx 00 0 000 000  0+    2+/w0 |12345678\n"
        "     1508 Li       30k CN Pek  00 0 000 000  0-    1-/b0\n"
        "   3 Sorlin Wei     5d SE  00 0 000 000  0=  0+\n"
        "   4 Chun Tang      3k SE Sto 00 0 000 000  0=  0-\n"
    )
    table = parse_table(text)
    first, second, third, fourth = table.players
    assert (first.place, first.name_tokens, first.pin) == (1, ("1533", "Wei"), "12345678")
    assert (second.place, second.name_tokens, second.rank_text) == (None, ("1508", "Li"), "30k")
    assert third.club is None and third.missing == ("club",) and third.columns[0] == "00"
    assert fourth.club == "Sto"


def test_decoding_falls_back_to_iso_8859_15_and_accepts_crlf_and_bom() -> None:
    raw = ("; EV[Tournoi]\r\n   1 Fran\xe7ois Luc  2d FR 69Ly  1  0+\r\n").encode("iso-8859-15")
    text, encoding, bom = decode_egd(raw)
    assert (encoding, bom) == ("iso-8859-15", False)
    table = parse_table(text)
    assert table.crlf and table.players[0].name_tokens == ("François", "Luc")
    assert decode_egd(b"\xef\xbb\xbf; EV[x]\n")[1:] == ("utf-8", True)


# --------------------------------------------------------------------------- validator rules


def test_a_correct_file_is_clean() -> None:
    result = validate_table(parse_table(HEADER + CLEAN_ROWS, "ok.h9"))
    assert result.clean, result.render()
    assert (result.players, result.rounds, result.games) == (4, 3, 5)


@pytest.mark.parametrize(
    ("row", "line", "codes"),
    [
        # results not opposite on the two halves
        (2, "   2 Van_der_Berg Anna     1k NL Amst   22   65   4+/w0   1+/w0   3+/b0", {"pair-result": 1}),
        # same colour on both halves
        (3, "   3 Martin Luc            3k FR 69Ly   21   66   1-/w0   4+/b0   2-/w0", {"pair-colour": 1}),
        # handicap differs
        (3, "   3 Martin Luc            3k FR 69Ly   21   66   1-/b2   4+/b0   2-/w0", {"pair-handicap": 1}),
        # the opponent's cell names someone else → both halves are unanswered
        (4, "   4 Lee Min_Ho            5k FR xxxx   20   63   2-/b0   3-/w0   3+/w0", {"pair-missing": 1}),
        # opponent outside the table, and a player playing himself
        (4, "   4 Lee Min_Ho            5k FR xxxx   20   63   2-/b0   3-/w0   9+/w0", {"opponent-range": 1}),
        (4, "   4 Lee Min_Ho            5k FR xxxx   20   63   2-/b0   3-/w0   4+/w0", {"opponent-self": 1}),
        # a missing round cell
        (4, "   4 Lee Min_Ho            5k FR xxxx   20   63   2-/b0   3-/w0", {"rounds-count": 1}),
        # unknown result and colour, forfeit mark, handicap out of range, odd free cell, bad syntax
        (4, "   4 Lee Min_Ho            5k FR xxxx   20   63   2-/b0   3-/w0     0?", {"result-unknown": 1}),
        (4, "   4 Lee Min_Ho            5k FR xxxx   20   63   2-/b0   3-/w0   0=0", {"free-cell-extra": 1}),
        (1, "   1 Dupont Jean           2d FR 69Ly   23   64   3+/w0   2+/b0     0+ |1234567", {"pin": 1}),
        (1, "   1 Dupont Jean           2d FR 69Ly   23   64   3+/w0   2+/b0     0+ |12345678 ; note", {}),
        (2, "     Van_der_Berg Anna     1k NL Amst   22   65   4+/w0   1-/w0   3+/b0", {"place-blank": 1}),
        (2, "   3 Van_der_Berg Anna     1k NL Amst   22   65   4+/w0   1-/w0   3+/b0", {"place-sequence": 1}),
        (2, "   2 Van der Berg Anna     1k NL Amst   22   65   4+/w0   1-/w0   3+/b0", {"name-tokens": 1}),
        (2, "   2 Van_der_Berg A?na     1k NL Amst   22   65   4+/w0   1-/w0   3+/b0", {"name-lost-characters": 1}),
        (2, "   2 Van_der_Berg Anna    10d NL Amst   22   65   4+/w0   1-/w0   3+/b0", {"rank": 1}),
        (2, "   2 Van_der_Berg Anna     10 NL Amst   22   65   4+/w0   1-/w0   3+/b0", {"rank-no-suffix": 1}),
        (2, "   2 Van_der_Berg Anna     1k SW Amst   22   65   4+/w0   1-/w0   3+/b0", {"country": 1}),
        (2, "   2 Van_der_Berg Anna     1k XX Amst   22   65   4+/w0   1-/w0   3+/b0", {"country-unknown": 1}),
        (2, "   2 Van_der_Berg Anna     1k NL Amstel 22   65   4+/w0   1-/w0   3+/b0", {"club-length": 1}),
        (2, "   2 Van_der_Berg Anna     1k NL        22   65   4+/w0   1-/w0   3+/b0", {"club-missing": 1}),
        (2, "   2 Van_der_Berg Anna     1k NL Am st  22   65   4+/w0   1-/w0   3+/b0", {"columns": 1}),
    ],
)
def test_each_broken_rule_is_reported_on_its_line(row: int, line: str, codes: dict[str, int]) -> None:
    found, where = check(replace_row(row, line))
    assert found == codes
    # Problems sit on the changed line, or (pair problems) on the first line of the pair: line 10.
    assert {problem_line for problem_line, _code in where} <= {9 + row, 10}
    if codes and row != 1:
        assert 9 + row in {problem_line for problem_line, _code in where} or set(codes) <= {
            "pair-result", "pair-colour", "pair-handicap"}


def test_forfeit_marks_both_results_and_short_cells() -> None:
    text = HEADER.replace("; HA[h9]\n", "") + (
        "   1 A a   2d FR 69Ly  1  2+!w0    3+\n"
        "   2 B b   1k NL Amst  1  1-!b0    0-\n"
        "   3 C c   1k NL Amst  1    0=     1-\n"
        "   4 D d   1k NL Amst  1  5+/?0    0-\n"
        "   5 E e   1k NL Amst  1  4-/?0    0-\n"
    )
    codes, where = check(text)
    assert codes == {"tag-missing": 1, "forfeit-marked": 2, "short-cells": 1, "colour-unknown": 2}
    assert (9, "forfeit-marked") in where and (10, "forfeit-marked") in where and (12, "colour-unknown") in where
    text_both = HEADER + "   1 A a 2d FR 69Ly 1 2+/w0\n   2 B b 1k NL Amst 1 1+/b0\n"
    assert check(text_both)[0] == {"pair-result": 1}


def test_tags_are_checked() -> None:
    text = (
        "; CL[X]\n; EV[]\n; PC[,TR, Istanbul]\n; DT[2020-06-04,2020-06-03]\n; HA[h10]\n; KM[6,5]\n; TA[80]\n"
        "; TC[160130A]\n; CL[A] extra\n; CM[one]\n; CM[two]\n"
        "   1 A a 2d FR 69Ly 1 2+/w0\n   2 B b 1k NL Amst 1 1-/b0\n"
    )
    codes, where = check(text)
    # PC[,TR, Istanbul] holds its country in the city text (OpenGotha): recognised, no problem
    assert codes == {"tag-value": 6, "tag-unknown": 1, "tag-repeated": 1, "tag-stray-text": 1, "tag-missing": 1}
    assert (None, "tag-missing") in where and (7, "tag-unknown") in where and (9, "tag-repeated") in where
    low = "; CL[B]\n; TM[45]\n   1 A a 2d FR 69Ly 1 2+/w0\n   2 B b 1k NL Amst 1 1-/b0\n"
    assert check(low)[0]["class-time"] == 1


def test_structure_problems() -> None:
    assert check("; EV[x]\n; nothing else\n")[0] == {
        "no-players": 1, "tag-missing": 6,
    }
    codes, where = check(HEADER + "---------------\n" + CLEAN_ROWS)
    assert codes == {"junk-line": 1} and where == [(10, "junk-line")]
    codes, _ = check(HEADER + CLEAN_ROWS + "   5 Dupont Jean 2d FR 69Ly 1 1 0- 0- 0-\n")
    assert codes == {"duplicate-player": 1}
    empty = HEADER + "   1 A a 2d FR 69Ly 1 2+/w0 0-\n   2 B b 1k NL Amst 1 1-/b0 0-\n"
    assert check(empty)[0] == {"empty-round": 1}


def test_opponents_follow_printed_places_when_they_have_gaps() -> None:
    # pairgoth's "drop unplayed" leaves gaps but no repeats: opponents are printed numbers.
    text = HEADER + "   1 A a 2d FR 69Ly 1 4+/w0\n   4 B b 1k NL Amst 1 1-/b0\n"
    codes, _ = check(text)
    assert codes == {"place-sequence": 1}


# --------------------------------------------------------------------------- CLI


def test_cli_validate_exit_codes_and_json(tmp_path, cli) -> None:
    good = tmp_path / "good.h9"
    good.write_text(HEADER + CLEAN_ROWS, encoding="utf-8")
    bad = tmp_path / "bad.h9"
    bad.write_text(replace_row(3, "   3 Martin Luc   3k FR 69Ly 21 66 1-/w0 4+/b0 2-/w0"), encoding="utf-8")
    ok = cli("validate", "egd", good)
    assert ok.code == 0 and "clean" in ok.out
    broken = cli("validate", "egd", bad)
    assert broken.code == 1 and "line 10: error: pair-colour" in broken.out
    as_json = cli("validate", "egd", bad, "--json")
    data = json.loads(as_json.out)
    assert as_json.code == 1 and data["ok"] is False
    assert [(p["line"], p["code"], p["severity"]) for p in data["problems"]] == [(10, "pair-colour", "error")]
    missing = cli("validate", "egd", tmp_path / "nope.h9")
    assert missing.code == 1 and "no such file" in missing.err
