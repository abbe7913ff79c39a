"""Reading the log and checking it: ``goledger log``, ``verify`` and ``repair``.

None of these writes to the ledger (``repair --salvage`` writes a new file).
"""

from __future__ import annotations

import re
from pathlib import Path

import msgspec

from goledger.commands.recording import PathLike, record_text
from goledger.errors import CommandRejected, LedgerError
from goledger.ledger.repair import RepairReport
from goledger.ledger.store import Ledger, Record, VerifyReport

__all__ = ["log", "repair_report", "verify"]


def log(db: PathLike, after: int = 0, upto: int | None = None, type: str | None = None) -> list[Record]:  # noqa: A002
    """The stored events (envelopes) with ``after < seq <= upto``, optionally of one type.
    Refuses a log holding an event this goledger cannot read (e.g. a newer event schema)."""
    with Ledger.open(db) as ledger:
        records = list(ledger.records(after=after, upto=upto))
        ledger.events(after=after, upto=upto)  # the check: raises naming the first unreadable event
    if type is not None:
        records = [r for r in records if r.type == type]
    return records


def verify(db: PathLike, published_head: str | None = None) -> VerifyReport:
    """Recompute the hash chain and check the schema whole (reporting on a ledger whose
    triggers were removed or which holds objects goledger did not create, instead of
    refusing it), then the cached snapshot and standings against a fresh fold of the log: a
    cache that differs fails the verification as tampering and is kept for inspection.

    ``published_head`` — a hash the director announced (a whole hash or its first 16 or
    more hex digits) — must be the hash of an event of the verified chain: the report says
    which one, or fails when it is not there (the log was rewritten after it was published,
    hashes included, or the head belongs to another ledger).

    A pseudonymised copy (``goledger export pseudonymised``) is also checked against the
    original chain it names (see :func:`goledger.ledger.copies.verify_copy`), and a
    published head is looked up on that original chain.
    """
    wanted = _published_head(published_head)
    with Ledger.open(db, check_protection=False) as ledger:
        report = ledger.verify()
        if report.ok:
            from goledger.replay.loading.snapshots import check_snapshot
            from goledger.replay.views.standings_cache import check_cached_standings

            for problem in (check_snapshot(ledger), check_cached_standings(ledger)):
                if problem:  # a cache that differs from the log was tampered with: verify fails
                    return msgspec.structs.replace(report, ok=False, problem=problem)
        if report.ok:
            from goledger.ledger.copies import verify_copy

            copy = verify_copy(ledger, wanted)
            if copy is not None:
                notes = (*report.notes, *copy.sentences)
                if not copy.ok:
                    return msgspec.structs.replace(report, ok=False, problem=copy.problem, notes=notes)
                return msgspec.structs.replace(report, notes=notes)
        if wanted is None:
            return report
        found = next((r for r in ledger.records(upto=report.trusted_upto) if r.hash.startswith(wanted)), None)
    if found is None:
        return msgspec.structs.replace(
            report, ok=False, problem=(f"{report.problem}; " if report.problem else "") + (
                f"the published head {wanted[:16]}… is not the hash of any trusted event of this ledger: the log "
                "was rewritten after it was published, or the head belongs to another ledger"
            ),
        )
    after = report.trusted_upto - found.seq
    note = (f"the published head is event {found.seq}: events 1..{found.seq} are exactly what was published"
            + (f"; {after} event(s) were recorded after it" if after else ""))
    return msgspec.structs.replace(report, notes=(*report.notes, note))


def _published_head(text: str | None) -> str | None:
    if text is None:
        return None
    wanted = text.strip().lower()
    if not re.fullmatch(r"[0-9a-f]{16,64}", wanted):
        raise CommandRejected(
            f"published head {text!r} is not a hash (give the 64 hex digits, or at least the first 16)"
        )
    return wanted


def repair_report(db: PathLike, published_head: str | None = None, salvage: PathLike | None = None) -> RepairReport:
    """What can still be trusted in a damaged, truncated or tampered ledger, up to which
    event (see :mod:`goledger.ledger.repair`), with the checkpoints and the last event of
    the trusted part named for the director. Reads whatever can be read; never writes to
    ``db``.

    ``salvage``: a new ledger file receiving the trusted events verbatim — the same chain,
    so its head is the trusted head and a published head up to it still verifies. Record
    what came after on top of it (all or nothing, like an import)."""
    from goledger.ledger.repair import repair_report as store_report
    from goledger.ledger.store import Envelope

    wanted = _published_head(published_head)
    if salvage is not None and Path(salvage).exists():
        raise CommandRejected(f"{salvage} already exists; salvage into a new file")
    checkpoints: list[str] = []
    last: list[Record] = []
    kept: list[Envelope] = []

    def watch(record: Record) -> None:
        if record.type == "Checkpoint":
            checkpoints.append(record_text(record, _plain_name))
        last[:] = [record]
        if salvage is not None:
            kept.append(Envelope(record.type, record.schema_version, record.payload, record.recorded_at,
                                 record.actor, record.reason))

    report = store_report(Path(db), wanted, watch)
    notes = list(report.notes)
    if salvage is not None:
        if not kept:
            raise CommandRejected(f"no event of {db} can be trusted: nothing to salvage")
        records = Ledger.create_complete_from(salvage, kept)
        if records[-1].hash != report.trusted_head:  # the same chain, or something is badly wrong
            Path(salvage).unlink(missing_ok=True)
            raise LedgerError(f"the salvaged events of {db} do not recompute to their trusted head; nothing was "
                              "written")
        notes.append(f"events 1..{len(records)} were salvaged into {salvage} (same hashes; its head is the trusted "
                     "head)")
    if last:
        notes.append(f"last trusted event: {record_text(last[0], _plain_name)}")
    if checkpoints:
        notes.append("checkpoints in the trusted part: " + "; ".join(checkpoints))
    return msgspec.structs.replace(report, notes=tuple(notes))


def _plain_name(player_id: str) -> str:
    return player_id
