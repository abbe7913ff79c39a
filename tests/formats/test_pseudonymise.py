"""Sharing a ledger without personal data (issue 10 item 6): ``goledger export pseudonymised``
writes a copy whose standings are the original's under stable pseudonyms, which holds none
of the personal strings, and which verifies against the original's published head — and a
forged copy does not."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from pathlib import Path

import msgspec
import pytest
from lxml import etree

from goledger import commands
from goledger.errors import CommandRejected, LedgerError
from goledger.formats.opengotha import import_opengotha
from goledger.formats.pseudonymised import pseudonymise
from goledger.ledger import events as ev
from goledger.ledger.copies import find_copy, verify_copy
from goledger.ledger.store import Envelope, Ledger
from goledger.replay.views import standings

from ..gen_files import opengotha_xml

PERSONAL = ["Yılmaz", "Müller", "O'Brien", "10000003", "77.128.107.78", "02:42:ac:11:00:02", "kasparov",
            "1712345", "A. Director", "Ber", "Ist"]
"""Strings of the source that must not reach the copy: names, PINs, an IP and a MAC address,
a user name, an FFG licence, the director, clubs."""


def source_ledger(folder: Path, players: int = 12, seed: int = 4, name: str = "t.db") -> Path:
    root = etree.fromstring(opengotha_xml(players, 3, seed=seed))
    root.set("externalIPAddress", "77.128.107.78")
    root.set("macAddress", "02:42:ac:11:00:02")
    first = next(root.iter("Player"))
    first.set("userName", "kasparov")
    first.set("ffgLicence", "1712345")
    xml = folder / f"{name}.xml"
    xml.write_bytes(etree.tostring(root, xml_declaration=True, encoding="UTF-8"))
    db = folder / name
    import_opengotha(xml, db)
    from goledger.replay.views import state_as_of

    current = state_as_of(db).games[1][1].result.value
    commands.correct(db, 1, 1, "jigo" if current != "jigo" else "white", "the referee's decision", actor="desk-a")
    return db


@pytest.fixture
def original(tmp_path: Path) -> Path:
    return source_ledger(tmp_path)


def names(db: Path) -> dict[str, str]:
    with Ledger.open(db) as ledger:
        from goledger.replay.loading.load import load_state

        return {pid: p.full_name for pid, p in load_state(ledger).players.items()}


def test_copy_keeps_the_standings_and_drops_the_personal_data(original: Path, tmp_path: Path, cli) -> None:
    copy = tmp_path / "copy.db"
    res = cli("export", "pseudonymised", "-o", copy, "--key-file", tmp_path / "key", "--db", original)
    assert res.code == 0, res.err
    assert "a pseudonymised copy of" in res.out and "a new secret key was created" in res.out
    assert "free texts (reasons, notes, comments) and the actors (desk-a, import) were kept verbatim" in res.out
    before, after = standings(original), standings(copy)
    strip = ("surname", "first_name", "egd_pin")
    assert [{k: v for k, v in msgspec.to_builtins(r).items() if k not in strip} for r in before.rows] == \
           [{k: v for k, v in msgspec.to_builtins(r).items() if k not in strip} for r in after.rows]
    assert all(r.surname.startswith("P-") and r.first_name == "" and r.egd_pin == "" for r in after.rows)
    data = copy.read_bytes()
    for text in PERSONAL:
        assert text.encode() not in data, text
    for name in names(original).values():
        assert name.split()[0].encode() not in data
    # the correction's reason is free text: kept verbatim by default…
    with Ledger.open(copy) as ledger:
        reasons = [r.event.reason for r in ledger.records() if r.type == "ResultCorrected"]
    assert reasons == ["the referee's decision"]
    assert (stat.S_IMODE(os.stat(tmp_path / "key").st_mode)) == 0o600


def test_withhold_text_replaces_actors_and_free_text(original: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.db"
    outcome = pseudonymise(original, copy, tmp_path / "key", withhold_text=True)
    with Ledger.open(copy) as ledger:
        records = list(ledger.records())
    body = records[:-1]
    assert all(r.actor.startswith("A-") and r.reason == "" for r in body)
    assert b"the referee's decision" not in copy.read_bytes() and b"desk-a" not in copy.read_bytes()
    assert outcome.hidden == len(body)  # every envelope changed: nothing is bound any more
    with Ledger.open(copy) as ledger:
        check = verify_copy(ledger)
    assert check is not None and check.ok and check.bound_from == len(body) + 1


def test_pseudonyms_are_stable_across_ledgers_and_keys(tmp_path: Path) -> None:
    a = source_ledger(tmp_path, players=12, seed=4, name="a.db")
    b = source_ledger(tmp_path, players=20, seed=9, name="b.db")  # other players, other order
    key = tmp_path / "key"
    pseudonymise(a, tmp_path / "a-copy.db", key)
    pseudonymise(b, tmp_path / "b-copy.db", key)
    pseudonymise(b, tmp_path / "b-other.db", tmp_path / "other-key")

    def by_pin(db: Path) -> dict[str, str]:
        from goledger.replay.views import state_as_of

        return {p.egd_pin: p.id for p in state_as_of(db).players.values()}

    pins_a, pins_b = by_pin(a), by_pin(b)
    copy_a, copy_b, other_b = names(tmp_path / "a-copy.db"), names(tmp_path / "b-copy.db"), names(tmp_path /
                                                                                                   "b-other.db")
    shared = sorted(set(pins_a) & set(pins_b))
    assert shared, "the two tournaments share players (same EGD PINs)"
    for pin in shared:
        assert copy_a[pins_a[pin]] == copy_b[pins_b[pin]]          # same key: same pseudonym
        assert copy_b[pins_b[pin]] != other_b[pins_b[pin]]         # other key: another one
    assert len(set(copy_b.values())) == len(copy_b)


def test_copy_verifies_against_the_original_and_a_published_head(original: Path, tmp_path: Path, cli) -> None:
    copy = tmp_path / "copy.db"
    outcome = pseudonymise(original, copy, tmp_path / "key")
    records = commands.log(original)
    published = records[-3].hash
    res = cli("verify", "--db", copy, "--published-head", published[:20])
    assert res.code == 0, res.err
    last_hidden = outcome.hidden and max(h.seq for h in find_copy(Ledger.open(copy))[1].hidden)
    n = len(records)
    assert f"note: pseudonymised copy of a ledger of {n} events ending at {records[-1].hash}" in res.out
    assert f"note: events {last_hidden + 1}..{n} are bound to the original head" in res.out
    assert f"note: the published head is original event {n - 2}: events {last_hidden + 1}..{n - 2} of the copy " \
           "are bound to it" in res.out
    res = cli("verify", "--db", copy, "--published-head", "ab" * 32)
    assert res.code == 1 and "the published head abababababababab… is not on the original chain" in res.err


def _rewrite(copy: Path, out: Path, change) -> Path:
    """A forged copy: the copy's envelopes with ``change`` applied, written as a new ledger
    (whose own chain therefore verifies)."""
    with Ledger.open(copy) as ledger:
        envelopes = [Envelope(r.type, r.schema_version, r.payload, r.recorded_at, r.actor, r.reason)
                     for r in ledger.records()]
    Ledger.create_complete_from(out, change(envelopes))
    return out


def test_a_forged_copy_does_not_verify(original: Path, tmp_path: Path, cli) -> None:
    copy = tmp_path / "copy.db"
    pseudonymise(original, copy, tmp_path / "key")

    def flip_last_result(envs: list[Envelope]) -> list[Envelope]:
        i = max(i for i, e in enumerate(envs) if e.type == "ResultRecorded")
        payload = json.loads(envs[i].payload)
        payload["result"] = "black" if payload["result"] != "black" else "white"
        envs[i] = msgspec.structs.replace(envs[i], payload=json.dumps(payload, sort_keys=True, separators=(",", ":")))
        return envs

    def swap_two(envs: list[Envelope]) -> list[Envelope]:
        envs[-3], envs[-2] = envs[-2], envs[-3]
        return envs

    def drop_one(envs: list[Envelope]) -> list[Envelope]:
        trailer = json.loads(envs[-1].payload)
        trailer["original_events"] -= 1
        del envs[-2]
        envs[-1] = msgspec.structs.replace(envs[-1], payload=json.dumps(trailer, sort_keys=True,
                                                                        separators=(",", ":")))
        return envs

    for name, change in (("flip", flip_last_result), ("swap", swap_two), ("drop", drop_one)):
        forged = _rewrite(copy, tmp_path / f"{name}.db", change)
        with Ledger.open(forged) as ledger:
            assert ledger.verify().ok  # its own chain is fine…
        res = cli("verify", "--db", forged)
        assert res.code == 1, name  # …but it is not a copy of the published ledger
        assert "do not recompute to the original head" in res.err or "is missing" in res.err, res.err


def test_what_a_copy_cannot_prove_without_the_names(original: Path, tmp_path: Path) -> None:
    """A changed pseudonym (a hidden field) is not detectable by a third party: documented."""
    copy = tmp_path / "copy.db"
    pseudonymise(original, copy, tmp_path / "key")

    def rename(envs: list[Envelope]) -> list[Envelope]:
        i = next(i for i, e in enumerate(envs) if e.type == "PlayerRegistered")
        payload = json.loads(envs[i].payload)
        payload["surname"] = "P-SOMEONEELS"
        envs[i] = msgspec.structs.replace(envs[i], payload=json.dumps(payload, sort_keys=True,
                                                                      separators=(",", ":")))
        return envs

    forged = _rewrite(copy, tmp_path / "renamed.db", rename)
    with Ledger.open(forged) as ledger:
        check = verify_copy(ledger)
    assert check is not None and check.ok
    assert any("only someone holding the original ledger" in s for s in check.sentences)


REFUSALS = [
    ("exists", "already exists; a pseudonymised copy needs a new file"),
    ("same-file", "already exists; a pseudonymised copy needs a new file"),
    ("bad-key", "does not hold a goledger key (64 hexadecimal digits)"),
    ("short-key", "is too short (4 bytes; at least 16 are needed)"),
    ("key-folder", "cannot create the key file"),
    ("copy-of-copy", "is already a pseudonymised copy"),
    ("broken", "does not verify"),
]


@pytest.mark.parametrize(("case", "message"), REFUSALS, ids=[c for c, _ in REFUSALS])
def test_refusals(original: Path, tmp_path: Path, cli, case: str, message: str) -> None:
    from ..damage import file_state

    db, out, key = original, tmp_path / "out" / "copy.db", tmp_path / "key"
    out.parent.mkdir()
    if case == "exists":
        out.write_text("mine")
    elif case == "same-file":
        out = db
    elif case == "bad-key":
        key.write_text("not a key")
    elif case == "short-key":
        key.write_text("00112233")
    elif case == "key-folder":
        key = tmp_path / "nowhere" / "key"
    elif case == "copy-of-copy":
        first = tmp_path / "first.db"
        pseudonymise(original, first, tmp_path / "k1")
        db = first
    elif case == "broken":
        db = tmp_path / "broken.db"
        db.write_bytes(original.read_bytes())
        conn = sqlite3.connect(db)
        sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'events_append_only_update'").fetchone()[0]
        conn.execute("DROP TRIGGER events_append_only_update")
        conn.execute("UPDATE events SET actor = 'mallory' WHERE seq = 3")
        conn.execute(sql)
        conn.commit()
        conn.close()
    before, out_before = file_state(db), (out.read_bytes() if out.exists() else None)
    listing = sorted(p.name for p in out.parent.iterdir())
    res = cli("export", "pseudonymised", "-o", out, "--key-file", key, "--db", db)
    assert res.code == 1 and res.out == "" and message in res.err, res.err
    assert res.err.startswith("error: ") and res.err.count("\n") == 1
    assert file_state(db) == before
    assert (out.read_bytes() if out.exists() else None) == out_before
    assert sorted(p.name for p in out.parent.iterdir()) == listing


def test_library_refusals_raise_goledger_errors(original: Path, tmp_path: Path) -> None:
    with pytest.raises(CommandRejected, match="no key file at"):
        from goledger.formats.pseudonymised import load_key

        load_key(tmp_path / "missing", create=False)
    with pytest.raises(LedgerError, match="no ledger at"):
        pseudonymise(tmp_path / "missing.db", tmp_path / "c.db", tmp_path / "key")
    assert not (tmp_path / "c.db").exists()


def test_copy_event_is_ignored_by_the_fold(original: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.db"
    pseudonymise(original, copy, tmp_path / "key")
    with Ledger.open(copy) as ledger:
        last = list(ledger.records())[-1]
        from goledger.replay.fold.state import fold

        assert last.type == "PseudonymisedCopy"
        events = ledger.events()
    assert not fold(events).anomalies
    assert isinstance(events[-1], ev.PseudonymisedCopy)
