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
from goledger.i18n import N_, gettext
from goledger.web.routing import Pages, int_param

if TYPE_CHECKING:
    from goledger.replay.fold.state import TournamentState

__all__ = ["team_legend", "team_page", "team_routes"]

_CRITERIA_WORDS: dict[str, str] = {
    "TEAMP": N_("team points: 2 for a match won, 1 for a match drawn"),
    "BDW": N_("board wins: games won on every board of the team's matches (half for a jigo)"),
    "SOST": N_("the sum of the opponents' team points"),
    "MNR": N_("the team's mean rating in round 1"),
}


def team_page(state: TournamentState, round_: int) -> dict[str, Any]:
    """What ``/desk/teams`` shows for ``round_``: the boards per team, each team with its
    members in board order (an empty board as ``None``), and the players on no team, by name."""
    from goledger.teams.model import is_team_tournament, team_size

    if not is_team_tournament(state):
        return {"size": 0, "teams": [], "free": [], "round": round_}
    size = team_size(state)
    teams, placed = [], set()
    for team in sorted(state.teams.values(), key=lambda t: (t.number or 0, t.id)):
        slots = team.member_slots(round_)
        boards = team.boards or size
        teams.append({"team": team, "boards": [(b, state.players.get(slots[b]) if b in slots else None)
                                               for b in range(1, boards + 1)],
                      "next_board": next((b for b in range(1, boards + 1) if b not in slots), boards)})
        placed |= set(slots.values())
    free = sorted((p for p in state.players.values() if p.id not in placed and p.status == "final"),
                  key=lambda p: (p.surname.casefold(), p.first_name.casefold()))
    return {"size": size, "teams": teams, "free": free, "round": round_}


def team_legend(criteria: tuple[str, ...] | list[str]) -> list[tuple[str, str]]:
    """Each team criterion shown (NULL left out) with its meaning in one line, in the page's
    language; ``BDWkU`` is the board wins on the k upper boards."""
    legend = []
    for name in criteria:
        if name in _CRITERIA_WORDS:
            legend.append((name, gettext(_CRITERIA_WORDS[name])))
        elif name.startswith("BDW") and name.endswith("U"):
            legend.append((name, gettext("board wins on the %(num)s upper boards") % {"num": name[3:-1]}))
    return legend


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
            return {"state": state, "printout": printout, "head": state.seq,
                    "team_legend": team_legend(table.criteria)}

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

    async def desk_teams(request: Request) -> Response:
        def build() -> dict[str, Any]:
            state = pages.desk.state()
            return {"state": state, "head": state.seq, **team_page(state, int_param(request, "round") or 1)}

        data = await pages.read(request, build)
        return pages.render(request, "desk_teams.html", **data)

    return [
        Route("/desk/teams", pages.director_only(desk_teams)),
        Route("/teams", standings),
        Route("/teams/round/{round:int}", round_matches),
        Route("/desk/teams/round/{round:int}", pages.director_only(desk_round)),
    ]
