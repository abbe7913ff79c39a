"""HTML written as text, byte for byte what lxml's HTML serializer writes for the same tree.

The audit report of a large congress holds some 400,000 elements; building them as an lxml
tree and serializing it was most of the time the report took to render. These functions
write the markup directly, with the escaping of lxml's serializer (libxml2's HTML output, as
``etree.tostring(tree, method="html", encoding="utf-8")`` writes it):

* text: ``&``, ``<`` and ``>`` become ``&amp;``, ``&lt;`` and ``&gt;``; everything else
  (quotes, non-ASCII characters, line breaks) is written as it is;
* an attribute value: ``&``, ``<`` and ``>`` escaped likewise, except the HTML 4 constructs
  libxml2 keeps (``&{…}`` up to the first ``}``, ``<!--…-->``); then quoted with ``"``, or
  with ``'`` when the value holds a ``"`` and no ``'``, else with ``"`` and every ``"``
  written ``&quot;``;
* characters XML cannot carry (C0 controls but tab, line feed and carriage return, lone
  surrogates, U+FFFE, U+FFFF) are refused with lxml's :class:`ValueError`
  (:func:`page_bytes`, :func:`encoded`, :func:`encoded_rows`).

These are the rules of libxml2 2.14 (lxml 6.1); the page no longer depends on the libxml2
installed, and ``tests/render/test_html_text.py`` compares them with whichever lxml is.

How escaping is guaranteed: markup has the type :data:`Html`, which mypy keeps apart from
plain strings (a function taking markup refuses a ``str``). Markup is made by the functions
here, which escape every text and attribute value they are given; a renderer that writes its
many rows itself (the audit report's event log) writes literal tags only, every text through
:func:`escape` and every attribute value through :func:`attribute_value`.
``tests/render/test_html_text.py`` compares each function with lxml's serializer on hostile texts,
and the audit report, standings page and rating page with the lxml-tree renderer they replace.

>>> element("td", text("a < b & c"), attrs={"class": "num", "title": 'say "hi"'})
'<td class="num" title=\\'say "hi"\\'>a &lt; b &amp; c</td>'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, NewType

__all__ = ["Encoded", "Html", "anchor", "attribute_value", "attributes", "element", "encoded", "encoded_rows", "escape",
           "from_tree", "join", "page_bytes", "page_chunks", "table", "text", "text_element"]

Html = NewType("Html", str)
"""Markup: escaped text and tags, ready to be written into a page."""

Encoded = NewType("Encoded", bytes)
"""Markup already encoded as UTF-8 and checked (:func:`encoded_rows`): a page part written as
it is, for the many rows of one section that would otherwise be one page-long string."""

VOID: Final = frozenset({"area", "base", "basefont", "br", "col", "frame", "hr", "img", "input", "isindex", "link",
                         "meta", "param"})
"""Elements written without an end tag (libxml2's HTML 4 table)."""

_RAW_TEXT: Final = frozenset({"script", "style"})
_ATTRIBUTE_SPECIAL: Final = re.compile(r"&\{[^}]*\}|<!(?=--).*?-->|[&<>]", re.DOTALL)
_ATTRIBUTE_ESCAPES: Final = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_ANCHOR: Final = re.compile(r"#[A-Za-z0-9_-]*")
_NOT_XML: Final = bytes([*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20)])
_NOT_XML_AS_ZERO: Final = bytes(0 if byte in _NOT_XML else 1 for byte in range(256))
"""A ``bytes.translate`` table turning each of :data:`_NOT_XML` into a zero byte and every other
byte into 1: one C pass and a ``find`` tell whether a page holds any (a regular expression's
character class takes twice as long on a report's 14 MB)."""
_NOT_XML_MESSAGE: Final = "All strings must be XML compatible: Unicode or ASCII, no NULL bytes or control characters"


def escape(value: str) -> str:
    """``value`` as element text (``&``, ``<``, ``>`` escaped), as a plain string: for code
    that writes many cells into one template (:func:`table`, the report's event log)."""
    if "&" in value:
        value = value.replace("&", "&amp;")
    if "<" in value:
        value = value.replace("<", "&lt;")
    if ">" in value:
        value = value.replace(">", "&gt;")
    return value


def text(value: str) -> Html:
    """``value`` as the text of an element."""
    return Html(escape(value))


def attribute_value(value: str) -> str:
    """``value`` escaped and quoted as libxml2 writes an attribute of an HTML document."""
    if "&" in value or "<" in value or ">" in value:
        value = _ATTRIBUTE_SPECIAL.sub(lambda m: _ATTRIBUTE_ESCAPES.get(m.group(), m.group()), value)
    if '"' not in value:
        return f'"{value}"'
    if "'" not in value:
        return f"'{value}'"
    return '"' + value.replace('"', "&quot;") + '"'


def attributes(attrs: Mapping[str, str] | None) -> str:
    """`` name="value"`` for each attribute, in order. ``href`` takes only a fragment
    (``#id``): libxml2 writes other links URI-escaped, which this module does not."""
    if not attrs:
        return ""
    out = []
    for name, value in attrs.items():
        if name in ("href", "src", "action") and not _ANCHOR.fullmatch(value):
            raise ValueError(f"only links within the page (#id) can be written, not {value!r}")
        out.append(f" {name}={attribute_value(value)}")
    return "".join(out)


def element(tag: str, *content: Html, attrs: Mapping[str, str] | None = None) -> Html:
    """``<tag attrs>content</tag>`` (no end tag and no content for a :data:`VOID` element).
    Tag and attribute names are the caller's own, never data. ``script`` and ``style`` are
    refused: lxml writes their text unescaped (a page's style is :func:`page_bytes`')."""
    if tag in _RAW_TEXT:
        raise ValueError(f"<{tag}> is not written by element()")
    if tag in VOID:
        if content:
            raise ValueError(f"<{tag}> holds nothing")
        return Html(f"<{tag}{attributes(attrs)}>")
    return Html(f"<{tag}{attributes(attrs)}>{''.join(content)}</{tag}>")


def text_element(tag: str, value: str, attrs: Mapping[str, str] | None = None) -> Html:
    """``<tag attrs>value</tag>`` with ``value`` escaped."""
    return element(tag, text(value), attrs=attrs)


def anchor(label: str, target: str) -> Html:
    """A link to ``#target`` on the same page."""
    return text_element("a", label, {"href": f"#{target}"})


def join(parts: Iterable[Html]) -> Html:
    """The markup of ``parts`` one after the other."""
    return Html("".join(parts))


def table(headers: Sequence[str], rows: Iterable[Sequence[str]], numeric: Iterable[int] = (),
          attrs: Mapping[str, str] | None = None) -> Html:
    """A ``table`` with a header row and one row per item of ``rows``; the cells of the
    columns in ``numeric`` have ``class="num"``."""
    rows = list(rows)
    right = frozenset(numeric)
    width = max(map(len, rows), default=0)
    opens = ['<td class="num">' if i in right else "<td>" for i in range(width)]
    full = "<tr>" + "".join(f"{o}%s</td>" for o in opens) + "</tr>"  # a row of every column: one % per row

    def row_markup(row: Sequence[str]) -> str:
        if len(row) == width:
            cells = "".join(row)  # most rows have nothing to escape: one look at all their text
            if "&" in cells or "<" in cells or ">" in cells:
                return full % tuple(map(escape, row))
            return full % tuple(row)
        return "<tr>" + "".join([o + escape(c) + "</td>" for o, c in zip(opens, row, strict=False)]) + "</tr>"

    body = "".join([row_markup(row) for row in rows])
    head = "".join([f"<th>{escape(h)}</th>" for h in headers])
    return Html(f"<table{attributes(attrs)}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def from_tree(*elements: Any) -> Html:
    """lxml elements (and their tails) as lxml's serializer writes them inside an HTML
    document, for parts another module builds as a tree (a bracket's SVG)."""
    from lxml import etree
    from lxml import html as lxml_html

    holder = lxml_html.Element("div")  # an element of an HTML document: its escaping applies
    holder.extend(elements)
    written = etree.tostring(holder, method="html", encoding="utf-8").decode("utf-8")
    return Html(written[len("<div>"):-len("</div>")])


def encoded(markup: str) -> bytes:
    """``markup`` as UTF-8, refusing (as lxml does) the characters XML cannot carry."""
    if "\ufffe" in markup or "\uffff" in markup:
        raise ValueError(_NOT_XML_MESSAGE)
    data = markup.encode("utf-8")  # a lone surrogate raises UnicodeEncodeError, a ValueError
    _check_bytes(data)
    return data


_CHECKED_CHUNK: Final = 1 << 20


def _check_bytes(data: bytes) -> None:
    """Refuse ``data`` if it holds one of :data:`_NOT_XML`, read a megabyte at a time (the
    translated copy stays small)."""
    for start in range(0, len(data), _CHECKED_CHUNK):
        if data[start:start + _CHECKED_CHUNK].translate(_NOT_XML_AS_ZERO).find(0) >= 0:
            raise ValueError(_NOT_XML_MESSAGE)


def encoded_rows(rows: Iterable[str]) -> Encoded:
    """Markup written as many strings (a section's rows, each made as :data:`Html` is) as one
    UTF-8 part of a page, refused as :func:`encoded` refuses: each row is encoded as soon as it
    is made, so the section never exists as one long string (which the first non-ASCII
    character of any row would make two or four bytes a character wide)."""
    rows = list(rows)
    if any("\ufffe" in row or "\uffff" in row for row in rows):  # on the text: 4 times faster than on bytes
        raise ValueError(_NOT_XML_MESSAGE)
    data = b"".join([row.encode("utf-8") for row in rows])  # a lone surrogate raises, as in encoded()
    _check_bytes(data)
    return Encoded(data)


def page_chunks(title: str, style: str, *body: Html | Encoded, lang: str = "en") -> list[bytes]:
    """:func:`page_bytes` as the encoded parts that make it, in order (a large page is written
    part by part, never joined)."""
    if "</" in style:
        raise ValueError("a style sheet must not hold '</'")
    head = f'<head><meta charset="utf-8"><title>{escape(title)}</title><style>{style}</style></head>'
    # Each part is encoded on its own: a part all ASCII is copied as it is, where one string
    # of the page would be widened to two bytes a character by the first "→" of any part,
    # then narrowed again by the encoder.
    return [encoded(f"<!DOCTYPE html>\n<html{attributes({'lang': lang})}>{head}<body>"),
            *[part if isinstance(part, bytes) else encoded(part) for part in body], b"</body></html>"]


def page_bytes(title: str, style: str, *body: Html | Encoded, lang: str = "en") -> bytes:
    """A whole page, ``body`` being the parts of its ``body`` element, as
    ``etree.tostring(E.HTML(E.HEAD(E.META(charset="utf-8"), E.TITLE(title), E.STYLE(style)),
    E.BODY(…), lang=lang), method="html", encoding="utf-8", doctype="<!DOCTYPE html>")``
    writes it. ``style`` is written as it is (the serializer does not escape the text of a
    ``style`` element), so it must not end the element."""
    return b"".join(page_chunks(title, style, *body, lang=lang))
