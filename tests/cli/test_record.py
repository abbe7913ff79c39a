"""The recording commands of the CLI (:mod:`goledger.cli.record`) are module-level functions,
each a thin shell over the library function of the same name and arguments; the options they
share are declared once (:func:`goledger.cli.common.shared_options`)."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import pytest

from goledger import commands
from goledger.cli import record as cli_record
from goledger.cli.main import _command_name, app
from goledger.commands import hand

SHARED = ["db", "actor", "reason", "expected_head", "retry", "as_json"]

CLI_ONLY = {"register": {"from_file"}, "new": {"option", "boards"}, "change_rules": {"settings"}}
"""Arguments a shell turns into the library's (``--option``/``--boards`` → ``options``,
``KEY=VALUE`` → ``changes``) or takes to another door (``register --from-file``)."""


def _library(name: str):
    return getattr(commands, name, None) or getattr(hand, name)


@pytest.mark.parametrize("command", cli_record.COMMANDS, ids=lambda c: c.__name__)
def test_every_command_is_a_module_level_function_over_the_library(command) -> None:
    assert getattr(cli_record, command.__name__) is command and inspect.isfunction(command)
    own = [n for n, p in inspect.signature(command, follow_wrapped=False).parameters.items() if n not in SHARED]
    taken = set(inspect.signature(_library(command.__name__)).parameters) - {"db", "plumbing"}
    assert set(own) - CLI_ONLY.get(command.__name__, set()) <= taken, (command.__name__, own, taken)


@pytest.mark.parametrize("command", cli_record.COMMANDS, ids=lambda c: c.__name__)
def test_every_command_declares_the_shared_options_once(command) -> None:
    shown = list(inspect.signature(command).parameters)
    shared = [n for n in shown if n in SHARED and n != "reason"]  # withdraw and correct say why themselves
    assert shared == [n for n in SHARED if n in shared], "the shared options in their one order"
    assert {"db", "actor", "as_json"} <= set(shared) and "reason" in shown
    assert all(name not in inspect.getsource(command) for name in ("DbOption", "ActorOption", "JsonOption"))


def test_the_app_holds_exactly_these_commands() -> None:
    registered = [c.callback for c in app.registered_commands if c.callback in cli_record.COMMANDS]
    assert registered == list(cli_record.COMMANDS)
    assert {_command_name(c) for c in app.registered_commands if c.callback in cli_record.COMMANDS} >= {
        "change-rules", "update-player", "edit-game", "renumber-tables", "result", "correct"}


def test_a_command_function_can_be_called_as_it_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "Called", 2)
    for surname in ("Abe", "Ban"):
        commands.register(db, surname, "X", "3k")
    cli_record.pair(1, ["Abe", "Ban"], db=db, as_json=True)
    game = json.loads(capsys.readouterr().out)["game"]
    cli_record.result(round=1, table=game["table"], result="B+R", db=db, actor="desk-a")
    assert capsys.readouterr().out.startswith(f"round 1 table {game['table']}: Ban X (black) won by resignation")
    [last] = commands.log(db)[-1:]
    assert last.type == "ResultRecorded" and last.actor == "desk-a"
