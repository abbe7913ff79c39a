"""The federation archive (issue 22): one SQLite database, written with sqlite-utils, across
every ledger of a federation — tournaments, players, games, byes, absences, standings after
every round and events — refreshed incrementally by tournament id and chain head, with a
``people`` view linking a player's rows across tournaments. ``docs/catalog.md`` documents the
tables and the SQL; Datasette opens the archive as it is.

Library: :func:`build` (``goledger catalog build``), :func:`player`, :func:`h2h`, :func:`check`.
sqlite-utils is imported only while an archive is built, so other commands never pay for it.
"""

from goledger.catalog.build import BuildSummary, build
from goledger.catalog.queries import check, h2h, player

__all__ = ["BuildSummary", "build", "check", "h2h", "player"]
