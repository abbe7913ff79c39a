"""Events in a director's words and what they touch (used by stale-head refusals, --retry
conflicts and repair reports)."""

from __future__ import annotations

import pytest

from goledger.describe.events import describe_event, describe_subject, names_from
from goledger.ledger import events as ev
from goledger.ledger.subjects import subjects

from ..ledger.test_events import SAMPLES

PROVENANCE = {"SourceImported", "Checkpoint", "PseudonymisedCopy"}


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: e.type_name())
def test_every_sample_is_described_and_placed(event: ev.Event) -> None:
    text = describe_event(event)
    assert text and text != event.type_name() and "\n" not in text
    if event.type_name() in PROVENANCE:
        assert subjects(event) == set()
    else:
        assert subjects(event), "an event that changes the tournament touches something"


def test_names_and_subjects_read_well() -> None:
    class P:
        full_name = "Sato Ken"

    name_of = names_from({"p0001": P()})
    paired = ev.GamePaired(round=2, table=3, white="p0001", black="p0002")
    assert describe_event(paired, name_of) == "round 2 table 3: p0001 Sato Ken (W) – p0002 (B) paired"
    assert describe_subject(("player in round", "p0001", 2), name_of) == "p0001 Sato Ken in round 2"
    assert describe_subject(("table", 2, 3)) == "round 2 table 3"
    assert describe_subject(("rules",)) == "the tournament rules"
