"""MacMahon interchange: the library functions behind ``goledger import macmahon``,
``goledger export macmahon`` and ``goledger import macmahon-players``
(spec ``formats/macmahon.md``).

* :func:`import_macmahon` — a MacMahon 3.x XML file → a new ledger, atomically, with a report
  (the ledger's default policy is ``macmahon`` with the file's own walllist criteria);
* :func:`export_macmahon` — a ledger → a MacMahon 3.10 XML file, with a report;
* :func:`import_macmahon_players` — MacMahon's plain participant list → registrations
  appended to an existing ledger (see :mod:`goledger.formats.macmahon.players`).
"""

from __future__ import annotations

import os

from goledger.formats.exporting import ExportOutcome, finish_export, state_to_export
from goledger.formats.importing import ImportOutcome, import_file
from goledger.formats.xmlsafe import MAX_XML_BYTES

__all__ = ["ExportOutcome", "ImportOutcome", "export_macmahon", "import_macmahon"]

PathLike = str | os.PathLike[str]


def import_macmahon(
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
    """Create a new ledger from a MacMahon XML file, in one transaction.

    ``db`` defaults to ``<file stem>.db`` in the current folder. ``report``, when given,
    receives the import report as JSON when the ledger is written (not on a refusal). With ``strict``
    any warning refuses the import; unless ``allow_errors``, any error (an unknown
    participant Id, a participant without level…) refuses it. Nothing is written then.
    """
    # a format's facade loads only the half (read, write) a function runs
    from goledger.formats.macmahon.read import read_macmahon

    return import_file(file, db, report, format="macmahon", read=lambda data, name: read_macmahon(data, source=name),
                       max_bytes=MAX_XML_BYTES, kind="XML files", strict=strict, allow_errors=allow_errors,
                       actor=actor, reason=reason, force=force)


def export_macmahon(
    db: PathLike,
    output: PathLike | None = None,
    report: PathLike | None = None,
    as_of: int | None = None,
    force: bool = False,
) -> ExportOutcome:
    """Write the ledger (as of event ``as_of``) as a MacMahon 3.10 XML file.

    Returns the bytes; writes them to ``output`` when given (atomically: a temporary file
    renamed into place). ``report`` receives the export report as JSON.
    """
    from goledger.formats.macmahon.write import write_macmahon

    data, rep = write_macmahon(state_to_export(db, as_of), source=str(db))
    return finish_export(data, rep, output, report, db=db, force=force)
