"""``goledger site`` on EGC 2011 (issue 47, item 4: at most 2 s): whole processes through the CLI.

Imports ``../shared/realdata/opengotha/lucvannier_opengotha__egc2011.xml`` (760 players, 10
rounds) into a temporary ledger, then runs ``goledger site`` into a fresh folder (the full build:
76 pages in five languages) and again on the built site (the head unchanged: nothing computed),
``--runs`` times each, and prints the CPU and wall seconds (median, min–max) as a Markdown table
for ``benchmarks/RESULTS.md``. CPU time is the measure: on a shared machine wall time grows with
the load.

Run: ``python benchmarks/site_egc2011.py [--runs 5]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EGC = REPO.parent / "shared" / "realdata" / "opengotha" / "lucvannier_opengotha__egc2011.xml"


def _run(args: list[str], cwd: Path) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of ``goledger ARGS`` as a whole process."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "goledger", *args], cwd=cwd, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def _cell(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as folder:
        cwd = Path(folder)
        _run(["import", "opengotha", str(EGC), "--db", "egc.db", "-q"], cwd)
        full: list[tuple[float, float]] = []
        again: list[tuple[float, float]] = []
        for i in range(runs):
            full.append(_run(["site", f"site{i}", "--db", "egc.db"], cwd))
            again.append(_run(["site", f"site{i}", "--db", "egc.db"], cwd))
    print("| `goledger site` on EGC 2011 (760 players, 10 rounds) | CPU s | wall s |")
    print("|---|---|---|")
    print(f"| full build, 76 pages in 5 languages | {_cell([c for c, _ in full])} | {_cell([w for _, w in full])} |")
    print(f"| again at the same head | {_cell([c for c, _ in again])} | {_cell([w for _, w in again])} |")
    print(f"\n{runs} runs each; load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}.")


if __name__ == "__main__":
    main()
