"""docs/architecture.md is the current map of the code (issue 48 item 5): every module or
folder it names in backticks (``store.py``, ``views/``) exists, read inside the package its
row describes, and every module of ``goledger/`` has a row, named by its path."""

from __future__ import annotations

import re
from pathlib import Path

from .conftest import REPO

MAP = REPO / "docs" / "architecture.md"
CODE = REPO / "goledger"
PATH = re.compile(r"`(\w[\w./-]*?(?:\.py|/))`")
"""A backticked module (``x.py``, ``web/forms.py``) or folder (``views/``) name."""
ROOTS = ("tests/", "docs/", "benchmarks/", "goledger/")


def _rows() -> list[tuple[Path, str]]:
    """Each line of the map with the folder its names are read in: a table row's first cell
    when it names a package (``| `replay/` | …``), else ``goledger/`` itself."""
    out = []
    for line in MAP.read_text(encoding="utf-8").splitlines():
        first = re.match(r"\|\s*`([\w/]+)/`\s*\|", line)
        out.append((CODE / first.group(1) if first else CODE, line))
    return out


def _exists(name: str, folder: Path) -> bool:
    """Whether ``name`` is a module or folder of ``folder`` (at any depth: a row names the
    modules of its sub-packages too), else of goledger/, else of the repository (``tests/…``)."""
    if name.startswith(ROOTS):
        return (REPO / name).exists()
    bare = name.rstrip("/")
    for base in (folder, CODE):
        if (base / bare).exists() or any(p for p in base.rglob(Path(bare).name)
                                         if p.as_posix().endswith("/" + bare) and "__pycache__" not in p.parts):
            return True
    return False


def test_every_module_and_folder_the_map_names_exists() -> None:
    missing = sorted({f"{name} (in {folder.relative_to(REPO)}/)" for folder, line in _rows()
                      for name in PATH.findall(line) if not _exists(name, folder)})
    assert not missing, f"docs/architecture.md names what goledger/ does not hold: {missing}"


def _modules() -> list[str]:
    """Every module of ``goledger/`` as the map names it: ``replay/fold/state.py``, a package
    by its folder (``replay/fold/``), the base modules by their file (``errors.py``)."""
    return sorted(p.parent.relative_to(CODE).as_posix() + "/" if p.name == "__init__.py" and p.parent != CODE
                  else p.relative_to(CODE).as_posix() for p in CODE.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_module_is_on_the_map() -> None:
    """One row per module, named by its path from ``goledger/``: a new module is put on the map."""
    named = set(PATH.findall(MAP.read_text(encoding="utf-8")))
    unnamed = [m for m in _modules() if m not in named]
    assert not unnamed, f"docs/architecture.md has no row for these modules: {unnamed}"


def test_the_module_check_can_fail() -> None:
    assert "replay/fold/state.py" in _modules() and "replay/fold/" in _modules() and "errors.py" in _modules()
    assert "state.py" not in PATH.findall("| `replay/fold/state.py` |")
