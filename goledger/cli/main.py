"""The ``goledger`` command line (DESIGN §8).

Every command is a thin shell over a library function of the same name; ``--json`` on
read commands prints data for scripts; refusals print one line on stderr and exit 1,
usage errors exit 2.
"""

from __future__ import annotations

import typer

from goledger.cli import record, views

app = typer.Typer(
    name="goledger",
    help="An event-sourced ledger for Go tournaments: record every fact, replay any standings, "
    "exchange OpenGotha, MacMahon, EGD and TRF files.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

record.register_commands(app)
views.register_commands(app)


def main() -> None:
    app()
