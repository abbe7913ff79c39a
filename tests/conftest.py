"""Shared fixtures: a CLI runner, fresh ledgers, and the optional ../shared folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

_CACHE_HOME = tempfile.mkdtemp(prefix="goledger-tests-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE_HOME
"""The run's own cache folder (the compiled templates, :class:`goledger.render.html.CompiledTemplates`):
shared by the run's processes, never the user's."""


def pytest_sessionfinish() -> None:
    shutil.rmtree(_CACHE_HOME, ignore_errors=True)


def shared_dir() -> Path | None:
    """``../shared`` next to the repository (or ``$GOLEDGER_SHARED``), if present."""
    candidate = Path(os.environ.get("GOLEDGER_SHARED") or REPO.parent / "shared")
    return candidate if candidate.is_dir() else None


SHARED = shared_dir()
needs_shared = pytest.mark.skipif(SHARED is None, reason="../shared is not present")


@pytest.fixture
def shared() -> Path:
    if SHARED is None:
        pytest.skip("../shared is not present")
    return SHARED


class CliResult:
    def __init__(self, proc: subprocess.CompletedProcess[str]) -> None:
        self.code = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def __repr__(self) -> str:
        return f"CliResult(code={self.code}, out={self.out[:200]!r}, err={self.err[:200]!r})"


def run_cli(*args: str | os.PathLike[str], cwd: Path | None = None, env: dict[str, str] | None = None,
            timeout: float = 120) -> CliResult:
    """Run ``python -m goledger ARGS`` as a real process, with this checkout on the path."""
    full_env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200", **(env or {})}
    full_env.pop("GOLEDGER_DB", None) if env is None or "GOLEDGER_DB" not in env else None
    proc = subprocess.run(
        [sys.executable, "-m", "goledger", *map(str, args)],
        capture_output=True, text=True, cwd=cwd, env=full_env, timeout=timeout,
    )
    return CliResult(proc)


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture(scope="session")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, int]]]:
    """The audit tests' club open (:func:`tests.audit_support.build_club_open`: 250 commands,
    built once per run) and its notable event numbers. Read it only; write to ``club_copy``."""
    from .audit_support import build_club_open, scratch_dir

    with scratch_dir(tmp_path_factory.mktemp("club")) as folder:
        path = folder / "club.db"
        yield path, build_club_open(path)


@pytest.fixture
def club_copy(club: tuple[Path, dict[str, int]], tmp_path: Path) -> tuple[Path, dict[str, int]]:
    """A private copy of the club open, for tests that append to it."""
    path = tmp_path / "club.db"
    shutil.copy(club[0], path)
    return path, dict(club[1])
