"""The one table of goledger's commands: each command's name, the command-line module that
defines it, its ``--help`` group and, for a command whose library function lives in
:mod:`goledger.commands`, that function's module.

Everything that lists commands is derived from it: :mod:`goledger.commands`'s lazy names
(``__all__`` and ``__getattr__``), the command line's routing of a run to the one module its
command needs (:mod:`goledger.cli.main`), the registration of each command under its group,
and ``cli/record.py``'s ``COMMANDS``. It holds strings only, so importing it costs a run of
the command line nothing (``tests/cli/test_cli_startup.py``); ``tests/commands/test_table.py``
checks it against what the modules define.

>>> by_name()["result"]
Command(name='result', cli='record', panel='RECORD', home='results', group=False)
>>> by_name()["result"].function, by_name()["import trf"].function, by_name()["team"].function
('result', 'import_trf', 'team_app')
>>> library_names()["result"], library_names()["Outcome"]
('results', 'recording')
"""

from __future__ import annotations

from functools import cache
from typing import Final


class Command:
    """One command of the command line.

    ``name`` is what a director types: one word, or a group and its subcommand for the groups
    several modules fill (:data:`SHARED_GROUPS`: ``import trf``). ``cli`` is the module of
    :mod:`goledger.cli` defining it, at module level, under the Python name :attr:`function`.
    ``panel`` names the group of ``goledger --help`` (an attribute of :mod:`goledger.cli.panels`).
    ``home``, when given, is the module of :mod:`goledger.commands` holding the library function
    the command is a shell over, with the same name and arguments. ``group``: a command group
    whose ``typer.Typer`` the module defines as ``<name>_app`` with its subcommands.

    A plain class with slots, not a ``NamedTuple``: making the class is a tenth of a millisecond
    less of every command line's start-up.
    """

    __slots__ = ("cli", "group", "home", "name", "panel")

    def __init__(self, name: str, cli: str, panel: str, home: str = "", group: bool = False) -> None:
        self.name = name
        self.cli = cli
        self.panel = panel
        self.home = home
        self.group = group

    def __repr__(self) -> str:
        return (f"Command(name={self.name!r}, cli={self.cli!r}, panel={self.panel!r}, home={self.home!r}, "
                f"group={self.group!r})")

    @property
    def function(self) -> str:
        """The Python name of the command in its CLI module: the words joined by ``_``, a ``-``
        as ``_`` (a group's typer: ``_app`` after it)."""
        base = self.name.replace(" ", "_").replace("-", "_")
        return f"{base}_app" if self.group else base


SHARED_GROUPS: Final[tuple[str, ...]] = ("import", "export", "validate")
"""The groups whose subcommands (one per file format) come from several CLI modules: the
command line makes them itself and fills them with the entries named ``<group> <format>``."""

COMMANDS: Final[tuple[Command, ...]] = (
    Command("change-rules", "record", "SET_UP", "rules"),
    Command("new", "record", "SET_UP", "creation"),
    Command("register", "record", "REGISTER", "players"),
    Command("update-player", "record", "REGISTER", "players"),
    Command("withdraw", "record", "REGISTER", "withdrawals"),
    Command("reinstate", "record", "REGISTER", "withdrawals"),
    Command("absent", "record", "REGISTER", "absences"),
    Command("present", "record", "REGISTER", "absences"),
    Command("bye", "record", "PAIR", "absences"),
    Command("unbye", "record", "PAIR", "absences"),
    Command("pair", "record", "PAIR", "hand"),
    Command("edit-game", "record", "PAIR", "hand"),
    Command("renumber-tables", "record", "PAIR", "hand"),
    Command("unpair", "record", "PAIR", "results"),
    Command("result", "record", "RECORD", "results"),
    Command("correct", "record", "RECORD", "results"),
    Command("standings", "views", "STANDINGS"),
    Command("log", "views", "LOOK_BACK", "reading"),
    Command("verify", "views", "LOOK_BACK", "reading"),
    Command("explain", "explain", "LOOK_BACK"),
    Command("diff", "audit", "LOOK_BACK"),
    Command("what-if", "audit", "LOOK_BACK"),
    Command("publish", "audit", "STANDINGS"),
    Command("history", "audit", "LOOK_BACK"),
    Command("report", "audit", "STANDINGS"),
    Command("crosstable", "fide", "STANDINGS"),
    Command("schedule", "fide", "SET_UP"),
    Command("freeze", "freezing", "STANDINGS", "freezing"),
    Command("unfreeze", "freezing", "STANDINGS", "freezing"),
    Command("egd-check", "egd_check", "FILES"),
    Command("site", "site", "STANDINGS"),
    Command("start-scores", "start_scores", "SET_UP"),
    Command("start-groups", "start_scores", "SET_UP"),
    Command("place", "systems", "STANDINGS"),
    Command("bracket", "systems", "STANDINGS"),
    Command("serve", "serve", "DESK"),
    Command("rating-preview", "rating", "FILES"),
    Command("settings", "settings", "SET_UP"),
    Command("pairings", "day", "PAIR"),
    Command("slips", "day", "PAIR"),
    Command("players", "day", "REGISTER"),
    Command("wall-list", "day", "STANDINGS"),
    Command("show-round", "day", "PAIR"),
    Command("unregister", "day", "REGISTER", "unregistration"),
    Command("pair-round", "pairing", "PAIR", "pairing"),
    Command("unpair-round", "pairing", "PAIR", "pairing"),
    Command("explain-pairing", "pairing", "PAIR", "pairing"),
    Command("forbid", "pairing", "PAIR", "constraints"),
    Command("fix-pairing", "pairing", "PAIR", "constraints"),
    Command("fix-table", "pairing", "PAIR", "constraints"),
    Command("pair-teams", "teams", "PAIR"),
    Command("timeline", "timeline", "LOOK_BACK"),
    Command("dispute-sheet", "timeline", "LOOK_BACK"),
    Command("check-in", "keys", "PAIR", "checking_in"),
    Command("check-ins", "keys", "PAIR"),
    Command("absent-unchecked", "keys", "PAIR", "checking_in"),
    Command("reports", "reports", "PAIR"),
    Command("approve-reports", "reports", "PAIR", "player_reports"),
    Command("import opengotha", "interchange_opengotha", "FILES"),
    Command("import macmahon", "interchange_macmahon", "FILES"),
    Command("import macmahon-players", "interchange_macmahon", "FILES"),
    Command("import egd", "interchange_egd", "FILES"),
    Command("import trf", "interchange_trf", "FILES"),
    Command("import ffg", "interchange_ffg", "FILES"),
    Command("export opengotha", "interchange_opengotha", "FILES"),
    Command("export macmahon", "interchange_macmahon", "FILES"),
    Command("export egd", "interchange_egd", "FILES"),
    Command("export trf", "interchange_trf", "FILES"),
    Command("export ffg", "interchange_ffg", "FILES"),
    Command("export aga", "interchange_ffg", "FILES"),
    Command("export pseudonymised", "privacy", "FILES"),
    Command("validate ffg", "interchange_ffg", "FILES"),
    Command("validate aga", "interchange_ffg", "FILES"),
    Command("validate egd", "interchange_egd", "FILES"),
    Command("catalog", "catalog", "FILES", group=True),
    Command("ratings", "ratings", "REGISTER", group=True),
    Command("team", "teams", "SET_UP", group=True),
    Command("unit", "units", "SET_UP", group=True),
    Command("keys", "keys", "REGISTER", group=True),
)
"""Every command, in the order ``goledger --help`` lists them within a group (the shared
groups' formats in the order ``goledger import --help`` lists them)."""

LIBRARY_ONLY: Final[dict[str, str]] = {
    "PairRoundOutcome": "pairing", "check_pairings": "pairing", "repair_report": "reading", "Outcome": "recording",
    "find_player": "players", "report_result": "player_reports",
}
"""The names :mod:`goledger.commands` lends that are no command of the command line (a result
type, a check, a lookup, the players' own report), each with its module."""


@cache
def by_name() -> dict[str, Command]:
    """Each command by the words a director types."""
    return {command.name: command for command in COMMANDS}


@cache
def library_names() -> dict[str, str]:
    """The names :mod:`goledger.commands` lends, each with the module it is imported from on
    first use: every command with a ``home`` (under its Python name), then :data:`LIBRARY_ONLY`."""
    return {**{c.function: c.home for c in COMMANDS if c.home}, **LIBRARY_ONLY}


def cli_modules() -> tuple[str, ...]:
    """The CLI modules (short names) defining commands, each once, in the table's order."""
    return tuple(dict.fromkeys(command.cli for command in COMMANDS))


def of_module(cli: str) -> tuple[Command, ...]:
    """The commands ``goledger.cli.<cli>`` defines, in the table's order."""
    return tuple(command for command in COMMANDS if command.cli == cli)
