"""Reading the log and checking it (:mod:`goledger.commands.reading`): nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from goledger.commands.reading import log, repair_report, verify
from goledger.errors import CommandRejected


def test_the_log_by_range_and_type(db: Path) -> None:
    assert [r.seq for r in log(db)] == [1, 2, 3]
    assert [r.seq for r in log(db, after=1, upto=2)] == [2]
    assert [r.type for r in log(db, type="PlayerRegistered")] == ["PlayerRegistered"] * 2


def test_verify_names_the_published_head(db: Path) -> None:
    head = log(db)[1].hash
    report = verify(db, head[:16])
    assert report.ok and any("the published head is event 2" in n for n in report.notes)
    assert not verify(db, "0" * 64).ok


@pytest.mark.parametrize("text", ["xyz", "0123", "g" * 64])
def test_a_published_head_is_a_hash(db: Path, text: str) -> None:
    with pytest.raises(CommandRejected, match="is not a hash"):
        verify(db, text)


def test_a_salvage_goes_to_a_new_file(db: Path, tmp_path: Path) -> None:
    with pytest.raises(CommandRejected, match="already exists"):
        repair_report(db, salvage=db)
    report = repair_report(db, salvage=tmp_path / "copy.db")
    assert [r.hash for r in log(tmp_path / "copy.db")] == [r.hash for r in log(db)]
    assert any("salvaged" in n for n in report.notes)
