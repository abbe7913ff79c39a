"""The real OpenGotha files of ../shared used by the OpenGotha tests, and an independent
count of what each holds (plain lxml, not the importer)."""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from .conftest import SHARED


def shared_opengotha_files() -> list[Path]:
    """Every OpenGotha XML file in shared/realdata/opengotha and shared/oracle/inputs."""
    if SHARED is None:
        return []
    files = sorted((SHARED / "realdata" / "opengotha").glob("*.xml"))
    files += sorted((SHARED / "oracle" / "inputs").glob("*.xml"))
    return files


def file_ids(files: list[Path]) -> list[str]:
    return [f"{f.parent.name}/{f.name}" for f in files]


def count_elements(path: Path) -> dict[str, int]:
    """Players, games and byes as elements in the file: ``Player``, ``Game`` and
    ``ByePlayer`` elements naming a player (pairgoth's ``<ByePlayer>`` wrapper names none)."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    root = etree.parse(str(path), parser).getroot()
    return {
        "players": sum(1 for _ in root.iter("Player")),
        "games": sum(1 for _ in root.iter("Game")),
        "byes": sum(1 for el in root.iter("ByePlayer") if el.get("player") is not None),
        "absences": sum(
            1
            for el in root.iter("Player")
            for flag in el.get("participating", "")[: _rounds(root)]
            if flag == "0"
        ),
        "results": sum(1 for el in root.iter("Game") if el.get("result", "RESULT_UNKNOWN") != "RESULT_UNKNOWN"),
        "boards": sum(1 for _ in root.iter("Board")),
        "teams": sum(1 for _ in root.iter("Team")),
    }


def _rounds(root: etree._Element) -> int:
    general = next(root.iter("GeneralParameterSet"))
    return int(general.get("numberOfRounds", "5"))
