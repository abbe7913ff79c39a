"""A pseudonymised copy of a ledger: shareable without the players' personal data, and still
verifiable against the chain head the director published (``goledger export
pseudonymised``; see SECURITY.md).

**Replaced, always.** Players: the surname becomes a pseudonym ``P-XXXXXXXXXX`` and the
first name is emptied; the club becomes ``C-XXXXXX``; the EGD PIN, the other identifiers
(FFG licence, AGA or FIDE id…) and the source program's verbatim extras are dropped, except
the rank, rating and participation texts. Tournament: the director is emptied, and the
device identifiers an importer kept (IP and MAC addresses, UUIDs, user names, e-mail) are
dropped.

**Replaced with** ``withhold_text``. Actors (who recorded each event) become ``A-XXXXXX``;
envelope reasons and free texts (withdrawal and correction reasons, checkpoint notes,
pairing comments) are emptied. Without it they are kept verbatim — directors' words can
name players, so the export report counts them for review.

**Kept.** Player ids, ranks, grades, ratings, countries, registration status, McMahon
corrections, start numbers; every pairing, result, bye, absence, withdrawal and correction;
the tournament's settings and name, team names, the names and SHA-256 of imported files;
the time of every event. Ranks, ratings, countries and results are quasi-identifiers: a
strong player of a small country is recognisable. This is **pseudonymisation, not
anonymisation**.

**Pseudonyms** are HMAC-SHA256, keyed with the director's secret key, of the player's
identity — ``egd:<PIN>`` when the player has an EGD PIN, else ``name:<surname>\\0<first
name>`` (NFC, case-folded, spaces collapsed) — taken from the player's last state in the
ledger, in base32. The same player gets the same pseudonym in every ledger pseudonymised
with the same key; without the key nobody can compute the pseudonym of a name, so a list of
candidate names does not reveal who is who. Namesakes without PINs in one ledger get a
``-2``, ``-3`` suffix.

**Verifiable.** The copy's events ``1..N`` are the original's events ``1..N`` in order; an
event none of whose fields was replaced is stored byte for byte (payload, schema version,
time, actor, reason), so its original hash can be recomputed from the previous one. The
last event, :class:`~goledger.ledger.events.PseudonymisedCopy`, lists the replaced events
with their original hashes and gives the original head. :func:`goledger.ledger.copies.verify_copy` recomputes the
original chain through the copy: it must end on the original head (and pass through a
published head when one is given). What that proves, and what it cannot prove without the
names, is spelled out by :func:`goledger.ledger.copies.verify_copy` and SECURITY.md.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import msgspec

from goledger.errors import CommandRejected, LedgerError
from goledger.formats.report import InterchangeReport
from goledger.ledger import events as ev
from goledger.ledger.store import HASH_ALGORITHM, Envelope, Ledger, Record, utc_now
from goledger.replay.fold.state import TournamentState, fold
from goledger.replay.scoring.registries import check_registered

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["SCHEME", "CopyOutcome", "key_check", "load_key", "pseudonym", "pseudonymise"]

SCHEME: Final = "hmac-sha256/1"
KEY_BYTES: Final = 32

PLAYER_EXTRAS_KEPT: Final = frozenset({"participating", "ratingOrigin", "rank", "grade", "rating",
                                       "registeringStatus", "smmsCorrection", "SuperBarMember", "placeholder"})
"""Source-program player attributes kept in a copy (by the last part of the extras key)."""

SETTINGS_EXTRAS_DROPPED: Final = ("address", "uuid", "user", "mail", "phone", "director", "contact")
"""A tournament extras key whose last part contains one of these (case-insensitive) is dropped."""


# --------------------------------------------------------------------------- keys and pseudonyms


def load_key(path: str | os.PathLike[str], create: bool = True) -> tuple[bytes, bool]:
    """The secret key in ``path`` (64 hex digits), created with a fresh random key (mode
    0600) when the file does not exist and ``create``. Returns the key and whether it was
    created."""
    target = Path(path)
    if not target.exists():
        if not create:
            raise CommandRejected(f"no key file at {target}")
        if not target.parent.is_dir():
            raise CommandRejected(f"cannot create the key file {target}: folder {target.parent} does not exist")
        key = secrets.token_bytes(KEY_BYTES)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(key.hex() + "\n")
        return key, True
    try:
        text = target.read_text(encoding="ascii").strip()
        key = bytes.fromhex(text)
    except (OSError, UnicodeDecodeError, ValueError):
        raise CommandRejected(f"{target} does not hold a goledger key (64 hexadecimal digits)") from None
    if len(key) < 16:
        raise CommandRejected(f"the key in {target} is too short ({len(key)} bytes; at least 16 are needed)")
    return key, False


def _digest(key: bytes, text: str) -> str:
    mac = hmac.new(key, text.encode("utf-8"), hashlib.sha256).digest()
    return base64.b32encode(mac).decode("ascii").rstrip("=")


def pseudonym(key: bytes, kind: str, identity: str, length: int = 10) -> str:
    """``kind`` + the first ``length`` base32 letters of HMAC-SHA256(key, ``identity``).

    >>> pseudonym(b"k" * 32, "P-", "egd:12345678")
    'P-6SPGJOO5HM'
    """
    return kind + _digest(key, identity)[:length]


def key_check(key: bytes) -> str:
    """A short public value naming the key (HMAC of a fixed text): two copies made with the
    same key show the same check; it reveals nothing about the key."""
    return hmac.new(key, b"goledger pseudonym key check", hashlib.sha256).hexdigest()[:16]


def _fold(text: str) -> str:
    return unicodedata.normalize("NFC", " ".join(text.split())).casefold()


def player_identity(player: Any) -> str:
    """``egd:<PIN>``, else ``name:<surname>\\0<first name>`` (folded)."""
    if player.egd_pin:
        return f"egd:{player.egd_pin.strip()}"
    return f"name:{_fold(player.surname)}\x00{_fold(player.first_name)}"


# --------------------------------------------------------------------------- the copy


class CopyOutcome(msgspec.Struct, kw_only=True):
    """A written copy: where, how many events, how many had fields replaced, and the report."""

    db: str
    events: int
    hidden: int
    original_head: str
    key_created: bool
    report: InterchangeReport

    @property
    def message(self) -> str:
        return (f"wrote {self.db}: a pseudonymised copy of {self.events} events ({self.hidden} with personal fields "
                f"replaced), original head {self.original_head}")


class _Pseudonymiser:
    def __init__(self, key: bytes, state: TournamentState, withhold_text: bool, report: InterchangeReport) -> None:
        self.key = key
        self.withhold_text = withhold_text
        self.report = report
        self.players: dict[str, str] = {}
        seen: dict[str, int] = {}
        for pid in sorted(state.players):
            identity = player_identity(state.players[pid])
            base = pseudonym(key, "P-", identity)
            seen[base] = seen.get(base, 0) + 1
            self.players[pid] = base if seen[base] == 1 else f"{base}-{seen[base]}"
            if seen[base] == 2:
                report.warning("namesake", f"players with the same name and no EGD PIN share the pseudonym {base}; "
                               "the later ones get -2, -3… (not stable across tournaments)", pid)
        self.kept_texts = 0
        self.actors: set[str] = set()

    def club(self, text: str) -> str:
        return pseudonym(self.key, "C-", f"club:{_fold(text)}", 6) if text.strip() else text

    def player_extras(self, extras: dict[str, str]) -> dict[str, str]:
        return {k: v for k, v in extras.items() if k.rsplit(".", 1)[-1] in PLAYER_EXTRAS_KEPT}

    @staticmethod
    def settings_extras(extras: dict[str, str]) -> dict[str, str]:
        return {k: v for k, v in extras.items()
                if not any(word in k.rsplit(".", 1)[-1].casefold() for word in SETTINGS_EXTRAS_DROPPED)}

    def text(self, value: str) -> str:
        if self.withhold_text:
            return ""
        if value.strip():
            self.kept_texts += 1
        return value

    def event(self, e: ev.Event) -> ev.Event:
        """The event with its personal fields replaced (the same object when nothing is)."""
        replace = msgspec.structs.replace
        match e:
            case ev.TournamentCreated(settings=s):
                new = replace(s, director="", extras=self.settings_extras(s.extras))
                return e if new == s else replace(e, settings=new)
            case ev.RulesChanged(changes=changes):
                out = dict(changes)
                if out.get("director"):
                    out["director"] = ""
                if isinstance(out.get("extras"), dict):
                    out["extras"] = self.settings_extras(out["extras"])
                return e if out == changes else replace(e, changes=out)
            case ev.PlayerRegistered():
                return replace(e, surname=self.players.get(e.player_id, pseudonym(self.key, "P-", e.player_id)),
                               first_name="", club=self.club(e.club), egd_pin="", ids={},
                               extras=self.player_extras(e.extras))
            case ev.PlayerUpdated(changes=changes):
                out = {k: v for k, v in changes.items() if k not in ("surname", "first_name", "egd_pin", "ids")}
                if isinstance(out.get("club"), str):
                    out["club"] = self.club(out["club"])
                if isinstance(out.get("extras"), dict):
                    out["extras"] = self.player_extras(out["extras"])
                return e if out == changes else replace(e, changes=out)
            case ev.PlayerWithdrew(reason=reason) if reason:
                new_reason = self.text(reason)
                return e if new_reason == reason else replace(e, reason=new_reason)
            case ev.ResultCorrected(reason=reason) if reason:
                new_reason = self.text(reason)
                return e if new_reason == reason else replace(e, reason=new_reason)
            case ev.Checkpoint(note=note) if note:
                new_note = self.text(note)
                return e if new_note == note else replace(e, note=new_note)
            case ev.PairingAnnotated(extras=extras) if any("comment" in k.casefold() for k in extras):
                out = {k: (self.text(v) if "comment" in k.casefold() else v) for k, v in extras.items()}
                return e if out == extras else replace(e, extras=out)
        return e

    def envelope(self, record: Record) -> tuple[Envelope, tuple[str, ...]]:
        """The copy's envelope of ``record`` and the names of the fields it changed."""
        event = record.event
        new = self.event(event)
        changed: list[str] = []
        if new is event:
            payload, version = record.payload, record.schema_version
        else:
            payload = ev.canonical_bytes(new).decode("utf-8")
            version = type(new).schema_version
            changed.extend(_changed_fields(msgspec.to_builtins(event), msgspec.to_builtins(new)))
        actor, reason = record.actor, record.reason
        if self.withhold_text:
            actor = pseudonym(self.key, "A-", f"actor:{actor}", 6) if actor else ""
            reason = ""
        else:
            self.actors.add(actor)
            if reason.strip():
                self.kept_texts += 1
        if actor != record.actor:
            changed.append("actor")
        if reason != record.reason:
            changed.append("reason")
        if not changed and (payload != record.payload or version != record.schema_version):
            changed.append("payload")
        return Envelope(record.type, version, payload, record.recorded_at, actor, reason), tuple(changed)


def _changed_fields(old: dict[str, Any], new: dict[str, Any], prefix: str = "") -> Iterable[str]:
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict) and key in ("settings", "changes"):
            yield from _changed_fields(a, b, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}"


def pseudonymise(
    db: str | os.PathLike[str],
    output: str | os.PathLike[str],
    key_file: str | os.PathLike[str],
    withhold_text: bool = False,
    *,
    actor: str = "",
) -> CopyOutcome:
    """Write ``output``: a new ledger holding the pseudonymised copy of ``db`` (module
    docstring), all at once or not at all. ``key_file`` holds the director's secret key and
    is created with a fresh key when missing. Refuses a ledger that does not verify."""
    source, target = Path(db), Path(output)
    if target.exists():
        raise CommandRejected(f"{target} already exists; a pseudonymised copy needs a new file")
    if target.resolve() == source.resolve():
        raise CommandRejected("the copy must go to another file than the ledger")

    with Ledger.open(source) as ledger:
        ledger.events()  # refuses, naming it, an event this goledger cannot read
        check = ledger.verify()
        if not check.ok:
            raise LedgerError(f"{source} does not verify ({check.problem}); a copy would vouch for a broken chain")
        records = list(ledger.records())
        state = fold([r.event for r in records], check=check_registered)
    if not records:
        raise CommandRejected(f"{source} holds no event to copy")
    if any(r.type == ev.PseudonymisedCopy.type_name() for r in records):
        raise CommandRejected(f"{source} is already a pseudonymised copy")
    key, created = load_key(key_file)
    report = InterchangeReport(format="pseudonymised", source=str(source), direction="export")
    worker = _Pseudonymiser(key, state, withhold_text, report)
    envelopes: list[Envelope] = []
    hidden: list[ev.HiddenEvent] = []
    for record in records:
        envelope, changed = worker.envelope(record)
        envelopes.append(envelope)
        if changed:
            hidden.append(ev.HiddenEvent(seq=record.seq, original_hash=record.hash, fields=changed))
    trailer = ev.PseudonymisedCopy(
        original_head=records[-1].hash, original_events=len(records), hash_algorithm=HASH_ALGORITHM,
        scheme=SCHEME, key_check=key_check(key), hidden=tuple(hidden), withheld_text=withhold_text,
    )
    envelopes.append(Envelope(trailer.type_name(), trailer.schema_version, ev.canonical_bytes(trailer).decode("utf-8"),
                              utc_now(), actor or "goledger", "pseudonymised copy"))
    Ledger.create_complete_from(target, envelopes)
    report.count_read("players", len(state.players))
    report.count_recorded("players", len(worker.players))
    report.count_read("events", len(records))
    report.count_recorded("events", len(records))
    report.info("hidden", f"{len(hidden)} of {len(records)} events had personal fields replaced; the other "
                f"{len(records) - len(hidden)} are stored exactly as in the original")
    if created:
        report.warning("key", f"a new secret key was created in {key_file}: keep it private, and use it again so "
                       "that players keep their pseudonyms across tournaments")
    if not withhold_text:
        actors = ", ".join(sorted(a for a in worker.actors if a)) or "none"
        report.warning("text", f"{worker.kept_texts} free texts (reasons, notes, comments) and the actors ({actors}) "
                       "were kept verbatim; review them, or use --withhold-text")
    return CopyOutcome(db=str(target), events=len(records), hidden=len(hidden), original_head=records[-1].hash,
                       key_created=created, report=report)
