"""The ``goledger`` command line (DESIGN §8).

Every command is a thin shell over a library function of the same name; ``--json`` on
read commands prints data for scripts; refusals print one line on stderr and exit 1,
usage errors exit 2.
"""

from __future__ import annotations

import copy
import importlib
import sys
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, Any, Final, NamedTuple

import typer

from goledger.cli import panels

if TYPE_CHECKING:
    from goledger.commands import table


def _show_version(value: bool) -> None:
    if value:
        from goledger import __version__

        print(f"goledger {__version__}")
        raise typer.Exit()


def _main(
    version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """An event-sourced ledger for Go tournaments."""


_MODULE: Final = "goledger.cli."


@cache
def command_modules() -> tuple[str, ...]:
    """The CLI modules defining commands (full names), from :data:`goledger.commands.table.COMMANDS`.
    They must stay light: the library is imported inside the command bodies."""
    from goledger.commands import table

    return tuple(_MODULE + name for name in table.cli_modules())


@cache
def command_module() -> dict[str, str]:
    """The module (short name) defining each top-level command or group, so a run imports only the
    module of the command it names (derived from the table; ``--version`` reads no table at all)."""
    from goledger.commands import table

    return {c.name: c.cli for c in table.COMMANDS if " " not in c.name}


@cache
def format_module() -> dict[str, dict[str, str]]:
    """The module defining each format of ``import``, ``export`` and ``validate`` (derived from the table)."""
    from goledger.commands import table

    return {group: {c.name.split(" ", 1)[1]: c.cli for c in table.COMMANDS if c.name.startswith(group + " ")}
            for group in table.SHARED_GROUPS}


_SHARED_HELP: Final[dict[str, str]] = {
    "import": "Create a ledger from a file of another program.",
    "export": "Write the ledger in another program's format.",
    "validate": "Check a file of another program against its format's rules.",
}
"""The help of each group of :data:`goledger.commands.table.SHARED_GROUPS` (a test checks they are the same)."""


class Apps(NamedTuple):
    """The command line's app and its two groups."""

    app: typer.Typer
    import_app: typer.Typer
    export_app: typer.Typer


class CommandLine(panels.GroupedCommands):
    """The ``goledger`` group: its commands listed by group (:class:`panels.GroupedCommands`),
    and the command line's one handler of the library's refusals (issue 48): whatever command
    it runs, a :class:`~goledger.errors.GoledgerError` prints one line on stderr (one JSON
    object under ``--json``) and exits with its status, 1 for a refusal, the log unchanged
    (:func:`goledger.cli.common.errors_as_exit`). A command calls its library function directly."""

    def invoke(self, ctx: Any) -> Any:  # click's Context, which typer vendors under a private name
        from goledger.cli.common import errors_as_exit

        with errors_as_exit():
            return super().invoke(ctx)


def built(modules: Iterable[str]) -> Apps:
    """The app with the commands of ``modules`` (full names) registered, each as the table says:
    a command under its name and ``--help`` group, a group's typer under its name, a format in
    its shared group (``import``, ``export``, ``validate``), in the table's order."""
    app = typer.Typer(
        name="goledger",
        cls=CommandLine,
        help="An event-sourced ledger for Go tournaments: record every fact, replay any standings, "
        "exchange OpenGotha, MacMahon, EGD and TRF files.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )
    app.callback()(_main)
    shared = {name: typer.Typer(help=text, no_args_is_help=True) for name, text in _SHARED_HELP.items()}
    for name, group in shared.items():
        app.add_typer(group, name=name, rich_help_panel=panels.FILES)
    wanted = set(modules)
    if not wanted:
        return Apps(app, shared["import"], shared["export"])
    from goledger.commands import table

    for command in table.COMMANDS:
        if _MODULE + command.cli in wanted:
            _attach(app, shared, command)
    return Apps(app, shared["import"], shared["export"])


def _attach(app: typer.Typer, shared: dict[str, typer.Typer], command: table.Command) -> None:
    """Register ``command`` (its module's function or group, of the table's name) on ``app``."""
    defined = getattr(importlib.import_module(_MODULE + command.cli), command.function)
    panel = getattr(panels, command.panel)
    if command.group:
        app.add_typer(defined, name=command.name, rich_help_panel=panel)
    elif " " in command.name:
        group, name = command.name.split(" ", 1)
        shared[group].command(name)(defined)
    else:
        app.command(command.name, rich_help_panel=panel)(defined)


def _declared(app: typer.Typer) -> typer.Typer:
    """``app`` with the declared options of each of its commands made into the signature typer
    reads (:func:`goledger.cli.common.declared`)."""
    from goledger.cli.common import declared

    for command in app.registered_commands:
        if command.callback is not None:
            command.callback = declared(command.callback)
    for group in app.registered_groups:
        if group.typer_instance is not None:
            _declared(group.typer_instance)
    return app


@cache
def full() -> Apps:
    """The app with every command (for ``--help``, listings and suggestions, and tests)."""
    apps = built(command_modules())
    _declared(apps.app)
    return apps


def __getattr__(name: str) -> typer.Typer:
    """``app``, ``import_app`` and ``export_app``: :func:`full`'s, built on first use."""
    if name in Apps._fields:
        return getattr(full(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _modules_for(args: list[str]) -> list[str] | None:
    """The one module a command line needs (``None``: a name it does not know, or a group
    without its format)."""
    formats = format_module()
    found = formats[args[0]].get(args[1]) if len(args) > 1 and args[0] in formats else command_module().get(args[0])
    return None if found is None else [_MODULE + found]


def _command_name(info: typer.models.CommandInfo) -> str:
    callback = info.callback
    return info.name or (callback.__name__.lower().replace("_", "-") if callback else "")


def _only(source: typer.Typer, name: str) -> typer.Typer | None:
    """A copy of ``source`` holding only the command or group called ``name`` (``None``
    when it has neither).

    Typer turns every registered command into a click command (signature inspection,
    type hints) before it parses the line: about a millisecond per command. A run needs
    only the command it names, so :func:`main` builds just that one (``--help``, no
    arguments and unknown names keep the whole app for complete listings and suggestions).
    """
    commands = [c for c in source.registered_commands if _command_name(c) == name]
    groups = [g for g in source.registered_groups if g.name == name]
    if not commands and not groups:
        return None
    trimmed = copy.copy(source)
    trimmed.registered_commands = commands
    trimmed.registered_groups = groups
    return trimmed


def invoked_app(args: list[str]) -> typer.Typer:
    """The app to run for command-line ``args``: the app of the one module the command (and,
    for ``import``/``export``, the format) they name is in, trimmed to it; else the whole app
    (``--help``, no arguments, a name it does not know: complete listings and suggestions)."""
    if args == ["--version"]:  # answered by the eager option before any command is looked at
        bare = built(()).app  # a fresh app: no command, and without its import and export groups
        bare.registered_groups = []
        return bare
    if not args or args[0].startswith("-"):
        return full().app
    modules = _modules_for(args)
    app = full().app if modules is None else built(modules).app
    trimmed = _only(app, args[0])
    if trimmed is None:
        return app
    if trimmed.registered_groups and len(args) > 1 and not args[1].startswith("-"):
        group = trimmed.registered_groups[0]
        inner = _only(group.typer_instance, args[1]) if group.typer_instance is not None else None
        if inner is not None:
            group = copy.copy(group)
            group.typer_instance = inner
            trimmed.registered_groups = [group]
    if not trimmed.registered_groups and trimmed.registered_callback is None:
        # A Typer with a single command and no callback would run it without its name.
        trimmed.callback()(_group)
    return _declared(trimmed)


def _group() -> None:
    """An event-sourced ledger for Go tournaments."""


def main() -> None:
    """Run the command of ``sys.argv``, then leave without tearing the interpreter down.

    A command holds everything it read until it ends (a congress's audit: some 200 MB of
    objects); freeing them one by one at exit costs a tenth of a second and serves nothing,
    since every file was closed and every output written when the command returned. So the
    process flushes its streams and exits at once (``os._exit``), with the command's code; and
    a command that pauses the garbage collector for its whole run leaves it paused
    (:func:`goledger.nogc.exit_follows`), as its last collection would only walk that memory."""
    import os

    from goledger.cli.common import json_errors_for
    from goledger.nogc import exit_follows

    exit_follows()
    json_errors_for(sys.argv[1:])
    code = 0
    try:
        invoked_app(sys.argv[1:])()
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        if isinstance(done.code, str):
            sys.stderr.write(done.code + "\n")
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):  # the reader went away, or a stream was closed
        code = code or 1
    os._exit(code)
