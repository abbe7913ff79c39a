"""The append-only store: triggers, hash chain, verify, concurrency and crashes (issue 2)."""

from __future__ import annotations

import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import msgspec
import pytest

from goledger.errors import LedgerError, StaleHeadError
from goledger.ledger import events as ev
from goledger.ledger.store import GENESIS_HASH, HASH_ALGORITHM, Ledger, Record, chain_hash, touching

from ..conftest import REPO


def _events(n: int, tag: str = "x") -> list[ev.Event]:
    return [ev.PlayerUpdated(player_id=f"{tag}", changes={"club": f"{tag}{i}"}) for i in range(n)]


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    led = Ledger.create(tmp_path / "t.db")
    led.append([ev.TournamentCreated(settings=ev.TournamentSettings(name="T", rounds=3))], actor="test")
    led.append(_events(4), actor="test", reason="because")
    yield led
    led.close()


def test_chain_is_linked_and_hashes_recompute(ledger: Ledger) -> None:
    records = list(ledger.records())
    assert [r.seq for r in records] == [1, 2, 3, 4, 5]
    prev = GENESIS_HASH
    for r in records:
        assert r.prev_hash == prev
        assert r.hash == chain_hash(prev, r.seq, r.type, r.schema_version, r.payload.encode(), r.recorded_at,
                                    r.actor, r.reason)
        prev = r.hash
    assert ledger.head().hash == prev
    assert ledger.meta()["hash_algorithm"] == HASH_ALGORITHM
    assert ledger.verify().ok


def test_events_read_back_exactly(ledger: Ledger) -> None:
    events = ledger.events()
    assert events[1:] == _events(4)
    assert ledger.events(after=2, upto=3) == _events(4)[1:2]


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("UPDATE events SET payload = '{}' WHERE seq = 2", "append-only: UPDATE is refused"),
        ("DELETE FROM events WHERE seq = 5", "append-only: DELETE is refused"),
        ("INSERT INTO events VALUES (9, 'X', 1, '{}', 't', 'a', 'r', 'h', 'h')", "must extend the chain head"),
        ("UPDATE meta SET value = 'md5' WHERE key = 'hash_algorithm'", "write-once: UPDATE is refused"),
    ],
)
def test_sqlite_itself_refuses_rewrites(ledger: Ledger, sql: str, message: str) -> None:
    conn = sqlite3.connect(ledger.path)
    with pytest.raises(sqlite3.IntegrityError, match=message):
        conn.execute(sql)
    conn.close()
    assert ledger.verify().ok and ledger.head().seq == 5


@pytest.mark.skipif(shutil.which("sqlite3") is None, reason="no sqlite3 command-line shell")
def test_sqlite3_shell_update_and_delete_fail_with_trigger_message(ledger: Ledger) -> None:
    for sql, word in (("UPDATE events SET actor = 'mallory'", "UPDATE"), ("DELETE FROM events", "DELETE")):
        proc = subprocess.run(["sqlite3", str(ledger.path), sql], capture_output=True, text=True)
        assert proc.returncode != 0
        assert f"goledger: the event log is append-only: {word} is refused" in proc.stderr
    assert ledger.head().seq == 5


def _tamper(path: Path, seq: int) -> None:
    """Edit one payload behind the triggers' back."""
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER events_append_only_update")
    conn.execute("UPDATE events SET payload = replace(payload, 'x1', 'x9') WHERE seq = ?", (seq,))
    conn.commit()
    conn.close()


def test_verify_names_the_altered_event(ledger: Ledger, cli) -> None:
    copy = ledger.path.with_name("copy.db")
    ledger.close()
    shutil.copy(ledger.path, copy)
    _tamper(copy, 3)
    with Ledger.open(copy, check_protection=False) as tampered:
        report = tampered.verify()
    assert not report.ok and report.first_bad_seq == 3 and report.trusted_upto == 2
    assert "event 3 (PlayerUpdated) was altered" in report.problem
    res = cli("verify", "--db", copy)
    assert res.code == 1
    assert "event 3 (PlayerUpdated) was altered" in res.err
    assert "events 1..2 can be trusted" in res.err
    assert cli("verify", "--db", ledger.path).code == 0


def test_verify_reports_removed_triggers(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with Ledger.create(path) as led:
        led.append(_events(2))
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER events_append_only_delete")
    conn.close()
    with pytest.raises(LedgerError, match="lost its append-only protection"):
        Ledger.open(path)
    with Ledger.open(path, check_protection=False) as led:
        report = led.verify()
    assert not report.ok and report.missing_triggers == ("events_append_only_delete",)
    assert "triggers were removed" in report.problem


def test_refuses_foreign_missing_and_newer_files(tmp_path: Path) -> None:
    with pytest.raises(LedgerError, match="no ledger at"):
        Ledger.open(tmp_path / "missing.db")
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(LedgerError, match="not an SQLite database"):
        Ledger.open(junk)
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE things (x)")
    conn.close()
    with pytest.raises(LedgerError, match="not a goledger ledger"):
        Ledger.open(other)
    newer = tmp_path / "newer.db"
    Ledger.create(newer).close()
    conn = sqlite3.connect(newer)
    conn.execute("DROP TRIGGER meta_append_only_update")
    conn.execute("UPDATE meta SET value = '99' WHERE key = 'store_schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(LedgerError, match="written by a newer goledger"):
        Ledger.open(newer)
    with pytest.raises(LedgerError, match="already exists"):
        Ledger.create(newer)


def test_expected_head_refuses_a_moved_head(ledger: Ledger) -> None:
    with pytest.raises(StaleHeadError, match=r"changed since event 3: 2 event\(s\) were appended \(4 PlayerUpdated"):
        ledger.append(_events(1), expected_head=3)
    assert ledger.head().seq == 5
    ledger.append(_events(1), expected_head=5)
    assert ledger.head().seq == 6


def _clubs(record: Record) -> set[str]:
    """Opaque keys for the store: the club a PlayerUpdated sets; anything else cannot be read."""
    if record.type != "PlayerUpdated":
        raise ValueError(f"cannot read {record.type}")
    return {str(msgspec.json.decode(record.payload)["changes"]["club"])}


def test_a_write_that_names_its_dependencies_is_refused_only_by_a_record_touching_them(ledger: Ledger) -> None:
    """One conflict rule, decided in the store inside the write lock (issue 48 item 1)."""
    with ledger.writing(3, keys_of=_clubs) as tx:  # events 4 and 5 (clubs x2, x3) since the expected head
        assert [r.seq for r in tx.since] == [4, 5]
        tx.depend({"x0", "elsewhere"})  # untouched: the write goes on against the new head
        assert tx.append(_events(1, "y"))[0].seq == 6
    for keys, touched in (({"x3", "x2"}, [4, 5]), ({"x3"}, [5]), (None, [4, 5])):
        with pytest.raises(StaleHeadError) as caught, ledger.writing(3, keys_of=_clubs) as tx:
            tx.depend(keys)
            tx.append(_events(1, "z"))
        assert [r.seq for r in caught.value.since] == touched + ([6] if keys is None else [])
        assert caught.value.expected == 3 and caught.value.head == 6
    assert ledger.head().seq == 6


def test_an_unreadable_record_touches_every_dependency_but_none_of_an_empty_set(ledger: Ledger) -> None:
    ledger.append([ev.RulesChanged(changes={"rounds": 4})])  # event 6: _clubs cannot read it
    assert [r.seq for r in touching(ledger.records(after=5), {"x9"}, _clubs)] == [6]
    with pytest.raises(StaleHeadError) as caught, ledger.writing(5, keys_of=_clubs) as tx:
        tx.depend({"x9"})
    assert [r.seq for r in caught.value.since] == [6]
    with ledger.writing(5, keys_of=_clubs) as tx:
        tx.depend(set())
        tx.append(_events(1, "y"))
    assert ledger.head().seq == 7


def test_without_keys_of_a_moved_head_is_refused_before_anything_is_read(ledger: Ledger) -> None:
    with pytest.raises(StaleHeadError) as caught, ledger.writing(3):
        pass
    assert [r.seq for r in caught.value.since] == [4, 5] and caught.value.head == 5


def test_failed_append_writes_nothing(ledger: Ledger) -> None:
    class Boom(Exception):
        pass

    with pytest.raises(Boom), ledger.writing() as tx:
        tx.append(_events(3))
        raise Boom
    assert ledger.head().seq == 5 and ledger.verify().ok


_WRITER = textwrap.dedent(
    """
    import sys
    from goledger.ledger import events as ev
    from goledger.ledger.store import Ledger
    path, tag, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with Ledger.open(path) as led:
        for i in range(n):
            led.append([ev.PlayerUpdated(player_id=tag, changes={"i": i})], actor=tag)
    """
)


def test_two_processes_appending_concurrently_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    Ledger.create(path).close()
    env = {"PYTHONPATH": str(REPO)}
    procs = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(path), tag, "500"], env=env)
        for tag in ("desk-a", "desk-b")
    ]
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    with Ledger.open(path) as led:
        assert led.verify().ok
        records = list(led.records())
    assert len(records) == 1000
    for tag in ("desk-a", "desk-b"):
        mine = [ev.event_from_json(r.payload).changes["i"] for r in records if r.actor == tag]  # type: ignore[attr-defined]
        assert mine == list(range(500))


_BULK = textwrap.dedent(
    """
    import sys
    from goledger.ledger import events as ev
    from goledger.ledger.store import Ledger
    path = sys.argv[1]
    events = [ev.PlayerUpdated(player_id="bulk", changes={"i": i}) for i in range(20000)]
    with Ledger.open(path) as led:
        print("go", flush=True)
        led.append(events)
    print("done", flush=True)
    """
)


@pytest.mark.parametrize("attempt", range(3))
def test_sigkill_during_bulk_append_leaves_all_or_nothing(tmp_path: Path, attempt: int) -> None:
    path = tmp_path / "crash.db"
    with Ledger.create(path) as led:
        led.append(_events(3))
    proc = subprocess.Popen([sys.executable, "-c", _BULK, str(path)], env={"PYTHONPATH": str(REPO)},
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "go"
    time.sleep(random.Random(attempt).uniform(0.0, 0.25))
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    with Ledger.open(path) as led:
        report = led.verify()
        count = led.head().seq
    assert report.ok, report.problem
    assert count in (3, 20003)


def test_new_ledger_tables_are_laid_out_as_sqlite_utils_lays_them_out(tmp_path: Path) -> None:
    """The store writes its tables' DDL itself (importing sqlite-utils costs more than an
    import); it must stay exactly what sqlite-utils would create (DESIGN §4)."""
    sqlite_utils = pytest.importorskip("sqlite_utils")
    Ledger.create(tmp_path / "ours.db").close()
    theirs = sqlite_utils.Database(tmp_path / "theirs.db")
    theirs.create_table("meta", {"key": str, "value": str}, pk="key", not_null={"value"}, strict=True)
    theirs.create_table(
        "events",
        {"seq": int, "type": str, "schema_version": int, "payload": str, "recorded_at": str, "actor": str,
         "reason": str, "prev_hash": str, "hash": str},
        pk="seq",
        not_null={"type", "schema_version", "payload", "recorded_at", "actor", "reason", "prev_hash", "hash"},
        strict=True,
    )
    theirs.create_table("projection_cache", {"name": str, "seq": int, "head": str, "data": bytes}, pk="name",
                        not_null={"seq", "head", "data"}, strict=True)
    query = "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name"
    ours = sqlite3.connect(tmp_path / "ours.db")
    assert ours.execute(query).fetchall() == theirs.conn.execute(query).fetchall()
    ours.close()


def test_utc_now_writes_what_datetime_writes() -> None:
    """``utc_now`` formats the date once per second; its text is still datetime's format."""
    from datetime import UTC, datetime, timedelta

    from goledger.ledger.store import utc_now

    for _ in range(3):
        before = datetime.now(UTC)
        text = utc_now()
        after = datetime.now(UTC)
        stamp = datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
        assert stamp.strftime("%Y-%m-%dT%H:%M:%S.%fZ") == text
        assert before - timedelta(milliseconds=1) <= stamp <= after + timedelta(milliseconds=1)
        time.sleep(0.6)  # cross a second boundary at least once
