"""The desk's printouts (public reads): the bytes the CLI's ``--format html`` writes for the same
view, with a print button (:func:`print_button`), under :data:`PRINT_CSP`."""

from __future__ import annotations

from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from goledger.web.routing import DeskPages, int_param

__all__ = ["PRINT_CSP", "print_button", "print_routes", "printed"]

PRINT_CSP = ("default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src data:; "
             "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
"""A printout's policy: the renderer's own inline styles (the same file the CLI writes), the
desk's script for the print button, nothing else."""


def print_button() -> bytes:
    """What the desk adds after ``<body>`` of a printout (template ``print_button.html``, in the
    language of the request): the CLI's file has no button."""
    from goledger.render.html import render

    return render("print_button.html").encode("utf-8")


def printed(data: bytes, headers: dict[str, str] | None = None) -> HTMLResponse:
    """A printout's bytes as the desk sends them: the print button after ``<body>``, under
    :data:`PRINT_CSP` (and ``headers``)."""
    return HTMLResponse(data.replace(b"<body>\n", b"<body>\n" + print_button(), 1),
                        headers={"Content-Security-Policy": PRINT_CSP, **(headers or {})})


class PrintPages:
    """The printouts' handlers (one method per route)."""

    def __init__(self, pages: DeskPages) -> None:
        self.pages = pages
        self.desk = pages.desk

    async def printout(self, request: Request, make: Callable[[], bytes]) -> Response:
        """A printout page: the bytes the CLI's ``--format html`` writes for the same view
        (:mod:`goledger.render.printouts` over :mod:`goledger.replay.scoring.printouts`), never a
        second rendering of the same data; the desk adds a print button (:func:`print_button`)
        and sends it under :data:`PRINT_CSP`."""
        return printed(await self.pages.read(request, make))

    async def print_pairings(self, request: Request) -> Response:
        """``goledger pairings --round R --format html`` (``?by=name``: ``--by name``)."""
        from goledger.render.printouts import pairing_by_name_sheet, pairing_sheet, render
        from goledger.replay.views import pairings

        round_ = request.path_params["round"]
        by_name = request.query_params.get("by") == "name"
        return await self.printout(request, lambda: render(
            (pairing_by_name_sheet if by_name else pairing_sheet)(pairings(self.desk.db, round_)), "html"))

    async def print_slips(self, request: Request) -> Response:
        """``goledger slips --round R [--per-page 8]``."""
        from goledger.render.printouts import render_slips
        from goledger.replay.views import pairings

        round_ = request.path_params["round"]
        per_page = 8 if request.query_params.get("per_page") == "8" else 4
        return await self.printout(request, lambda: render_slips(pairings(self.desk.db, round_), per_page))

    async def print_players(self, request: Request) -> Response:
        """``goledger players --format html``."""
        from goledger.render.printouts import player_sheet, render
        from goledger.replay.views import players

        return await self.printout(request, lambda: render(player_sheet(players(self.desk.db)), "html"))

    async def print_wall(self, request: Request) -> Response:
        """``goledger wall-list [--round R] --format html``: standings with country, club,
        status and one cell per round, in the CLI's notation and with its legend."""
        from goledger.i18n import current_language
        from goledger.render.printouts import render, wall_sheet
        from goledger.systems.views import wall_list  # a knockout's own places, as the CLI's

        language = current_language()  # the page's: a shared place is listed in its alphabet
        return await self.printout(request, lambda: render(wall_sheet(wall_list(
            self.desk.db, int_param(request, "round"), alphabet=language)), "html"))


def print_routes(pages: DeskPages) -> list[BaseRoute]:
    """The printouts: the CLI's HTML with a print button (public reads)."""
    printed = PrintPages(pages)
    return [
        Route("/print/pairings/{round:int}", printed.print_pairings),
        Route("/print/slips/{round:int}", printed.print_slips),
        Route("/print/players", printed.print_players),
        Route("/print/wall", printed.print_wall),
    ]
