"""Opening a ledger never cancels the locks another connection of the same process holds on it.

POSIX drops every ``fcntl`` lock a process holds on a file when the process closes *any*
descriptor of that file (SQLite's "How To Corrupt An SQLite Database File", 2.2). ``Ledger.open``
used to read the file's first 16 bytes through a descriptor of its own: while one thread of
the desk held a connection and its worker processes appended, fresh opens in another thread
read "database disk image is malformed" (82 times in this test's loop before the fix)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

from goledger import commands
from goledger.ledger.store import Ledger

from ..conftest import REPO


def test_a_held_connection_and_fresh_opens_beside_another_process_appending(tmp_path: Path) -> None:
    db = tmp_path / "locks.db"
    commands.new(db, "Locks", 2, "mcmahon", "3d", "20k", None, None, "7.5")
    for i in range(40):
        commands.register(db, f"S{i}", "X", "1k")
    for t in range(1, 21):
        commands.pair(db, 1, f"p{2 * t - 1:04d}", f"p{2 * t:04d}", t, 0)
    errors: list[str] = []
    stop = threading.Event()
    held = Ledger.open(db)

    def read_held() -> None:
        while not stop.is_set():
            try:
                held.head()
            except Exception as exc:
                errors.append(f"held: {exc}")
            time.sleep(0.005)

    reader = threading.Thread(target=read_held, daemon=True)
    reader.start()
    writer = subprocess.Popen([sys.executable, "-c", "import sys\nfrom goledger import commands\n"
                               "for t in range(1, 21):\n    commands.result(sys.argv[1], 1, t, 'white')\n", str(db)],
                              env={"PYTHONPATH": str(REPO)})
    deadline = time.monotonic() + 120
    try:
        while writer.poll() is None and time.monotonic() < deadline:
            try:
                with Ledger.open(db) as ledger:
                    ledger.head()
            except Exception as exc:
                errors.append(f"fresh: {exc}")
            time.sleep(0.005)
    finally:
        stop.set()
        reader.join(5)
        if writer.poll() is None:
            writer.kill()
        held.close()
    assert writer.returncode == 0
    assert errors == [], errors[:3]
    with Ledger.open(db) as ledger:
        assert ledger.verify().ok and ledger.head().seq == len(list(ledger.records()))
