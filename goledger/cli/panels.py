"""The groups ``goledger --help`` lists its commands in, in the order of a tournament day.

The table of commands (:mod:`goledger.commands.table`) names each command's group by the
name of its constant here (``"PAIR"``), and the command line registers the command with it as
``rich_help_panel``: a string, so grouping costs a command line nothing until ``--help`` is
asked for. The command line
prints plain text (``rich_markup_mode=None``), so :class:`GroupedCommands` lays the groups
out itself; a command without a group is listed last, under :data:`OTHER`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from typer.core import TyperGroup

if TYPE_CHECKING:  # typer's own copy of click (typer 0.28 vendors it): types only
    from typer import _click as click

SET_UP: Final = "Set up a tournament"
REGISTER: Final = "Register players"
PAIR: Final = "Pair rounds"
RECORD: Final = "Record results"
STANDINGS: Final = "Standings and printouts"
LOOK_BACK: Final = "Look back: explain, audit, dispute"
FILES: Final = "Files: import, export, archive"
DESK: Final = "The desk"
OTHER: Final = "Other commands"

ORDER: Final[tuple[str, ...]] = (SET_UP, REGISTER, PAIR, RECORD, STANDINGS, LOOK_BACK, FILES, DESK)
"""The groups in the order ``--help`` prints them (the day's: new, register, pair, results…)."""


class GroupedCommands(TyperGroup):
    """A typer group whose plain-text ``--help`` lists the commands under their groups."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """One section per group of :data:`ORDER` (then :data:`OTHER`), each command on one
        line with its short help, in the order the commands were registered."""
        listed: list[tuple[str, click.Command]] = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                listed.append((name, command))
        if not listed:
            return
        limit = formatter.width - 6 - max(len(name) for name, _ in listed)
        by_group: dict[str, list[tuple[str, str]]] = {}
        for name, command in listed:
            group = getattr(command, "rich_help_panel", None) or OTHER
            by_group.setdefault(group, []).append((name, command.get_short_help_str(limit)))
        for group in (*ORDER, *sorted(set(by_group) - set(ORDER))):
            if group in by_group:
                with formatter.section(group):
                    formatter.write_dl(by_group[group])
