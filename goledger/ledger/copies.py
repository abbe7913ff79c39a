"""Verification of a pseudonymised copy against the original's hash chain (SECURITY.md).

A copy made by ``goledger export pseudonymised`` (:mod:`goledger.formats.pseudonymised`)
ends with a :class:`~goledger.ledger.events.PseudonymisedCopy` event naming the original
head and, for each event whose personal fields it replaced, the original event's hash.
:func:`verify_copy` recomputes the original chain through the copy: every event stored
unchanged is hashed again, every replaced one contributes its recorded original hash, and
the result must be the original head. This is pure log arithmetic and knows nothing of Go.
"""

from __future__ import annotations

import msgspec

from goledger.ledger import events as ev
from goledger.ledger.store import GENESIS_HASH, Ledger, chain_hash

__all__ = ["CopyCheck", "find_copy", "verify_copy"]


class CopyCheck(msgspec.Struct, kw_only=True):
    """What :func:`verify_copy` found (``sentences`` say it for a reader)."""

    ok: bool
    original_head: str
    original_events: int
    hidden: int
    bound_from: int
    """Events ``bound_from..original_events`` are bound to the original head byte for byte."""
    published_head_seq: int | None = None
    problem: str = ""
    sentences: tuple[str, ...] = ()


def find_copy(ledger: Ledger) -> tuple[int, ev.PseudonymisedCopy] | None:
    """The ``PseudonymisedCopy`` event of a ledger (with its sequence number), if it is a copy."""
    found: tuple[int, ev.PseudonymisedCopy] | None = None
    for record in ledger.records():
        if record.type == ev.PseudonymisedCopy.type_name():
            event = record.event
            assert isinstance(event, ev.PseudonymisedCopy)
            found = (record.seq, event)
    return found


def verify_copy(ledger: Ledger, published_head: str | None = None) -> CopyCheck | None:
    """Recompute the original chain through a pseudonymised copy (``None`` when the ledger
    is not a copy). ``published_head``: a hash (or its first 16+ hex digits) the director
    published for the original; it must be one of the original chain's hashes."""
    found = find_copy(ledger)
    if found is None:
        return None
    copy_seq, copy = found
    hidden = {h.seq: h for h in copy.hidden}
    prev = GENESIS_HASH
    published_seq: int | None = None
    problem = ""
    records = list(ledger.records(upto=copy.original_events))
    if len(records) != copy.original_events or copy_seq != copy.original_events + 1:
        problem = (f"the copy should hold the {copy.original_events} original events right before its "
                   f"PseudonymisedCopy event (event {copy_seq})")
    for expected, record in enumerate(records, start=1):
        if problem:
            break
        if record.seq != expected:
            problem = f"event {expected} is missing from the copy"
            break
        if expected in hidden:
            digest = hidden[expected].original_hash
        else:
            digest = chain_hash(prev, record.seq, record.type, record.schema_version, record.payload.encode("utf-8"),
                                record.recorded_at, record.actor, record.reason)
        if published_head and published_seq is None and digest.startswith(published_head):
            published_seq = record.seq
        prev = digest
    if not problem and prev != copy.original_head:
        problem = ("the events of the copy do not recompute to the original head it names: an event stored as "
                   "unchanged differs from the original")
    last_hidden = max(hidden, default=0)
    bound_from = last_hidden + 1
    n = copy.original_events
    sentences: list[str] = []
    if not problem:
        sentences.append(
            f"pseudonymised copy of a ledger of {n} events ending at {copy.original_head}: its events correspond one "
            f"to one and in order to the original's; {len(hidden)} had personal fields replaced"
            + (f" (the last is event {last_hidden})" if hidden else "")
        )
        if bound_from <= n:
            sentences.append(f"events {bound_from}..{n} are bound to the original head: their content, times and "
                             "actors are exactly the original's")
        if last_hidden:
            sentences.append(
                f"events 1..{last_hidden}: every unchanged one links to the one before it, but the chain reaches the "
                "head through events whose original content is hidden, so only someone holding the original ledger "
                "(or the names and the key) can check them against it"
            )
    if published_head:
        if published_seq is None:
            problem = problem or (f"the published head {published_head[:16]}… is not on the original chain this copy "
                                  "recomputes")
        else:
            before = max((h for h in hidden if h <= published_seq), default=0)
            sentences.append(f"the published head is original event {published_seq}: events {before + 1}.."
                             f"{published_seq} of the copy are bound to it")
    return CopyCheck(ok=not problem, original_head=copy.original_head, original_events=n, hidden=len(hidden),
                     bound_from=bound_from, published_head_seq=published_seq, problem=problem,
                     sentences=tuple(sentences))
