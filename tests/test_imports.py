"""Imports sit at real boundaries only (issue 48 item 5): in the library's packages (all but the
shells ``cli/``, ``web/`` and ``commands/``), an ``import`` inside a function is allowed only for a
heavy library (:data:`HEAVY`) or for a goledger module listed in :data:`LAZY` with the reason it
is loaded late; anything else is imported at the module's top, where it costs nothing more.
Imports used only in annotations go under ``if TYPE_CHECKING:`` (ruff's ``TC`` rules,
``pyproject.toml``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from .conftest import REPO

PACKAGE = REPO / "goledger"
SHELLS = frozenset({"cli", "web", "commands"})
"""Out of this check's reach: the command line and the desk load each command's library late
on purpose (``tests/cli/test_cli_startup.py``), and ``commands/`` is being rebuilt as one table."""

HEAVY = frozenset({
    "anyascii", "babel", "jinja2", "lxml", "numpy", "platformdirs", "pyuca", "rustworkx", "segno",
    "sqlite_utils", "concurrent.futures",
})
"""Libraries dear to import (tens of modules or milliseconds each, measured with ``python -X
importtime``) that a module may load in the one function that needs them."""

_FACADE = "a format's facade loads only the half (read, write, validate) its function runs"
_READ_SIDE = "the read side (views, standings, the loader) is loaded only by the function that reads"
_RECORDING = "kept off every recording command's start-up (goledger.commands.results)"

LAZY: dict[tuple[str, str], str] = {
    # (a standard module too, when a read path does not otherwise load it)
    # the ledger holds no words (tests/test_layers.py): errors loads i18n only to word a refusal
    ("goledger.errors", "goledger.i18n.messages"): "the ledger imports errors and no i18n",
    ("goledger.ledger.store", "shutil"): "shutil loads bz2, lzma and zlib: only a failed write asks the disk",
    **{(f"goledger.formats.{fmt}", f"goledger.formats.{fmt}.{part}"): _FACADE for fmt, parts in {
        "aga": ("validate", "write"), "egd": ("check", "preview", "read", "syntax", "validate", "write"),
        "ffg": ("read", "validate", "write"), "macmahon": ("read", "write"), "opengotha": ("read", "write"),
        "trf": ("read", "write")}.items() for part in parts},
    **{(f"goledger.formats.{fmt}", "goledger.replay.loading.load"): _FACADE for fmt in ("aga", "egd", "ffg")},
    ("goledger.formats.egd", "goledger.ratings.store"): _FACADE,
    ("goledger.formats.opengotha", "goledger.replay.scoring.units"): _FACADE,
    **{("goledger.formats.registry", f"goledger.formats.{fmt}"): "the desk lists the formats without loading them"
       for fmt in ("egd", "ffg", "macmahon", "opengotha", "trf")},
    ("goledger.formats.carried", "goledger.replay.scoring.standings"): _READ_SIDE,
    ("goledger.formats.exporting", "goledger.replay.views"): _READ_SIDE,
    ("goledger.formats.places", "goledger.replay.fold.state"): _READ_SIDE,
    ("goledger.formats.places", "goledger.replay.scoring.standings"): _READ_SIDE,
    ("goledger.formats.trf.read", "goledger.replay.scoring.fide_unplayed"): _READ_SIDE,
    ("goledger.formats.trf.write", "goledger.replay.scoring.standings"): _READ_SIDE,
    ("goledger.formats.trf.write", "goledger.replay.scoring.fide_unplayed"): _READ_SIDE,
    ("goledger.pairing", "goledger.pairing.egf.parameters"): "the egf package loads its engine (numpy)",
    ("goledger.rating.preview", "goledger.ledger.store"): _READ_SIDE,
    ("goledger.rating.preview", "goledger.replay.loading.load"): _READ_SIDE,
    ("goledger.render.audit_report", "goledger.render.bracket"): "only a knockout's report draws a bracket",
    ("goledger.render.audit_report", "goledger.systems.views"): "only a knockout's report draws a bracket",
    **{("goledger.render.site", m): "a site already up to date loads no renderer"
       for m in ("goledger.render.audit_report", "goledger.replay.scoring.crosstable",
                 "goledger.replay.scoring.printouts", "goledger.replay.scoring.standings")},
    **{(m, "goledger.render.html"): "Jinja2: only an HTML output loads it"
       for m in ("goledger.render.bracket", "goledger.render.dispute_sheet", "goledger.render.printouts",
                 "goledger.render.welcome")},
    ("goledger.render.printouts", "goledger.replay.fold.players"): _READ_SIDE,
    ("goledger.render.printouts", "goledger.replay.scoring.crosstable"): _READ_SIDE,
    ("goledger.render.printouts", "goledger.replay.scoring.printouts"): _READ_SIDE,
    **{("goledger.replay.views", f"goledger.replay.scoring.{m}"): "each view loads its own scoring module"
       for m in ("crosstable", "explain", "fide_views")},
    ("goledger.render.json_text", "msgspec"): "printing JSON stays light: msgspec alone is 34 modules",
    ("goledger.replay.scoring.registries", "goledger.replay.scoring.criteria"): _RECORDING,
    ("goledger.replay.scoring.standings", "goledger.i18n.collation"): "only a tie by name loads the collation",
    ("goledger.systems.unit_views", "goledger.replay.views"): _READ_SIDE,
    ("goledger.systems.views", "goledger.replay.views"): _READ_SIDE,
    **{("goledger.systems.views", f"goledger.systems.{m}"): "only a tournament of that system loads its module"
       for m in ("knockout", "double_knockout", "paramus")},
    ("goledger.render.printouts", "markupsafe"): "only the HTML slips need it (a text printout loads no markupsafe)",
}
"""Each other in-function import that stays in its function, by (importer, imported), with why:
each would load modules (measured) on a path that does not use them."""


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _target(node: ast.Import | ast.ImportFrom, alias: ast.alias, importer: str, is_package: bool) -> str:
    """The module an import statement's name loads: a goledger module by its dotted name (a
    name defined in a module by that module), any other library by its top package (or a
    :data:`HEAVY` dotted name)."""
    if isinstance(node, ast.Import):
        name = alias.name
    else:
        base = node.module or ""
        if node.level:
            package = importer.split(".") if is_package else importer.split(".")[:-1]
            base = ".".join([*package[: len(package) - node.level + 1], *([base] if base else [])])
        name = f"{base}.{alias.name}"
    if not name.startswith("goledger"):
        return next((h for h in HEAVY if name == h or name.startswith(h + ".")), name.split(".")[0])
    while name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def lazy_imports(source: str, importer: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """Each import inside a function of ``source``: (line, module it loads)."""
    def walk(node: ast.AST, inside: bool) -> Iterator[tuple[int, str]]:
        for child in ast.iter_child_nodes(node):
            if inside and isinstance(child, ast.Import | ast.ImportFrom):
                for alias in child.names:
                    yield child.lineno, _target(child, alias, importer, is_package)
            yield from walk(child, inside or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef))
    yield from walk(ast.parse(source), False)


def _scoped() -> dict[str, Path]:
    return {name: path for name, path in MODULES.items() if name.split(".")[1:2] != [] and
            name.split(".")[1] not in SHELLS}


def _refused(source: str, importer: str, is_package: bool) -> list[str]:
    return [f"{importer}:{line} {target}" for line, target in lazy_imports(source, importer, is_package)
            if target not in HEAVY and (importer, target) not in LAZY]


def test_every_import_inside_a_function_is_a_boundary() -> None:
    refused = [r for name, path in _scoped().items()
               for r in _refused(path.read_text(encoding="utf-8"), name, path.name == "__init__.py")]
    assert not refused, f"import these at the module's top (or list the boundary in LAZY): {refused}"


def test_every_listed_boundary_is_still_there() -> None:
    found = {(name, target) for name, path in _scoped().items()
             for _, target in lazy_imports(path.read_text(encoding="utf-8"), name, path.name == "__init__.py")}
    assert not set(LAZY) - found, f"no longer imported late: remove from LAZY: {sorted(set(LAZY) - found)}"


def test_the_check_can_fail() -> None:
    source = ("def f():\n    import os\n    from goledger.outputs import csv_text\n    import babel.dates\n"
              "    from .state import fold\n")
    assert _refused(source, "goledger.replay.fold.players", False) == [
        "goledger.replay.fold.players:2 os", "goledger.replay.fold.players:3 goledger.outputs",
        "goledger.replay.fold.players:5 goledger.replay.fold.state"]
    assert _refused("import os\nfrom goledger import outputs\n", "goledger.replay.fold.players", False) == []
