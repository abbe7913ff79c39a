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

This module is the app factory, the shared state (:class:`Desk`, the pages object) and the
wiring; the handlers are in route modules by area, each a function returning its routes over
the pages object: :mod:`goledger.web.public_pages`, :mod:`goledger.web.print_pages`,
:mod:`goledger.web.api_routes`, :mod:`goledger.web.desk_pages` (and the smaller ones they list).
"""

from __future__ import annotations

import asyncio
import functools
import os
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from goledger.errors import GoledgerError
from goledger.formats.registry import FORMATS
from goledger.i18n.messages import say
from goledger.nogc import nogc
from goledger.render.html import gettext, make_environment
from goledger.replay.fold.state import TournamentState
from goledger.web import isolate
from goledger.web.api_routes import api_routes
from goledger.web.desk_pages import IMPORT_FORMATS, desk_routes
from goledger.web.guard import GuardLimits
from goledger.web.live import HeadMark, HeadWatcher, PublicPage, public_page_of
from goledger.web.page_cache import KeptPage, PageCache, keep_form, served, with_before
from goledger.web.print_pages import print_routes
from goledger.web.public_pages import public_routes
from goledger.web.renders import Renders
from goledger.web.routing import DESK_COOKIE, SESSION_COOKIE, Handler, bearer_token, json_response
from goledger.web.security import DeskKeys, Flash, Sessions

if TYPE_CHECKING:
    from goledger.replay.views import HeadState

__all__ = ["DEFAULT_MAX_UPLOAD", "Desk", "create_app"]

HERE = Path(__file__).resolve().parent
DEFAULT_MAX_UPLOAD = 32 * 1024 * 1024
"""The largest request body the desk reads (the OpenGotha reader's own limit); each format's
hardened reader applies its own limit after that."""

WATCHED_PAGES = 8
"""Public pages rendered again right after a write at the desk (the most recently asked for)."""
WATCHED_SECONDS = 120.0
"""A public page not asked for in this long is no longer rendered ahead."""
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
        self.marks = HeadMark(db)
        self._view: HeadState | None = None

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
        return self.mark()[0]

    def mark(self) -> tuple[int, str]:
        """The ledger's head as (sequence number, hash); ``(0, "")`` when there is no ledger yet.
        Read from SQLite only when the ledger's files changed (:class:`goledger.web.live.HeadMark`)."""
        return self.marks.current()

    def view(self) -> HeadState:
        """The state at the head with its event's hash (:func:`goledger.replay.views.head_state`),
        kept until the head moves: pages only read it, so a hall of phones folds it once, and
        whatever is kept from it is kept under that hash."""
        from goledger.replay.views import head_state

        view = head_state(self.db, self._view)
        self._view = view
        return view

    def hash_of(self, state: TournamentState) -> str | None:
        """The hash of the event ``state`` was folded to when it is the state :meth:`view` kept
        (``None`` for any other: what was built from it is then not kept)."""
        view = self._view
        return view.hash if view is not None and view.state is state else None

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

    def system(self) -> str:
        """The tournament's system (``""`` before there is a ledger), for the navigation's
        bracket and team links."""
        if not self.head():
            return ""
        try:
            settings = self.state().settings
        except GoledgerError:
            return ""
        return settings.system if settings is not None else ""

    def state(self, as_of: int | None = None) -> TournamentState:
        """The tournament state at ``as_of`` (default: the head). The state at the head is kept
        until the head moves (pages only read it), so a hall of phones folds it once."""
        from goledger.replay.views import state_as_of

        if as_of is not None:
            return state_as_of(self.db, as_of)
        return self.view().state


class Refusal(GoledgerError):
    """A refusal of the desk itself (not of the library), with its HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Superseded(Exception):
    """A rendering ahead dropped: the head moved on before it started (:meth:`_Pages.render_ahead`)."""


class NeedsDirector(Exception):
    """Raised by a handler that finds no director on the request: answered with the login form."""


def create_app(db: str | os.PathLike[str], token: str, *, max_upload: int = DEFAULT_MAX_UPLOAD,
               secret: bytes | None = None, poll: float = 0.05, lifetime: float = 300.0,
               work_timeout: float = 120.0, limits: GuardLimits | None = None, public_only: bool = False) -> Any:
    """The desk's ASGI application over ledger ``db`` with director ``token``, behind
    :class:`goledger.web.guard.DeskGuard` (``limits``; its upload limit is ``max_upload``).
    With ``public_only`` it is the players' view alone (``goledger serve --public-port``, a
    process of its own): the public pages, their live stream, the public JSON reads and the
    static files; no director page, no login, nothing that writes.
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
    from goledger.web.desk_words import desk_words

    templates.env.filters["desk_words"] = desk_words
    pages = _Pages(desk, templates)
    from goledger.web.key_pages import key_routes
    from goledger.web.report_pages import report_routes

    routes = [*public_routes(pages), *print_routes(pages), *api_routes(pages), *desk_routes(pages), *key_routes(pages),
              *report_routes(pages),
              Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")]
    if public_only:
        routes = [route for route in routes if _is_public(route)]
    from starlette.middleware import Middleware
    from starlette.middleware.gzip import GZipMiddleware

    # pages kept gzipped (the public ones) pass through as they are; the rest are compressed here
    app = Starlette(routes=routes, exception_handlers={GoledgerError: pages.refused, NeedsDirector: pages.refused},
                    middleware=[Middleware(GZipMiddleware, minimum_size=1024)])
    app.state.desk = desk
    app.state.pages = pages
    from goledger.web.cached_front import CachedFront
    from goledger.web.language import LanguageMiddleware

    front = CachedFront(LanguageMiddleware(app, desk.db), pages.public_pages, desk.mark, desk.is_director,
                        public_only=public_only, moved=pages.head_moved)
    return DeskGuard(front, desk.is_director, replace(limits or GuardLimits(), upload=max_upload))


PUBLIC_ONLY_PATHS = ("/", "/standings", "/bracket", "/player/{pid}", "/events/head", "/find", "/api/find", "/api/head",
                     "/api/standings", "/api/pairings", "/static",
                     # a player's page links his timeline, which links its what-ifs and dispute sheets
                     "/player/{pid}/timeline", "/player/{pid}/what-if/{seq:int}",
                     "/print/dispute-sheet/{pid}/{seq:int}")
"""What the players' view process serves (``goledger serve --public-port``): reads anyone may make."""


def _is_public(route: Any) -> bool:
    """Whether ``route`` belongs to the players' view alone: a public path, read with GET only
    (team pages under ``/teams`` included)."""
    path = getattr(route, "path", "")
    methods = getattr(route, "methods", None) or {"GET"}
    return (path in PUBLIC_ONLY_PATHS or path.startswith("/teams")) and methods <= {"GET", "HEAD"}


class _Pages:
    """The shared state and helpers the route modules are handed (:class:`goledger.web.routing.DeskPages`):
    rendering with the session, the one director guard, the refusal page, the per-head cache of the
    public pages and their prerendering, the posted form's checks and the writes in worker processes.
    The handlers themselves are in ``public_pages``, ``print_pages``, ``api_routes`` and ``desk_pages``."""

    def __init__(self, desk: Desk, templates: Jinja2Templates) -> None:
        self.desk = desk
        self.templates = templates
        self.public_pages = PageCache()
        """Public page → its HTML (also gzipped) and the head (sequence number and hash) it was
        rendered at (:mod:`goledger.web.page_cache`)."""
        self.renders = Renders(self.public_pages)
        """The public pages' renderings in flight, one per page and head (:mod:`goledger.web.renders`)."""
        self.tasks: set[asyncio.Task[None]] = set()
        self.watched: dict[str, tuple[float, str, Callable[[], dict[str, Any]], Request]] = {}
        """Public page → (when it was last asked for, template, builder, request): what to prerender."""
        self.spare_due = False
        """A write is done and its pages are being rendered: then fork the next write's worker."""
        self.listening: set[asyncio.AbstractEventLoop] = set()
        """The event loops the head watcher calls :meth:`prerender_soon` on."""

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
        from goledger.web.system_pages import system_links

        session, fresh = self._session(request)
        if "head" not in context:
            context["head"] = self.desk.head()
        director = self.is_director(request)
        message = context.get("message") or (self.desk.flash.pop(session) if director and not fresh else "")
        context.update(csrf=self.desk.keys.csrf_for(session), director=director, message=message,
                       refused=status >= 400, language_query=request.url.query,
                       db_name=self.desk.db.name, tournament_name=self.desk.name(),
                       system_links=system_links(self.desk.system()))
        response = self.templates.TemplateResponse(request, name, context, status_code=status)
        if b"(z)" in response.body:  # a Hungarian article chosen from what follows (issue 44)
            from goledger.i18n.messages import articles_in_page

            response.body = articles_in_page(bytes(response.body).decode()).encode()
            response.headers["content-length"] = str(len(response.body))
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
        on, to the desk's exception handler (:meth:`refused`): a 400 page, JSON under ``/api/``.
        Its messages are the desk's (:func:`goledger.i18n.messages.at_desk`: they name its
        controls, not the command line's options)."""
        from goledger.i18n.messages import at_desk

        def at_the_desk() -> Any:
            with at_desk():
                return fn()

        return await run_in_threadpool(at_the_desk)

    async def refused(self, request: Request, exc: Exception) -> Response:
        """The exception handler of every route: a library refusal as :meth:`refusal` (its
        status: 400, or a :class:`Refusal`'s own), the director's login for :class:`NeedsDirector`."""
        if isinstance(exc, NeedsDirector):
            return self.need_director(request) or self.refusal(request, gettext("this page needs the director token"),
                                                                401)
        assert isinstance(exc, GoledgerError)
        return self.refusal(request, exc.message, exc.status if isinstance(exc, Refusal) else 400)

    def no_ledger(self, request: Request) -> Response | None:
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
        """A public page as rendered earlier at the same ledger head (the same event, by its
        hash): when a result moves the head, every phone and projector reloads, and they all
        get one rendering."""
        key = self._public_key(request)
        if key is None:
            return None
        seq, head_hash = self.desk.mark()
        hit = self.public_pages.hit(key, seq, head_hash)
        return None if hit is None else self._served(request, hit)

    @staticmethod
    def _served(request: Request, kept: KeptPage) -> Response:
        """A kept page as :func:`goledger.web.page_cache.served` answers it."""
        h = request.headers
        status, headers, body = served(kept, h.get("x-goledger-live") == "1", h.get("if-none-match", ""),
                                       h.get("accept-encoding", ""), h.get("x-goledger-shown", ""))
        media = headers.pop("Content-Type", None)
        return Response(body, status, headers, media_type=media)

    async def public_page(self, request: Request, name: str, build: Callable[[], dict[str, Any]]) -> Response:
        """A players' page: refused without a ledger, served from the per-head cache when it
        holds the page, else built and rendered off the event loop, once per head however many
        phones ask at the same moment (they wait for the one rendering in flight), and rendered
        again as soon as the head watcher sees the head move (:meth:`prerender`) while the page
        is being watched."""
        if (missing := self.no_ledger(request)) is not None:
            return missing
        if (cached := self.cached(request)) is not None:
            return cached
        key = self._public_key(request)
        if key is None:  # a director's page is his own
            data = await self.read(request, build)
            return self.render(request, name, public=True, **data)
        self._listen()
        self.watched[key] = (time.monotonic(), name, build, request)
        if len(self.watched) > WATCHED_PAGES:
            del self.watched[min(self.watched, key=self._asked_at)]
        return self._served(request, await self._public_body(key, name, build, request))

    async def _public_body(self, key: str, name: str, build: Callable[[], dict[str, Any]],
                           request: Request) -> KeptPage:
        """The page ``key`` at the head: kept already (rendered ahead, or by a request just
        before this one), or the rendering of it in flight at that head, or rendered now
        (:mod:`goledger.web.renders`: once per page and head)."""
        seq, head_hash = await run_in_threadpool(self.desk.mark)
        kept = self.public_pages.hit(key, seq, head_hash)
        if kept is not None:
            return kept
        flight = self.renders.running(key, seq)
        if flight is not None:
            done = await asyncio.shield(flight)
            if done is not None:
                return done
        made = await self.renders.start(key, seq, self._maker(key, name, build, request.url.query))
        return self.public_pages.hit(key, made.page.seq, made.page.hash) or made  # as kept (with the head before)

    def _maker(self, key: str, name: str, build: Callable[[], dict[str, Any]], query: str,
               ahead: bool = False) -> Callable[[], KeptPage]:
        """What renders page ``key`` (template ``name``, its data from ``build()``) in a thread:
        kept only under the hash of the event its state was folded to (:meth:`Desk.hash_of`),
        compressed there, off the event loop; the time it took (and whether it was rendered
        ``ahead`` of any request) goes with it as ``Server-Timing``."""

        @nogc
        def make() -> KeptPage:
            started = time.perf_counter()
            old = self.public_pages.get(key)  # the page at the head before: what open pages show
            data = build()
            page = public_page_of(data["head"], self.desk.hash_of(data["state"]) or "",
                                  self._render_text(query, name, data))
            kept = with_before(keep_form(key, page), old if isinstance(old, PublicPage) else None)
            took = (time.perf_counter() - started) * 1000
            return kept._replace(timing=f"render;dur={took:.1f}" + (';desc="ahead"' if ahead else ""))

        return make

    def _render_text(self, query: str, name: str, data: dict[str, Any]) -> str:
        """A players' page as text (the same context as :meth:`render` gives an anonymous
        visitor; the page carries no form that needs his session). Its head and the tournament's
        name are the state's own: the page claims the head it was computed at. It is kept for
        every visitor, so nothing of the request but its cache key's ``query`` goes in: no
        header (``Host`` named the language links' site, issue 41)."""
        from goledger.web.system_pages import system_links

        state = data.get("state")
        settings = state.settings if isinstance(state, TournamentState) else None
        context = {"csrf": "", "director": False, "message": "", "refused": False, "db_name": self.desk.db.name,
                   "tournament_name": settings.name if settings is not None else self.desk.name(),
                   "public": True, "language_query": query,
                   "system_links": system_links(settings.system if settings is not None else ""), **data}
        from goledger.i18n.messages import articles_in_page

        return articles_in_page(self.templates.get_template(name).render(context))

    def _listen(self) -> None:
        """Have the head watcher call :meth:`prerender_soon` on this event loop when the head moves."""
        loop = asyncio.get_running_loop()
        if loop not in self.listening:
            self.listening.add(loop)
            self.desk.live.listen(loop, self.prerender_soon)

    def render_ahead(self) -> list[asyncio.Future[KeptPage]]:
        """Start rendering, at the head the desk knows now, the public pages watched in the
        last :data:`WATCHED_SECONDS` (the most recently asked for first) that are neither kept
        nor being rendered at it, on the rendering-ahead thread (:mod:`goledger.web.renders`):
        the phones and projectors the live stream is waking, and every phone's next request,
        find them ready or wait for that one rendering. Called on the event loop the moment a
        new head is seen (by the players' port's fast path, or the head watcher)."""
        from goledger.i18n import use_language

        seq, head_hash = self.desk.mark()
        now = time.monotonic()
        started = []
        for key in sorted(self.watched, key=self._asked_at, reverse=True):
            if now - self._asked_at(key) > WATCHED_SECONDS:
                self.watched.pop(key, None)
                continue
            kept = self.public_pages.get(key)  # not a use: a page no one reads stops being rendered ahead
            if (isinstance(kept, PublicPage) and (kept.seq, kept.hash) == (seq, head_hash)) or \
                    self.renders.running(key, seq) is not None:
                continue
            _, name, build, request = self.watched[key]
            make = self._maker(key, name, build, request.url.query, ahead=True)
            with use_language(key.partition(":")[0]):  # the page's own language (its cache key's)
                started.append(self.renders.start(key, seq, self._unless_moved(seq, make), ahead=True))
        return started

    def _asked_at(self, key: str) -> float:
        """When watched page ``key`` was last asked for: rendered for a request, or served kept
        (a page a hall of phones reads from the cache is watched however long ago it last changed)."""
        return max(self.watched[key][0], self.public_pages.last_used(key))

    def _unless_moved(self, seq: int, make: Callable[[], KeptPage]) -> Callable[[], KeptPage]:
        """``make`` for a rendering ahead at head ``seq``, dropped when its thread comes to it
        after the head has moved on (the next head's renderings are queued behind it: writes in
        quick succession render the last head once, not every head in turn)."""

        def made() -> KeptPage:
            if self.desk.mark()[0] != seq:
                raise Superseded
            return make()

        return made

    async def _then_spare(self, started: list[asyncio.Future[KeptPage]]) -> None:
        """Once the pages rendered ahead are done (a page that cannot be built now is built, and
        refused, when asked), fork the next write's worker if a write is waiting for that (on
        two cores a fork beside the rendering slows it down)."""
        await asyncio.gather(*started, return_exceptions=True)
        if self.spare_due:
            self.spare_due = False
            self.desk.workers.prepare()

    def head_moved(self) -> None:
        """A new head was seen on the event loop (the players' port's fast path): the live
        streams are told it at once (:meth:`goledger.web.live.HeadWatcher.seen`), the head
        watcher is woken, and the watched pages are rendered ahead now, not after the watcher's
        thread has read the head again."""
        self.desk.live.written()
        self.desk.live.seen(self.desk.mark()[0])  # the streams first: the open pages ask while it renders
        self.prerender_soon(-1)

    def prerender_soon(self, seq: int) -> None:
        """:meth:`render_ahead` now (on the event loop; the head watcher calls this with the
        head ``seq`` it read, :meth:`head_moved` too), then the next write's worker forked."""
        started = self.render_ahead() if self.watched else []
        if started:
            task = asyncio.get_running_loop().create_task(self._then_spare(started))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        elif self.spare_due:  # nothing to render after all: fork the next write's worker now
            self.spare_due = False
            self.desk.workers.prepare()

    # ------------------------------------------------------------------ writing (for the route modules)

    async def work(self, fn: Callable[..., isolate.Done], *args: Any) -> isolate.Done:
        """``fn(*args)`` in a worker process (:mod:`goledger.web.isolate`), awaited from a thread,
        in the request's language. After a write, the head watcher is woken at once (and it has
        the watched public pages rendered again, :meth:`prerender`), and the next write's worker
        is forked ahead (:meth:`goledger.web.isolate.WorkerPool.prepare`) once they are."""
        from goledger.i18n import current_language

        done = await run_in_threadpool(self.desk.workers.run, fn, *args, language=current_language())
        if done.status == 200 and self.watched and self.desk.live.watching():
            self.spare_due = True  # forked once the watched pages are rendered (:meth:`prerender`)
        else:
            self.desk.workers.prepare()
        if done.status == 200:
            self.desk.live.written()
        return done

    async def checked_form(self, request: Request, *, director: bool = True) -> Any:
        """The posted form, or the refusal: 401 without the token, 403 with a bad CSRF token."""
        form = await request.form(max_part_size=self.desk.max_upload)
        if not self.desk.keys.csrf_ok(request.cookies.get(SESSION_COOKIE), str(form.get("csrf", ""))):
            raise Refusal(say("the form's CSRF token does not match this browser's session; "
                              "reload the page and submit it again"), 403)
        if director and not self.is_director(request):
            raise NeedsDirector
        return form

    def actor(self, request: Request) -> str:
        """Who the log says wrote: ``desk NAME`` (the name given at the login), else ``desk web``."""
        return "desk " + (request.cookies.get(DESK_COOKIE) or "web")
