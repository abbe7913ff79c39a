"""Hostile files through the command line (issue 10 item 1): every importer refuses them with
``error: <one sentence>`` as the last line on stderr, exit status 1, no traceback, and no
ledger (nor partial file) left behind; a refused import into an existing ledger leaves it
unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ..gen_files import exported_seeds, opengotha_xml


def invoke(*args: str | Path) -> tuple[int, str, str]:
    from goledger.cli.main import app

    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"goledger {' '.join(map(str, args[:3]))} raised {result.exception!r}") \
            from result.exception
    return result.exit_code, result.stdout, result.stderr


_OG = opengotha_xml(5, 2, seed=1)
_EGD = exported_seeds("egd")[0]
_TRF = exported_seeds("trf")[0]
_MM = exported_seeds("macmahon")[0]

HOSTILE = [
    ("opengotha", "t.xml", _OG[: len(_OG) // 2], "is not well-formed XML"),
    ("opengotha", "t.xml", b'<?xml version="1.0"?><!DOCTYPE T [<!ENTITY x SYSTEM "file:///etc/passwd">]><T>&x;</T>',
     "declares XML entities; goledger refuses them"),
    ("opengotha", "t.xml", _OG.replace(b'roundNumber="1"', b'roundNumber="99999999999"', 1),
     "could not be imported (first: game with round number '99999999999' cannot be recorded"),
    ("opengotha", "t.xml", b"<html><body>not a tournament</body></html>", "is not an OpenGotha tournament file"),
    ("opengotha", "t.xml", b"\xff\xfe\x00\x00garbage", "is not well-formed XML"),
    ("macmahon", "t.xml", _MM[: len(_MM) // 3], "is not well-formed XML"),
    ("macmahon", "t.xml", b'<?xml version="1.0"?><!DOCTYPE T [<!ENTITY a "b">]><Tournament>&a;</Tournament>',
     "declares XML entities"),
    ("egd", "t.h9", b"\x00\x01\x02 binary junk \xff" * 40, "holds no EGD player line"),
    ("egd", "t.h9", b"; CL[A]\n; EV[empty]\n", "holds no EGD player line"),
    ("trf", "t.trf", b"this is not a TRF file\n" * 5, "nor a tournament name (012); it is not a TRF file"),
    ("trf", "t.trf", _TRF.replace(b"001    1", b"001    2", 1), "pairing number 2 is used twice"),
]


@pytest.mark.parametrize(("fmt", "name", "data", "words"), HOSTILE,
                         ids=[f"{f}-{i}" for i, (f, *_rest) in enumerate(HOSTILE)])
def test_hostile_file_is_refused_in_one_line(tmp_path: Path, fmt: str, name: str, data: bytes, words: str) -> None:
    source = tmp_path / name
    source.write_bytes(data)
    out = tmp_path / "out"
    out.mkdir()
    code, stdout, stderr = invoke("import", fmt, source, "--db", out / "t.db")
    assert code == 1, (code, stdout, stderr)
    last = stderr.rstrip("\n").split("\n")[-1]
    assert last.startswith("error: ") and words in last, stderr
    assert "Traceback" not in stderr
    assert list(out.iterdir()) == [], "a refused import left a file"
    assert source.read_bytes() == data


def test_hostile_file_through_a_real_process(tmp_path: Path, cli) -> None:
    source = tmp_path / "t.xml"
    source.write_bytes(_OG[:700])
    res = cli("import", "opengotha", source, "--db", tmp_path / "t.db")
    assert res.code == 1 and res.err.startswith("error: ") and res.err.count("\n") == 1, res
    assert "Traceback" not in res.err and not (tmp_path / "t.db").exists()


def test_refused_participant_list_leaves_the_ledger_unchanged(tmp_path: Path) -> None:
    from goledger import commands

    db = tmp_path / "t.db"
    commands.new(db, "List Cup", 3)
    before = db.read_bytes()
    listing = tmp_path / "list.txt"
    listing.write_bytes(b"Abe|Jo|3d\nBerg|Ann|not a level\n")
    code, _, stderr = invoke("import", "macmahon-players", listing, "--db", db)
    assert code == 1 and stderr.rstrip("\n").split("\n")[-1].startswith("error: "), stderr
    assert "nothing was written" in stderr
    assert db.read_bytes() == before
