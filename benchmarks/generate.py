"""Generate realistic tournaments of any size, from a seed, as goledger events.

A congress-like McMahon: bar 4d and floor 20k, a rank spread like the European Go Congress
(about 15 % dan players, most between 1k and 15k, a tail to 25k), about 5 % announced
absences (one round each), a withdrawal or two, a bye whenever the count is odd (never twice
to one player while others have none), about 1 % forfeits, a few jigo, handicap games
between distant ranks in the lower groups, and a few corrections recorded after the round
(a wrong winner entered, or a forfeit flag set or cleared). Pairings are a plain McMahon
pairing (neighbours in score order, no repeats), good enough to give realistic score groups,
large ties on the main score and realistic tie-breaks.

Library: ``generate_events(players, rounds, seed) -> list[Event]``; ``write_ledger(events,
path)``; ``write_opengotha(ledger, path)``.

Command line::

    python benchmarks/generate.py --players 1500 --rounds 12 --seed 1 --db out.db [--xml out.xml]

``--xml`` also writes the tournament as an OpenGotha XML save through goledger's exporter
(``goledger.formats.opengotha.export_opengotha``) and prints the exporter's report (an
OpenGotha file keeps the final results, not the corrections' history).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.ledger.values import Rank, Result

_SURNAMES = ["Kowalski", "Müller", "Dubois", "Rossi", "Novák", "Yılmaz", "García", "Nagy", "Jansen", "Ivanova",
             "O'Brien", "Lindqvist", "Horvat", "Popescu", "Kask", "Bērziņš", "Silva", "Andersen", "Sato", "Kim",
             "Chen", "Petrov", "Schmidt", "Moreau", "Smit", "Kovač", "Şahin", "Łukasz", "Ødegaard", "Virtanen"]
_FIRST = ["Anna", "Marek", "Léa", "Jonas", "Elif", "Pablo", "Bence", "Eva", "Sean", "Sofia", "Ana", "Ion",
          "Mihkel", "Jānis", "Rita", "Mads", "Ken", "Min", "Li", "Oleg", "Claire", "İlker", "Zoë", "Jiří"]


def _rank_for(rng: random.Random) -> Rank:
    """A congress-like spread: ~15 % dan, most players 1k-15k, a tail down to 25k."""
    x = rng.random()
    if x < 0.15:
        return Rank("d", min(7, 1 + int(rng.expovariate(0.6))))
    if x < 0.85:
        return Rank("k", 1 + int(rng.random() ** 1.3 * 15))
    return Rank("k", min(25, 16 + int(rng.expovariate(0.3))))


def generate_events(players: int, rounds: int, seed: int = 1) -> list[ev.Event]:
    """All events of a finished tournament of ``players`` × ``rounds``, deterministic per seed."""
    rng = random.Random(seed)
    bar, floor = Rank.parse("4d"), Rank.parse("20k")
    out: list[ev.Event] = [
        ev.TournamentCreated(settings=ev.TournamentSettings(
            name=f"Generated Congress {players}x{rounds} (seed {seed})", short_name=f"gen{players}x{rounds}",
            location="Benchmark City", begin_date="2026-07-25", end_date="2026-08-08", rounds=rounds,
            system="mcmahon", mm_bar=str(bar), mm_floor=str(floor), criteria=("MMS", "SOSM", "SOSOSM"),
        ))
    ]
    ids = [f"p{i:04d}" for i in range(1, players + 1)]
    rank: dict[str, Rank] = {}
    names: set[tuple[str, str]] = set()
    for number, pid in enumerate(ids, start=1):
        r = _rank_for(rng)
        rank[pid] = r
        surname, first = rng.choice(_SURNAMES), rng.choice(_FIRST)
        while (surname, first) in names:
            surname = f"{surname}{rng.choice('abcdefghij')}"
        names.add((surname, first))
        out.append(ev.PlayerRegistered(
            player_id=pid, surname=surname, first_name=first, rank=str(r),
            rating=(r.value + 30) * 100 - 900 + rng.randint(-40, 40),
            country=rng.choice(["FR", "DE", "PL", "CZ", "NL"]),
            club=rng.choice(["Par", "Ber", "War", "Bno", "Ams"]), egd_pin=str(10000000 + number * 7),
            start_number=number,
        ))
    start = {pid: max(floor.value, min(bar.value, rank[pid].value)) + 30 for pid in ids}
    score2 = {pid: 2 * start[pid] for pid in ids}
    absent: dict[int, set[str]] = {r: set() for r in range(1, rounds + 1)}
    for pid in rng.sample(ids, max(1, players * 5 // 100)):
        r = rng.randint(1, rounds)
        absent[r].add(pid)
        out.append(ev.ParticipationChanged(player_id=pid, round=r, participating=False))
    withdrawn: dict[str, int] = {}
    for pid in rng.sample(ids, min(2, players)):
        r = rng.randint(2, max(2, rounds))
        if r <= rounds and all(pid not in absent[x] for x in range(r, rounds + 1)):
            withdrawn[pid] = r
    played: set[frozenset[str]] = set()
    had_bye: set[str] = set()
    for r in range(1, rounds + 1):
        for pid, wr in withdrawn.items():
            if wr == r:
                out.append(ev.PlayerWithdrew(player_id=pid, from_round=r, reason="left the congress"))
        present = [p for p in ids if p not in absent[r] and withdrawn.get(p, rounds + 1) > r]
        order = sorted(present, key=lambda p: (-score2[p], -rank[p].value, p))
        if len(order) % 2:
            bye = next((p for p in reversed(order) if p not in had_bye), order[-1])
            order.remove(bye)
            had_bye.add(bye)
            score2[bye] += 2
            out.append(ev.ByeAssigned(round=r, player_id=bye))
        for pid in absent[r]:
            score2[pid] += 1
        table = 0
        games: list[tuple[int, str, str, Result, bool]] = []
        while order:
            a = order.pop(0)
            b = next((p for p in order[:40] if frozenset((a, p)) not in played), order[0])
            order.remove(b)
            played.add(frozenset((a, b)))
            white, black = (a, b) if rank[a] >= rank[b] else (b, a)
            gap = rank[white].value - rank[black].value
            handicap = min(9, gap - 1) if gap >= 2 and rank[white] < bar and rank[black].value < -5 else 0
            table += 1
            out.append(ev.GamePaired(round=r, table=table, white=white, black=black, handicap=handicap))
            x = rng.random()
            if x < 0.003:
                result, by_default = Result.JIGO, False
            else:
                p_white = 0.5 + max(-0.4, min(0.4, 0.1 * (gap - handicap)))
                result = Result.WHITE if rng.random() < p_white else Result.BLACK
                by_default = x > 0.99
            w2, b2 = result.points2()
            score2[white] += w2
            score2[black] += b2
            out.append(ev.ResultRecorded(round=r, table=table, result=result, by_default=by_default))
            games.append((table, white, black, result, by_default))
        # A few corrections once the round is in: a wrong winner entered, or a forfeit flag.
        for table, white, black, result, by_default in games:
            if rng.random() >= 0.003:
                continue
            if result in (Result.WHITE, Result.BLACK) and rng.random() < 0.5:
                fixed, flag, why = result.flipped(), by_default, "wrong winner entered at the results desk"
            else:
                fixed, flag, why = result, not by_default, "forfeit status corrected by the referee"
            old_w, old_b = result.points2()
            new_w, new_b = fixed.points2()
            score2[white] += new_w - old_w
            score2[black] += new_b - old_b
            out.append(ev.ResultCorrected(round=r, table=table, result=fixed, by_default=flag, reason=why))
    return out


def write_ledger(events: list[ev.Event], path: Path, batch: int = 5000) -> None:
    """Write events to a new ledger in batches (one transaction each)."""
    with Ledger.create(path) as ledger:
        for i in range(0, len(events), batch):
            ledger.append(events[i : i + batch], actor="generator")


def write_opengotha(ledger: Path, path: Path) -> str:
    """Export a ledger as an OpenGotha XML save; returns the exporter's report, rendered."""
    from goledger.formats.opengotha import export_opengotha

    outcome = export_opengotha(ledger, path)
    return outcome.report.render(limit=10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", type=Path, required=True, help="the ledger to create (must not exist)")
    parser.add_argument("--xml", type=Path, help="also write the tournament as an OpenGotha XML save")
    args = parser.parse_args(argv)
    events = generate_events(args.players, args.rounds, args.seed)
    write_ledger(events, args.db)
    print(f"{args.db}: {len(events)} events ({args.players} players × {args.rounds} rounds, seed {args.seed})")
    if args.xml:
        report = write_opengotha(args.db, args.xml)
        print(f"{args.xml}: OpenGotha XML")
        print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
