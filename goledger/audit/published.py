"""Published standings: the digest a ``Checkpoint`` vouches for, and showing them again.

``goledger publish --round R`` appends a ``Checkpoint`` labelled ``published`` holding the
chain head before it (``event_count``, ``head``), the rule policy and criteria used, and
``digest`` = SHA-256 of the **canonical JSON** of the standings as shown: the
``standings --json`` object of DESIGN §8 — ``round``, ``as_of_seq``, ``policy``,
``criteria`` and ``rows`` with ``place``, ``player_id``, ``surname``, ``first_name``, ``rank``,
``egd_pin``, ``start_number`` and ``values`` (exact JSON numbers) — encoded with sorted keys,
no whitespace, UTF-8 (:func:`standings_digest`). The fields are listed here, not taken from
whatever ``standings --json`` prints one day, so that a later goledger adding a column to
that output still reproduces old digests.

Showing them again (:func:`as_published`) first verifies the whole hash chain — a ledger
that fails ``goledger verify`` is refused with verify's own message — then folds events
``1..event_count``, recomputes the standings with the checkpoint's round, policy and criteria
and checks the digest. A mismatch (an altered scoring rule in a newer goledger, a forged
checkpoint) is refused rather than shown.

The policy of a view is resolved by :func:`policy_for`: no name, or the tournament's own
policy name, means the tournament's policy *with its overrides* as of that state; any other
name is the registered policy as is. Publishing and re-showing use the same rule, so the
overrides in force at publication are reproduced.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, Final

import msgspec

from goledger.errors import CommandRejected, LedgerError
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger, Record, VerifyReport
from goledger.replay.fold.state import TournamentState, fold
from goledger.replay.scoring.registries import check_registered
from goledger.replay.scoring.standings import Standings, json_number, resolve_policy, standings

if TYPE_CHECKING:
    import os
    from collections.abc import Sequence

    from goledger.replay.scoring.policies import Policy

__all__ = [
    "PUBLISHED_LABEL",
    "Published",
    "as_published",
    "digest_fields",
    "find_published",
    "policy_for",
    "published_standings",
    "standings_digest",
    "verify_message",
    "view_standings",
]

PUBLISHED_LABEL: Final = "published"

_CANONICAL: Final = msgspec.json.Encoder(order="sorted")


def policy_for(state: TournamentState, name: str | None) -> Policy:
    """The policy a published view uses (see the module docstring)."""
    if name is None or (state.settings is not None and name == state.settings.policy):
        return resolve_policy(state, None)
    return resolve_policy(state, name)


def view_standings(state: TournamentState, round_: int | None, policy: str | None,
                   criteria: Sequence[str] | None) -> Standings:
    """Standings of ``state`` with :func:`policy_for` resolving ``policy``."""
    return standings(state, round_, policy_for(state, policy), list(criteria) if criteria else None)


def digest_fields(table: Standings) -> dict[str, Any]:
    """The DESIGN §8 fields of the standings that a digest covers."""
    return {
        "round": table.round,
        "as_of_seq": table.as_of_seq,
        "policy": table.policy,
        "criteria": list(table.criteria),
        "rows": [
            {
                "place": row.place, "player_id": row.player_id, "surname": row.surname,
                "first_name": row.first_name, "rank": row.rank, "egd_pin": row.egd_pin,
                "start_number": row.start_number,
                "values": {c: json_number(row.values[c], table.scales[c]) for c in table.criteria},
            }
            for row in table.rows
        ],
    }


def canonical_json(table: Standings) -> bytes:
    """The canonical JSON bytes of :func:`digest_fields`."""
    return _CANONICAL.encode(digest_fields(table))


def standings_digest(table: Standings) -> str:
    """SHA-256 (hex) of :func:`canonical_json`."""
    return hashlib.sha256(canonical_json(table)).hexdigest()


def verify_message(report: VerifyReport) -> str:
    """The sentence ``goledger verify`` prints for a ledger that fails verification."""
    return report.problem + (f"; events 1..{report.trusted_upto} can be trusted" if report.trusted_upto else "")


class Published(msgspec.Struct, kw_only=True):
    """Standings as published at the checkpoint event ``seq``."""

    seq: int
    recorded_at: str
    actor: str
    checkpoint: ev.Checkpoint
    standings: Standings

    def to_dict(self) -> dict[str, Any]:
        cp = self.checkpoint
        return {
            **self.standings.to_dict(),
            "published": {
                "seq": self.seq, "recorded_at": self.recorded_at, "actor": self.actor,
                "event_count": cp.event_count, "head": cp.head, "digest": cp.digest, "note": cp.note,
            },
        }


def find_published(ledger: Ledger, round_: int) -> tuple[Record, ev.Checkpoint]:
    """The latest ``published`` checkpoint of ``round_`` (refuses when there is none)."""
    found: tuple[Record, ev.Checkpoint] | None = None
    rounds: set[int] = set()
    for record in ledger.records():
        if record.type != "Checkpoint":
            continue
        checkpoint = record.event
        assert isinstance(checkpoint, ev.Checkpoint)
        if checkpoint.label != PUBLISHED_LABEL or checkpoint.round is None:
            continue
        rounds.add(checkpoint.round)
        if checkpoint.round == round_:
            found = (record, checkpoint)
    if found is None:
        known = f" (published rounds: {', '.join(map(str, sorted(rounds)))})" if rounds else ""
        raise CommandRejected(f"the standings after round {round_} were never published{known}")
    return found


def published_standings(events: Sequence[ev.Event], checkpoint: ev.Checkpoint) -> Standings:
    """Recompute the standings a checkpoint vouches for from the log's first ``event_count``
    events, refusing when their digest differs from the checkpoint's."""
    if checkpoint.round is None:
        raise CommandRejected(f"checkpoint {checkpoint.label!r} names no round")
    state = fold(events[: checkpoint.event_count], check=check_registered)
    table = view_standings(state, checkpoint.round, checkpoint.policy or None, checkpoint.criteria)
    digest = standings_digest(table)
    if digest != checkpoint.digest:
        raise LedgerError(
            f"the standings published for round {checkpoint.round} cannot be reproduced: recomputed as of "
            f"event {checkpoint.event_count} their digest is {digest[:16]}…, the checkpoint says "
            f"{checkpoint.digest[:16]}… (the scoring rules of this goledger differ from the publisher's)"
        )
    return table


def load_published(ledger: Ledger, round_: int) -> tuple[Published, list[ev.Event]]:
    """Verify the chain, find the checkpoint of ``round_`` and recompute its standings; also
    return the whole decoded log (callers compare it with later states)."""
    report = ledger.verify()
    if not report.ok:
        raise LedgerError(verify_message(report))
    record, checkpoint = find_published(ledger, round_)
    if not 0 < checkpoint.event_count < record.seq:
        raise LedgerError(f"checkpoint event {record.seq} names event {checkpoint.event_count}, not one before it")
    anchor = next(ledger.records(after=checkpoint.event_count - 1, upto=checkpoint.event_count))
    if anchor.hash != checkpoint.head:
        raise LedgerError(
            f"checkpoint event {record.seq} vouches for head {checkpoint.head[:16]}… but event "
            f"{checkpoint.event_count} has hash {anchor.hash[:16]}…"
        )
    events = ledger.events()
    table = published_standings(events, checkpoint)
    published = Published(seq=record.seq, recorded_at=record.recorded_at, actor=record.actor,
                          checkpoint=checkpoint, standings=table)
    return published, events


def as_published(db: str | os.PathLike[str], round: int) -> Published:  # noqa: A002
    """The standings after ``round`` exactly as published (``goledger standings --as-published``)."""
    with Ledger.open(db) as ledger:
        return load_published(ledger, round)[0]
