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
from collections.abc import Collection
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "goledger"

BASE = frozenset({"errors", "nogc", "outputs", "i18n", "__init__", "__main__"})
"""Top-level modules every layer may import (``__main__`` is the entry point and imports the CLI)."""

LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"ledger"}),
    frozenset({"replay"}),
    frozenset({"describe"}),
    frozenset({"audit", "rating", "ratings", "keys"}),
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


def test_the_ledger_holds_no_words() -> None:
    """The ledger imports no base module but ``errors`` and ``nogc``: no ``i18n`` (events in
    words are ``goledger.describe``'s), no ``outputs``."""
    found = sorted(f"{path.relative_to(PACKAGE.parent)} -> {target}"
                   for path in sorted((PACKAGE / "ledger").rglob("*.py"))
                   for target in _imported(path) if target in BASE - {"errors", "nogc"})
    assert not found, "the ledger imports a base module it must not:\n" + "\n".join(found)


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


# --------------------------------------------------------------------------- modules

def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
"""Every module of goledger by dotted name (a package by its ``__init__``)."""


def _module_imports(source: str, name: str, is_package: bool, modules: Collection[str]) -> set[str]:
    """The goledger modules a module's source imports, anywhere in it (inside functions and
    under ``TYPE_CHECKING`` too): ``from pkg import mod`` is an import of ``pkg.mod`` when
    that is a module, else of ``pkg`` (a package ``__init__`` re-exporting a name counts as
    the module importing that ``__init__``)."""
    package = name.split(".") if is_package else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                module = ".".join([*package[: len(package) - node.level + 1], *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in modules else module for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:  # a name defined inside a module
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def _module_graph() -> dict[str, set[str]]:
    return {name: _module_imports(path.read_text(encoding="utf-8"), name, path.name == "__init__.py", MODULES)
            for name, path in MODULES.items()}


def _groups(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan): every module of a
    group reaches every other through imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(frozenset(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(groups, key=sorted)


def _ring(group: frozenset[str], graph: dict[str, set[str]]) -> list[str]:
    """A shortest cycle through the group's first module, as ``[a, b, …, a]``."""
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    while queue:  # breadth first, back to start
        v = queue.pop(0)
        for w in sorted(graph[v] & group):
            if w == start:
                return [*paths[v], start]
            if w not in paths:
                paths[w] = [*paths[v], w]
                queue.append(w)
    raise AssertionError(f"{sorted(group)} is no cycle")


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One ring of every group of modules that import each other."""
    return [_ring(group, graph) for group in _groups(graph)]


def test_no_module_import_cycle() -> None:
    """No two modules of goledger import each other, directly or around a ring (issue 28):
    a cycle closed by an import inside a function or under ``TYPE_CHECKING`` counts, and so
    does one through a package ``__init__`` that re-exports its modules."""
    cycles = _cycles(_module_graph())
    assert not cycles, "import cycles between modules:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_cycle_check_can_fail() -> None:
    """The module reader sees relative, function-level, ``TYPE_CHECKING`` and package
    imports, and the cycle finder names the ring."""
    modules = {"goledger.p", "goledger.p.a", "goledger.p.b", "goledger.q"}
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from goledger.q import X\n"
              "def f():\n    from . import b\n    from goledger.p import thing\n")
    assert _module_imports(source, "goledger.p.a", False, modules) == {"goledger.q", "goledger.p.b", "goledger.p"}
    graph = {"goledger.p": set(), "goledger.p.a": {"goledger.q"}, "goledger.p.b": {"goledger.p.a"},
             "goledger.q": {"goledger.p.b"}}
    assert _cycles(graph) == [["goledger.p.a", "goledger.q", "goledger.p.b", "goledger.p.a"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


# --------------------------------------------------------------------------- replay's floors

REPLAY_FLOORS: tuple[str, ...] = ("fold", "scoring", "loading", "views")
"""``goledger.replay`` bottom to top (docs/architecture.md): the fold (events → state), the
scoring (everything computed from a state), the loading (a state from a ledger path: the fold
of the stored log, its snapshots and their seal), the views (every read view by ledger path)."""


def _floor(module: str) -> int | None:
    parts = module.split(".")
    if parts[:2] != ["goledger", "replay"] or len(parts) < 3:
        return None
    return REPLAY_FLOORS.index(parts[2]) if parts[2] in REPLAY_FLOORS else -1


def test_every_replay_module_stands_on_a_floor() -> None:
    stray = [m for m in MODULES if _floor(m) == -1]
    assert not stray, f"put these modules of replay on a floor ({', '.join(REPLAY_FLOORS)}): {stray}"


def test_replay_floors_import_downward() -> None:
    graph = _module_graph()
    upward = [f"{m} -> {t}" for m in MODULES if (floor := _floor(m)) is not None and floor >= 0
              for t in sorted(graph[m]) if (above := _floor(t)) is not None and above > floor]
    assert not upward, "imports that run up replay's floors:\n" + "\n".join(upward)


def test_the_fold_imports_the_ledger_only() -> None:
    """The fold floor imports ``goledger.ledger`` (the values and events, never the store) and
    the base modules; a registry it needs is handed in (``fold(…, check=…)``)."""
    graph = _module_graph()

    def allowed(target: str) -> bool:
        top = target.split(".")[1] if "." in target else ""
        return target != "goledger.ledger.store" and (top in BASE or top == "ledger" or _floor(target) == 0)

    found = [f"{m} -> {t}" for m in MODULES if _floor(m) == 0 for t in sorted(graph[m]) if not allowed(t)]
    assert not found, "the fold imports more than the ledger:\n" + "\n".join(found)


def test_only_the_views_open_a_ledger() -> None:
    """The fold and the scoring never open a ledger: what takes a ledger path is on the
    loading floor (a state) or the views floor (a read view)."""
    graph = _module_graph()
    found = [m for m in MODULES if _floor(m) in (0, 1) and "goledger.ledger.store" in graph[m]]
    assert not found, f"these modules below replay.loading open a ledger: {found}"


def test_loading_a_state_loads_no_read_view() -> None:
    """A recording command loads the state (``replay.loading``), never the read views of
    ``replay.views`` and the scoring they compute (their import costs a command's start-up):
    ``commands/recording.py`` and everything it imports reach no module of ``replay.views``."""
    graph = _module_graph()
    seen, stack = set(), ["goledger.commands.recording"]
    while stack:
        module = stack.pop()
        if module not in seen:
            seen.add(module)
            stack.extend(graph.get(module, ()))
    assert "goledger.replay.loading.load" in seen
    assert not sorted(m for m in seen if m.startswith("goledger.replay.views")), "recording reaches replay.views"


SHELL_VALUES: frozenset[tuple[str, str]] = frozenset({
    ("goledger.replay.fold.state", "TournamentState"), ("goledger.replay.fold.state", "PlayerState"),
    ("goledger.replay.fold.state", "GameState"), ("goledger.replay.scoring.standings", "Standings"),
    ("goledger.replay.scoring.crosstable", "LEGEND"),
})
"""Pure value types (and constants) of replay the shells may name besides ``replay.views``."""

DESK_STATE_READS: frozenset[tuple[str, str]] = frozenset({
    ("goledger.replay.fold.players", "find_player"), ("goledger.replay.fold.players", "fold_name"),
    ("goledger.replay.fold.state", "fold"),
    ("goledger.replay.scoring.standings", "standings"), ("goledger.replay.scoring.find", "NameIndex"),
    ("goledger.replay.scoring.find", "find_players"), ("goledger.replay.scoring.find", "MAX_QUERY"),
})
"""Pure functions of a state the desk calls on the one state it keeps per ledger head
(``web/data.py``) instead of reading the ledger again: the desk's exceptions, named here so
that the list only shrinks."""


def _replay_names(path: Path) -> set[tuple[str, str]]:
    """``(module, name)`` of every ``from goledger.replay… import name`` in a module."""
    return {(node.module, alias.name) for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("goledger.replay")
            for alias in node.names}


@pytest.mark.parametrize("shell", ["cli", "web"])
def test_the_shells_read_through_replay_views(shell: str) -> None:
    """The CLI and the desk call ``replay.views`` (and name pure value types), nothing else of replay."""
    allowed = SHELL_VALUES | (DESK_STATE_READS if shell == "web" else frozenset())
    found = sorted(f"{path.relative_to(PACKAGE.parent)}: {module}.{name}"
                   for path in sorted((PACKAGE / shell).rglob("*.py")) for module, name in _replay_names(path)
                   if module != "goledger.replay.views" and (module, name) not in allowed)
    assert not found, "the shells read replay only through replay.views:\n" + "\n".join(found)
    if shell == "web":
        used = {pair for path in (PACKAGE / shell).rglob("*.py") for pair in _replay_names(path)}
        assert not DESK_STATE_READS - used, f"no longer used: remove from DESK_STATE_READS: {DESK_STATE_READS - used}"


TESTS = PACKAGE.parent / "tests"

CROSS_CUTTING = "e2e"
"""The one test folder not named after a package: journeys through several packages at once."""

PROJECT_CHECKS = frozenset({"test_layers.py", "test_docs.py", "test_readme_tour.py", "test_translations.py",
                            "test_security_doc.py", "test_docs_site.py", "test_architecture_map.py", "test_imports.py"})
"""The only test files at the top of ``tests/``: checks of the repository as a whole."""


def test_every_test_file_sits_in_the_folder_of_its_package() -> None:
    """``tests/`` mirrors the package layout (tests/README.md): a test of ``goledger/<package>/``
    lives in ``tests/<package>/`` (a subpackage's tests may go one folder deeper,
    ``tests/<package>/<sub>/``), a journey through several packages in ``tests/e2e/``, and only the
    repository-wide checks at the top, next to the helpers. Every test folder is a package
    (``__init__.py``), so two folders may hold files of the same name."""
    misplaced = []
    for path in sorted(TESTS.rglob("test_*.py")):
        folder = path.parent.relative_to(TESTS).parts
        if not folder:
            placed = path.name in PROJECT_CHECKS
        elif folder == (CROSS_CUTTING,):
            placed = True
        else:
            placed = (PACKAGE.joinpath(*folder) / "__init__.py").is_file()
        if not placed:
            misplaced.append(str(path.relative_to(TESTS.parent)))
    assert len(misplaced) == 0, f"move each into tests/<package>/ (or tests/{CROSS_CUTTING}/): {misplaced}"
    folders = {path.parent for path in TESTS.rglob("test_*.py")}
    assert not [str(f) for f in folders if not (f / "__init__.py").is_file()]
