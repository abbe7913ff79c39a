"""Snapshots of the folded state, cached in the ledger file (DESIGN §4: "projections are
caches at most").

Folding a 1,500 × 12 congress means decoding and applying ~20,000 events; a command that
records one result should not redo that every time. A snapshot is the msgpack encoding of
the :class:`~goledger.replay.fold.state.TournamentState` after event ``seq``, stored with the hash
of that event and a fingerprint of the fold code. It is **never trusted**:

* it is used only if event ``seq`` still carries the stored hash (so a rewritten log, or a
  different log, cannot reuse it), the fingerprint matches this goledger's fold code, the
  bytes match the SHA-256 digest stored beside that hash (so bytes changed behind
  goledger's back are never used), and it carries this account's seal
  (:mod:`goledger.replay.loading.cache_seal`: an HMAC under a key kept outside the ledger, so bytes
  changed *with* their digest recomputed are never used either, issue 27);
* a snapshot that claims this log but is not intact or not sealed here is kept as evidence
  (``evidence:state:SEQ``) when a new one is written, for ``verify`` to judge;
* anything that fails to decode is ignored and rebuilt;
* ``goledger verify`` compares the snapshot with a fresh fold and fails, naming it as
  tampering, when they differ (the snapshot is kept for inspection);
* ``publish``, ``verify`` and ``export egd`` never use it (:func:`~goledger.replay.loading.load.fresh_state`);
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

from goledger.ledger import events as event_types
from goledger.ledger.store import Ledger, Transaction
from goledger.nogc import nogc
from goledger.replay.fold import state as fold_code
from goledger.replay.fold.state import TournamentState, apply, fold
from goledger.replay.loading.cache_seal import seal, sealed
from goledger.replay.scoring.registries import check_registered

__all__ = ["SNAPSHOT_EVERY", "cached_state", "check_snapshot", "fingerprint"]

SNAPSHOT_EVERY: Final = 200
_NAME: Final = "state"
_DECODER: Final = msgspec.msgpack.Decoder(TournamentState)
_ENCODER: Final = msgspec.msgpack.Encoder()


@cache
def fingerprint() -> str:
    """A digest of the code that defines the fold: a snapshot from other code is ignored."""
    digest = hashlib.sha256()
    for module in (event_types, fold_code):
        digest.update(Path(module.__file__ or "").read_bytes())
    return digest.hexdigest()[:32]


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _claim(source: Ledger | Transaction, name: str = _NAME) -> tuple[int, bytes, bool, bool] | None:
    """The stored snapshot that claims to be this code's fold of this log up to its event:
    ``(seq, bytes, bytes match their digest, sealed by this account)``; ``None`` when there
    is none, or it is from other code or another log (stale, not suspicious)."""
    found = source.cache_get(name)
    if found is None:
        return None
    seq, key, data = found
    parts = key.split(":")
    if len(parts) not in (3, 4) or parts[0] != fingerprint() or source.hash_at(seq) != parts[1]:
        return None
    intact = _digest(data) == parts[2]
    return seq, data, intact, intact and len(parts) == 4 and sealed(data, ":".join(parts[:2]), parts[3])


def _load(source: Ledger | Transaction) -> tuple[int, TournamentState] | None:
    claim = _claim(source)
    if claim is None or not claim[3]:  # bytes not sealed by this account (or not their digest's) are never used
        return None
    seq, data, _, _ = claim
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
        result = fold(tail, check=check_registered)
    else:
        tail = source.events(after=base[0], upto=upto)
        result = base[1]
        for event in tail:
            apply(result, event, check_registered)
    if upto is None and len(tail) > SNAPSHOT_EVERY:
        claim = _claim(source)
        if claim is not None and not claim[3] and not _keep_as_evidence(source, claim):
            return result  # not this account's and no room to keep it as evidence: it stays, never used
        head_hash = source.hash_at(result.seq)
        if head_hash is not None:
            try:
                data = _ENCODER.encode(result)
            except OverflowError:  # an old ledger holding a number beyond 64 bits: no snapshot
                return result
            claimed = f"{fingerprint()}:{head_hash}"
            mark = seal(data, claimed)
            if mark is not None:  # without a key nothing is sealed, so nothing would ever be used
                source.cache_put(_NAME, result.seq, f"{claimed}:{_digest(data)}:{mark}", data)
    return result


EVIDENCE: Final = "evidence:state:"
MAX_EVIDENCE: Final = 4


def _keep_as_evidence(source: Ledger | Transaction, claim: tuple[int, bytes, bool, bool]) -> bool:
    """Keep a snapshot this account cannot vouch for under :data:`EVIDENCE` before a new one
    replaces it; ``False`` when it cannot be kept (then it is not replaced either)."""
    if not isinstance(source, Ledger):
        return False
    found = source.cache_get(_NAME)
    if found is None:
        return True
    names = source.cache_names(EVIDENCE)
    name = f"{EVIDENCE}{found[0]}"
    if name not in names and len(names) >= MAX_EVIDENCE:
        return False
    source.cache_put(name, found[0], found[1], found[2])
    return source.cache_get(name) is not None


def check_snapshot(ledger: Ledger) -> str:
    """Compare the cached snapshot with a fresh fold of the log.

    Returns ``""`` when there is nothing to say, else the sentence of a **failed** ``verify``:
    a snapshot whose bytes differ from their stored digest, or from a fresh fold, was put
    there by something other than goledger. It is kept for inspection (never used: readers
    check the digest), not deleted.
    """
    problem = _check_evidence(ledger)
    if problem:
        return problem
    claim = _claim(ledger)
    if claim is None:
        return ""
    seq, data, intact, _ = claim
    if not intact:
        return (f"the cached state snapshot at event {seq} does not match its stored digest: the cache was "
                "tampered with (kept for inspection in the projection_cache table; goledger never uses it)")
    fresh = fold(ledger.events(upto=seq), check=check_registered)
    if _ENCODER.encode(fresh) == data:
        return ""
    return (f"the cached state snapshot at event {seq} differs from a fresh fold of the log: the cache was "
            "tampered with (kept for inspection in the projection_cache table)")


def _check_evidence(ledger: Ledger) -> str:
    """Judge the snapshots kept as evidence against a fresh fold up to their event: one that
    is not intact or differs makes ``verify`` fail naming it (it stays); one that agrees with
    the log (sealed by another account) is dropped."""
    honest: list[str] = []
    for name in ledger.cache_names(EVIDENCE):
        claim = _claim(ledger, name)
        if claim is None:
            honest.append(name)  # of other code or another log: it can never be used
            continue
        seq, data, intact, _ = claim
        if not intact:
            return (f"the cached state snapshot at event {seq} kept as {name!r} does not match its stored digest: "
                    "the cache was tampered with (kept for inspection in the projection_cache table)")
        if _ENCODER.encode(fold(ledger.events(upto=seq), check=check_registered)) != data:
            return (f"the cached state snapshot at event {seq} kept as {name!r} differs from a fresh fold of the "
                    "log: the cache was tampered with (kept for inspection in the projection_cache table)")
        honest.append(name)
    ledger.cache_drop(honest)
    return ""

