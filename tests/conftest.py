"""Shared fixtures: a CLI runner, fresh ledgers, and the optional ../shared folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


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
