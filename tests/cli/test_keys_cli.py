"""``goledger keys …``, ``check-in``, ``check-ins``, ``absent-unchecked`` and ``slips --url``
as a user runs them (issue 46): real processes, the ledger and the keys file on disk."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from goledger import commands
from goledger.keys import keys_path, player_for_key
from goledger.render.welcome import qr_svg

from ..conftest import run_cli


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "cup.db"
    commands.new(path, "Key Cup", 3)
    for surname in ("Abe", "Ban", "Cal", "Dan"):
        commands.register(path, surname, "Jo", "3k")
    return path


def _log(db: Path) -> list[tuple[str, str, str]]:
    return [(r.type, r.payload, r.actor) for r in commands.log(db)]


def test_the_welcome_sheet_prints_every_players_link_as_a_qr_code_and_again_the_same(db: Path) -> None:
    first = run_cli("keys", "sheet", "--url", "https://go.example.org/", "--db", db)
    assert first.code == 0, first.err
    links = re.findall(r'<p class="link">(https://go\.example\.org/k/[A-Za-z0-9_-]{24})</p>', first.out)
    assert len(links) == 4 and len(set(links)) == 4
    assert first.out.count("<svg") == 4 and "@page" in first.out
    for n, link in enumerate(links, start=1):
        assert player_for_key(db, link.rsplit("/", 1)[1]) == f"p{n:04d}"
        assert qr_svg(link) in first.out, "the QR code is the printed link's own"
    again = run_cli("keys", "sheet", "--url", "https://go.example.org", "--layout", "a6", "--db", db)
    assert re.findall(r'<p class="link">([^<]+)</p>', again.out) == links, "a reprint is not a reissue"
    assert "size: A6" in again.out
    listed = json.loads(run_cli("keys", "list", "--json", "--db", db).out)["keys"]
    assert [row["player_id"] for row in listed] == ["p0001", "p0002", "p0003", "p0004"]


def test_the_sheet_in_turkish_and_hungarian(db: Path) -> None:
    turkish = run_cli("keys", "sheet", "--url", "http://10.0.0.5:8000", "--player", "Abe", "--language", "tr",
                      "--db", db)
    assert "Hoş geldiniz, Abe Jo" in turkish.out and turkish.out.count("<svg") == 1
    hungarian = run_cli("keys", "sheet", "--url", "http://10.0.0.5:8000", "--language", "hu", "--db", db)
    assert "Üdvözöljük, Ban Jo" in hungarian.out


def test_issue_and_revoke(db: Path) -> None:
    old = json.loads(run_cli("keys", "issue", "Abe", "--url", "https://x.example", "--json", "--db", db).out)
    new = json.loads(run_cli("keys", "issue", "p0001", "--json", "--db", db).out)
    assert old["player_id"] == new["player_id"] == "p0001" and old["link"].endswith(old["key"])
    assert player_for_key(db, old["key"]) is None and player_for_key(db, new["key"]) == "p0001"
    revoked = run_cli("keys", "revoke", "p0001", "--db", db)
    assert revoked.code == 0 and "revoked" in revoked.out
    assert player_for_key(db, new["key"]) is None


def test_bad_input_is_one_sentence_and_writes_nothing(db: Path) -> None:
    before = _log(db)
    for args in (("keys", "sheet", "--url", "javascript:alert(1)"), ("keys", "issue", "nobody"),
                 ("keys", "sheet", "--url", "https://x.example", "--player", "nobody"),
                 ("check-in", "p0001", "--round", "9"), ("check-in", "nobody", "--round", "1")):
        result = run_cli(*args, "--json", "--db", db)
        assert result.code == 1, (args, result)
        assert "\n" not in json.loads(result.out or result.err)["error"]
    assert not keys_path(db).exists(), "a refused sheet issued no key"
    assert _log(db) == before


def test_check_in_then_mark_the_others_absent(db: Path) -> None:
    assert run_cli("check-in", "Abe", "--round", "1", "--actor", "desk a", "--db", db).code == 0
    status = json.loads(run_cli("check-ins", "--json", "--db", db).out)
    assert status == {"round": 1, "required": "no", "paired": False, "checked_in": ["p0001"], "absent": [],
                      "waiting": ["p0002", "p0003", "p0004"]}
    marked = run_cli("absent-unchecked", "--round", "1", "--json", "--db", db)
    assert marked.code == 0, marked.err
    assert len(json.loads(marked.out)["events"]) == 3
    after = json.loads(run_cli("check-ins", "--round", "1", "--json", "--db", db).out)
    assert after["absent"] == ["p0002", "p0003", "p0004"] and after["waiting"] == []
    late = run_cli("check-in", "p0003", "--round", "1", "--db", db)
    assert late.code == 0 and "his absence is cancelled" in late.out
    log = _log(db)
    assert [t for t, _, _ in log[-6:]] == ["CheckedIn", *["ParticipationChanged"] * 4, "CheckedIn"]
    assert log[-6][2] == "desk a"
    text = run_cli("check-ins", "--db", db).out
    assert "checked in: 2" in text and "Cal Jo" in text


def test_slips_carry_both_players_links(db: Path) -> None:
    commands.pair(db, 1, "p0001", "p0002", 1, 0)
    plain = run_cli("slips", "--round", "1", "--db", db)
    assert "<svg" not in plain.out and not keys_path(db).exists()
    linked = run_cli("slips", "--round", "1", "--url", "https://go.example.org", "--db", db)
    assert linked.code == 0, linked.err
    assert linked.out.count("<svg") == 2
    keys = json.loads(run_cli("keys", "list", "--json", "--db", db).out)["keys"]
    assert {row["player_id"] for row in keys} == {"p0001", "p0002"}
    for row in keys:
        assert f"https://go.example.org/k/{row['key']}" in linked.out
