"""The desk's pairing report page (issue 32, item 4): ``GET /desk/round/R/report[?player=P]``,
the same report as ``goledger explain-pairing R [P]``
(:func:`goledger.commands.pairing_report.pairing_report`), and ``?format=json`` for its
``--json``. Director only; it reads, never writes."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from goledger.errors import CommandRejected
from goledger.i18n import gettext
from goledger.web.routing import Pages, json_response

__all__ = ["routes"]


def routes(pages: Pages) -> list[Route]:
    """The pairing report's route over the desk's pages."""

    async def report(request: Request) -> Response:
        from goledger.commands.pairing_report import RoundNotPaired, pairing_report

        round_ = request.path_params["round"]
        player = request.query_params.get("player", "").strip() or None
        try:
            result = await pages.read(request, lambda: pairing_report(pages.desk.db, round_, player))
        except RoundNotPaired as exc:  # the desk's words, not the command to type
            raise CommandRejected(gettext("round %(round)d is not paired yet: pair it on its round page")
                                  % {"round": exc.round}) from None
        if request.query_params.get("format") == "json":
            return json_response(result.to_dict())
        data: dict[str, Any] = {"report": result, "round": round_, "player": player or ""}
        return pages.render(request, "pairing_report.html", **data)

    return [Route("/desk/round/{round:int}/report", pages.director_only(report))]
