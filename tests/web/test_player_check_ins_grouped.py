"""Many players check in at once through a running ``goledger serve`` (issue 46, item 6): the
answers are written together (:mod:`goledger.web.group_commit`), yet every post is answered
with its own outcome, each recorded once with its own player as the actor, a refusal stays
its own player's, and the log verifies."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import httpx

from goledger import commands
from goledger.keys import ensure_keys

from ..desk_server import DeskServer
from .test_player_keys import _answer

PLAYERS = 24


def test_concurrent_check_ins_are_each_answered_and_recorded_once(tmp_path: Path) -> None:
    db = tmp_path / "hall.db"
    commands.new(db, "Hall Open", 3)
    for n in range(PLAYERS):
        commands.register(db, f"Sur{n:02d}", "Jo", "3k")
    commands.change_rules(db, {"check_in": "every"})
    keys = ensure_keys(db)
    pids = sorted(keys)
    plan = {pid: ("absent" if n % 6 == 5 else "play") for n, pid in enumerate(pids)}
    commands.check_in(db, pids[0], 1)  # already checked in at the desk: his phone's "play" is refused
    answers: dict[tuple[str, int], httpx.Response] = {}
    start = threading.Barrier(PLAYERS + 1)

    def phone(pid: str, desk_url: str) -> None:
        with httpx.Client(base_url=desk_url, timeout=120) as client:
            page = client.get(f"/k/{keys[pid]}")
            assert page.status_code == 200
            start.wait()
            answers[(pid, 1)] = _answer(client, keys[pid], plan[pid])
            if pid == pids[1]:  # the same phone again: refused, his first answer stands
                answers[(pid, 2)] = _answer(client, keys[pid], "play")

    with DeskServer(db) as desk:
        threads = [threading.Thread(target=phone, args=(pid, desk.url)) for pid in pids]
        for thread in threads:
            thread.start()
        start.wait()
        for thread in threads:
            thread.join(180)
    assert len(answers) == PLAYERS + 1, "every post was answered"
    assert answers[(pids[0], 1)].status_code == 400 and "already checked in" in answers[(pids[0], 1)].text
    assert answers[(pids[1], 2)].status_code == 400 and "already checked in" in answers[(pids[1], 2)].text
    for pid in pids[1:]:
        assert answers[(pid, 1)].status_code == 200, answers[(pid, 1)].text
        expected = 'data-standing="checked in"' if plan[pid] == "play" else 'data-standing="absent"'
        assert expected in answers[(pid, 1)].text, pid

    records = [r for r in commands.log(db) if r.actor.startswith("player ")]
    said = [(r.type, json.loads(r.payload)["player_id"], r.actor) for r in records]
    assert sorted(said) == sorted(
        ("CheckedIn" if plan[pid] == "play" else "ParticipationChanged", pid, f"player {pid}") for pid in pids[1:]
    ), "each answer recorded once, for its own player, with him as the actor"
    assert commands.verify(db).ok
