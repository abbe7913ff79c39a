"""Kept public pages answered before routing (issue 45, item 1): a phone's request for a page
the desk has already rendered at the ledger's head costs no SQLite and no Python beyond this.

:class:`CachedFront` sits between the desk's guard (:mod:`goledger.web.guard`, which bounds
and times every request and adds the security headers) and the rest of the application. For a
``GET`` or ``HEAD`` of a players' page (``/``, ``/standings``, ``/player/…``, ``/find``,
``/teams…``: :func:`goledger.web.language.is_public_path`) by anyone who is
not the director, it chooses the page's language the way
:class:`goledger.web.language.LanguageMiddleware` does, and when the page is kept
(:class:`goledger.web.page_cache.PageCache`) at the head the desk knows
(:class:`goledger.web.live.HeadMark`) it sends it as kept. Anything else (a miss, a
director, a ``?lang=`` choice to remember, another path) goes on to the application, which
renders, keeps and answers the page the same way (:func:`goledger.web.page_cache.served`).

On the players' port, before any of this, :mod:`goledger.web.fast_path` asks :meth:`CachedFront.wire`
for the response to a simple request: the same choice of language and page, the head and the
tournament's language read once per turn of the event loop, and the response's bytes (status
line, headers with the guard's security headers, body) made once per kept page and variant.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from http.cookies import SimpleCookie
from typing import TYPE_CHECKING, Any

from goledger.web.guard import with_security_headers
from goledger.web.language import COOKIE, LanguageMiddleware, choose_language, is_public_path
from goledger.web.page_cache import accepts_gzip, matches, served

if TYPE_CHECKING:
    from goledger.web.fast_path import SimpleRequest
    from goledger.web.page_cache import KeptPage, PageCache

_REASONS = {200: b"OK", 304: b"Not Modified"}

__all__ = ["CachedFront"]


def _cookie(raw: bytes) -> str | None:
    """The language cookie's value in a ``Cookie`` header (``None`` when absent or malformed)."""
    if COOKIE.encode() not in raw:
        return None
    cookies: SimpleCookie = SimpleCookie()
    try:
        cookies.load(raw.decode("latin-1"))
    except Exception:  # a malformed cookie header is a request without cookies
        return None
    return cookies[COOKIE].value if COOKIE in cookies else None


class CachedFront:
    """Answer kept players' pages before ``app`` (the language middleware and the routes)."""

    def __init__(self, app: LanguageMiddleware, pages: PageCache, mark: Callable[[], tuple[int, str]],
                 is_director: Callable[[dict[bytes, bytes], str], bool], *, public_only: bool = False,
                 moved: Callable[[], None] | None = None) -> None:
        self.app = app
        self.pages = pages
        self.mark = mark
        """The ledger's head as the desk knows it (:meth:`goledger.web.app.Desk.mark`)."""
        self.is_director = is_director
        """Whether a request's headers carry the director (:meth:`goledger.web.app.Desk.is_director`)."""
        self.public_only = public_only
        self.moved = moved
        """Called when a turn reads a head other than the last turn's (the head watcher is woken
        at once rather than at its next look: the live pages hear of a result sooner)."""
        self._last_seq = -1
        self._turn: tuple[tuple[int, str], str | None] | None = None
        """The head and the tournament's language as read in this turn of the event loop (:meth:`_now`)."""

    def _now(self) -> tuple[tuple[int, str], str | None]:
        """The head the desk knows and the tournament's language (``None``: to be read from
        the ledger), read once per turn of the event loop: every request answered in this turn
        arrived before the loop's poll returned, so before this read, and a page for the head
        read now is the newest it may be answered with. Forgotten before the next poll
        (``call_soon`` runs first in the next turn)."""
        turn = self._turn
        if turn is None:
            turn = self._turn = (self.mark(), self.app.known_tournament_language())
            asyncio.get_running_loop().call_soon(self._forget_turn)
            seq = turn[0][0]
            if seq != self._last_seq:
                if self._last_seq >= 0 and self.moved is not None:
                    self.moved()
                self._last_seq = seq
        return turn

    def _forget_turn(self) -> None:
        self._turn = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD") and is_public_path(scope["path"]):
            try:
                query = scope.get("query_string", b"").decode()  # as Starlette's request.url reads it
            except UnicodeDecodeError:
                query = "lang="  # not a page anyone kept: the application answers it
            if "lang=" not in query and await self._answer(scope, query, send):
                return
        await self.app(scope, receive, send)

    async def _answer(self, scope: Any, query: str, send: Any) -> bool:
        """Send the kept page, if there is one for this request; whether it was sent."""
        headers = {k.lower(): v for k, v in scope.get("headers") or []}
        path = scope["path"]
        if not self.public_only and self.is_director(headers, path):
            return False
        language, _ = choose_language(path, query, _cookie(headers.get(b"cookie", b"")),
                                      headers.get(b"accept-language", b"")[:512].decode("latin-1"),
                                      await self.app.tournament_language())
        seq, head_hash = self.mark()
        kept = self.pages.hit(f"{language}:{path}?{query}", seq, head_hash)
        if kept is None:
            return False
        status, out, body = served(kept, headers.get(b"x-goledger-live") == b"1",
                                   headers.get(b"if-none-match", b"").decode("latin-1"),
                                   headers.get(b"accept-encoding", b"").decode("latin-1"),
                                   headers.get(b"x-goledger-shown", b"").decode("latin-1"))
        raw = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in out.items()]
        if status != 304:
            raw.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": status, "headers": raw})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})
        return True

    def kept_key(self, request: SimpleRequest) -> tuple[str, int, str] | None:
        """The key a players' page asked by a simple request is kept under, with the head the
        desk knows now (its sequence number and hash); ``None`` when the fast path does not
        answer it (not on the players' port, not a players' page, a ``?lang=`` choice, a
        language that needs the ledger read)."""
        if not self.public_only or not is_public_path(request.path) or "lang=" in request.query:
            return None
        (seq, head_hash), tournament = self._now()
        if tournament is None:
            return None
        headers = request.headers
        language, _ = choose_language(request.path, request.query, _cookie(headers.get(b"cookie", b"")),
                                      headers.get(b"accept-language", b"")[:512].decode("latin-1"), tournament)
        return f"{language}:{request.path}?{request.query}", seq, head_hash

    async def key_read(self, request: SimpleRequest) -> tuple[str, int, str] | None:
        """:meth:`kept_key`, the tournament's language read again first when the ledger changed
        since it was read (once, however many requests wait for it)."""
        where = self.kept_key(request)
        if where is None and self.public_only and is_public_path(request.path) and "lang=" not in request.query:
            await self.app.tournament_language()
            self._turn = None
            where = self.kept_key(request)
        return where

    def wire(self, request: SimpleRequest) -> tuple[bytes, bytes] | None:
        """The response to a simple request (:func:`goledger.web.fast_path.simple_request`) for
        a kept players' page, what :meth:`_answer` and the desk's guard send (but uvicorn's
        ``server`` and ``date`` headers): its status line and headers, and its body; made once
        per page and variant. ``None`` when the application must answer: not a
        players' page, a ``?lang=`` choice, a language that needs the ledger read, a page not
        kept at the head the desk knows. Only on the players' port (``public_only``), where no
        request carries the director."""
        where = self.kept_key(request)
        kept = self.pages.hit(*where) if where is not None else None
        if kept is None:
            return None
        headers = request.headers
        live = headers.get(b"x-goledger-live") == b"1"
        if_none_match = headers.get(b"if-none-match", b"").decode("latin-1")
        accept_encoding = headers.get(b"accept-encoding", b"").decode("latin-1")
        fresh = not live and bool(kept.tag) and matches(if_none_match, kept.tag)
        gz = accepts_gzip(accept_encoding)
        shown = headers.get(b"x-goledger-shown", b"").decode("latin-1") if live else ""
        delta = bool(shown) and kept.delta(shown, gz) is not None
        variant = (live, gz, fresh, request.method == "HEAD", delta)
        made = kept.wire.get(variant)
        if made is None:
            made = kept.wire[variant] = _made(kept, live, if_none_match, accept_encoding, variant[3],
                                              shown if delta else "")
        return made


def _made(kept: KeptPage, live: bool, if_none_match: str, accept_encoding: str, head_only: bool,
          shown: str = "") -> tuple[bytes, bytes]:
    """A kept page's response as :func:`goledger.web.page_cache.served` and the guard make it:
    the status line and headers (without the date and the blank line), and the body (none for
    ``HEAD``)."""
    status, out, body = served(kept, live, if_none_match, accept_encoding, shown)
    raw = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in out.items()]
    if status != 304:
        raw.append((b"content-length", str(len(body)).encode()))
    lines = [b"HTTP/1.1 %d %s\r\n" % (status, _REASONS[status])]
    lines += [name + b": " + value + b"\r\n" for name, value in with_security_headers(raw)]
    return b"".join(lines), b"" if head_only else body
