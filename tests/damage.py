"""Damaged, foreign and tampered copies of a good ledger, for the hardening tests (issue 10
item 4), and an in-process CLI runner that fails on any traceback."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

from goledger import commands
from goledger.ledger.store import Ledger, chain_hash


def build_small_ledger(path: Path) -> Path:
    """A 2-round tournament: 4 players, round 1 paired, table 1 has a result, a checkpoint-free log."""
    commands.new(path, "Damage Cup", 2, actor="director")
    for surname, rank in (("Abe", "3d"), ("Berg", "1k"), ("Chen", "5k"), ("Dias", "10k")):
        commands.register(path, surname, "", rank, actor="director")
    commands.pair(path, 1, "Abe", "Berg", actor="desk-a")
    commands.pair(path, 1, "Chen", "Dias", actor="desk-a")
    commands.result(path, 1, 1, "white", actor="desk-a")
    return path


def file_state(path: Path) -> tuple[str, tuple[str, ...]]:
    """The SHA-256 of the file and the names in its folder (so a refusal that writes a
    side file, or changes a byte, is seen)."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "<not a file>"
    return digest, tuple(sorted(p.name for p in path.parent.iterdir() if not p.name.endswith(("-wal", "-shm"))))


def _sql(path: Path, *statements: str, params: tuple = ()) -> None:
    conn = sqlite3.connect(path)
    for sql in statements:
        conn.execute(sql, params if "?" in sql else ())
    conn.commit()
    conn.close()


def truncated(good: Path, out: Path, fraction: float = 0.5) -> Path:
    data = good.read_bytes()
    out.write_bytes(data[: int(len(data) * fraction)])
    return out


def random_bytes(good: Path, out: Path) -> Path:
    out.write_bytes(random.Random(7).randbytes(good.stat().st_size))
    return out


def sqlite_magic_then_noise(good: Path, out: Path) -> Path:
    out.write_bytes(b"SQLite format 3\x00" + random.Random(8).randbytes(8000))
    return out


def empty_file(good: Path, out: Path) -> Path:
    out.write_bytes(b"")
    return out


def other_program_sqlite(good: Path, out: Path) -> Path:
    """A database of another program (a browser history look-alike)."""
    _sql(out, "CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)",
         "INSERT INTO moz_places (url) VALUES ('https://example.org')")
    return out


def other_program_with_meta(good: Path, out: Path) -> Path:
    """Another program's database that happens to have a ``meta`` key/value table."""
    _sql(out, "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)",
         "INSERT INTO meta VALUES ('format', 'acme-notes'), ('version', '3')")
    return out


def opengotha_xml(good: Path, out: Path) -> Path:
    """A tournament file of another program given as the ledger."""
    out.write_bytes(b'<?xml version="1.0" encoding="UTF-8"?>\n<Tournament dataVersion="201"><Players/></Tournament>\n')
    return out


def _copy(good: Path, out: Path) -> Path:
    out.write_bytes(good.read_bytes())
    return out


def triggers_removed(good: Path, out: Path) -> Path:
    _copy(good, out)
    _sql(out, "DROP TRIGGER events_append_only_update", "DROP TRIGGER events_append_only_delete")
    return out


def trigger_neutered(good: Path, out: Path) -> Path:
    """The UPDATE trigger replaced by one of the same name that never fires."""
    _copy(good, out)
    _sql(out, "DROP TRIGGER events_append_only_update",
         "CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events WHEN 0 BEGIN SELECT 1; END")
    return out


def altered_result(good: Path, out: Path) -> Path:
    """Event 8 (the result) changed to black behind the triggers' back (and the trigger put back)."""
    _copy(good, out)
    conn = sqlite3.connect(out)
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'events_append_only_update'").fetchone()[0]
    conn.execute("DROP TRIGGER events_append_only_update")
    conn.execute("UPDATE events SET payload = replace(payload, '\"white\"', '\"black\"') WHERE seq = 8")
    conn.execute(sql)
    conn.commit()
    conn.close()
    return out


def newer_store_schema(good: Path, out: Path) -> Path:
    _copy(good, out)
    _sql(out, "DROP TRIGGER meta_append_only_update",
         "UPDATE meta SET value = '2' WHERE key = 'store_schema_version'")
    conn = sqlite3.connect(out)
    conn.execute(
        "CREATE TRIGGER meta_append_only_update BEFORE UPDATE ON meta BEGIN "
        "SELECT RAISE(ABORT, 'goledger: ledger metadata is write-once: UPDATE is refused'); END"
    )
    conn.commit()
    conn.close()
    return out


def _append_raw(path: Path, type_name: str, version: int, payload: dict) -> None:
    """Append a correctly chained event that this goledger did not write."""
    conn = sqlite3.connect(path)
    seq, prev = conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    body = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    at = "2030-01-01T00:00:00.000000Z"
    digest = chain_hash(prev, seq + 1, type_name, version, body.encode(), at, "future", "")
    conn.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (seq + 1, type_name, version, body, at, "future", "", prev, digest))
    conn.commit()
    conn.close()


def newer_event_schema(good: Path, out: Path) -> Path:
    """A ResultRecorded of schema version 3, as a newer goledger would write it (2 added the margin)."""
    _copy(good, out)
    _append_raw(out, "ResultRecorded", 3,
                {"type": "ResultRecorded", "round": 1, "table": 2, "result": "black", "by_default": False,
                 "margin": "3.5", "clock": "W 0:12"})
    return out


def unknown_event_type(good: Path, out: Path) -> Path:
    _copy(good, out)
    _append_raw(out, "ClockStopped", 1, {"type": "ClockStopped", "round": 1, "table": 2})
    return out


Damage = Callable[[Path, Path], Path]

DAMAGES: dict[str, tuple[Damage, str]] = {
    "truncated": (truncated, "is damaged and cannot be read"),
    "random-bytes": (random_bytes, "is not a goledger ledger (not an SQLite database)"),
    "sqlite-magic-then-noise": (sqlite_magic_then_noise, "is damaged and cannot be read"),
    "empty-file": (empty_file, "is not a goledger ledger (not an SQLite database)"),
    "other-program-sqlite": (other_program_sqlite, "is an SQLite database but not a goledger ledger"),
    "other-program-meta": (other_program_with_meta, "is an SQLite database but not a goledger ledger"),
    "opengotha-xml": (opengotha_xml, "is not a goledger ledger (not an SQLite database)"),
    "triggers-removed": (triggers_removed, "has lost its append-only protection"),
    "trigger-neutered": (trigger_neutered, "has lost its append-only protection"),
    "newer-store-schema": (newer_store_schema, "was written by a newer goledger (store schema 2"),
    "newer-event-schema": (newer_event_schema, "event 9 (ResultRecorded) cannot be read by this goledger"),
    "unknown-event-type": (unknown_event_type, "event 9 (ClockStopped) cannot be read by this goledger"),
}
"""Each damage, and the words every command's refusal must contain."""


def open_ok(path: Path) -> bool:
    try:
        Ledger.open(path).close()
    except Exception:
        return False
    return True
