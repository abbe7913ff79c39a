"""Benchmark the round trips of issue 40, item 5: what the places comparison costs an import,
and how many places each format's round trip still changes.

For each OpenGotha file (default: ``egc-2011.xml`` and ``synthetic-1000x10.xml`` of
``../shared/oracle/inputs`` or ``$GOLEDGER_SHARED``) it builds the ledger state, writes it
as an EGD table, a TRF, an OpenGotha and a MacMahon file, reads each back, and measures
in-process, best of ``--runs``: reading the file (bytes → events), and comparing the places
it states with goledger's rebuilt standings (:func:`goledger.formats.places.compare_places`,
what every import now adds). It also prints the number of players the comparison names.

Run: ``python benchmarks/bench_round_trip.py [--runs 3] [FILE…]``. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from goledger.formats.egd.read import read_egd  # noqa: E402
from goledger.formats.egd.write import write_egd  # noqa: E402
from goledger.formats.macmahon.read import read_macmahon  # noqa: E402
from goledger.formats.macmahon.write import write_macmahon  # noqa: E402
from goledger.formats.opengotha.read import read_opengotha  # noqa: E402
from goledger.formats.opengotha.write import write_opengotha  # noqa: E402
from goledger.formats.places import compare_places  # noqa: E402
from goledger.formats.report import InterchangeReport  # noqa: E402
from goledger.formats.trf.read import read_trf  # noqa: E402
from goledger.formats.trf.write import write_trf  # noqa: E402
from goledger.replay.fold.state import TournamentState, fold  # noqa: E402

FORMATS: dict[str, tuple[Callable[[TournamentState], tuple[bytes, Any]], Callable[[bytes], Any]]] = {
    "egd": (lambda s: write_egd(s), lambda b: read_egd(b, "t.h9")),
    "trf": (lambda s: write_trf(s), lambda b: read_trf(b, "t.trf")),
    "opengotha": (lambda s: write_opengotha(s), lambda b: read_opengotha(b, source="t.xml")),
    "macmahon": (lambda s: write_macmahon(s), lambda b: read_macmahon(b, source="t.xml")),
}


def best(runs: int, action: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    shared = Path(os.environ.get("GOLEDGER_SHARED") or REPO.parent / "shared")
    files = args.files or [shared / "oracle" / "inputs" / name for name in ("egc-2011.xml", "synthetic-1000x10.xml")]
    print("| file | players | format | read ms | compare places ms | places named |")
    print("|---|---|---|---|---|---|")
    for path in files:
        state = fold(read_opengotha(path.read_bytes(), source=path.name).events)
        for name, (write, read) in FORMATS.items():
            data, _report = write(state)
            result = read(data)
            read_s = best(args.runs, lambda: read(data))  # noqa: B023 - called at once

            def compare() -> int:
                return compare_places(result.events, result.places, InterchangeReport(format=name))  # noqa: B023

            compare_s = best(args.runs, compare)
            print(f"| {path.name} | {len(state.players)} | {name} | {read_s * 1000:,.0f} | {compare_s * 1000:,.0f} "
                  f"| {compare()} |")


if __name__ == "__main__":
    main()
