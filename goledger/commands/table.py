"""The one table of goledger's commands: each command's name, the command-line module that
defines it, its ``--help`` group and, for a command whose library function lives in
:mod:`goledger.commands`, that function's module.

Everything that lists commands is derived from it: :mod:`goledger.commands`'s lazy names
(``__all__`` and ``__getattr__``), the command line's routing of a run to the one module its
command needs (:mod:`goledger.cli.main`), the registration of each command under its group,
``cli/record.py``'s ``COMMANDS`` and the desk's actions (:data:`goledger.web.actions.ACTIONS`:
every command marked ``desk`` and every entry of :data:`DESK_FORMS`, by :func:`desk_actions`).
It holds strings only, so importing it costs a run of the command line nothing
(``tests/cli/test_cli_startup.py``); ``tests/commands/test_table.py`` checks it against what
the modules define, and the desk's actions against their forms and runners.

>>> by_name()["result"]
Command(name='result', cli='record', panel='RECORD', home='results', group=False, desk=True)
>>> by_name()["result"].function, by_name()["import trf"].function, by_name()["team"].function
('result', 'import_trf', 'team_app')
>>> library_names()["result"], library_names()["Outcome"]
('results', 'recording')
>>> desk_actions()["result"], desk_actions()["publish"], desk_actions()["team-add"], desk_actions()["player"]
('results.result', 'publish.publish', 'teams.team_add', '')
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
    whose ``typer.Typer`` the module defines as ``<name>_app`` with its subcommands. ``desk``:
    the desk runs the command from a form posted to ``/desk/do/<name>``, with the same library
    function (:func:`desk_actions`).

    A plain class with slots, not a ``NamedTuple``: making the class is a tenth of a millisecond
    less of every command line's start-up.
    """

    __slots__ = ("cli", "desk", "group", "home", "name", "panel")

    def __init__(self, name: str, cli: str, panel: str, home: str = "", group: bool = False,
                 desk: bool = False) -> None:
        self.name = name
        self.cli = cli
        self.panel = panel
        self.home = home
        self.group = group
        self.desk = desk

    def __repr__(self) -> str:
        return (f"Command(name={self.name!r}, cli={self.cli!r}, panel={self.panel!r}, home={self.home!r}, "
                f"group={self.group!r}, desk={self.desk!r})")

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
    Command("change-rules", "record", "SET_UP", "rules", desk=True),
    Command("new", "record", "SET_UP", "creation"),
    Command("register", "record", "REGISTER", "players", desk=True),
    Command("update-player", "record", "REGISTER", "players", desk=True),
    Command("withdraw", "record", "REGISTER", "withdrawals", desk=True),
    Command("reinstate", "record", "REGISTER", "withdrawals", desk=True),
    Command("absent", "record", "REGISTER", "absences", desk=True),
    Command("present", "record", "REGISTER", "absences", desk=True),
    Command("bye", "record", "PAIR", "absences", desk=True),
    Command("unbye", "record", "PAIR", "absences", desk=True),
    Command("pair", "record", "PAIR", "hand", desk=True),
    Command("edit-game", "record", "PAIR", "hand", desk=True),
    Command("renumber-tables", "record", "PAIR", "hand", desk=True),
    Command("unpair", "record", "PAIR", "results", desk=True),
    Command("result", "record", "RECORD", "results", desk=True),
    Command("correct", "record", "RECORD", "results", desk=True),
    Command("standings", "views", "STANDINGS"),
    Command("log", "views", "LOOK_BACK", "reading"),
    Command("verify", "views", "LOOK_BACK", "reading"),
    Command("explain", "explain", "LOOK_BACK"),
    Command("diff", "audit", "LOOK_BACK"),
    Command("what-if", "audit", "LOOK_BACK"),
    Command("publish", "audit", "STANDINGS", desk=True),
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
    Command("show-round", "day", "PAIR", desk=True),
    Command("unregister", "day", "REGISTER", "unregistration"),
    Command("pair-round", "pairing", "PAIR", "pairing", desk=True),
    Command("unpair-round", "pairing", "PAIR", "pairing", desk=True),
    Command("explain-pairing", "pairing", "PAIR", "pairing"),
    Command("forbid", "pairing", "PAIR", "constraints", desk=True),
    Command("fix-pairing", "pairing", "PAIR", "constraints", desk=True),
    Command("fix-table", "pairing", "PAIR", "constraints", desk=True),
    Command("pair-teams", "teams", "PAIR"),
    Command("timeline", "timeline", "LOOK_BACK"),
    Command("dispute-sheet", "timeline", "LOOK_BACK"),
    Command("check-in", "keys", "PAIR", "checking_in", desk=True),
    Command("check-ins", "keys", "PAIR"),
    Command("absent-unchecked", "keys", "PAIR", "checking_in", desk=True),
    Command("reports", "reports", "PAIR"),
    Command("approve-reports", "reports", "PAIR", "player_reports", desk=True),
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


DESK_FORMS: Final[dict[str, str]] = {
    "bulk-register": "", "refresh-ratings": "refresh_ratings.refresh_ratings", "player": "", "edit-games": "",
    "team-add": "teams.team_add", "team-assign": "teams.team_assign", "team-remove": "teams.team_remove",
    "unit-add": "units.unit_add", "unit-remove": "units.unit_remove",
}
"""The desk's actions that are no command of :data:`COMMANDS`: a group's subcommand (``team
add`` is the form ``team-add``) or a form of the desk alone, each with its library function
(``module.function`` of :mod:`goledger.commands`), or ``""`` when the form calls no one
function: ``bulk-register`` (the pasted list, read as a McMahon players file), ``player`` (one
form for the :data:`PLAYER_FORM` actions) and ``edit-games`` (several games' edits in one
transaction)."""

PLAYER_FORM: Final[tuple[str, ...]] = ("withdraw", "reinstate", "absent", "present", "bye", "unbye")
"""The actions the desk's one form for a player in a round (``player``) runs, by its ``what``."""


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


@cache
def desk_actions() -> dict[str, str]:
    """The desk's actions: each form name (``POST /desk/do/NAME``) with its library function as
    ``module.function`` of :mod:`goledger.commands` (``""``: none, see :data:`DESK_FORMS`).

    Every command marked ``desk`` is a form of its own name calling the command's library
    function: in its ``home``, or, for a command the package does not lend because a module
    has its name (``publish``, ``show-round``), in the module of that name; then
    :data:`DESK_FORMS`."""
    commands = {c.name: f"{c.home or c.function}.{c.function}" for c in COMMANDS if c.desk}
    return {**commands, **DESK_FORMS}
