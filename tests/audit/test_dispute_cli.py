"""``goledger timeline``, ``what-if --event`` and ``dispute-sheet`` in a subprocess (issue 42):
the same answers as the library, in the asked language, refusals in one sentence, the log
unchanged."""

from __future__ import annotations

import json
from pathlib import Path

from goledger.audit.disputes import event_what_if
from goledger.audit.timeline import timeline
from goledger.ledger.store import Ledger

from ..conftest import run_cli


def _head(path: Path) -> str:
    with Ledger.open(path) as ledger:
        return ledger.head().hash


def test_timeline_what_if_and_dispute_sheet_through_the_cli(club: tuple[Path, dict[str, int]]) -> None:
    path, notable = club
    head = _head(path)
    withdrawal = notable["withdrawal"]

    done = run_cli("timeline", "p0002", "--db", path, "--json")
    assert done.code == 0, done
    data = json.loads(done.out)
    line = timeline(path, "p0002")
    assert [e["seq"] for e in data["entries"]] == [e.seq for e in line.entries]
    assert withdrawal in [e["seq"] for e in data["entries"]]
    assert data["head"] == {"seq": line.head_seq, "hash": head}

    text = run_cli("timeline", "p0002", "--db", path, "--language", "tr")
    assert text.code == 0, text
    assert "Abe Jo" in text.out and "turnuvadan çekilmişti" in text.out
    assert f"goledger what-if --event {withdrawal}" in text.out

    done = run_cli("what-if", "--event", withdrawal, "--db", path, "--json")
    assert done.code == 0, done
    data = json.loads(done.out)
    found = event_what_if(path, withdrawal)
    assert data["event"]["seq"] == withdrawal and data["event"]["reason"] == "called away"
    assert data["without"] == list(found.without)
    assert [c["player_id"] for c in data["changes"]] == [c.player_id for c in found.result.changes]
    assert data["changes"], "leaving out the withdrawal moves his opponents' SOS"
    plain = run_cli("what-if", "--event", withdrawal, "--db", path)
    assert plain.code == 0 and "Abe Jo withdrew from round 3" in plain.out and "→" in plain.out

    sheet = run_cli("dispute-sheet", "p0002", "--event", withdrawal, "--db", path, "--format", "html",
                    "--language", "hu")
    assert sheet.code == 0, sheet
    assert sheet.out.startswith("<!DOCTYPE html>") and '<html lang="hu">' in sheet.out
    assert "Berg Anna" in sheet.out and head in sheet.out and "@page" in sheet.out
    assert "goledger verify" in sheet.out
    as_json = json.loads(run_cli("dispute-sheet", "p0002", "--db", path, "--json").out)
    assert as_json["event"]["seq"] == line.entries[-1].seq and as_json["head_hash"] == head
    text = run_cli("dispute-sheet", "p0002", "--event", withdrawal, "--db", path)
    assert text.code == 0 and "Berg Anna" in text.out and "goledger verify" in text.out

    # refusals: one sentence, exit 1 (2 for a usage error), the log unchanged
    for args, code in ((("timeline", "nobody"), 1), (("what-if", "--event", "99999"), 1),
                       (("what-if", "--event", "1"), 1), (("dispute-sheet", "p0002", "--format", "pdfx"), 2),
                       (("what-if", "--event", str(withdrawal), "--without", "3"), 2)):
        refused = run_cli(*args, "--db", path)
        assert refused.code == code, (args, refused)
        assert refused.err.strip().count("\n") == 0, refused.err
    refused = run_cli("timeline", "nobody", "--db", path, "--json")
    assert refused.code == 1 and "error" in json.loads(refused.err)
    assert _head(path) == head
