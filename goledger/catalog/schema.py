"""The federation archive's tables, views and indexes (issue 22; documented in ``docs/catalog.md``).

A tournament is identified by its ``ledger_id``: the hash of the ledger's first event, which
never changes however many events are appended, so a ledger keeps its identity when it is moved
or renamed. In the archive it has a small integer ``id`` (kept when the tournament is
refreshed), which every other row carries as ``tournament_id``; a player row has an integer
``id`` too, and games, byes, absences and standings refer to players by it (foreign keys).
Integer keys keep the archive small: a 64-digit hash in every row and index would triple it.

Values are exact: standings are stored as an integer ``value`` in units of ``1/scale`` (the
ledger's own representation) beside their exact decimal ``text``; ratings as the ledger's
integers. The ``people`` view links rows across tournaments by EGD PIN, then by normalised
name and country (``name_key``, ``country``); ``doubtful_links`` lists what it would not merge.
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["CHILD_TABLES", "INDEXES", "TABLES", "VIEWS"]

TABLES: Final[dict[str, dict[str, Any]]] = {
    "tournaments": {
        "columns": {"id": int, "ledger_id": str, "name": str, "short_name": str, "location": str, "begin_date": str,
                    "end_date": str, "system": str, "policy": str, "criteria": str, "rounds": int,
                    "rounds_played": int, "board_size": int, "internet": int, "ledger_path": str, "head_seq": int,
                    "head_hash": str, "source_format": str, "source_file": str, "source_sha256": str,
                    "players": int, "games": int, "catalogued_at": str},
        "pk": "id",
    },
    "players": {
        "columns": {"id": int, "tournament_id": int, "player_id": str, "name": str, "surname": str,
                    "first_name": str, "name_key": str, "rank": str, "rank_value": int, "grade": str,
                    "rating": int, "country": str, "club": str, "egd_pin": str, "status": str,
                    "withdrawn_from": int, "final_place": int},
        "pk": "id",
        "foreign_keys": [("tournament_id", "tournaments", "id")],
    },
    "games": {
        "columns": {"tournament_id": int, "round": int, "table_number": int, "white": int, "black": int,
                    "handicap": int, "komi": str, "result": str, "by_default": int, "corrected": int,
                    "color_known": int},
        "foreign_keys": [("tournament_id", "tournaments", "id"), ("white", "players", "id"),
                         ("black", "players", "id")],
    },
    "byes": {
        "columns": {"tournament_id": int, "round": int, "player": int, "points2": int},
        "foreign_keys": [("tournament_id", "tournaments", "id"), ("player", "players", "id")],
    },
    "absences": {
        "columns": {"tournament_id": int, "round": int, "player": int, "kind": str, "points2": int},
        "foreign_keys": [("tournament_id", "tournaments", "id"), ("player", "players", "id")],
    },
    "standings": {
        "columns": {"tournament_id": int, "round": int, "final": int, "player": int, "place": int,
                    "criterion": str, "position": int, "value": int, "scale": int, "text": str},
        "foreign_keys": [("tournament_id", "tournaments", "id"), ("player", "players", "id")],
    },
    "events": {
        "columns": {"tournament_id": int, "seq": int, "type": str, "recorded_at": str, "actor": str,
                    "reason": str, "hash": str},
        "foreign_keys": [("tournament_id", "tournaments", "id")],
    },
}
"""Table → sqlite-utils ``create`` arguments (columns in order, primary key, foreign keys).
Tables without a primary key are rowid tables."""

CHILD_TABLES: Final = ("standings", "games", "byes", "absences", "events", "players")
"""The tables holding a tournament's rows, children before parents (the order of deletion)."""

INDEXES: Final = (
    ("tournaments", ["ledger_id"], True), ("players", ["tournament_id", "player_id"], True),
    ("players", ["egd_pin"], False), ("players", ["name"], False), ("players", ["name_key", "country"], False),
    ("games", ["tournament_id", "round"], False), ("games", ["white"], False), ("games", ["black"], False),
    ("byes", ["tournament_id"], False), ("byes", ["player"], False), ("absences", ["tournament_id"], False),
    ("absences", ["player"], False), ("standings", ["tournament_id", "round", "criterion"], False),
    ("standings", ["player"], False), ("events", ["tournament_id", "seq"], True), ("events", ["type"], False),
)
"""Indexes (table, columns, unique): PIN and name (the issue's), and each foreign key."""

_PIN_OF_NAME: Final = """(SELECT MIN(q.egd_pin) FROM players q
     WHERE q.name_key = p.name_key AND q.country = p.country AND q.egd_pin != '')"""

VIEWS: Final[dict[str, str]] = {
    "people": f"""
SELECT
  CASE
    WHEN p.egd_pin != '' THEN 'pin:' || p.egd_pin
    WHEN {_PIN_OF_NAME} IS NOT NULL THEN 'pin:' || {_PIN_OF_NAME}
    ELSE 'name:' || p.name_key || '|' || p.country
  END AS person,
  CASE
    WHEN p.egd_pin != '' THEN 'pin'
    WHEN {_PIN_OF_NAME} IS NOT NULL THEN 'name+country'
    ELSE 'name+country (no PIN)'
  END AS linked_by,
  p.id AS player, p.tournament_id, t.name AS tournament, t.begin_date, p.name, p.name_key, p.country,
  p.club, p.rank, p.rank_value, p.rating, p.egd_pin, p.final_place
FROM players p JOIN tournaments t ON t.id = p.tournament_id""",
    "doubtful_links": """
SELECT 'same name, different countries' AS doubt, name_key AS subject,
       GROUP_CONCAT(DISTINCT country) AS detail, COUNT(*) AS rows
FROM players WHERE name_key != '' GROUP BY name_key HAVING COUNT(DISTINCT country) > 1
UNION ALL
SELECT 'ranks far apart (more than 4 grades)', person,
       MIN(rank) || ' … ' || MAX(rank) || ' (' || (MAX(rank_value) - MIN(rank_value)) || ' grades)', COUNT(*)
FROM people GROUP BY person HAVING MAX(rank_value) - MIN(rank_value) > 4
UNION ALL
SELECT 'one PIN for several names', 'pin:' || egd_pin, GROUP_CONCAT(DISTINCT name), COUNT(*)
FROM players WHERE egd_pin != '' GROUP BY egd_pin HAVING COUNT(DISTINCT name_key) > 1""",
}
"""Views, created after the tables (``doubtful_links`` reads ``people``)."""
