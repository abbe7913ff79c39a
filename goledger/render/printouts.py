"""Printouts as text, CSV, HTML or JSON: the renderers shared by the command line and the
desk (issue 20, item 1).

Each printout of :mod:`goledger.replay.scoring.printouts` (and the crosstable) becomes a
:class:`Sheet` — a title, column headers, rows of cell text, a legend — and a sheet is written
in one of :data:`FORMATS`. HTML pages come from the templates of the one renderer
(:mod:`goledger.render.html`) and are self-contained: they carry the one stylesheet
(``templates/goledger.css``), whose print rules give A4 portrait (landscape for a wide wall
list), black on white, the table header repeated on every page, rows never split, no
navigation printed.

>>> sheet = Sheet(title="Cup · pairings of round 1 of 3", headers=("Table", "White"), rows=[["1", "Sato Ken"]],
...               right=frozenset({0}))
>>> print(render_text(sheet))
Cup · pairings of round 1 of 3
Table  White
-----  --------
    1  Sato Ken
>>> render_csv(sheet)
'Table,White\\n1,Sato Ken\\n'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n import gettext, ngettext, pgettext
from goledger.i18n.numbers import decimal, numeric_date
from goledger.ledger.values import format_points
from goledger.outputs import csv_text, shown

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping, Sequence

__all__ = [
    "FORMATS",
    "Sheet",
    "crosstable_sheet",
    "pairing_by_name_sheet",
    "pairing_sheet",
    "player_sheet",
    "printable",
    "render",
    "render_csv",
    "render_html",
    "render_slips",
    "render_text",
    "round_header",
    "shown_sheet",
    "wall_sheet",
]

FORMATS: Final = ("table", "csv", "html", "json")

PORTRAIT_ROUNDS: Final = 6
"""A wall list with more rounds than this is printed in landscape."""


class Sheet(msgspec.Struct, frozen=True, kw_only=True):
    """A printout ready to render: ``right`` holds the indexes of right-aligned columns;
    ``sections`` are extra titled tables (the bye and the players not paired)."""

    title: str
    subtitle: str = ""
    headers: tuple[str, ...]
    rows: list[list[str]]
    right: frozenset[int] = frozenset()
    legend: tuple[tuple[str, str], ...] = ()
    sections: tuple[tuple[str, tuple[str, ...], list[list[str]]], ...] = ()
    nowrap: frozenset[int] = frozenset()
    """Columns whose cells never wrap (names and clubs stay on one line)."""
    landscape: bool = False
    """Printed on A4 landscape (a wall list with more than :data:`PORTRAIT_ROUNDS` rounds)."""


def _text_table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: frozenset[int]) -> list[str]:
    widths = [len(h) for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.rjust(widths[i]) if i in right else c.ljust(widths[i])
                         for i, c in enumerate(cells)).rstrip()

    return [line(headers), "  ".join("-" * w for w in widths), *(line(r) for r in rows)]


def render_text(sheet: Sheet) -> str:
    """An aligned text table with the title, the subtitle, the sections and the legend."""
    out = [sheet.title]
    if sheet.subtitle:
        out.append(sheet.subtitle)
    out += _text_table(sheet.headers, sheet.rows, sheet.right)
    for title, headers, rows in sheet.sections:
        if rows:
            out += ["", title, *_text_table(headers, rows, frozenset())]
    if sheet.legend:
        out += ["", gettext("Legend: %(items)s") % {
            "items": "; ".join(f"{code} {gettext(meaning)}" for code, meaning in sheet.legend)}]
    return "\n".join(out)


def render_csv(sheet: Sheet) -> str:
    """The main table as CSV (header line, one line per row; no title, no legend)."""

    return csv_text([sheet.headers, *sheet.rows])


def paper(sheet: Sheet) -> str:
    """The printed page of ``sheet`` (the stylesheet's ``paper``): ``landscape`` when the sheet
    asks for it, else ``portrait``."""
    return "landscape" if sheet.landscape else "portrait"


def column_classes(rows: Sequence[Sequence[str]], right: Collection[int], nowrap: Collection[int]) -> list[str]:
    """Each column's class in :file:`sheet.html`: ``num`` for a right-aligned column, ``nowrap``
    for one that never wraps, else none; as many as the longest row has cells."""
    width = max((len(r) for r in rows), default=0)
    return ["num" if i in right else "nowrap" if i in nowrap else "" for i in range(width)]


def render_html(sheet: Sheet) -> bytes:
    """A self-contained page of ``sheet`` (template ``sheet.html`` of the one renderer,
    :mod:`goledger.render.html`: the CLI's ``--format html`` and the desk's print pages)."""
    # Jinja2 and the scoring load late: a text printout of a sheet in hand needs neither
    from goledger.render.html import render as render_template

    return render_template("sheet.html", sheet=sheet, title=sheet.title, paper=paper(sheet),
                           column_classes=column_classes, zip=zip).encode("utf-8")


def shown_sheet(sheet: Sheet) -> Sheet:
    """``sheet`` with every text made safe to show (:func:`goledger.outputs.shown`): a name an
    older ledger holds with ESC, BEL, NUL or a bidi override — what the domains refuse today —
    is written as escapes, so it can neither drive a terminal nor break an HTML page."""

    def cells(rows: Sequence[Sequence[str]]) -> list[list[str]]:
        return [[c if c.isprintable() else shown(c) for c in row] for row in rows]

    texts = [sheet.title, sheet.subtitle, *sheet.headers, *(c for row in sheet.rows for c in row),
             *(t for pair in sheet.legend for t in pair),
             *(t for title, headers, rows in sheet.sections for t in (title, *headers, *(c for r in rows for c in r)))]
    if all(t.isprintable() for t in texts):
        return sheet
    return msgspec.structs.replace(
        sheet, title=shown(sheet.title), subtitle=shown(sheet.subtitle), headers=tuple(map(shown, sheet.headers)),
        rows=cells(sheet.rows), legend=tuple((shown(a), shown(b)) for a, b in sheet.legend),
        sections=tuple((shown(title), tuple(map(shown, headers)), cells(rows))
                       for title, headers, rows in sheet.sections))


def render(sheet: Sheet, fmt: str, data: dict[str, Any] | None = None) -> bytes:
    """``sheet`` in ``fmt`` (one of :data:`FORMATS`) as UTF-8 bytes; ``json`` writes ``data``.
    Text, CSV and HTML show every text safely (:func:`shown_sheet`, :func:`goledger.outputs.csv_text`)."""
    if fmt == "table":
        return (render_text(shown_sheet(sheet)) + "\n").encode("utf-8")
    if fmt == "csv":
        return render_csv(sheet).encode("utf-8")
    if fmt == "html":
        return render_html(shown_sheet(sheet))
    if fmt == "json":
        return msgspec.json.format(msgspec.json.encode(data if data is not None else {}), indent=2) + b"\n"
    raise CommandRejected(f"unknown format {fmt!r}; use {', '.join(FORMATS)}")


# --------------------------------------------------------------------------- the printouts


def pairing_sheet(pairings: Any) -> Sheet:
    """:class:`~goledger.replay.scoring.printouts.PairingList` as a sheet."""

    rows = [[str(r.table), r.white, r.white_rank, r.black, r.black_rank, str(r.handicap), decimal(r.komi), r.result]
            for r in pairings.rows]
    sections = (
        (gettext("Bye"), (gettext("Id"), gettext("Name")), [[pid, name] for pid, name in pairings.bye]),
        (gettext("Not paired"), (gettext("Id"), gettext("Name"), gettext("Why")),
         [[pid, name, why] for pid, name, why in pairings.unpaired]),
    )
    return Sheet(title=pairings.title, subtitle=_as_of(pairings.as_of_seq),
                 headers=(gettext("Table"), gettext("White"), gettext("Rank"), gettext("Black"), gettext("Rank"),
                          pgettext("short for handicap", "H"), gettext("Komi"), gettext("Result")), rows=rows,
                 right=frozenset({0, 2, 4, 5, 6}), legend=_pairing_legend(), sections=sections,
                 nowrap=frozenset({1, 3}))


def pairing_by_name_sheet(pairings: Any) -> Sheet:
    """:class:`~goledger.replay.scoring.printouts.PairingList` for the wall, by name: every player in
    alphabetical order (accents and case ignored) with his table, colour and opponent, so
    that a player finds his table without reading the whole list."""
    from goledger.replay.fold.players import match_key

    lines = []
    for r in pairings.rows:
        lines.append((r.white, r.white_rank, r.table, gettext("white"), r.black, r.black_rank, r.handicap, r.komi))
        lines.append((r.black, r.black_rank, r.table, gettext("black"), r.white, r.white_rank, r.handicap, r.komi))
    lines.sort(key=lambda line: (match_key(line[0]), line[0], line[2]))
    rows = [[name, rank, str(table), colour, opponent, orank, str(h), decimal(komi)]
            for name, rank, table, colour, opponent, orank, h, komi in lines]
    for _, name in pairings.bye:
        rows.append([name, "", "", gettext("bye"), "", "", "", ""])
    for _, name, why in pairings.unpaired:
        rows.append([name, "", "", gettext(why), "", "", "", ""])
    rows.sort(key=lambda row: (match_key(row[0]), row[0]))
    title = gettext("%(tournament)s · pairings of round %(round)d of %(rounds)d by name") % {
        "tournament": pairings.tournament, "round": pairings.round, "rounds": pairings.rounds}
    return Sheet(title=title, subtitle=_as_of(pairings.as_of_seq),
                 headers=(gettext("Name"), gettext("Rank"), gettext("Table"), gettext("Colour"), gettext("Opponent"),
                          gettext("Rank"), pgettext("short for handicap", "H"), gettext("Komi")),
                 rows=rows, right=frozenset({1, 2, 5, 6, 7}), legend=_pairing_legend(),
                 nowrap=frozenset({0, 4}))


SLIPS_PER_PAGE: Final = (4, 8)

def printable(text: str) -> str:
    """``text`` as a page shows it: an older ledger's control characters written as escapes."""

    return text if text.isprintable() else shown(text)


def render_slips(pairings: Any, per_page: int = 4, links: Mapping[str, Any] | None = None) -> bytes:
    """Result slips of a round, ``per_page`` (4 or 8) to an A4 sheet: the table number big,
    the round, both players with their ranks and colours, handicap, komi and boxes to tick
    the result (template ``slips.html``); with ``links`` (player id →
    :class:`goledger.render.welcome.KeyLink`, issue 46) each player's personal link as a QR
    code and as text."""
    from markupsafe import Markup  # Jinja2's own, loaded with it

    from goledger.render.html import render as render_template

    if per_page not in SLIPS_PER_PAGE:
        raise CommandRejected(f"{per_page} slips per page: print 4 or 8 to an A4 sheet")
    safe = printable
    rows = [msgspec.structs.replace(r, white=safe(r.white), black=safe(r.black)) for r in pairings.rows]
    tournament = safe(pairings.tournament)
    title = gettext("%(tournament)s · result slips of round %(round)d") % {"tournament": tournament,
                                                                          "round": pairings.round}
    shown_links = {pid: {"qr": Markup(link.qr), "link": link.link, "name": safe(link.name)}  # segno's SVG
                   for pid, link in (links or {}).items()}
    return render_template("slips.html", title=title, tournament=tournament, round=pairings.round,
                           rows=rows, per_page=per_page, paper="slips", links=shown_links).encode("utf-8")


def _as_of(seq: int) -> str:
    return gettext("as of event %(seq)d") % {"seq": seq}


def _policy_as_of(policy: str, seq: int) -> str:
    return gettext("policy %(policy)s · as of event %(seq)d") % {"policy": policy, "seq": seq}


def round_header(round_: int) -> str:
    """A round's column head in a wall list or crosstable: ``R1`` (Turkish ``1.Tur``)."""
    return pgettext("column head of round N", "R%(round)d") % {"round": round_}


def _round_ranges(rounds: list[int]) -> str:
    """``[1, 2, 3, 5]`` → ``"1–3,5"``.

    >>> _round_ranges([1, 2, 3, 5])
    '1–3,5'
    """
    parts: list[str] = []
    i = 0
    while i < len(rounds):
        j = i
        while j + 1 < len(rounds) and rounds[j + 1] == rounds[j] + 1:
            j += 1
        parts.append(str(rounds[i]) if i == j else f"{rounds[i]}–{rounds[j]}")
        i = j + 1
    return ",".join(parts)


def _pairing_legend() -> tuple[tuple[str, str], ...]:
    """The pairing list's legend with the handicap column's letter as its header writes it
    (Hungarian ``E``, not ``H``); the result notation stays as it is."""
    from goledger.replay.scoring.printouts import PAIRING_LEGEND

    letter = pgettext("short for handicap", "H")
    return tuple((letter if code == "H" else code, meaning) for code, meaning in PAIRING_LEGEND)


def player_sheet(players: Any) -> Sheet:
    """:class:`~goledger.replay.scoring.printouts.PlayerList` as a sheet."""
    from goledger.replay.scoring.printouts import registration_text

    def rounds(row: Any) -> str:
        if len(row.plays) == players.rounds:
            return pgettext("plays in rounds", "all")
        parts = [(pgettext("player's rounds", "plays %(rounds)s"), row.plays),
                 (pgettext("player's rounds", "bye %(rounds)s"), row.byes),
                 (pgettext("player's rounds", "absent %(rounds)s"), row.absent),
                 (pgettext("player's rounds", "withdrawn %(rounds)s"), row.withdrawn),
                 (pgettext("player's rounds", "not paired %(rounds)s"), row.not_paired)]
        return " · ".join(words % {"rounds": _round_ranges(found)} for words, found in parts if found) or pgettext(
            "plays in rounds", "none")

    def pin(r: Any) -> str:
        return r.egd_pin + " " + gettext("(not in list)") if r.egd_pin and r.pin_in_list is False else r.egd_pin

    def rank_from(r: Any) -> str:  # "egd 2019-02-22": the list, its date in the page's numeric form
        source = getattr(r, "rank_source", "given")
        if source == "given":
            return gettext("given")
        name, _, day = source.partition(" ")
        return f"{name} {numeric_date(day)}".strip()

    rows = [[r.player_id, f"{r.surname} {r.first_name}".strip(), r.rank, rank_from(r), r.country, r.club, pin(r),
             registration_text(r.registration), r.status, rounds(r)] for r in players.rows]
    subtitle = ngettext("%(n)d round · as of event %(seq)d", "%(n)d rounds · as of event %(seq)d",
                        players.rounds) % {"n": players.rounds, "seq": players.as_of_seq}
    return Sheet(title=players.title, subtitle=subtitle,
                 headers=(gettext("Id"), gettext("Name"), gettext("Rank"), gettext("Rank from"), gettext("Country"),
                          gettext("Club"), gettext("EGD PIN"), gettext("Registration"), gettext("Status"),
                          gettext("Rounds")), rows=rows, right=frozenset({2}))


def wall_sheet(wall: Any) -> Sheet:
    """:class:`~goledger.replay.scoring.printouts.WallList` as a sheet."""
    from goledger.replay.scoring.printouts import WALL_LEGEND

    rows = []
    previous = None
    for r in wall.rows:
        rows.append([str(r.number), str(r.place) if r.place != previous else "", r.name, r.rank, r.country, r.club,
                     *r.cells, *(format_points(r.values[c], wall.scales[c]) or "0" for c in wall.criteria),
                     r.status])
        previous = r.place
    rounds = [round_header(i) for i in range(1, wall.round + 1)]
    width = 6 + len(rounds)
    return Sheet(title=wall.title, subtitle=_policy_as_of(wall.policy, wall.as_of_seq),
                 headers=(pgettext("line number", "Num"), pgettext("short for place", "Pl"), gettext("Name"),
                          gettext("Rank"), pgettext("short for country", "Co"), gettext("Club"), *rounds,
                          *wall.criteria, gettext("Status")), rows=rows,
                 right=frozenset({0, 1, 3, *range(6, width + len(wall.criteria))}), legend=WALL_LEGEND,
                 nowrap=frozenset({2, 5, *range(6, width)}), landscape=wall.round > PORTRAIT_ROUNDS)


def crosstable_sheet(table: Any, tournament: str) -> Sheet:
    """:class:`~goledger.replay.scoring.crosstable.Crosstable` as a sheet, with its legend."""
    from goledger.replay.scoring.crosstable import LEGEND

    rows = []
    previous = None
    for r in table.rows:
        rows.append([str(r.number), str(r.place) if r.place != previous else "", r.name, *r.cells,
                     format_points(r.score2, 2) or "0",
                     *(format_points(r.values[c], table.scales[c]) or "0" for c in table.criteria)])
        previous = r.place
    width = 3 + len(table.columns)
    if table.round_robin:
        title = gettext("%(tournament)s · crosstable after round %(round)d (round robin)")
    else:
        title = gettext("%(tournament)s · crosstable after round %(round)d (by round)")
    columns = [round_header(int(c[1:])) if c[:1] == "R" and c[1:].isdigit() else c for c in table.columns]
    return Sheet(title=title % {"tournament": tournament, "round": table.round},
                 subtitle=_policy_as_of(table.policy, table.as_of_seq),
                 headers=(pgettext("line number", "No"), pgettext("short for place", "Pl"), gettext("Name"), *columns,
                          pgettext("short for points", "Pts"), *table.criteria), rows=rows,
                 right=frozenset({0, 1, *range(3, width + 1 + len(table.criteria))}), legend=LEGEND)
