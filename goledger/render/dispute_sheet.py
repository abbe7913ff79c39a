"""The dispute sheet (issue 42, item 4) as HTML — one printable A4 page, template
``dispute_sheet.html`` with the one stylesheet — or as text for the terminal. The data is
:class:`goledger.audit.disputes.DisputeSheet`; ``--json`` prints its ``to_dict()``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from goledger.i18n import gettext
from goledger.outputs import shown

if TYPE_CHECKING:
    from goledger.audit.disputes import DisputeSheet, SheetRow

__all__ = ["render_html", "render_text"]


def render_html(sheet: DisputeSheet) -> bytes:
    """The sheet as a self-contained HTML page (print media: one A4 page)."""
    # Jinja2 loads late: only an HTML output needs it
    from goledger.render.html import render

    return render("dispute_sheet.html", s=sheet, w=sheet.what_if, paper="portrait").encode("utf-8")


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    return ["  ".join(c.ljust(widths[i]) if i == 1 else c.rjust(widths[i]) for i, c in enumerate(cells)).rstrip()
            for cells in (headers, *rows)]


def _around(rows: list[SheetRow], criteria: tuple[str, ...]) -> list[list[str]]:
    return [[("> " if r.mark else "") + str(r.place), shown(r.name), *(r.values[c] for c in criteria)] for r in rows]


def render_text(sheet: DisputeSheet) -> str:
    """The sheet as lines for a terminal (names made safe to print, :func:`goledger.outputs.shown`)."""
    w = sheet.what_if
    place = "–" if sheet.place is None else str(sheet.place)
    lines = [gettext("Dispute sheet: %(player)s, place %(place)s after round %(round)d (without the event: "
                     "%(hypo)s)") % {"player": shown(sheet.name), "place": place, "round": sheet.round,
                                      "hypo": "–" if sheet.place_without is None else sheet.place_without},
             "", shown(w.what),
             gettext("Recorded at %(time)s by %(actor)s.") % {"time": w.recorded_at[:19].replace("T", " "),
                                                              "actor": shown(w.actor) or "–"}]
    if w.reason:
        lines.append(gettext("Reason given: %(reason)s") % {"reason": shown(w.reason)})
    lines += [shown(t) for t in (w.rule, sheet.relation, w.note) if t]
    head = [gettext("Place"), gettext("Player"), *sheet.criteria]
    lines += ["", gettext("As recorded"), *_table(head, _around(sheet.real, sheet.criteria)),
              "", gettext("Without the event"), *_table(head, _around(sheet.without, sheet.criteria)), "",
              gettext("Values term by term")]
    terms = [[gettext("start") if t.round is None else str(t.round), shown(t.opponent),
              "" if t.opponent_place is None else str(t.opponent_place), *(t.terms.get(c, "") for c in sheet.criteria)]
             for t in sheet.terms]
    terms.append([gettext("Total"), "", "", *(sheet.values.get(c, "") for c in sheet.criteria)])
    lines += _table([gettext("Round"), gettext("Opponent"), gettext("Opponent's place"), *sheet.criteria], terms)
    lines += ["", gettext("The ledger %(file)s held %(count)d events; the last one's hash is") % {
        "file": shown(sheet.ledger), "count": sheet.head_seq} + " " + sheet.head_hash,
        gettext("Anyone can re-check every number on this sheet from that file with: goledger verify")]
    return "\n".join(lines)
