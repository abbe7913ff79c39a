"""What every exporter returns, and how it writes its file.

An export never leaves half a file behind: the bytes go to a hidden temporary file next to
the target, which is renamed into place once complete (a rename is atomic on one file
system), so a reader of the target sees the old file or the new one, never a mixture.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from goledger.errors import FormatError
from goledger.formats.importing import write_report
from goledger.formats.report import InterchangeReport

if TYPE_CHECKING:
    from goledger.replay.state import TournamentState

__all__ = ["ExportOutcome", "finish_export", "state_to_export", "write_atomically"]

PathLike = str | os.PathLike[str]


class ExportOutcome(msgspec.Struct, kw_only=True):
    """A finished export: the bytes (also written to ``output`` when given) and the report."""

    data: bytes
    output: str | None
    report: InterchangeReport

    @property
    def message(self) -> str:
        """One line: what was written where, e.g. ``wrote t.xml (12,345 bytes; 40 players, 90 games)``."""
        counts = self.report.summary()
        where = self.output or "standard output"
        return f"wrote {where} ({len(self.data):,} bytes{'; ' + counts if counts else ''})"


def state_to_export(db: PathLike, as_of: int | None = None) -> TournamentState:
    """The tournament state of ``db`` after event ``as_of`` (default: the head); a ledger
    whose log holds no tournament yet is refused with a :class:`FormatError`."""
    from goledger.replay.views import state_as_of

    state = state_as_of(db, as_of)
    if state.settings is None:
        raise FormatError(f"{db} has no tournament to export (its log has no TournamentCreated event)")
    return state


def write_atomically(data: bytes, output: PathLike) -> None:
    """Write ``data`` to ``output`` through a temporary file renamed into place; a
    :class:`FormatError` names the problem when the target cannot be written."""
    target = Path(output)
    if not target.parent.is_dir():
        raise FormatError(f"cannot write {target}: folder {target.parent} does not exist")
    temp = target.with_name(f".{target.name}.writing-{os.getpid()}")
    try:
        temp.write_bytes(data)
        os.replace(temp, target)
    except OSError as exc:
        raise FormatError(f"cannot write {target}: {exc.strerror}") from None
    finally:
        temp.unlink(missing_ok=True)


def finish_export(
    data: bytes, report: InterchangeReport, output: PathLike | None, report_path: PathLike | None = None
) -> ExportOutcome:
    """Write ``data`` to ``output`` (when given) and ``report`` as JSON to ``report_path``
    (when given), and return the outcome."""
    if output is not None:
        write_atomically(data, output)
    write_report(report, report_path)
    return ExportOutcome(data=data, output=None if output is None else str(output), report=report)
