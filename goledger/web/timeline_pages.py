"""Disputes at the desk (issue 42): a player's timeline and "what if this had not happened?"
on the players' view, the same what-if for any event of the log at the desk, and the dispute
sheet as a printout.

* ``/player/{pid}/timeline`` — :func:`goledger.audit.timeline.timeline`, every entry linking to
  its what-if (public: the standings are);
* ``/player/{pid}/what-if/{seq}`` — :func:`goledger.audit.disputes.event_what_if` with his row
  marked, linking to the dispute sheet;
* ``/desk/what-if/{seq}`` — the same for any event, behind :meth:`Pages.director_only` (the
  desk's log rows and audit pages link to it);
* ``/print/dispute-sheet/{pid}/{seq}`` — the bytes of ``goledger dispute-sheet PID --event SEQ
  --format html``, with the print button.

Who recorded an event and why are the director's free texts: the players' view leaves them out
(:func:`without_free_texts`); a director's own requests show them.

No event number is typed: every one of these is reached by a link.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from goledger.web.routing import DeskPages

if TYPE_CHECKING:
    from goledger.audit.disputes import EventWhatIf
    from goledger.audit.timeline import TimelineEntry

__all__ = ["routes", "what_if_rows", "without_free_texts"]


def what_if_rows(found: EventWhatIf) -> list[dict[str, Any]]:
    """The players whose place or values differ, each with ``(criterion, real, what-if,
    changed)`` cells, real standings order first."""
    from goledger.ledger.values import format_points

    result = found.result
    scales = result.scales
    criteria = list(dict.fromkeys([*result.actual.criteria, *result.hypothetical.criteria]))
    rows = []
    for change in result.changes:
        before, after = change.before, change.after  # real, what-if
        cells = []
        for c in criteria:
            old = before.values.get(c) if before else None
            new = after.values.get(c) if after else None
            cells.append((c, "–" if old is None else format_points(old, scales.get(c, 1)) or "0",
                          "–" if new is None else format_points(new, scales.get(c, 1)) or "0", old != new))
        rows.append({"player_id": change.player_id, "name": found.names.get(change.player_id, change.player_id),
                     "real": before.place if before else None, "hypo": after.place if after else None,
                     "cells": cells})
    rows.sort(key=lambda r: (r["real"] is None, r["real"] or 0, r["name"]))
    return rows


def without_free_texts(found: EventWhatIf | TimelineEntry) -> None:
    """Clear who recorded an event and why (``actor``, ``reason``) for the players' view: a
    director's free text may say why a player withdrew (SECURITY.md, personal data); the
    director sees them on his own requests, never cached for anyone else."""
    found.actor = found.reason = ""


class TimelinePages:
    """The handlers (one method per route)."""

    def __init__(self, pages: DeskPages) -> None:
        self.pages = pages
        self.desk = pages.desk

    async def player_timeline(self, request: Request) -> Response:
        def build() -> dict[str, Any]:
            from goledger.audit.timeline import timeline
            from goledger.ledger.values import format_points
            from goledger.render.json_text import json_text

            state = self.desk.state()
            line = timeline(self.desk.db, request.path_params["pid"])
            if not self.pages.is_director(request):
                for entry in line.entries:
                    without_free_texts(entry)
            cells = {p.round: {c: format_points(p.values[c], line.scales.get(c, 1)) or "0" if c in p.values else "–"
                               for c in line.criteria} for p in line.rounds}
            return {"state": state, "head": state.seq, "t": line, "cells": cells, "raw": json_text(line.to_dict())}

        return await self.pages.public_page(request, "timeline.html", build)

    def _what_if(self, request: Request, player: str | None) -> dict[str, Any]:
        from goledger.audit.disputes import event_what_if
        from goledger.render.json_text import json_text
        from goledger.replay.fold.players import find_player

        state = self.desk.state()
        pid = find_player(state, player).id if player else None
        # the players' view links only the events a timeline shows, and computes no other
        found = event_what_if(self.desk.db, request.path_params["seq"], end=state, timeline_only=pid is not None)
        if not self.pages.is_director(request):
            without_free_texts(found)
        rows = what_if_rows(found)
        return {"state": state, "head": state.seq, "w": found, "rows": rows, "pid": pid,
                "player_name": state.players[pid].full_name if pid else "",
                "mine": next((r for r in rows if r["player_id"] == pid), None),
                "raw": json_text(found.to_dict())}

    async def player_what_if(self, request: Request) -> Response:
        return await self.pages.public_page(
            request, "what_if.html", lambda: self._what_if(request, request.path_params["pid"]))

    async def desk_what_if(self, request: Request) -> Response:
        data = await self.pages.read(request, lambda: self._what_if(request, None))
        return self.pages.render(request, "what_if.html", **data)

    async def dispute_sheet(self, request: Request) -> Response:
        """``goledger dispute-sheet PID --event SEQ --format html`` with the print button."""
        from goledger.web.print_pages import PRINT_CSP, print_button

        director = self.pages.is_director(request)

        def make() -> bytes:
            from goledger.audit.disputes import dispute_sheet
            from goledger.render.dispute_sheet import render_html

            sheet = dispute_sheet(self.desk.db, request.path_params["pid"], request.path_params["seq"],
                                  end=self.desk.state(), timeline_only=True)
            if not director:
                without_free_texts(sheet.what_if)
            return render_html(sheet)

        data = await self.pages.read(request, make)
        return HTMLResponse(data.replace(b"<body>\n", b"<body>\n" + print_button(), 1),
                            headers={"Content-Security-Policy": PRINT_CSP})


def routes(pages: DeskPages) -> list[BaseRoute]:
    """The timeline, the what-if pages and the dispute sheet (see the module doc)."""
    t = TimelinePages(pages)
    return [
        Route("/player/{pid}/timeline", t.player_timeline),
        Route("/player/{pid}/what-if/{seq:int}", t.player_what_if),
        Route("/desk/what-if/{seq:int}", pages.director_only(t.desk_what_if)),
        Route("/print/dispute-sheet/{pid}/{seq:int}", t.dispute_sheet),
    ]
