"""Damaged ledgers (issue 10 item 4): a truncated file, random bytes, another program's file,
a ledger whose triggers were removed or neutered, a ledger from a newer store or event
schema. Every command refuses with one clear line on stderr, exit 1, and the file (and
its folder) unchanged; ``verify --repair-report`` says what can be trusted up to which event."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from goledger import commands
from goledger.cli.main import app
from goledger.ledger.repair import repair_report

from ..damage import DAMAGES, altered_result, build_small_ledger, file_state, triggers_removed, truncated


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_small_ledger(tmp_path_factory.mktemp("good") / "good.db")


def invoke(*args: str | Path) -> tuple[int, str, str]:
    """Run the CLI in-process; an uncaught exception (a traceback for the user) fails the test."""
    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"goledger {' '.join(map(str, args))} raised {result.exception!r}") from result.exception
    return result.exit_code, result.stdout, result.stderr


COMMANDS: list[list[str]] = [
    ["standings"],
    ["standings", "--round", "1", "--json"],
    ["log"],
    ["log", "--json"],
    ["register", "--surname", "Eko", "--rank", "2k"],
    ["update-player", "Abe", "--club", "Tokyo"],
    ["withdraw", "Chen", "--from-round", "2"],
    ["reinstate", "Chen", "--from-round", "2"],
    ["absent", "Dias", "--round", "2"],
    ["present", "Dias", "--round", "2"],
    ["bye", "Dias", "--round", "2"],
    ["unbye", "Dias", "--round", "2"],
    ["pair", "--round", "2", "--white", "Abe", "--black", "Chen"],
    ["pair-round", "2", "--engine", "egf"],
    ["pair-round", "2", "--engine", "egf", "--dry-run", "--json"],
    ["pair-round", "1", "--check"],
    ["unpair-round", "1", "--reason", "again"],
    ["explain-pairing", "1"],
    ["forbid", "Abe", "Chen"],
    ["fix-pairing", "Abe", "Chen", "--round", "2"],
    ["fix-table", "Abe", "--table", "3"],
    ["pair", "--round", "2", "Abe", "Chen", "--dry-run"],
    ["edit-game", "--round", "1", "--table", "2", "--swap-colours"],
    ["renumber-tables", "--round", "1", "--start", "25"],
    ["unpair", "--round", "1", "--table", "2"],
    ["result", "--round", "1", "--table", "2", "black"],
    ["result", "--round", "1", "--table", "2", "black", "--expected-head", "8", "--retry"],
    ["correct", "--round", "1", "--table", "1", "black", "--reason", "slip"],
    ["explain", "Abe"],
    ["history", "Abe"],
    ["diff", "--from", "5"],
    ["what-if", "--without", "8"],
    ["publish", "--round", "1"],
    ["report", "--html", "OUT"],
    ["crosstable"],
    ["rating-preview", "--json"],
    ["schedule", "--berger"],
    ["start-scores"],
    ["start-groups", "--super-group"],
    ["change-rules", "policy=egf"],
    ["settings"],
    ["export", "opengotha", "-o", "OUT"],
    ["export", "macmahon", "-o", "OUT"],
    ["export", "egd", "-o", "OUT"],
    ["export", "trf", "-o", "OUT"],
    ["export", "pseudonymised", "-o", "OUT", "--key-file", "OUT.key"],
    ["import", "macmahon-players", "LIST"],
    ["bracket"],
    ["place", "Abe"],
    ["serve", "--token", "long-enough-token", "--host", "256.0.0.1"],  # refused before it listens
    ["pairings", "--round", "1"],
    ["slips", "--round", "1"],
    ["show-round", "1"],
    ["players"],
    ["wall-list"],
    ["unregister", "Eko"],
    ["team", "add", "Lions"],
    ["team", "assign", "Lions", "Abe", "--board", "1"],
    ["team", "remove", "Lions"],
    ["team", "list"],
    ["team", "pairings", "--round", "1"],
    ["team", "sheets", "--round", "1"],
    ["team", "crosstable"],
    ["pair-teams", "1", "Lions", "Tigers"],
    ["export", "ffg", "-o", "OUT"],
    ["export", "aga", "-o", "OUT"],
    ["freeze", "--reason", "final"],
    ["unfreeze", "--reason", "appeal"],
    ["reports", "--round", "1"],
    ["approve-reports", "--round", "1"],
    ["check-in", "Abe", "--round", "2"],
    ["check-ins", "--round", "2"],
    ["absent-unchecked", "--round", "2"],
    ["keys", "issue", "Abe"],
    ["keys", "revoke", "Abe"],
    ["keys", "list"],
    ["keys", "sheet", "--url", "http://desk.example"],
    ["egd-check"],
    ["site", "OUT"],
    ["timeline", "Abe"],
    ["dispute-sheet", "Abe"],
    ["unit", "add", "Pair", "Abe", "Ito"],
    ["unit", "remove", "Pair"],
    ["unit", "list"],
]
"""Every command that reads or writes a ledger (``OUT``: an output file in the ledger's folder)."""


def _registered() -> list[list[str]]:
    """Every command of the CLI that takes ``--db``, as ``[name]`` or ``[group, name]``."""
    import typer.main

    from goledger.cli.main import app as full

    click_app = typer.main.get_command(full)
    found: list[list[str]] = []
    for name, command in click_app.commands.items():  # type: ignore[attr-defined]
        subcommands = getattr(command, "commands", None)
        for path, cmd in ([([name, sub], c) for sub, c in subcommands.items()] if subcommands else [([name], command)]):
            if any("--db" in getattr(param, "opts", ()) for param in cmd.params):
                found.append(path)
    return found


def test_every_command_is_in_the_table() -> None:
    """A command added later is refused on a damaged ledger too: list it in COMMANDS."""
    covered = {tuple(c[:2]) if c[0] in ("export", "import", "team", "unit", "keys") else (c[0],) for c in COMMANDS}
    special = {("new",), ("verify",)}  # creates a ledger / has its own tests below
    creating = {("import", name) for name in ("opengotha", "macmahon", "egd", "trf", "ffg")}  # write a new ledger
    missing = [" ".join(c) for c in _registered()
               if tuple(c) not in covered | special | creating and c[0] != "validate"]
    assert not missing, f"add these commands to COMMANDS in tests/ledger/test_damaged_ledgers.py: {missing}"


@pytest.mark.parametrize("damage", sorted(DAMAGES))
@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(c[:2]) for c in COMMANDS])
def test_every_command_refuses_a_damaged_ledger(good: Path, tmp_path: Path, damage: str, argv: list[str]) -> None:
    make, words = DAMAGES[damage]
    path = make(good, tmp_path / "t.db")
    argv = [str(tmp_path / "out.file") + a[3:] if a.startswith("OUT") else a for a in argv]
    if "LIST" in argv:
        listing = tmp_path / "list.txt"
        listing.write_text("Eko|Sam|2k\n")
        argv[argv.index("LIST")] = str(listing)
    before = file_state(path)
    code, out, err = invoke(*argv, "--db", path)
    assert code == 1, (code, out, err)
    assert err.startswith("error: ") and words in err, err
    assert err.count("\n") == 1, f"one line: {err!r}"
    assert out == ""
    assert file_state(path) == before


VERIFY = {
    "truncated": "is damaged and cannot be read",
    "random-bytes": "not an SQLite database",
    "sqlite-magic-then-noise": "is damaged and cannot be read",
    "empty-file": "not an SQLite database",
    "other-program-sqlite": "not a goledger ledger",
    "other-program-meta": "not a goledger ledger",
    "opengotha-xml": "not an SQLite database",
    "triggers-removed": "the append-only triggers were removed: events_append_only_update, "
                        "events_append_only_delete; events 1..8 can be trusted",
    "trigger-neutered": "the append-only triggers were changed: events_append_only_update; events 1..8 can be",
    "newer-store-schema": "written by a newer goledger",
    "newer-event-schema": "event 9 (ResultRecorded) cannot be decoded: event type ResultRecorded has schema "
                          "version 3, newer than this goledger knows (2); upgrade goledger; events 1..8 can be",
    "unknown-event-type": "event 9 (ClockStopped) cannot be decoded: unknown event type 'ClockStopped'",
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_verify_names_the_damage(good: Path, tmp_path: Path, damage: str) -> None:
    path = DAMAGES[damage][0](good, tmp_path / "t.db")
    before = file_state(path)
    code, out, err = invoke("verify", "--db", path)
    assert code == 1 and VERIFY[damage] in err, err
    assert err.count("\n") == 1 and out == ""
    assert file_state(path) == before


REPAIR = {
    "truncated": (False, "no event in it can be trusted", 0),
    "random-bytes": (False, "is not an SQLite database, so not a goledger ledger", 0),
    "sqlite-magic-then-noise": (False, "is damaged beyond reading", 0),
    "empty-file": (False, "is not an SQLite database", 0),
    "other-program-sqlite": (False, "is an SQLite database of another program", 0),
    "other-program-meta": (False, "is an SQLite database of another program", 0),
    "opengotha-xml": (False, "is not an SQLite database", 0),
    "triggers-removed": (True, "all 8 events of", 8),
    "trigger-neutered": (True, "all 8 events of", 8),
    "newer-store-schema": (False, "was written by a newer goledger (store schema 2; this one reads up to 1)", 0),
    "newer-event-schema": (True, "events 1..8 can be trusted; from event 9 on the log cannot be: event 9 "
                           "(ResultRecorded) cannot be read by this goledger", 8),
    "unknown-event-type": (True, "events 1..8 can be trusted; from event 9 on", 8),
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_repair_report_says_what_can_be_trusted(good: Path, tmp_path: Path, damage: str) -> None:
    path = DAMAGES[damage][0](good, tmp_path / "t.db")
    before = file_state(path)
    is_ledger, verdict, trusted = REPAIR[damage]
    code, out, err = invoke("verify", "--repair-report", "--db", path, "--json")
    assert code == 1 and err == ""
    report = json.loads(out)
    assert report["ok"] is False and report["ledger"] is is_ledger
    assert verdict in report["verdict"], report["verdict"]
    assert report["trusted_upto"] == trusted
    code, text, err = invoke("verify", "--repair-report", "--db", path)
    assert code == 1 and text.startswith(f"repair report for {path}\n  verdict: ") and verdict in text
    assert file_state(path) == before


def test_repair_report_of_a_good_ledger(good: Path) -> None:
    before = file_state(good)
    code, out, _ = invoke("verify", "--repair-report", "--db", good)
    assert code == 0
    assert "verdict: all 8 events of" in out and "trusted: events 1..8, ending at hash" in out
    assert "note: last trusted event: 8 round 1 table 1: result white (desk-a," in out
    assert file_state(good) == before


def test_repair_report_names_the_altered_event_and_the_published_head(good: Path, tmp_path: Path) -> None:
    path = altered_result(good, tmp_path / "t.db")
    head7 = commands.log(good)[6].hash
    report = commands.repair_report(path, published_head=head7[:20])
    assert not report.ok and report.trusted_upto == 7
    assert report.verdict.endswith("from event 8 on the log cannot be: event 8 (ResultRecorded) was altered: its "
                                   "content no longer matches its hash")
    assert report.findings[0].kind == "altered" and report.findings_total == 1
    assert report.published_head_seq == 7
    assert "the published head is event 7: events 1..7 are exactly what was published" in report.notes
    assert "last trusted event: 7 round 1 table 2: p0003 (W) – p0004 (B) paired (desk-a," in report.notes[-1]
    # an ordinary command does not verify the chain, but verify does
    code, _, err = invoke("verify", "--db", path)
    assert code == 1 and "event 8 (ResultRecorded) was altered" in err and "events 1..7 can be trusted" in err


def test_verify_against_a_published_head(good: Path, tmp_path: Path) -> None:
    records = commands.log(good)
    code, out, _ = invoke("verify", "--published-head", records[5].hash, "--db", good)
    assert code == 0
    assert "note: the published head is event 6: events 1..6 are exactly what was published; 2 event(s) were " \
           "recorded after it" in out
    # a log rewritten *with* its hashes verifies on its own, but not against what was published
    rewritten = tmp_path / "rewritten.db"
    build_small_ledger(rewritten)
    code, out, err = invoke("verify", "--published-head", records[5].hash[:16], "--db", rewritten)
    assert code == 1 and "is not the hash of any trusted event of this ledger" in err
    code, _, err = invoke("verify", "--published-head", "xyz", "--db", good)
    assert code == 1 and "published head 'xyz' is not a hash" in err


def test_truncated_large_ledger_keeps_the_events_before_the_damage(tmp_path: Path) -> None:
    from benchmarks.generate import generate_events, write_ledger

    big = tmp_path / "big.db"
    write_ledger(generate_events(120, 5, seed=3), big, batch=100)
    with_records = commands.log(big)
    cut = truncated(big, tmp_path / "cut.db", 0.7)
    report = repair_report(cut)
    assert not report.ok and report.ledger and "truncated" in report.damage
    assert 0 < report.trusted_upto < len(with_records)
    assert report.trusted_head == with_records[report.trusted_upto - 1].hash
    assert report.verdict.startswith(f"events 1..{report.trusted_upto} can be trusted")
    assert report.findings[0].kind == "unreadable"


def test_verify_of_a_ledger_whose_triggers_were_removed_still_checks_the_chain(good: Path, tmp_path: Path) -> None:
    path = triggers_removed(good, tmp_path / "t.db")
    report = commands.verify(path)
    assert not report.ok and report.trusted_upto == 8
    assert report.missing_triggers == ("events_append_only_update", "events_append_only_delete")


def test_damaged_file_through_a_real_process(good: Path, tmp_path: Path, cli) -> None:
    """The same refusal from ``python -m goledger`` (no in-process runner)."""
    path = truncated(good, tmp_path / "t.db")
    before = file_state(path)
    res = cli("result", "--round", "1", "--table", "2", "black", "--db", path)
    assert res.code == 1 and res.err.startswith("error: ") and "is damaged and cannot be read" in res.err
    assert res.err.count("\n") == 1 and "Traceback" not in res.err
    assert file_state(path) == before
    shutil.rmtree(tmp_path)


def test_salvage_copies_the_trusted_events_with_their_hashes(tmp_path: Path) -> None:
    from benchmarks.generate import generate_events, write_ledger

    big = tmp_path / "big.db"
    write_ledger(generate_events(120, 5, seed=3), big, batch=100)
    cut = truncated(big, tmp_path / "cut.db", 0.7)
    before = file_state(cut)
    saved = tmp_path / "saved.db"
    code, out, err = invoke("verify", "--repair-report", "--salvage", saved, "--db", cut)
    assert code == 1 and err == ""  # the damaged file is still reported as damaged
    report = repair_report(cut)
    assert f"note: events 1..{report.trusted_upto} were salvaged into {saved} (same hashes" in out
    assert file_state(cut)[0] == before[0]  # the damaged file is untouched (its folder has the new file)
    code, out, _ = invoke("verify", "--db", saved, "--published-head", report.trusted_head)
    assert code == 0 and f"ok: {report.trusted_upto} events, chain head {report.trusted_head}" in out
    code, _, err = invoke("result", "--round", "5", "--table", "1", "white", "--db", saved)
    assert code in (0, 1) and "damaged" not in err  # an ordinary ledger again


def test_salvage_refusals(good: Path, tmp_path: Path) -> None:
    existing = tmp_path / "exists.db"
    existing.write_text("mine")
    code, _, err = invoke("verify", "--repair-report", "--salvage", existing, "--db", good)
    assert code == 1 and err == f"error: {existing} already exists; salvage into a new file\n"
    assert existing.read_text() == "mine"
    code, _, err = invoke("verify", "--salvage", tmp_path / "new.db", "--db", good)
    assert code == 2 and "--salvage goes with --repair-report" in err
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"SQLite format 3\x00" + bytes(4000))
    code, _, err = invoke("verify", "--repair-report", "--salvage", tmp_path / "new.db", "--db", junk)
    assert code == 1 and "nothing to salvage" in err
    assert not (tmp_path / "new.db").exists()
