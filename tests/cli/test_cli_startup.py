"""Command-line start-up stays light (performance issue 9): the CLI builds only the command
it runs, imports no library module before a command body needs it, and prints JSON through
msgspec exactly as ``json.dumps(indent=2)`` would."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from contextlib import redirect_stdout

import pytest
from typer.testing import CliRunner

from goledger.cli import main as cli_main
from goledger.cli.common import print_json
from goledger.commands import table

from ..conftest import REPO


def _names(app) -> list[str]:  # type: ignore[no-untyped-def]
    return [cli_main._command_name(c) for c in app.registered_commands] + [g.name for g in app.registered_groups]


def test_a_run_builds_only_the_command_it_names() -> None:
    assert _names(cli_main.invoked_app(["standings", "--db", "x.db"])) == ["standings"]
    trimmed = cli_main.invoked_app(["import", "opengotha", "file.xml"])
    assert _names(trimmed) == ["import"]
    assert _names(trimmed.registered_groups[0].typer_instance) == ["opengotha"]
    # --help, no arguments and unknown names keep every command (listings, suggestions)
    for args in ([], ["--help"], ["stadnings"]):
        assert cli_main.invoked_app(args) is cli_main.app
    assert len(_names(cli_main.invoked_app(["import", "nosuchformat"]).registered_groups[0].typer_instance)) > 1


def _every_command() -> list[list[str]]:
    out = []
    for name in _names(cli_main.app):
        group = next((g for g in cli_main.app.registered_groups if g.name == name), None)
        if group is None:
            out.append([name])
        else:
            out += [[name, sub] for sub in _names(group.typer_instance)]
    return out


@pytest.mark.parametrize("words", _every_command(), ids=" ".join)
def test_every_command_runs_through_its_trimmed_app(words: list[str]) -> None:
    result = CliRunner().invoke(cli_main.invoked_app([*words, "--help"]), [*words, "--help"],
                                prog_name="goledger")
    assert result.exit_code == 0, result.output
    assert f"Usage: goledger {' '.join(words)} " in result.output


def test_the_cli_imports_no_library_module_before_a_command_runs() -> None:
    code = ("import sys, goledger.cli.main; "
            "print(' '.join(sorted(m for m in sys.modules if m.startswith(('goledger.', 'sqlite_utils', 'lxml', "
            "'msgspec', 'rich')))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True).stdout
    loaded = set(out.split())
    shared = {"goledger.cli", "goledger.cli.common", "goledger.cli.interchange", "goledger.cli.main",
              "goledger.nogc",  # a decorator of the audit commands, on the standard library alone
              "goledger.cli.panels"}  # the --help groups: strings and a formatter on typer alone
    assert loaded <= {*shared, *(
        f"goledger.cli.{m.rsplit('.', 1)[1]}" for m in cli_main.command_modules())}, loaded


@pytest.mark.parametrize("data", [
    {"round": 3, "rows": [{"place": 1, "name": "Kowalski Łukasz", "values": {"MMS": 33.5, "SOSM": 0.25}}]},
    [], {}, {"empty": [], "nested": {"a": {}}}, ["é\u2028\"\\", None, True, -7, 1.5],
])
def test_print_json_writes_what_json_dumps_writes(data: object) -> None:
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        print_json(data)
    assert buffer.getvalue() == json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def test_the_command_table_names_the_module_of_every_command() -> None:
    """:func:`~goledger.cli.main.command_module` and ``format_module``, which let a run import
    only its command's module, are derived from the table of commands, and say what the modules
    register: each module alone, and the whole app, give the table back."""
    commands: dict[str, str] = {}
    formats: dict[str, dict[str, str]] = {group: {} for group in table.SHARED_GROUPS}
    for name in cli_main.command_modules():
        apps = cli_main.built([name])
        short = name.removeprefix("goledger.cli.")
        for command in _names(apps.app):
            if command not in table.SHARED_GROUPS:
                assert command not in commands, command
                commands[command] = short
        for group in apps.app.registered_groups:
            if group.name in table.SHARED_GROUPS and group.typer_instance is not None:
                for fmt in _names(group.typer_instance):
                    formats[group.name][fmt] = short
    assert commands == cli_main.command_module()
    assert formats == cli_main.format_module()
    assert {**commands, **{f"{g} {f}": m for g, by in formats.items() for f, m in by.items()}} == {
        c.name: c.cli for c in table.COMMANDS}
    whole = set(_names(cli_main.app)) - set(table.SHARED_GROUPS)
    assert whole == set(cli_main.command_module())


@pytest.mark.parametrize(("words", "module"), [(["report", "--html", "x.html"], "audit"), (["standings"], "views"),
                                               (["export", "trf"], "interchange_trf"), (["--version"], None)])
def test_a_run_imports_only_the_module_of_its_command(words: list[str], module: str | None) -> None:
    code = (f"import sys; from goledger.cli import main; main.invoked_app({words!r}); "
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('goledger.cli.'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True).stdout
    commands = set(out.split()) & {*cli_main.command_modules()}
    assert commands == ({f"goledger.cli.{module}"} if module else set()), out


@pytest.mark.parametrize(("words", "table_read"), [(["--version"], False), (["result", "--help"], True)])
def test_the_table_of_commands_is_read_only_when_a_command_is_named(words: list[str], table_read: bool) -> None:
    """``goledger --version`` answers before any command is looked at: it reads no table (a
    run naming a command reads :mod:`goledger.commands.table`, strings alone, and no deciders)."""
    code = (f"import sys; from goledger.cli import main; main.invoked_app({words!r}); "
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('goledger.commands'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True).stdout
    assert set(out.split()) == ({"goledger.commands", "goledger.commands.table"} if table_read else set()), out
