"""The FFG results file (``.tou``): library functions behind ``goledger import|export|validate ffg``.

* :func:`import_ffg` — a new ledger from a ``.tou`` file, ordered on the file's places
  (:mod:`goledger.formats.ffg.read`);
* :func:`export_ffg` — the ledger's final standings as a ``.tou`` file
  (:mod:`goledger.formats.ffg.write`);
* :func:`validate_ffg` — a ``.tou`` file checked line by line
  (:mod:`goledger.formats.ffg.validate`).

The format is described in docs/formats/ffg-tou.md.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from goledger.formats.exporting import ExportOutcome, finish_export
from goledger.formats.importing import ImportOutcome, import_file, read_input
from goledger.ledger.store import Ledger

if TYPE_CHECKING:
    from goledger.formats.ffg.validate import TouValidation

__all__ = ["export_ffg", "import_ffg", "validate_ffg"]

PathLike = str | os.PathLike[str]

MAX_TOU_BYTES = 4 * 1024 * 1024
"""A .tou line is about 100 bytes a player: a few MB is far beyond any real file."""
FILE_KIND = "FFG .tou files"


def import_ffg(
    file: PathLike,
    db: PathLike | None = None,
    report: PathLike | None = None,
    strict: bool = False,
    allow_errors: bool = False,
    *,
    actor: str = "import",
    reason: str = "",
    force: bool = False,
) -> ImportOutcome:
    """Create a new ledger (default ``<file stem>.db``) from a ``.tou`` file, all or nothing;
    the import report goes to ``report`` (JSON) when given."""
    # a format's facade loads only the half (read, write, validate) a function runs
    from goledger.formats.ffg.read import read_tou

    return import_file(file, db, report, format="ffg", read=read_tou, max_bytes=MAX_TOU_BYTES, kind=FILE_KIND,
                       strict=strict, allow_errors=allow_errors, actor=actor, reason=reason, force=force)


def export_ffg(
    db: PathLike,
    output: PathLike | None = None,
    round: int | None = None,  # noqa: A002 - the CLI option is --round
    report: PathLike | None = None,
    force: bool = False,
) -> ExportOutcome:
    """Write the ledger ``db`` as a ``.tou`` file (to ``output`` if given): the standings
    after ``round`` (default: the last round with a game) under the tournament's criteria."""
    from goledger.formats.ffg.write import write_tou
    from goledger.replay.loading.load import fresh_state

    with Ledger.open(db) as ledger:
        state = fresh_state(ledger)  # sent to the federation: from the log, never from a cache
    data, export_report = write_tou(state, round, source=str(db))
    return finish_export(data, export_report, output, report, db=db, force=force)


def validate_ffg(file: PathLike) -> TouValidation:
    """Check a ``.tou`` file (:mod:`goledger.formats.ffg.validate`)."""
    from goledger.formats.ffg.validate import validate_tou

    return validate_tou(read_input(file, max_bytes=MAX_TOU_BYTES, kind=FILE_KIND), str(file))
