"""Many players check in at once through a running ``goledger serve`` (issue 46, item 6): the
answers are written together (:mod:`goledger.web.group_commit`), yet every post is answered
with its own outcome, each recorded once with its own player as the actor, a refusal stays
its own player's, and the log verifies."""

from __future__ import annotations

import json
import re
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


def test_concurrent_reports_are_each_judged_on_their_own(tmp_path: Path) -> None:
    """Eight tables report at once, both players each: seven agree (recorded with both players
    as the actors), one disagrees (two claims, no result); a page shown before its game was
    paired again is refused (409) while the others of its batch are recorded."""
    from .test_player_reports_http import report

    db = tmp_path / "reports.db"
    commands.new(db, "Hall Reports", 3)
    for n in range(18):
        commands.register(db, f"Sur{n:02d}", "Jo", "3k")
    pids = [f"p{n:04d}" for n in range(1, 19)]
    for table in range(1, 10):
        commands.pair(db, 1, pids[2 * table - 2], pids[2 * table - 1], table=table)
    commands.change_rules(db, {"player_reports": "record"})
    keys = ensure_keys(db)
    said = {pid: ("won" if n % 2 == 0 else "lost") for n, pid in enumerate(pids[:16])}
    said[pids[15]] = "won"  # table 8: both say they won
    answers: dict[str, httpx.Response] = {}
    start = threading.Barrier(17)

    def phone(pid: str, desk_url: str) -> None:
        with httpx.Client(base_url=desk_url, timeout=120) as client:
            client.get(f"/k/{keys[pid]}/result")
            start.wait()
            answers[pid] = report(client, keys[pid], said[pid])

    # table 9's page is shown, then its game is paired again
    with DeskServer(db) as desk, httpx.Client(base_url=desk.url, timeout=120) as late:
        page = late.get(f"/k/{keys[pids[16]]}/result")
        commands.unpair(db, 1, 9)
        commands.pair(db, 1, pids[17], pids[16], table=9)
        threads = [threading.Thread(target=phone, args=(pid, desk.url)) for pid in pids[:16]]
        for thread in threads:
            thread.start()
        start.wait()
        form = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page.text))
        stale = late.post(f"/k/{keys[pids[16]]}/result", data={**form, "outcome": "won"})
        for thread in threads:
            thread.join(180)
    assert stale.status_code == 409 and "paired again" in stale.text
    assert sorted(answers) == sorted(pids[:16]) and all(a.status_code == 200 for a in answers.values()), {
        p: a.status_code for p, a in answers.items()}
    records = commands.log(db)
    claims = sorted(json.loads(r.payload)["player_id"] for r in records if r.type == "ResultClaimed")
    assert claims == sorted(pids[:16]), "each report recorded once"
    recorded = {json.loads(r.payload)["table"]: r.actor for r in records if r.type == "ResultRecorded"}
    assert recorded == {t: f"players {pids[2 * t - 2]} {pids[2 * t - 1]}" for t in range(1, 8)}
    assert commands.verify(db).ok
