"""Issue 18: the log stays sacred. One test per break the issue lists: the exact command, its
refusal, the ledger unchanged, every view still working (tests/views_support.py)."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from pathlib import Path

import msgspec
import pytest

from goledger import commands
from goledger.errors import CommandRejected, GoledgerError
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger

from ..conftest import run_cli
from ..views_support import views


class _Done:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def __repr__(self) -> str:
        return f"CliResult(code={self.code}, out={self.out!r}, err={self.err!r})"


def _in_process(*args: str | os.PathLike[str]) -> _Done:
    """The command line run in this process (typer's runner): the same code path as
    ``python -m goledger`` without a process start per call."""
    from typer.testing import CliRunner

    from goledger.cli.main import app

    done = CliRunner().invoke(app, [str(a) for a in args])
    if done.exception is not None and not isinstance(done.exception, SystemExit):
        raise done.exception
    return _Done(done.exit_code, done.stdout, done.stderr)


@pytest.fixture
def cli():
    """In process for speed; ``run_cli`` (a real process) where the process matters."""
    return _in_process


def _append_raw(db: Path, events: list[ev.Event]) -> None:
    """What an older goledger (without the domain checks) could have appended."""
    with Ledger.open(db) as ledger, ledger.writing() as tx:
        tx.append(events, actor="old-goledger", reason="")


@pytest.fixture
def played(tmp_path: Path) -> Path:
    """Three players, round 1 paired and played, round 2 paired: a tournament under way."""
    db = tmp_path / "t.db"
    commands.new(db, "Sacred Open", 5)
    for surname, first, rank in (("Müller", "Jan", "3d"), ("Costa", "Ana", "1k"), ("Dubois", "Luc", "5k")):
        commands.register(db, surname, first, rank)
    commands.pair(db, 1, "p0001", "p0002")
    commands.result(db, 1, 1, "white")
    commands.bye(db, "p0003", 1)
    commands.pair(db, 2, "p0001", "p0003")
    return db


# --------------------------------------------------------------------------- point 1: validation


@pytest.mark.parametrize(("setting", "refusal"), [
    ("mm_bar=5dan", "mm bar '5dan' is not a rank"),
    ("mm_floor=99k", "mm floor '99k' is not a rank"),
    ("rounds=0", "rounds 0 is outside 1..99"),
    ("rounds=1", "rounds 1 is below round 2, which already has games"),
    ("komi=abc", "komi 'abc' is not a number"),
    ("mms2_absent=7", "mms2 absent 7 is outside 0..2"),
    ("criteria=MMS,FOO", "unknown criterion 'FOO'"),
    ("withdrawn=maybe", "withdrawn 'maybe' is outside its domain: absent | zero"),
    ("policy=nope", "unknown policy 'nope'"),
    ("colour=blue", "unknown setting 'colour'"),
])
def test_change_rules_outside_the_domain_is_refused(played: Path, cli, setting: str, refusal: str,
                                                      tmp_path: Path) -> None:
    before = played.read_bytes()
    done = cli("change-rules", setting, "--db", played)
    assert done.code == 1 and refusal in done.err and "Traceback" not in done.err, done
    assert played.read_bytes() == before
    assert views(played, tmp_path, every_as_of=False, exports=False).get("ok", 0) >= 5


def test_change_rules_criteria_default_means_the_policy_default(played: Path, tmp_path: Path) -> None:
    out = commands.change_rules(played, {"criteria": ["default"]})
    assert "criteria MMS,SOSM,SOSOSM → (none)" in out.message
    assert views(played, tmp_path, exports=False).get("refused", 0) == 0


@pytest.mark.parametrize(("argv", "refusal"), [
    (["register", "--surname", "X", "--rank", "3d", "--rating", "99999999999999999999999"],
     "rating 99999999999999999999999 is outside -99999..99999"),
    (["pair", "-r", "3", "--white", "p0001", "--black", "p0002", "--table", "99999999999999999999999",
      "--force"],
     "table 99999999999999999999999 is outside 0..99999"),
])
def test_out_of_range_integers_are_refused(played: Path, cli, argv: list[str], refusal: str) -> None:
    before = played.read_bytes()
    done = cli(*argv, "--db", played)
    assert done.code == 1 and refusal in done.err, done
    assert played.read_bytes() == before


def test_an_old_ledger_holding_a_rule_change_outside_the_domain_still_folds(played: Path, tmp_path: Path) -> None:
    _append_raw(played, [ev.RulesChanged(changes={"mm_bar": "5dan"}), ev.RulesChanged(changes={"rounds": 0}),
                         ev.RulesChanged(changes={"komi": "abc"})])
    from goledger.replay.views import state_as_of

    state = state_as_of(played)
    assert state.settings is not None and state.settings.mm_bar == "4d" and state.rounds == 5
    assert [a.message.split(":")[0] for a in state.anomalies] == [
        "event 9 (RulesChanged) was ignored", "event 10 (RulesChanged) was ignored",
        "event 11 (RulesChanged) was ignored"]
    seen = views(played, tmp_path)
    assert seen["ok"] >= 15


_OLD_BAD_EVENTS = {
    "rank": ev.PlayerRegistered(player_id="p0009", surname="Bad", rank="5dan"),
    "rank update": ev.PlayerUpdated(player_id="p0001", changes={"rank": "abc"}),
    "huge round": ev.GamePaired(round=10 ** 22, table=1, white="p0001", black="p0002"),
    "huge table": ev.GamePaired(round=3, table=10 ** 22, white="p0001", black="p0002"),
    "komi": ev.GamePaired(round=3, table=1, white="p0001", black="p0002", komi="abc"),
    "huge bye round": ev.ByeAssigned(round=10 ** 22, player_id="p0001"),
    "huge absence round": ev.ParticipationChanged(player_id="p0001", round=10 ** 22, participating=False),
    "huge withdrawal": ev.PlayerWithdrew(player_id="p0001", from_round=10 ** 22),
    "huge rule round": ev.RulesChanged(changes={"mm_bar": "2d"}, from_round=10 ** 22),
    "huge numbers": ev.PlayerRegistered(player_id="p0009", surname="S", rank="3d", start_number=10 ** 22,
                                        mm_correction=10 ** 22),
}


@pytest.mark.parametrize("case", sorted(_OLD_BAD_EVENTS))
def test_an_old_ledger_holding_an_event_outside_the_domain_keeps_every_view(played: Path, tmp_path: Path,
                                                                          case: str) -> None:
    from goledger.ledger.domains import event_problem

    event = _OLD_BAD_EVENTS[case]
    assert event_problem(event) is not None  # today's commands and importers could not append it
    _append_raw(played, [event])
    assert views(played, tmp_path, every_as_of=False).get("ok", 0) >= 10


def test_an_old_ledger_holding_unknown_criteria_or_policy_says_so_naming_the_event(played: Path, cli,
                                                                                 tmp_path: Path) -> None:
    _append_raw(played, [ev.RulesChanged(changes={"criteria": ["MMS", "FOO"]}),
                         ev.RulesChanged(changes={"policy": "nope"})])
    shown = cli("standings", "--db", played)
    assert shown.code == 0 and "Traceback" not in shown.err
    assert shown.err.splitlines() == ["note: event 9 (RulesChanged) was ignored: unknown criterion 'FOO'",
                                      "note: event 10 (RulesChanged) was ignored: unknown policy 'nope'"]
    assert json.loads(cli("standings", "--db", played, "--json").out)["notes"][0].startswith("event 9 (RulesChanged)")
    assert views(played, tmp_path).get("ok", 0) >= 15


def test_an_old_ledger_holding_a_huge_rating_still_snapshots(played: Path, tmp_path: Path) -> None:
    _append_raw(played, [ev.PlayerRegistered(player_id="p0004", surname="Big", rank="3d", rating=10 ** 22)])
    from goledger.replay.loading import snapshots

    with Ledger.open(played) as ledger:
        state = snapshots.cached_state(ledger)
    assert state.players["p0004"].rating == 10 ** 22
    assert views(played, tmp_path, every_as_of=False).get("ok", 0) >= 5


def test_importers_refuse_events_outside_the_domain_with_a_report_entry(tmp_path: Path) -> None:
    from goledger.formats.importing import ImportRefused, write_new_ledger
    from goledger.formats.report import InterchangeReport

    settings = ev.TournamentSettings(name="X", rounds=3)
    report = InterchangeReport(format="test", source="x")
    bad = [ev.TournamentCreated(settings=settings),
           ev.PlayerRegistered(player_id="p0001", surname="Evil\x1b[2J", rank="3d")]
    with pytest.raises(ImportRefused, match="contains an invisible or control character"):
        write_new_ledger(bad, tmp_path / "x.db", report, allow_errors=True)
    assert [e.kind for e in report.errors] == ["domain"] and report.errors[0].where == "event 2 (PlayerRegistered)"
    assert not (tmp_path / "x.db").exists()


# --------------------------------------------------------------------------- point 3: outputs


def test_exports_never_overwrite_the_ledger_its_companions_or_links_to_it(played: Path, cli, tmp_path: Path) -> None:
    before = played.read_bytes()
    (tmp_path / "link.xml").symlink_to(played)
    os.link(played, tmp_path / "hard.xml")
    for target in (played, Path(f"{played}-wal"), Path(f"{played}-shm"), tmp_path / "link.xml",
                   tmp_path / "hard.xml"):
        done = cli("export", "opengotha", "--db", played, "-o", target, "--force")
        assert done.code == 1 and "must not be overwritten" in done.err, (target, done)
        report = cli("export", "opengotha", "--db", played, "-o", tmp_path / "fine.xml", "--report", target, "--force")
        assert report.code == 1 and "must not be overwritten" in report.err, (target, report)
    assert played.read_bytes() == before and not (tmp_path / "fine.xml").exists()
    with Ledger.open(played) as ledger:
        assert ledger.verify().ok


def test_an_existing_output_is_replaced_only_with_force(played: Path, cli, tmp_path: Path) -> None:
    out = tmp_path / "t.xml"
    out.write_text("keep me")
    refused = cli("export", "opengotha", "--db", played, "-o", out)
    assert refused.code == 1 and "already exists; give --force to replace it" in refused.err
    assert out.read_text() == "keep me"
    assert cli("export", "opengotha", "--db", played, "-o", out, "--force").code == 0
    assert out.read_bytes().startswith(b"<?xml")
    html = tmp_path / "r.html"
    html.write_text("old page")
    assert cli("report", "--db", played, "--html", html).code == 1 and html.read_text() == "old page"
    assert cli("report", "--db", played, "--html", html, "--force").code == 0
    report = tmp_path / "import.json"
    report.write_text("old report")
    refused = cli("import", "opengotha", out, "--db", tmp_path / "again.db", "--report", report)
    assert refused.code == 1 and "already exists" in refused.err and not (tmp_path / "again.db").exists()
    own = cli("import", "opengotha", out, "--db", tmp_path / "again.db", "--report", out, "--force")
    assert own.code == 1 and "must not be overwritten" in own.err and out.read_bytes().startswith(b"<?xml")
    assert cli("import", "opengotha", out, "--db", tmp_path / "again.db", "--report", report, "--force").code == 0
    assert report.read_text().startswith("{")


def test_the_temporary_file_is_exclusive_and_unpredictable(tmp_path: Path, monkeypatch) -> None:
    from goledger.outputs import write_output

    planted = tmp_path / "victim.txt"
    planted.write_text("secret")
    for name in (f".out.txt.writing-{os.getpid()}", ".out.txt.writing"):  # the names an attacker could guess
        (tmp_path / name).symlink_to(planted)
    write_output(b"data", tmp_path / "out.txt")
    assert (tmp_path / "out.txt").read_bytes() == b"data" and planted.read_text() == "secret"
    assert sorted(p.name for p in tmp_path.iterdir() if not p.is_symlink()) == ["out.txt", "victim.txt"]


def test_a_new_ledger_is_created_exclusively_under_an_unpredictable_name(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("secret")
    (tmp_path / f".t.db.partial-{os.getpid()}").symlink_to(victim)  # the name an older goledger used
    commands.new(tmp_path / "t.db", "Safe Cup", 3)
    assert victim.read_text() == "secret"
    (tmp_path / "planted.db").symlink_to(victim)
    with pytest.raises(GoledgerError, match="already exists"):
        Ledger.create(tmp_path / "planted.db")
    assert victim.read_text() == "secret"


def test_migrate_into_never_follows_a_planted_link_and_keeps_duplicate_stems_apart(tmp_path: Path) -> None:
    from goledger.formats.opengotha import export_opengotha, migrate_opengotha

    db = tmp_path / "src.db"
    commands.new(db, "Stem Cup", 3)
    commands.register(db, "A", "B", "3d")
    data = export_opengotha(db).data
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "cup.xml").write_bytes(data)
    into = tmp_path / "into"
    into.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("do not touch")
    (into / "other.report.json").symlink_to(victim)
    (tmp_path / "one" / "other.xml").write_bytes(data)
    items = migrate_opengotha([tmp_path / "one", tmp_path / "two"], into)
    by_db = {Path(i.db).name: i for i in items}
    assert set(by_db) == {"cup.db", "cup-2.db", "other.db"}
    assert by_db["cup-2.db"].status == "imported" and "written as cup-2.db" in by_db["cup-2.db"].message
    assert by_db["other.db"].status == "failed" and "symbolic link" in by_db["other.db"].message
    assert victim.read_text() == "do not touch"
    link = tmp_path / "linked"
    link.symlink_to(into)
    with pytest.raises(GoledgerError, match="symbolic link"):
        migrate_opengotha([tmp_path / "one"], link)


# --------------------------------------------------------------------------- point 4: caches


def _big_field(db: Path) -> None:
    """Enough players for the standings cache (MIN_PLAYERS) and events for a snapshot."""
    from goledger.replay.views.standings_cache import MIN_PLAYERS

    commands.new(db, "Cache Open", 3)
    players = [ev.PlayerRegistered(player_id=f"p{i:04d}", surname=f"Player{i:04d}", rank="5k", start_number=i)
               for i in range(1, MIN_PLAYERS + 2)]
    games = [ev.GamePaired(round=1, table=t, white=f"p{2 * t - 1:04d}", black=f"p{2 * t:04d}")
             for t in range(1, MIN_PLAYERS // 2 + 1)]
    results = [ev.ResultRecorded(round=1, table=t, result="white") for t in range(1, MIN_PLAYERS // 2 + 1)]
    _append_raw(db, [*players, *games, *results])


def _forge(db: Path, name: str, mutate) -> None:
    conn = sqlite3.connect(db)
    data = conn.execute("SELECT data FROM projection_cache WHERE name = ?", (name,)).fetchone()[0]
    forged = mutate(bytes(data))
    conn.execute("UPDATE projection_cache SET data = ? WHERE name = ?", (forged, name))
    conn.commit()
    conn.close()


def test_a_forged_standings_row_is_never_shown_and_verify_reports_it(tmp_path: Path, cli) -> None:
    from goledger.replay import views as replay_views
    from goledger.replay.views.standings_cache import PREFIX, entry_name

    db = tmp_path / "c.db"
    _big_field(db)
    honest = replay_views.standings(db)  # stores the entry
    name = entry_name(None, None, None)
    assert name.startswith(PREFIX)
    _forge(db, name, lambda data: data.replace(b"Player0001", b"Invented01"))
    shown = replay_views.standings(db)
    assert "Invented01" not in {r.surname for r in shown.rows} and shown.rows == honest.rows
    checked = cli("verify", "--db", db)
    assert checked.code == 1 and "tampered" in checked.err + checked.out, checked
    with sqlite3.connect(db) as conn:  # kept for inspection
        assert conn.execute("SELECT count(*) FROM projection_cache WHERE name = ?", (name,)).fetchone()[0] == 1
    from goledger.commands.publish import publish

    publish(db, 1)
    with Ledger.open(db) as ledger:
        checkpoint = ledger.events()[-1]
    from goledger.audit.published import standings_digest, view_standings
    from goledger.replay.loading.load import fresh_state

    with Ledger.open(db) as ledger:
        fresh = fresh_state(ledger, upto=checkpoint.event_count)
    assert checkpoint.digest == standings_digest(view_standings(fresh, 1, "opengotha", None))


def test_a_forged_snapshot_with_a_recomputed_digest_fails_verify_and_is_kept(tmp_path: Path, cli) -> None:
    from goledger.replay.loading import snapshots
    from goledger.replay.loading.load import fresh_state

    db = tmp_path / "c.db"
    _big_field(db)
    with Ledger.open(db) as ledger:
        snapshots.cached_state(ledger)  # writes the snapshot
        state = fresh_state(ledger)
    state.players["p0001"] = msgspec.structs.replace(state.players["p0001"], surname="Invented")
    data = msgspec.msgpack.encode(state)
    conn = sqlite3.connect(db)
    key = conn.execute("SELECT head FROM projection_cache WHERE name = 'state'").fetchone()[0]
    fingerprint, head_hash, _, seal = key.split(":")  # an attacker who read the code (he cannot make the seal)
    forged_key = f"{fingerprint}:{head_hash}:{hashlib.sha256(data).hexdigest()}:{seal}"
    conn.execute("UPDATE projection_cache SET data = ?, head = ? WHERE name = 'state'", (data, forged_key))
    conn.commit()
    conn.close()
    checked = cli("verify", "--db", db, "--json")
    assert checked.code == 1 and "differs from a fresh fold of the log" in checked.out + checked.err, checked
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM projection_cache WHERE name = 'state'").fetchone()[0] == 1
    from goledger.formats.egd import export_egd

    assert b"Invented" not in export_egd(db).data  # egd export folds the log itself


def test_a_snapshot_whose_bytes_differ_from_their_digest_is_not_used(tmp_path: Path) -> None:
    from goledger.replay.loading import snapshots

    db = tmp_path / "c.db"
    _big_field(db)
    with Ledger.open(db) as ledger:
        snapshots.cached_state(ledger)
    _forge(db, "state", lambda data: data.replace(b"Player0001", b"Invented01"))
    with Ledger.open(db) as ledger:
        assert ledger.head().seq and snapshots.cached_state(ledger).players["p0001"].surname == "Player0001"
        assert "does not match its stored digest" in snapshots.check_snapshot(ledger)


# --------------------------------------------------------------------------- point 5: schema


@pytest.mark.parametrize(("ddl", "named"), [
    ("CREATE TRIGGER hide BEFORE INSERT ON events WHEN NEW.type = 'ResultRecorded' BEGIN SELECT RAISE(IGNORE); END",
     "trigger hide"),
    ("CREATE VIEW events_view AS SELECT * FROM events", "view events_view"),
    ("CREATE INDEX by_type ON events(type)", "index by_type"),
    ("CREATE TABLE notes (x TEXT)", "table notes"),
])
def test_a_schema_object_goledger_did_not_create_makes_every_command_refuse(played: Path, cli, ddl: str,
                                                                            named: str) -> None:
    with sqlite3.connect(played) as conn:
        conn.execute(ddl)
    before = _rows(played)
    for argv in (["result", "-r", "2", "--table", "1", "white"], ["standings"], ["export", "opengotha"]):
        done = (run_cli if argv[0] == "result" else cli)(*argv, "--db", played)  # one through a real process
        assert done.code == 1 and named in done.err and "did not create" in done.err, (argv, done)
    checked = cli("verify", "--db", played)
    assert checked.code == 1 and named in checked.err + checked.out
    assert _rows(played) == before


def _rows(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT * FROM events ORDER BY seq").fetchall()


def test_a_changed_table_definition_is_named(played: Path) -> None:
    with sqlite3.connect(played) as conn:
        conn.execute("ALTER TABLE projection_cache ADD COLUMN extra TEXT")
    with pytest.raises(GoledgerError, match=r"table projection_cache \(definition changed\)"):
        Ledger.open(played)


# --------------------------------------------------------------------------- point 6: names


@pytest.mark.parametrize("surname", ["Evil\x1b[31m", "Müller\u200b", "A\u202eB", "Line\nBreak", "Tab\tX",
                                     "C1\x85X", "Zero\ufeffWidth"])
def test_control_and_invisible_characters_are_refused_in_names(played: Path, cli, surname: str) -> None:
    before = played.read_bytes()
    done = cli("register", "--surname", surname, "--first-name", "Jan", "--rank", "3d", "--db", played)
    assert done.code == 1 and "contains an invisible or control character" in done.err, done
    assert "\x1b" not in done.err and "\u202e" not in done.err and played.read_bytes() == before
    with pytest.raises(CommandRejected, match="invisible or control"):
        commands.update_player(played, "p0002", first_name=surname)


@pytest.mark.parametrize("twin", ["Mu\u0308ller", "ＭÜLLER", "müller"])
def test_unicode_twins_resolve_to_one_player(played: Path, twin: str) -> None:
    with pytest.raises(CommandRejected, match="already registered as p0001"):
        commands.register(played, twin, "Jan", "3d")
    with pytest.raises(CommandRejected, match="already has this name"):
        commands.update_player(played, "p0002", surname=twin, first_name="Jan")


def test_every_output_escapes_what_an_old_ledger_holds(played: Path, cli, tmp_path: Path) -> None:
    _append_raw(played, [
        ev.PlayerRegistered(player_id="p0004", surname="Evil\x1b]0;pwn\x07\u202e", first_name='=HYPERLINK("x")\nB',
                            rank="3d"),
        ev.PlayerRegistered(player_id="p0005", surname="+cmd|' /C calc'!A0", first_name="\x01", rank="2k"),
        ev.GamePaired(round=3, table=1, white="p0004", black="p0005"),
        ev.ResultRecorded(round=3, table=1, result="white"),
    ])
    for argv in (["standings"], ["explain", "p0004"], ["history", "p0004"], ["log"]):
        done = cli(*argv, "--db", played)
        assert done.code == 0, (argv, done)
        assert not any(c in done.out for c in "\x1b\x07\x01\u202e"), (argv, done.out)
    csv = cli("standings", "--db", played, "-f", "csv").out
    assert "'=HYPERLINK" in csv and "'+cmd" in csv and ",=" not in csv and ",+" not in csv
    page = cli("standings", "--db", played, "-f", "html")
    assert page.code == 0 and "\\x1b" in page.out and "\x1b" not in page.out
    assert cli("report", "--db", played, "--html", tmp_path / "r.html").code == 0
    for fmt in ("egd", "trf"):
        fixed = cli("export", fmt, "--db", played, "-o", tmp_path / f"t.{fmt}")
        assert fixed.code == 1 and "cannot hold it" in fixed.err and not (tmp_path / f"t.{fmt}").exists(), fixed
    commands.update_player(played, "p0004", surname="Evil", first_name="B")
    commands.update_player(played, "p0005", surname="Plus", first_name="A")
    assert cli("export", "egd", "--db", played, "-o", tmp_path / "t.h9").code == 0


# --------------------------------------------------------------------------- point 7: XML


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_an_entity_declared_in_any_encoding_is_refused(tmp_path: Path, codec: str) -> None:
    from goledger.formats.opengotha import import_opengotha

    declared = codec.split("-")[0].upper() + "-" + codec.split("-")[1] if codec.count("-") else codec.upper()
    xml = (f'<?xml version="1.0" encoding="{declared}"?>\n<!DOCTYPE Tournament [<!ENTITY x "EXPANDED">]>\n'
           '<Tournament dataVersion="201"><Players><Player name="&x;" firstName="a" rank="3D" '
           'registeringStatus="FIN"/></Players></Tournament>')
    source = tmp_path / "evil.xml"
    source.write_bytes(xml.encode(codec))
    with pytest.raises(GoledgerError, match=r"declares XML entities|internal DTD subset"):
        import_opengotha(source, tmp_path / "evil.db")
    assert not (tmp_path / "evil.db").exists()


def test_the_xml_size_limits_agree_with_the_guide_and_security() -> None:
    from goledger.formats.opengotha.read import MAX_FILE_BYTES
    from goledger.formats.xmlsafe import MAX_XML_BYTES

    repo = Path(__file__).resolve().parents[2]
    readme, security = ((repo / doc).read_text(encoding="utf-8")
                        for doc in ("docs/guide/opengotha-files.md", "SECURITY.md"))
    opengotha = f"more than {MAX_FILE_BYTES // (1024 * 1024)} MB"
    assert opengotha in readme and f"OpenGotha files {MAX_FILE_BYTES // (1024 * 1024)} MB" in security
    assert f"other XML files {MAX_XML_BYTES // (1024 * 1024)} MB" in security


# --------------------------------------------------------------------------- issue 20 item 2: settings


def test_settings_lists_every_field_with_value_domain_and_spec(played: Path, cli) -> None:
    from goledger.replay.scoring.policies import Policy

    listed = json.loads(cli("settings", "--db", played, "--json").out)
    names = {s["name"] for s in listed}
    assert set(ev.TournamentSettings.__struct_fields__) <= names
    policy_fields = {s["name"].removeprefix("policy.") for s in listed if s["kind"] == "policy"}
    assert policy_fields == set(Policy.__struct_fields__) - {"name", "description"}
    by_name = {s["name"]: s for s in listed}
    assert by_name["withdrawn"] == {**by_name["withdrawn"], "value": "absent", "domain": "absent | zero"}
    assert by_name["mms2_absent"]["spec"] == "scoring.md §7.2" and by_name["mms2_absent"]["domain"] == "0..2"
    assert by_name["not_assigned"]["spec"] == "scoring.md §7.3"


def test_every_listed_setting_is_settable_by_name_and_validated_by_the_same_domain(played: Path) -> None:
    from goledger.commands.settings import settings

    out = commands.change_rules(played, {"withdrawn": "zero"})
    assert out.message == "rules changed retroactively: withdrawn absent → zero (policy opengotha)"
    listed = {s.name: s for s in settings(played)}
    assert listed["withdrawn"].value == "zero" and listed["withdrawn"].overridden
    assert listed["policy_overrides"].value["withdrawn"] == "zero"
    for name, bad in (("jigo2", 5), ("koya_limit_percent", 101), ("sos_own_unplayed", "sometimes"),
                      ("policy.round_down", "maybe")):
        with pytest.raises(CommandRejected):
            commands.change_rules(played, {name: bad})
    commands.change_rules(played, {"policy.round_down": "whole-score", "koya_limit_percent": "70"})
    listed = {s.name: s for s in settings(played)}
    assert listed["policy.round_down"].value == "whole-score" and listed["koya_limit_percent"].value == 70


def test_new_without_time_has_none_and_the_egd_export_says_why(tmp_path: Path) -> None:
    from goledger.formats.egd import export_egd
    from goledger.replay.views import state_as_of

    db = tmp_path / "t.db"
    commands.new(db, "No Clock", 3)
    commands.register(db, "A", "B", "3d")
    commands.register(db, "C", "D", "3d")
    commands.pair(db, 1, "A", "C")
    commands.result(db, 1, 1, "white")
    assert state_as_of(db).settings.time is None
    out = export_egd(db)
    assert b"; CL[" not in out.data and b"; TM[" not in out.data
    assert any("no time settings" in e.message for e in out.report.entries)
    timed = tmp_path / "timed.db"
    commands.new(timed, "Clock", 3, time="byo-yomi", main_time=60, byo_yomi=30, periods=5, handicap_correction=2,
                 handicap_ceiling=5)
    settings = state_as_of(timed).settings
    assert settings.time == ev.TimeSettings(basic_minutes=60, system="byo-yomi", byo_yomi_seconds=30,
                                            byo_yomi_periods=5)
    assert (settings.handicap.correction, settings.handicap.ceiling) == (2, 5)
    for surname in ("A", "C"):
        commands.register(timed, surname, "B", "3d")
    commands.pair(timed, 1, "A", "C")
    commands.result(timed, 1, 1, "black")
    assert b"; CL[" in export_egd(timed).data
    for kwargs, refusal in (({"time": "hourglass", "main_time": 1}, "unknown time system"),
                            ({"main_time": 60}, "--main-time needs --time"),
                            ({"time": "fischer", "main_time": 60}, "fischer time needs --fischer"),
                            ({"time": "canadian", "main_time": 60, "fischer": 3}, "--fischer does not apply")):
        with pytest.raises(CommandRejected, match=refusal):
            commands.new(tmp_path / "x.db", "X", 3, **kwargs)  # type: ignore[arg-type]


def test_an_old_ledger_keeps_its_canadian_default(tmp_path: Path) -> None:
    from goledger.formats.egd import export_egd

    db = tmp_path / "old.db"
    old = ev.TournamentSettings(name="Old", rounds=3)  # what `new` wrote before: the TimeSettings default
    Ledger.create_complete(db, [ev.TournamentCreated(settings=old)], actor="old")
    commands.register(db, "A", "B", "3d")
    commands.register(db, "C", "D", "3d")
    commands.pair(db, 1, "A", "C")
    commands.result(db, 1, 1, "white")
    data = export_egd(db).data
    assert b"; CL[" in data and b"; TM[80]" in data
