"""A hardened XML parser for files from unknown programs (DESIGN §7).

Tournament files never need entities, a DTD or the network, so the parser refuses them:
no entity resolution, no DTD loading, no network access, no huge-tree mode. A document
that *declares* entities (``<!ENTITY``) is refused outright — this closes external
entities (XXE) and entity expansion ("billion laughs") before lxml sees them. A plain
``<!DOCTYPE Tournament SYSTEM "tournament.dtd">`` line (EGC 2011) is accepted and its DTD
is not fetched.

>>> root = parse_xml(b'<?xml version="1.0"?><Tournament a="1"/>', what="t.xml")
>>> root.tag, root.get("a")
('Tournament', '1')
>>> parse_xml(b'<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>', what="evil.xml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
goledger.errors.FormatError: evil.xml declares XML entities; goledger refuses them (...)
"""

from __future__ import annotations

import re
from typing import Final

from lxml import etree

from goledger.errors import FormatError

__all__ = ["MAX_XML_BYTES", "parse_xml"]

MAX_XML_BYTES: Final = 64 * 1024 * 1024
_ENTITY_DECL: Final = re.compile(rb"<!ENTITY", re.IGNORECASE)
_DOCTYPE_SUBSET: Final = re.compile(rb"<!DOCTYPE[^>\[]*\[", re.IGNORECASE)


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=False,
        recover=False,
    )


def parse_xml(data: bytes, *, what: str) -> etree._Element:
    """Parse untrusted XML bytes into a root element, or raise a clear ``FormatError``.

    ``what`` names the input in messages (usually the file name).
    """
    if len(data) > MAX_XML_BYTES:
        size, limit = len(data) // (1024 * 1024), MAX_XML_BYTES // (1024 * 1024)
        raise FormatError(f"{what} is {size} MB, larger than the {limit} MB limit for XML files")
    if not data.strip():
        raise FormatError(f"{what} is empty")
    head = data[:65536]
    if _ENTITY_DECL.search(data) is not None:
        raise FormatError(
            f"{what} declares XML entities; goledger refuses them "
            "(they can read local files or explode in memory)"
        )
    if _DOCTYPE_SUBSET.search(head) is not None:
        raise FormatError(f"{what} has an internal DTD subset; goledger refuses DTD declarations in data files")
    try:
        root = etree.fromstring(data, parser=_parser())
    except etree.XMLSyntaxError as exc:
        line = f" (line {exc.lineno})" if getattr(exc, "lineno", None) else ""
        raise FormatError(f"{what} is not well-formed XML{line}: {exc.msg}") from None
    except ValueError as exc:  # e.g. unicode strings with an encoding declaration
        raise FormatError(f"{what} cannot be parsed as XML: {exc}") from None
    if root is None:
        raise FormatError(f"{what} has no root element")
    return root
