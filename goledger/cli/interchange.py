"""What every ``goledger import …`` and ``goledger export …`` command shares: the options,
the report on the terminal, and how an outcome is shown (text, or ``--json``)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from goledger.cli.common import echo, print_json

REPORT_LINES = 12
"""Report entries printed after an import or export (all of them go to ``--report FILE``)."""

ReportOption = Annotated[Path | None, typer.Option("--report", help="Write the report as JSON to this file.")]
StrictOption = Annotated[bool, typer.Option("--strict", help="Refuse the import on any warning.")]
AllowErrorsOption = Annotated[
    bool, typer.Option("--allow-errors", help="Write the ledger even if some items could not be mapped.")
]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="Print only the summary line.")]
NewDbOption = Annotated[
    Path | None,
    typer.Option("--db", envvar="GOLEDGER_DB", show_default=False,
                 help="The new ledger file (default: <file stem>.db here)."),
]
OutputOption = Annotated[
    Path | None, typer.Option("--output", "-o", help="Write to this file (default: standard output).")
]
ForceOption = Annotated[bool, typer.Option("--force", help="Replace the output or report file if it exists.")]
AsOfOption = Annotated[int | None, typer.Option("--as-of", help="Export the ledger as of this event.")]


def print_report(report: Any, limit: int = REPORT_LINES, stream: Any = None) -> None:
    """The report on the terminal (:meth:`InterchangeReport.render`): counts, then the first
    ``limit`` entries, errors first."""
    import msgspec

    from goledger.outputs import shown

    safe = msgspec.structs.replace(report, entries=[
        msgspec.structs.replace(e, message=shown(e.message), where=shown(e.where)) for e in report.entries])
    (stream or sys.stdout).write(safe.render(limit) + "\n")


def run_import(action: Callable[[], Any], *, as_json: bool, quiet: bool) -> None:
    """Run an import and show it: the report (unless ``quiet``) and the outcome's one-line
    message, or with ``as_json`` ``{"db", "events", "report"}``. A refused import prints its
    report on stderr, then the reason, and exits 1 (the library wrote nothing)."""
    from goledger.formats.importing import ImportRefused

    try:
        outcome = action()
    except ImportRefused as exc:  # its report, then the one handler's sentence
        if not as_json and not quiet:
            print_report(exc.report, stream=sys.stderr)
        raise
    if as_json:
        print_json({"db": outcome.db, "events": outcome.events, "report": outcome.report.to_dict()})
        return
    if not quiet:
        print_report(outcome.report)
    echo(outcome.message)


def run_export(action: Callable[[], Any], *, as_json: bool = False, quiet: bool = False) -> None:
    """Run an export and show it. Without ``--output`` the file's bytes go to stdout and the
    report (when it has entries, unless ``quiet``) to stderr; with it, the report and the
    one-line message, or with ``as_json`` ``{"output", "bytes", "report"}``."""
    outcome = action()
    if outcome.output is None:
        sys.stdout.buffer.write(outcome.data)
        sys.stdout.flush()
        if outcome.report.entries and not quiet:
            print_report(outcome.report, stream=sys.stderr)
        return
    if as_json:
        print_json({"output": outcome.output, "bytes": len(outcome.data), "report": outcome.report.to_dict()})
        return
    if outcome.report.entries and not quiet:
        print_report(outcome.report)
    echo(outcome.message)


def show_validation(result: Any, *, as_json: bool) -> None:
    """Show what ``validate <format>`` found (JSON, or one line per problem) and exit 1 when a
    rule of the format is broken (warnings alone exit 0)."""
    if as_json:
        print_json(result.to_dict())
    else:
        echo(result.render())
    if not result.ok:
        raise typer.Exit(1)
