"""The benchmark suite (issue 9): scaling curves of goledger on generated congresses, and the
targets of the issue, as markdown.

For every size (default 100, 500, 1,000, 1,500 and 3,000 players × 12 rounds; tournaments
from :mod:`benchmarks.generate`, the same seed) it measures the median of ``--runs`` runs
(at least 15 for the one-round standings, which take milliseconds), with min and max:

* appends: the whole tournament in one transaction (events/s), and single events, one
  transaction (one fsync) each (appends/s);
* OpenGotha import of the tournament's XML: whole ``goledger import opengotha`` process, and
  in process (``import_opengotha``);
* ``verify`` (hash chain, triggers, snapshot check), in process;
* the full fold (decode every event and fold, no cache), in process;
* standings after the last round and after every round 1..12, from the folded state with
  nothing cached, for MMS/SOSM/SOSOSM and for MMS/DC/SOSM/SOSOSM (DC right after the main
  score, so that it orders every tied McMahon group), in process;
* ``what-if --without`` one result of the middle round, in process (these in-process
  measurements run in a fresh worker process per size, holding only the ledger's state);
* whole processes: ``goledger result`` followed by ``goledger standings`` (the tournament's
  criteria, text table; computed, as the head moved), the peak memory of the latter (max
  RSS), and ``goledger standings`` again at the same head (from the standings cache).

The last column divides the 3,000-player time by the 500-player time: n log n growth allows
(3000·ln 3000)/(500·ln 500) ≈ 7.7 (linear: 6); whole processes include a constant start-up.

Then the issue's targets: EGC 2011 (``../shared/oracle/inputs/egc-2011.xml``) imported and
ranked as whole processes, ``result`` + ``standings`` at 1,500 × 12, one round's standings
for 1,500 players in process, and DC for every round of a 2,000 × 20 congress in process.

Run: ``python benchmarks/run.py [--runs 5] [--sizes 100,500,1000,1500,3000] [--out FILE]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.generate import generate_events, write_opengotha
from benchmarks.timing import REPO, Samples, compile_bytecode, machine, ms, process_runs, run_goledger, timed
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.ledger.values import Result

ROUNDS = 12
MAIN = ("MMS", "SOSM", "SOSOSM")
WITH_DC = ("MMS", "DC", "SOSM", "SOSOSM")
SINGLE_APPENDS = 100


@dataclass
class Row:
    """One line of the scaling table: samples per size, shown in ms or as a rate."""

    label: str
    unit: str = "ms"  # "ms", "events/s", "appends/s" or "MB"
    count: dict[int, int] | None = None  # items per run, for rates
    scaling: bool = True  # False: the cost does not depend on the field (fsync-bound)

    def __post_init__(self) -> None:
        self.samples: dict[int, Samples] = {}

    def cell(self, size: int) -> str:
        s = self.samples.get(size)
        if s is None:
            return ""
        if self.unit == "MB":
            values = s.rss_mb
            return f"{sorted(values)[len(values) // 2]:.0f} ({min(values):.0f}–{max(values):.0f})"
        if self.unit in ("events/s", "appends/s"):
            assert self.count is not None
            n = self.count[size]
            return f"{n / s.median:,.0f} ({n / max(s.wall):,.0f}–{n / min(s.wall):,.0f})"
        return f"{ms(s.median)} ({ms(min(s.wall))}–{ms(max(s.wall))})"

    def ratio(self, small: int, large: int) -> str:
        a, b = self.samples.get(small), self.samples.get(large)
        if a is None or b is None:
            return ""
        if self.unit == "MB":
            return f"{b.rss_mb[len(b.rss_mb) // 2] / a.rss_mb[len(a.rss_mb) // 2]:.1f}"
        # best runs (the least disturbed by other work on the machine); for rates, the
        # time for each size's items (the whole tournament for bulk appends)
        return f"{min(b.wall) / min(a.wall):.1f}"


def nlogn_ratio(small: int, large: int) -> float:
    return (large * math.log(large)) / (small * math.log(small))


class Congress:
    """A generated tournament on disk: the ledger (its last result left open, so that
    ``goledger result`` has something to record) and the same as OpenGotha XML."""

    def __init__(self, players: int, rounds: int, seed: int, folder: Path) -> None:
        self.players, self.rounds = players, rounds
        events = generate_events(players, rounds, seed)
        last = max(i for i, e in enumerate(events) if isinstance(e, ev.ResultRecorded))
        pending = events.pop(last)
        assert isinstance(pending, ev.ResultRecorded)
        self.pending = pending
        self.events = events
        self.folder = folder
        self.db = folder / f"congress-{players}.db"
        with Ledger.create(self.db) as ledger:
            ledger.append(events, actor="generator")
        self.xml = folder / f"congress-{players}.xml"
        write_opengotha(self.db, self.xml)
        middle = rounds // 2
        self.middle_result = next(seq for seq, e in enumerate(events, start=1)
                                  if isinstance(e, ev.ResultRecorded) and e.round == middle)
        from goledger.replay.views import state_as_of

        state_as_of(self.db)  # writes the state snapshot, as the first command on the ledger would

    def fresh(self, stem: str) -> Path:
        """A path for a new ledger (nothing there)."""
        path = self.folder / f"{stem}-{self.players}.db"
        for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            leftover.unlink(missing_ok=True)
        return path


def measure(congress: Congress, rows: dict[str, Row], runs: int) -> None:
    n = congress.players

    def put(key: str, samples: Samples) -> None:
        rows[key].samples[n] = samples

    rows["append_bulk"].count = {**(rows["append_bulk"].count or {}), n: len(congress.events)}
    put("append_bulk", timed(lambda: _bulk(congress), runs, warmup=0, setup=lambda: congress.fresh("bulk")))
    rows["append_single"].count = {**(rows["append_single"].count or {}), n: SINGLE_APPENDS}
    single = congress.folder / f"single-{n}.db"
    shutil.copy(congress.db, single)
    updates = [ev.PlayerUpdated(player_id="p0001", changes={"club": f"c{i}"}) for i in range(SINGLE_APPENDS)]

    def one_by_one() -> None:
        with Ledger.open(single) as ledger:
            for update in updates:
                ledger.append([update], actor="bench")

    put("append_single", timed(one_by_one, runs, warmup=0))
    put("import_process", process_runs(
        lambda i: ["import", "opengotha", congress.xml, "--db", congress.folder / f"imported-{n}.db"], runs,
        setup=lambda i: congress.fresh("imported")))
    for key, samples in in_worker("congress", {
        "db": str(congress.db), "xml": str(congress.xml), "rounds": congress.rounds, "runs": runs,
        "middle_result": congress.middle_result, "scratch": str(congress.fresh("inproc")),
    }).items():
        put(key, samples)
    recorded, computed, both = _result_then_standings(congress, runs)
    put("result_process", recorded)
    put("standings_process", computed)
    put("result_standings", both)
    put("rss_standings", computed)
    put("standings_cached", process_runs(lambda i: ["standings", "--db", congress.db], runs))


def in_worker(task: str, spec: dict[str, object]) -> dict[str, Samples]:
    """Run in-process measurements in a fresh Python process (``run.py --worker``) holding
    only what they need, as a command or a server would: in the benchmark's own process the
    heap also holds every event object and earlier sizes, which slows the larger sizes."""
    out = subprocess.run([sys.executable, __file__, "--worker", json.dumps({"task": task, **spec})],
                         capture_output=True, text=True, check=True)
    return {key: Samples(**value) for key, value in json.loads(out.stdout).items()}


def _worker(spec: dict[str, Any]) -> dict[str, Samples]:
    """The in-process measurements of one worker (see :func:`in_worker`)."""
    from goledger.audit.queries import what_if
    from goledger.commands import verify
    from goledger.formats.opengotha import import_opengotha
    from goledger.replay.fold.state import fold
    from goledger.replay.scoring import rounds as round_tables
    from goledger.replay.scoring.standings import standings
    from goledger.replay.views import state_as_of

    runs = spec["runs"]
    cold = round_tables._CACHE.clear
    if spec["task"] == "dc-2000x20":
        state = fold(generate_events(2000, 20, spec["seed"]))

        def dc_every_round() -> None:
            for r in range(1, 21):
                standings(state, r, "opengotha", WITH_DC)

        return {"dc_every_round": timed(dc_every_round, runs, setup=cold)}
    db, xml, last, scratch = Path(spec["db"]), Path(spec["xml"]), spec["rounds"], Path(spec["scratch"])
    out: dict[str, Samples] = {}

    def clear_scratch() -> None:
        for leftover in (scratch, Path(f"{scratch}-wal"), Path(f"{scratch}-shm")):
            leftover.unlink(missing_ok=True)

    out["import_inproc"] = timed(lambda: import_opengotha(xml, scratch), runs, setup=clear_scratch)
    out["verify"] = timed(lambda: verify(db), runs)

    def full_fold() -> None:
        with Ledger.open(db) as ledger:
            fold(ledger.events())

    out["fold"] = timed(full_fold, runs)
    state = state_as_of(db)

    def one_round(criteria: tuple[str, ...]) -> Callable[[], object]:
        return lambda: standings(state, last, "opengotha", criteria)

    def every_round(criteria: tuple[str, ...]) -> Callable[[], object]:
        return lambda: [standings(state, r, "opengotha", criteria) for r in range(1, last + 1)]

    quick = max(runs, 15)  # runs of a few milliseconds: more of them, for a steadier median
    out["one_round"] = timed(one_round(MAIN), quick, setup=cold)
    out["one_round_dc"] = timed(one_round(WITH_DC), quick, setup=cold)
    out["all_rounds"] = timed(every_round(MAIN), runs, setup=cold)
    out["all_rounds_dc"] = timed(every_round(WITH_DC), runs, setup=cold)
    out["what_if"] = timed(lambda: what_if(db, [spec["middle_result"]]), runs)
    return out


def _bulk(congress: Congress) -> None:
    with Ledger.create(congress.folder / f"bulk-{congress.players}.db") as ledger:
        ledger.append(congress.events, actor="bench")


def _result_then_standings(congress: Congress, runs: int) -> tuple[Samples, Samples, Samples]:
    """``goledger result`` (the pending game), then ``goledger standings``, as two processes
    (the standings are computed: the head moved); the result is reset to unknown between
    runs (a correction, appended untimed). Returns the result, standings and sum samples."""
    pending = congress.pending
    recorded, computed, both = Samples(), Samples(), Samples()
    for i in range(runs + 1):
        outcome = (Result.WHITE if i % 2 else Result.BLACK).value
        first = run_goledger(["result", "--db", congress.db, "--round", str(pending.round), "--table",
                              str(pending.table), outcome])
        second = run_goledger(["standings", "--db", congress.db])
        if i:
            recorded.add(first)
            computed.add(second)
            both.add(Samples([first.wall[0] + second.wall[0]], [first.cpu[0] + second.cpu[0]],
                             [max(first.rss_mb[0], second.rss_mb[0])]))
        with Ledger.open(congress.db) as ledger:
            ledger.append([ev.ResultCorrected(round=pending.round, table=pending.table, result=Result.UNKNOWN,
                                              reason="benchmark reset")], actor="bench")
    return recorded, computed, both


def scaling_table(sizes: list[int], runs: int, seed: int, folder: Path) -> tuple[str, dict[str, Row]]:
    rows = {
        "append_bulk": Row("append the whole tournament, one transaction", "events/s"),
        "append_single": Row(f"append {SINGLE_APPENDS} single events, one transaction (fsync) each", "appends/s",
                             scaling=False),
        "import_process": Row("OpenGotha import, whole process `goledger import opengotha`"),
        "import_inproc": Row("OpenGotha import, in process"),
        "verify": Row("verify (chain, triggers, snapshot), in process"),
        "fold": Row("full fold (decode + fold every event, no cache), in process"),
        "one_round": Row("standings, last round, MMS/SOSM/SOSOSM, nothing cached"),
        "one_round_dc": Row("standings, last round, MMS/DC/SOSM/SOSOSM, nothing cached"),
        "all_rounds": Row("standings, every round 1..12, MMS/SOSM/SOSOSM"),
        "all_rounds_dc": Row("standings, every round 1..12, MMS/DC/SOSM/SOSOSM"),
        "what_if": Row("what-if without one result of round 6, in process"),
        "result_process": Row("whole process `goledger result`"),
        "standings_process": Row("whole process `goledger standings` right after it (computed)"),
        "result_standings": Row("the two together: `goledger result` + `goledger standings`"),
        "standings_cached": Row("whole process `goledger standings` again, same head (cached)"),
        "rss_standings": Row("peak memory of `goledger standings` (computed; max RSS)", "MB"),
    }
    events: dict[int, int] = {}
    for n in sizes:
        started = time.perf_counter()
        congress = Congress(n, ROUNDS, seed, folder)
        events[n] = len(congress.events)
        measure(congress, rows, runs)
        print(f"  {n} players: {len(congress.events):,} events, measured in {time.perf_counter() - started:.0f} s",
              file=sys.stderr)
    small, large = (500, 3000) if {500, 3000} <= set(sizes) else (sizes[0], sizes[-1])
    bound = nlogn_ratio(small, large)
    head = ["measurement (median, min–max; ms unless stated)", *(f"{n:,} × {ROUNDS}" for n in sizes),
            f"{large:,} / {small:,}"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines.append("| events in the ledger | " + " | ".join(f"{events[n]:,}" for n in sizes) + " | "
                 + f"{events[large] / events[small]:.1f} |")
    for row in rows.values():
        label = row.label + (f" ({row.unit})" if row.unit != "ms" else "")
        ratio = row.ratio(small, large)
        if ratio and row.unit != "MB":
            ratio += (" ✓" if float(ratio) <= bound else " ✗") if row.scaling else " (disk: fsync latency)"
        lines.append("| " + " | ".join([label, *(row.cell(n) for n in sizes), ratio]) + " |")
    lines.append("")
    lines.append(f"Last column: the best {large:,}-player time over the best {small:,}-player time (the same work "
                 f"per tournament; rates turned back into time); ✓ when within n log n growth, "
                 f"{bound:.1f} (linear growth: {large / small:.1f}).")
    return "\n".join(lines), rows


def targets_table(rows: dict[str, Row], sizes: list[int], runs: int, seed: int, folder: Path) -> str:
    lines = ["| target | limit | median (min–max) wall ms | median CPU ms | met |", "|---|---|---|---|---|"]

    def line(label: str, limit: float, samples: Samples) -> None:
        met = "yes" if samples.median < limit else ("CPU only (machine busy)" if samples.cpu_median < limit else "no")
        lines.append(f"| {label} | {ms(limit)} ms | {ms(samples.median)} ({ms(min(samples.wall))}–"
                     f"{ms(max(samples.wall))}) | {ms(samples.cpu_median)} | {met} |")

    line("`goledger --help`", 0.3, process_runs(lambda i: ["--help"], runs))
    egc = REPO.parent / "shared" / "oracle" / "inputs" / "egc-2011.xml"
    if egc.is_file():
        db = folder / "egc-2011.db"

        def clear(_: int) -> None:
            for leftover in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
                leftover.unlink(missing_ok=True)

        line("`goledger import opengotha egc-2011.xml` (760 × 10), whole process", 0.7,
             process_runs(lambda i: ["import", "opengotha", egc, "--db", db], runs, setup=clear))
        first = process_runs(lambda i: ["standings", "--db", db], 1, warmup=0)
        line("first `goledger standings` after that import, whole process", 0.5, first)
        line("`goledger standings` on that ledger, whole process", 0.5,
             process_runs(lambda i: ["standings", "--db", db], runs))
    if 1500 in sizes:
        line("`goledger result` + `goledger standings`, 1,500 × 12, whole processes", 0.6,
             rows["result_standings"].samples[1500])
        line("standings after one round, 1,500 players, MMS/SOSM/SOSOSM, in process", 0.030,
             rows["one_round"].samples[1500])
    line("standings with DC (MMS/DC/SOSM/SOSOSM) after every round, 2,000 × 20, in process", 1.0,
         in_worker("dc-2000x20", {"runs": runs, "seed": seed})["dc_every_round"])
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default="100,500,1000,1500,3000")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="also write the markdown there")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        results = _worker(json.loads(args.worker))
        print(json.dumps({key: dataclasses.asdict(samples) for key, samples in results.items()}))
        return
    sizes = [int(x) for x in args.sizes.split(",")]
    compile_bytecode()
    folder = Path(tempfile.mkdtemp(prefix="goledger-bench-"))
    before = machine()
    try:
        scaling, rows = scaling_table(sizes, args.runs, args.seed, folder)
        targets = targets_table(rows, sizes, args.runs, args.seed, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    after = os.getloadavg()
    text = "\n".join([
        f"# goledger benchmarks, {date.today().isoformat()}",
        "",
        f"Machine: {before} at the start; {', '.join(f'{x:.2f}' for x in after)} at the end.",
        f"Produced by `python benchmarks/run.py --runs {args.runs} --sizes {args.sizes}` (seed {args.seed}); "
        "tournaments from `benchmarks/generate.py`; byte code compiled beforehand, as for an installed goledger.",
        "",
        f"## Scaling ({ROUNDS} rounds)",
        "",
        scaling,
        "",
        "## Targets (issue 9)",
        "",
        targets,
        "",
    ])
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
