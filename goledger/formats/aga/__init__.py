"""The AGA rating report (``TOURNEY`` / ``PLAYERS`` / ``GAMES``): library functions behind
``goledger export aga`` and ``goledger validate aga`` (docs/formats/aga.md).

* :func:`export_aga` — the ledger's rated games as the plain-text report the American Go
  Association's ratings take (:mod:`goledger.formats.aga.write`);
* :func:`validate_aga` — such a report checked line by line (:mod:`goledger.formats.aga.validate`).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from goledger.formats.exporting import ExportOutcome, finish_export
from goledger.formats.importing import read_input
from goledger.ledger.store import Ledger

if TYPE_CHECKING:
    from goledger.formats.aga.validate import AgaValidation

__all__ = ["export_aga", "validate_aga"]

PathLike = str | os.PathLike[str]

MAX_AGA_BYTES = 4 * 1024 * 1024
FILE_KIND = "AGA rating reports"


def export_aga(db: PathLike, output: PathLike | None = None, rules: str = "AGA", report: PathLike | None = None,
               force: bool = False) -> ExportOutcome:
    """Write the ledger ``db`` as an AGA rating report (to ``output`` if given); ``rules``
    names the rules of play (``AGA``, ``Japanese``, ``Ing``…)."""
    # a format's facade loads only the half (read, write, validate) a function runs
    from goledger.formats.aga.write import write_aga
    from goledger.replay.loading.load import fresh_state

    with Ledger.open(db) as ledger:
        state = fresh_state(ledger)
    data, export_report = write_aga(state, rules, source=str(db))
    return finish_export(data, export_report, output, report, db=db, force=force)


def validate_aga(file: PathLike) -> AgaValidation:
    """Check an AGA rating report (:mod:`goledger.formats.aga.validate`)."""
    from goledger.formats.aga.validate import validate_aga_report

    return validate_aga_report(read_input(file, max_bytes=MAX_AGA_BYTES, kind=FILE_KIND), str(file))
