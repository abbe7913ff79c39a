"""SECURITY.md lists each guarantee with the test that backs it (issues 18 and 27): every test
and test file it names exists, so a renamed or removed test cannot leave a guarantee unbacked."""

from __future__ import annotations

import re

from .conftest import REPO


def test_every_test_security_names_exists() -> None:
    text = (REPO / "SECURITY.md").read_text(encoding="utf-8")
    defined = {m for path in (REPO / "tests").rglob("test_*.py")
               for m in re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)}
    named = set(re.findall(r"`(test_\w+)`", text))
    assert len(named) > 60
    assert not named - defined, sorted(named - defined)
    files = set(re.findall(r"`(tests/[\w/]+\.py|benchmarks/[\w/]+\.py)`", text))
    assert files and not [f for f in files if not (REPO / f).is_file()], files
