"""What every exporter returns, and how it writes its file.

An export never leaves half a file behind: the bytes go to a hidden temporary file next to
the target, created exclusively under an unpredictable name and renamed into place once
complete (a rename is atomic on one file system), so a reader of the target sees the old
file or the new one, never a mixture. It never writes over the ledger it reads (or its
``-wal``/``-shm``), whether named directly or through a link, and replaces an existing file
only with ``force`` (:mod:`goledger.outputs`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from goledger.errors import FormatError, GoledgerError
from goledger.formats.importing import write_report
from goledger.formats.report import InterchangeReport
from goledger.outputs import check_output, write_output

if TYPE_CHECKING:
    from collections.abc import Sequence

    from goledger.replay.fold.state import TournamentState

__all__ = ["ExportOutcome", "finish_export", "report_players_paired_twice", "state_to_export", "write_atomically"]

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
    # the read views load late: only an export reads a ledger
    from goledger.replay.views import state_as_of

    state = state_as_of(db, as_of)
    if state.settings is None:
        raise FormatError(f"{db} has no tournament to export (its log has no TournamentCreated event)")
    return state


def write_atomically(data: bytes, output: PathLike, *, protect: Sequence[PathLike] = (), force: bool = False) -> None:
    """Write ``data`` to ``output`` without clobbering (:func:`goledger.outputs.write_output`:
    ``protect`` — the ledger and its companions — refused, an existing file replaced only with
    ``force``, exclusive unpredictable temporary file renamed into place); a
    :class:`FormatError` names the problem when the target cannot be written."""

    try:
        write_output(data, output, protect, force=force, what="export")
    except FormatError:
        raise
    except GoledgerError as exc:
        raise FormatError(exc.message) from None


def report_players_paired_twice(state: TournamentState, report: InterchangeReport, format_name: str) -> None:
    """Warn of each player who has more than one game in a round: the file goes out as the
    ledger holds it, but a MacMahon file, an EGD table and a TRF keep one game per player and
    round, so reading it back names the others as errors. (OpenGotha itself wrote such
    tournaments: 3 of the 775 files uploaded to its site in 2020–21 pair a player two to five
    times in one round; goledger imports them with a warning each, as the file holds them.)

    >>> from goledger.ledger import events as ev
    >>> from goledger.replay.fold.state import fold
    >>> state = fold([ev.TournamentCreated(settings=ev.TournamentSettings(name="T", rounds=1)),
    ...               *(ev.PlayerRegistered(player_id=f"p000{i}", surname=n, first_name="", rank="1d")
    ...                 for i, n in ((1, "A"), (2, "B"), (3, "C"))),
    ...               ev.GamePaired(round=1, table=1, white="p0001", black="p0002"),
    ...               ev.GamePaired(round=1, table=2, white="p0001", black="p0003")])
    >>> report = InterchangeReport(format="trf", source="", direction="export")
    >>> report_players_paired_twice(state, report, "a TRF")
    >>> print(report.warnings[0].message.split("; ")[0])
    p0001 A plays 2 games in round 1 (tables 1, 2)
    """
    for round_ in sorted(state.games):
        tables: dict[str, list[int]] = {}
        for game in state.games_of_round(round_):
            for pid in (game.white, game.black):
                tables.setdefault(pid, []).append(game.table)
        for pid, held in tables.items():
            if len(held) > 1:
                player = state.players.get(pid)
                name = f"{pid} {player.full_name}" if player is not None else pid
                report.warning("round-trip", f"{name} plays {len(held)} games in round {round_} (tables "
                               f"{', '.join(map(str, held))}); {format_name} keeps one game per player and round, "
                               "so reading this file back names the others as errors", f"round {round_}")


def finish_export(
    data: bytes, report: InterchangeReport, output: PathLike | None, report_path: PathLike | None = None,
    *, db: PathLike | None = None, force: bool = False,
) -> ExportOutcome:
    """Write ``data`` to ``output`` (when given) and ``report`` as JSON to ``report_path``
    (when given), and return the outcome. Neither may be the ledger ``db`` (or its
    companions) or each other; an existing file is replaced only with ``force``."""
    protect: list[PathLike] = [db] if db is not None else []
    if output is not None and report_path is not None and Path(output) == Path(report_path):
        raise FormatError(f"the export and its report cannot both be written to {output}")
    if report_path is not None:  # refuse a bad report path before writing anything
        try:
            check_output(report_path, protect, force=force, what="report")
        except GoledgerError as exc:
            raise FormatError(exc.message) from None
    if output is not None:
        write_atomically(data, output, protect=protect, force=force)
    write_report(report, report_path, protect=protect, force=force)
    return ExportOutcome(data=data, output=None if output is None else str(output), report=report)
