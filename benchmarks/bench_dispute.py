"""Benchmark disputes on EGC 2011 (issue 42, item 5): a player's timeline, the what-if of one
event, the dispute sheet and the desk's audit report, server side, side by side with an older
commit in the same run.

The ledger is ``../shared/realdata/opengotha/lucvannier_opengotha__egc2011.xml`` (760 players,
10 rounds, 7,752 events) imported by this tree, then three events recorded as a director would
after the congress: a correction of round 3 table 1, a withdrawal (p0046 from round 6) and a
late rank update (p0010). The player looked at is the white player of round 3 table 1.

Each side runs in its own process with its own tree on ``PYTHONPATH`` (the older commit is
extracted with ``git archive`` into a temporary folder: no worktree, no checkout), builds the
desk's ASGI app over a copy of the ledger (``goledger serve``'s app, through Starlette's test
client: no network), logs in as the director (a director's pages are computed afresh on every
request, never served from the public pages' cache) and times each page ``--runs`` times; the
sides alternate ``--repeats`` times, the one going first swapping each time. Pages:

* timeline — new: ``/player/PID/timeline``; old: ``/desk/audit?view=history&player=PID`` (the
  desk's only way to a player's history before);
* what-if — new: ``/player/PID/what-if/SEQ`` (the correction and its consequences); old:
  ``/desk/audit?view=what-if&without=SEQ``;
* dispute sheet — new: ``/print/dispute-sheet/PID/SEQ``; old: none;
* audit report — ``/desk/report`` on both.

Targets: ≤ 300 ms for the first three, ≤ 1.5 s for the report (medians). Run:
``python benchmarks/bench_dispute.py --old COMMIT [--runs 5] [--repeats 3] [--results]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.timing import REPO, git, machine, update_results

SECTION = "## Issue 42: disputes on EGC 2011, server side, before and after"
EGC = REPO.parent / "shared" / "realdata" / "opengotha" / "lucvannier_opengotha__egc2011.xml"
TOKEN = "benchmark-director-token"

WORKER = r'''
import json, re, sys, time, warnings
from pathlib import Path
from goledger.web import create_app
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
db, token, runs = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
pages = json.loads(sys.argv[4])
client = TestClient(create_app(db, token))
csrf = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)
client.post("/login", data={"csrf": csrf, "token": token, "desk": "bench"})
client.get("/desk")  # the desk's state, folded once as a running desk holds it
out = {}
for key, path in pages.items():
    wall, cpu = [], []
    for _ in range(runs + 1):  # the first one warms the templates
        started, used = time.perf_counter(), time.process_time()
        response = client.get(path)
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)  # every thread of this process: the app's too
        if response.status_code != 200:
            raise SystemExit(f"{path}: {response.status_code} {response.text[:300]}")
    out[key] = wall[1:]
    out[key + ":cpu"] = cpu[1:]
print(json.dumps(out))
'''

LABELS = {
    "timeline": "a player's timeline (old: the desk's history view)",
    "what_if": "what-if of one event (old: what-if --without SEQ)",
    "sheet": "dispute sheet (old: none)",
    "report": "desk audit report /desk/report",
}
TARGETS = {"timeline": 0.3, "what_if": 0.3, "sheet": 0.3, "report": 1.5}


def build(folder: Path) -> tuple[Path, str, int]:
    """The EGC 2011 ledger with the three director's events; the player and the correction's number."""
    from goledger import commands
    from goledger.formats.opengotha import import_opengotha
    from goledger.ledger import events as ev
    from goledger.ledger.store import Ledger

    db = folder / "egc2011.db"
    import_opengotha(EGC, db)
    with Ledger.open(db) as ledger:
        game = next(e for e in ledger.events() if isinstance(e, ev.GamePaired) and (e.round, e.table) == (3, 1))
    seq = commands.correct(db, 3, 1, "black", "the slip was misread", actor="referee").seqs[0]
    commands.withdraw(db, "p0046", 6, "went home", actor="referee")
    commands.update_player(db, "p0010", rank="5d", actor="referee", reason="rank confirmed by the EGD")
    return db, game.white, seq


def extract(commit: str, folder: Path) -> Path:
    """``commit``'s ``goledger`` package in ``folder`` (``git archive``), compiled."""
    folder.mkdir()
    archive = subprocess.run(["git", "-C", str(REPO), "archive", commit, "goledger"], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(folder / "goledger")], check=True,
                   stdout=subprocess.DEVNULL)
    return folder


def measure(tree: Path, db: Path, runs: int, pages: dict[str, str], scratch: Path) -> dict[str, list[float]]:
    copy = scratch / f"run-{os.getpid()}-{tree.name}.db"
    shutil.copy(db, copy)
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-c", WORKER, str(copy), TOKEN, str(runs), json.dumps(pages)], env=env,
                         capture_output=True, text=True, check=False, cwd=scratch)
    copy.unlink()
    if out.returncode:
        raise SystemExit(f"{tree}: {out.stderr[-2000:]}")
    data: dict[str, list[float]] = json.loads(out.stdout.strip().splitlines()[-1])
    return data


def _cell(samples: list[float]) -> str:
    if not samples:
        return "–"
    return f"{statistics.median(samples) * 1000:,.0f} ({min(samples) * 1000:,.0f}–{max(samples) * 1000:,.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True, help="the commit to compare with (e.g. the one before issue 42)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--results", action="store_true", help="write the table into benchmarks/RESULTS.md")
    args = parser.parse_args()
    if not EGC.exists():
        raise SystemExit(f"{EGC} is not here: the benchmark needs ../shared")
    old_hash = git("rev-parse", "--short", f"{args.old}^{{commit}}")
    new_hash = git("rev-parse", "--short", "HEAD")
    with tempfile.TemporaryDirectory(prefix="goledger-bench-dispute-") as tmp:
        folder = Path(tmp)
        db, pid, seq = build(folder)
        old_tree = extract(args.old, folder / "old")
        sides = {
            "old": (old_tree, {"timeline": f"/desk/audit?view=history&player={pid}",
                               "what_if": f"/desk/audit?view=what-if&without={seq}", "report": "/desk/report"}),
            "new": (REPO, {"timeline": f"/player/{pid}/timeline", "what_if": f"/player/{pid}/what-if/{seq}",
                           "sheet": f"/print/dispute-sheet/{pid}/{seq}", "report": "/desk/report"}),
        }
        samples: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
        load_before = os.getloadavg()
        for repeat in range(args.repeats):
            order = ["old", "new"] if repeat % 2 == 0 else ["new", "old"]
            for side in order:
                tree, pages = sides[side]
                for key, values in measure(tree, db, args.runs, pages, folder).items():
                    samples[side].setdefault(key, []).extend(values)
        load_after = os.getloadavg()
    lines = [
        f"{date.today().isoformat()}, produced by `python benchmarks/bench_dispute.py --old {args.old} --runs "
        f"{args.runs} --repeats {args.repeats}`. {machine()}; load average before {load_before[0]:.2f}, after "
        f"{load_after[0]:.2f}. EGC 2011 (760 players, 10 rounds) with a correction, a withdrawal and a rank "
        f"update recorded after it; player {pid}, event {seq}. Milliseconds, server side (the desk's app "
        "through Starlette's test client, a director's request: computed afresh each time), wall time "
        "and the process's CPU time (every thread; on a shared machine the wall time is the CPU time "
        f"plus the wait for a core): median (min–max) of {args.runs * args.repeats} requests per side, the "
        "sides in turns.",
        "",
        f"| page | `{args.old}` ({old_hash}) | this branch ({new_hash}) | target |",
        "|---|---|---|---|",
    ]
    for key, label in LABELS.items():
        cells = [f"{_cell(samples[side].get(key, []))} · CPU {_cell(samples[side].get(key + ':cpu', []))}"
                 if samples[side].get(key) else "–" for side in ("old", "new")]
        lines.append(f"| {label} | {cells[0]} | {cells[1]} | ≤ {TARGETS[key] * 1000:,.0f} |")
    text = SECTION + "\n\n" + "\n".join(lines)
    print(text)
    if args.results:
        update_results(SECTION, text, REPO / "benchmarks" / "RESULTS.md")


if __name__ == "__main__":
    main()
