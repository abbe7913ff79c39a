"""The constraints page's forms (issue 43, item 4; :mod:`goledger.web.constraints_page`): the
runners of ``POST /desk/do/forbid``, ``fix-pairing`` and ``fix-table``
(:mod:`goledger.web.actions`), each the library function of the CLI command of that name
(:mod:`goledger.commands.constraints`) with the form's fields."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.web.forms import Form, flag, number, optional_number, text

__all__ = ["fix_pairing_action", "fix_table_action", "forbid_action"]


def forbid_action(db: Path, form: Form, **kw: Any) -> Any:
    """``forbid A B [--from-round F] [--until-round U] [--unwanted] [--lift]``: ``kind`` is
    ``forbidden`` or ``unwanted``; ``lift`` lifts the pair's constraint."""
    from goledger.commands.constraints import forbid

    kind = text(form, "kind") or "forbidden"
    if kind not in ("forbidden", "unwanted"):
        raise CommandRejected(say("%(kind)r is not a pairing constraint: use forbidden or unwanted", kind=kind))
    return forbid(db, text(form, "player_a"), text(form, "player_b"),
                  optional_number(form, "from_round", "from round", signed=False),
                  optional_number(form, "until_round", "until round", signed=False), flag(form, "lift"),
                  kind == "unwanted", **kw)


def fix_pairing_action(db: Path, form: Form, **kw: Any) -> Any:
    """``fix-pairing A B --round R [--table T] [--lift]``."""
    from goledger.commands.constraints import fix_pairing

    return fix_pairing(db, text(form, "player_a"), text(form, "player_b"), number(form, "round", "round",
                                                                               signed=False),
                       optional_number(form, "table", "table", signed=False), flag(form, "lift"), **kw)


def fix_table_action(db: Path, form: Form, **kw: Any) -> Any:
    """``fix-table P T [--from-round F]``; an empty table (or ``lift``) frees the player."""
    from goledger.commands.constraints import fix_table

    table = None if flag(form, "lift") else optional_number(form, "table", "table", signed=False)
    return fix_table(db, text(form, "player"), table,
                     optional_number(form, "from_round", "from round", signed=False) or 1, **kw)
