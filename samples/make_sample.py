"""Write ``samples/sample.db``: a 20-player, 5-round McMahon recorded through the library.

It holds what a real weekend tournament holds: an announced absence (round 2), byes for odd
rounds, a forfeit (round 3), a jigo (round 3), handicap games, a withdrawal after round 3, and
a corrected result (round 4). Pairings are a simple McMahon pairing (adjacent scores, no
repeats); results are drawn from a seeded random generator weighted by rank, so the file is
the same every time except for its recording timestamps.

Run: ``python samples/make_sample.py [PATH]`` (default ``samples/sample.db``, replaced).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from goledger import commands
from goledger.ledger.store import Ledger
from goledger.ledger.values import Rank
from goledger.replay.loading.load import load_state
from goledger.replay.scoring.scoring import ScoringContext
from goledger.replay.scoring.standings import resolve_policy

PLAYERS = [
    ("Kowalski", "Marek", "PL", "Wars", "5d"), ("Lindqvist", "Sofia", "SE", "Sthm", "4d"),
    ("Moreau", "Julien", "FR", "Lyon", "3d"), ("Yilmaz", "Elif", "TR", "Ist", "3d"),
    ("Novak", "Petr", "CZ", "Brno", "2d"), ("Schneider", "Lena", "DE", "Berl", "1d"),
    ("Rossi", "Marco", "IT", "Mila", "1k"), ("Ivanova", "Daria", "UA", "Kyiv", "2k"),
    ("García", "Pablo", "ES", "Madr", "3k"), ("Nagy", "Bence", "HU", "Bp", "4k"),
    ("Jansen", "Eva", "NL", "Amst", "5k"), ("O'Brien", "Sean", "IE", "Dubl", "6k"),
    ("Horvat", "Ana", "HR", "Zagr", "7k"), ("Popescu", "Ion", "RO", "Buc", "8k"),
    ("Müller", "Jonas", "DE", "Hamb", "9k"), ("Dubois", "Claire", "FR", "Pari", "10k"),
    ("Kask", "Mihkel", "EE", "Tall", "12k"), ("Berzins", "Janis", "LV", "Riga", "13k"),
    ("Silva", "Rita", "PT", "Lisb", "15k"), ("Andersen", "Mads", "DK", "Kbh", "18k"),
]
ROUNDS = 5
ABSENT = ("p0012", 2)  # O'Brien announced he misses round 2
WITHDRAWN = ("p0004", 4)  # Yilmaz leaves after round 3


def mms_now(path: Path, round_: int) -> dict[str, int]:
    with Ledger.open(path) as ledger:
        state = load_state(ledger)
    ctx = ScoringContext(state, round_, resolve_policy(state, None))
    return {pid: row[round_] for pid, row in ctx.mms2.items()}


def played_before(path: Path) -> set[frozenset[str]]:
    with Ledger.open(path) as ledger:
        state = load_state(ledger)
    return {frozenset((g.white, g.black)) for g in state.all_games()}


def pair_round(path: Path, round_: int, present: list[str], ranks: dict[str, Rank]) -> list[tuple[str, str]]:
    """McMahon-style: order by score then rank, bye to the last player, pair neighbours
    without repeats; the stronger player takes White, handicap below the bar group."""
    score = mms_now(path, round_ - 1)
    order = sorted(present, key=lambda p: (-score[p], -ranks[p].value, p))
    if len(order) % 2:
        commands.bye(path, order.pop(), round_, force=True, actor="sample")
    seen = played_before(path)
    pairs: list[tuple[str, str]] = []
    while order:
        first = order.pop(0)
        partner = next((p for p in order if frozenset((first, p)) not in seen), order[0])
        order.remove(partner)
        pairs.append((first, partner))
    return pairs


def main(path: Path) -> None:
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)
    rng = random.Random(2026)
    commands.new(path, "goledger Sample Open", ROUNDS, "mcmahon", bar="3d", floor="15k", short_name="sample",
                 location="Ghent", begin_date="2026-05-30", end_date="2026-05-31", time="canadian", main_time=60,
                 byo_yomi=300, stones=15, actor="sample")
    for surname, first, country, club, rank in PLAYERS:
        commands.register(path, surname, first, rank, country=country, club=club, actor="sample")
    ids = [f"p{i:04d}" for i in range(1, len(PLAYERS) + 1)]
    ranks = {pid: Rank.parse(p[4]) for pid, p in zip(ids, PLAYERS, strict=True)}
    commands.absent(path, ABSENT[0], ABSENT[1], actor="sample", reason="announced at registration")
    for round_ in range(1, ROUNDS + 1):
        if round_ == WITHDRAWN[1]:
            commands.withdraw(path, WITHDRAWN[0], round_, "family emergency", actor="sample")
        present = [pid for pid in ids
                   if not (pid == ABSENT[0] and round_ == ABSENT[1])
                   and not (pid == WITHDRAWN[0] and round_ >= WITHDRAWN[1])]
        pairs = pair_round(path, round_, present, ranks)
        for table, (a, b) in enumerate(pairs, start=1):
            white, black = (a, b) if ranks[a] >= ranks[b] else (b, a)
            gap = ranks[white].value - ranks[black].value
            handicap = min(gap, 9) if gap >= 2 and ranks[white] < Rank.parse("1d") else 0
            commands.pair(path, round_, white, black, table, handicap, force=True, actor="sample")
            if round_ == 3 and table == 2:
                commands.result(path, round_, table, "jigo", actor="sample")
                continue
            if round_ == 3 and table == 6:
                commands.result(path, round_, table, "white", by_default=True, actor="sample",
                                reason="black did not show up")
                continue
            edge = (gap - handicap) * 0.08 if handicap else gap * 0.12
            outcome = "white" if rng.random() < 0.5 + max(-0.4, min(0.4, edge)) else "black"
            if round_ == 4 and table == 2:
                wrong = "black" if outcome == "white" else "white"
                commands.result(path, round_, table, wrong, actor="desk-2")
                commands.correct(path, round_, table, outcome, "players reported the result swapped",
                                 actor="director")
                continue
            commands.result(path, round_, table, outcome, actor="desk-1")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("sample.db"))
