"""The questions a federation asks its archive (``goledger catalog player``, ``h2h``,
``check``; issue 22). Read-only SQL over the tables and views of :mod:`goledger.catalog.schema`
(the same statements are in ``docs/catalog.md``).

A player is found by EGD PIN (digits) or by name: the ``people`` view's person key links
rows by PIN, then by normalised name and country; a name matching several people is answered
with all of them (``player``) or refused (``h2h``, which needs one person per side).
"""

from __future__ import annotations

import bisect
import sqlite3
from collections import defaultdict
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from goledger.catalog.build import name_key
from goledger.errors import CommandRejected
from goledger.ledger.values import Rank, RankError
from goledger.rating.grades import grade_value

if TYPE_CHECKING:
    import os

__all__ = ["check", "h2h", "persons", "player"]

RANK_RATING_TOLERANCE = 150
"""``check``: a rank and a rating contradict when the rating is more than 150 points (a grade
and a half) from the rank's value (1d = 2100, 100 per grade, spec ``egd.md`` §11)."""

RANK_RATING_DAYS = 365
"""``check``: a rank in one file is compared with ratings in files of tournaments at most this
many days apart (ranks and ratings move over the years)."""


def _open(archive: str | os.PathLike[str]) -> sqlite3.Connection:
    path = Path(archive)
    if not path.is_file():
        raise CommandRejected(f"{path} is not an archive: build it with goledger catalog build")
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        conn.execute("SELECT 1 FROM people LIMIT 1")
    except sqlite3.DatabaseError:
        conn.close()
        raise CommandRejected(f"{path} is not a goledger archive (no people view)") from None
    return conn


def persons(conn: sqlite3.Connection, who: str) -> list[str]:
    """The person keys ``who`` (an EGD PIN, or a name) designates, most rows first."""
    text = who.strip()
    if not text:
        raise CommandRejected("give a name or an EGD PIN")
    if text.isdigit():
        by_pin = conn.execute("SELECT person, COUNT(*) n FROM people WHERE egd_pin = ? OR person = ? "
                              "GROUP BY person ORDER BY n DESC", (text, f"pin:{text}")).fetchall()
        return [r["person"] for r in by_pin]
    key = name_key(text, "")
    tokens = " ".join(f'"{t}"' for t in key.split())
    keys = set()
    if tokens:
        keys = {r[0] for r in conn.execute(
            "SELECT p.id FROM players_fts f JOIN players p ON p.rowid = f.rowid WHERE players_fts MATCH ?",
            (f"name_key: {tokens}",))}
    keys |= {r[0] for r in conn.execute("SELECT id FROM players WHERE name_key = ?", (key,))}
    rows: list[sqlite3.Row] = []
    found = sorted(keys)
    for i in range(0, len(found), 500):  # the view is flattened: a lookup by player id uses the key
        chunk = found[i:i + 500]
        marks = ",".join("?" * len(chunk))
        rows += conn.execute(f"SELECT person, player, name_key FROM people WHERE player IN ({marks})", chunk).fetchall()
    counts: dict[str, int] = defaultdict(int)
    for r in rows:
        counts[r["person"]] += 1
    exact = {r["person"] for r in rows if r["name_key"] == key}
    return sorted(counts, key=lambda p: (p not in exact, -counts[p], p))


def _games_of(conn: sqlite3.Connection, keys: list[int]) -> dict[int, list[dict[str, Any]]]:
    marks = ",".join("?" * len(keys))
    rows = conn.execute(
        f"""SELECT g.*, w.name AS white_name, b.name AS black_name FROM games g
            JOIN players w ON w.id = g.white JOIN players b ON b.id = g.black
            WHERE g.white IN ({marks}) OR g.black IN ({marks}) ORDER BY g.round, g.table_number""",
        (*keys, *keys)).fetchall()
    out: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for g in rows:
        white = g["white"] in keys
        me, other = (g["white"], g["black_name"]) if white else (g["black"], g["white_name"])
        out[me].append({"round": g["round"], "opponent": other, "colour": "white" if white else "black",
                        "handicap": g["handicap"], "result": _result_for(g["result"], white),
                        "by_default": bool(g["by_default"]), "corrected": bool(g["corrected"])})
    return out


def _result_for(result: str, white: bool) -> str:
    if result in ("white", "black"):
        return "win" if (result == "white") == white else "loss"
    return result


def player(archive: str | os.PathLike[str], who: str) -> dict[str, Any]:
    """``goledger catalog player NAME|PIN``: every tournament, game and place of the people
    ``who`` designates."""
    conn = _open(archive)
    try:
        found = persons(conn, who)
        if not found:
            raise CommandRejected(f"no player {who!r} in the archive")
        people = []
        for person in found:
            rows = conn.execute("SELECT * FROM people WHERE person = ? ORDER BY begin_date, tournament",
                                (person,)).fetchall()
            games = _games_of(conn, [r["player"] for r in rows])
            people.append({
                "person": person, "linked_by": sorted({r["linked_by"] for r in rows}),
                "names": sorted({r["name"] for r in rows}), "countries": sorted({r["country"] for r in rows}),
                "tournaments": [{"tournament": r["tournament"], "tournament_id": r["tournament_id"],
                                 "begin_date": r["begin_date"], "name": r["name"], "rank": r["rank"],
                                 "rating": r["rating"], "club": r["club"], "place": r["final_place"],
                                 "games": games.get(r["player"], [])} for r in rows],
            })
        return {"query": who, "people": people}
    finally:
        conn.close()


def _one(conn: sqlite3.Connection, who: str) -> str:
    found = persons(conn, who)
    if not found:
        raise CommandRejected(f"no player {who!r} in the archive")
    if len(found) > 1:
        raise CommandRejected(f"{who!r} matches {len(found)} people ({', '.join(found[:3])}…): give an EGD PIN "
                              "or the full name")
    return found[0]


def h2h(archive: str | os.PathLike[str], a: str, b: str) -> dict[str, Any]:
    """``goledger catalog h2h A B``: every game between the two people, and A's wins, losses
    and other results."""
    conn = _open(archive)
    try:
        first, second = _one(conn, a), _one(conn, b)
        if first == second:
            raise CommandRejected(f"{a!r} and {b!r} are the same person ({first})")
        keys = {p: [r[0] for r in conn.execute("SELECT player FROM people WHERE person = ?", (p,))]
                for p in (first, second)}
        marks_a, marks_b = ",".join("?" * len(keys[first])), ",".join("?" * len(keys[second]))
        rows = conn.execute(
            f"""SELECT t.name AS tournament, t.begin_date, g.round, g.white, g.handicap, g.result, g.by_default,
                       w.name AS white_name, b.name AS black_name
                FROM games g JOIN tournaments t ON t.id = g.tournament_id
                JOIN players w ON w.id = g.white JOIN players b ON b.id = g.black
                WHERE (g.white IN ({marks_a}) AND g.black IN ({marks_b}))
                   OR (g.white IN ({marks_b}) AND g.black IN ({marks_a}))
                ORDER BY t.begin_date, t.name, g.round""",
            (*keys[first], *keys[second], *keys[second], *keys[first])).fetchall()
        tally: dict[str, int] = defaultdict(int)
        games = []
        for r in rows:
            a_white = r["white"] in keys[first]
            outcome = _result_for(r["result"], a_white)
            tally[outcome] += 1
            games.append({"tournament": r["tournament"], "begin_date": r["begin_date"], "round": r["round"],
                          "white": r["white_name"], "black": r["black_name"], "handicap": r["handicap"],
                          "result": r["result"], "by_default": bool(r["by_default"]), "for_a": outcome})
        return {"a": first, "b": second, "games": games, "a_wins": tally["win"], "a_losses": tally["loss"],
                "other": sum(n for k, n in tally.items() if k not in ("win", "loss"))}
    finally:
        conn.close()


def _day(text: str) -> int | None:
    try:
        return date.fromisoformat(text[:10]).toordinal()
    except ValueError:
        return None


def _rank_rating(person: str, rows: list[sqlite3.Row]) -> list[dict[str, Any]]:
    """One problem per (rank, rating) of a person that contradict each other in one file, or
    in files of tournaments at most :data:`RANK_RATING_DAYS` apart (grouped: a person with
    many tournaments is not listed once per pair of them)."""
    ranks: dict[str, list[sqlite3.Row]] = defaultdict(list)
    ratings: dict[int, list[sqlite3.Row]] = defaultdict(list)
    for r in rows:
        ranks[r["rank"]].append(r)
        if r["rating"] is not None:
            ratings[r["rating"]].append(r)
    out: list[dict[str, Any]] = []
    for rank, ranked in ranks.items():
        try:
            value = grade_value(Rank.parse(rank))
        except RankError:
            continue
        players = {r["player"] for r in ranked}
        days = sorted(d for d in (_day(r["begin_date"]) for r in ranked) if d is not None)
        for rating, rated in ratings.items():
            if abs(rating - value) <= RANK_RATING_TOLERANCE:
                continue
            same = [r for r in rated if r["player"] in players]
            near = same or [r for r in rated if _within(_day(r["begin_date"]), days)]
            if not near:
                continue
            text = (f"rank {rank} ({value}) and rating {rating} in {same[0]['tournament']}" if same else
                    f"rank {rank} ({value}) in {ranked[0]['tournament']}, rating {rating} in {near[0]['tournament']}")
            more = len({r["tournament_id"] for r in near}) - 1
            out.append({"kind": "rank-rating", "person": person,
                        "players": sorted({near[0]["player"], *(r["player"] for r in same)}),
                        "message": f"{near[0]['name']}: {text}" + (f" (and {more} more tournaments)" if more else "")})
    return out


def _within(day: int | None, days: list[int]) -> bool:
    """Whether ``day`` is at most :data:`RANK_RATING_DAYS` from one of the sorted ``days``."""
    if day is None or not days:
        return False
    i = bisect.bisect_left(days, day)
    return any(0 <= j < len(days) and abs(days[j] - day) <= RANK_RATING_DAYS for j in (i - 1, i))


def check(archive: str | os.PathLike[str]) -> dict[str, Any]:
    """``goledger catalog check``: rank/rating contradictions (within a file, and a rank in one
    file against a rating in another of a tournament within :data:`RANK_RATING_DAYS`), EGD PINs
    shared by different names, and the same person registered twice in one tournament."""
    conn = _open(archive)
    try:
        problems: list[dict[str, Any]] = []
        rows = conn.execute("SELECT * FROM people ORDER BY person, begin_date").fetchall()
        by_person: dict[str, list[sqlite3.Row]] = defaultdict(list)
        for r in rows:
            by_person[r["person"]].append(r)
        for person, mine in by_person.items():
            problems.extend(_rank_rating(person, mine))
            seen: dict[str, list[sqlite3.Row]] = defaultdict(list)
            for r in mine:
                seen[r["tournament_id"]].append(r)
            for group in seen.values():
                if len(group) > 1:
                    problems.append({
                        "kind": "registered-twice", "person": person, "players": [r["player"] for r in group],
                        "message": f"{' / '.join(r['name'] for r in group)} registered {len(group)} times in "
                                   f"{group[0]['tournament']}"})
        for r in conn.execute("SELECT egd_pin, GROUP_CONCAT(DISTINCT name) AS names, COUNT(DISTINCT name_key) AS n "
                              "FROM players WHERE egd_pin != '' GROUP BY egd_pin HAVING n > 1 ORDER BY egd_pin"):
            problems.append({"kind": "pin-collision", "person": f"pin:{r['egd_pin']}", "players": [],
                             "message": f"EGD PIN {r['egd_pin']} is used by {r['n']} different names: {r['names']}"})
        counts: dict[str, int] = defaultdict(int)
        for p in problems:
            counts[p["kind"]] += 1
        return {"problems": problems, "counts": dict(counts)}
    finally:
        conn.close()
