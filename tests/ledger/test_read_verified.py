"""``Ledger.read_verified`` (the audit report's one read of a log): the verification, the
records and the events it gives are exactly those of ``verify``, ``records`` and ``events``,
for a good ledger and for damaged ones (where it falls back to reading them again)."""

from __future__ import annotations

from pathlib import Path

import pytest

from goledger.errors import GoledgerError
from goledger.ledger.store import Ledger

from .. import damage


def separately(path: Path) -> tuple[object, object, object]:
    with Ledger.open(path) as ledger:
        report = ledger.verify()
        records = list(ledger.records())
        try:
            events: object = ledger.events()
        except GoledgerError as exc:
            events = exc.message
    return report, records, events


def together(path: Path) -> tuple[object, object, object]:
    with Ledger.open(path) as ledger:
        try:
            return ledger.read_verified()
        except GoledgerError as exc:
            report = ledger.verify()
            return report, list(ledger.records()), exc.message


@pytest.mark.parametrize("make", [damage._copy, damage.altered_result,
                                  damage.newer_event_schema, damage.unknown_event_type],
                         ids=lambda f: f.__name__.strip("_"))
def test_one_read_gives_what_three_give(tmp_path: Path, make) -> None:  # type: ignore[no-untyped-def]
    good = damage.build_small_ledger(tmp_path / "good.db")
    path = make(good, tmp_path / "copy.db")
    assert damage.open_ok(path)
    report, records, events = together(path)
    assert (report, records, events) == separately(path)
    if make is damage._copy:
        assert report.ok and len(records) == len(events) == 8  # type: ignore[union-attr,arg-type]
