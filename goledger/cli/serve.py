"""``goledger serve``: the tournament desk in a browser (a thin shell over
:func:`goledger.web.serve.serve`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from goledger.cli.common import DbOption, default_db, echo


def serve(
    db: DbOption = None,  # type: ignore[assignment]
    host: Annotated[str, typer.Option(help="Address to listen on (default: this computer only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    token: Annotated[str | None, typer.Option(
        "--token", envvar="GOLEDGER_TOKEN", show_default=False,
        help="Director token for the pages that write (default: $GOLEDGER_TOKEN, else a new one, printed). "
             "Prefer --token-file or $GOLEDGER_TOKEN: other users can read a command line.")]
    = None,
    token_file: Annotated[Path | None, typer.Option(
        "--token-file", show_default=False,
        help="Read the director token from the first line of this file (readable by you only).")] = None,
    public_port: Annotated[int | None, typer.Option(
        "--public-port", show_default=False,
        help="Also serve the players' view (standings, pairings, player pages) on this port, in a process "
             "of its own, so phones never make the desk wait.")] = None,
    workers: Annotated[int, typer.Option(
        "--workers", help="Processes serving the players' port (with --public-port): at most one per core "
                          "but one, which the desk keeps.")] = 1,
    new: Annotated[bool, typer.Option(
        "--new", help="The ledger does not exist yet: start a desk that creates it (a new tournament or an "
                      "import).")] = False,
) -> None:
    """Serve the desk: director pages, the players' view and a JSON API over one ledger."""
    from goledger.web.serve import serve as serve_desk

    serve_desk(db or default_db(), host, port, token, say=echo, token_file=token_file,
                           public_port=public_port, new=new, workers=workers)
