"""OpenGotha import under attack (issue 10 item 1): every mutated, mislabelled or hostile
file either imports with a report or is refused with one clear line, leaving nothing
behind (see :mod:`tests.fuzz_harness`). ``pytest -m slow`` runs the same properties with
many more examples and a random seed."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given

from goledger.formats.opengotha import import_opengotha

from .conftest import SHARED
from .fuzz_harness import (
    byte_mutations,
    check_import,
    encoding_tricks,
    entity_tricks,
    examples,
    xml_attribute_mutations,
    xml_structure_mutations,
)
from .gen_files import opengotha_xml


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
