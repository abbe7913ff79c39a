"""docs/architecture.md is the current map of the code (issue 48 item 5): every module or
folder it names in backticks (``store.py``, ``views/``) exists, read inside the package its
row describes, and every package of ``goledger/`` is named in it."""

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


def test_every_package_is_on_the_map() -> None:
    text = MAP.read_text(encoding="utf-8")
    named = set(PATH.findall(text)) | set(re.findall(r"\b([\w]+/)", text))
    packages = sorted(p.relative_to(CODE).as_posix() + "/" for p in CODE.rglob("__init__.py") for p in [p.parent]
                      if p != CODE)
    unnamed = [p for p in packages if p not in named and p.rsplit("/", 2)[-2] + "/" not in named]
    assert not unnamed, f"docs/architecture.md does not name these packages: {unnamed}"
