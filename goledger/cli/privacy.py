"""``goledger export pseudonymised``: a thin shell over
:func:`goledger.formats.pseudonymised.pseudonymise` (same arguments)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from goledger.cli.common import DbOption, JsonOption, default_db, echo, print_json


def export_pseudonymised(
    output: Annotated[Path, typer.Option("--output", "-o", help="The new ledger file to write.")],
    key_file: Annotated[
        Path, typer.Option("--key-file", help="Your secret pseudonym key (created when missing; keep it private "
                           "and reuse it so players keep their pseudonyms across tournaments).")
    ],
    withhold_text: Annotated[
        bool, typer.Option("--withhold-text", help="Also replace actors and empty reasons, notes and comments.")
    ] = False,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """Write a copy of the ledger with the players' personal data replaced by stable
    pseudonyms; it still verifies against the original's published head."""
    from goledger.cli.interchange import print_report
    from goledger.formats.pseudonymised import pseudonymise

    outcome = pseudonymise(db or default_db(), output, key_file, withhold_text)
    if as_json:
        print_json({"db": outcome.db, "events": outcome.events, "hidden": outcome.hidden,
                    "original_head": outcome.original_head, "report": outcome.report.to_dict()})
        return
    print_report(outcome.report)
    echo(outcome.message)
