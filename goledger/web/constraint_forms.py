"""The constraints page's forms (issue 43, item 4; :mod:`goledger.web.constraints_page`): the
runners of ``POST /desk/do/forbid``, ``fix-pairing`` and ``fix-table``
(:mod:`goledger.web.actions`), each the library function of the CLI command of that name
(:mod:`goledger.commands.constraints`) with the form decoded as its type
(:mod:`goledger.web.form_types`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from goledger.web.form_types import FixPairing, FixTable, Forbid, arguments, decode
from goledger.web.forms import Form

__all__ = ["fix_pairing_action", "fix_table_action", "forbid_action"]


def forbid_action(db: Path, form: Form, **kw: Any) -> Any:
    """``forbid A B [--from-round F] [--until-round U] [--unwanted] [--lift]``: ``kind`` is
    ``forbidden`` or ``unwanted``; ``lift`` lifts the pair's constraint."""
    from goledger.commands.constraints import forbid

    fields = decode(form, Forbid)
    return forbid(db, **arguments(fields, without=("kind",)), unwanted=fields.kind == "unwanted", **kw)


def fix_pairing_action(db: Path, form: Form, **kw: Any) -> Any:
    """``fix-pairing A B --round R [--table T] [--lift]``."""
    from goledger.commands.constraints import fix_pairing

    return fix_pairing(db, **arguments(decode(form, FixPairing)), **kw)


def fix_table_action(db: Path, form: Form, **kw: Any) -> Any:
    """``fix-table P T [--from-round F]``; an empty table (or ``lift``) frees the player."""
    from goledger.commands.constraints import fix_table

    fields = decode(form, FixTable)
    return fix_table(db, **arguments(fields, without=("lift", "table")), table=None if fields.lift else fields.table,
                     **kw)
