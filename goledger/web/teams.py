"""The desk's team pages (issue 30, item 4): the team standings and a round's matches for the
players (``/teams``, ``/teams/round/R``), and for the director a round by match with results
entry (``/desk/teams/round/R``). Every page calls the same library functions as the CLI
(``standings --teams``, ``team pairings``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from goledger.errors import CommandRejected
from goledger.i18n import gettext
from goledger.web.routing import Pages, int_param

if TYPE_CHECKING:
    from goledger.replay.fold.state import TournamentState

__all__ = ["team_routes"]


def team_routes(pages: Pages) -> list[Route]:
    """The team routes over the desk's page helpers (``pages``: rendering, caching, auth)."""

    def _round(request: Request) -> int:
        return int(request.path_params["round"])

    def _teams(state: TournamentState) -> TournamentState:
        """``state``, or a refusal in the page's language when it has no teams (the library's
        sentence names the command that adds them, which no player at a team page can type)."""
        if not state.teams:
            raise CommandRejected(gettext("this tournament has no teams"))
        return state

    async def standings(request: Request) -> Response:
        def build() -> dict[str, Any]:
            from goledger.render.teams import standings_sections
            from goledger.teams.standings import team_standings

            state = _teams(pages.desk.state())
            table = team_standings(state, int_param(request, "round"))
            printout = standings_sections(table, {}, state.settings.name if state.settings else "")
            return {"state": state, "printout": printout, "head": state.seq}

        return await pages.public_page(request, "teams_standings.html", build)

    async def round_matches(request: Request) -> Response:
        def build() -> dict[str, Any]:
            from goledger.teams.printouts import pairing_list

            state = _teams(pages.desk.state())
            return {"state": state, "plist": pairing_list(state, _round(request)), "head": state.seq}

        return await pages.public_page(request, "teams_round.html", build)

    async def desk_round(request: Request) -> Response:

        def build() -> dict[str, Any]:
            from goledger.teams.printouts import pairing_list

            state = _teams(pages.desk.state())
            return {"state": state, "plist": pairing_list(state, _round(request)), "round": _round(request),
                    "head": state.seq}

        data = await pages.read(request, build)
        return pages.render(request, "desk_teams_round.html", **data)

    return [
        Route("/teams", standings),
        Route("/teams/round/{round:int}", round_matches),
        Route("/desk/teams/round/{round:int}", pages.director_only(desk_round)),
    ]
