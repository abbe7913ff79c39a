"""Registration in the desk (issue 43, item 3), over HTTP on a running ``goledger serve``:
the EGD list imported by upload, "refresh ratings of registered players" previewed (who
changes, old → new; who is left as he is, and why) then recorded as one action, the player
list sorted by name in the page language's alphabet, rank, rating and club, and the GoR taken
from the list shown in the page and in the players JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from goledger import commands
from goledger.ledger.store import Ledger
from goledger.replay.views import state_as_of

from ..conftest import run_cli
from ..desk_server import DeskServer
from ..ratings_support import write_list
from .test_web_attacks import logged_in

pytest.importorskip("httpx")


def _head(db: Path) -> int:
    with Ledger.open(db) as ledger:
        return ledger.head().seq


def _ids(page: str) -> list[str]:
    return re.findall(r"<tr><td>(p\d{4})</td>", page)


@pytest.fixture
def ledger(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Four players registered before any list is on the machine: one without a PIN, two
    whose list entries now say otherwise, one whose PIN the list lacks."""
    monkeypatch.setenv("GOLEDGER_RATINGS", str(tmp_path / "store" / "ratings.db"))
    db = tmp_path / "t.db"
    commands.new(db, "Kayseri Open", 3, "mcmahon", "3d", "20k", None, None, "7.5", language="tr")
    commands.register(db, "Çelik", "Cem", "2d", rating=2150)
    commands.register(db, "Kovács", "Antal", "5k", egd_pin="12413126", rating=1500, club="Pécs")
    commands.register(db, "Cem", "Ali", "1k", egd_pin="99999999")
    commands.register(db, "Dvořák", "Jakub", "2d", egd_pin="12525931")
    return db


def test_the_list_is_imported_and_the_ratings_refreshed_in_the_desk(ledger: Path, tmp_path: Path) -> None:
    listed = write_list(tmp_path / "allworld_lp.html")
    with DeskServer(ledger) as desk:
        client, csrf = logged_in(desk.url)
        page = client.get("/desk/players").text
        assert 'id="ratings-import-form"' in page and 'id="ratings-refresh"' not in page
        # a file that is no list: one sentence, the store not made
        r = client.post("/desk/ratings/import", data={"csrf": csrf}, files={"file": ("x.html", b"<html>no</html>")})
        assert r.status_code == 400 and "EGD" in r.text and str(tmp_path) not in r.text
        assert not (tmp_path / "store" / "ratings.db").exists()
        r = client.post("/desk/ratings/import", data={"csrf": csrf},
                        files={"file": ("allworld_lp.html", listed.read_bytes())})
        assert r.status_code == 200 and "12 oyuncu" in r.text, r.text[:500]  # the tournament's language
        page = client.get("/desk/players").text
        assert 'id="ratings-refresh"' in page and "EGD" in page
        # the preview: who changes, old → new; who is left as he is, and why; nothing written
        before = _head(ledger)
        preview = client.get("/desk/ratings/refresh?lang=en").text
        rows = dict(re.findall(r'<tr data-player="(p\d{4})">(.*?)</tr>', preview))
        assert set(rows) == {"p0002", "p0004"}, rows
        assert "5k → <strong>7k</strong>" in rows["p0002"] and "1500 → <strong>1351</strong>" in rows["p0002"]
        assert "Pécs → <strong>BuPe</strong>" in rows["p0002"]
        assert "2d → <strong>3d</strong>" in rows["p0004"] and "– → <strong>2300</strong>" in rows["p0004"]
        skipped = preview.split('id="refresh-skipped"')[1]
        assert "p0001" in skipped and "no EGD PIN" in skipped and "p0003" in skipped and "not in the list" in skipped
        assert _head(ledger) == before
        # recorded as one action against the preview's head
        head = re.search(r'name="expected_head" value="(\d+)"', preview.split('id="refresh-form"')[1])
        assert head and int(head.group(1)) == before
        r = client.post("/desk/do/refresh-ratings", data={"csrf": csrf, "expected_head": head.group(1),
                                                          "back": "/desk/players"})
        assert r.status_code == 200 and _head(ledger) == before + 2, r.text[:500]
        again = client.post("/desk/do/refresh-ratings", data={"csrf": csrf, "expected_head": str(before + 2),
                                                               "back": "/desk/players"})
        assert again.status_code == 400 and _head(ledger) == before + 2
        page = client.get("/desk/players?lang=en").text
        # sorted: by rating (strongest first, none last), rank, club, and by name in Turkish
        assert _ids(client.get("/desk/players?sort=rating").text) == ["p0004", "p0001", "p0002", "p0003"]
        assert _ids(client.get("/desk/players?sort=rank").text) == ["p0004", "p0001", "p0003", "p0002"]
        assert _ids(client.get("/desk/players?sort=club").text) == ["p0004", "p0002", "p0001", "p0003"]  # Brno, BuPe
        # Turkish puts C before Ç (Cem Ali, then Çelik Cem); English reads Ç as C (Çelik before Cem)
        assert _ids(client.get("/desk/players?sort=name&lang=tr").text) == ["p0003", "p0001", "p0004", "p0002"]
        assert _ids(client.get("/desk/players?sort=name&lang=en").text) == ["p0001", "p0003", "p0004", "p0002"]
        assert _ids(client.get("/desk/players?sort=nonsense").text) == ["p0001", "p0002", "p0003", "p0004"]
    state = state_as_of(ledger)
    kovacs = state.players["p0002"]
    assert (kovacs.rank, kovacs.rating, kovacs.club, kovacs.surname) == ("7k", 1351, "BuPe", "Kovács")  # accents kept
    # the GoR from the list: in the page and in the players JSON
    assert re.search(r"<td>7k</td><td class=\"num\">1351 <span class=\"muted\">GoR</span>", page)
    players = {p["player_id"]: p for p in json.loads(run_cli("players", "--db", ledger, "--json").out)["players"]}
    assert players["p0002"]["rating"] == 1351 and players["p0002"]["rating_source"].startswith("egd ")
    assert players["p0001"]["rating"] == 2150 and players["p0001"]["rating_source"] == "given"
    assert players["p0003"]["rating"] is None and players["p0003"]["rating_source"] == ""


def test_the_preview_without_a_list_says_so_in_the_desks_words(ledger: Path, tmp_path: Path) -> None:
    with DeskServer(ledger) as desk:
        client, _ = logged_in(desk.url)
        r = client.get("/desk/ratings/refresh?lang=en")
        assert r.status_code == 400 and "no rating list on this machine" in r.text and str(tmp_path) not in r.text
