"""``goledger --help`` lists its commands under groups, in the order of a tournament day
(issue 48 item 6), and docs/reference/commands.md is that listing, every command in it.

Regenerate the reference page after adding a command:
``PYTHONPATH=$PWD python -m tests.cli.test_help_groups > docs/reference/commands.md``.
"""

from __future__ import annotations

import re

import typer
import typer.testing
from typer import _click as click  # typer's own copy of click (typer 0.28 vendors it)
from typer.core import TyperGroup

from goledger.cli import panels
from goledger.cli.main import full
from tests.conftest import REPO, run_cli

PAGE = REPO / "docs" / "reference" / "commands.md"


def _top_level() -> TyperGroup:
    group = typer.main.get_command(full().app)
    assert isinstance(group, TyperGroup)
    return group


def _help_sections(text: str) -> dict[str, list[str]]:
    """The sections of a plain-text ``--help`` (title → the command names listed under it)."""
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            current = sections.setdefault(line[:-1], [])
        elif current is not None and (found := re.match(r"  (\S+)\s", line + " ")):
            current.append(found.group(1))
    return sections


def commands_reference() -> str:
    """The Markdown of docs/reference/commands.md, from the command line itself: each group of
    ``--help`` in its order, each command with its short help, and each subcommand of a group."""
    group = _top_level()
    ctx = click.Context(group)
    by_panel: dict[str, list[tuple[str, click.Command]]] = {}
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        by_panel.setdefault(getattr(command, "rich_help_panel", None) or panels.OTHER, []).append((name, command))
    lines = ["# Commands", "",
             "Every `goledger` command, in the groups `goledger --help` lists them in (the order of a",
             "tournament day). `goledger COMMAND --help` gives each command's options; every command",
             "takes `--json`, errors too. This page is generated from the command line and checked by",
             "`tests/cli/test_help_groups.py`."]
    for panel in (*panels.ORDER, *sorted(set(by_panel) - set(panels.ORDER))):
        if panel not in by_panel:
            continue
        lines += ["", f"## {panel}", "", "| command | what it does |", "|---|---|"]
        for name, command in by_panel[panel]:
            lines.append(f"| `goledger {name}` | {_cell(command)} |")
            if isinstance(command, TyperGroup):
                sub_ctx = click.Context(command, parent=ctx, info_name=name)
                for sub in command.list_commands(sub_ctx):
                    inner = command.get_command(sub_ctx, sub)
                    assert inner is not None
                    lines.append(f"| `goledger {name} {sub}` | {_cell(inner)} |")
    return "\n".join(lines) + "\n"


def _cell(command: click.Command) -> str:
    return command.get_short_help_str(limit=200).replace("|", "\\|")


def test_help_groups_every_command_in_the_days_order() -> None:
    got = run_cli("--help")
    assert got.code == 0, got.err
    sections = _help_sections(got.out)
    groups = [title for title in sections if title not in ("Usage", "Options")]
    assert groups == list(panels.ORDER), \
        f"{groups}: give each command under {panels.OTHER!r} a group, rich_help_panel=panels.… on its decorator"
    listed = [name for title in groups for name in sections[title]]
    assert sorted(listed) == sorted(_top_level().commands), "a command is missing from --help or has no group"
    assert len(listed) >= 50 and len(set(listed)) == len(listed)
    assert {"pair-round", "pairings"} <= set(sections[panels.PAIR]) and "result" in sections[panels.RECORD]
    assert {"import", "export", "validate"} <= set(sections[panels.FILES]) and sections[panels.DESK] == ["serve"]


def test_a_command_without_a_group_is_listed_under_other() -> None:
    """The grouping reads the decorator's string: a command that names no group is not lost."""
    app = typer.Typer(cls=panels.GroupedCommands, rich_markup_mode=None)

    @app.command(rich_help_panel=panels.RECORD)
    def result() -> None:
        """Record a result."""

    @app.command()
    def stray() -> None:
        """No group."""

    text = typer.testing.CliRunner().invoke(app, ["--help"], env={"COLUMNS": "120"}).output
    sections = _help_sections(text)
    assert sections[panels.RECORD] == ["result"] and sections[panels.OTHER] == ["stray"]
    assert text.index(panels.RECORD) < text.index(panels.OTHER)


def test_the_commands_reference_is_the_command_lines() -> None:
    assert PAGE.read_text(encoding="utf-8") == commands_reference(), \
        "regenerate: PYTHONPATH=$PWD python -m tests.cli.test_help_groups > docs/reference/commands.md"


if __name__ == "__main__":
    print(commands_reference(), end="")
