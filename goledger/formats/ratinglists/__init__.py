"""Readers of rating lists (issue 34): bytes → :class:`~goledger.ratings.model.ParsedList`.

Each source is one module with ``read(data: bytes) -> ParsedList`` named in :data:`READERS`;
:func:`import_list` reads a file and hands the list to the store. Only the EGD's list exists
today (:mod:`.egd`). What the other federations' lists would need:

* **FFG** (``echelle`` list, ``ech_ffg_V3.txt``): fixed columns of name (``SURNAME
  First``), licence number, rating in FFG points (``-900``..``+800``, not GoR), status,
  club and country. A reader ``ffg.py`` would key players by licence (registered into
  ``PlayerRegistered.ids["ffg_licence"]``, not ``egd_pin``), map the FFG rating to a rank
  with the FFG's own table (100 points a grade), date the list from its header line, and
  give ``gor=None``.
* **AGA** (``TDList``): tab-separated ``Name`` (``Last, First``), AGA id, membership type,
  rating (a decimal: negative kyu, positive dan, e.g. ``-3.5``, ``2.1``), expiry date,
  chapter and state. A reader ``aga.py`` would key by ``ids["aga_id"]``, read the rank from
  the rating's integer part, keep expired members flagged, and date the list from the newest
  expiry or the file's own date.

Both give the same ``RatedPlayer`` (its ``pin`` then the federation's key), so the store,
the search and ``register`` need nothing more than a ``--source`` name and the key field.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Final

from goledger.errors import CommandRejected
from goledger.formats.ratinglists.egd import read
from goledger.i18n.messages import say
from goledger.ratings.model import MAX_UNPARSED_KEPT, ParsedList
from goledger.ratings.store import ImportOutcome, save_list

if TYPE_CHECKING:
    import os
    from collections.abc import Callable

__all__ = ["MAX_LIST_BYTES", "MAX_UNPARSED_KEPT", "READERS", "import_list", "read_list"]

MAX_LIST_BYTES: Final = 64 * 1024 * 1024
"""The largest list file read (the EGD's whole world list is 4.2 MB)."""


def _egd(data: bytes) -> ParsedList:
    return read(data)


READERS: Final[dict[str, Callable[[bytes], ParsedList]]] = {"egd": _egd}


def read_list(path: str | os.PathLike[str], source: str = "egd") -> ParsedList:
    """Read a rating list file of ``source``; refuses an unknown source, a missing or an
    oversized file with one sentence."""
    reader = READERS.get(source)
    if reader is None:
        raise CommandRejected(say("unknown rating list source %(source)r; known: %(known)s", source=source,
                                  known=", ".join(sorted(READERS))))
    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_LIST_BYTES:
            raise CommandRejected(say("%(file)s is %(size)d bytes, more than a rating list may be (%(most)d)",
                                      file=str(file), size=size, most=MAX_LIST_BYTES))
        data = file.read_bytes()
    except OSError as exc:
        raise CommandRejected(say("cannot read %(file)s: %(error)s", file=str(file),
                                  error=str(exc.strerror or exc))) from None
    return reader(data)


def import_list(path: str | os.PathLike[str], source: str = "egd",
                ratings: str | os.PathLike[str] | None = None, replace: bool = False) -> ImportOutcome:
    """``goledger ratings import``: read the list and store it (a no-op for the same file,
    an atomic replacement of an older list of the same source; a newer list is replaced only
    with ``replace``)."""
    parsed = read_list(path, source)
    return save_list(parsed, Path(path).name, ratings, replace)
