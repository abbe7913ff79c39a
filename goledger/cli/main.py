"""The ``goledger`` command line (DESIGN §8).

Every command is a thin shell over a library function of the same name; ``--json`` on
read commands prints data for scripts; refusals print one line on stderr and exit 1,
usage errors exit 2.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="goledger",
    help="An event-sourced ledger for Go tournaments: record every fact, replay any standings, "
    "exchange OpenGotha, MacMahon, EGD and TRF files.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

import_app = typer.Typer(help="Create a ledger from a file of another program.", no_args_is_help=True)
export_app = typer.Typer(help="Write the ledger in another program's format.", no_args_is_help=True)
app.add_typer(import_app, name="import")
app.add_typer(export_app, name="export")

COMMAND_MODULES: tuple[str, ...] = (
    "goledger.cli.record",
    "goledger.cli.views",
    "goledger.cli.interchange_opengotha",
    "goledger.cli.explain",
    "goledger.cli.audit",
    "goledger.cli.interchange_macmahon",
    "goledger.cli.fide",
    "goledger.cli.interchange_egd",
    "goledger.cli.interchange_trf",
    "goledger.cli.start_scores",
)
"""CLI modules, each with ``register_commands(app)`` and optionally
``register_import(import_app)`` / ``register_export(export_app)``. They must stay light:
the library is imported inside the command bodies."""

for _name in COMMAND_MODULES:
    _module = importlib.import_module(_name)
    _module.register_commands(app)
    if hasattr(_module, "register_import"):
        _module.register_import(import_app)
    if hasattr(_module, "register_export"):
        _module.register_export(export_app)


def main() -> None:
    app()
