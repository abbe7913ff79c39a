"""Which language each page of the desk is written in (issue 33, item 2).

An ASGI middleware around the desk: it chooses the language of a request and runs the request
inside :func:`goledger.i18n.use_language`, so templates, printouts and explanations rendered
for it are in that language and ``<html lang>`` says so.

The choice, first that applies:

1. ``?lang=xx`` — the language switcher's links; the choice is kept in a cookie
   (:data:`COOKIE`, one year) for the next pages;
2. the cookie: a reader's own choice, made with the switcher, outranks what his browser says;
3. on the reader's pages (:func:`is_reader_path`: every players' page — ``/``, standings, a
   player and his timeline, find my table, the team pages — and the login and New-tournament
   pages, which come before any director's choice), the browser's ``Accept-Language``
   (:func:`goledger.i18n.negotiate`: q-values, ``tr-TR`` read as ``tr``), a player's key pages ``/k/…``
   included;
4. the tournament's language (``goledger new --language``, ``change-rules language=…``),
   read from the ledger once per head: the director's pages (``/desk…``, ``/print/…``) follow
   it unless the director chose another with the switcher (steps 1 and 2);
5. English.

A language without a catalog is ignored at every step. The JSON API (``/api/…``) is always
English, as the CLI's ``--json`` is. Every page answered in a chosen language says so to caches
between the desk and the phone (issue 44): ``Vary: Cookie`` on every page, and
``Accept-Language`` too on the reader's pages (:data:`READER_VARY`), so a proxy never hands a
Hungarian page to a Turkish phone.
"""

from __future__ import annotations

import asyncio
import os
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any, Final
from urllib.parse import parse_qs

from goledger.i18n import DEFAULT_LANGUAGE, LANGUAGES, negotiate, use_language

__all__ = ["COOKIE", "PUBLIC_PREFIXES", "READER_VARY", "LanguageMiddleware", "choose_language", "is_public_path",
           "is_reader_path", "vary_with"]

COOKIE: Final = "goledger_lang"
PUBLIC_PREFIXES: Final = ("/standings", "/player/", "/find", "/teams")
"""The players' view (with ``/`` itself): the pages kept per head and language and answered
before routing (:mod:`goledger.web.cached_front`); they follow the reader's languages."""
_PUBLIC_EXACT: Final = frozenset(("/", *(p for p in PUBLIC_PREFIXES if not p.endswith("/"))))
_PUBLIC_UNDER: Final = tuple(p if p.endswith("/") else p + "/" for p in PUBLIC_PREFIXES)
READER_PATHS: Final = ("/login", "/desk/new", "/bracket")
"""Pages before any director's choice that follow the reader's languages too: the login and
the New-tournament form (a desk started with ``serve --new`` has no tournament language yet)."""
READER_VARY: Final = ("Accept-Language", "Cookie")
"""What a reader's page's language depends on besides its address (the ``Vary`` it is sent with)."""


def is_public_path(path: str) -> bool:
    """Whether ``path`` is one of the players' pages (which follow the browser's languages).

    >>> is_public_path("/"), is_public_path("/player/p0001"), is_public_path("/desk")
    (True, True, False)
    >>> is_public_path("/find"), is_public_path("/teams/round/2"), is_public_path("/findings")
    (True, True, False)
    """
    return path in _PUBLIC_EXACT or path.startswith(_PUBLIC_UNDER)


def is_reader_path(path: str) -> bool:
    """Whether the page at ``path`` follows its reader's browser languages (a players' page, the
    login or the New-tournament form) rather than the tournament's.

    >>> is_reader_path("/login"), is_reader_path("/desk/new"), is_reader_path("/desk/players")
    (True, True, False)
    """
    return is_public_path(path) or path in READER_PATHS


def vary_with(headers: list[tuple[bytes, bytes]], names: tuple[str, ...]) -> list[tuple[bytes, bytes]]:
    """Response ``headers`` whose ``Vary`` names ``names`` too (one ``Vary`` header, merged).

    >>> vary_with([(b"vary", b"Accept-Encoding")], ("Cookie",))
    [(b'vary', b'Accept-Encoding, Cookie')]
    >>> vary_with([(b"vary", b"Accept-Language, cookie")], ("Accept-Language", "Cookie"))
    [(b'vary', b'Accept-Language, cookie')]
    >>> vary_with([], ("Cookie",))
    [(b'vary', b'Cookie')]
    """
    named = [v.strip() for k, value in headers if k.lower() == b"vary" for v in value.decode("latin-1").split(",")]
    named = [v for v in named if v]
    if "*" in named:
        return headers
    lower = {v.lower() for v in named}
    merged = named + [n for n in names if n.lower() not in lower]
    if merged == named and sum(1 for k, _ in headers if k.lower() == b"vary") == 1:
        return headers
    return [*(h for h in headers if h[0].lower() != b"vary"), (b"vary", ", ".join(merged).encode("latin-1"))]


def choose_language(path: str, query: str, cookie: str | None, accept_language: str,
                    tournament: str) -> tuple[str, bool]:
    """The language of a request and whether it was chosen by ``?lang=`` (to be remembered).

    >>> choose_language("/", "", None, "hu-HU,hu;q=0.9", "tr")
    ('hu', False)
    >>> choose_language("/desk", "", None, "hu", "tr")
    ('tr', False)
    >>> choose_language("/desk", "lang=de", "fr", "hu", "tr")
    ('de', True)
    >>> choose_language("/standings", "", "fr", "hu", "tr")
    ('fr', False)
    >>> choose_language("/find", "q=ab", None, "de;q=0.5, tr-TR, en;q=0.8", "hu")
    ('tr', False)
    >>> choose_language("/login", "", None, "hu-HU", "tr"), choose_language("/teams", "", None, "xx", "hu")
    (('hu', False), ('hu', False))
    """
    if path.startswith("/api/"):
        return DEFAULT_LANGUAGE, False  # JSON for programs: the texts the CLI's --json prints
    asked = parse_qs(query).get("lang", [""])[-1].lower() if "lang" in query else ""
    if asked in LANGUAGES:
        return asked, True
    if cookie in LANGUAGES:
        return str(cookie), False
    if is_reader_path(path) or path.startswith("/k/"):  # a player's own page by his key too (issue 46)
        found = negotiate(accept_language)
        if found is not None:
            return found, False
    return (tournament if tournament in LANGUAGES else DEFAULT_LANGUAGE), False


class LanguageMiddleware:
    """Runs each HTTP request of ``app`` in its language (:func:`choose_language`); the
    tournament's language comes from ledger ``db``, re-read when its head moves."""

    def __init__(self, app: Any, db: Path) -> None:
        self.app = app
        self.db = db
        self._file = str(db)
        self._reading: tuple[tuple[int, int], asyncio.Future[str]] | None = None
        """The file's mark and the reading of its language in flight."""
        self._tournament: tuple[tuple[int, int] | None, str] = (None, DEFAULT_LANGUAGE)

    def _mark(self) -> tuple[int, int] | None:
        try:
            stat = os.stat(self._file)
        except OSError:
            return None
        return (stat.st_mtime_ns, stat.st_size)

    def _read(self) -> str:
        from goledger.errors import GoledgerError
        from goledger.replay.views import tournament_language

        try:
            return tournament_language(self.db)
        except (GoledgerError, OSError):
            return DEFAULT_LANGUAGE

    def known_tournament_language(self) -> str | None:
        """The ledger's language as last read, while the file is as it was then (``None`` when
        it changed: :meth:`tournament_language` reads it again)."""
        mark = self._mark()
        if mark is None:
            return DEFAULT_LANGUAGE
        kept_mark, language = self._tournament
        return language if kept_mark == mark else None

    async def tournament_language(self) -> str:
        """The ledger's language, read again (off the event loop) only when the file changed,
        once however many requests ask at that moment (after a result, every phone's next
        request does: each reading it cost a hall of phones a second of the players' process)."""
        mark = self._mark()
        if mark is None:
            return DEFAULT_LANGUAGE
        if self._tournament[0] != mark:
            from starlette.concurrency import run_in_threadpool

            reading = self._reading
            if reading is None or reading[0] != mark or reading[1].get_loop() is not asyncio.get_running_loop():
                reading = self._reading = (mark, asyncio.ensure_future(run_in_threadpool(self._read)))
            language = await asyncio.shield(reading[1])
            if self._reading is reading:
                self._reading = None
            self._tournament = (mark, language)
        return self._tournament[1]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        cookies = SimpleCookie()
        try:
            cookies.load(headers.get("cookie", ""))
        except Exception:  # a malformed cookie header is a request without cookies
            cookies = SimpleCookie()
        cookie = cookies[COOKIE].value if COOKIE in cookies else None
        language, remember = choose_language(
            scope.get("path", "/"), scope.get("query_string", b"").decode("latin-1"), cookie,
            headers.get("accept-language", "")[:512], await self.tournament_language())

        path = scope.get("path", "/")
        vary = READER_VARY if is_reader_path(path) else READER_VARY[1:]

        async def send_with_cookie(message: Any) -> None:
            if message["type"] == "http.response.start" and not path.startswith(("/api/", "/static/")):
                extra = []
                if remember:
                    value = f"{COOKIE}={language}; Path=/; Max-Age=31536000; SameSite=Lax".encode("latin-1")
                    extra.append((b"set-cookie", value))
                message = {**message, "headers": [*vary_with(list(message.get("headers", [])), vary), *extra]}
            await send(message)

        with use_language(language):
            await self.app(scope, receive, send_with_cookie)
