"""Snapshots of the folded state, cached in the ledger file (DESIGN §4: "projections are
caches at most").

Folding a 1,500 × 12 congress means decoding and applying ~20,000 events; a command that
records one result should not redo that every time. A snapshot is the msgpack encoding of
the :class:`~goledger.replay.state.TournamentState` after event ``seq``, stored with the hash
of that event and a fingerprint of the fold code. It is **never trusted**:

* it is used only if event ``seq`` still carries the stored hash (so a rewritten log, or a
  different log, cannot reuse it), the fingerprint matches this goledger's fold code, and
  the bytes match the SHA-256 digest stored beside that hash (so bytes changed behind
  goledger's back are never used);
* anything that fails to decode is ignored and rebuilt;
* ``goledger verify`` compares the snapshot with a fresh fold and fails, naming it as
  tampering, when they differ (the snapshot is kept for inspection);
* ``publish``, ``verify`` and ``export egd`` never use it (:func:`~goledger.replay.load.fresh_state`);
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


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _claim(source: Ledger | Transaction) -> tuple[int, bytes, bool] | None:
    """The stored snapshot that claims to be this code's fold of this log up to its event:
    ``(seq, bytes, bytes match their digest)``; ``None`` when there is none, or it is from
    other code or another log (stale, not suspicious)."""
    found = source.cache_get(_NAME)
    if found is None:
        return None
    seq, key, data = found
    parts = key.split(":")
    if len(parts) != 3 or parts[0] != fingerprint() or source.hash_at(seq) != parts[1]:
        return None
    return seq, data, _digest(data) == parts[2]


def _load(source: Ledger | Transaction) -> tuple[int, TournamentState] | None:
    claim = _claim(source)
    if claim is None or not claim[2]:  # bytes that differ from their digest are never used
        return None
    seq, data, _ = claim
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
        claim = _claim(source)
        if claim is not None and not claim[2]:
            return result  # a tampered snapshot stays for `verify` to report; it is never used
        head_hash = source.hash_at(result.seq)
        if head_hash is not None:
            try:
                data = _ENCODER.encode(result)
            except OverflowError:  # an old ledger holding a number beyond 64 bits: no snapshot
                return result
            source.cache_put(_NAME, result.seq, f"{fingerprint()}:{head_hash}:{_digest(data)}", data)
    return result


def check_snapshot(ledger: Ledger) -> str:
    """Compare the cached snapshot with a fresh fold of the log.

    Returns ``""`` when there is nothing to say, else the sentence of a **failed** ``verify``:
    a snapshot whose bytes differ from their stored digest, or from a fresh fold, was put
    there by something other than goledger. It is kept for inspection (never used: readers
    check the digest), not deleted.
    """
    claim = _claim(ledger)
    if claim is None:
        return ""
    seq, data, intact = claim
    if not intact:
        return (f"the cached state snapshot at event {seq} does not match its stored digest: the cache was "
                "tampered with (kept for inspection in the projection_cache table; goledger never uses it)")
    fresh = fold(ledger.events(upto=seq))
    if _ENCODER.encode(fresh) == data:
        return ""
    return (f"the cached state snapshot at event {seq} differs from a fresh fold of the log: the cache was "
            "tampered with (kept for inspection in the projection_cache table)")
