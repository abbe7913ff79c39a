"""The desk's rating-list search (issue 34, point 5): search as you type at registration.

* ``GET /desk/ratings/search?q=…`` (htmx, director): the best matches as a list of buttons;
  the registration form's search box asks for it once the director pauses typing
  (``hx-trigger="input changed delay:250ms"``), and a click on a match fills the form
  (``static/ratings.js``);
* ``GET /api/ratings/search?q=…[&limit=N][&country=XX]`` (director): the JSON of
  ``goledger ratings search QUERY --json``;
* ``GET /desk/ratings/refresh`` (director, issue 43): the preview of "refresh ratings of
  registered players" (who changes, old → new; who is left as he is, and why), with the form
  that records it (``POST /desk/do/refresh-ratings``). The list itself is uploaded on the
  players page (``POST /desk/ratings/import``, :func:`goledger.web.isolate.ratings_file`).

The store is the machine's (``$GOLEDGER_RATINGS``, else the user data directory), opened
once and kept: its list's words stay loaded, so a search costs only its own queries
(milliseconds on the whole EGD list). A newer list imported meanwhile is seen at once (the
store reads the current list at every search); a store deleted meanwhile answers "no ratings
store", and one replaced by another file is opened again (its identity is checked at every
search: issue 41, item 6).
"""

from __future__ import annotations

import threading
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from goledger.errors import GoledgerError
from goledger.i18n.messages import say
from goledger.web.routing import json_response

__all__ = ["list_words", "no_list_words", "ratings_routes"]

def no_list_words() -> str:
    """The desk's words for a machine without a rating list (the command line's name its
    store's path and the command that imports one)."""
    from goledger.i18n import gettext

    return gettext("No rating list has been imported on this machine yet: import the EGD list on the players page.")


def list_words() -> str:
    """The machine's EGD list in a few words (``EGD list of 2019-02-22: 45,522 players``, the date
    as the page's language writes it), or
    ``""`` when none was imported (or the store cannot be read)."""
    from goledger.i18n import gettext
    from goledger.i18n.numbers import numeric_date
    from goledger.ratings.store import default_path, list_info

    if not default_path().is_file():
        return ""
    try:
        info = list_info()
    except GoledgerError:
        return ""
    return gettext("%(source)s list of %(date)s: %(players)s players") % {
        "source": info.ref.source.upper(), "date": numeric_date(info.ref.date), "players": info.players}


_MIN_QUERY = 2
"""Fewer letters than this give no suggestions (a single letter matches thousands)."""


class _Searcher:
    """One open store, shared by the desk's threads (searches take turns on its connection)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._store: Any = None
        self._path: Any = None

    def search(self, query: str, limit: int, country: str | None) -> Any:
        """The store's search, with the CLI's bound on the query's length."""
        from goledger.errors import CommandRejected
        from goledger.ratings.store import MAX_QUERY, RatingsStore, default_path

        if len(query) > MAX_QUERY:
            raise CommandRejected(say("the query is %(length)d characters long; at most %(most)d are read",
                                      length=len(query), most=MAX_QUERY))
        with self._lock:
            path = default_path()
            identity = _identity(path)
            if self._store is None or self._path != (path, identity):
                if self._store is not None:
                    self._store.close()
                    self._store = None
                if identity is None:
                    raise CommandRejected(no_list_words())
                self._store, self._path = RatingsStore(path), (path, identity)
            return self._store.search(query, limit, country)


def _identity(path: Any) -> tuple[int, int] | None:
    """The file's identity (``st_dev``, ``st_ino``), ``None`` when it is gone: a store deleted
    or replaced by another file is closed, never searched from what the old file still holds."""
    import os

    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _limit(request: Request) -> int:
    from goledger.web.forms import whole

    return whole(request.query_params.get("limit", "10"), "limit", signed=False, low=1, high=1000)


def _country(request: Request) -> str | None:
    from goledger.errors import CommandRejected

    text = request.query_params.get("country", "").strip().upper()
    if text and not (len(text) == 2 and text.isascii() and text.isalpha()):
        raise CommandRejected(say("country %(country)r must be a two-letter code such as TR", country=text[:20]))
    return text or None


def ratings_routes(pages: Any) -> list[Route]:
    """The routes, over the desk's pages object (its director check, renderer, JSON)."""
    from starlette.concurrency import run_in_threadpool


    searcher = _Searcher()

    async def api_search(request: Request) -> Response:
        """Exactly ``goledger ratings search QUERY [--limit N] [--country XX] --json``."""
        from goledger.ratings.store import search_json

        try:
            query = request.query_params.get("q", "")
            limit, country = _limit(request), _country(request)
            result = await run_in_threadpool(searcher.search, query, limit, country)
        except GoledgerError as exc:
            return json_response({"error": exc.message, "code": exc.code}, 400)
        return json_response(search_json(result))

    async def desk_search(request: Request) -> Response:
        """The matches as the registration form shows them (an htmx fragment)."""
        query = request.query_params.get("q", "")
        matches: list[Any] = []
        listed = None
        error = ""
        if len(query.strip()) >= _MIN_QUERY:
            try:
                result = await run_in_threadpool(searcher.search, query, 8, _country(request))
                matches, listed = result.matches, result.ref
            except GoledgerError as exc:
                error = exc.message
        return pages.templates.TemplateResponse(request, "_ratings_results.html",
                                                {"matches": matches, "list": listed, "error": error, "q": query})

    async def refresh_preview(request: Request) -> Response:
        """What "refresh ratings of registered players" would change, player by player
        (:func:`goledger.commands.refresh_ratings.refresh_plan`), and the form that records it
        against the head the preview was made at."""
        from goledger.commands.refresh_ratings import refresh_plan

        def build() -> dict[str, Any]:
            state = pages.desk.state()
            return {"rows": refresh_plan(state), "head": state.seq, "state": state}

        return pages.render(request, "ratings_refresh.html", **await pages.read(request, build))

    return [Route("/api/ratings/search", pages.director_only(api_search)),
            Route("/desk/ratings/search", pages.director_only(desk_search)),
            Route("/desk/ratings/refresh", pages.director_only(refresh_preview))]
