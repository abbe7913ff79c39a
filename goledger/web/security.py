"""The desk's guards: the director token, sessions, CSRF tokens and status messages
(issue 17, §3; issue 27, §4, §11). The request-level guards (body limits, Origin, headers)
are :mod:`goledger.web.guard`'s.

* **Director token**: every page that writes, and every director page, needs it. A browser
  proves it once on ``/login``; scripts send ``Authorization: Bearer TOKEN``.
* **Sessions are the server's** (:class:`Sessions`): the ``goledger_session`` cookie holds
  an id the desk issued: an anonymous one is random bits signed with the server's secret, a
  director's is random bits the server remembers from the login that created it. An id the
  client made up, or one from before a restart, is ignored and replaced. Logging in always
  issues a new id (a session planted before the login is worthless after it); logging out
  forgets it.
* **CSRF**: every form carries ``csrf`` = HMAC(secret, session). A POST whose form token
  does not match the browser's own session is refused (403). Bearer requests carry no cookie
  and need no CSRF token.
* **Status messages** (:class:`Flash`): the line "registered 3 player(s)" after a form is
  kept by the server for that session and shown once by the next page; nothing in the URL
  can put words on the desk's status line.

>>> keys = DeskKeys(token="t0ken", secret=b"s" * 32)
>>> keys.token_ok("t0ken"), keys.token_ok("guess")
(True, False)
>>> keys.csrf_ok("abc", keys.csrf_for("abc")), keys.csrf_ok("abc", keys.csrf_for("abd"))
(True, False)
>>> sessions = Sessions(keys)
>>> anonymous = sessions.issue()
>>> sessions.valid(anonymous), sessions.valid("chosen-by-the-client"), sessions.is_director(anonymous)
(True, False, False)
>>> director = sessions.login()
>>> sessions.is_director(director), director != anonymous
(True, True)
>>> sessions.logout(director); sessions.valid(director)
False
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass

__all__ = ["DeskKeys", "Flash", "Sessions", "new_token"]


def new_token() -> str:
    """A director token for when none is given: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


@dataclass(frozen=True)
class DeskKeys:
    """The director ``token`` and the server's ``secret`` (random per start unless given)."""

    token: str
    secret: bytes

    def mac(self, purpose: str, text: str) -> str:
        """HMAC-SHA256 of ``text`` for ``purpose`` under the secret (hex)."""
        return hmac.new(self.secret, f"{purpose}:{text}".encode(), hashlib.sha256).hexdigest()

    def token_ok(self, candidate: str | None) -> bool:
        """Whether ``candidate`` is the director token (constant-time comparison)."""
        return bool(candidate) and hmac.compare_digest(str(candidate).encode(), self.token.encode())

    def csrf_for(self, session: str) -> str:
        """The CSRF token of the browser session ``session``."""
        return self.mac("csrf", session)

    def csrf_ok(self, session: str | None, candidate: str | None) -> bool:
        if not session or not candidate:
            return False
        return hmac.compare_digest(str(candidate).encode(), self.csrf_for(session).encode())



ANONYMOUS = "a."
DIRECTOR = "d."


class Sessions:
    """The browser sessions this desk issued (see the module's text).

    Anonymous ids are ``a.RANDOM.MAC`` (checked by their MAC, nothing stored, so visitors
    cost no memory); director ids are ``d.RANDOM``, remembered from the login that issued
    them, at most ``max_directors`` (the oldest login is forgotten first)."""

    def __init__(self, keys: DeskKeys, max_directors: int = 256) -> None:
        self.keys = keys
        self.max_directors = max_directors
        self._directors: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def issue(self) -> str:
        """A new anonymous session id."""
        random = secrets.token_urlsafe(16)
        return f"{ANONYMOUS}{random}.{self.keys.mac('session', random)[:32]}"

    def is_director(self, session: str | None) -> bool:
        """Whether ``session`` is a director's, issued by a login on this desk."""
        if not session or not session.startswith(DIRECTOR):
            return False
        with self._lock:
            return session in self._directors

    def valid(self, session: str | None) -> bool:
        """Whether ``session`` is an id this desk issued (and has not forgotten)."""
        if not session:
            return False
        if session.startswith(ANONYMOUS):
            random, _, mac = session[len(ANONYMOUS):].partition(".")
            return bool(random) and hmac.compare_digest(mac.encode(), self.keys.mac("session", random)[:32].encode())
        return self.is_director(session)

    def login(self) -> str:
        """A new director session id (the caller has checked the token)."""
        session = DIRECTOR + secrets.token_urlsafe(24)
        with self._lock:
            self._directors[session] = None
            while len(self._directors) > self.max_directors:
                self._directors.popitem(last=False)
        return session

    def logout(self, session: str | None) -> None:
        with self._lock:
            self._directors.pop(session or "", None)


class Flash:
    """One status message per session, kept by the server until the next page shows it (at
    most ``size`` sessions' messages; the oldest is dropped first)."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._messages: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    def put(self, session: str, message: str) -> None:
        with self._lock:
            self._messages[session] = message
            self._messages.move_to_end(session)
            while len(self._messages) > self.size:
                self._messages.popitem(last=False)

    def pop(self, session: str) -> str:
        with self._lock:
            return self._messages.pop(session, "")
