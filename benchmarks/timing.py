"""Timing helpers shared by the benchmark scripts: wall and CPU time of in-process calls and of
whole ``goledger`` processes (with their peak memory), and the machine they ran on.

CPU time is reported beside wall time because the benchmark machine may be shared: when
other work competes for the cores, wall time grows and CPU time hardly moves.
"""

from __future__ import annotations

import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass
class Samples:
    """Wall seconds, CPU seconds and (for processes) peak resident memory of each run."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    rss_mb: list[float] = field(default_factory=list)

    def add(self, other: Samples) -> None:
        self.wall += other.wall
        self.cpu += other.cpu
        self.rss_mb += other.rss_mb

    @property
    def median(self) -> float:
        return statistics.median(self.wall)

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu)


def cpu_seconds() -> float:
    """CPU time of this process and of the children it has waited for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(fn: Callable[[], object], runs: int, warmup: int = 1, setup: Callable[[], object] | None = None) -> Samples:
    """Run ``fn`` ``warmup`` times untimed, then ``runs`` times timed (``setup`` before each
    run, untimed)."""
    for _ in range(warmup):
        if setup is not None:
            setup()
        fn()
    out = Samples()
    for _ in range(runs):
        if setup is not None:
            setup()
        c = cpu_seconds()
        t = time.perf_counter()
        fn()
        out.wall.append(time.perf_counter() - t)
        out.cpu.append(cpu_seconds() - c)
    return out


def cli_env() -> dict[str, str]:
    """The environment of a measured ``goledger`` process: this checkout on the path, byte
    code caching allowed (an installed goledger has its ``.pyc`` files)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("GOLEDGER_DB", None)
    return env


def compile_bytecode() -> None:
    """Write the ``.pyc`` files of goledger once, so no measured process compiles source."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "goledger")], check=True,
                   env=cli_env(), stdout=subprocess.DEVNULL)


def git(*args: str) -> str:
    """What ``git -C REPO ARGS`` prints (stripped); a failure raises."""
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True, check=True).stdout.strip()


def checkout(commit: str, path: Path) -> str:
    """Check ``commit`` out, detached, into a new git worktree at ``path``, its modules'
    bytecode written (a measured process then compiles no source); returns its full hash."""
    full = git("rev-parse", "--verify", f"{commit}^{{commit}}")
    git("worktree", "add", "--detach", str(path), full)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(path / "goledger")], check=True,
                   stdout=subprocess.DEVNULL)
    return full


def remove_checkouts(paths: Iterable[Path]) -> None:
    """Remove the worktrees :func:`checkout` made (what cannot be removed is left, and pruned
    from git's list once its folder is gone)."""
    for path in paths:
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(path)], capture_output=True)
    subprocess.run(["git", "-C", str(REPO), "worktree", "prune"], capture_output=True)


LAUNCHER = """
import json, os, subprocess, sys, time
started = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
err = child.stderr.read()
_, status, usage = os.wait4(child.pid, 0)
wall = time.perf_counter() - started
print(json.dumps({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_kb": usage.ru_maxrss,
                  "code": os.waitstatus_to_exitcode(status), "err": err.decode(errors="replace")}))
"""
"""Starts the measured process from a small Python process: a child forked from the (large)
benchmark process would report the parent's memory as its peak RSS, as Linux counts the
pages a process held before ``exec``."""


def run_goledger(args: Sequence[str | os.PathLike[str]], *, check: bool = True) -> Samples:
    """One whole ``python -m goledger ARGS`` process: wall and CPU time and peak RSS."""
    out = subprocess.run([sys.executable, "-c", LAUNCHER, sys.executable, "-m", "goledger", *map(str, args)],
                         env=cli_env(), capture_output=True, text=True, check=True)
    report = json.loads(out.stdout)
    if check and report["code"] != 0:
        raise RuntimeError(f"goledger {' '.join(map(str, args))} failed: {report['err']}")
    return Samples([report["wall"]], [report["cpu"]], [report["rss_kb"] / 1024])


def process_runs(args_for_run: Callable[[int], Sequence[str | os.PathLike[str]]], runs: int, warmup: int = 1,
                 setup: Callable[[int], object] | None = None) -> Samples:
    """Whole-process samples; ``args_for_run(i)`` and ``setup(i)`` may vary per run."""
    out = Samples()
    for i in range(warmup + runs):
        if setup is not None:
            setup(i)
        sample = run_goledger(args_for_run(i))
        if i >= warmup:
            out.add(sample)
    return out


def machine() -> str:
    """CPU model, core count, Python version and the load averages right now."""
    model = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"SQLite {__import__('sqlite3').sqlite_version}; load average {load}")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f}" if seconds >= 0.1 else f"{seconds * 1000:.1f}"


def update_results(section: str, text: str, path: Path) -> None:
    """Replace the part of ``RESULTS.md`` that starts at the heading ``section`` with ``text``
    (everything up to the next ``## `` heading), or append ``text`` when the heading is new."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    pattern = re.compile(re.escape(section) + r".*?(?=\n## |\Z)", re.S)
    new = pattern.sub(lambda _: text.rstrip() + "\n", old) if pattern.search(old) else old.rstrip() + "\n\n" + text
    path.write_text(new, encoding="utf-8")
