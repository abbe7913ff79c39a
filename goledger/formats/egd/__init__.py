"""The EGD result format: library functions behind ``goledger export|validate|import egd``.

* :func:`export_egd` — a ledger's results as an EGD table (``goledger export egd``);
* :func:`validate_egd` — every rule of the format checked, problem by problem, with line
  numbers (``goledger validate egd``);
* :func:`import_egd` — a new ledger rebuilt from an EGD table (``goledger import egd``).

The parts live in small modules: :mod:`~goledger.formats.egd.syntax` (lines, tags, cells),
:mod:`~goledger.formats.egd.validate`, :mod:`~goledger.formats.egd.read`,
:mod:`~goledger.formats.egd.write` and :mod:`~goledger.rating.classes` (EGF class).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Literal

from goledger.errors import CommandRejected
from goledger.formats.exporting import ExportOutcome, finish_export
from goledger.formats.importing import ImportOutcome, import_file, read_input
from goledger.ledger.store import Ledger

if TYPE_CHECKING:
    from goledger.formats.egd.check import EgdCheck
    from goledger.formats.egd.validate import ValidationResult

ForfeitMode = Literal["free", "marked"]

__all__ = ["ExportOutcome", "ImportOutcome", "egd_check", "export_egd", "import_egd", "validate_egd"]

PathLike = str | os.PathLike[str]

MAX_EGD_BYTES = 16 * 1024 * 1024
"""EGD tables are small (EGC 2011: 114 KB); anything far larger is not one."""
FILE_KIND = "EGD tables"


def export_egd(
    db: PathLike,
    output: PathLike | None = None,
    round: int | None = None,  # noqa: A002 - the CLI option is --round
    encoding: str = "utf-8",
    forfeits: ForfeitMode = "free",
    egd_class: str | None = None,
    country: str | None = None,
    report: PathLike | None = None,
    with_preview: bool = False,
    force: bool = False,
    *,
    check: bool = False,
    ratings: PathLike | None = None,
) -> ExportOutcome:
    """Write the ledger ``db`` as an EGD table (to ``output`` if given) and its export report
    (as JSON to ``report`` if given). See :mod:`goledger.formats.egd.write` for the rules.
    ``with_preview`` adds each player's expected rating change to the report
    (:func:`goledger.formats.egd.preview.add_rating_preview`). ``check`` adds a warning for each
    finding of :func:`egd_check` against the EGD list of the ratings store ``ratings``: what the
    EGD will reject, the file written all the same."""
    # a format's facade loads only the half (read, write, validate) a function runs
    from goledger.formats.egd.write import write_egd
    from goledger.replay.loading.load import fresh_state

    with Ledger.open(db) as ledger:
        state = fresh_state(ledger)  # sent to the rating list: from the log, never from a cache
    if state.settings is not None and state.settings.system in ("pairgo", "rengo2", "rengo3"):
        raise CommandRejected(f"the EGD rates no {state.settings.system} games: a game of two units is not one "
                              "player's game, so a Pair Go or Rengo tournament is not exported to the EGD")
    data, export_report = write_egd(state, round, encoding, forfeits, egd_class, country, source=str(db))
    if with_preview:
        from goledger.formats.egd.preview import add_rating_preview

        add_rating_preview(export_report, state, egd_class)
    if check:  # what the EGD will reject, said in the report; nothing is refused
        from goledger.formats.egd.check import check_tournament
        from goledger.ratings.store import RatingsStore

        with RatingsStore(ratings) as store:
            for finding in check_tournament(state, store).findings:
                export_report.warning("egd-check", finding.line(), finding.player_id)
    return finish_export(data, export_report, output, report, db=db, force=force)


def validate_egd(file: PathLike) -> ValidationResult:
    """Check an EGD table against every rule of the format (see
    :mod:`goledger.formats.egd.validate` for the rules and problem codes)."""
    from goledger.formats.egd.syntax import decode_egd, parse_table
    from goledger.formats.egd.validate import validate_table

    text, encoding, _bom = decode_egd(read_input(file, max_bytes=MAX_EGD_BYTES, kind=FILE_KIND))
    return validate_table(parse_table(text, str(file), encoding))


def import_egd(
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
    """Create a new ledger (default ``<file stem>.db``) from an EGD table, all or nothing.

    The import report goes to ``report`` (JSON) when given, whether the import succeeds or
    is refused (an error in the report refuses it unless ``allow_errors``; with ``strict`` a
    warning too)."""
    from goledger.formats.egd.read import read_egd

    return import_file(file, db, report, format="egd", read=read_egd, max_bytes=MAX_EGD_BYTES, kind=FILE_KIND,
                       strict=strict, allow_errors=allow_errors, actor=actor, reason=reason, force=force)


def egd_check(db: PathLike, ratings: PathLike | None = None) -> EgdCheck:
    """Every player of the ledger ``db`` checked against the EGD list of the ratings store
    ``ratings`` (default: the user's), and the tournament's class against its time settings
    (:mod:`goledger.formats.egd.check`): one finding per thing the EGD would reject."""
    from goledger.formats.egd.check import check_tournament
    from goledger.ratings.store import RatingsStore
    from goledger.replay.loading.load import fresh_state

    with Ledger.open(db) as ledger:
        state = fresh_state(ledger)
    with RatingsStore(ratings) as store:
        return check_tournament(state, store)
