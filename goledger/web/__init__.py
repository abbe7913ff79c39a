"""The tournament desk in a browser (``goledger serve``, issue 17).

A Starlette application with Jinja2 templates and htmx served from the package (no CDN: it
works offline in a sports hall). Every page calls the same library function as the CLI:
recording commands in :mod:`goledger.commands`, reads in :mod:`goledger.replay.views` and
:mod:`goledger.audit.queries`, files through :mod:`goledger.formats`. See
:mod:`goledger.web.app` for the routes and :mod:`goledger.web.security` for the guards.

The web libraries (the ``web`` extra) are imported only when the app is built, so the rest
of goledger works without them.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def create_app(*args: Any, **kwargs: Any) -> Any:
    """:func:`goledger.web.app.create_app` (imported on first use)."""
    from goledger.web.app import create_app as create

    return create(*args, **kwargs)
