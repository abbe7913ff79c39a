"""The tournament desk: a Starlette application over one ledger file (issue 17).

Every page that writes posts a form to ``POST /desk/do/ACTION`` (:mod:`goledger.web.actions`),
which calls the same library function as the CLI with the head the form was rendered against
as ``expected_head``. Reads call the read views (:mod:`goledger.replay.views`,
:mod:`goledger.audit.queries`, :mod:`goledger.render.audit_report`). Nothing writes on GET.

Status codes: 400 a refused action (the library's one sentence), 401 no director token,
403 a bad CSRF token, 409 a stale head (with what was recorded since, and a one-click retry
when the events since do not touch what the form touches), 413 an oversized upload.

``GET /api/standings`` and ``GET /api/pairings`` are public reads; ``POST /api/results``
takes ``{"round", "table", "result", "expected_head"}`` (optionally ``"by_default"``) with
``Authorization: Bearer TOKEN``, and ``POST /api/pair-round`` ``{"round", "expected_head"}``
(:mod:`goledger.web.api_pairing`). Their JSON is the text the CLI's ``--json`` prints
(:func:`goledger.render.json_text.json_text`).
"""

from __future__ import annotations

import asyncio
import functools
import os
import secrets
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from goledger.errors import CommandRejected, GoledgerError
from goledger.formats.registry import FORMATS
from goledger.render.html import gettext, make_environment
from goledger.replay.fold.state import TournamentState
from goledger.web import api_pairing, isolate, pairing_page, players_view
from goledger.web.actions import ACTIONS
from goledger.web.guard import GuardLimits, query_int, query_seconds
from goledger.web.live import HeadWatcher
from goledger.web.routing import Handler, bearer_token, json_response
from goledger.web.security import DeskKeys, Flash, Sessions
from goledger.web.teams import team_routes

__all__ = ["DEFAULT_MAX_UPLOAD", "Desk", "create_app"]

HERE = Path(__file__).resolve().parent
DEFAULT_MAX_UPLOAD = 32 * 1024 * 1024
"""The largest request body the desk reads (the OpenGotha reader's own limit); each format's
hardened reader applies its own limit after that."""

SESSION_COOKIE = "goledger_session"
DESK_COOKIE = "goledger_desk"
REPORT_CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; "
              "base-uri 'none'; form-action 'none'")
"""The audit report's policy: its own inline styles and images, nothing else (no script at all)."""
PUBLIC_PAGES = 256
"""Public pages kept rendered (per path and query) until the head moves."""
WATCHED_PAGES = 8
"""Public pages rendered again right after a write at the desk (the most recently asked for)."""
WATCHED_SECONDS = 120.0
"""A public page not asked for in this long is no longer rendered ahead."""
PRINT_CSP = ("default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src data:; "
             "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
"""A printout's policy: the renderer's own inline styles (the same file the CLI writes), the
desk's script for the print button, nothing else."""
PRINT_BUTTON = (b'<p class="noprint"><button type="button" data-print>%s</button></p>'
                b'<script src="/static/desk.js" defer></script>\n')
"""What the desk adds after ``<body>`` of a printout (the CLI's file has no button)."""
IMPORT_FORMATS = tuple(FORMATS)
"""The formats the desk imports and exports (:data:`goledger.formats.registry.FORMATS`)."""


class Desk:
    """The desk's configuration: the ledger, the keys, and the server-sent events' pace
    (``poll`` seconds between head checks, ``lifetime`` seconds before a stream ends and the
    browser reconnects)."""

    def __init__(self, db: Path, keys: DeskKeys, max_upload: int, poll: float, lifetime: float,
                 work_timeout: float = 120.0) -> None:
        self.db = db
        self.keys = keys
        self.max_upload = max_upload
        self.poll = poll
        self.lifetime = lifetime
        self.sessions = Sessions(keys)
        self.flash = Flash()
        self.workers = isolate.WorkerPool(work_timeout)
        self.live = HeadWatcher(db, poll)
        """The one watcher of the ledger's head (:mod:`goledger.web.live`): every live stream
        waits on it; the desk's own writes wake it at once."""
        self._name: tuple[int, str] = (-1, "")
        self._state: TournamentState | None = None

    def is_director(self, headers: Any, path: str) -> bool:
        """From a request's headers alone: a director session cookie (not for ``/api/``,
        which carries no CSRF token) or the bearer token."""
        from starlette.requests import cookie_parser

        raw = headers.get(b"authorization", b"").decode("latin-1")
        scheme, _, value = raw.partition(" ")
        if scheme.lower() == "bearer" and self.keys.token_ok(value.strip()):
            return True
        if path.startswith("/api/"):
            return False
        session = cookie_parser(headers.get(b"cookie", b"").decode("latin-1")).get(SESSION_COOKIE)
        return self.sessions.is_director(session)

    def head(self) -> int:
        """The ledger's last sequence number (0 when the file does not exist yet)."""
        from goledger.ledger.store import Ledger

        if not self.db.exists():
            return 0
        with Ledger.open(self.db) as ledger:
            return ledger.head().seq

    def name(self) -> str:
        """The tournament's name (``""`` before there is a ledger), read again only when the
        head moves."""
        head = self.head()
        if self._name[0] != head:
            name = ""
            if head:
                try:
                    settings = self.state().settings
                    name = settings.name if settings is not None else ""
                except GoledgerError:
                    name = ""
            self._name = (head, name)
        return self._name[1]

    def state(self, as_of: int | None = None) -> TournamentState:
        """The tournament state at ``as_of`` (default: the head). The state at the head is kept
        until the head moves (pages only read it), so a hall of phones folds it once."""
        from goledger.replay.views import state_as_of

        if as_of is not None:
            return state_as_of(self.db, as_of)
        cached = self._state
        if cached is not None and cached.seq == self.head():
            return cached
        state = state_as_of(self.db, None)
        self._state = state
        return state


class Refusal(GoledgerError):
    """A refusal of the desk itself (not of the library), with its HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class NeedsDirector(Exception):
    """Raised by a handler that finds no director on the request: answered with the login form."""


def create_app(db: str | os.PathLike[str], token: str, *, max_upload: int = DEFAULT_MAX_UPLOAD,
               secret: bytes | None = None, poll: float = 0.05, lifetime: float = 300.0,
               work_timeout: float = 120.0, limits: GuardLimits | None = None) -> Any:
    """The desk's ASGI application over ledger ``db`` with director ``token``, behind
    :class:`goledger.web.guard.DeskGuard` (``limits``; its upload limit is ``max_upload``).
    Writes run in worker processes stopped after ``work_timeout`` seconds
    (:mod:`goledger.web.isolate`). ``poll`` is how often the one head watcher reads the
    ledger's head for writes made elsewhere (the command line); the desk's own writes wake it
    at once."""
    from dataclasses import replace

    from goledger.web.guard import DeskGuard

    desk = Desk(Path(db), DeskKeys(token=token, secret=secret or secrets.token_bytes(32)), max_upload, poll,
                lifetime, work_timeout)
    templates = Jinja2Templates(env=make_environment(HERE / "templates"))
    templates.env.globals["EXPORTS"] = FORMATS
    templates.env.globals["IMPORT_FORMATS"] = IMPORT_FORMATS
    from goledger.ledger.values import format_points

    templates.env.globals["fmt"] = format_points
    pages = _Pages(desk, templates)
    routes = [*_public_routes(pages), *_print_routes(pages), *_api_routes(pages), *_desk_routes(pages),
              Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")]
    app = Starlette(routes=routes, exception_handlers={GoledgerError: pages.refused, NeedsDirector: pages.refused})
    app.state.desk = desk
    from goledger.web.language import LanguageMiddleware

    return DeskGuard(LanguageMiddleware(app, desk.db), desk.is_director,
                     replace(limits or GuardLimits(), upload=max_upload))


def _public_routes(pages: _Pages) -> list[BaseRoute]:
    """The players' view: no token (``/``, standings, a player, find my table, teams, the live
    stream; the teams module's one desk page is behind :meth:`_Pages.director_only` itself)."""
    return [
        Route("/", pages.players_view),
        Route("/standings", pages.public_standings),
        Route("/player/{pid}", pages.public_player),
        Route("/events/head", pages.head_events),
        *players_view.routes(pages),  # /find, /api/find (issue 32)
        *team_routes(pages),
        Route("/login", pages.login_form),
        Route("/login", pages.login, methods=["POST"]),
        Route("/logout", pages.logout, methods=["POST"]),
    ]


def _print_routes(pages: _Pages) -> list[BaseRoute]:
    """The printouts: the CLI's HTML with a print button (public reads)."""
    return [
        Route("/print/pairings/{round:int}", pages.print_pairings),
        Route("/print/slips/{round:int}", pages.print_slips),
        Route("/print/players", pages.print_players),
        Route("/print/wall", pages.print_wall),
    ]


def _api_routes(pages: _Pages) -> list[BaseRoute]:
    """The JSON API: reads for anyone, writes with ``Authorization: Bearer TOKEN``."""
    return [
        Route("/api/head", pages.api_head),
        Route("/api/standings", pages.api_standings),
        Route("/api/pairings", pages.api_pairings),
        Route("/api/results", pages.api_results, methods=["POST"]),
        *api_pairing.routes(pages.desk),  # POST /api/pair-round
    ]


def _desk_routes(pages: _Pages) -> list[BaseRoute]:
    """The director's pages (each behind :meth:`_Pages.director_only`; its forms' posts behind
    DeskGuard and their CSRF token)."""
    from goledger.web.hand_edits import routes as hand_edit_routes
    from goledger.web.ratings import ratings_routes

    director = pages.director_only
    return [
        Route("/desk", director(pages.overview)),
        Route("/desk/new", director(pages.new_form)),
        Route("/desk/new", pages.new, methods=["POST"]),
        Route("/desk/import", pages.import_upload, methods=["POST"]),
        Route("/desk/players", director(pages.players)),
        Route("/desk/players/upload", pages.players_upload, methods=["POST"]),
        Route("/desk/round/{round:int}", director(pages.round_page)),
        Route("/desk/round/{round:int}/results", director(pages.results_page)),
        Route("/desk/standings", director(pages.standings)),
        Route("/desk/explain", director(pages.explain)),
        Route("/desk/audit", director(pages.audit)),
        Route("/desk/settings", director(pages.settings)),
        Route("/desk/files", director(pages.files)),
        Route("/desk/export/{fmt}", director(pages.export)),
        Route("/desk/report", director(pages.report)),
        Route("/desk/verify", director(pages.verify)),
        Route("/desk/log", director(pages.log)),
        Route("/desk/do/{action}", pages.do, methods=["POST"]),
        *pairing_page.routes(pages),  # the pairing report (issue 32)
        *hand_edit_routes(pages),
        *ratings_routes(pages),  # the rating-list search (issue 34: its API route too, for the director)
    ]


def _int_param(request: Request, name: str) -> int | None:
    return query_int(request.query_params, name)


def upload_name(filename: str | None, default: str) -> str:
    r"""The uploaded file's own name for the temporary copy the importer reads: its last
    part; ``.``, ``..``, a name with control characters or one over 200 characters is
    refused in one sentence (``default`` when the browser sent none).

    >>> upload_name("C:\\cups\\cup.xml", "upload"), upload_name("", "list.txt")
    ('cup.xml', 'list.txt')
    >>> upload_name("..", "upload")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    goledger.errors.CommandRejected: the uploaded file's name '..' is not a file name; rename the file and ...
    """
    name = (filename or "").replace("\\", "/").rsplit("/", 1)[-1].strip()
    if not filename:
        return default
    if name in ("", ".", "..") or len(name) > 200 or any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise CommandRejected(f"the uploaded file's name {filename[:60]!r} is not a file name; rename the file and "
                              "upload it again")
    return name


def _round_or(given: int | None, default: int) -> int:
    return default if given is None else given


def _criteria(text: str | None) -> list[str] | None:
    return [c.strip() for c in text.split(",") if c.strip()] if text else None


class _Pages:
    """The request handlers (one method per route)."""

    def __init__(self, desk: Desk, templates: Jinja2Templates) -> None:
        self.desk = desk
        self.templates = templates
        self.public_pages: dict[str, tuple[int, bytes]] = {}
        """Public page → (the head it was rendered at, its HTML)."""
        self.inflight: dict[str, tuple[int, asyncio.Future[bytes | None]]] = {}
        """Public page → (the head it is being rendered at, its rendering in flight)."""
        self.tasks: set[asyncio.Task[None]] = set()
        self.watched: dict[str, tuple[float, str, Callable[[], dict[str, Any]], Request]] = {}
        """Public page → (when it was last asked for, template, builder, request): what to prerender."""

    # ------------------------------------------------------------------ plumbing

    def _session(self, request: Request) -> tuple[str, bool]:
        """The browser's session id and whether it is new: an id this desk did not issue (made
        up by the client, or from before a restart) is replaced by a new anonymous one."""
        current = request.cookies.get(SESSION_COOKIE)
        if self.desk.sessions.valid(current):
            return str(current), False
        return self.desk.sessions.issue(), True

    def is_director(self, request: Request) -> bool:
        keys = self.desk.keys
        return (self.desk.sessions.is_director(request.cookies.get(SESSION_COOKIE))
                or keys.token_ok(bearer_token(request)))

    def say(self, request: Request, message: str) -> None:
        """Keep ``message`` for this browser's next page (its status line)."""
        session = request.cookies.get(SESSION_COOKIE)
        if message and self.desk.sessions.valid(session):
            self.desk.flash.put(str(session), message)

    def render(self, request: Request, name: str, status: int = 200, **context: Any) -> Response:
        session, fresh = self._session(request)
        if "head" not in context:
            context["head"] = self.desk.head()
        director = self.is_director(request)
        message = context.get("message") or (self.desk.flash.pop(session) if director and not fresh else "")
        context.update(csrf=self.desk.keys.csrf_for(session), director=director, message=message,
                       refused=status >= 400,
                       db_name=self.desk.db.name, tournament_name=self.desk.name())
        response = self.templates.TemplateResponse(request, name, context, status_code=status)
        if fresh:
            response.set_cookie(SESSION_COOKIE, session, httponly=True, samesite="strict")
        return response

    def done(self, request: Request, back: str, message: str) -> Response:
        """After a write: back to ``back`` (a path on this desk), ``message`` on its status line."""
        if not back.startswith("/") or back.startswith("//"):
            back = "/desk"
        self.say(request, message)
        return RedirectResponse(back, 303)

    def refusal(self, request: Request, message: str, status: int = 400) -> Response:
        if request.url.path.startswith("/api/"):
            return json_response({"error": message}, status)
        return self.render(request, "refused.html", status, message=message, retry=None)

    def director_only(self, handler: Handler) -> Handler:
        """``handler`` for the director only: anyone else is answered by :meth:`need_director`
        (401 with the login form; JSON under ``/api/``). The one guard of every director page."""

        @functools.wraps(handler)
        async def guarded(request: Request) -> Response:
            if (denied := self.need_director(request)) is not None:
                return denied
            return await handler(request)

        return guarded

    def need_director(self, request: Request) -> Response | None:
        """401 with the login form unless the request carries the director token."""
        if self.is_director(request):
            return None
        if request.url.path.startswith("/api/"):
            return json_response({"error": "this needs the director token (Authorization: Bearer TOKEN)"}, 401)
        return self.render(request, "login.html", 401, next=request.url.path,
                           message=gettext("this page needs the director token"))

    async def read(self, request: Request, fn: Callable[[], Any]) -> Any:
        """Run a library read in the thread pool. A refusal (:class:`GoledgerError`) is raised
        on, to the desk's exception handler (:meth:`refused`): a 400 page, JSON under ``/api/``."""
        return await run_in_threadpool(fn)

    async def refused(self, request: Request, exc: Exception) -> Response:
        """The exception handler of every route: a library refusal as :meth:`refusal` (its
        status: 400, or a :class:`Refusal`'s own), the director's login for :class:`NeedsDirector`."""
        if isinstance(exc, NeedsDirector):
            return self.need_director(request) or self.refusal(request, gettext("this page needs the director token"),
                                                                401)
        assert isinstance(exc, GoledgerError)
        return self.refusal(request, exc.message, exc.status if isinstance(exc, Refusal) else 400)

    def _no_ledger(self, request: Request) -> Response | None:
        if self.desk.db.exists():
            return None
        if self.is_director(request):
            return RedirectResponse("/desk/new", 303)
        return self.render(request, "empty.html", 200)

    # ------------------------------------------------------------------ players' view (public)

    def _public_key(self, request: Request) -> str | None:
        """The cache key of a public page (per language), or ``None`` for a director (whose
        pages differ)."""
        from goledger.i18n import current_language

        if self.is_director(request):
            return None
        return f"{current_language()}:{request.url.path}?{request.url.query}"

    def cached(self, request: Request) -> Response | None:
        """A public page as rendered earlier at the same ledger head: when a result moves the
        head, every phone and projector reloads, and they all get one rendering."""
        key = self._public_key(request)
        hit = self.public_pages.get(key) if key else None
        if hit is None or hit[0] != self.desk.head():
            return None
        return HTMLResponse(hit[1])

    async def public_page(self, request: Request, name: str, build: Callable[[], dict[str, Any]]) -> Response:
        """A players' page: refused without a ledger, served from the per-head cache when it
        holds the page, else built and rendered off the event loop, once per head however many
        phones ask at the same moment (they wait for the one rendering in flight), and rendered
        again as soon as the desk writes (:meth:`prerender`) while the page is being watched."""
        if (missing := self._no_ledger(request)) is not None:
            return missing
        if (cached := self.cached(request)) is not None:
            return cached
        key = self._public_key(request)
        if key is None:  # a director's page is his own
            data = await self.read(request, build)
            return self.public(request, name, data)
        self.watched[key] = (time.monotonic(), name, build, request)
        if len(self.watched) > WATCHED_PAGES:
            del self.watched[min(self.watched, key=lambda k: self.watched[k][0])]
        return HTMLResponse(await self._public_body(key, name, build, request))

    async def _public_body(self, key: str, name: str, build: Callable[[], dict[str, Any]],
                           request: Request) -> bytes:
        loop = asyncio.get_running_loop()
        head = await run_in_threadpool(self.desk.head)
        flight = self.inflight.get(key)
        if flight is not None and flight[0] == head and flight[1].get_loop() is loop:
            done = await asyncio.shield(flight[1])
            if done is not None:
                return done
        future: asyncio.Future[bytes | None] = loop.create_future()
        self.inflight[key] = (head, future)

        def make() -> tuple[int, bytes]:
            data = build()
            return data["head"], self._render_text(request, name, data).encode("utf-8")

        try:
            seen, body = await run_in_threadpool(make)
        except BaseException:
            future.set_result(None)
            raise
        finally:
            if self.inflight.get(key, (0, None))[1] is future:
                del self.inflight[key]
        if len(self.public_pages) >= PUBLIC_PAGES:
            self.public_pages.clear()
        self.public_pages[key] = (seen, body)
        if not future.done():
            future.set_result(body)
        return body

    def _render_text(self, request: Request, name: str, data: dict[str, Any]) -> str:
        """A players' page as text (the same context as :meth:`render` gives an anonymous
        visitor; the page carries no form that needs his session)."""
        context = {"head": self.desk.head(), "csrf": "", "director": False, "message": "",
                   "refused": False, "db_name": self.desk.db.name, "tournament_name": self.desk.name(),
                   "public": True, "request": request, **data}
        return self.templates.get_template(name).render(context)

    async def prerender(self) -> None:
        """After a write at this desk: render the public pages watched in the last
        :data:`WATCHED_SECONDS` again at once, so that the phones and projectors the live stream
        is about to wake find them ready."""
        now = time.monotonic()
        for key, (at, name, build, request) in list(self.watched.items()):
            if now - at > WATCHED_SECONDS:
                self.watched.pop(key, None)
                continue
            from goledger.i18n import use_language

            try:
                with use_language(key.partition(":")[0]):  # the page's own language (its cache key's)
                    await self._public_body(key, name, build, request)
            except Exception:  # a page that cannot be built now is built (and refused) when asked
                continue

    def _prerender_soon(self) -> None:
        if self.watched:
            task = asyncio.get_running_loop().create_task(self.prerender())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    def public(self, request: Request, name: str, data: dict[str, Any]) -> Response:
        response = self.render(request, name, public=True, **data)
        key = self._public_key(request)
        if key is not None and response.status_code == 200:
            if len(self.public_pages) >= PUBLIC_PAGES:
                self.public_pages.clear()
            self.public_pages[key] = (data["head"], bytes(response.body))
        return response

    async def players_view(self, request: Request) -> Response:
        def build() -> dict[str, Any]:
            from goledger.web.data import game_rows, round_progress, shown_round

            state = self.desk.state()
            round_ = _round_or(_int_param(request, "round"), max(shown_round(state), 1))
            if not state.round_visible(round_):  # pairings_visible=manual: not shown yet
                return {"state": state, "round": round_, "games": [], "byes": [], "head": state.seq,
                        "progress": None, "hidden": True}
            byes = [state.players[p] for p in sorted(state.byes.get(round_, {}))]
            return {"state": state, "round": round_, "games": game_rows(state, round_), "byes": byes,
                    "head": state.seq, "progress": round_progress(state, round_)}

        return await self.public_page(request, "public_round.html", build)

    async def public_standings(self, request: Request) -> Response:
        def build() -> dict[str, Any]:
            from goledger.replay.views import standings
            from goledger.web.data import public_standings_rows, round_progress, shown_round

            table = standings(self.desk.db, _int_param(request, "round"))
            state = self.desk.state()
            return {"table": table, "rows": public_standings_rows(table, state), "link": "/player/",
                    "state": state, "head": table.as_of_seq,
                    "progress": round_progress(state, shown_round(state))}

        return await self.public_page(request, "public_standings.html", build)

    async def public_player(self, request: Request) -> Response:
        def build() -> dict[str, Any]:
            from goledger.replay.fold.players import find_player
            from goledger.web.data import player_games

            state = self.desk.state()
            player = find_player(state, request.path_params["pid"])
            from goledger.teams.desk import player_team
            from goledger.web.data import current_round

            games = [g for g in player_games(state, player.id) if state.round_visible(g["round"])]
            return {"state": state, "player": player, "games": games, "head": state.seq,
                    "team": player_team(state, player.id, current_round(state))}

        return await self.public_page(request, "public_player.html", build)

    async def head_events(self, request: Request) -> Response:
        """Server-sent events: ``event: head`` with the ledger's last sequence number, sent at
        once and whenever it changes (:class:`goledger.web.live.HeadWatcher`: one reader of the
        head for all streams, woken at once by the desk's own writes). The stream ends when the
        client goes away or after ``lifetime`` seconds (``?lifetime=S`` shortens it), and the
        browser reconnects; :class:`goledger.web.guard.DeskGuard` caps how many run at once (``503``
        beyond)."""
        desk = self.desk
        try:
            lifetime = query_seconds(request.query_params, "lifetime", desk.lifetime)
        except CommandRejected as exc:
            return self.refusal(request, exc.message)
        return StreamingResponse(desk.live.stream(lifetime, request.is_disconnected), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    # ------------------------------------------------------------------ print pages (public reads)

    async def _round_data(self, request: Request, round_: int) -> Any:
        def build() -> dict[str, Any]:
            from goledger.web.data import game_rows

            state = self.desk.state()
            if not 1 <= round_ <= state.rounds:
                raise CommandRejected(f"round {round_} is outside 1..{state.rounds} of this tournament")
            byes = [state.players[p] for p in sorted(state.byes.get(round_, {}))]
            return {"state": state, "round": round_, "games": game_rows(state, round_), "byes": byes,
                    "head": state.seq}

        return await self.read(request, build)

    async def printout(self, request: Request, make: Callable[[], bytes]) -> Response:
        """A printout page: the bytes the CLI's ``--format html`` writes for the same view
        (:mod:`goledger.render.printouts` over :mod:`goledger.replay.scoring.printouts`), never a
        second rendering of the same data; the desk adds a print button (:data:`PRINT_BUTTON`)
        and sends it under :data:`PRINT_CSP`."""
        data = await self.read(request, make)
        button = PRINT_BUTTON % gettext("Print").encode()
        return HTMLResponse(data.replace(b"<body>\n", b"<body>\n" + button, 1),
                            headers={"Content-Security-Policy": PRINT_CSP})

    async def print_pairings(self, request: Request) -> Response:
        """``goledger pairings --round R --format html`` (``?by=name``: ``--by name``)."""
        from goledger.render.printouts import pairing_by_name_sheet, pairing_sheet, render
        from goledger.replay.views import pairings

        round_ = request.path_params["round"]
        by_name = request.query_params.get("by") == "name"
        return await self.printout(request, lambda: render(
            (pairing_by_name_sheet if by_name else pairing_sheet)(pairings(self.desk.db, round_)), "html"))

    async def print_slips(self, request: Request) -> Response:
        """``goledger slips --round R [--per-page 8]``."""
        from goledger.render.printouts import render_slips
        from goledger.replay.views import pairings

        round_ = request.path_params["round"]
        per_page = 8 if request.query_params.get("per_page") == "8" else 4
        return await self.printout(request, lambda: render_slips(pairings(self.desk.db, round_), per_page))

    async def print_players(self, request: Request) -> Response:
        """``goledger players --format html``."""
        from goledger.render.printouts import player_sheet, render
        from goledger.replay.views import players

        return await self.printout(request, lambda: render(player_sheet(players(self.desk.db)), "html"))

    async def print_wall(self, request: Request) -> Response:
        """``goledger wall-list [--round R] --format html``: standings with country, club,
        status and one cell per round, in the CLI's notation and with its legend."""
        from goledger.render.printouts import render, wall_sheet
        from goledger.replay.views import wall_list

        return await self.printout(request, lambda: render(wall_sheet(wall_list(
            self.desk.db, _int_param(request, "round"))), "html"))

    # ------------------------------------------------------------------ JSON API

    async def api_head(self, request: Request) -> Response:
        return json_response({"seq": await run_in_threadpool(self.desk.head)})

    async def api_standings(self, request: Request) -> Response:
        """Exactly ``goledger standings [--round R] [--as-of S] [--policy P] [--criteria C] --json``."""
        from goledger.replay.views import standings

        def build() -> Any:
            round_, as_of = _int_param(request, "round"), _int_param(request, "as_of")
            policy = request.query_params.get("policy") or None
            criteria = _criteria(request.query_params.get("criteria"))
            if as_of is not None and not director:  # a cancelled registration stays cancelled for the public
                from goledger.replay.scoring.standings import standings as compute_standings
                from goledger.web.data import without_unregistered

                state = without_unregistered(self.desk.state(as_of), self.desk.state())
                return compute_standings(state, round_, policy, criteria).to_dict()
            return standings(self.desk.db, round_, as_of, policy, criteria).to_dict()

        director = self.is_director(request)

        data = await self.read(request, build)
        return json_response(data)

    async def api_pairings(self, request: Request) -> Response:
        """The recorded pairings of ``?round=R`` (default: the current round), in the shape of
        ``pair-round R --dry-run --json`` (:func:`goledger.web.data.pairings_dict`)."""
        def build() -> Any:
            from goledger.web.data import current_round, pairings_dict

            state = self.desk.state(_int_param(request, "as_of"))
            round_ = _round_or(_int_param(request, "round"), current_round(state))
            if not 1 <= round_ <= state.rounds:
                raise CommandRejected(f"round {round_} is outside 1..{state.rounds} of this tournament")
            if not state.round_visible(round_) and not director:
                raise CommandRejected(f"round {round_} is not shown to the players yet")
            return pairings_dict(state, round_)

        director = self.is_director(request)

        data = await self.read(request, build)
        return json_response(data)

    async def api_results(self, request: Request) -> Response:
        """``goledger result --round R --table T RESULT --expected-head H --json``. Only the
        ``Authorization: Bearer`` header counts here, not the director cookie: the API carries
        no CSRF token, so a browser's cookie must not be able to write through it."""
        if not self.desk.keys.token_ok(bearer_token(request)):
            return json_response({"error": "this needs the director token (Authorization: Bearer TOKEN)"}, 401)
        import msgspec

        try:
            body = msgspec.json.decode(await request.body())
            if not isinstance(body, dict):
                raise CommandRejected("send a JSON object: {\"round\", \"table\", \"result\", \"expected_head\"}")
            missing = [k for k in ("round", "table", "result") if k not in body]
            if missing:
                raise CommandRejected(f"the result needs {', '.join(missing)}")
            round_, table, head = body["round"], body["table"], body.get("expected_head")
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in (round_, table)) or not (
                    head is None or (isinstance(head, int) and not isinstance(head, bool))):
                raise CommandRejected("round, table and expected_head are whole numbers")
            if not isinstance(body["result"], str):
                raise CommandRejected("result is one of white, black, jigo, both-lose, both-win")
        except msgspec.DecodeError:
            return json_response({"error": "the body is not JSON"}, 400)
        except RecursionError:
            return json_response({"error": "the body nests deeper than a result needs; send one flat JSON object"}, 400)
        except CommandRejected as exc:
            return json_response({"error": exc.message}, 400)
        done = await self.work(isolate.api_result, self.desk.db, round_, table, body["result"],
                               bool(body.get("by_default", False)), str(body.get("actor") or "api"),
                               str(body.get("reason") or ""), head, bool(body.get("retry", False)))
        if done.status == 409:
            if "conflict" in done.extra:
                return json_response({"error": done.message, "code": "conflict", "head": done.head}, 409)
            return json_response({"error": done.message, "head": done.head}, 409)
        if done.status != 200:
            return json_response({"error": done.message}, done.status)
        return json_response(done.data)

    async def work(self, fn: Callable[..., isolate.Done], *args: Any) -> isolate.Done:
        """``fn(*args)`` in a worker process (:mod:`goledger.web.isolate`), awaited from a thread,
        in the request's language. After a write, the head watcher is woken at once and the
        watched public pages are rendered again (:meth:`prerender`)."""
        from goledger.i18n import current_language

        done = await run_in_threadpool(self.desk.workers.run, fn, *args, language=current_language())
        if done.status == 200:
            self.desk.live.written()
            self._prerender_soon()
        return done

    # ------------------------------------------------------------------ login

    async def login_form(self, request: Request) -> Response:
        return self.render(request, "login.html", next=request.query_params.get("next", "/desk"))

    async def _checked_form(self, request: Request, *, director: bool = True) -> Any:
        """The posted form, or the refusal: 401 without the token, 403 with a bad CSRF token."""
        form = await request.form(max_part_size=self.desk.max_upload)
        if not self.desk.keys.csrf_ok(request.cookies.get(SESSION_COOKIE), str(form.get("csrf", ""))):
            raise Refusal("the form's CSRF token does not match this browser's session; "
                          "reload the page and submit it again", 403)
        if director and not self.is_director(request):
            raise NeedsDirector
        return form

    async def login(self, request: Request) -> Response:
        form = await self._checked_form(request, director=False)
        if not self.desk.keys.token_ok(str(form.get("token", ""))):
            return self.render(request, "login.html", 401, next=str(form.get("next", "/desk")),
                               message=gettext("that is not the director token (it was printed when the desk started)"))
        target = str(form.get("next", "/desk"))
        response = RedirectResponse(target if target.startswith("/") and not target.startswith("//") else "/desk",
                                    303)
        self.desk.sessions.logout(request.cookies.get(SESSION_COOKIE))
        response.set_cookie(SESSION_COOKIE, self.desk.sessions.login(), httponly=True, samesite="strict")
        desk_name = str(form.get("desk", "")).strip()[:40]
        if desk_name:
            response.set_cookie(DESK_COOKIE, desk_name, httponly=True, samesite="strict")
        return response

    async def logout(self, request: Request) -> Response:
        await self._checked_form(request, director=False)  # its CSRF token
        response = RedirectResponse("/", 303)
        self.desk.sessions.logout(request.cookies.get(SESSION_COOKIE))
        response.set_cookie(SESSION_COOKIE, self.desk.sessions.issue(), httponly=True, samesite="strict")
        return response

    # ------------------------------------------------------------------ director pages

    async def overview(self, request: Request) -> Response:
        if (missing := self._no_ledger(request)) is not None:
            return missing
        state = await self.read(request, self.desk.state)
        return self.render(request, "desk.html", state=state, head=state.seq)

    async def new_form(self, request: Request) -> Response:
        if self.desk.db.exists():
            return RedirectResponse("/desk", 303)
        return self.render(request, "new.html")

    async def new(self, request: Request) -> Response:
        form = await self._checked_form(request)
        rounds = str(form.get("rounds", "")).strip()
        if not rounds.isdigit() or len(rounds) > 2:
            return self.refusal(request, f"rounds {rounds[:20]!r} is not a whole number of rounds (1 to 99)")
        text = {k: str(form.get(k, "")).strip() for k in ("name", "system", "bar", "floor", "komi", "language")}
        done = await self.work(isolate.new_tournament, self.desk.db, text, int(rounds), self._actor(request))
        if done.status != 200:
            return self.refusal(request, done.message, done.status)
        return self.done(request, "/desk/players", done.message)

    async def import_upload(self, request: Request) -> Response:
        """Create the desk's ledger from an uploaded OpenGotha, MacMahon, EGD or TRF file,
        read by that format's own ``import_*`` (its size limit and hardened reader)."""
        form = await self._checked_form(request)
        fmt = str(form.get("format", ""))
        upload = form.get("file")
        if fmt not in IMPORT_FORMATS:
            return self.refusal(request, f"{fmt!r} is not a format the desk imports: use one of "
                                f"{', '.join(IMPORT_FORMATS)}")
        if upload is None or isinstance(upload, str) or not upload.filename:
            return self.refusal(request, "choose the file to import")
        try:
            filename = upload_name(upload.filename, "upload")
        except CommandRejected as exc:
            return self.refusal(request, exc.message)
        data = await upload.read()
        with tempfile.TemporaryDirectory(prefix="goledger-desk-") as folder:
            source = Path(folder) / filename
            await run_in_threadpool(source.write_bytes, data)
            done = await self.work(isolate.import_file, fmt, source, self.desk.db, self._actor(request))
        if done.status != 200:
            return self.refusal(request, done.message, done.status)
        return self.done(request, "/desk", done.message)

    async def players_upload(self, request: Request) -> Response:
        """Register the players of an uploaded MacMahon participant list
        (:func:`~goledger.formats.macmahon.players.import_macmahon_players`)."""
        form = await self._checked_form(request)
        upload = form.get("file")
        if upload is None or isinstance(upload, str) or not upload.filename:
            return self.refusal(request, "choose the participant list to upload")
        try:
            filename = upload_name(upload.filename, "list.txt")
        except CommandRejected as exc:
            return self.refusal(request, exc.message)
        data = await upload.read()
        expected = str(form.get("expected_head", "")).strip()
        with tempfile.TemporaryDirectory(prefix="goledger-desk-") as folder:
            source = Path(folder) / filename
            await run_in_threadpool(source.write_bytes, data)
            done = await self.work(isolate.players_file, source, self.desk.db, self._actor(request),
                                   int(expected) if expected.isdigit() and len(expected) <= 18 else None)
        if done.status != 200:
            return self.refusal(request, done.message, done.status)
        return self.done(request, "/desk/players", f"registered {done.data} player(s)")

    async def players(self, request: Request) -> Response:

        def build() -> dict[str, Any]:
            from goledger.web.data import current_round, player_rows

            state = self.desk.state()
            round_ = _round_or(_int_param(request, "round"), current_round(state))
            query = request.query_params.get("q", "")
            return {"state": state, "rows": player_rows(state, query, round_), "q": query, "round": round_,
                    "head": state.seq}

        data = await self.read(request, build)
        return self.render(request, "players.html", **data)

    async def round_page(self, request: Request) -> Response:
        """A round: its games and bye, who is still unpaired, manual pairing and swaps (unpair
        + pair), the bye, the pairing engine's preview (a dry run) and its explanation."""
        round_ = request.path_params["round"]

        def build() -> dict[str, Any]:
            from goledger.commands import pairing
            from goledger.web.data import game_rows, unassigned

            state = self.desk.state()
            if not 1 <= round_ <= state.rounds:
                raise CommandRejected(f"round {round_} is outside 1..{state.rounds} of this tournament")
            byes = [state.players[p] for p in sorted(state.byes.get(round_, {}))]
            data: dict[str, Any] = {"state": state, "round": round_, "games": game_rows(state, round_),
                                    "byes": byes, "free": unassigned(state, round_), "head": state.seq,
                                    "preview": None, "why": None}
            if request.query_params.get("preview"):
                data["preview"] = pairing.pair_round(self.desk.db, round_, dry_run=True).to_dict()
            if request.query_params.get("explain") is not None:
                who = request.query_params.get("explain") or None
                data["why"] = pairing.explain_pairing(self.desk.db, round_, who).to_dict()
            return data

        data = await self.read(request, build)
        return self.render(request, "round.html", **data)

    async def results_page(self, request: Request) -> Response:
        """Fast result entry by table from the keyboard: ``12 w`` Enter, ``13 b`` Enter…"""
        data = await self._round_data(request, request.path_params["round"])
        return self.render(request, "results.html", **data)

    async def standings(self, request: Request) -> Response:

        def build() -> dict[str, Any]:
            from goledger.replay.views import standings
            from goledger.web.data import standings_rows

            q = request.query_params
            table = standings(self.desk.db, _int_param(request, "round"), _int_param(request, "as_of"),
                              q.get("policy") or None, _criteria(q.get("criteria")))
            return {"table": table, "rows": standings_rows(table), "q": q, "head": table.as_of_seq,
                    "link": "/desk/explain?round=" + str(table.round) + "&player="}

        data = await self.read(request, build)
        return self.render(request, "standings.html", **data)

    async def explain(self, request: Request) -> Response:

        def build() -> dict[str, Any]:
            from goledger.replay.views import explain

            q = request.query_params
            result = explain(self.desk.db, q.get("player", ""), q.get("criterion") or None,
                             _int_param(request, "round"), _int_param(request, "as_of"), q.get("policy") or None)
            return {"result": result, "data": result.to_dict(), "q": q}

        data = await self.read(request, build)
        return self.render(request, "explain.html", **data)

    async def audit(self, request: Request) -> Response:
        """diff (``?view=diff&from=S``), what-if (``?view=what-if&without=…``) and history
        (``?view=history&player=P``): the audit views, read-only."""
        q = request.query_params
        view = q.get("view", "")

        def build() -> dict[str, Any]:
            from goledger.audit import queries

            result: Any = None
            if view == "diff":
                result = queries.diff(self.desk.db, _int_param(request, "from"), _int_param(request, "to"),
                                      _int_param(request, "round"), q.get("policy") or None, None,
                                      _int_param(request, "published"))
            elif view == "what-if":
                without = _seq_list(q.get("without", ""))
                result = queries.what_if(self.desk.db, without, q.get("policy") or None, None,
                                         _int_param(request, "round"))
            elif view == "history":
                result = queries.history(self.desk.db, q.get("player", ""), _int_param(request, "round"),
                                         q.get("policy") or None)
            elif view:
                raise CommandRejected(f"{view!r} is not an audit view: use diff, what-if or history")
            return {"view": view, "data": result.to_dict() if result is not None else None, "q": q}

        data = await self.read(request, build)
        return self.render(request, "audit.html", **data)

    async def settings(self, request: Request) -> Response:
        import msgspec

        state = await self.read(request, self.desk.state)
        return self.render(request, "settings.html", state=state, head=state.seq,
                           settings=msgspec.to_builtins(state.settings))

    async def files(self, request: Request) -> Response:
        return self.render(request, "files.html")

    async def export(self, request: Request) -> Response:
        """Download the ledger in another program's format (its ``export_*`` function)."""
        fmt = request.path_params["fmt"]
        if fmt not in FORMATS:
            return self.refusal(request, f"{fmt!r} is not a format the desk exports: use one of "
                                f"{', '.join(FORMATS)}", 404)

        def run() -> Any:
            return FORMATS[fmt].write(self.desk.db)

        outcome = await self.read(request, run)
        media, ext = FORMATS[fmt].media_type, FORMATS[fmt].extension
        name = f"{self.desk.db.stem}.{ext}"
        return Response(outcome.data, media_type=media,
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def report(self, request: Request) -> Response:
        """The audit report (:func:`goledger.render.audit_report.report`), as one page."""

        def run() -> bytes:
            from goledger.render.audit_report import report

            with tempfile.TemporaryDirectory(prefix="goledger-desk-") as folder:
                target = Path(folder) / "report.html"
                report(self.desk.db, target, _int_param(request, "top") or 10)
                return target.read_bytes()

        data = await self.read(request, run)
        # the report is one self-contained file: its styles are inline, it has no script
        return HTMLResponse(data, headers={"Content-Security-Policy": REPORT_CSP})

    async def verify(self, request: Request) -> Response:
        from goledger import commands

        report = await self.read(request, lambda: commands.verify(self.desk.db))
        return self.render(request, "verify.html", report=report)

    async def log(self, request: Request) -> Response:
        from goledger import commands

        after = await self.read(request, lambda: _int_param(request, "after") or 0)

        def build() -> list[Any]:
            from goledger.ledger.describe import describe_event, names_from

            state = self.desk.state()
            name_of = names_from(state.players)
            records = commands.log(self.desk.db, after, None, request.query_params.get("type") or None)
            return [(r, describe_event(r.event, name_of)) for r in records[-500:]]

        rows = await self.read(request, build)
        return self.render(request, "log.html", rows=rows, after=after)

    # ------------------------------------------------------------------ writing

    def _actor(self, request: Request) -> str:
        return "desk " + (request.cookies.get(DESK_COOKIE) or "web")

    async def do(self, request: Request) -> Response:
        """``POST /desk/do/ACTION``: the form's action, against the head it was rendered at.

        Success: back to the form's page (``back``) with the command's message, or for
        htmx the page's ``fragment`` re-rendered. A stale head: 409 with the store's message
        and, unless the events since touch what this form touches, a one-click retry
        (``retry=1``: the command re-checks against the new events and appends)."""
        form = await self._checked_form(request)
        name = request.path_params["action"]
        action = ACTIONS.get(name)
        if action is None:
            return self.refusal(request, f"{name!r} is not an action of the desk", 404)
        head_text = str(form.get("expected_head", "")).strip()
        if not head_text.isdigit():
            return self.refusal(request, "the form does not say which ledger head it was rendered against; "
                                "reload the page")
        if len(head_text) > 18:
            return self.refusal(request, "the form's ledger head is not an event number; reload the page")
        expected_head, retry = int(head_text), str(form.get("retry", "")) == "1"
        fields = {k: v for k, v in form.items() if isinstance(v, str)}
        fragment = fields.get("fragment", "")
        retry_fields = None
        done = await self.work(isolate.action, self.desk.db, name, fields, self._actor(request),
                               fields.get("reason", ""), expected_head, retry)
        status, message = done.status, done.message
        conflict = done.extra.get("conflict")
        if status == 409 and done.retry_ok and conflict is None:
            retry_fields = {k: v for k, v in fields.items() if k not in ("csrf", "retry")}
        back = fields.get("back", "/desk")
        if not back.startswith("/") or back.startswith("//"):
            back = "/desk"
        if fragment == "results" and request.headers.get("hx-request"):
            data = await self._round_data(request, int(fields.get("round", "0") or 0))
            return self.render(request, "results_entry.html", status, message=message, ok=status == 200,
                               retry=retry_fields, action=name, conflict=conflict,
                               entry=fields.get("entry", "") if status != 200 else "", **data)
        if status == 200:
            return self.done(request, back, message)
        return self.render(request, "refused.html", status, message=message, retry=retry_fields, action=name,
                           back=back, conflict=conflict)


def _seq_list(text: str) -> list[int]:
    """``"12, 15-17"`` → ``[12, 15, 16, 17]`` (the what-if's ``--without``, its domain and bounds:
    :func:`goledger.audit.queries.parse_without`)."""
    from goledger.audit.queries import parse_without

    return list(parse_without(text))
