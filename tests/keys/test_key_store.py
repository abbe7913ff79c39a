"""The players' key store (issue 46, point 1): keys beside the ledger, never in it."""

from __future__ import annotations

import math
import os
import stat
import threading
from collections import Counter
from pathlib import Path

import pytest

from goledger import commands
from goledger.errors import CommandRejected
from goledger.keys import (
    KEY_LENGTH,
    ensure_keys,
    issue_key,
    keys_for,
    keys_path,
    player_for_key,
    revoke_key,
    well_formed,
)
from goledger.ledger.store import Ledger


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "t.db"
    commands.new(path, "Keys", 3)
    commands.register(path, "Abe", "Jo", "3k")
    commands.register(path, "Ban", "Li", "5k")
    commands.register(path, "Cal", "Mo", "1d")
    return path


def _ids(db: Path) -> list[str]:
    from goledger.replay.loading.load import load_state

    with Ledger.open(db) as ledger:
        return sorted(load_state(ledger).players)


def test_a_key_names_its_player_and_only_him(db: Path) -> None:
    a, b, _ = _ids(db)
    key_a, key_b = issue_key(db, a), issue_key(db, b)
    assert well_formed(key_a) and len(key_a) == KEY_LENGTH and key_a != key_b
    assert player_for_key(db, key_a) == a
    assert player_for_key(db, key_b) == b


def test_reissue_revokes_the_old_key(db: Path) -> None:
    a = _ids(db)[0]
    old = issue_key(db, a)
    new = issue_key(db, a)
    assert old != new
    assert player_for_key(db, old) is None
    assert player_for_key(db, new) == a
    assert keys_for(db) == {a: new}


def test_revoked_unknown_and_malformed_keys_are_all_unknown(db: Path) -> None:
    a = _ids(db)[0]
    key = issue_key(db, a)
    revoke_key(db, a)
    assert player_for_key(db, key) is None
    assert keys_for(db) == {}
    unknown = ("B" * KEY_LENGTH, "A" * KEY_LENGTH, key[:-1], key + "x", "", "../../etc/passwd", "é" * KEY_LENGTH,
               key.replace(key[0], "+"), "x" * 10_000)
    assert [player_for_key(db, k) for k in unknown] == [None] * len(unknown)


def test_no_keys_file_means_no_keys(db: Path) -> None:
    assert not keys_path(db).exists()
    assert player_for_key(db, "B" * KEY_LENGTH) is None
    assert keys_for(db) == {}
    assert not keys_path(db).exists(), "reading creates nothing"


def test_keys_are_random_and_long_enough(db: Path) -> None:
    """144 bits each: 500 keys of one player (reissued) are all different, and every base64
    character appears about as often as it should (a constant or a counter would not)."""
    a = _ids(db)[0]
    keys = [issue_key(db, a) for _ in range(200)]
    assert len(set(keys)) == len(keys)
    counts = Counter("".join(k[:-1] for k in keys))  # the last character carries 6 full bits too
    assert len(counts) == 64
    expected = sum(counts.values()) / 64
    assert max(counts.values()) < 2 * expected and min(counts.values()) > expected / 2
    assert math.log2(64) * KEY_LENGTH >= 128


def test_ensure_keys_issues_only_what_is_missing(db: Path) -> None:
    a, b, c = _ids(db)
    key_a = issue_key(db, a)
    keys = ensure_keys(db)
    assert set(keys) == {a, b, c} and keys[a] == key_a
    assert ensure_keys(db) == keys, "a second call issues nothing new"
    assert ensure_keys(db, [b]) == {b: keys[b]}
    assert keys_for(db) == keys


def test_unknown_players_are_refused_and_nothing_is_issued(db: Path) -> None:
    with pytest.raises(CommandRejected, match="no registered player"):
        issue_key(db, "nobody")
    with pytest.raises(CommandRejected, match="no registered player"):
        ensure_keys(db, [_ids(db)[0], "nobody"])
    with pytest.raises(CommandRejected, match="no registered player"):
        revoke_key(db, "nobody")
    assert keys_for(db) == {}


def test_no_key_in_the_ledger_and_the_file_is_private(db: Path) -> None:
    keys = ensure_keys(db)
    ledger_bytes = b"".join(p.read_bytes() for p in db.parent.iterdir()
                            if p.name.startswith(db.name) and not p.name.startswith(keys_path(db).name))
    for key in keys.values():
        assert key.encode() not in ledger_bytes
    assert stat.S_IMODE(os.stat(keys_path(db)).st_mode) == 0o600
    with Ledger.open(db) as ledger:  # the ledger is untouched: no foreign table in it
        from goledger.ledger.store import foreign_objects

        assert foreign_objects(ledger._conn) == ()


def test_concurrent_ensure_agrees_on_one_key_each(db: Path) -> None:
    results: list[dict[str, str]] = []
    threads = [threading.Thread(target=lambda: results.append(ensure_keys(db))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 4 and all(r == results[0] for r in results)
    assert keys_for(db) == results[0]
