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
  (:func:`page_bytes`, :func:`encoded`).

These are the rules of libxml2 2.14 (lxml 6.1); the page no longer depends on the libxml2
installed, and ``tests/test_html_text.py`` compares them with whichever lxml is.

How escaping is guaranteed: markup has the type :data:`Html`, which mypy keeps apart from
plain strings (a function taking markup refuses a ``str``). Markup is made by the functions
here, which escape every text and attribute value they are given; a renderer that writes its
many rows itself (the audit report's event log) writes literal tags only, every text through
:func:`escape` and every attribute value through :func:`attribute_value`.
``tests/test_html_text.py`` compares each function with lxml's serializer on hostile texts,
and the audit report, standings page and rating page with the lxml-tree renderer they replace.

>>> element("td", text("a < b & c"), attrs={"class": "num", "title": 'say "hi"'})
'<td class="num" title=\\'say "hi"\\'>a &lt; b &amp; c</td>'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, NewType

__all__ = ["Html", "anchor", "attribute_value", "attributes", "element", "encoded", "escape", "from_tree", "join",
           "page_bytes", "table", "text", "text_element"]

Html = NewType("Html", str)
"""Markup: escaped text and tags, ready to be written into a page."""

VOID: Final = frozenset({"area", "base", "basefont", "br", "col", "frame", "hr", "img", "input", "isindex", "link",
                         "meta", "param"})
"""Elements written without an end tag (libxml2's HTML 4 table)."""

_RAW_TEXT: Final = frozenset({"script", "style"})
_ATTRIBUTE_SPECIAL: Final = re.compile(r"&\{[^}]*\}|<!(?=--).*?-->|[&<>]", re.DOTALL)
_ATTRIBUTE_ESCAPES: Final = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_ANCHOR: Final = re.compile(r"#[A-Za-z0-9_-]*")
_NOT_XML: Final = bytes([*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20)])
_NOT_XML_FOUND: Final = re.compile(b"[" + re.escape(_NOT_XML) + b"]")
"""Finds one of :data:`_NOT_XML` (without copying a page as ``bytes.translate`` would)."""
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
            return full % tuple(map(escape, row))
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
    if _NOT_XML_FOUND.search(data) is not None:
        raise ValueError(_NOT_XML_MESSAGE)
    return data


def page_bytes(title: str, style: str, *body: Html, lang: str = "en") -> bytes:
    """A whole page, ``body`` being the parts of its ``body`` element, as
    ``etree.tostring(E.HTML(E.HEAD(E.META(charset="utf-8"), E.TITLE(title), E.STYLE(style)),
    E.BODY(…), lang=lang), method="html", encoding="utf-8", doctype="<!DOCTYPE html>")``
    writes it. ``style`` is written as it is (the serializer does not escape the text of a
    ``style`` element), so it must not end the element."""
    if "</" in style:
        raise ValueError("a style sheet must not hold '</'")
    head = f'<head><meta charset="utf-8"><title>{escape(title)}</title><style>{style}</style></head>'
    return encoded("".join([f"<!DOCTYPE html>\n<html{attributes({'lang': lang})}>{head}<body>", *body,
                            "</body></html>"]))
