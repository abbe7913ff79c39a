"""Shared CLI plumbing: the ``--db`` and ``--json`` options, output, and error handling.

Kept light: importing this module must not import the library (start-up time matters,
``goledger --help`` and ``goledger result`` must stay well under 0.3 s).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

DEFAULT_DB = "tournament.db"

DbOption = Annotated[
    Path,
    typer.Option(
        "--db",
        envvar="GOLEDGER_DB",
        help="Ledger file (default: $GOLEDGER_DB, else ./tournament.db).",
        show_default=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripting.")]
ActorOption = Annotated[str, typer.Option("--actor", help="Who records this (default: $GOLEDGER_ACTOR or $USER).")]
ReasonOption = Annotated[str, typer.Option("--reason", help="Why, kept in the event's envelope.")]
ExpectedHeadOption = Annotated[
    int | None,
    typer.Option("--expected-head", help="Refuse if events were appended after this sequence number."),
]
RetryOption = Annotated[
    bool, typer.Option("--retry", help="With --expected-head: re-check against the new events and append.")
]


def default_db() -> Path:
    return Path(os.environ.get("GOLEDGER_DB") or DEFAULT_DB)


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``error: message`` on stderr and exit."""
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(code)


@contextmanager
def errors_as_exit() -> Iterator[None]:
    """Turn library refusals into one line on stderr and exit code 1 (no traceback)."""
    from goledger.errors import GoledgerError

    try:
        yield
    except GoledgerError as exc:
        fail(exc.message, exc.exit_code)
    except KeyboardInterrupt:
        fail("interrupted; nothing was written by the interrupted step", 130)


def print_json(data: Any) -> None:
    """Print JSON (:func:`goledger.render.json_text.json_text`: UTF-8, stable key order as
    given, indented by two spaces) and a newline."""
    from goledger.render.json_text import json_text

    sys.stdout.write(json_text(data) + "\n")


def echo(message: str) -> None:
    """Print a line; controls and invisible characters a name may hold are shown as escapes
    (``goledger.outputs.shown``), never sent raw to the terminal."""
    from goledger.outputs import shown

    sys.stdout.write("\n".join(shown(line) for line in message.split("\n")) + "\n")


def run(action: Callable[[], Any]) -> Any:
    with errors_as_exit():
        return action()


def outcome_json(outcome: Any) -> dict[str, Any]:
    """JSON for a command outcome: the message and the appended envelopes
    (:func:`goledger.render.json_text.outcome_json`)."""
    from goledger.render.json_text import outcome_json as as_json

    return as_json(outcome)


def report_outcome(outcome: Any, as_json: bool) -> None:
    if as_json:
        print_json(outcome_json(outcome))
    else:
        seqs = outcome.seqs
        where = f" (event {seqs[0]})" if len(seqs) == 1 else f" (events {seqs[0]}–{seqs[-1]})" if seqs else ""
        echo(outcome.message + where)


def render_text_table(headers: list[str], rows: list[list[str]], right: set[int] | None = None,
                      title: str = "") -> str:
    """A plain aligned text table (fast for thousands of rows; rich is too slow there).

    ``right`` holds the indexes of right-aligned columns. Widths count characters, so
    names in any script stay aligned as long as the terminal shows them one cell wide.
    """
    from goledger.outputs import shown

    right = right or set()
    rows = [[shown(c) for c in r] for r in rows]
    widths = [len(h) for h in headers]
    for r in rows:
        for i, cell in enumerate(r):
            if len(cell) > widths[i]:
                widths[i] = len(cell)

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(widths[i]) if i in right else c.ljust(widths[i])
                         for i, c in enumerate(cells)).rstrip()

    out = [title] if title else []
    out.append(line(headers))
    out.append("  ".join("-" * w for w in widths))
    out.extend(line(r) for r in rows)
    return "\n".join(out)
