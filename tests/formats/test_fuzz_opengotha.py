"""OpenGotha import under attack (issue 10 item 1): every mutated, mislabelled or hostile
file either imports with a report or is refused with one clear line, leaving nothing
behind (see :mod:`tests.fuzz_harness`). ``pytest -m slow`` runs the same properties with
many more examples and a random seed."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given

from goledger.formats.opengotha import import_opengotha

from ..conftest import SHARED
from ..fuzz_harness import (
    byte_mutations,
    check_import,
    encoding_tricks,
    entity_tricks,
    examples,
    xml_attribute_mutations,
    xml_structure_mutations,
)
from ..gen_files import opengotha_xml


def importer(source: Path, db: Path) -> object:
    return import_opengotha(source, db)


def _seeds() -> list[bytes]:
    seeds = [opengotha_xml(5, 2, seed=1), opengotha_xml(12, 3, seed=2, teams=2), opengotha_xml(7, 2, seed=3,
                                                                                              name_length=40)]
    if SHARED is not None:
        real = sorted((SHARED / "realdata" / "opengotha").glob("*.xml"), key=lambda p: p.stat().st_size)
        seeds += [p.read_bytes() for p in real if p.stat().st_size < 60_000][:12]
    return seeds


SEEDS = _seeds()
SLOW = [pytest.param(False, id="ci"), pytest.param(True, id="long", marks=pytest.mark.slow)]


def test_the_seeds_import() -> None:
    for seed in SEEDS:
        assert check_import(importer, seed) == "imported"


@pytest.mark.parametrize("slow", SLOW)
def test_byte_mutations(slow: bool) -> None:
    @examples(120, slow)
    @given(byte_mutations(SEEDS))
    def opengotha_bytes(data: bytes) -> None:
        check_import(importer, data)

    opengotha_bytes()


@pytest.mark.parametrize("slow", SLOW)
def test_attribute_mutations(slow: bool) -> None:
    @examples(150, slow)
    @given(xml_attribute_mutations(SEEDS))
    def opengotha_attributes(data: bytes) -> None:
        check_import(importer, data)

    opengotha_attributes()


@pytest.mark.parametrize("slow", SLOW)
def test_structure_mutations(slow: bool) -> None:
    @examples(120, slow)
    @given(xml_structure_mutations(SEEDS))
    def opengotha_structure(data: bytes) -> None:
        check_import(importer, data)

    opengotha_structure()


@pytest.mark.parametrize("slow", SLOW)
def test_encoding_tricks(slow: bool) -> None:
    @examples(60, slow)
    @given(encoding_tricks(SEEDS))
    def opengotha_encodings(data: bytes) -> None:
        check_import(importer, data)

    opengotha_encodings()


def _with(seed: bytes, old: bytes, new: bytes) -> bytes:
    assert old in seed
    return seed.replace(old, new, 1)


_SMALL = opengotha_xml(5, 2, seed=1)
REGRESSIONS = {
    # libxml2's message held a newline: the refusal spanned two lines
    "nul-after-lt": (_SMALL.replace(b"<?xml", b"<\x00xml", 1), "refused: ", "Char 0x0 out of allowed range"),
    # a huge round number looped over every round for every player (a hang)
    "huge-round": (_with(_SMALL, b'roundNumber="1"', b'roundNumber="99999999999999999999999"'),
                   "refused: ", "game with round number '99999999999999999999999' cannot be recorded"),
    "round-beyond-99": (_with(_SMALL, b'roundNumber="2"', b'roundNumber="2147483647"'), "refused: ",
                        "cannot be recorded"),
    "huge-number-of-rounds": (_with(_SMALL, b'numberOfRounds="2"', b'numberOfRounds="2000000000"'), "refused: ",
                              "numberOfRounds 2000000000 is beyond the 99 rounds"),
    # the file's text (a tab and a newline) was quoted verbatim: a two-line refusal
    "control-characters-in-refusal": (_with(_SMALL, b'roundNumber="1"/>\n    <ByePlayer', b'roundNumber="&#9;&#10;"/>'
                                                                                          b'\n    <ByePlayer'),
                                      "refused: ", "bye with round number '\\t\\n' cannot be recorded"),
    # a 5000-digit rank raised ValueError (Python's int-string limit): a traceback
    "rank-of-5000-digits": (_with(_SMALL, b'genMMBar="4D"', b'genMMBar="' + b"1" * 5000 + b'K"'), "imported", ""),
}


@pytest.mark.parametrize("name", sorted(REGRESSIONS))
def test_failures_found_stay_fixed(name: str) -> None:
    data, outcome, words = REGRESSIONS[name]
    result = check_import(importer, data)
    assert result.startswith(outcome), result
    assert words in result, result


SECRET = "TOPSECRET-7f3a"


@pytest.mark.parametrize("name", sorted(entity_tricks(Path("secret.txt"))))
def test_entity_tricks_never_read_files_or_explode(name: str, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    data = entity_tricks(secret)[name]
    outcome = check_import(importer, data)
    if outcome == "imported":
        # imported only when harmless: the ledger must not hold the secret
        db = tmp_path / "again.db"
        import_opengotha(_write(tmp_path / "doc.xml", data), db)
        assert SECRET.encode() not in db.read_bytes()
    else:
        assert SECRET not in outcome


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path
