"""The collector's pauses (:mod:`goledger.nogc`): ``nogc`` always resumes it; ``one_shot``
leaves it paused only in a process that said its exit follows the command (the CLI's
``main``), since the collection it would trigger only walks memory the exit frees."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import gc
from goledger.nogc import exit_follows, nogc, one_shot

@one_shot
def command():
    return gc.isenabled()

@nogc
def projection():
    return gc.isenabled()

seen = [command(), gc.isenabled(), projection(), gc.isenabled()]
exit_follows()
seen += [projection(), gc.isenabled(), command(), gc.isenabled()]
print(seen)
"""


def test_one_shot_leaves_the_collector_paused_only_when_the_exit_follows() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=REPO, check=True).stdout
    # before exit_follows: both resume it; after: nogc still does, one_shot leaves it paused
    assert out.strip() == "[False, True, False, True, False, True, False, False]"


def test_one_shot_resumes_the_collector_after_an_error() -> None:
    import gc

    import pytest

    from goledger.nogc import one_shot

    @one_shot
    def failing() -> None:
        raise ValueError("refused")

    with pytest.raises(ValueError, match="refused"):
        failing()
    assert gc.isenabled()
