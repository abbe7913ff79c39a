"""Drawing a bracket (:class:`goledger.systems.views.BracketView`): as text for the terminal,
and as inline SVG, alone or in a self-contained HTML page (``goledger bracket --format
html``), from the Jinja2 templates ``bracket.html`` and ``bracket_svg.html`` of the one
renderer (:mod:`goledger.render.html`): no script, no font, no link; every name autoescaped.

Each section (the bracket, the winners' and losers' brackets, the grand final, the Paramus
ladder) is a row of columns, one per round; a box is one match, the winner in bold. When a
column has half the boxes of the one before (a knockout's next round), lines join each pair
of matches to the match their winners play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import msgspec
from markupsafe import Markup

from goledger.i18n import gettext
from goledger.outputs import shown_deep

if TYPE_CHECKING:
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


def layout(section: Section) -> dict[str, Any]:
    """Where :file:`bracket_svg.html` draws ``section``: its size, and per column its label's and
    boxes' coordinates (as the text written into the SVG) and the lines joining each pair of
    matches to the next round's match when the column has half the boxes of the one before."""
    counts = [max(1, len(c.boxes)) for c in section.columns] or [1]
    height = max(counts) * (BOX_H + GAP_Y) + GAP_Y + 20
    width = len(section.columns) * (BOX_W + GAP_X) + GAP_X
    bye = f"({gettext('bye')})"
    columns: list[dict[str, Any]] = []
    centres: list[list[float]] = []
    for c, col in enumerate(section.columns):
        x = GAP_X // 2 + c * (BOX_W + GAP_X)
        step = (height - 20) / max(1, len(col.boxes))
        mids: list[float] = []
        boxes = []
        for i, box in enumerate(col.boxes):
            mid = 20 + step * (i + 0.5)
            mids.append(mid)
            top = mid - BOX_H / 2
            sides = [{"y": f"{top + 14 + j * 18:.1f}", "text": text[:34], "won": won}
                     for j, (text, won) in enumerate(((box.top or bye, box.winner == 0),
                                                      (box.bottom or bye, box.winner == 1)))]
            boxes.append({"top": f"{top:.1f}", "mid": f"{mid:.1f}", "sides": sides, "note": box.note,
                          "note_y": f"{top + 14:.1f}"})
        joins = []
        if c and len(section.columns[c - 1].boxes) == 2 * len(col.boxes):
            prev_x = x - GAP_X
            for i, mid in enumerate(mids):
                for prev in centres[c - 1][2 * i: 2 * i + 2]:
                    joins.append(f"{prev_x},{prev:.1f} {prev_x + GAP_X / 2:.1f},{prev:.1f} "
                                 f"{prev_x + GAP_X / 2:.1f},{mid:.1f} {x},{mid:.1f}")
        columns.append({"x": x, "right": x + BOX_W, "text_x": x + 5, "note_x": x + BOX_W - 4, "label": col.label,
                        "boxes": boxes, "joins": joins})
        centres.append(mids)
    return {"name": section.name, "width": width, "height": height, "columns": columns}


def bracket_svg(view: BracketView) -> Markup:
    """Every section as an ``<h2>`` and an inline ``<svg>`` (template ``bracket_svg.html``,
    autoescaped), as markup to write into a page."""
    # Jinja2 loads late: only an HTML output needs it
    from goledger.render.html import render

    return Markup(render("bracket_svg.html", sections=[layout(s) for s in view.sections], box_w=BOX_W,
                         box_h=BOX_H))


def _shown(value: Any) -> Any:
    """``value`` (a msgspec struct) with every text in it shown safely
    (:func:`goledger.outputs.shown`): an older ledger's name holding ESC, NUL or a bidi
    override — is written as escapes."""
    return msgspec.convert(shown_deep(msgspec.to_builtins(value)), type(value))


def bracket_page(view: BracketView) -> bytes:
    """The bracket as a self-contained HTML page (template ``bracket.html``; every text shown
    safely first, so that a name cut to fit its box is cut after its escapes)."""
    from goledger.render.html import render

    view = _shown(view)
    return render("bracket.html", title=f"{view.title}: {view.system}", champion=_champion(view),
                  as_of=_as_of(view.as_of_seq), sections=[layout(s) for s in view.sections], box_w=BOX_W,
                  box_h=BOX_H).encode("utf-8")


def places_page(places: Any, title: str) -> bytes:
    """A system's places (:class:`goledger.systems.common.Places`) as a self-contained page,
    from the Jinja2 template ``places.html`` (autoescaped; a text holding a control character
    is shown as its escapes, :func:`goledger.render.html.shown_text`)."""
    from goledger.render.html import render

    return render("places.html", title=title, places=places).encode("utf-8")
