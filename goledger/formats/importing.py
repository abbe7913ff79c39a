"""Turning a reader's events into a new ledger file — all or nothing.

Every importer ends here. The ledger is written to a hidden partial file next to the target
in one transaction and linked into place only when complete
(:meth:`~goledger.ledger.store.Ledger.create_complete`), so a refused, failed or killed
import never leaves a ledger (or half of one) behind; the partial file a killed import
leaves is removed by the next import to the same target.

Refusal rules: an import whose report has **errors** (an item the reader could not record)
is refused unless ``allow_errors``; with ``strict`` any **warning** refuses it too. The
report is returned (or attached to the raised error) either way.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol

import msgspec

from goledger.commands.checks import refusal
from goledger.errors import FormatError, GoledgerError
from goledger.formats.places import compare_places
from goledger.formats.report import InterchangeReport
from goledger.i18n import N_
from goledger.i18n.messages import nsay, say, say_at, word
from goledger.ledger.domains import event_problem
from goledger.ledger.store import Ledger, Record
from goledger.outputs import check_output, write_output

if TYPE_CHECKING:
    from goledger.ledger.events import Event

__all__ = [
    "ImportOutcome",
    "ImportRefused",
    "check_domains",
    "default_ledger_path",
    "import_file",
    "read_input",
    "write_new_ledger",
    "write_report",
]

PathLike = str | os.PathLike[str]


class ReadResult(Protocol):
    """What a format's reader gives back: the events of a new ledger and the import report."""

    @property
    def events(self) -> Sequence[Event]: ...

    @property
    def report(self) -> InterchangeReport: ...

    @property
    def places(self) -> Mapping[str, int]:
        """Player id → the place the file states (empty when it states none)."""
        ...


Reader = Callable[[bytes, str], ReadResult]
"""A format's reader: the file's bytes and its name in, a :class:`ReadResult` out; raises
:class:`~goledger.errors.FormatError` when the bytes are not that format at all."""


_KINDS: Final = {
    "players": N_("%(n)d players"), "games": N_("%(n)d games"), "results": N_("%(n)d results"),
    "byes": N_("%(n)d byes"), "absences": N_("%(n)d absences"), "teams": N_("%(n)d teams"),
    "countries": N_("%(n)d countries"), "events": N_("%(n)d events"), "free rounds": N_("%(n)d free rounds"),
    "unwanted pairings": N_("%(n)d unwanted pairings"),
}
"""The kinds of items an import counts, as catalog messages (the numbers come first in every
language; English keeps ``1 games`` as the command line always wrote it)."""

FILE_KINDS: Final = (N_("OpenGotha files"), N_("XML files"), N_("TRF files"), N_("EGD tables"),
                     N_("AGA rating reports"), N_("FFG .tou files"), N_("participant lists"))
"""The kinds of input file the readers name in :func:`read_input`'s size refusal, as words of
the catalogs (the refusal translates its ``kind``)."""


class ImportOutcome(msgspec.Struct, kw_only=True):
    """A finished import: where the ledger is, how many events it holds, and the report."""

    db: str
    events: int
    report: InterchangeReport

    @property
    def message(self) -> str:
        """One line: every kind of item recorded, with its count (:meth:`InterchangeReport.summary`),
        in the language in force (a desk page's: each kind is a catalog message, :data:`_KINDS`)."""
        counts = self.report.counts
        held = [say(_KINDS[kind], n=c["recorded"]) if kind in _KINDS else f"{c['recorded']} {kind}"
                for kind, c in ((k, counts[k]) for k in self.report.summary_order()) if c["recorded"]]
        return say("imported %(source)s into %(db)s: %(held)s (%(events)s)", source=self.report.source, db=self.db,
                   held=", ".join(held) if held else say("parameters only"),
                   events=say("%(n)d events", n=self.events))


class ImportRefused(FormatError):
    """An import refused because of its report; ``report`` holds every reason."""

    def __init__(self, message: str, report: InterchangeReport) -> None:
        super().__init__(message)
        self.report = report


def write_report(report: InterchangeReport, path: PathLike | None, *, protect: Sequence[PathLike] = (),
                 force: bool = False) -> None:
    """Write ``report`` as JSON to ``path`` (nothing when ``path`` is None), never over a file
    of ``protect`` (a ledger, its companions, the input) and over an existing file only with
    ``force`` (:func:`goledger.outputs.write_output`)."""
    if path is not None:
        try:
            write_output(report.to_json() + b"\n", path, protect, force=force, what="report")
        except FormatError:
            raise
        except GoledgerError as exc:
            raise FormatError(exc.message) from None


def read_input(file: PathLike, *, max_bytes: int, kind: str, folder_hint: str = "") -> bytes:
    """The bytes of an input file, or a :class:`FormatError` that names why they cannot be
    read: missing, a folder (``folder_hint`` is appended to that message), unreadable, or
    larger than ``max_bytes`` (checked before reading; ``kind`` names the format in that
    message, e.g. "OpenGotha files")."""
    source = Path(file)
    try:
        size = source.stat().st_size
        if source.is_dir():
            raise IsADirectoryError
        if size > max_bytes:
            raise FormatError(say("%(file)s is %(size)s MB, larger than the %(limit)d MB limit for %(kind)s",
                                  file=str(source), size=format(size / (1024 * 1024), ".0f"),
                                  limit=max_bytes // (1024 * 1024), kind=word(kind)))
        return source.read_bytes()
    except FileNotFoundError:
        raise FormatError(say("no such file: %(file)s", file=str(source))) from None
    except IsADirectoryError:
        raise FormatError(say("%(file)s is a folder, not a file%(hint)s", file=str(source), hint=folder_hint)) from None
    except OSError as exc:
        raise FormatError(say("cannot read %(file)s: %(error)s", file=str(source), error=str(exc.strerror))) from None


def import_file(
    file: PathLike,
    db: PathLike | None,
    report: PathLike | None,
    *,
    format: str,  # noqa: A002 - the format's name, as in the report
    read: Reader,
    max_bytes: int,
    kind: str,
    folder_hint: str = "",
    strict: bool = False,
    allow_errors: bool = False,
    actor: str = "import",
    reason: str = "",
    force: bool = False,
    report_refusals: bool = False,
) -> ImportOutcome:
    """Read ``file`` with ``read`` and create the new ledger ``db`` (default
    ``<file stem>.db``) from its events, all or nothing (see the module's refusal rules).

    ``report``, when given, receives the import report as JSON when the ledger is written.
    A refused import writes nothing, not even the report (issue 40, item 6: a retry with the
    same ``--report`` must not find it taken; the CLI prints a refusal's report on stderr),
    unless ``report_refusals`` (a folder migration keeps each file's reason beside it). The
    report may not be the ledger, the input or an existing file (unless ``force``): checked
    before anything is read or written.
    """
    source = Path(file)
    target = Path(db) if db is not None else default_ledger_path(source)
    protect = [target, source]
    if report is not None:  # the report may be neither the ledger nor the input, nor replace a file
        try:
            check_output(report, protect, force=force, what="report")
        except GoledgerError as exc:
            raise FormatError(exc.message) from None
    try:
        result = read(read_input(source, max_bytes=max_bytes, kind=kind, folder_hint=folder_hint), str(source))
    except FormatError as exc:
        refused = InterchangeReport(format=format, source=str(source))
        refused.error("refused", exc.message)
        if report_refusals:
            write_report(refused, report, protect=protect, force=force)
        raise
    import_report = result.report

    compare_places(result.events, result.places, import_report)
    try:
        records = write_new_ledger(result.events, target, import_report, strict=strict, allow_errors=allow_errors,
                                   actor=actor, reason=reason or f"import {format} {source.name}")
    except GoledgerError:
        if report_refusals:
            write_report(import_report, report, protect=protect, force=force)
        raise
    write_report(import_report, report, protect=protect, force=force)
    return ImportOutcome(db=str(target), events=len(records), report=import_report)


def default_ledger_path(source: str | os.PathLike[str]) -> Path:
    """Where an import writes when no ``--db`` is given: ``<source stem>.db`` in the current folder."""
    return Path(Path(source).stem + ".db")


def check_report(report: InterchangeReport, *, strict: bool, allow_errors: bool) -> None:
    """Raise :class:`ImportRefused` when the report forbids writing the ledger."""
    errors, warnings = report.errors, report.warnings
    if errors and not allow_errors:
        first = errors[0]
        what = (say("%(problem)s at %(where)s", problem=first.message, where=first.where) if first.where
                else first.message)
        raise ImportRefused(nsay("%(source)s: %(n)d item could not be imported (first: %(first)s); nothing was written",
                                 "%(source)s: %(n)d items could not be imported (first: %(first)s); nothing was "
                                 "written", len(errors), source=report.source, n=len(errors), first=what), report)
    if strict and (warnings or errors):
        first = (warnings or errors)[0]
        what = (say("%(problem)s at %(where)s", problem=first.message, where=first.where) if first.where
                else first.message)
        raise ImportRefused(nsay("%(source)s: refused by --strict: %(n)d warning (first: %(first)s); nothing was "
                                 "written",
                                 "%(source)s: refused by --strict: %(n)d warnings (first: %(first)s); nothing was "
                                 "written", len(warnings), source=report.source, n=len(warnings), first=what), report)


def check_domains(events: Sequence[Event], report: InterchangeReport) -> None:
    """Refuse (:class:`ImportRefused`) events outside their declared domains: a name with a
    control character, a rank that is not one, a number beyond SQLite's range… Each such event
    gets an ``error`` entry (kind ``domain``) naming it; nothing outside the domains is ever
    appended, not even with ``--allow-errors`` (issue 18, points 1 and 6)."""

    bad = 0
    first = ""
    for index, event in enumerate(events, start=1):
        problem = event_problem(event)
        if problem:
            bad += 1
            first = first or refusal(problem).args[0]
            report.error("domain", f"{problem}; the file cannot be imported with it", f"event {index} "
                         f"({event.type_name()})")
    if bad:
        raise ImportRefused(nsay("%(source)s: %(n)d item is outside what a ledger may hold (first: %(first)s); "
                                 "nothing was written",
                                 "%(source)s: %(n)d items are outside what a ledger may hold (first: %(first)s); "
                                 "nothing was written", bad, source=report.source, n=bad, first=first), report)


def write_new_ledger(
    events: Sequence[Event],
    db: str | os.PathLike[str],
    report: InterchangeReport,
    *,
    strict: bool = False,
    allow_errors: bool = False,
    actor: str = "import",
    reason: str = "",
) -> list[Record]:
    """Create ``db`` holding ``events`` (one transaction, atomic rename), honouring the report.
    Events outside their declared domains (:mod:`goledger.ledger.domains`) are refused
    whatever ``allow_errors`` says: each gets an error entry in the report."""
    check_domains(events, report)
    check_report(report, strict=strict, allow_errors=allow_errors)
    target = Path(db)
    if target.exists():
        raise FormatError(say_at("%(target)s already exists; import into a new ledger file (choose another --db)",
                                 N_("%(target)s already exists; import into a new ledger file"), target=str(target)))
    if not target.parent.exists():
        raise FormatError(say("cannot write %(target)s: folder %(folder)s does not exist", target=str(target),
                              folder=str(target.parent)))
    return Ledger.create_complete(target, events, actor=actor,
                                  reason=reason or f"import {report.format} {report.source}")
