"""Benchmark the alphabet inside shared places (issue 44, item 6): what listing each shared
place in the page's alphabet (:meth:`goledger.replay.scoring.standings.Standings.in_alphabet`)
adds to a standings page of EGC 2011 (760 players), after round 1 (many ties) and after the
last round, in Turkish, Hungarian and English.

Printed: the standings' computation and ``in_alphabet`` in milliseconds, median (min–max) of
``--runs`` with the collator loaded, and once cold (a new process's first page: pyuca reads its
DUCET table and the language's tailoring is built).
Run: ``python benchmarks/bench_ties.py [--runs 5]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_live import EGC


def _ms(samples: list[float]) -> str:
    return f"{statistics.median(samples):.1f} ({min(samples):.1f}–{max(samples):.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not EGC.exists():
        sys.exit(f"{EGC} is not here (../shared/realdata)")
    from goledger.formats.opengotha import import_opengotha
    from goledger.replay.scoring.standings import standings
    from goledger.replay.views import state_as_of

    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "egc.db"
        import_opengotha(EGC, db)
        state = state_as_of(db)
    last = max(r for r in state.games if state.games[r])
    print("| round | players sharing a place | standings ms | language | in_alphabet ms | cold ms |")
    print("|---|---|---|---|---|---|")
    for round_ in (1, last):
        computed: list[float] = []
        for _ in range(args.runs):
            start = time.perf_counter()
            table = standings(state, round_)
            computed.append((time.perf_counter() - start) * 1000)
        places = [r.place for r in table.rows]
        shared = sum(1 for p in places if places.count(p) > 1)
        for language in ("tr", "hu", "en"):
            from goledger.i18n import collation

            collation._table.cache_clear()
            collation._collator.cache_clear()
            collation._key.cache_clear()
            start = time.perf_counter()
            table.in_alphabet(language)
            cold = (time.perf_counter() - start) * 1000
            sorted_ms: list[float] = []
            for _ in range(args.runs):
                start = time.perf_counter()
                shown = table.in_alphabet(language)
                sorted_ms.append((time.perf_counter() - start) * 1000)
                assert [r.place for r in shown.rows] == places
            print(f"| {round_} | {shared} | {_ms(computed)} | {language} | {_ms(sorted_ms)} | {cold:.0f} |")


if __name__ == "__main__":
    main()
