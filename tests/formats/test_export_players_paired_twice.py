"""A tournament whose file pairs a player twice in one round (OpenGotha wrote such files: 3 of
the 775 uploaded to its site in 2020–21) goes out to MacMahon, the EGD and TRF as the ledger
holds it, and each export warns, in one sentence per player and round, that those formats
keep one game per player and round (the re-import names the others as errors)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from tests.conftest import run_cli
from tests.gen_files import opengotha_xml


def _doubled(tmp_path: Path) -> tuple[Path, str]:
    """An OpenGotha file of 6 players and 2 rounds with one more game in round 1, table 9: the
    white player of table 1 against the black player of table 2; the path and the first one's
    surname."""
    root = etree.fromstring(opengotha_xml(6, 2, seed=3))
    games = root.find("Games")
    assert games is not None
    first = next(g for g in games if g.get("roundNumber") == "1" and g.get("tableNumber") == "1")
    other = next(g for g in games if g.get("roundNumber") == "1" and g.get("tableNumber") == "2")
    etree.SubElement(games, "Game", blackPlayer=other.get("blackPlayer", ""), handicap="0", knownColor="true",
                     result="RESULT_WHITEWINS", roundNumber="1", tableNumber="9",
                     whitePlayer=first.get("whitePlayer", ""))
    players = root.find("Players")
    assert players is not None
    player = next(p for p in players
                  if (p.get("name", "") + p.get("firstName", "")).replace(" ", "").upper() == first.get("whitePlayer"))
    path = tmp_path / "doubled.xml"
    path.write_bytes(etree.tostring(root, xml_declaration=True, encoding="UTF-8"))
    return path, player.get("name", "")


@pytest.mark.parametrize(("fmt", "suffix", "words"), [("macmahon", "xml", "a MacMahon file"),
                                                      ("egd", "h9", "an EGD table"), ("trf", "trf", "a TRF")])
def test_each_export_warns_of_a_player_paired_twice(tmp_path: Path, fmt: str, suffix: str, words: str) -> None:
    source, surname = _doubled(tmp_path)
    db = tmp_path / "t.db"
    imported = run_cli("import", "opengotha", source, "--db", db)
    assert imported.code == 0 and "plays twice in round 1" in imported.out + imported.err, imported.out
    out = tmp_path / f"t.{suffix}"
    exported = run_cli("export", fmt, "--db", db, "-o", out)
    assert exported.code == 0 and out.exists(), exported.err
    told = exported.out + exported.err  # the export's report
    warned = [line for line in told.splitlines() if "games in round 1" in line]
    assert len(warned) == 2, told  # both players of table 9
    assert all(line.strip().startswith("warning:") for line in warned), told
    assert any(surname in line and "plays 2 games in round 1 (tables 1, 9)" in line for line in warned), told
    assert all(f"{words} keeps one game per player and round" in line for line in warned)
    assert "games in round 2" not in told
