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
their bytes and this account's seal (:mod:`goledger.replay.loading.cache_seal`, an HMAC under a key
kept outside the ledger) beside the head they claim. An entry is **never trusted**: it is
used only when the ledger's head is still that event with that hash, the code is the same,
the bytes match their digest and the seal is this account's — whoever rewrites the bytes
and their digest cannot make the seal (issue 27, point 9); anything else is recomputed, and
an entry that claims the head but differs from the computation is **kept as evidence**
(``evidence:standings:SEQ:…``). Recording an event makes every entry stale: the next one
written drops the stale entries this account sealed and keeps any other as evidence, so a
forgery outlives the next append. ``goledger verify`` recomputes every entry claiming the
head and every piece of evidence (at the event it claims) from a fresh fold of the log and
fails, naming the entry as tampering, when one differs (keeping it for inspection; evidence
that agrees with the log is dropped); ``publish`` never reads it; the test suite compares
cached and fresh standings after random event sequences.

Measured on a 1,500 × 12 congress (``benchmarks/RESULTS.md``): a repeated ``goledger
standings`` saves the snapshot decode and the scoring; the first one after a result pays one
small write.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Final

import msgspec

import goledger.ledger.events
import goledger.ledger.values
import goledger.replay
from goledger.errors import GoledgerError
from goledger.replay.loading.cache_seal import seal, sealed
from goledger.replay.loading.load import fresh_state, load_state
from goledger.replay.scoring.standings import Standings, standings

if TYPE_CHECKING:
    from collections.abc import Sequence

    from goledger.ledger.store import Ledger
    from goledger.replay.fold.state import TournamentState

__all__ = ["EVIDENCE", "MIN_PLAYERS", "PREFIX", "cached_standings", "check_cached_standings", "code_fingerprint",
           "entry_name"]

PREFIX: Final = "standings:"
EVIDENCE: Final = "evidence:standings:"
"""Entries goledger could not vouch for, kept under this prefix
(``evidence:standings:SEQ:standings:[…]``) until ``verify`` judges them; no append or refresh
drops them (the snapshot keeps its own under ``evidence:state:``)."""
MAX_EVIDENCE: Final = 64
MIN_PLAYERS = 200
"""Standings of smaller fields are not stored: they cost a few milliseconds to compute, less
than writing them, and a read command then leaves a small ledger file untouched."""
_DECODER: Final = msgspec.msgpack.Decoder(Standings)
_ENCODER: Final = msgspec.msgpack.Encoder()
_ARGS: Final = msgspec.json.Encoder()


@cache
def code_fingerprint() -> str:
    """A digest of every source file standings depend on: an entry from other code is ignored."""
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


def _stored_key(head_hash: str, data: bytes) -> str | None:
    """What an entry is stored under: the code, the head it claims, the digest of its bytes
    and this account's seal of them (:mod:`goledger.replay.loading.cache_seal`); ``None`` without a
    key (nothing is then stored: an unsealed entry could never be served)."""
    mark = seal(data, _key(head_hash))
    return None if mark is None else f"{_key(head_hash)}:{hashlib.sha256(data).hexdigest()}:{mark}"


def _parts(found: tuple[int, str, bytes]) -> list[str]:
    return found[1].split(":")


def _claims_head(found: tuple[int, str, bytes], seq: int, head_hash: str) -> bool:
    return found[0] == seq and ":".join(_parts(found)[:2]) == _key(head_hash)


def _intact(found: tuple[int, str, bytes]) -> bool:
    """The bytes match the digest stored beside them."""
    parts = _parts(found)
    return len(parts) >= 3 and parts[2] == hashlib.sha256(found[2]).hexdigest()


def _sealed(found: tuple[int, str, bytes]) -> bool:
    """The entry carries this account's seal of what it claims and of its bytes."""
    parts = _parts(found)
    return len(parts) == 4 and sealed(found[2], ":".join(parts[:2]), parts[3])


def _keep_as_evidence(ledger: Ledger, name: str, found: tuple[int, str, bytes]) -> None:
    """Keep an entry goledger cannot vouch for under :data:`EVIDENCE` (which no append or
    refresh drops), for ``verify`` to judge against the log; at most :data:`MAX_EVIDENCE`."""
    if len(ledger.cache_names(EVIDENCE)) < MAX_EVIDENCE:
        ledger.cache_put(f"{EVIDENCE}{found[0]}:{name}", found[0], found[1], found[2])


def _drop_stale(ledger: Ledger, seq: int) -> None:
    """Drop the entries of other heads: those this account sealed (they can never be used
    again); any other is kept as evidence (a forged entry must outlive the next append)."""
    stale: list[str] = []
    for other in ledger.cache_names(PREFIX):
        found = ledger.cache_get(other)
        if found is None or found[0] == seq:
            continue
        if not (_sealed(found) and _intact(found)) and _parts(found)[0] == code_fingerprint():
            _keep_as_evidence(ledger, other, found)
        stale.append(other)
    ledger.cache_drop(stale)


def cached_standings(
    ledger: Ledger, round_: int | None, policy: str | None, criteria: Sequence[str] | None,
    state: TournamentState | None = None,
) -> Standings:
    """The standings at the ledger's head, from the cache when an entry for these arguments
    was stored at this very head by this very code and carries this account's seal; else
    computed (from ``state``, the ledger's state at its head, when the caller has folded it
    already) and stored. An entry that claims the head but is not what the log gives
    (bytes that do not match their digest, or a sealed-elsewhere entry that differs from the
    computation) is never served and is kept as evidence for ``verify``."""
    name = entry_name(round_, policy, criteria)
    head = ledger.head()
    found = ledger.cache_get(name)
    claims = found is not None and _claims_head(found, head.seq, head.hash)
    if found is not None and claims and _intact(found) and _sealed(found):
        try:
            cached = _DECODER.decode(found[2])
        except (msgspec.DecodeError, msgspec.ValidationError):
            cached = None
        if cached is not None and cached.as_of_seq == head.seq:
            return cached
    if state is None:
        state = load_state(ledger)
    result = standings(state, round_, policy, criteria)
    head_hash = ledger.hash_at(state.seq)
    if head_hash is None or len(state.players) < MIN_PLAYERS:
        return result
    data = _ENCODER.encode(result)
    if found is not None and claims and (not _intact(found) or found[2] != data):
        _keep_as_evidence(ledger, name, found)  # a forged entry: never served, kept for verify
    stored = _stored_key(head_hash, data)
    if stored is not None:
        _drop_stale(ledger, state.seq)
        ledger.cache_put(name, state.seq, stored, data)
    return result


def check_cached_standings(ledger: Ledger) -> str:
    """Recompute, from a fresh fold of the log, every cached standings entry that claims the
    head; returns ``""`` or the sentence of a **failed** ``verify`` naming the first entry
    that differs from its digest or from the recomputation (tampering). Entries are kept for
    inspection; a reader never uses one whose bytes differ from their digest."""
    head = ledger.head()
    evidence = _check_evidence(ledger)
    if evidence:
        return evidence
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


def _check_evidence(ledger: Ledger) -> str:
    """Judge the entries kept as evidence against the log: one whose bytes do not match their
    digest, or that differs from the standings recomputed at the event it claims, makes
    ``verify`` fail naming it (it stays); one that agrees with the log (sealed by another
    account, say) is dropped."""
    honest: list[str] = []
    for name in ledger.cache_names(EVIDENCE):
        found = ledger.cache_get(name)
        if found is None:
            continue
        seq, _, args = name[len(EVIDENCE):].partition(":")
        shown = args[len(PREFIX):]
        if not _intact(found):
            return (f"the cached standings {shown} stored at event {seq} do not match their stored digest: the "
                    f"cache was tampered with (kept for inspection in the projection_cache table as {name!r}; "
                    "goledger never uses them)")
        try:
            round_, policy, criteria = msgspec.json.decode(shown)
            if ledger.hash_at(found[0]) != _parts(found)[1]:
                raise ValueError("another log")
            fresh = _ENCODER.encode(standings(fresh_state(ledger, upto=found[0]), round_, policy, criteria))
        except (ValueError, TypeError, msgspec.DecodeError, GoledgerError):
            fresh = b""
        if fresh != found[2]:
            return (f"the cached standings {shown} stored at event {seq} differ from a fresh computation from the "
                    f"log: the cache was tampered with (kept for inspection in the projection_cache table as "
                    f"{name!r}; goledger never served them)")
        honest.append(name)
    ledger.cache_drop(honest)
    return ""
