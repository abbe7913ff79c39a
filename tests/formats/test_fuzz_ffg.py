"""FFG ``.tou`` files under attack (issue 47, item 2; as the other text formats, issue 10): every
mutated or hostile file either imports with a report or is refused with one clear line, leaving
nothing behind (:mod:`tests.fuzz_harness`); ``validate ffg`` never fails otherwise. Seeds: the
real files of ``../shared/realdata/ffg-tou`` and a small one written here."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given

from goledger.errors import FormatError
from goledger.formats.ffg import import_ffg
from goledger.formats.ffg.validate import validate_tou

from ..conftest import SHARED
from ..fuzz_harness import byte_mutations, check_import, examples, line_mutations

SLOW = [pytest.param(False, id="ci"), pytest.param(True, id="long", marks=pytest.mark.slow)]
SMALL = (";name=T\n;date=01/02/2024\n;komi=7.5\n;Num Nom Prenom               Niv Licence Club\n"
         "   1 Dupont Jean               3D 1800014 75Ju    2+w0    0=   \n"
         "   2 Lee Min                   1K         75Ju    1-b0    0-   \n").encode("latin-1")
SEEDS = [SMALL] + ([p.read_bytes() for p in sorted((SHARED / "realdata" / "ffg-tou").glob("*.tou"))] if SHARED else [])


def ffg(source: Path, db: Path) -> object:
    return import_ffg(source, db)


def _validates(data: bytes) -> None:
    try:
        validate_tou(data, "t.tou")
    except FormatError as exc:
        assert "\n" not in exc.message


def test_seeds_import() -> None:
    for seed in SEEDS:
        assert check_import(ffg, seed, "t.tou") == "imported"


@pytest.mark.parametrize("slow", SLOW)
def test_byte_mutations(slow: bool) -> None:
    @examples(80, slow)
    @given(byte_mutations(SEEDS))
    def tou_bytes(data: bytes) -> None:
        check_import(ffg, data, "t.tou")
        _validates(data)

    tou_bytes()


@pytest.mark.parametrize("slow", SLOW)
def test_line_mutations(slow: bool) -> None:
    @examples(120, slow)
    @given(line_mutations(SEEDS))
    def tou_lines(data: bytes) -> None:
        check_import(ffg, data, "t.tou")
        _validates(data)

    tou_lines()
