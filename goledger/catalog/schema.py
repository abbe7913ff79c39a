"""The federation archive's tables, views and indexes (issue 22; documented in ``docs/catalog.md``).

Every row of a tournament carries its ``tournament_id``: the hash of the ledger's first event,
which never changes however many events are appended, so a ledger keeps its identity when it
is moved or renamed. A player row's key is ``tournament_id:player_id``; games, byes, absences
and standings refer to players by that key (foreign keys), and to their tournament.

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
        "columns": {"id": str, "name": str, "short_name": str, "location": str, "begin_date": str,
                    "end_date": str, "system": str, "policy": str, "criteria": str, "rounds": int,
                    "rounds_played": int, "board_size": int, "internet": int, "ledger_path": str, "head_seq": int,
                    "head_hash": str, "source_format": str, "source_file": str, "source_sha256": str,
                    "players": int, "games": int, "catalogued_at": str},
        "pk": "id",
    },
    "players": {
        "columns": {"key": str, "tournament_id": str, "player_id": str, "name": str, "surname": str,
                    "first_name": str, "name_key": str, "rank": str, "rank_value": int, "grade": str,
                    "rating": int, "country": str, "club": str, "egd_pin": str, "status": str,
                    "withdrawn_from": int, "final_place": int},
        "pk": "key",
        "foreign_keys": [("tournament_id", "tournaments", "id")],
    },
    "games": {
        "columns": {"id": str, "tournament_id": str, "round": int, "table_number": int, "white": str,
                    "black": str, "handicap": int, "komi": str, "result": str, "by_default": int,
                    "corrected": int, "color_known": int},
        "pk": "id",
        "foreign_keys": [("tournament_id", "tournaments", "id"), ("white", "players", "key"),
                         ("black", "players", "key")],
    },
    "byes": {
        "columns": {"id": str, "tournament_id": str, "round": int, "player": str, "points2": int},
        "pk": "id",
        "foreign_keys": [("tournament_id", "tournaments", "id"), ("player", "players", "key")],
    },
    "absences": {
        "columns": {"id": str, "tournament_id": str, "round": int, "player": str, "kind": str, "points2": int},
        "pk": "id",
        "foreign_keys": [("tournament_id", "tournaments", "id"), ("player", "players", "key")],
    },
    "standings": {
        "columns": {"id": str, "tournament_id": str, "round": int, "final": int, "player": str, "place": int,
                    "criterion": str, "position": int, "value": int, "scale": int, "text": str},
        "pk": "id",
        "foreign_keys": [("tournament_id", "tournaments", "id"), ("player", "players", "key")],
    },
    "events": {
        "columns": {"id": str, "tournament_id": str, "seq": int, "type": str, "recorded_at": str, "actor": str,
                    "reason": str, "hash": str},
        "pk": "id",
        "foreign_keys": [("tournament_id", "tournaments", "id")],
    },
}
"""Table → sqlite-utils ``create`` arguments (columns in order, primary key, foreign keys)."""

CHILD_TABLES: Final = ("standings", "games", "byes", "absences", "events", "players")
"""The tables holding a tournament's rows, children before parents (the order of deletion)."""

INDEXES: Final = (
    ("players", ["egd_pin"]), ("players", ["name"]), ("players", ["name_key", "country"]),
    ("players", ["tournament_id"]), ("games", ["tournament_id", "round"]), ("games", ["white"]),
    ("games", ["black"]), ("byes", ["tournament_id"]), ("absences", ["tournament_id"]),
    ("standings", ["tournament_id", "round", "criterion"]), ("standings", ["player"]),
    ("events", ["tournament_id", "seq"]), ("events", ["type"]),
)
"""Indexes: PIN and name (the issue's), and each foreign key."""

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
  p.key AS player, p.tournament_id, t.name AS tournament, t.begin_date, p.name, p.name_key, p.country,
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
