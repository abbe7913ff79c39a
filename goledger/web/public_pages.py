"""The players' view of the desk: no token (``/``, standings, a player, the live stream of the
head, the login), with the find-my-table and team routes of :mod:`goledger.web.players_view` and
:mod:`goledger.web.teams` (whose one desk page is behind :meth:`Pages.director_only` itself).

Each page is built off the event loop and kept per ledger head (:meth:`Pages.public_page`).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from goledger.render.html import gettext
from goledger.web import players_view, timeline_pages
from goledger.web.guard import query_seconds
from goledger.web.routing import DESK_COOKIE, SESSION_COOKIE, DeskPages, int_param, round_or
from goledger.web.system_pages import system_routes
from goledger.web.teams import team_routes
from goledger.web.units import unit_routes

__all__ = ["public_routes"]

class PublicPages:
    """The public pages' handlers (one method per route)."""

    def __init__(self, pages: DeskPages) -> None:
        self.pages = pages
        self.desk = pages.desk

    async def players_view(self, request: Request) -> Response:
        def build() -> dict[str, Any]:
            from goledger.web.data import game_rows, round_progress, shown_round

            state = self.desk.state()
            round_ = round_or(int_param(request, "round"), max(shown_round(state), 1))
            if not state.round_visible(round_):  # pairings_visible=manual: not shown yet
                return {"state": state, "round": round_, "games": [], "byes": [], "head": state.seq,
                        "progress": None, "hidden": True}
            byes = [state.players[p] for p in sorted(state.byes.get(round_, {}))]
            return {"state": state, "round": round_, "games": game_rows(state, round_), "byes": byes,
                    "head": state.seq, "progress": round_progress(state, round_)}

        return await self.pages.public_page(request, "public_round.html", build)

    async def public_standings(self, request: Request) -> Response:
        from goledger.i18n import current_language

        language = current_language()  # the page's (its cache key's): a shared place in its alphabet

        def build() -> dict[str, Any]:
            from goledger.replay.scoring.standings import standings
            from goledger.web.data import public_standings_rows, round_progress, shown_round
            from goledger.web.system_pages import places_context

            state = self.desk.state()  # one state: the table, the progress and the head it claims
            table = standings(state, int_param(request, "round")).in_alphabet(language)
            return {"table": table, "rows": public_standings_rows(table, state), "link": "/player/",
                    "state": state, "head": state.seq, **places_context(state, table.round),
                    "progress": round_progress(state, shown_round(state))}

        return await self.pages.public_page(request, "public_standings.html", build)

    async def public_player(self, request: Request) -> Response:
        def build() -> dict[str, Any]:
            from goledger.replay.fold.players import find_player
            from goledger.web.data import player_games

            state = self.desk.state()
            player = find_player(state, request.path_params["pid"])
            from goledger.systems.unit_views import as_units, plays_as
            from goledger.teams.desk import player_team
            from goledger.web.data import current_round

            shown, plays = as_units(state), plays_as(state, player.id)   # a unit's member: his unit's page
            player = shown.players.get(plays, player)
            games = [g for g in player_games(shown, plays) if state.round_visible(g["round"])]
            return {"state": state, "player": player, "games": games, "head": state.seq,
                    "team": player_team(state, player.id, current_round(state))}

        return await self.pages.public_page(request, "public_player.html", build)

    async def head_events(self, request: Request) -> Response:
        """Server-sent events: ``event: head`` with the ledger's last sequence number, sent at
        once and whenever it changes (:class:`goledger.web.live.HeadWatcher`: one reader of the
        head for all streams, woken at once by the desk's own writes). The stream ends when the
        client goes away or after ``lifetime`` seconds (``?lifetime=S`` shortens it), and the
        browser reconnects; :class:`goledger.web.guard.DeskGuard` caps how many run at once (``503``
        beyond)."""
        desk = self.desk
        lifetime = query_seconds(request.query_params, "lifetime", desk.lifetime)  # a refusal: the app's handler
        return StreamingResponse(desk.live.stream(lifetime, request.is_disconnected), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def login_form(self, request: Request) -> Response:
        return self.pages.render(request, "login.html", next=request.query_params.get("next", "/desk"))

    async def login(self, request: Request) -> Response:
        form = await self.pages.checked_form(request, director=False)
        if not self.desk.keys.token_ok(str(form.get("token", ""))):
            return self.pages.render(request, "login.html", 401, next=str(form.get("next", "/desk")),
                               message=gettext("that is not the director token (it was printed when the desk started)"))
        target = str(form.get("next", "/desk"))
        response = RedirectResponse(target if target.startswith("/") and not target.startswith("//") else "/desk",
                                    303)
        self.desk.sessions.logout(request.cookies.get(SESSION_COOKIE))
        response.set_cookie(SESSION_COOKIE, self.desk.sessions.login(), httponly=True, samesite="strict")
        desk_name = str(form.get("desk", "")).strip()[:40]
        if desk_name:
            response.set_cookie(DESK_COOKIE, desk_name, httponly=True, samesite="strict")
        return response

    async def logout(self, request: Request) -> Response:
        await self.pages.checked_form(request, director=False)  # its CSRF token
        response = RedirectResponse("/", 303)
        self.desk.sessions.logout(request.cookies.get(SESSION_COOKIE))
        response.set_cookie(SESSION_COOKIE, self.desk.sessions.issue(), httponly=True, samesite="strict")
        return response


def public_routes(pages: DeskPages) -> list[BaseRoute]:
    """The players' view: no token (``/``, standings, a player, find my table, teams, the live
    stream; the teams module's one desk page is behind :meth:`Pages.director_only` itself)."""
    public = PublicPages(pages)
    return [
        Route("/", public.players_view),
        Route("/standings", public.public_standings),
        Route("/player/{pid}", public.public_player),
        Route("/events/head", public.head_events),
        *players_view.routes(pages),  # /find, /api/find (issue 32)
        *timeline_pages.routes(pages),  # a player's timeline, what-if, the dispute sheet (issue 42)
        *team_routes(pages),
        *system_routes(pages),  # the bracket, /bracket and /desk/bracket (issue 43)
        *unit_routes(pages),
        Route("/login", public.login_form),
        Route("/login", public.login, methods=["POST"]),
        Route("/logout", public.logout, methods=["POST"]),
    ]
