"""Issue 19, item 11: EGD ``PC`` as OpenGotha writes it — ``PC[,city]`` is a warning (the EGD
asks for the country at upload), ``PC[,TR, Istanbul]`` is recognised, and the export writes
``PC[,city]`` when it knows the city but not the country."""

from __future__ import annotations

from pathlib import Path

from goledger.formats.egd.validate import place_country_city
from goledger.replay.fold.state import fold

from .test_egd_export import example_events, export
from .test_egd_validate import CLEAN_ROWS, HEADER, check


def test_pc_without_country_is_a_warning() -> None:
    codes, where = check(HEADER.replace("PC[FR,Lyon]", "PC[,Lyon]") + CLEAN_ROWS)
    assert codes == {"pc-country-missing": 1} and where == [(3, "pc-country-missing")]


def test_pc_with_the_country_inside_the_city_text_is_recognised() -> None:
    assert check(HEADER.replace("PC[FR,Lyon]", "PC[,TR, Istanbul]") + CLEAN_ROWS)[0] == {}
    assert check(HEADER.replace("PC[FR,Lyon]", "PC[,Istanbul, TR]") + CLEAN_ROWS)[0] == {}
    assert place_country_city(",TR, Istanbul") == ("TR", "Istanbul")


def test_pc_still_refused_when_broken() -> None:
    assert check(HEADER.replace("PC[FR,Lyon]", "PC[Stockholm]") + CLEAN_ROWS)[0] == {"tag-value": 1}
    assert check(HEADER.replace("PC[FR,Lyon]", "PC[,]") + CLEAN_ROWS)[0] == {"tag-value": 1}
    assert check(HEADER.replace("PC[FR,Lyon]", "PC[Sw,Stockholm]") + CLEAN_ROWS)[0] == {"tag-value": 1}


def test_validate_egd_exits_0_on_pc_without_country(tmp_path: Path, cli) -> None:
    path = tmp_path / "og.h9"
    path.write_text(HEADER.replace("PC[FR,Lyon]", "PC[,Lyon]") + CLEAN_ROWS, encoding="utf-8")
    result = cli("validate", "egd", path)
    assert result.code == 0, result
    assert "pc-country-missing" in result.out + result.err


def test_export_writes_the_city_when_the_country_is_unknown() -> None:
    events = example_events()
    # no country anywhere: fewer than half of the players share one (FR 2 of 6)
    text, report, validation = export(fold(events))
    assert "; PC[,Lyon]" in text
    assert validation.ok and validation.codes()["pc-country-missing"] == 1
    assert any("PC gives the city only" in e.message for e in report.entries)
    text, _, validation = export(fold(events), country="FR")
    assert "; PC[FR,Lyon]" in text and "pc-country-missing" not in validation.codes()
