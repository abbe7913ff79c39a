"""``register --from-file players.csv``: a pre-registration list, all or nothing (issue 34, point 6).

The file is CSV (UTF-8, a header row). Columns, in any order, case and blanks ignored:
``pin`` (or ``egd_pin``), ``surname``, ``first_name``, ``name`` (``Surname First``, instead of
the two), ``rank``, ``country``, ``club``, ``rating``, ``grade``. A row with a PIN is
filled from the rating list like ``register --egd-pin`` (:mod:`goledger.commands.registration`);
a row without one needs a surname and a rank. Every row is checked as that command checks
it, against the tournament *and the rows before it* (a PIN or a name twice in the file is
refused). When every row passes, all are appended in one transaction; when one fails,
nothing is written. Either way the report gives every row's decision. Numbers are ASCII
digits (``bounded_int``), as everywhere else; the rows are decided in linear time, before the
write lock is taken (:func:`register_from_file`).
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path
from typing import Any, Final

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n.messages import nsay, say
from goledger.ledger import events as ev
from goledger.ledger.values import bounded_int
from goledger.replay.fold.state import TournamentState

__all__ = ["BulkRejected", "BulkReport", "RowDecision", "decide_register_from_file", "decide_rows",
           "register_from_file"]

PathLike = str | os.PathLike[str]

MAX_FILE_BYTES: Final = 4 * 1024 * 1024
MAX_ROWS: Final = 5000
_ALIASES: Final = {"pin": "pin", "egd_pin": "pin", "egdpin": "pin", "surname": "surname", "last_name": "surname",
                   "family_name": "surname", "first_name": "first_name", "firstname": "first_name",
                   "given_name": "first_name", "name": "name", "rank": "rank", "country": "country", "club": "club",
                   "rating": "rating", "gor": "rating", "grade": "grade"}


class RowDecision(msgspec.Struct, frozen=True, kw_only=True):
    """One row's decision: ``registered`` (or, when another row failed, ``would register``),
    or ``refused`` with the sentence why."""

    line: int
    decision: str
    message: str
    player_id: str = ""


class BulkReport(msgspec.Struct, frozen=True, kw_only=True):
    written: bool
    rows: list[RowDecision]
    seqs: list[int] = msgspec.field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"written": self.written, "seqs": self.seqs, "rows": [msgspec.to_builtins(r) for r in self.rows]}


class BulkRejected(CommandRejected):
    """A file with at least one refused row: nothing was written; ``report`` says why."""

    def __init__(self, message: str, report: BulkReport) -> None:
        super().__init__(message)
        self.report = report


def _rows(path: PathLike) -> list[tuple[int, dict[str, str]]]:
    file = Path(path)
    try:
        if file.stat().st_size > MAX_FILE_BYTES:
            raise CommandRejected(say("%(file)s is larger than a registration list may be (%(max)d bytes)",
                                      file=str(file), max=MAX_FILE_BYTES))
        text = file.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise CommandRejected(say("cannot read %(file)s: %(why)s", file=str(file),
                                  why=str(exc.strerror or exc))) from None
    except UnicodeDecodeError as exc:
        raise CommandRejected(say("%(file)s is not UTF-8 text (byte %(byte)d)", file=str(file),
                                  byte=exc.start)) from None
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    try:
        header = next(reader)
    except StopIteration:
        raise CommandRejected(say("%(file)s is empty; it needs a header row (pin, surname, first_name, rank…)",
                                  file=str(file))) from None
    names = []
    for cell in header:
        key = "_".join(cell.strip().lower().replace("-", " ").split())
        if key not in _ALIASES:
            raise CommandRejected(say("%(file)s: unknown column %(column)r; known: pin, surname, first_name, "
                                      "name, rank, country, club, rating, grade", file=str(file),
                                      column=cell.strip()[:40]))
        names.append(_ALIASES[key])
    rows: list[tuple[int, dict[str, str]]] = []
    try:
        for record in reader:
            if not any(c.strip() for c in record):
                continue
            if len(rows) >= MAX_ROWS:
                raise CommandRejected(say("%(file)s has more than %(max)d rows", file=str(file), max=MAX_ROWS))
            rows.append((reader.line_num, {n: c.strip() for n, c in zip(names, record, strict=False)}))
    except csv.Error as exc:
        raise CommandRejected(say("%(file)s line %(line)d: %(why)s", file=str(file), line=reader.line_num,
                                  why=str(exc))) from None
    if not rows:
        raise CommandRejected(say("%(file)s has a header but no player row", file=str(file)))
    return rows


def _given(row: dict[str, str]) -> dict[str, Any]:
    surname, first = row.get("surname", ""), row.get("first_name", "")
    if row.get("name") and not surname:
        surname, _, first = row["name"].strip().partition(" ")
    rating_text = row.get("rating", "")
    rating = None
    if rating_text:
        try:  # ASCII digits only, bounded as text: '²', '--5' and '٣' are no rating
            rating = bounded_int(rating_text, digits=6)
        except ValueError:
            raise CommandRejected(say("rating %(rating)r is not a whole number of at most 6 ASCII digits "
                                      "(such as 2100 or -900)", rating=rating_text[:20])) from None
    return {"surname": surname.strip(), "first_name": first.strip(), "country": row.get("country", ""),
            "club": row.get("club", ""), "rank": row.get("rank", ""), "grade": row.get("grade", ""),
            "rating": rating}


Prepared = tuple[int, dict[str, Any] | str, Any]
"""A row as checked before the ledger is read: (line, its values or the sentence refusing it,
what the rating list filled in)."""


def _prepare(rows: list[tuple[int, dict[str, str]]], ratings: PathLike | None, force: bool) -> list[Prepared]:
    """Every row checked on its own (and filled from the rating list by its PIN), as
    ``register`` checks its arguments before it reads the ledger."""
    from goledger.commands.checks import check_names, parse_rank
    from goledger.commands.registration import check_pin, fill_from_list

    prepared: list[Prepared] = []
    for line, row in rows:
        try:
            given = _given(row)
            filled = None
            if row.get("pin"):
                filled = fill_from_list(given, check_pin(row["pin"]), ratings, force)
                given = filled.values
            if not str(given["rank"]).strip():
                raise CommandRejected(say("a row needs a rank, or an EGD PIN of the rating list"))
            if not given["surname"]:
                raise CommandRejected(say("a row needs a surname (or name), or an EGD PIN of the rating list"))
            country = str(given["country"]).strip().upper()
            if country and not (len(country) == 2 and country.isascii() and country.isalpha()):
                raise CommandRejected(say("country %(country)r must be a two-letter code such as FR",
                                          country=country[:20]))
            check_names(surname=given["surname"], first_name=given["first_name"], club=given["club"],
                        grade=given["grade"])
            pin = (filled.listed.pin if filled is not None and filled.listed is not None
                   else str(row.get("pin", "")).strip())
            prepared.append((line, {**given, "rank": parse_rank(given["rank"]), "country": country, "egd_pin": pin},
                             filled))
        except CommandRejected as exc:
            prepared.append((line, exc.message, None))
    return prepared


def decide_rows(state: TournamentState, prepared: list[Prepared], preliminary: bool = False, force: bool = False
                ) -> tuple[list[ev.Event], list[RowDecision]]:
    """Each prepared row's ``PlayerRegistered`` (:func:`goledger.commands.players.decide_register`),
    decided against the tournament and the rows before it, with every row's decision. The
    players are looked up in one :class:`~goledger.commands.players.Registered`, added to row by
    row: linear in the rows and players (3,000 rows had each scanned every player before it)."""
    from goledger.commands.players import Registered, decide_register, register_message
    from goledger.replay.fold.state import apply, fold

    running = fold([], start=state)
    registered = Registered(running.players.values())
    events: list[ev.Event] = []
    decisions: list[RowDecision] = []
    for line, values, filled in prepared:
        if isinstance(values, str):
            decisions.append(RowDecision(line=line, decision="refused", message=values))
            continue
        try:
            made = decide_register(
                running, surname=values["surname"], first_name=values["first_name"], rank=values["rank"],
                grade=values["grade"], rating=values["rating"], country=values["country"], club=values["club"],
                egd_pin=values["egd_pin"], preliminary=preliminary, force=force,
                provenance=filled.provenance if filled else None, registered=registered)
            message = register_message(running, made, filled.note if filled else "", registered)
        except CommandRejected as exc:
            decisions.append(RowDecision(line=line, decision="refused", message=exc.message))
            continue
        for e in made:
            apply(running, e)
        events.extend(made)
        pid = made[0].player_id if isinstance(made[0], ev.PlayerRegistered) else ""
        if pid in running.players:
            registered.add(running.players[pid])
        decisions.append(RowDecision(line=line, decision="registered", message=message, player_id=pid))
    return events, decisions


def _refuse(decisions: list[RowDecision]) -> None:
    """All or nothing: one refused row refuses the file, with every row's decision."""
    refused = [d for d in decisions if d.decision == "refused"]
    if refused:
        rows_out = [d if d.decision == "refused" else RowDecision(
            line=d.line, decision="would register", message=d.message, player_id=d.player_id)
            for d in decisions]
        lines = ", ".join(str(d.line) for d in refused)
        raise BulkRejected(nsay("%(n)d of %(rows)d rows refused (line %(lines)s); nothing was written",
                                "%(n)d of %(rows)d rows refused (lines %(lines)s); nothing was written",
                                len(refused), n=len(refused), rows=len(decisions), lines=lines),
                           BulkReport(written=False, rows=rows_out))


def decide_register_from_file(state: TournamentState, prepared: list[Prepared], preliminary: bool = False,
                              force: bool = False) -> list[ev.Event]:
    """Every row's ``PlayerRegistered`` (:func:`decide_rows`), or :class:`BulkRejected` when a
    row is refused."""
    events, decisions = decide_rows(state, prepared, preliminary, force)
    _refuse(decisions)
    return events


def register_from_file(db: PathLike, file: PathLike, ratings: PathLike | None = None, force: bool = False,
                       preliminary: bool = False, *, actor: str = "", reason: str = "",
                       expected_head: int | None = None) -> BulkReport:
    """Register every row of ``file`` or none (module docstring); raises :class:`BulkRejected`
    (with the report) when a row is refused.

    The rows are decided before the write lock is taken, against the ledger as it is then
    (a refused file never takes it); under the lock, when no event was recorded meanwhile,
    the events decided are appended as they are, so the lock is held only to append (else the
    rows are decided again against the new state, as any command would be)."""
    from goledger.commands.recording import record
    from goledger.ledger.store import Ledger
    from goledger.replay.loading.load import load_state

    prepared = _prepare(_rows(file), ratings, force)
    with Ledger.open(db) as ledger:
        seen = load_state(ledger)
    if seen.settings is None:
        raise CommandRejected(say("%(db)s has no tournament (its log has no TournamentCreated event)", db=str(db)))
    early, decisions = decide_rows(seen, prepared, preliminary, force)
    _refuse(decisions)

    def decide(state: TournamentState) -> list[ev.Event]:
        if state.seq == seen.seq:
            return early
        events, decided = decide_rows(state, prepared, preliminary, force)
        decisions[:] = decided
        _refuse(decided)
        return events

    outcome = record(db, decide, lambda state, events: nsay("registered %(n)d player from %(file)s",
                                                                 "registered %(n)d players from %(file)s", len(events),
                                                                 n=len(events), file=Path(file).name),
                     actor=actor, reason=reason, expected_head=expected_head)
    return BulkReport(written=True, rows=list(decisions), seqs=outcome.seqs)
