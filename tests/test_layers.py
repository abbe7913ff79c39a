"""The package layout is a contract (docs/architecture.md, DESIGN §1): every import between
goledger's packages goes downward.

Imports are read with ``ast`` from every module, those inside functions included (the CLI
imports the library lazily, but a lazy import is still a dependency). A package may import
its own modules, the base modules and packages of a lower layer; two packages of one layer
do not import each other. A package that is not declared here fails the test, so a new
folder has to say where it stands.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "goledger"

BASE = frozenset({"errors", "nogc", "outputs", "i18n", "__init__", "__main__"})
"""Top-level modules every layer may import (``__main__`` is the entry point and imports the CLI)."""

LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"ledger"}),
    frozenset({"replay"}),
    frozenset({"audit", "rating", "ratings"}),
    frozenset({"pairing"}),
    frozenset({"teams"}),
    frozenset({"systems"}),
    frozenset({"commands"}),
    frozenset({"formats"}),
    frozenset({"render", "catalog"}),
    frozenset({"cli", "web"}),
)
"""Bottom to top: each layer imports only layers below it."""

RANK = {name: level for level, names in enumerate(LAYERS) for name in names}

SHELL_ENTRY: dict[tuple[str, str], str] = {("cli", "web"): "goledger/cli/serve.py"}
"""The one import between the shells, and the only module allowed to make it: ``goledger
serve`` (the command line) starts the desk."""


def _package_of(path: Path) -> str:
    return path.relative_to(PACKAGE).with_suffix("").parts[0]


def _imported(path: Path) -> set[str]:
    """The goledger packages (first component after ``goledger.``) a module imports."""
    return _imported_by(path.read_text(encoding="utf-8"), path.relative_to(PACKAGE).parent.parts)


def _imported_by(source: str, here: tuple[str, ...]) -> set[str]:
    tree = ast.parse(source)
    found: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                names = [".".join(["goledger", *base, *([node.module] if node.module else [])])]
            elif node.module:
                names = [node.module]
                if node.module == "goledger":
                    names = [f"goledger.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "goledger" and len(parts) > 1:
                found.add(parts[1])
    return found


def _edges() -> dict[tuple[str, str], str]:
    edges: dict[tuple[str, str], str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        source = _package_of(path)
        for target in _imported(path):
            if target != source and source not in BASE and target not in BASE:
                edges.setdefault((source, target), str(path.relative_to(PACKAGE.parent)))
    return edges


def _allowed(src: str, dst: str) -> bool:
    """Whether every module of ``src`` importing ``dst`` is the one :data:`SHELL_ENTRY` names."""
    allowed = SHELL_ENTRY.get((src, dst))
    if allowed is None:
        return False
    importers = {str(p.relative_to(PACKAGE.parent)) for p in PACKAGE.rglob("*.py")
                 if _package_of(p) == src and dst in _imported(p)}
    return importers == {allowed}


def test_every_package_is_declared() -> None:
    packages = {_package_of(p) for p in PACKAGE.rglob("*.py")} - BASE
    undeclared = sorted(packages - set(RANK))
    assert not undeclared, f"declare these packages in LAYERS (and docs/architecture.md): {undeclared}"


def test_imports_go_downward() -> None:
    upward = [f"{src} -> {dst} ({where})" for (src, dst), where in _edges().items()
              if RANK.get(dst, -1) >= RANK.get(src, -1) and not _allowed(src, dst)]
    assert not upward, "imports that run upward or sideways:\n" + "\n".join(upward)


def test_ledger_imports_nothing_of_goledger_but_base() -> None:
    assert not [dst for (src, dst) in _edges() if src == "ledger"]


def test_the_store_knows_nothing_of_go() -> None:
    """``store.py`` is generic event storage: it imports only the event codec and base modules."""
    imported = {n for n in ast.walk(ast.parse((PACKAGE / "ledger" / "store.py").read_text(encoding="utf-8")))
                if isinstance(n, ast.ImportFrom) and n.module and n.module.startswith("goledger")}
    assert {n.module for n in imported} <= {"goledger.errors", "goledger.nogc", "goledger.ledger.events"}


@pytest.mark.parametrize("shell", ["cli", "web"])
def test_nothing_imports_the_shells(shell: str) -> None:
    assert not [f"{src} ({where})" for (src, dst), where in _edges().items()
                if dst == shell and src != shell and not _allowed(src, dst)]


def test_the_contract_can_fail() -> None:
    """The reader sees function-level, relative and ``from goledger import x`` imports (so the
    checks above can fail)."""
    source = "def f():\n    from ..replay import state\n    import goledger.cli.main\n    from goledger import web\n"
    assert _imported_by(source, ("ledger",)) == {"replay", "cli", "web"}
