"""The documentation site (issue 48 item 6): ``mkdocs build --strict`` builds ``docs/`` with the
Material theme and fails on any broken link, missing page or unknown anchor, so no page rots;
its tour page includes the README's two commands and tour, so the site never has its own copy.
Skips only when MkDocs is not installed (it is in the ``test`` extra)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

pytest.importorskip("mkdocs")
pytest.importorskip("material")


def _build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
                          capture_output=True, text=True, env=env, timeout=300)


def test_the_site_builds_with_no_broken_link(tmp_path: Path) -> None:
    built = _build(REPO / "mkdocs.yml", tmp_path / "site")
    assert built.returncode == 0, built.stderr
    assert "WARNING" not in built.stderr, built.stderr
    for page in ("index.html", "guide/index.html", "reference/commands/index.html", "policies/index.html",
                 "formats/index.html"):
        assert (tmp_path / "site" / page).is_file(), page
    assert "Set up a tournament" in (tmp_path / "site" / "reference/commands/index.html").read_text(encoding="utf-8")
    tour = (tmp_path / "site" / "guide/tour/index.html").read_text(encoding="utf-8")
    assert "On a fresh machine" in tour and "Müller" in tour and "--8&lt;--" not in tour  # README's, included


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    """The same configuration on a copy whose home page links to a page that does not exist."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nSee [the rules](policies.md).\n", encoding="utf-8")
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:\n")[0]
    (tmp_path / "mkdocs.yml").write_text(config + "\nnav:\n  - Home: index.md\n", encoding="utf-8")
    built = _build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert built.returncode != 0 and "policies.md" in built.stderr, built.stderr
