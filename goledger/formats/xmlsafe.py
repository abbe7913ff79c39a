"""A hardened XML parser for files from unknown programs (DESIGN §7).

Tournament files never need entities, a DTD or the network, so the parser refuses them:
no entity resolution, no DTD loading, no network access, no huge-tree mode. A document
that *declares* entities (``<!ENTITY``) is refused outright — checked on the decoded text
for every encoding (UTF-16 and UTF-32 by byte-order mark or null bytes, any declared
codec that is not ASCII-compatible), and again on the parsed document, which must carry
no internal DTD whatever its encoding — this closes external
entities (XXE) and entity expansion ("billion laughs") before lxml sees them. A plain
``<!DOCTYPE Tournament SYSTEM "tournament.dtd">`` line (EGC 2011) is accepted and its DTD
is not fetched; a DOCTYPE that points anywhere else (a URL, an absolute or relative path,
a ``PUBLIC`` identifier) is refused, since only a hostile file needs one.

Encodings (spec ``formats/opengotha-xml.md`` §1): a leading byte-order mark and blank
space before the XML declaration are tolerated; a file that is not valid in its declared
UTF-8, or that declares ISO-8859-1 but holds Windows-1252 punctuation (bytes 0x80–0x9F,
never text in ISO-8859-1), is re-decoded as Cp1252 (files up to 8 MB that hold no control
bytes: binary junk is refused at once). Each such repair is appended to
``notes`` when the caller passes a list.

>>> root = parse_xml(b'<?xml version="1.0"?><Tournament a="1"/>', what="t.xml")
>>> root.tag, root.get("a")
('Tournament', '1')
>>> parse_xml(b'<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>', what="evil.xml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
goledger.errors.FormatError: evil.xml declares XML entities; goledger refuses them (...)
"""

from __future__ import annotations

import codecs
import re
from typing import Final

from lxml import etree

from goledger.errors import FormatError
from goledger.i18n.messages import say, word

__all__ = ["MAX_XML_BYTES", "check_size", "parse_xml"]

MAX_XML_BYTES: Final = 64 * 1024 * 1024
MAX_RECODE_BYTES: Final = 8 * 1024 * 1024
"""Cp1252 repairs are tried only on files up to this size (real tournament files are well
below 1 MB): re-decoding tens of megabytes of junk would delay its refusal."""
_ENTITY_DECL: Final = re.compile(rb"<!ENTITY", re.IGNORECASE)
_DOCTYPE_SUBSET: Final = re.compile(rb"<!DOCTYPE[^>\[]*\[", re.IGNORECASE)
_DOCTYPE_EXTERNAL: Final = re.compile(
    rb"<!DOCTYPE\s+[^\s>\[]+\s+(SYSTEM|PUBLIC)\s+(?:([\"'])(.*?)\2)?", re.IGNORECASE | re.DOTALL
)
_LOCAL_DTD_NAME: Final = re.compile(rb"^[A-Za-z0-9_.-]+$")
_DECLARATION: Final = re.compile(rb"^<\?xml[^>]*?encoding\s*=\s*([\"'])([A-Za-z0-9._-]+)\1", re.IGNORECASE)
_C1_BYTES: Final = re.compile(rb"[\x80-\x9f]")
_NOT_TEXT: Final = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]")
"""Control bytes XML 1.0 never allows: a file holding one is binary junk, not mis-encoded text."""
_LATIN1_NAMES: Final = frozenset({"iso-8859-1", "iso8859-1", "latin1", "latin-1", "iso_8859-1", "l1"})


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


def _declared_encoding(data: bytes) -> str:
    match = _DECLARATION.match(data)
    return match.group(2).decode("ascii").lower() if match else ""


def _latin1_fallback(error: UnicodeError) -> tuple[str, int]:
    assert isinstance(error, UnicodeDecodeError)
    return error.object[error.start:error.end].decode("latin-1"), error.end


codecs.register_error("goledger-latin1", _latin1_fallback)


def _as_cp1252(data: bytes) -> bytes:
    """The document re-decoded as Cp1252 and re-encoded as UTF-8 (declaration rewritten).
    Bytes Cp1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) keep their Latin-1 meaning."""
    text = data.decode("cp1252", errors="goledger-latin1")
    match = _DECLARATION.match(data)
    if match is not None:
        start, end = match.span(2)
        text = text[:start] + "UTF-8" + text[end:]
    return text.encode("utf-8")


def _check_doctype(head: bytes, what: str) -> None:
    match = _DOCTYPE_EXTERNAL.search(head)
    if match is None:
        return
    kind, target = match.group(1).upper(), match.group(3) or b""
    if kind == b"PUBLIC" or not _LOCAL_DTD_NAME.match(target):
        shown = target.decode("utf-8", errors="replace")[:80]
        raise FormatError(say("%(file)s points to an external DTD (%(kind)s %(target)r); goledger never fetches "
                              "DTDs and refuses files that name one outside their own folder", file=what,
                              kind=kind.decode().upper(), target=shown))


def _one_line(text: object) -> str:
    """libxml2's messages can hold newlines; a refusal is one line."""
    return " ".join(str(text).split())


def check_size(size: int, what: str, limit: int = MAX_XML_BYTES, kind: str = "XML files") -> None:
    """Refuse an input of ``size`` bytes above ``limit`` (before reading it, when possible)."""
    if size > limit:
        raise FormatError(say("%(file)s is %(size)s MB, larger than the %(limit)d MB limit for %(kind)s", file=what,
                              size=format(size / (1024 * 1024), ".0f"), limit=limit // (1024 * 1024), kind=word(kind)))


def parse_xml(
    data: bytes, *, what: str, notes: list[str] | None = None, max_bytes: int = MAX_XML_BYTES, kind: str = "XML files"
) -> etree._Element:
    """Parse untrusted XML bytes into a root element, or raise a clear ``FormatError``.

    ``what`` names the input in messages (usually the file name); encoding repairs are
    appended to ``notes`` (see the module docstring). A format whose files are known to be
    small passes a lower ``max_bytes`` (and names itself in ``kind``).
    """
    check_size(len(data), what, min(max_bytes, MAX_XML_BYTES), kind)
    if not data.strip():
        raise FormatError(say("%(file)s is empty", file=what))
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
        if notes is not None:
            notes.append("a UTF-8 byte-order mark starts the file")
    if data[:1].isspace() and data.lstrip().startswith(b"<?xml"):
        data = data.lstrip()
        if notes is not None:
            notes.append("blank space before the XML declaration was skipped")
    head = data[:65536]
    text_head = _decoded(data)
    if text_head is not None:  # UTF-16/32 and other encodings: check the text, not its bytes
        if re.search(r"<!ENTITY", text_head, re.IGNORECASE):
            raise FormatError(say(
                "%(file)s declares XML entities; goledger refuses them "
                "(they can read local files or explode in memory)", file=what))
        if re.search(r"<!DOCTYPE[^>\[]*\[", text_head[:65536], re.IGNORECASE):
            raise FormatError(say("%(file)s has an internal DTD subset; goledger refuses DTD declarations in data "
                                  "files", file=what))
    if _ENTITY_DECL.search(data) is not None:
        raise FormatError(say(
            "%(file)s declares XML entities; goledger refuses them "
            "(they can read local files or explode in memory)", file=what))
    if _DOCTYPE_SUBSET.search(head) is not None:
        raise FormatError(say("%(file)s has an internal DTD subset; goledger refuses DTD declarations in data "
                                  "files", file=what))
    _check_doctype(head, what)
    declared = _declared_encoding(data)
    small = len(data) <= MAX_RECODE_BYTES
    if small and declared in _LATIN1_NAMES and _C1_BYTES.search(data) is not None:
        data = _as_cp1252(data)
        if notes is not None:
            notes.append(f"declared {declared.upper()} but holds Windows-1252 characters; read as Cp1252")
    try:
        root = etree.fromstring(data, parser=_parser())
    except etree.XMLSyntaxError as exc:
        root = None
        if (
            small
            and declared in ("", "utf-8", "utf8")
            and "encoding" in str(exc.msg).lower()
            and data.lstrip()[:1] == b"<"
            and _NOT_TEXT.search(data) is None
        ):
            try:
                root = etree.fromstring(_as_cp1252(data), parser=_parser())
            except (etree.XMLSyntaxError, UnicodeDecodeError):
                root = None
            if root is not None and notes is not None:
                notes.append("not valid UTF-8; re-decoded as Cp1252")
        if root is None:
            if getattr(exc, "lineno", None):
                raise FormatError(say("%(file)s is not well-formed XML (line %(line)d): %(error)s", file=what,
                                      line=exc.lineno, error=_one_line(exc.msg))) from None
            raise FormatError(say("%(file)s is not well-formed XML: %(error)s", file=what,
                                  error=_one_line(exc.msg))) from None
    except ValueError as exc:  # e.g. unicode strings with an encoding declaration
        raise FormatError(say("%(file)s cannot be parsed as XML: %(error)s", file=what,
                              error=_one_line(str(exc)))) from None
    if root is None:
        raise FormatError(say("%(file)s has no root element", file=what))
    dtd = root.getroottree().docinfo.internalDTD  # whatever the encoding: the parsed document says it
    if dtd is not None and (any(True for _ in dtd.iterentities()) or any(True for _ in dtd.iterelements())):
        raise FormatError(say("%(file)s has an internal DTD subset; goledger refuses DTD declarations in data "
                                  "files", file=what))
    return root


_BOMS: Final = (
    (codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_NULL_PATTERNS: Final = (
    (b"<\x00\x00\x00", "utf-32-le"), (b"\x00\x00\x00<", "utf-32-be"), (b"<\x00", "utf-16-le"), (b"\x00<", "utf-16-be"),
)


def _decoded(data: bytes) -> str | None:
    """The document as text when it is not in an ASCII-compatible encoding (UTF-16/32 by
    byte-order mark or by the null bytes around ``<``, or a declared EBCDIC-like codec), else
    ``None`` (the byte checks then see the text as it is)."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(name, errors="replace")
    for start, name in _NULL_PATTERNS:
        if data.startswith(start):
            return data.decode(name, errors="replace")
    declared = _declared_encoding(data)
    if declared:
        try:
            codec = codecs.lookup(declared)
        except LookupError:
            return None
        if codec.encode("<!ENTITY")[0] != b"<!ENTITY":
            return data.decode(codec.name, errors="replace")
    return None
