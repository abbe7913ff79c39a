"""What the sealed template cache costs and saves (issue 41, items 1 and 2).

Measured (median, min and max of ``--runs``):

* in process, every template of goledger's printouts and reports loaded by a fresh environment:
  compiled from source (what a refused cache folder means), read from the sealed cache
  (:class:`goledger.render.compiled.CompiledTemplates`: HMAC checked, then unmarshalled), and read
  from Jinja2's own ``FileSystemBytecodeCache`` (the unsealed pickle format goledger used before);
* whole process ``goledger report --html`` and ``goledger wall-list --format html`` on a generated
  ledger, with the cache in the user's own folder (warm) and in a folder others may write in
  (refused: every template compiled on start), the two in turns.

Run: ``python benchmarks/bench_template_cache.py [--players 200] [--rounds 5] [--runs 7]``; the
table is appended to ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from jinja2 import Environment, FileSystemBytecodeCache

from benchmarks.generate import generate_events, write_ledger
from benchmarks.timing import REPO, Samples, compile_bytecode, machine, ms, process_runs, timed, update_results
from goledger.render.compiled import CompiledTemplates
from goledger.render.html import TEMPLATES, make_environment

SECTION = "## Issue 41: the sealed template cache"


def _row(label: str, samples: Samples) -> str:
    return (f"| {label} | {ms(samples.median)} ({ms(min(samples.wall))}–{ms(max(samples.wall))}) "
            f"| {ms(samples.cpu_median)} |")


def _load_all(cache: object) -> None:
    """A fresh environment (another process) loading every template, ``cache`` its bytecode cache."""
    env: Environment = make_environment()
    env.bytecode_cache = cache  # type: ignore[assignment]
    for path in sorted(TEMPLATES.iterdir()):
        if path.is_file():
            env.get_template(path.name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    compile_bytecode()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        sealed = CompiledTemplates(root / "sealed" / "templates", root / "sealed", "bench")
        jinja = FileSystemBytecodeCache(str(root / "jinja"))
        (root / "jinja").mkdir()
        rows.append(_row("in process: every template compiled (no cache)", timed(lambda: _load_all(None), args.runs)))
        rows.append(_row("in process: every template from the sealed cache", timed(lambda: _load_all(sealed),
                                                                                   args.runs)))
        rows.append(_row("in process: every template from Jinja2's pickle cache (before)",
                         timed(lambda: _load_all(jinja), args.runs)))
        db = root / "t.db"
        write_ledger(generate_events(args.players, args.rounds, args.seed), db)
        own, loose = root / "own-cache", root / "loose-cache"
        (loose / "goledger").mkdir(parents=True)
        os.chmod(loose / "goledger", 0o777)
        homes = (("own folder, warm", own), ("folder others may write in: compiled on start", loose))
        commands = (("report --html", ["report", "--html", root / "r.html", "--force", "--db", db]),
                    ("wall-list --format html", ["wall-list", "--format", "html", "--db", db]))
        samples = {(c, h): Samples() for c, _ in commands for h, _ in homes}
        for turn in range(args.runs + 1):  # the two folders in turns (the load changes); the first turn warms
            for home_label, home in homes:
                os.environ["XDG_CACHE_HOME"] = str(home)
                for command_label, command in commands:
                    sample = process_runs(lambda i, command=command: command, 1, warmup=0)  # type: ignore[misc]
                    if turn:
                        samples[command_label, home_label].add(sample)
        for (command_label, home_label), sample in samples.items():
            rows.append(_row(f"whole process `{command_label}` ({home_label})", sample))
        assert not any(loose.rglob("*.jinja")), "a refused folder was written in"
    text = "\n".join([
        SECTION, "",
        f"Produced by `python benchmarks/bench_template_cache.py --players {args.players} --rounds {args.rounds} "
        f"--runs {args.runs}`. {machine()}.", "",
        "| what | wall ms, median (min–max) | CPU ms, median |", "|---|---|---|", *rows, ""])
    print(text)
    update_results(SECTION, text, REPO / "benchmarks" / "RESULTS.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
