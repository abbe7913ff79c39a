"""A ledger on a read-only folder and on a full disk (issue 41, item 10), through the command
line on real mounts: a small tmpfs, mounted read-only or filled (needs root, which can mount; a
folder without write permission stands in for the read-only mount otherwise).

A sound ledger in a read-only folder is read (its main file alone, SQLite ``immutable``) by
every reading command, ``verify`` and the repair report included, never reported "damaged";
a write is refused as "read-only folder". On a full disk, ``new``, every import, ``export
pseudonymised`` and ``verify --repair-report --salvage`` end in one sentence, leaving nothing
behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..conftest import run_cli


def _mount_tmpfs(folder: Path, size: str) -> bool:
    """Mount a tmpfs of ``size`` on ``folder``; False when this process may not."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True)
    return done.returncode == 0


@contextlib.contextmanager
def _tmpfs(folder: Path, size: str = "4m") -> Iterator[Path]:
    folder.mkdir()
    if not _mount_tmpfs(folder, size):
        pytest.skip("mounting a tmpfs needs root")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def _tournament(db: Path) -> None:
    assert run_cli("new", "--name", "Cup", "--rounds", "2", "--db", db).code == 0
    for name in ("Ada", "Bea", "Cem", "Dag"):
        assert run_cli("register", "--surname", name, "--rank", "1k", "--db", db).code == 0
    assert run_cli("pair-round", "1", "--db", db).code == 0
    assert run_cli("result", "1-0", "--round", "1", "--table", "1", "--db", db).code == 0


READS = (("standings",), ("players",), ("log",), ("verify",), ("verify", "--repair-report"),
         ("wall-list", "--format", "html"), ("pairings", "--round", "1"), ("crosstable",))


@contextlib.contextmanager
def _read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder holding a sound ledger (its WAL checkpointed and gone, as any command leaves it),
    then made read-only: a read-only tmpfs when possible, else a folder without write permission."""
    folder = tmp_path / "ro"
    if os.geteuid() == 0:
        with _tmpfs(folder) as mounted:
            _tournament(mounted / "t.db")
            assert subprocess.run(["mount", "-o", "remount,ro", str(mounted)], capture_output=True).returncode == 0
            yield mounted
    else:
        folder.mkdir()
        _tournament(folder / "t.db")
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)


def test_a_sound_ledger_in_a_read_only_folder_is_read_not_damaged(tmp_path: Path) -> None:
    copy = tmp_path / "copy.db"
    with _read_only_folder(tmp_path) as folder:
        db = folder / "t.db"
        expected = {}
        shutil.copy(db, copy)
        for args in READS:
            expected[args] = run_cli(*args, "--db", copy).out
        for args in READS:
            result = run_cli(*args, "--db", db)
            assert result.code == 0, (args, result.err)
            assert "damaged" not in result.out + result.err, (args, result.out, result.err)
            assert result.out.replace(str(db), "X") == expected[args].replace(str(copy), "X"), args
        refused = run_cli("register", "--surname", "Eve", "--rank", "2k", "--db", db, "--json")
        assert refused.code == 1
        error = json.loads(refused.err)["error"]
        assert "read-only folder" in error and "damaged" not in error, error
        assert sorted(p.name for p in folder.iterdir()) == ["t.db"]


def test_a_read_only_folder_with_a_pending_journal_says_so(tmp_path: Path) -> None:
    with _read_only_folder(tmp_path) as folder:
        db = folder / "t.db"
        if os.geteuid() == 0:
            subprocess.run(["mount", "-o", "remount,rw", str(folder)], check=True)
        else:
            folder.chmod(0o755)
        Path(f"{db}-wal").write_bytes(b"\x37\x7f\x06\x82" + bytes(60))  # events the main file may lack
        if os.geteuid() == 0:
            subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        else:
            folder.chmod(0o555)
        result = run_cli("standings", "--db", db, "--json")
        assert result.code == 1
        error = json.loads(result.err)["error"]
        assert "read-only folder" in error and "damaged" not in error, error


def _inputs(tmp_path: Path) -> dict[str, Path]:
    """A small tournament in every format an import reads, written by goledger's exports."""
    db = tmp_path / "source.db"
    _tournament(db)
    files = {}
    for fmt, suffix in (("opengotha", "xml"), ("macmahon", "xml"), ("egd", "h9"), ("trf", "trf")):
        path = tmp_path / f"source-{fmt}.{suffix}"
        assert run_cli("export", fmt, "--db", db, "-o", path).code == 0
        files[fmt] = path
    return files


@pytest.mark.parametrize("free_kb", [0, 8, 80, 200])
def test_a_full_disk_gives_one_sentence_and_leaves_nothing(tmp_path: Path, free_kb: int) -> None:
    inputs = _inputs(tmp_path)
    source = tmp_path / "source.db"
    with _tmpfs(tmp_path / "full") as disk:
        avail = shutil.disk_usage(disk).free
        with open(disk / "filler", "wb") as fh, contextlib.suppress(OSError):
            fh.write(bytes(max(avail - free_kb * 1024, 0)))
        commands = [("new", "--name", "X", "--rounds", "2", "--db", disk / "new.db")]
        commands += [("import", fmt, path, "--db", disk / f"{fmt}.db") for fmt, path in inputs.items()]
        commands += [("export", "pseudonymised", "--db", source, "-o", disk / "p.db",
                      "--key-file", tmp_path / "key"),
                     ("verify", "--repair-report", "--salvage", disk / "s.db", "--db", source)]
        for args in commands:
            result = run_cli(*args, "--json")
            assert "Traceback" not in result.err, (args, result.err)
            if result.code != 0:
                error = json.loads(result.err)["error"]
                assert "\n" not in error.strip() and "nothing was written" in error, (args, error)
                assert "disk is full" in error, (args, error)
                left = [p.name for p in disk.iterdir() if p.name != "filler"]
                assert left == [], (args, left)
            else:  # room enough: a whole ledger that verifies
                made = Path(args[args.index("--db") + 1]) if args[0] in ("new", "import") else Path(
                    args[args.index("-o") + 1] if "-o" in args else args[args.index("--salvage") + 1])
                assert run_cli("verify", "--db", made).code == 0, args
                for leftover in disk.iterdir():
                    if leftover.name not in ("filler",):
                        leftover.unlink()
        assert run_cli("verify", "--db", source).code == 0
        if free_kb == 0:  # a migration's new federation archive is not left behind either
            result = run_cli("import", "opengotha", inputs["opengotha"], "--into", disk / "archive",
                             "--catalog", disk / "cat.db")
            assert "Traceback" not in result.err and not (disk / "cat.db").exists(), result.err


@pytest.mark.parametrize("language", ["tr", "hu"])
def test_the_read_only_refusal_is_said_in_the_desks_language(tmp_path: Path, language: str) -> None:
    """The ledger has no words (issue 44): its refusal keeps its catalog message, said in the
    language in force where it is read (the desk's page), English on the command line."""
    from goledger import commands
    from goledger.errors import LedgerError
    from goledger.i18n import use_language

    with _read_only_folder(tmp_path) as folder:
        with pytest.raises(LedgerError) as refused:
            commands.register(folder / "t.db", "Eve", "Ada", "2k")
        assert "read-only folder" in refused.value.message
        with use_language(language):
            said = refused.value.message
        assert {"tr": "salt okunur", "hu": "csak olvasható"}[language] in said, said
        assert "read-only" not in said and str(folder / "t.db") in said
        assert sorted(p.name for p in folder.iterdir()) == ["t.db"]
