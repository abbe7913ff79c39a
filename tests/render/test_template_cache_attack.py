"""The template cache under attack (issue 41, items 1 and 2), through the command line: a cache
folder someone else prepared (``XDG_CACHE_HOME`` on a shared place) is never read, a planted or
forged entry never runs, and a damaged entry is compiled again and replaced, the page unchanged.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest
from jinja2.bccache import BytecodeCache

from goledger.render.html import TEMPLATES, compiled_templates

from ..conftest import run_cli


class _Planted:
    """A pickle that, when loaded, writes a marker file (what an attacker's code would do)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, ...]:
        return (exec, (f"open({str(self.marker)!r}, 'w').write('ran')",))


def _cache_folder(cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where goledger keeps its compiled templates under ``XDG_CACHE_HOME=cache_home``: a public
    function of its source, so an attacker computes it too."""
    with monkeypatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(cache_home))
        return compiled_templates(["jinja2.ext.i18n"]).folder


def _entry_names() -> list[str]:
    """The cache file of every template of goledger's printouts, as Jinja2 names them."""
    keys = BytecodeCache()
    return [f"{keys.get_cache_key(p.name, os.path.normpath(str(p)))}.jinja"
            for p in sorted(TEMPLATES.iterdir()) if p.is_file()]


def _ledger(tmp_path: Path) -> Path:
    db = tmp_path / "t.db"
    assert run_cli("new", "--name", "Kupa", "--rounds", "2", "--db", db).code == 0
    for name in ("Ada", "Bea", "Cem", "Dag"):
        assert run_cli("register", "--surname", name, "--rank", "1k", "--db", db).code == 0
    assert run_cli("pair-round", "1", "--db", db).code == 0
    return db


def _planted_folder(shared: Path, monkeypatch: pytest.MonkeyPatch, payload: bytes) -> Path:
    """A cache folder another user made first on a shared place, every entry ``payload``."""
    folder = _cache_folder(shared, monkeypatch)
    folder.mkdir(parents=True)
    for name in _entry_names():
        (folder / name).write_bytes(payload)
    (folder.parent / "templates.key").write_bytes(b"k" * 32)
    for made in (shared, folder.parent, folder):
        os.chmod(made, 0o777)  # the attacker lets anyone write, as /tmp does
        if os.geteuid() == 0:
            os.chown(made, 65534, 65534)  # and it is his, not the user's
    return folder


def test_a_planted_cache_never_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = _ledger(tmp_path)
    expected = run_cli("wall-list", "--format", "html", "--db", db).out
    marker = tmp_path / "owned"
    jinja_magic = b"j2" + pickle.dumps(5, 2)  # Jinja2's header: its version, then this Python's
    import sys

    jinja_magic += pickle.dumps((sys.version_info[0] << 24) | sys.version_info[1], 2)
    shared = tmp_path / "shared"
    folder = _planted_folder(shared, monkeypatch, jinja_magic + pickle.dumps(_Planted(marker), 2))
    before = sorted(p.name for p in folder.iterdir())
    result = run_cli("wall-list", "--format", "html", "--db", db, env={"XDG_CACHE_HOME": str(shared)})
    assert result.code == 0, result.err
    assert not marker.exists(), "a planted cache file ran its code"
    assert result.out == expected
    assert sorted(p.name for p in folder.iterdir()) == before  # nothing written into his folder


def test_a_forged_seal_is_compiled_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = _ledger(tmp_path)
    home = tmp_path / "home"
    env = {"XDG_CACHE_HOME": str(home)}
    expected = run_cli("wall-list", "--format", "html", "--db", db, env=env).out
    folder = _cache_folder(home, monkeypatch)
    kept = sorted(folder.glob("*.jinja"))
    assert kept and all(p.read_bytes().startswith(b"GLTC1") for p in kept)
    assert not any(b"\x80\x02" in p.read_bytes()[:40] for p in kept)  # no pickle anywhere
    # the user's own folder, but every entry's seal replaced: its code is never used
    for path in kept:
        data = bytearray(path.read_bytes())
        data[5:37] = bytes(32)
        path.write_bytes(bytes(data))
    result = run_cli("wall-list", "--format", "html", "--db", db, env=env)
    assert result.code == 0 and result.out == expected, result.err
    assert all(p.read_bytes()[5:37] != bytes(32) for p in kept)  # sealed again


def test_a_damaged_cache_file_is_compiled_again_and_replaced(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    db = _ledger(tmp_path)
    home = tmp_path / "home"
    env = {"XDG_CACHE_HOME": str(home)}
    pages = [run_cli("report", "--html", tmp_path / "a.html", "--db", db, env=env)]
    assert pages[0].code == 0, pages[0].err
    folder = _cache_folder(home, monkeypatch)
    whole = {p: p.read_bytes() for p in folder.glob("*.jinja")}
    assert len(whole) >= 3
    for path, data in whole.items():
        path.write_bytes(data[:22])  # cut short just after the header
    result = run_cli("report", "--html", tmp_path / "b.html", "--db", db, env=env)
    assert result.code == 0, result.err
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()
    assert {p: p.read_bytes() for p in whole} == whole  # replaced by what was compiled again


def test_a_folder_others_may_write_in_is_not_used(tmp_path: Path) -> None:
    from goledger.render.compiled import own_folder

    mine = tmp_path / "mine"
    assert own_folder(mine) and (mine.stat().st_mode & 0o777) == 0o700
    loose = tmp_path / "loose"
    loose.mkdir()
    os.chmod(loose, 0o777)
    assert not own_folder(loose)
    link = tmp_path / "link"
    link.symlink_to(mine)
    assert not own_folder(link)
