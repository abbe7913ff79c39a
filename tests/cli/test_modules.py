"""Every command of the table of commands (:mod:`goledger.commands.table`) is a module-level
function of its CLI module (a group: a module-level ``typer.Typer``) that the app calls as it
is, and no CLI module registers a command itself (sqlite-utils' shape: the command line is the
module-level functions, registered from the table)."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest
import typer

from goledger.cli.main import _SHARED_HELP, app, command_modules
from goledger.commands import table

CLI = Path(__file__).resolve().parents[2] / "goledger" / "cli"


def _callbacks(source: typer.Typer) -> list[object]:
    found = [c.callback for c in source.registered_commands]
    for group in source.registered_groups:
        if group.typer_instance is not None:
            found += _callbacks(group.typer_instance)
    return found


@pytest.mark.parametrize("command", table.COMMANDS, ids=lambda c: c.name)
def test_every_command_is_a_module_level_function_of_the_app(command: table.Command) -> None:
    module = importlib.import_module(f"goledger.cli.{command.cli}")
    defined = getattr(module, command.function)
    if command.group:
        assert isinstance(defined, typer.Typer)
        assert [g.typer_instance for g in app.registered_groups if g.name == command.name] == [defined]
        return
    assert inspect.isfunction(defined) and inspect.unwrap(defined).__module__ == module.__name__
    assert inspect.unwrap(defined).__qualname__ == command.function  # not defined inside another function
    assert _callbacks(app).count(defined) == 1


def test_the_table_names_every_commands_module_and_each_once() -> None:
    assert tuple(dict.fromkeys(f"goledger.cli.{c.cli}" for c in table.COMMANDS)) == command_modules()
    assert tuple(_SHARED_HELP) == table.SHARED_GROUPS
    assert len(table.by_name()) == len(table.COMMANDS)
    from goledger.cli import panels

    assert {c.panel for c in table.COMMANDS} <= {n for n in dir(panels) if getattr(panels, n) in panels.ORDER}


@pytest.mark.parametrize("path", sorted(CLI.glob("*.py")), ids=lambda p: p.name)
def test_no_cli_module_registers_a_command_itself(path: Path) -> None:
    """A command registered by its module (``app.command(...)``, a ``register_commands(app)``) would
    be one the table does not know; a group's own subcommands are the exception (``@team_app.command``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    groups = {c.function for c in table.COMMANDS if c.group}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and path.name != "main.py":
            typed = [ast.unparse(a.annotation) for a in node.args.args if a.annotation is not None]
            assert "typer.Typer" not in typed, f"{path.name}: {node.name} registers commands on an app"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "command", "add_typer") and isinstance(node.func.value, ast.Name):
            assert node.func.value.id in groups or path.name == "main.py", f"{path.name}: {node.func.value.id}"
