"""Standings cached in the ledger file, per round, policy and criteria (DESIGN §4: projections
are caches at most; performance issue 9, item 3).

Printing the standings of a 1,500-player congress costs a snapshot decode and the scoring
of every player (about 50 ms in process); printing them again while no event was appended
should cost neither. So ``goledger standings`` (the head, no ``--as-of``) keeps its result
in the ledger's ``projection_cache`` table under the name ``standings:[round, policy,
criteria]`` (the arguments as given), keyed by

* the sequence number and hash of the head event it was computed at, and
* a fingerprint of the code that computes standings (every module of
  ``goledger.replay`` and the event and value definitions).

Only fields of :data:`MIN_PLAYERS` players or more are stored. An entry is **never
trusted**: it is used only when the ledger's head is still that event with that hash and the
code is the same; anything that fails to decode is recomputed; ``goledger verify``
recomputes every entry and drops the cache when one differs; the test suite compares cached
and fresh standings after random event sequences. Recording an event makes every entry
stale: the next one written drops them.

Measured on a 1,500 × 12 congress (``benchmarks/RESULTS.md``): a repeated ``goledger
standings`` saves the snapshot decode and the scoring; the first one after a result pays one
small write.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Final

import msgspec

from goledger.ledger.store import Ledger
from goledger.replay.standings import Standings

__all__ = ["MIN_PLAYERS", "PREFIX", "cached_standings", "check_cached_standings", "code_fingerprint", "entry_name"]

PREFIX: Final = "standings:"
MIN_PLAYERS = 200
"""Standings of smaller fields are not stored: they cost a few milliseconds to compute, less
than writing them, and a read command then leaves a small ledger file untouched."""
_DECODER: Final = msgspec.msgpack.Decoder(Standings)
_ENCODER: Final = msgspec.msgpack.Encoder()
_ARGS: Final = msgspec.json.Encoder()


@cache
def code_fingerprint() -> str:
    """A digest of every source file standings depend on: an entry from other code is ignored."""
    import goledger.ledger.events
    import goledger.ledger.values
    import goledger.replay

    package = Path(goledger.__file__).parent
    files = sorted(Path(goledger.replay.__file__).parent.rglob("*.py"))
    files += [Path(goledger.ledger.events.__file__), Path(goledger.ledger.values.__file__)]
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def entry_name(round_: int | None, policy: str | None, criteria: Sequence[str] | None) -> str:
    """The cache name of a standings request (its arguments, as given)."""
    return PREFIX + _ARGS.encode([round_, policy, list(criteria) if criteria is not None else None]).decode()


def _key(head_hash: str) -> str:
    return f"{code_fingerprint()}:{head_hash}"


def cached_standings(
    ledger: Ledger, round_: int | None, policy: str | None, criteria: Sequence[str] | None
) -> Standings:
    """The standings at the ledger's head, from the cache when an entry for these arguments
    was stored at this very head by this very code; else computed and stored."""
    from goledger.replay.load import load_state
    from goledger.replay.standings import standings

    name = entry_name(round_, policy, criteria)
    head = ledger.head()
    found = ledger.cache_get(name)
    if found is not None and found[0] == head.seq and found[1] == _key(head.hash):
        try:
            cached = _DECODER.decode(found[2])
        except (msgspec.DecodeError, msgspec.ValidationError):
            cached = None
        if cached is not None and cached.as_of_seq == head.seq:
            return cached
    state = load_state(ledger)
    result = standings(state, round_, policy, criteria)
    head_hash = ledger.hash_at(state.seq)
    if head_hash is not None and len(state.players) >= MIN_PLAYERS:
        ledger.cache_put(name, state.seq, _key(head_hash), _ENCODER.encode(result), stale_prefix=PREFIX)
    return result


def check_cached_standings(ledger: Ledger) -> str:
    """Recompute every cached standings entry that could be used at the head; drop the whole
    cache when one differs. Returns ``""`` or a sentence for ``verify``."""
    from goledger.replay.load import load_state
    from goledger.replay.standings import standings

    head = ledger.head()
    state = None
    for name in ledger.cache_names(PREFIX):
        found = ledger.cache_get(name)
        if found is None or found[0] != head.seq or found[1] != _key(head.hash):
            continue  # never used: stale or from other code
        round_, policy, criteria = msgspec.json.decode(name[len(PREFIX):])
        if state is None:
            state = load_state(ledger)
        fresh = _ENCODER.encode(standings(state, round_, policy, criteria))
        if fresh != found[2]:
            ledger.cache_clear()
            return f"the cached standings {name[len(PREFIX):]} differed from a fresh computation and were dropped"
    return ""
