"""What a route module of the desk stands on: the JSON response and the bearer token of the
API routes, and :class:`Pages`, the protocol of the pages object a route module is handed.

``web/app.py`` assembles the app from the route modules (``routes(pages)`` each), so they
cannot import it back (``tests/test_layers.py``: no module import cycle); they import this.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import Response

from goledger.render.json_text import json_text
from goledger.replay.fold.state import TournamentState

__all__ = ["DeskReads", "Handler", "Pages", "bearer_token", "json_response"]

Handler = Callable[[Request], Awaitable[Response]]
"""A route's function."""


def json_response(data: Any, status: int = 200) -> Response:
    """``data`` as the CLI's ``--json`` prints it."""
    return Response(json_text(data) + "\n", status_code=status, media_type="application/json")


def bearer_token(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, or ``None``."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" else None


class DeskReads(Protocol):
    """What a route module reads of the desk (:class:`goledger.web.app.Desk`)."""

    @property
    def db(self) -> Path: ...

    def state(self, as_of: int | None = None) -> TournamentState: ...


class Pages(Protocol):
    """The desk's pages object as a route module uses it (:class:`goledger.web.app._Pages`)."""

    @property
    def desk(self) -> DeskReads: ...

    def render(self, request: Request, name: str, status: int = 200, **context: Any) -> Response: ...

    def need_director(self, request: Request) -> Response | None: ...

    def director_only(self, handler: Handler) -> Handler: ...

    async def read(self, request: Request, fn: Callable[[], Any]) -> Any: ...

    async def public_page(self, request: Request, name: str, build: Callable[[], dict[str, Any]]) -> Response: ...
