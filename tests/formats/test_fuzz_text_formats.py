"""EGD tables, MacMahon XML and TRF files under attack (issue 10 item 1): every mutated,
mislabelled or hostile file either imports with a report or is refused with one clear line,
leaving nothing behind (see :mod:`tests.fuzz_harness`). Seeds: files written by goledger's
own exporters from generated tournaments, and the real files of ``../shared`` when present.
``pytest -m slow`` runs the same properties with many more examples and a random seed."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from goledger.formats.egd import import_egd
from goledger.formats.macmahon import import_macmahon
from goledger.formats.trf import import_trf

from ..conftest import SHARED
from ..fuzz_harness import (
    byte_mutations,
    check_append,
    check_import,
    encoding_tricks,
    entity_tricks,
    examples,
    line_mutations,
    xml_attribute_mutations,
    xml_structure_mutations,
)
from ..gen_files import exported_seeds

SLOW = [pytest.param(False, id="ci"), pytest.param(True, id="long", marks=pytest.mark.slow)]


def _real(folder: str, pattern: str, limit: int = 200_000) -> list[bytes]:
    if SHARED is None:
        return []
    return [p.read_bytes() for p in sorted((SHARED / "realdata" / folder).glob(pattern)) if p.stat().st_size < limit]


# --------------------------------------------------------------------------- EGD

EGD_SEEDS = exported_seeds("egd") + _real("egd", "*.h9")


def egd(source: Path, db: Path) -> object:
    return import_egd(source, db)


def test_egd_seeds_import() -> None:
    for seed in EGD_SEEDS:
        assert check_import(egd, seed, "t.h9") == "imported"


@pytest.mark.parametrize("slow", SLOW)
def test_egd_byte_mutations(slow: bool) -> None:
    @examples(100, slow)
    @given(byte_mutations(EGD_SEEDS))
    def egd_bytes(data: bytes) -> None:
        check_import(egd, data, "t.h9")

    egd_bytes()


@pytest.mark.parametrize("slow", SLOW)
def test_egd_line_mutations(slow: bool) -> None:
    @examples(150, slow)
    @given(line_mutations(EGD_SEEDS))
    def egd_lines(data: bytes) -> None:
        check_import(egd, data, "t.h9")

    egd_lines()


@pytest.mark.parametrize("slow", SLOW)
def test_egd_encodings(slow: bool) -> None:
    @examples(40, slow)
    @given(encoding_tricks(EGD_SEEDS))
    def egd_encodings(data: bytes) -> None:
        check_import(egd, data, "t.h9")

    egd_encodings()


# --------------------------------------------------------------------------- TRF

TRF_SEEDS = exported_seeds("trf")


def trf(source: Path, db: Path) -> object:
    return import_trf(source, db)


def test_trf_seeds_import() -> None:
    for seed in TRF_SEEDS:
        assert check_import(trf, seed, "t.trf") == "imported"


@pytest.mark.parametrize("slow", SLOW)
def test_trf_byte_mutations(slow: bool) -> None:
    @examples(100, slow)
    @given(byte_mutations(TRF_SEEDS))
    def trf_bytes(data: bytes) -> None:
        check_import(trf, data, "t.trf")

    trf_bytes()


@pytest.mark.parametrize("slow", SLOW)
def test_trf_line_mutations(slow: bool) -> None:
    @examples(150, slow)
    @given(line_mutations(TRF_SEEDS))
    def trf_lines(data: bytes) -> None:
        check_import(trf, data, "t.trf")

    trf_lines()


# --------------------------------------------------------------------------- MacMahon

MACMAHON_SEEDS = exported_seeds("macmahon") + _real("macmahon", "*.xml")


def macmahon(source: Path, db: Path) -> object:
    return import_macmahon(source, db)


def test_macmahon_seeds_import() -> None:
    for seed in MACMAHON_SEEDS:
        assert check_import(macmahon, seed) == "imported"


@pytest.mark.parametrize("slow", SLOW)
def test_macmahon_byte_mutations(slow: bool) -> None:
    @examples(80, slow)
    @given(byte_mutations(MACMAHON_SEEDS))
    def macmahon_bytes(data: bytes) -> None:
        check_import(macmahon, data)

    macmahon_bytes()


@pytest.mark.parametrize("slow", SLOW)
def test_macmahon_attribute_mutations(slow: bool) -> None:
    @examples(100, slow)
    @given(xml_attribute_mutations(MACMAHON_SEEDS))
    def macmahon_attributes(data: bytes) -> None:
        check_import(macmahon, data)

    macmahon_attributes()


@pytest.mark.parametrize("slow", SLOW)
def test_macmahon_structure_mutations(slow: bool) -> None:
    @examples(100, slow)
    @given(xml_structure_mutations(MACMAHON_SEEDS))
    def macmahon_structure(data: bytes) -> None:
        check_import(macmahon, data)

    macmahon_structure()


@pytest.mark.parametrize("slow", SLOW)
def test_macmahon_encodings(slow: bool) -> None:
    @examples(40, slow)
    @given(encoding_tricks(MACMAHON_SEEDS))
    def macmahon_encodings(data: bytes) -> None:
        check_import(macmahon, data)

    macmahon_encodings()


SECRET = "TOPSECRET-9c1d"


@pytest.mark.parametrize("name", sorted(entity_tricks(Path("secret.txt"))))
def test_macmahon_entity_tricks(name: str, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    data = entity_tricks(secret)[name]
    outcome = check_import(macmahon, data)
    assert SECRET not in outcome


# --------------------------------------------------------------------------- MacMahon participant lists


def _participant_lists() -> list[bytes]:
    import random

    from ..gen_files import long_name

    rng = random.Random(3)
    lists = []
    for size in (4, 12):
        lines = ["# surname|first name|strength|country|club|rating|EGD PIN|registration|rounds",
                 "name|first|strength"]
        for i in range(size):
            level = rng.choice(["10k", "2d", "1p", "35k", "5 kyu", "3 dan"])
            lines.append("|".join([long_name(rng, rng.randint(3, 30), "latin"), long_name(rng, 6, "turkish"), level,
                                   rng.choice(["de", "FR", "jp"]), "Club", str(rng.randint(100, 2700)),
                                   str(10_000_000 + i), rng.choice("fFpP"), rng.choice(["", "1+0", "x.n"])]))
        lists.append(("\n".join(lines) + "\n").encode("utf-8"))
    return lists


PLAYER_LIST_SEEDS = _participant_lists()


@pytest.fixture(scope="module")
def base_ledger(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    from goledger import commands

    db = tmp_path_factory.mktemp("base") / "t.db"
    commands.new(db, "List Cup", 3)
    commands.register(db, "Abe", "Jo", "3d", egd_pin="10000001")
    return db.read_bytes()


def players(source: Path, db: Path) -> object:
    from goledger.formats.macmahon.players import import_macmahon_players

    return import_macmahon_players(source, db)


def test_player_list_seeds_append(base_ledger: bytes) -> None:
    for seed in PLAYER_LIST_SEEDS:
        assert check_append(players, seed, base_ledger) == "appended"


@pytest.mark.parametrize("slow", SLOW)
def test_player_list_mutations(slow: bool, base_ledger: bytes) -> None:
    @examples(100, slow)
    @given(st.one_of(line_mutations(PLAYER_LIST_SEEDS, b"|"), byte_mutations(PLAYER_LIST_SEEDS),
                     encoding_tricks(PLAYER_LIST_SEEDS)))
    def player_lists(data: bytes) -> None:
        check_append(players, data, base_ledger)

    player_lists()


# --------------------------------------------------------------------------- failures found, kept

_TRF0, _MM0 = TRF_SEEDS[0], MACMAHON_SEEDS[0]
REGRESSIONS = {
    # str.isdigit() is true for "²" but int() refuses it: a traceback (trf_read)
    "trf-superscript-opponent": (trf, "t.trf", _TRF0.replace(b"  0009 b 0", b"  000\xc2\xb2 b 0", 1), "refused: ",
                                 "is not a pairing number"),
    "trf-5000-digit-rounds": (trf, "t.trf", _TRF0.replace(b"XXR 3", b"XXR " + b"9" * 5000, 1), "", ""),
    # MacMahon read 10^23 rounds, wrote the ledger, and standings then failed (a list of 10^23 rounds)
    "macmahon-huge-rounds": (macmahon, "t.xml", _MM0.replace(b"<NumberOfRounds>3<", b"<NumberOfRounds>"
                                                              b"99999999999999999999999<", 1),
                             "refused: ", "'99999999999999999999999' is not an integer"),
    "macmahon-rounds-beyond-99": (macmahon, "t.xml", _MM0.replace(b"<NumberOfRounds>3<", b"<NumberOfRounds>"
                                                                   b"2000000000<", 1),
                                  "refused: ", "declares 2000000000 rounds; goledger handles up to 99"),
    "macmahon-arabic-indic-digit": (macmahon, "t.xml", _MM0.replace(b"<NumberOfRounds>3<", "<NumberOfRounds>٣<"
                                                                     .encode(), 1), "refused: ", "is not an integer"),
}


@pytest.mark.parametrize("name", sorted(REGRESSIONS))
def test_failures_found_stay_fixed(name: str) -> None:
    importer, filename, data, outcome, words = REGRESSIONS[name]
    result = check_import(importer, data, filename)
    assert result.startswith(outcome) and words in result, result
