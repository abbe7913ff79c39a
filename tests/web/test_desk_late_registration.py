"""A registration once the last round is paired, at the desk (issue 40, item 6), over HTTP on a
running ``goledger serve``: refused in one sentence, nothing written; the register form's
"register anyway" box records it, absent in the rounds already paired."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from goledger import commands
from goledger.ledger.store import Ledger
from goledger.replay.views import state_as_of

from ..desk_server import DeskServer
from .test_web_attacks import logged_in

pytest.importorskip("httpx")


def _head(db: Path) -> int:
    with Ledger.open(db) as ledger:
        return ledger.head().seq


def test_the_desk_refuses_a_late_entrant_unless_told_to(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "One Round Cup", 1, "mcmahon", "3d", "20k", None, None, "7.5")
    for surname in ("Sato", "Ito"):
        commands.register(db, surname, "", "3k")
    commands.pair(db, 1, "p0001", "p0002", 1)
    with DeskServer(db) as desk:
        client, csrf = logged_in(desk.url)

        def register(**extra: str) -> tuple[int, str]:
            page = client.get("/desk/players").text
            assert 'id="register-force"' in page
            head = re.search(r'name="expected_head" value="(\d+)"', page)
            assert head
            r = client.post("/desk/do/register", data={"csrf": csrf, "expected_head": head.group(1),
                                                       "back": "/desk/players", "surname": "Late", "rank": "5k",
                                                       **extra})
            return r.status_code, r.text

        before = _head(db)
        status, text = register()
        assert status == 400 and "round 1, the last round, is already paired" in text, text[:400]
        assert _head(db) == before
        status, text = register(force="1")
        assert status == 200, text[:400]
    late = state_as_of(db).players["p0003"]
    assert late.surname == "Late" and _head(db) == before + 2  # the registration and its absence
