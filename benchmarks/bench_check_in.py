"""Benchmark the players' keys and check-in (issue 46, items 1–2) on EGC 2011's 760 players:
the welcome sheet of every player (``goledger keys sheet``, keys issued on the way; then
reprinted, the QR codes kept beside the keys), a
player's page by his key (``GET /k/KEY``, every player in turn) and his check-in (``POST
/k/KEY/check-in``, one phone at a time, each through its own session), then "mark the others
absent" for everyone who did not (``goledger absent-unchecked``), over a real ``goledger serve``.

The tournament is EGC 2011's registration alone (its players registered from a CSV file,
nothing paired), so round 1 is the one to check in for. Printed: seconds for the sheet, p50,
p95 and max in milliseconds for the page and the check-in, seconds for the absences. Run:
``python benchmarks/bench_check_in.py [--check-ins 200] [--file EGC.xml]``.
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx

from benchmarks.bench_live import EGC, percentile, serving

REPO = Path(__file__).resolve().parents[1]


def registration(db: Path, source: Path) -> int:
    """A new tournament holding ``source``'s players (from a CSV file, one transaction)."""
    from goledger import commands
    from goledger.commands.bulk import register_from_file
    from goledger.formats.opengotha import import_opengotha
    from goledger.replay.views import state_as_of

    full = db.with_name("egc-full.db")
    import_opengotha(source, full)
    players = list(state_as_of(full).players.values())
    table = db.with_name("players.csv")
    with table.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["surname", "first_name", "rank", "country", "club"])
        for p in players:
            writer.writerow([p.surname, p.first_name, p.rank, p.country, p.club])
    commands.new(db, "EGC 2011 check-in", 10)
    commands.change_rules(db, {"check_in": "every"})
    register_from_file(db, table, force=True)
    return len(players)


def goledger(*args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "goledger", *args], capture_output=True, env=env, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check-ins", type=int, default=200)
    parser.add_argument("--file", type=Path, default=EGC)
    args = parser.parse_args(argv)
    if not args.file.is_file():
        print(f"skipped: {args.file} is not present")
        return 0
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "egc.db"
        count = registration(db, args.file)
        with serving(db) as url:
            start = time.perf_counter()
            sheet = goledger("keys", "sheet", "--url", url, "--db", str(db)).stdout.decode()
            sheet_seconds = time.perf_counter() - start
            links = re.findall(r'<p class="link">([^<]+)</p>', sheet)
            assert len(links) == count, (len(links), count)
            start = time.perf_counter()
            again = goledger("keys", "sheet", "--url", url, "--db", str(db)).stdout.decode()
            reprint_seconds = time.perf_counter() - start
            assert again == sheet, "a reprint is the same sheet"
            pages: list[float] = []
            posts: list[float] = []
            for n, link in enumerate(links):
                with httpx.Client(timeout=30) as phone:
                    start = time.perf_counter()
                    page = phone.get(link)
                    pages.append(time.perf_counter() - start)
                    assert page.status_code == 200
                    if n < args.check_ins:
                        csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
                        assert csrf is not None
                        start = time.perf_counter()
                        done = phone.post(link + "/check-in", data={"csrf": csrf.group(1), "round": "1",
                                                                     "answer": "play"})
                        posts.append(time.perf_counter() - start)
                        assert done.status_code == 200, done.text[:300]
        start = time.perf_counter()
        goledger("absent-unchecked", "--round", "1", "--db", str(db))
        absent_seconds = time.perf_counter() - start
        status = goledger("check-ins", "--round", "1", "--json", "--db", str(db)).stdout.decode()
    print(f"{platform.node()} · {os.cpu_count()} cores · load {os.getloadavg()[0]:.1f}")
    print(f"players: {count}; welcome sheet (keys issued, QR codes drawn): {sheet_seconds:.2f} s, "
          f"{len(sheet) // 1024} KB; reprinted (codes kept): {reprint_seconds:.2f} s")
    for label, samples in (("GET /k/KEY", pages), ("POST /k/KEY/check-in", posts)):
        ms = [1000 * s for s in samples]
        print(f"{label}: n={len(ms)} p50 {percentile(ms, 50):.1f} ms · p95 {percentile(ms, 95):.1f} ms · "
              f"max {max(ms):.1f} ms")
    print(f"absent-unchecked ({count - len(posts)} absences, one transaction, the whole command): "
          f"{absent_seconds:.2f} s")
    print(status.replace("\n", " ")[:160])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
