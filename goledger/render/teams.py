"""The team printouts (issue 30, item 4) as text, CSV, HTML (through the Jinja2 renderer of
:mod:`goledger.render.html`, with its one stylesheet) or JSON: the team pairing list, the result
sheet of every match (one per page when printed), the team standings and the team crosstable.

>>> from goledger.teams.printouts import TeamPairingList
>>> empty = TeamPairingList(tournament="League", round=1, rounds=3, as_of_seq=9, matches=(), idle=())
>>> print(render_team(pairing_sections(empty), "table").decode().rstrip())
League · team pairings of round 1 of 3
as of event 9
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from goledger.errors import CommandRejected
from goledger.render.html import gettext as _
from goledger.render.html import render as render_template
from goledger.render.printouts import FORMATS, Sheet, render_csv, render_text, shown_sheet

if TYPE_CHECKING:
    from collections.abc import Sequence

    from goledger.teams.printouts import TeamPairingList
    from goledger.teams.standings import TeamStandings

__all__ = ["TeamPrintout", "crosstable_sections", "pairing_sections", "render_team", "result_sheet_sections",
           "standings_sections"]

class Section(msgspec.Struct, frozen=True, kw_only=True):
    title: str
    headers: tuple[str, ...]
    rows: list[list[str]]
    right: frozenset[int] = frozenset()
    team_a: str = ""
    team_b: str = ""


class TeamPrintout(msgspec.Struct, frozen=True, kw_only=True):
    """A printout of titled tables; ``sheets``: each section is a match's result sheet."""

    title: str
    subtitle: str = ""
    sections: tuple[Section, ...] = ()
    notes: str = ""
    sheets: bool = False
    data: dict[str, Any] = msgspec.field(default_factory=dict)


_BOARD_HEADERS = ("Board", "Table", "White", "Rank", "Black", "Rank", "H", "Result")


def _board_rows(match: Any) -> list[list[str]]:
    return [[str(b.board), str(b.table or ""), b.white, b.white_rank, b.black, b.black_rank, str(b.handicap),
             b.result] for b in match.boards]


def pairing_sections(plist: TeamPairingList) -> TeamPrintout:
    """The team pairing list: match by match, boards in order, with their tables."""
    sections = []
    for m in plist.matches:
        score = f" ({m.score_a} – {m.score_b})" if any(b.result for b in m.boards) else ""
        sections.append(Section(title=f"{m.team_a} – {m.team_b}{score}", headers=tuple(_(h) for h in _BOARD_HEADERS),
                                rows=_board_rows(m), right=frozenset({0, 1, 3, 5, 6}), team_a=m.team_a,
                                team_b=m.team_b))
    notes = (_("Not playing") + ": " + ", ".join(plist.idle)) if plist.idle else ""
    return TeamPrintout(title=f"{plist.tournament} · " + _("team pairings of round {r} of {n}").format(
        r=plist.round, n=plist.rounds), subtitle=_("as of event {seq}").format(seq=plist.as_of_seq),
        sections=tuple(sections), notes=notes, data=plist.to_dict())


def result_sheet_sections(plist: TeamPairingList) -> TeamPrintout:
    """One result sheet per match: the boards, an empty result column to fill in, signatures."""
    base = pairing_sections(plist)
    sections = tuple(msgspec.structs.replace(s, title=f"{s.team_a} – {s.team_b}",
                                             rows=[[*r[:-1], r[-1] or "      "] for r in s.rows])
                     for s in base.sections)
    return msgspec.structs.replace(base, title=f"{plist.tournament} · " + _("team result sheets, round {r}").format(
        r=plist.round), sections=sections, sheets=True)


def standings_sections(standings: TeamStandings, data: dict[str, Any], tournament: str) -> TeamPrintout:
    """The team standings with the half-match columns."""
    crit = [c for c in standings.criteria if c != "NULL"]
    rows = []
    for row in standings.rows:
        shown = [s for c, s in zip(standings.criteria, standings.shown(row), strict=True) if c != "NULL"]
        rows.append([row.place_shown, row.name, *shown, *row.half_matches])
    headers = (_("Pl"), _("Team"), *crit, *[f"R{k}" for k in range(1, standings.round + 1)])
    return TeamPrintout(title=f"{tournament} · " + _("team standings after round {r}").format(r=standings.round),
                        subtitle=_("policy {p}").format(p=standings.policy),
                        sections=(Section(title="", headers=headers, rows=rows,
                                          right=frozenset({0, *range(2, 2 + len(crit))})),), data=data)


def crosstable_sections(data: dict[str, Any]) -> TeamPrintout:
    """The team crosstable: rows and columns in standings order."""
    names = [t["name"] for t in data["teams"]]
    rows = [[t["place"], t["name"], *t["cells"]] for t in data["teams"]]
    headers = (_("Pl"), _("Team"), *[str(k) for k in range(1, len(names) + 1)])
    rows = [[r[0], f"{k}. {r[1]}", *r[2:]] for k, r in enumerate(rows, start=1)]
    return TeamPrintout(title=f"{data['tournament']} · " + _("team crosstable after round {r}").format(
        r=data["round"]), sections=(Section(title="", headers=headers, rows=rows, right=frozenset({0})),),
        notes=_("Each cell: the row team's board wins, +/=/- for its team score, and the round."), data=data)


def _as_sheet(printout: TeamPrintout, section: Section) -> Sheet:
    return Sheet(title=section.title or printout.title, headers=section.headers, rows=section.rows,
                 right=section.right)


def render_team(printout: TeamPrintout, fmt: str) -> bytes:
    """``printout`` in ``fmt`` (``table``, ``csv``, ``html`` or ``json``) as UTF-8 bytes."""
    if fmt not in FORMATS:
        raise CommandRejected(f"unknown format {fmt!r}; use {', '.join(FORMATS)}")
    if fmt == "json":
        return msgspec.json.format(msgspec.json.encode(printout.data), indent=2) + b"\n"
    if fmt == "html":
        return render_template("team_printout.html", title=printout.title, subtitle=printout.subtitle,
                               sections=printout.sections, notes=printout.notes, sheets=printout.sheets).encode("utf-8")
    if fmt == "csv":
        rows: list[list[str]] = []
        headers: Sequence[str] = ()
        for s in printout.sections:
            headers = ("Match", *s.headers) if len(printout.sections) > 1 or s.title else s.headers
            rows += [[s.title, *r] if headers[0] == "Match" else r for r in s.rows]
        return render_csv(Sheet(title=printout.title, headers=tuple(headers), rows=rows)).encode("utf-8")
    out = [printout.title]
    if printout.subtitle:
        out.append(printout.subtitle)
    for s in printout.sections:
        out += ["", render_text(shown_sheet(_as_sheet(printout, s)))] if s.title else [
            render_text(shown_sheet(_as_sheet(printout, s))).split("\n", 1)[1]]
    if printout.notes:
        out += ["", printout.notes]
    return ("\n".join(out) + "\n").encode("utf-8")
