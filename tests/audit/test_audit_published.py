"""`goledger publish`, `standings --as-published`, `diff --published`: published versus corrected."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import msgspec
import pytest

from goledger import audit, commands
from goledger.audit.published import as_published, standings_digest
from goledger.commands.publish import publish
from goledger.errors import CommandRejected, LedgerError
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.replay.fold.state import fold
from goledger.replay.scoring.standings import standings

from ..audit_support import ledger_events

CRITERIA = ["MMS", "NBW"]


@pytest.fixture
def db(club_copy: tuple[Path, dict[str, int]]) -> Path:
    return club_copy[0]


def _design_8(shown: dict) -> dict:
    """The fields of a ``standings --json`` object that DESIGN §8 names (what a digest covers)."""
    rows = [{k: r[k] for k in ("place", "player_id", "surname", "first_name", "rank", "egd_pin", "start_number",
                               "values")} for r in shown["rows"]]
    return {**{k: shown[k] for k in ("round", "as_of_seq", "policy", "criteria")}, "rows": rows}


def test_publish_appends_a_checkpoint_with_the_digest_of_the_standings_as_shown(db: Path) -> None:
    head = ledger_events(db)
    shown = standings(fold(head), 3, None, CRITERIA)
    outcome = publish(db, 3, "after day 1", criteria=CRITERIA, actor="director")
    assert outcome.seqs == [len(head) + 1] and "published the standings after round 3" in outcome.message
    record = outcome.records[0]
    cp = record.event
    assert isinstance(cp, ev.Checkpoint)
    with Ledger.open(db) as ledger:
        anchor = next(iter(ledger.records(after=len(head) - 1)))
    assert (cp.label, cp.round, cp.event_count, cp.head) == ("published", 3, len(head), anchor.hash)
    assert cp.policy == "opengotha" and cp.criteria == tuple(CRITERIA) and cp.note == "after day 1"
    canonical = json.dumps(_design_8(shown.to_dict()), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert cp.digest == hashlib.sha256(canonical.encode()).hexdigest() == standings_digest(shown)


def test_published_standings_stay_reproducible_after_corrections(db: Path) -> None:
    original = standings(fold(ledger_events(db)), 4, None, CRITERIA).to_dict()
    published_seq = publish(db, 4, criteria=CRITERIA).seqs[0]
    state = fold(ledger_events(db))
    game = state.games[4][1]
    fixed = commands.correct(db, 4, 1, game.result.flipped().value, "appeal upheld").seqs[0]
    commands.change_rules(db, {"mms2_absent": 0}, reason="absences worth nothing")
    commands.update_player(db, "p0003", mm_correction=1)
    shown = as_published(db, 4)
    assert shown.standings.to_dict() == original and shown.seq == published_seq
    now = standings(fold(ledger_events(db)), 4, None, CRITERIA).to_dict()
    assert now["rows"] != original["rows"]

    diff = audit.diff(db, published=4)
    assert diff.published is not None and diff.published["seq"] == published_seq
    assert diff.from_seq == published_seq - 1 and diff.round == 4 and list(diff.criteria) == CRITERIA
    before = {r["player_id"]: r for r in original["rows"]}
    after = {r["player_id"]: r for r in now["rows"]}
    assert {c.player_id for c in diff.changes} == {p for p in after if before.get(p) != after[p]} | {
        p for p in before if p not in after}
    causes = {c.last_seq for change in diff.changes for c in change.causes}
    assert fixed in causes and fixed + 2 in causes
    for change in diff.changes:
        assert change.before.place == before[change.player_id]["place"]
        assert change.after.place == after[change.player_id]["place"]


def test_publish_reproduces_the_tournament_policy_with_its_overrides(db: Path) -> None:
    commands.change_rules(db, {"policy_overrides": {"mms2_bye": 0}})
    commands.change_rules(db, {"criteria": ("MMS", "NBW")})
    publish(db, 4)
    shown = as_published(db, 4)
    assert shown.checkpoint.policy == "opengotha"
    state = fold(ledger_events(db))
    assert shown.standings.to_dict() == standings(state, 4).to_dict() | {"as_of_seq": state.seq - 1}
    plain = standings(state, 4, "opengotha")
    assert shown.standings.to_dict()["rows"] != plain.to_dict()["rows"]  # the override matters
    commands.change_rules(db, {"policy_overrides": {}})
    assert as_published(db, 4).standings.to_dict() == shown.standings.to_dict()
    assert audit.diff(db, published=4).changes  # now the byes count again


def test_publish_refusals(db: Path) -> None:
    with pytest.raises(CommandRejected, match=r"round 5 is outside 1\.\.4"):
        publish(db, 5, criteria=CRITERIA)
    with pytest.raises(CommandRejected, match="unknown policy 'nope'"):
        publish(db, 1, policy="nope", criteria=CRITERIA)
    with pytest.raises(CommandRejected, match="round 2 were never published"):
        as_published(db, 2)
    publish(db, 1, criteria=CRITERIA)
    with pytest.raises(CommandRejected, match=r"round 2 were never published \(published rounds: 1\)"):
        as_published(db, 2)
    empty = db.parent / "empty.db"
    commands.new(empty, "Nothing yet", 3)
    with pytest.raises(CommandRejected, match="round 1 has no games yet"):
        publish(empty, 1)


def _tamper(path: Path, seq: int, payload: dict) -> None:
    """Rewrite one payload behind the triggers' back (as an attacker with sqlite3 would)."""
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER events_append_only_update")
    conn.execute("UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(payload, separators=(",", ":")), seq))
    conn.commit()
    conn.close()


def test_a_tampered_ledger_makes_as_published_refuse_with_the_verify_message(cli, db: Path) -> None:
    publish(db, 2, criteria=CRITERIA)
    with Ledger.open(db) as ledger:
        record = next(r for r in ledger.records() if r.type == "ResultRecorded")
    payload = json.loads(record.payload)
    payload["result"] = "black" if payload["result"] == "white" else "white"
    _tamper(db, record.seq, payload)
    verify = cli("verify", "--db", db)
    assert verify.code == 1 and f"event {record.seq} (ResultRecorded) was altered" in verify.err
    res = cli("standings", "--db", db, "--as-published", "2")
    assert res.code == 1 and res.out == ""
    assert res.err == verify.err
    with pytest.raises(LedgerError, match=f"event {record.seq} \\(ResultRecorded\\) was altered"):
        audit.diff(db, published=2)


def test_a_forged_checkpoint_is_refused(db: Path) -> None:
    """A checkpoint appended with a digest that does not match (a forged or mistaken one)."""
    with Ledger.open(db) as ledger:
        head = ledger.head()
        ledger.append([ev.Checkpoint(label="published", round=2, event_count=head.seq, head=head.hash,
                                     digest="0" * 64, policy="opengotha", criteria=("MMS",))])
    with pytest.raises(LedgerError, match="the standings published for round 2 cannot be reproduced"):
        as_published(db, 2)
    with Ledger.open(db) as ledger:
        head = ledger.head()
        ledger.append([ev.Checkpoint(label="published", round=3, event_count=head.seq, head="f" * 64,
                                     digest="0" * 64)])
    with pytest.raises(LedgerError, match="vouches for head ffff"):
        as_published(db, 3)


def test_cli_publish_and_show_again(cli, db: Path) -> None:
    res = cli("publish", "--db", db, "--round", "4", "--note", "final <b>results</b>", "--criteria", "MMS,NBW",
              "--json")
    assert res.code == 0, res.err
    out = json.loads(res.out)
    seq = out["events"][0]["seq"]
    assert out["events"][0]["payload"]["label"] == "published"
    shown = cli("standings", "--db", db, "--as-published", "4", "--json")
    assert shown.code == 0, shown.err
    data = json.loads(shown.out)
    assert data["published"]["seq"] == seq and data["published"]["note"] == "final <b>results</b>"
    plain = json.loads(cli("standings", "--db", db, "--criteria", "MMS,NBW", "--json", "--as-of", seq - 1).out)
    assert {k: v for k, v in data.items() if k != "published"} == plain
    digest = hashlib.sha256(msgspec.json.encode(_design_8(plain), order="sorted")).hexdigest()
    assert data["published"]["digest"] == digest
    table = cli("standings", "--db", db, "--as-published", "4")
    assert table.code == 0 and f"as published at event {seq}" in table.out and "verified" in table.out
    assert cli("standings", "--db", db, "--as-published", "4", "--round", "3").code == 2
    commands.correct(db, 4, 2, "jigo", "referee decision")
    diff = cli("diff", "--db", db, "--published", "4", "--json")
    assert diff.code == 0, diff.err
    data = json.loads(diff.out)
    assert data["published"]["seq"] == seq and data["changes"]
    assert [e["type"] for e in data["events"]] == ["Checkpoint", "ResultCorrected"]
    text = cli("diff", "--db", db, "--published", "4")
    assert text.code == 0 and f"as published at event {seq}" in text.out and "jigo" in text.out
