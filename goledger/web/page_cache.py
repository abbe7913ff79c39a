"""The players' pages as rendered, kept per page and language and bounded by bytes (issue 45, item 2).

A hall of phones asks for the same few pages (the round's pairings, the standings) and for
every player's own page (760 … 3,000 of them). Each page is rendered once per ledger head
(:mod:`goledger.web.app`), compressed once with gzip, and kept here under its key
(``language:path?query``) with the head it was rendered at:

* **Bounded by bytes, least recently used first out.** Every page is kept, player pages
  included, until the kept bytes (the page, its ``<main>`` and both compressed) pass
  :data:`MAX_BYTES`; then the pages asked for least recently go, one at a time. The cache is
  never cleared whole, so a hall reading 760 player pages does not evict the standings.
* **Served as it was kept.** A client that accepts gzip gets the compressed bytes (no
  compression per request); one that does not gets the page as rendered.
* **Revalidated, not sent again.** Each page carries an entity tag made of the head's hash and
  the key, so it changes exactly when the page can have changed: a phone that sends the tag
  back (``If-None-Match``) gets ``304 Not Modified`` and no body.
* **An open page gets what changed.** A page kept at a new head keeps the ``<main>`` of the
  head before (``KeptPage.before``). An open page's live fetch that names the head it shows
  (``X-Goledger-Shown``) gets, when that is the head before, the new ``<main>`` with every table
  row that did not change sent as an empty ``<tr data-same></tr>`` (:func:`delta_main`; a
  result changes a few dozen of 760 standings rows), marked ``X-Goledger-Delta``: the browser
  parses a tenth of the bytes and keeps its own rows for the others.

The cache vouches for nothing: a page is served only while the head it was rendered at (its
hash) is the ledger's head as the desk knows it (:class:`goledger.web.live.HeadMark`).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import time
from collections import OrderedDict
from collections.abc import Iterator
from typing import NamedTuple

from goledger.web.live import PublicPage

__all__ = [
    "MAX_BYTES",
    "PUBLIC_VARY",
    "KeptPage",
    "PageCache",
    "accepts_gzip",
    "delta_main",
    "entity_tag",
    "keep_form",
    "matches",
    "served",
    "with_before",
]

PUBLIC_VARY = "Accept-Encoding, Accept-Language, Cookie, X-Goledger-Live, X-Goledger-Shown"
"""What a public page's bytes depend on besides its address (for caches between desk and phone)."""

MAX_BYTES = 96 * 1024 * 1024
"""Bytes of kept pages at most (the pages, their ``<main>`` and both compressed)."""
GZIP_LEVEL = 6
"""gzip's default level: a 200 KB standings page compresses in about 2 ms, once per head."""


class KeptPage(NamedTuple):
    """A kept page: as rendered, its entity tag, its whole text and ``<main>`` gzipped, the
    responses the players' port's fast path has sent of it (:mod:`goledger.web.fast_path`:
    status line and headers but the date, and the body, by the request's variant), made once,
    and how its rendering went, sent as ``Server-Timing`` (``render;dur=MS``, with
    ``desc="ahead"`` when it was rendered ahead of any request, :mod:`goledger.web.renders`)."""

    page: PublicPage
    tag: str
    body_gz: bytes
    main_gz: bytes
    wire: dict[tuple[bool, bool, bool, bool, bool], tuple[bytes, bytes]]
    timing: str = ""
    before: tuple[int, bytes] | None = None
    """The head before (its sequence number) and this page's ``<main>`` as kept at it."""
    deltas: dict[bool, bytes | None] | None = None
    """:func:`delta_main` from :attr:`before`, made once: as is (``False``) and gzipped (``True``)."""

    @property
    def size(self) -> int:
        """The bytes this entry keeps."""
        return len(self.page.body) + len(self.page.main) + len(self.body_gz) + len(self.main_gz) + \
            (len(self.before[1]) if self.before is not None else 0)

    def delta(self, shown: str, packed: bool) -> bytes | None:
        """This page's ``<main>`` for an open page showing head ``shown`` (a header's text): the
        rows that did not change since :attr:`before` left empty (:func:`delta_main`), gzipped
        when ``packed``; ``None`` when ``shown`` is not the head before, or nothing is left out."""
        if self.before is None or self.deltas is None or shown != str(self.before[0]):
            return None
        if False not in self.deltas:
            self.deltas[False] = delta_main(self.before[1], self.page.main)
        plain = self.deltas[False]
        if not packed or plain is None:
            return plain
        if True not in self.deltas:
            self.deltas[True] = gzip.compress(plain, GZIP_LEVEL, mtime=0)
        return self.deltas[True]


SAME_ROW = b"<tr data-same></tr>"
"""What stands for a table row that did not change (:func:`delta_main`)."""


def delta_main(old: bytes, new: bytes) -> bytes | None:
    """``new`` (a page's ``<main>``) with each table row that is, at the same place, the same
    as in ``old`` replaced by :data:`SAME_ROW` (what follows the row kept as it is); ``None``
    when the two have not as many rows, or when no row is the same (nothing to leave out).

    >>> old = b"<h1>A</h1><table><tr><td>1</td></tr> <tr><td>2</td></tr></table>"
    >>> delta_main(old, old.replace(b"2", b"3"))
    b'<h1>A</h1><table><tr data-same></tr> <tr><td>3</td></tr></table>'
    >>> delta_main(old, b"<table><tr><td>1</td></tr></table>") is None
    True
    """
    olds, news = old.split(b"<tr"), new.split(b"<tr")
    if len(olds) != len(news):
        return None
    out = [news[0]]
    same = 0
    for before, part in zip(olds[1:], news[1:], strict=True):
        if part[:1] not in (b" ", b">"):
            return None  # another tag (<track>): not rows alone
        end = part.find(b"</tr>")
        if before == part and end >= 0:
            out.append(SAME_ROW + part[end + len(b"</tr>"):])
            same += 1
        else:
            out.append(b"<tr" + part)
    return b"".join(out) if same else None


def with_before(kept: KeptPage, old: PublicPage | None) -> KeptPage:
    """``kept`` with the page it replaces at an earlier head of the same log (``old``, as kept
    before it) as :attr:`KeptPage.before`, its delta from it made now, both ways
    (:meth:`KeptPage.delta`): in the thread that rendered it, not on the event loop when the
    first open page asks (about 4 ms for 760 standings rows). ``kept`` as it is without one."""
    if old is None or not old.hash or old.seq >= kept.page.seq:
        return kept
    plain = delta_main(old.main, kept.page.main)
    packed = gzip.compress(plain, GZIP_LEVEL, mtime=0) if plain else None
    deltas: dict[bool, bytes | None] = {False: plain, True: packed}
    return kept._replace(before=(old.seq, old.main), deltas=deltas)


def keep_form(key: str, page: PublicPage) -> KeptPage:
    """Page ``key`` as it is kept and served: with its entity tag (none for a page that is not
    kept, whose hash is ``""``) and gzipped once.

    >>> from goledger.web.live import public_page_of
    >>> kept = keep_form("en:/?", public_page_of(3, "ab", "<main>hi</main>"))
    >>> gzip.decompress(kept.main_gz), kept.tag == entity_tag("ab", "en:/?")
    (b'hi', True)
    """
    return KeptPage(page, entity_tag(page.hash, key) if page.hash else "",
                    gzip.compress(page.body, GZIP_LEVEL, mtime=0), gzip.compress(page.main, GZIP_LEVEL, mtime=0), {})


def entity_tag(head_hash: str, key: str) -> str:
    """The entity tag of page ``key`` rendered at the head with hash ``head_hash``: it changes
    when the head moves and differs between pages and languages.

    >>> entity_tag("ab12", "en:/standings?") == entity_tag("ab12", "en:/standings?")
    True
    >>> entity_tag("ab12", "en:/standings?") == entity_tag("ab12", "tr:/standings?")
    False
    """
    digest = hashlib.blake2b(f"{head_hash}\0{key}".encode(), digest_size=12).hexdigest()
    return f'"{digest}"'


@functools.lru_cache(maxsize=256)
def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header admits gzip (``q=0`` refuses it).

    >>> accepts_gzip("gzip, deflate, br"), accepts_gzip("br"), accepts_gzip("gzip;q=0")
    (True, False, False)
    >>> accepts_gzip("*")
    True
    """
    star = False
    for part in accept_encoding.split(","):
        name, _, params = part.strip().partition(";")
        name = name.strip().lower()
        q = params.strip().lower()
        refused = q.replace(" ", "") in ("q=0", "q=0.0", "q=0.00", "q=0.000")
        if name in ("gzip", "x-gzip"):
            return not refused
        if name == "*":
            star = not refused
    return star


def matches(if_none_match: str, tag: str) -> bool:
    """Whether an ``If-None-Match`` header names ``tag`` (weak or strong, or ``*``).

    >>> matches('W/"x", "y"', '"y"'), matches('"x"', '"y"'), matches("*", '"y"')
    (True, False, True)
    """
    if not if_none_match:
        return False
    for part in if_none_match.split(","):
        part = part.strip()
        if part == "*" or part.removeprefix("W/") == tag:
            return True
    return False


class PageCache:
    """Kept public pages by key, least recently used first out past ``max_bytes``."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._pages: OrderedDict[str, KeptPage] = OrderedDict()
        self._used: dict[str, float] = {}
        """Page → when it was last served (``time.monotonic()``), while it is kept."""

    def __len__(self) -> int:
        return len(self._pages)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._pages))

    def __contains__(self, key: object) -> bool:
        return key in self._pages

    def __getitem__(self, key: str) -> PublicPage:
        return self._pages[key].page

    def get(self, key: str, default: object = None) -> PublicPage | object:
        """The page kept under ``key`` (as rendered), else ``default``; does not count as a use."""
        kept = self._pages.get(key)
        return kept.page if kept is not None else default

    def hit(self, key: str, seq: int, head_hash: str) -> KeptPage | None:
        """The page kept under ``key`` if it was rendered at the head ``(seq, head_hash)``
        (it is then the most recently used), else ``None``."""
        kept = self._pages.get(key)
        if kept is None or kept.page.seq != seq or kept.page.hash != head_hash:
            return None
        self._pages.move_to_end(key)
        self._used[key] = time.monotonic()
        return kept

    def last_used(self, key: str) -> float:
        """When page ``key`` was last served from here (:meth:`hit`; ``time.monotonic()``),
        ``0.0`` when it never was since it was kept, or is not kept."""
        return self._used.get(key, 0.0)

    def put(self, key: str, kept: KeptPage | PublicPage) -> KeptPage:
        """Keep a page under ``key`` (as :func:`keep_form` made it, or made here), evicting the
        least recently used pages while the kept bytes pass the bound. A page larger than the
        whole bound, or rendered at no known head (hash ``""``), is returned but not kept."""
        if isinstance(kept, PublicPage):
            kept = keep_form(key, kept)
        old = self._pages.pop(key, None)
        if old is not None:
            self.bytes -= old.size
            if old.page.seq < kept.page.seq and old.page.hash and kept.before is None:
                kept = kept._replace(before=(old.page.seq, old.page.main), deltas={})
        if not kept.page.hash or kept.size > self.max_bytes:  # rendered at no known head, or too big
            return kept
        self._pages[key] = kept
        self.bytes += kept.size
        while self.bytes > self.max_bytes:
            name, gone = self._pages.popitem(last=False)
            self._used.pop(name, None)
            self.bytes -= gone.size
        return kept


def served(kept: KeptPage, live: bool, if_none_match: str, accept_encoding: str,
           shown: str = "") -> tuple[int, dict[str, str], bytes]:
    """(status, headers, body) of a kept page: the whole page, or for a live page's own fetch
    (``live``: ``X-Goledger-Live: 1``) just what it swaps in (its ``<main>``, with the head it
    was computed at in ``X-Goledger-Head``, not to be stored; only the rows changed since head
    ``shown``, the one that page shows, when it is the head before: :meth:`KeptPage.delta`,
    marked ``X-Goledger-Delta``); gzipped as kept when ``accept_encoding`` admits it; ``304``
    with no body when ``if_none_match`` names its tag.

    >>> from goledger.web.live import public_page_of
    >>> kept = keep_form("en:/?", public_page_of(3, "ab", "<main>hi</main>"))
    >>> served(kept, False, kept.tag, "gzip")[0], served(kept, True, "", "")[1]["X-Goledger-Head"]
    (304, '3')
    >>> served(kept, False, "", "gzip")[1]["Content-Encoding"]
    'gzip'
    """
    headers = {"Vary": PUBLIC_VARY, "Cache-Control": "no-store" if live else "no-cache",
               "Content-Type": "text/html; charset=utf-8"}
    if kept.timing:
        headers["Server-Timing"] = kept.timing
    if live:  # fetched once per head by an open page: nothing to revalidate
        headers["X-Goledger-Head"] = str(kept.page.seq)
    elif kept.tag:
        headers["ETag"] = kept.tag
        if matches(if_none_match, kept.tag):
            del headers["Content-Type"]
            return 304, headers, b""
    raw, packed = (kept.page.main, kept.main_gz) if live else (kept.page.body, kept.body_gz)
    if live and shown:
        delta = kept.delta(shown, accepts_gzip(accept_encoding))
        if delta is not None:
            headers["X-Goledger-Delta"] = shown
            raw = packed = delta
    if accepts_gzip(accept_encoding):
        headers["Content-Encoding"] = "gzip"
        return 200, headers, packed
    return 200, headers, raw
