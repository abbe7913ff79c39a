"""A knockout's wall list is in the knockout's own places (issue 43, item 5): the winner of the
third-place match is 3rd and the losing finalist 2nd, as ``goledger standings`` and ``goledger
place`` give them — never the criteria's NBW/SOSW order — with no criteria columns; through
``goledger wall-list`` in a subprocess and the desk's ``/print/wall`` on a running server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from goledger import commands

from ..desk_server import DeskServer
from ..systems_support import new_event, play_out

httpx = pytest.importorskip("httpx")


def _knockout(tmp_path: Path) -> Path:
    """8 players, a third-place match, every game won by the stronger (the lower number)."""
    db = new_event(tmp_path, "knockout", 8, 3, options={"third_place": True}, ranks=lambda i: f"{8 - i}d")

    def stronger(game) -> str:  # type: ignore[no-untyped-def]
        return "white" if game.white < game.black else "black"

    play_out(db, stronger)
    return db


def test_the_wall_list_of_a_knockout_is_its_places(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    db = _knockout(tmp_path)
    places = json.loads(cli("standings", "--json", "--db", db).out)
    wall = json.loads(cli("wall-list", "--json", "--db", db).out)
    assert wall["criteria"] == []
    assert [(r["player_id"], r["place"]) for r in wall["rows"]] == [
        (r["player_id"], r["place"]) for r in places["rows"]]
    first_four = [r["place"] for r in wall["rows"][:4]]
    assert first_four == [1, 2, 3, 4], first_four  # the third-place match decides 3rd and 4th
    text = cli("wall-list", "--db", db).out
    assert "SOSW" not in text and "NBW" not in text
    # an explicit policy or criteria still asks for the criteria's list
    asked = json.loads(cli("wall-list", "--json", "--criteria", "NBW,SOSW", "--db", db).out)
    assert asked["criteria"] == ["NBW", "SOSW"]


def test_the_desk_prints_the_knockout_wall_list_in_its_places(tmp_path: Path) -> None:
    db = _knockout(tmp_path)
    from goledger.systems.views import places

    found = places(db)
    assert found is not None
    with DeskServer(db) as server:
        page = httpx.get(f"{server.url}/print/wall", timeout=30).text
    names = [row.name for row in found.rows]
    positions = [page.index(name) for name in names[:4]]
    assert positions == sorted(positions), names[:4]
    assert "SOSW" not in page and "NBW" not in page
    assert commands  # the ledger was written by the commands (systems_support)
