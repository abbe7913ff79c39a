"""Snapshots of the folded state, cached in the ledger file (DESIGN §4: "projections are
caches at most").

Folding a 1,500 × 12 congress means decoding and applying ~20,000 events; a command that
records one result should not redo that every time. A snapshot is the msgpack encoding of
the :class:`~goledger.replay.state.TournamentState` after event ``seq``, stored with the hash
of that event and a fingerprint of the fold code. It is **never trusted**:

* it is used only if event ``seq`` still carries the stored hash (so a rewritten log, or a
  different log, cannot reuse it) and the fingerprint matches this goledger's fold code;
* anything that fails to decode is ignored and rebuilt;
* ``goledger verify`` compares the snapshot with a fresh fold and rebuilds it on mismatch;
* the test suite compares cached and fresh folds after random event sequences.

A new snapshot is written when a full read finds more than :data:`SNAPSHOT_EVERY` events
after the cached one, so a read costs at most a snapshot decode plus that many events.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Final

import msgspec

from goledger.ledger.store import Ledger, Transaction
from goledger.nogc import nogc
from goledger.replay.state import TournamentState, apply, fold

__all__ = ["SNAPSHOT_EVERY", "cached_state", "check_snapshot", "fingerprint"]

SNAPSHOT_EVERY: Final = 200
_NAME: Final = "state"
_DECODER: Final = msgspec.msgpack.Decoder(TournamentState)
_ENCODER: Final = msgspec.msgpack.Encoder()


@cache
def fingerprint() -> str:
    """A digest of the code that defines the fold: a snapshot from other code is ignored."""
    from goledger.ledger import events
    from goledger.replay import state

    digest = hashlib.sha256()
    for module in (events, state):
        digest.update(Path(module.__file__ or "").read_bytes())
    return digest.hexdigest()[:32]


def _load(source: Ledger | Transaction) -> tuple[int, TournamentState] | None:
    found = source.cache_get(_NAME)
    if found is None:
        return None
    seq, head, data = found
    if not head.startswith(fingerprint() + ":"):
        return None
    if source.hash_at(seq) != head.split(":", 1)[1]:
        return None
    try:
        state = _DECODER.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    return (seq, state) if state.seq == seq else None


@nogc
def cached_state(source: Ledger | Transaction, upto: int | None = None) -> TournamentState:
    """The state after event ``upto`` (default: the head), from the snapshot when it lies at
    or before ``upto``, plus the events after it."""
    base = _load(source)
    if base is not None and upto is not None and base[0] > upto:
        base = None
    if base is None:
        tail = source.events(upto=upto)
        result = fold(tail)
    else:
        tail = source.events(after=base[0], upto=upto)
        result = base[1]
        for event in tail:
            apply(result, event)
    if upto is None and len(tail) > SNAPSHOT_EVERY:
        head_hash = source.hash_at(result.seq)
        if head_hash is not None:
            source.cache_put(_NAME, result.seq, f"{fingerprint()}:{head_hash}", _ENCODER.encode(result))
    return result


def check_snapshot(ledger: Ledger) -> str:
    """Compare the cached snapshot with a fresh fold; drop it when it differs.

    Returns ``""`` when there is nothing to say, else a sentence for ``verify``.
    """
    base = _load(ledger)
    if base is None:
        return ""
    seq, state = base
    fresh = fold(ledger.events(upto=seq))
    if _ENCODER.encode(fresh) == _ENCODER.encode(state):
        return ""
    ledger.cache_clear()
    return f"the cached state snapshot at event {seq} differed from a fresh fold and was dropped"
