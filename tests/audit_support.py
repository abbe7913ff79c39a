"""Small tournaments for the audit tests, recorded through the library's commands.

``build_club_open(path)``: a 12-player, 4-round McMahon (bar 3d, floor 15k) paired by the
circle method, results drawn from a seeded generator weighted by rank. Round 2 table 3 is
recorded wrong and corrected; p0001 withdraws from round 3 (his scheduled opponent takes
the bye); p0007 announces an absence in round 4 (his opponent takes that bye instead).
Returns the sequence numbers of the notable events.

``opponent_sum`` registers (for in-process tests only) a test criterion ``TEST-OPPMMS``:
the sum of the opponents' McMahon scores at round R over the rounds actually paired — a
criterion that depends on other players' later results, like SOS, built only from the public
``ScoringContext`` attributes.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from goledger import commands
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.ledger.values import Rank

RANKS = ["5d", "4d", "3d", "2d", "1d", "1k", "2k", "4k", "6k", "8k", "10k", "14k"]
NAMES = [("Abe", "Jo"), ("Berg", "Anna"), ("Chen", "Li"), ("Dias", "Rui"), ("Eko", "Sam"), ("Faro", "Ines"),
         ("Gál", "Ádám"), ("Holm", "Per"), ("Ito", "Mai"), ("Jung", "Min"), ("Kerr", "Ian"), ("Lund", "Eva")]


def circle_pairs(players: list[str], round_: int) -> list[tuple[str, str]]:
    """Round-robin pairs of round ``round_`` (1-based) by the circle method (even count)."""
    fixed, rest = players[0], players[1:]
    shift = (round_ - 1) % len(rest)
    ring = rest[shift:] + rest[:shift]
    pairs = [(fixed, ring[0])]
    for i in range(1, len(ring) // 2 + 1):
        pairs.append((ring[i], ring[-i]))
    return pairs


def build_club_open(path: Path, seed: int = 7) -> dict[str, int]:
    rng = random.Random(seed)
    notable: dict[str, int] = {}
    commands.new(path, "Club Open", 4, "mcmahon", bar="3d", floor="15k", actor="test")
    for (surname, first), rank in zip(NAMES, RANKS, strict=True):
        commands.register(path, surname, first, rank, actor="test")
    ids = [f"p{i:04d}" for i in range(1, 13)]
    rank = {pid: Rank.parse(r) for pid, r in zip(ids, RANKS, strict=True)}
    withdrawn_from = 3
    absent = ("p0007", 4)
    for round_ in range(1, 5):
        if round_ == withdrawn_from:
            notable["withdrawal"] = commands.withdraw(path, "p0001", round_, "called away", actor="test").seqs[0]
        if round_ == absent[1]:
            notable["absence"] = commands.absent(path, absent[0], round_, actor="test").seqs[0]
        table = 0
        for a, b in circle_pairs(ids, round_):
            out = [p for p in (a, b) if (p == "p0001" and round_ >= withdrawn_from) or (p, round_) == absent]
            if out:
                stays = b if a in out else a
                if stays not in out:
                    commands.bye(path, stays, round_, force=True, actor="test")
                continue
            white, black = (a, b) if rank[a] >= rank[b] else (b, a)
            table += 1
            commands.pair(path, round_, white, black, table, actor="test")
            gap = rank[white].value - rank[black].value
            outcome = "white" if rng.random() < 0.5 + max(-0.35, min(0.35, 0.07 * gap)) else "black"
            if round_ == 2 and table == 3:
                wrong = "black" if outcome == "white" else "white"
                commands.result(path, round_, table, wrong, actor="desk")
                notable["correction"] = commands.correct(path, round_, table, outcome, "slip swapped",
                                                         actor="director").seqs[0]
                continue
            commands.result(path, round_, table, outcome, actor="desk")
    with Ledger.open(path) as ledger:
        notable["head"] = ledger.head().seq
    return notable


@contextmanager
def scratch_dir(fallback: Path) -> Iterator[Path]:
    """A folder for ledgers built command by command: on tmpfs (``/dev/shm``) when there is
    one, because every command fsyncs and a busy disk makes a 250-command build take seconds;
    else ``fallback``. Removed afterwards."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        folder = Path(tempfile.mkdtemp(prefix="goledger-audit-", dir=shm))
        try:
            yield folder
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    else:
        yield fallback


def ledger_events(path: Path) -> list[ev.Event]:
    """Every event of the ledger at ``path``, in order."""
    with Ledger.open(path) as ledger:
        return ledger.events()


def file_digest(path: Path) -> str:
    """SHA-256 of a ledger file and of its WAL/SHM companions (when present)."""
    h = hashlib.sha256()
    for part in (path, Path(f"{path}-wal")):
        if part.exists():
            h.update(part.name.encode())
            h.update(part.read_bytes())
    return h.hexdigest()


TEST_CRITERION = "TEST-OPPMMS"


@contextmanager
def opponent_sum() -> Iterator[str]:
    """Register ``TEST-OPPMMS`` for the duration of a test."""
    from goledger.replay.scoring import criteria as registry
    from goledger.replay.scoring.criteria import Criterion, get_criterion, register
    from goledger.replay.scoring.scoring import ScoringContext

    def compute(ctx: ScoringContext) -> dict[str, int]:
        return {
            pid: sum(ctx.mms2[e.opponent][ctx.round] for e in entries if e.opponent is not None)
            for pid, entries in ctx.entries.items()
        }

    get_criterion("MMS")  # load the built-in criteria first
    register(Criterion(TEST_CRITERION, 2, compute, None, "test only: sum of opponents' MMS"))
    try:
        yield TEST_CRITERION
    finally:
        registry.CRITERIA.pop(TEST_CRITERION, None)
        registry._LOOKUP.pop(TEST_CRITERION.upper(), None)
