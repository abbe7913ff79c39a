"""Drawing a bracket (:class:`goledger.systems.views.BracketView`): as text for the terminal,
and as inline SVG, alone or in a self-contained HTML page (``goledger bracket --format
html``): no script, no font, no link; every name goes through lxml's serializer, which
escapes it.

Each section (the bracket, the winners' and losers' brackets, the grand final, the Paramus
ladder) is a row of columns, one per round; a box is one match, the winner in bold. When a
column has half the boxes of the one before (a knockout's next round), lines join each pair
of matches to the match their winners play.
"""

from __future__ import annotations

from typing import Any, Final

from lxml import etree
from lxml.html import builder as E

from goledger.i18n import current_language, gettext
from goledger.render.html import stylesheet
from goledger.systems.views import BracketView, Section

__all__ = ["bracket_page", "bracket_svg", "bracket_text", "places_page"]

BOX_W: Final = 210
BOX_H: Final = 38
GAP_X: Final = 40
GAP_Y: Final = 14

def bracket_text(view: BracketView) -> str:
    """The bracket as plain text, round by round."""
    lines = [f"{view.title} · {view.system} · {_as_of(view.as_of_seq)}"]
    for section in view.sections:
        lines.append("")
        lines.append(section.name)
        for col in section.columns:
            lines.append(f"  {col.label}")
            for box in col.boxes:
                top = ("» " if box.winner == 0 else "  ") + (box.top or f"({gettext('bye')})")
                bottom = ("» " if box.winner == 1 else "  ") + (box.bottom or f"({gettext('bye')})")
                note = f"  ({box.note})" if box.note else ""
                lines.append(f"    {top}  –  {bottom.strip() if box.winner != 1 else bottom}{note}")
    lines.append("")
    lines.append(_champion(view))
    return "\n".join(lines)


def _as_of(seq: int) -> str:
    return gettext("as of event %(seq)d") % {"seq": seq}


def _champion(view: BracketView) -> str:
    if view.champion:
        return gettext("Champion: %(name)s") % {"name": view.champion}
    return gettext("Champion: not decided yet")


def _section_svg(section: Section) -> Any:
    counts = [max(1, len(c.boxes)) for c in section.columns] or [1]
    height = max(counts) * (BOX_H + GAP_Y) + GAP_Y + 20
    width = len(section.columns) * (BOX_W + GAP_X) + GAP_X
    svg = etree.Element("svg", width=str(width), height=str(height),
                        viewBox=f"0 0 {width} {height}", role="img")
    etree.SubElement(svg, "title").text = section.name
    centres: list[list[float]] = []
    for c, col in enumerate(section.columns):
        x = GAP_X // 2 + c * (BOX_W + GAP_X)
        label = etree.SubElement(svg, "text", x=str(x), y="12")
        label.text = col.label
        step = (height - 20) / max(1, len(col.boxes))
        mids: list[float] = []
        for i, box in enumerate(col.boxes):
            mid = 20 + step * (i + 0.5)
            mids.append(mid)
            top = mid - BOX_H / 2
            etree.SubElement(svg, "rect", x=str(x), y=f"{top:.1f}", width=str(BOX_W), height=str(BOX_H),
                             fill="#fafafa", stroke="#999")
            etree.SubElement(svg, "line", x1=str(x), x2=str(x + BOX_W), y1=f"{mid:.1f}", y2=f"{mid:.1f}",
                             stroke="#ddd")
            bye = f"({gettext('bye')})"
            for j, (text, won) in enumerate(((box.top or bye, box.winner == 0), (box.bottom or bye, box.winner == 1))):
                t = etree.SubElement(svg, "text", x=str(x + 5), y=f"{top + 14 + j * 18:.1f}")
                if won:
                    t.set("font-weight", "bold")
                t.text = text[:34]
            if box.note:
                n = etree.SubElement(svg, "text", x=str(x + BOX_W - 4), y=f"{top + 14:.1f}", fill="#777")
                n.set("text-anchor", "end")
                n.text = box.note
        if c and len(section.columns[c - 1].boxes) == 2 * len(col.boxes):
            prev_x = x - GAP_X
            for i, mid in enumerate(mids):
                for prev in centres[c - 1][2 * i: 2 * i + 2]:
                    etree.SubElement(svg, "polyline", fill="none", stroke="#777", points=(
                        f"{prev_x},{prev:.1f} {prev_x + GAP_X / 2:.1f},{prev:.1f} "
                        f"{prev_x + GAP_X / 2:.1f},{mid:.1f} {x},{mid:.1f}"))
        centres.append(mids)
    return svg


def bracket_svg(view: BracketView) -> list[Any]:
    """One ``<svg>`` element per section (headed by an ``<h2>``)."""
    out: list[Any] = []
    for section in view.sections:
        out.append(E.H2(section.name))
        out.append(_section_svg(section))
    return out


def _shown(value: Any) -> Any:
    """``value`` (a msgspec struct) with every text in it shown safely
    (:func:`goledger.outputs.shown`): an older ledger's name holding ESC, NUL or a bidi
    override — which lxml refuses — is written as escapes."""
    import msgspec

    from goledger.outputs import shown_deep

    return msgspec.convert(shown_deep(msgspec.to_builtins(value)), type(value))


def bracket_page(view: BracketView) -> bytes:
    """The bracket as a self-contained HTML page (every text shown safely)."""
    view = _shown(view)
    title = f"{view.title}: {view.system}"
    body = E.BODY(E.H1(title), E.P(_champion(view), f" · {_as_of(view.as_of_seq)}"), *bracket_svg(view))
    head = E.HEAD(E.META(charset="utf-8"), E.TITLE(title), E.STYLE(stylesheet()))
    document = E.HTML(head, body, lang=current_language())
    data: bytes = etree.tostring(document, method="html", encoding="utf-8", doctype="<!DOCTYPE html>")
    return data


def places_page(places: Any, title: str) -> bytes:
    """A system's places (:class:`goledger.systems.common.Places`) as a self-contained page,
    from the Jinja2 template ``places.html`` (autoescaped; a text holding a control character
    is shown as its escapes, :func:`goledger.render.html.shown_text`)."""
    from goledger.render.html import render

    return render("places.html", title=title, places=places).encode("utf-8")
