"""Resource limits (issue 10 item 5): a tournament of names of 200 characters in every script
(CJK, Hangul, Turkish İ/ı, right-to-left Hebrew and Arabic, Cyrillic, Greek, Latin with
diacritics) records, gives standings and goes through every export on main (and our own
exports import again). The default run uses 250 players × 6 rounds; ``pytest -m slow`` runs
10,000 players × 50 rounds."""

from __future__ import annotations

import json
import random
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from benchmarks.generate import generate_events
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger

from ..gen_files import SCRIPTS, long_name

NAME_LENGTH = 200


def long_name_ledger(path: Path, players: int, rounds: int, seed: int = 5) -> dict[str, tuple[str, str]]:
    """A generated congress whose players have 200-character names in every script (each
    script in turn); returns the names by player id."""
    rng = random.Random(seed)
    scripts = sorted(SCRIPTS)
    names: dict[str, tuple[str, str]] = {}
    out: list[ev.Event] = []
    for event in generate_events(players, rounds, seed=seed):
        if isinstance(event, ev.PlayerRegistered):
            script = scripts[len(names) % len(scripts)]
            surname, first = long_name(rng, NAME_LENGTH, script), long_name(rng, NAME_LENGTH, script)
            names[event.player_id] = (surname, first)
            event = msgspec.structs.replace(event, surname=surname, first_name=first)
        out.append(event)
    Ledger.create_complete(path, out, actor="generator")
    return names


def invoke(*args: str | Path) -> tuple[int, str, str]:
    from goledger.cli.main import app

    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"goledger {' '.join(map(str, args[:3]))} raised {result.exception!r}") \
            from result.exception
    return result.exit_code, result.stdout, result.stderr


def export_formats() -> list[str]:
    """Every ``goledger export`` subcommand registered on main."""
    import typer.main

    from goledger.cli.main import export_app

    return sorted(typer.main.get_command(export_app).commands)  # type: ignore[attr-defined]


def exercise(db: Path, names: dict[str, tuple[str, str]], rounds: int, out: Path) -> None:
    """Record, read standings, and export the long-name ledger ``db``."""
    cjk = long_name(random.Random(1), NAME_LENGTH, "cjk")
    turkish = long_name(random.Random(2), NAME_LENGTH, "turkish")
    code, text, err = invoke("register", "--surname", cjk, "--first-name", turkish, "--rank", "3k", "--db", db,
                             "--json", "--force")  # a late entry after the last round: issue 40, item 6
    assert code == 0, err
    newcomer = json.loads(text)["events"][0]["payload"]
    assert (newcomer["surname"], newcomer["first_name"]) == (cjk, turkish)
    names[newcomer["player_id"]] = (cjk, turkish)
    code, _, err = invoke("correct", "--round", str(rounds), "--table", "1", "jigo", "--reason",
                          "שופט: תוצאה תוקנה", "--db", db)
    assert code == 0, err
    code, text, err = invoke("standings", "--json", "--db", db)
    assert code == 0, err
    rows = json.loads(text)["rows"]
    shown = {r["player_id"]: (r["surname"], r["first_name"]) for r in rows}
    assert all(shown[pid] == names[pid] for pid in shown) and len(shown) >= len(names) - 1
    for fmt in ("table", "csv"):
        code, text, err = invoke("standings", "--format", fmt, "--db", db)
        assert code == 0, err
        assert all(rows[i]["surname"] in text and rows[i]["first_name"] in text for i in (0, len(rows) // 2, -1))
    # a format that cannot hold the field refuses it in one sentence (TRF: four-digit pairing numbers)
    beyond = {"trf": "a TRF file holds at most 9,999 players"} if len(names) > 9999 else {}
    for fmt in export_formats():
        target = out / f"export.{fmt}"
        extra = ["--key-file", str(out / "key")] if fmt == "pseudonymised" else []
        code, _, err = invoke("export", fmt, "-o", target, *extra, "--db", db)
        if fmt in beyond:
            assert code == 1 and beyond[fmt] in err and not target.exists(), err
            continue
        assert code == 0, f"export {fmt}: {err}"
        assert target.stat().st_size > 0
    # our own exports import again (or, past an importer's size limit, are refused saying so)
    for fmt in sorted(set(export_formats()) & {"opengotha", "macmahon", "egd", "trf"} - set(beyond)):
        again = out / f"again-{fmt}.db"
        code, _, err = invoke("import", fmt, out / f"export.{fmt}", "--db", again)
        if code == 1 and ("larger than" in err or "refused above" in err):
            continue
        assert code == 0, f"import {fmt} of our own export: {err}"
        if fmt == "opengotha":  # OpenGotha XML holds whole names: they come back exactly
            with Ledger.open(again) as ledger:
                from goledger.replay.loading.load import load_state

                back = {(p.surname, p.first_name) for p in load_state(ledger).players.values()}
            assert back == set(names.values())


def test_names_of_200_characters_in_every_script(tmp_path: Path) -> None:
    db = tmp_path / "long.db"
    names = long_name_ledger(db, 250, 6)
    assert all(len(s) == len(f) == NAME_LENGTH for s, f in names.values())
    exercise(db, names, 6, tmp_path)
    for command in (["crosstable"], ["explain", next(iter(names))], ["report", "--html", str(tmp_path / "r.html")]):
        code, _, err = invoke(*command, "--db", db)
        assert code == 0, f"{command[0]}: {err}"


@pytest.mark.slow
def test_ten_thousand_players_fifty_rounds(tmp_path: Path) -> None:
    db = tmp_path / "huge.db"
    names = long_name_ledger(db, 10_000, 50)
    exercise(db, names, 50, tmp_path)
