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

Only fields of :data:`MIN_PLAYERS` players or more are stored, with the SHA-256 digest of
their bytes beside the head they claim. An entry is **never trusted**: it is used only when
the ledger's head is still that event with that hash, the code is the same and the bytes
match their digest; anything that fails to decode is recomputed; ``goledger verify``
recomputes every entry from a fresh fold of the log and fails, naming the entry as
tampering, when one differs (keeping it for inspection); ``publish`` never reads it; the test suite compares cached
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


def _stored_key(head_hash: str, data: bytes) -> str:
    """What an entry is stored under: the code, the head it claims and the digest of its bytes."""
    return f"{_key(head_hash)}:{hashlib.sha256(data).hexdigest()}"


def _claims_head(found: tuple[int, str, bytes], seq: int, head_hash: str) -> bool:
    return found[0] == seq and found[1].rsplit(":", 1)[0] == _key(head_hash)


def _intact(found: tuple[int, str, bytes]) -> bool:
    return found[1].rsplit(":", 1)[-1] == hashlib.sha256(found[2]).hexdigest()


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
    if found is not None and _claims_head(found, head.seq, head.hash) and _intact(found):
        try:
            cached = _DECODER.decode(found[2])
        except (msgspec.DecodeError, msgspec.ValidationError):
            cached = None
        if cached is not None and cached.as_of_seq == head.seq:
            return cached
    state = load_state(ledger)
    result = standings(state, round_, policy, criteria)
    head_hash = ledger.hash_at(state.seq)
    tampered = found is not None and _claims_head(found, head.seq, head.hash) and not _intact(found)
    if head_hash is not None and len(state.players) >= MIN_PLAYERS and not tampered:  # evidence stays
        data = _ENCODER.encode(result)
        ledger.cache_put(name, state.seq, _stored_key(head_hash, data), data, stale_prefix=PREFIX)
    return result


def check_cached_standings(ledger: Ledger) -> str:
    """Recompute, from a fresh fold of the log, every cached standings entry that claims the
    head; returns ``""`` or the sentence of a **failed** ``verify`` naming the first entry
    that differs from its digest or from the recomputation (tampering). Entries are kept for
    inspection; a reader never uses one whose bytes differ from their digest."""
    from goledger.replay.load import fresh_state
    from goledger.replay.standings import standings

    head = ledger.head()
    state = None
    for name in ledger.cache_names(PREFIX):
        found = ledger.cache_get(name)
        if found is None or not _claims_head(found, head.seq, head.hash):
            continue  # never used: stale or from other code
        shown = name[len(PREFIX):]
        if not _intact(found):
            return f"the cached standings {shown} do not match their stored digest: the cache was tampered with " \
                   "(kept for inspection in the projection_cache table; goledger never uses them)"
        round_, policy, criteria = msgspec.json.decode(shown)
        if state is None:
            state = fresh_state(ledger)
        fresh = _ENCODER.encode(standings(state, round_, policy, criteria))
        if fresh != found[2]:
            return f"the cached standings {shown} differ from a fresh computation from the log: the cache was " \
                   "tampered with (kept for inspection in the projection_cache table)"
    return ""
