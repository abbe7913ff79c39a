"""What a route module of the desk stands on: the JSON response and the bearer token of the
API routes, and :class:`Pages`, the protocol of the pages object a route module is handed.

``web/app.py`` assembles the app from the route modules (``routes(pages)`` each), so they
cannot import it back (``tests/test_layers.py``: no module import cycle); they import this.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from starlette.requests import Request
from starlette.responses import Response

from goledger.render.json_text import json_text
from goledger.replay.fold.state import TournamentState
from goledger.web.guard import query_int

if TYPE_CHECKING:
    from goledger.web.isolate import Done
    from goledger.web.live import HeadWatcher
    from goledger.web.security import DeskKeys, Sessions

__all__ = ["DESK_COOKIE", "SESSION_COOKIE", "DeskPages", "DeskReads", "DeskState", "Handler", "Pages", "bearer_token",
           "criteria_list", "int_param", "json_response", "round_or"]

SESSION_COOKIE = "goledger_session"
DESK_COOKIE = "goledger_desk"

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


def int_param(request: Request, name: str) -> int | None:
    """The query's whole number ``name`` (bounded as text first: :func:`goledger.web.guard.query_int`)."""
    return query_int(request.query_params, name)


def round_or(given: int | None, default: int) -> int:
    """``given``, or ``default`` when the query gave none."""
    return default if given is None else given


def criteria_list(text: str | None) -> list[str] | None:
    """``?criteria=a, b`` as the CLI's ``--criteria`` list (``None`` when not given)."""
    return [c.strip() for c in text.split(",") if c.strip()] if text else None


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


class DeskState(DeskReads, Protocol):
    """What the desk's own route modules read of the desk beyond :class:`DeskReads`: its head,
    keys, sessions and live streams (:class:`goledger.web.app.Desk`)."""

    keys: DeskKeys
    sessions: Sessions
    live: HeadWatcher
    lifetime: float

    def head(self) -> int: ...


class DeskPages(Pages, Protocol):
    """The pages object as the desk's own route modules use it (``public_pages``, ``print_pages``,
    ``api_routes``, ``desk_pages``): :class:`Pages` and the writing helpers."""

    @property
    def desk(self) -> DeskState: ...

    def is_director(self, request: Request) -> bool: ...

    def refusal(self, request: Request, message: str, status: int = 400) -> Response: ...

    def done(self, request: Request, back: str, message: str) -> Response: ...

    def no_ledger(self, request: Request) -> Response | None: ...

    async def checked_form(self, request: Request, *, director: bool = True) -> Any: ...

    def actor(self, request: Request) -> str: ...

    async def work(self, fn: Callable[..., Done], *args: Any) -> Done: ...
