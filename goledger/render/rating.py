"""The rating preview as a text table, CSV or HTML (``goledger rating-preview --format``), and
its section of the audit report (issue 21).

Numbers are the preview's exact decimals shown with 3 decimals (:func:`goledger.rating.gor.shown`).

>>> from decimal import Decimal
>>> from goledger.rating.preview import RatingPreview
>>> empty = RatingPreview(system="gor-2021", egd_class="A", class_source="given", weight=Decimal(1),
...                       options={}, players=())
>>> preview_csv(empty).splitlines()[0]
'id,surname,first_name,grade,egd_pin,rating_before,start,rated_games,change,rating_after,flags'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from goledger.i18n import N_, gettext, pgettext
from goledger.i18n.numbers import decimal
from goledger.outputs import csv_text
from goledger.outputs import shown as safe
from goledger.rating.gor import shown
from goledger.render.html import render

if TYPE_CHECKING:
    from collections.abc import Callable

    from goledger.rating.mge import MgePreview
    from goledger.rating.preview import PlayerPreview, RatingPreview

__all__ = ["HEADERS", "PreviewSection", "mge_text", "not_rated_summary", "preview_csv", "preview_html", "preview_rows",
           "preview_section", "preview_text"]

HEADERS = ["id", "surname", "first_name", "grade", "egd_pin", "rating_before", "start", "rated_games", "change",
           "rating_after", "flags"]
"""Columns of the per-player table (CSV names; the text table uses them too)."""


def _row(p: PlayerPreview) -> list[str]:
    rated = sum(1 for g in p.games if g.rated)
    change = shown(p.change)
    return [safe(p.id), safe(p.surname), safe(p.first_name), safe(p.grade), safe(p.egd_pin), shown(p.rating_before),
            p.start, str(rated), change if change.startswith("-") else f"+{change}", shown(p.rating_after),
            safe("; ".join(p.flags))]


def preview_rows(preview: RatingPreview) -> list[list[str]]:
    """One row of :data:`HEADERS` per player, in the preview's order."""
    return [_row(p) for p in preview.players]


def _caption(preview: RatingPreview) -> str:
    options = ", ".join(f"{k}={v}" for k, v in preview.options.items())
    return (f"{preview.system}: class {preview.egd_class} ({preview.class_source}, weight {preview.weight}); "
            f"{preview.rated_games} rated games; options: {options or 'none'}")


def preview_text(preview: RatingPreview) -> str:
    """An aligned text table: the caption, one line per player, then the not-rated counts."""
    headers = ["id", "name", "grade", "before", "games", "change", "after", "flags"]
    rows = [[r[0], f"{r[1]} {r[2]}".strip(), r[3], r[5], r[7], r[8], r[9], r[10]] for r in preview_rows(preview)]
    right = {3, 4, 5, 6}
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(cells)).rstrip()

    out = [_caption(preview), line(headers), "  ".join("-" * w for w in widths), *(line(r) for r in rows)]
    for reason, n in sorted(not_rated_summary(preview).items()):
        out.append(f"not rated: {reason} ({n})")
    return "\n".join(out)


def mge_text(preview: MgePreview) -> str:
    """An ``mge`` preview as an aligned text table (rating before, after each part, after)."""
    headers = ["id", "name", "rank", "before", "games", "change", "after", "after parts"]
    rows = [[p.id, f"{p.surname} {p.first_name}".strip(), p.rank, str(p.rating_before),
             str(sum(1 for g in p.games if g.rated)), f"{p.rating_after - p.rating_before:+d}", str(p.rating_after),
             " ".join(map(str, p.after_parts))] for p in preview.players]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    right = {3, 4, 5, 6}

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(cells)).rstrip()

    parts = ", ".join(f"{a}–{b}" for a, b in preview.parts)
    caption = (f"mge: constant {preview.parameters['constant']}, rounds in parts {parts}; lower limits, game points "
               "and constant are the caller's parameters (the seed gives none)")
    return "\n".join([caption, line(headers), "  ".join("-" * w for w in widths), *(line(r) for r in rows)])


def preview_csv(preview: RatingPreview) -> str:
    """The per-player table as CSV (a header line, then one line per player)."""

    return csv_text([HEADERS, *preview_rows(preview)])


def not_rated_summary(preview: RatingPreview) -> dict[str, int]:
    """How many games (counted once, not per player) each reason keeps out of the rating."""
    counts: dict[str, int] = {}
    byes: set[str] = set()
    for p in preview.players:
        for g in p.games:
            if not g.rated:
                counts[g.reason] = counts.get(g.reason, 0) + 1
                if g.opponent is None:
                    byes.add(g.reason)
    # a game is listed for both players, a bye for one
    return {reason: (n if reason in byes else (n + 1) // 2) for reason, n in counts.items()}


_HTML_HEADERS: Final = (N_("id"), N_("surname"), N_("first name"), N_("grade"), N_("egd pin"), N_("rating before"),
                        N_("start"), N_("rated games"), N_("change"), N_("rating after"), N_("flags"))
"""The page's column heads (:data:`HEADERS` in words), translated where they are shown."""


def _html_caption(preview: RatingPreview) -> str:
    options = ", ".join(f"{k}={v}" for k, v in preview.options.items())
    return gettext("%(system)s: class %(class)s (%(source)s, weight %(weight)s); %(games)s rated games; "
                   "options: %(options)s") % {
        "system": preview.system, "class": preview.egd_class, "source": _source_word(preview.class_source),
        "weight": decimal(str(preview.weight)), "games": preview.rated_games, "options": options or gettext("none")}


def _source_word(source: str) -> str:
    """Where the EGF class came from, in words: ``given`` (``--class``), the time settings, none."""
    return {"given": pgettext("EGF class from", "given"), "time settings": pgettext("EGF class from", "time settings"),
            "no time settings": pgettext("EGF class from", "no time settings")}.get(source, source)


_START_WORDS: Final[dict[str, Callable[[], str]]] = {
    "grade": lambda: pgettext("start rating from", "grade"), "ledger": lambda: pgettext("start rating from", "ledger"),
    "reset": lambda: pgettext("start rating from", "reset")}


def _start_word(start: str) -> str:
    """Where a start rating came from, in words: the grade, the ledger's rating, a reset (one
    translation looked up per player, not three)."""
    word = _START_WORDS.get(start)
    return word() if word is not None else start


class PreviewSection(NamedTuple):
    """What the HTML ``section`` of a preview shows (``report_tables.html``'s ``rating_section``):
    its caption, column heads and rows as text, and the not-rated counts (empty: none)."""

    caption: str
    headers: list[str]
    rows: list[list[str]]
    not_rated: str


def preview_section(preview: RatingPreview) -> PreviewSection:
    """The preview as the report pages show it: caption, per-player table, not-rated counts
    (in the language written in, its ratings and changes with its decimal separator; the
    reasons and flags are the rating rules' own words)."""
    rows = [[*r[:5], decimal(r[5]), _start_word(r[6]), r[7], decimal(r[8]), decimal(r[9]), r[10]]
            for r in preview_rows(preview)]
    skipped = not_rated_summary(preview)
    return PreviewSection(_html_caption(preview), [gettext(h) for h in _HTML_HEADERS], rows,
                          "; ".join(f"{reason} ({n})" for reason, n in sorted(skipped.items())))


def preview_html(preview: RatingPreview, title: str) -> bytes:
    """The preview as a self-contained HTML page (inline styles, nothing fetched), from the
    template ``rating_preview.html``."""
    return render("rating_preview.html", title=title, section=preview_section(preview)).encode("utf-8")
