"""Benchmark MacMahon interchange and scoring (issue 7).

For each OpenGotha file (default: ``egc-2011.xml``, ``synthetic-1000x10.xml`` and
``malavasi-2024.xml`` of ``../shared/oracle/inputs`` or ``$GOLEDGER_SHARED``) it builds the
ledger state, then measures in-process, best of ``--runs``:

* writing the MacMahon 3.10 file (state → XML) and its size;
* reading it back (XML → events) and folding the events;
* the ``macmahon`` policy's standings after the last round with all seven MM- criteria;
* whole-process ``goledger import macmahon`` and ``goledger export macmahon``.

Run: ``python benchmarks/bench_macmahon.py [--runs 5] [FILE…]``. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from goledger.formats.macmahon.read import read_macmahon  # noqa: E402
from goledger.formats.macmahon.write import write_macmahon  # noqa: E402
from goledger.formats.opengotha.read import read_opengotha  # noqa: E402
from goledger.replay.fold.state import fold  # noqa: E402
from goledger.replay.scoring.standings import standings  # noqa: E402

CRITERIA = ("MM-Score", "MM-ScoreX", "MM-Points", "MM-SOS", "MM-SOSOS", "MM-SODOS", "MM-SORP")


def best(runs: int, action: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def cli(*args: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    subprocess.run([sys.executable, "-m", "goledger", *args], check=True, capture_output=True, env=env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    shared = Path(os.environ.get("GOLEDGER_SHARED") or REPO.parent / "shared")
    files = args.files or [shared / "oracle" / "inputs" / n for n in
                           ("egc-2011.xml", "synthetic-1000x10.xml", "malavasi-2024.xml")]
    print("| file | players | games | MacMahon XML | write | read | fold | standings (7 MM- criteria) "
          "| `import macmahon` | `export macmahon` |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for path in files:
        state = fold(read_opengotha(path.read_bytes(), source=path.name).events)
        data, _ = write_macmahon(state)
        events = read_macmahon(data, source="bench.xml").events
        write = best(args.runs, lambda state=state: write_macmahon(state))
        read = best(args.runs, lambda data=data: read_macmahon(data, source="bench.xml"))
        folding = best(args.runs, lambda events=events: fold(events))
        table = best(args.runs, lambda state=state: standings(state, state.rounds, "macmahon", CRITERIA))
        with tempfile.TemporaryDirectory() as tmp:
            xml = Path(tmp) / "t.xml"
            xml.write_bytes(data)
            counter = iter(range(10_000))

            def whole_import(xml: Path = xml, tmp: str = tmp, counter: object = counter) -> None:
                number = next(counter)  # type: ignore[call-overload]
                cli("import", "macmahon", str(xml), "--db", str(Path(tmp) / f"{number}.db"), "--quiet")

            imported = best(args.runs, whole_import)
            exported = best(args.runs, lambda tmp=tmp: cli("export", "macmahon", "--db", str(Path(tmp) / "0.db"),
                                                              "-o", str(Path(tmp) / "out.xml"), "--quiet"))
        games = sum(len(t) for t in state.games.values())
        print(f"| {path.name} | {len(state.players)} | {games} | {len(data) / 1e6:.1f} MB | {write:.2f} s "
              f"| {read:.2f} s | {folding:.2f} s | {table:.2f} s | {imported:.2f} s | {exported:.2f} s |")


if __name__ == "__main__":
    main()
