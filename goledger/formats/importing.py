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
from collections.abc import Sequence
from pathlib import Path

from goledger.errors import FormatError
from goledger.formats.report import InterchangeReport
from goledger.ledger.events import Event
from goledger.ledger.store import Ledger, Record

__all__ = ["ImportRefused", "default_ledger_path", "write_new_ledger"]


class ImportRefused(FormatError):
    """An import refused because of its report; ``report`` holds every reason."""

    def __init__(self, message: str, report: InterchangeReport) -> None:
        super().__init__(message)
        self.report = report


def default_ledger_path(source: str | os.PathLike[str]) -> Path:
    """Where an import writes when no ``--db`` is given: ``<source stem>.db`` in the current folder."""
    return Path(Path(source).stem + ".db")


def check_report(report: InterchangeReport, *, strict: bool, allow_errors: bool) -> None:
    """Raise :class:`ImportRefused` when the report forbids writing the ledger."""
    errors, warnings = report.errors, report.warnings
    if errors and not allow_errors:
        first = errors[0]
        raise ImportRefused(
            f"{report.source}: {len(errors)} item(s) could not be imported (first: {first.message}"
            f"{' at ' + first.where if first.where else ''}); nothing was written",
            report,
        )
    if strict and (warnings or errors):
        first = (warnings or errors)[0]
        raise ImportRefused(
            f"{report.source}: refused by --strict: {len(warnings)} warning(s) (first: {first.message}"
            f"{' at ' + first.where if first.where else ''}); nothing was written",
            report,
        )


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
    """Create ``db`` holding ``events`` (one transaction, atomic rename), honouring the report."""
    check_report(report, strict=strict, allow_errors=allow_errors)
    target = Path(db)
    if target.exists():
        raise FormatError(f"{target} already exists; import into a new ledger file (choose another --db)")
    if not target.parent.exists():
        raise FormatError(f"cannot write {target}: folder {target.parent} does not exist")
    return Ledger.create_complete(target, events, actor=actor,
                                  reason=reason or f"import {report.format} {report.source}")
