"""Helpers of the ratings tests: small EGD lists written in the list's own layout."""

from __future__ import annotations

from pathlib import Path

import pytest

HEADER = """PIN     - player identification number
Club    - specified by internet country code and the city abbreviation
Grade   - rank professed by the player at last tournament;
          ranges from 20k to 1k, 1d to 7d, and from 1p to 9p
P&D     - suggested promotion or demotion
GoR     - current Go Rating of a given player
NT      - number of tournaments the player participated in
                                                                                    Last
   PIN          Name                              Club     Grade P&D    GoR    NT appearance
"""

PLAYERS: list[tuple[str, str, str, str, str, int, str]] = [
    ("13701534", "Celebican Barkin", "TR", "Ist", "1k", 2004, "T190217A"),
    ("10437746", "Mueller Kai", "DE", "Berl", "2k", 1900, "T180101A"),
    ("10437416", "Muller Cas", "NL", "Amst", "5k", 1600, "T170101A"),
    ("12413126", "Kovacs Antal", "HU", "BuPe", "7k", 1351, "T060211B"),
    ("18625508", "Kovacs Bence", "HU", "HTTE", "20k", 256, "T180310I"),
    ("16825589", "Aarle Barbara_van", "NL", "DBos", "17k", 356, "T160516A"),
    ("12525931", "Dvorak Jakub", "CZ", "Brno", "3d", 2300, "T181010A"),
    ("12913120", "Lew Lukasz", "PL", "Wars", "1d", 2100, "T181111A"),
    ("14000001", "Yilmaz Mehmet", "TR", "Ank", "5k", 1550, "T150101A"),
    ("14000002", "Yilmaz Mehmet", "TR", "Ist", "12k", 900, "T180505A"),
    ("14000003", "Sahin Ismail", "TR", "Izm", "3k", 1750, "T160606A"),
    ("14000004", "Dubois Francoise", "FR", "38Gr", "10k", 1100, "T170707A"),
]


def egd_line(pin: str, name: str, country: str, club: str, grade: str, gor: int, last: str,
             nt: int = 3, pd: str = "--") -> str:
    return f" {pin}  {name:<36}{country}  {club:<4}  {grade:>4}   {pd:<4} {gor:>5} {nt:>5}  {last}"


def write_list(path: Path, players: list[tuple[str, str, str, str, str, int, str]] | None = None,
               extra: tuple[str, ...] = ()) -> Path:
    """An EGD list file with ``players`` (default :data:`PLAYERS`) and ``extra`` raw lines."""
    rows = [egd_line(*p) for p in (PLAYERS if players is None else players)] + list(extra)
    path.write_text(HEADER + "\n".join(rows) + f"\n\nNumber of players: {len(rows)}\nNumber of DAN players:  1\n",
                    encoding="utf-8")
    return path


EGD_LIST = "realdata/ratinglists/Miautomat_egf-streaming__allworld_lp.html"


@pytest.fixture(scope="session")
def egd_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shared EGD list imported once per run into a store (skips without ../shared)."""
    from goledger.formats.ratinglists import import_list

    from .conftest import SHARED

    if SHARED is None:
        pytest.skip("../shared is not present")
    store = tmp_path_factory.mktemp("egd") / "ratings.db"
    import_list(SHARED / EGD_LIST, "egd", store)
    return store
