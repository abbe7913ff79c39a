"""Running the desk with uvicorn (``goledger serve``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from goledger.errors import CommandRejected
from goledger.web.security import new_token

__all__ = ["serve"]


def serve(db: str | os.PathLike[str], host: str = "127.0.0.1", port: int = 8000, token: str | None = None,
          *, say: Callable[[str], None] = print) -> None:
    """Serve the desk over ledger ``db`` on ``host:port`` until interrupted.

    The director token is ``token``, else ``$GOLEDGER_TOKEN``, else a new random one; the
    address and the token are printed (``say``) at start-up. A ledger that does not exist
    yet is created from the desk (a new tournament or an import); one that exists is read
    once first, so that a damaged, foreign or newer file is refused with its sentence.
    """
    import uvicorn

    from goledger.web.app import create_app

    if not 0 < port < 65536:
        raise CommandRejected(f"port {port} is outside 1..65535")
    token = token or os.environ.get("GOLEDGER_TOKEN") or new_token()
    if len(token) < 8:
        raise CommandRejected("the director token must have at least 8 characters")
    target = Path(db)
    if not target.parent.exists():
        raise CommandRejected(f"cannot serve {target}: folder {target.parent} does not exist")
    if target.exists():
        from goledger.replay.views import state_as_of

        state_as_of(target)  # a damaged, foreign or newer ledger is refused before the desk starts
    app = create_app(target, token)
    shown = f"[{host}]" if ":" in host else host
    say(f"goledger desk for {target} at http://{shown}:{port}/  (director token: {token})")
    if host not in ("127.0.0.1", "localhost", "::1"):
        say(f"note: listening on {host}: other computers on the network can reach the desk")
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=3)
