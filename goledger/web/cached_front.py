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
"""

from __future__ import annotations

from collections.abc import Callable
from http.cookies import SimpleCookie
from typing import TYPE_CHECKING, Any

from goledger.web.language import COOKIE, LanguageMiddleware, choose_language, is_public_path
from goledger.web.page_cache import served

if TYPE_CHECKING:
    from goledger.web.page_cache import PageCache

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
                 is_director: Callable[[dict[bytes, bytes], str], bool], *, public_only: bool = False) -> None:
        self.app = app
        self.pages = pages
        self.mark = mark
        """The ledger's head as the desk knows it (:meth:`goledger.web.app.Desk.mark`)."""
        self.is_director = is_director
        """Whether a request's headers carry the director (:meth:`goledger.web.app.Desk.is_director`)."""
        self.public_only = public_only

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
                                   headers.get(b"accept-encoding", b"").decode("latin-1"))
        raw = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in out.items()]
        if status != 304:
            raw.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": status, "headers": raw})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})
        return True
