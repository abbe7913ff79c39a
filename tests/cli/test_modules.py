"""Every CLI module that lists its commands (``COMMANDS``) registers exactly those, each a
module-level function the app calls as it is (importable, callable, walkable)."""

from __future__ import annotations

import importlib
import inspect

import pytest

from goledger.cli.main import COMMAND_MODULES, app

LISTED = [name for name in COMMAND_MODULES if hasattr(importlib.import_module(name), "COMMANDS")]


def test_the_shells_of_issue_28_list_their_commands() -> None:
    assert {"goledger.cli.record", "goledger.cli.pairing", "goledger.cli.audit", "goledger.cli.day"} <= set(LISTED)


@pytest.mark.parametrize("name", LISTED)
def test_every_listed_command_is_a_module_level_function_of_the_app(name: str) -> None:
    module = importlib.import_module(name)
    callbacks = [c.callback for c in app.registered_commands]
    for command in module.COMMANDS:
        assert getattr(module, command.__name__) is command and callable(command)
        assert inspect.unwrap(command).__module__ == name
        assert callbacks.count(command) == 1
    assert [c for c in callbacks if getattr(c, "__module__", None) == name] == list(module.COMMANDS)
