"""The Datasette ``metadata.json`` the catalog writes beside the archive: titles, and canned
queries a federation asks (``datasette archive.db -m metadata.json``). Datasette itself is not
a dependency; the file is plain JSON in its documented metadata format."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from goledger.outputs import write_output

if TYPE_CHECKING:
    import os
    from collections.abc import Iterable

__all__ = ["CANNED_QUERIES", "metadata", "write_metadata"]

CANNED_QUERIES: Final[dict[str, dict[str, str]]] = {
    "player_games": {
        "title": "Every game of a player (name or EGD PIN)",
        "sql": """SELECT t.begin_date, t.name AS tournament, g.round, w.name AS white, b.name AS black, g.handicap,
       g.result, g.by_default, g.corrected
FROM games g JOIN tournaments t ON t.id = g.tournament_id
JOIN players w ON w.id = g.white JOIN players b ON b.id = g.black
WHERE :who IN (w.egd_pin, b.egd_pin) OR w.name LIKE '%' || :who || '%' OR b.name LIKE '%' || :who || '%'
ORDER BY t.begin_date, t.name, g.round""",
    },
    "head_to_head": {
        "title": "Head-to-head of two players (names or EGD PINs)",
        "sql": """SELECT t.begin_date, t.name AS tournament, g.round, w.name AS white, b.name AS black, g.handicap,
       g.result
FROM games g JOIN tournaments t ON t.id = g.tournament_id
JOIN players w ON w.id = g.white JOIN players b ON b.id = g.black
WHERE ((w.egd_pin = :a OR w.name LIKE '%' || :a || '%') AND (b.egd_pin = :b OR b.name LIKE '%' || :b || '%'))
   OR ((w.egd_pin = :b OR w.name LIKE '%' || :b || '%') AND (b.egd_pin = :a OR b.name LIKE '%' || :a || '%'))
ORDER BY t.begin_date, g.round""",
    },
    "tie_breaks_used": {
        "title": "Which tournaments used which tie-breaks",
        "sql": "SELECT criteria, policy, COUNT(*) AS tournaments, GROUP_CONCAT(name, '; ') AS names "
               "FROM tournaments GROUP BY criteria, policy ORDER BY tournaments DESC",
    },
    "withdrawals_after_round": {
        "title": "Withdrawals after a round",
        "sql": "SELECT t.begin_date, t.name AS tournament, p.name, p.withdrawn_from FROM players p "
               "JOIN tournaments t ON t.id = p.tournament_id WHERE p.withdrawn_from > :round "
               "ORDER BY t.begin_date, t.name",
    },
    "doubtful_links": {
        "title": "Rows the people view would not merge silently",
        "sql": "SELECT * FROM doubtful_links",
    },
}
"""Canned queries (name → title and SQL with ``:named`` parameters)."""


def metadata(archive: str | os.PathLike[str]) -> dict[str, Any]:
    """The metadata document for the archive file ``archive``."""
    database = Path(archive).stem
    return {
        "title": _TITLE,
        "description": "Every tournament of the catalogued goledger ledgers: players, games, byes, absences, "
                       "standings after every round, events. Built by `goledger catalog build`.",
        "databases": {database: {"queries": CANNED_QUERIES}},
    }


_TITLE: Final = "goledger federation archive"
_MAX_METADATA_BYTES: Final = 1 << 20


def is_metadata(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a plain file holding a metadata document this module wrote (JSON
    under 1 MB titled as :func:`metadata` titles it): the only existing file a build replaces."""
    target = Path(path)
    try:
        if target.is_symlink() or not target.is_file() or target.stat().st_size > _MAX_METADATA_BYTES:
            return False
        document = json.loads(target.read_bytes())
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(document, dict) and document.get("title") == _TITLE


def write_metadata(path: str | os.PathLike[str], archive: str | os.PathLike[str], *,
                   protect: Iterable[str | os.PathLike[str]] = (), replace: bool = False) -> None:
    """Write :func:`metadata` of ``archive`` to ``path`` (UTF-8 JSON, indented) through
    :func:`goledger.outputs.write_output`: never onto ``protect`` (the archive and the
    ledgers), an existing file replaced only when ``replace``, a link replaced itself."""

    data = (json.dumps(metadata(archive), ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    write_output(data, path, [archive, *protect], force=replace, what="Datasette metadata")
