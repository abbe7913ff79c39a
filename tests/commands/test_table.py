"""The table of commands (:mod:`goledger.commands.table`) is the one list of goledger's
commands: the package's lazy names, the type-checking imports static tools read, and the
library functions the command line is a shell over all agree with it."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

import goledger.commands as package
from goledger.commands import table

INIT = Path(package.__file__)


def test_the_type_checking_imports_name_what_the_table_lends() -> None:
    """``commands/__init__.py``'s ``TYPE_CHECKING`` imports (for mypy and editors) are exactly
    the names the table lends, each from its module."""
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    imported = {alias.name: node.module.removeprefix("goledger.commands.") for node in block.body
                if isinstance(node, ast.ImportFrom) and node.module for alias in node.names}
    assert imported == table.library_names()


@pytest.mark.parametrize("command", [c for c in table.COMMANDS if c.home], ids=lambda c: c.name)
def test_a_command_with_a_home_is_a_shell_over_the_library_function_of_its_name(command: table.Command) -> None:
    """sqlite-utils' shape: the CLI function and the library function have one name, and what
    the package lends under it is the library function."""
    library = getattr(importlib.import_module(f"goledger.commands.{command.home}"), command.function)
    assert callable(library) and getattr(package, command.function) is library
    shell = getattr(importlib.import_module(f"goledger.cli.{command.cli}"), command.function)
    assert inspect.unwrap(shell).__name__ == library.__name__ == command.function


def test_every_name_of_a_module_is_the_table_s_module() -> None:
    for name, home in table.library_names().items():
        assert hasattr(importlib.import_module(f"goledger.commands.{home}"), name), (name, home)
        assert name not in {m.removesuffix(".py") for m in (p.name for p in INIT.parent.glob("*.py"))}, name


def test_functions_follow_the_names_a_director_types() -> None:
    by_name = table.by_name()
    assert by_name["update-player"].function == "update_player"
    assert by_name["import macmahon-players"].function == "import_macmahon_players"
    assert by_name["keys"].function == "keys_app"
    assert all(c.name.split(" ", 1)[0] in table.SHARED_GROUPS for c in table.COMMANDS if " " in c.name)
