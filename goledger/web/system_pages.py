"""The knockout family in the desk (issue 43 item 5): the bracket page (``/bracket`` for the
players, ``/desk/bracket`` for the director: ``goledger bracket``'s view,
:func:`goledger.systems.views.bracket_of`, drawn by :func:`goledger.render.bracket.bracket_svg`),
a system's own places for the standings pages (the places ``goledger standings`` and
``goledger place`` give a knockout, Paramus, match…, never the criteria's), and who of a
round's unpaired players is out of the event rather than waiting to be paired."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from goledger.errors import CommandRejected
from goledger.replay.fold.state import PlayerState, TournamentState
from goledger.systems.common import Place, Places
from goledger.systems.registry import SYSTEMS

__all__ = ["BRACKET_SYSTEMS", "out_of_event", "places_context", "system_links", "system_places", "system_routes"]

BRACKET_SYSTEMS = frozenset(name for name, entry in SYSTEMS.items() if entry.bracket)
"""The systems ``goledger bracket`` draws (:func:`goledger.systems.views.bracket_of`)."""


def system_links(system: str) -> dict[str, bool]:
    """Which of the system's own pages the header links: the bracket, the team pages."""
    from goledger.teams.model import TEAM_SYSTEMS

    return {"bracket": system in BRACKET_SYSTEMS, "teams": system in TEAM_SYSTEMS}


def system_places(state: TournamentState, round_: int | None = None) -> Places | None:
    """The system's own places after ``round_`` (all rounds when ``None``), or ``None`` when
    the system's places are the standings (:func:`goledger.systems.places_of`)."""
    from goledger.systems import places_of
    from goledger.systems.views import through_round

    return places_of(through_round(state, round_))


def places_context(state: TournamentState, round_: int | None, *, with_places: bool = True) -> dict[str, Any]:
    """What a standings page needs to show the system's own places after ``round_`` instead
    of the criteria's: ``places`` (``None`` for a system ranked by its standings, or when not
    ``with_places``) and the system's name in words."""
    from goledger.i18n import gettext

    system = state.settings.system if state.settings is not None else ""
    entry = SYSTEMS.get(system)
    return {"places": system_places(state, round_) if with_places else None,
            "system_label": gettext(entry.label) if entry is not None else system}


def out_of_event(state: TournamentState, free: Sequence[PlayerState]) -> tuple[list[PlayerState],
                                                                               list[tuple[PlayerState, Place]]]:
    """``free`` (a round's unpaired players) split into those still in the event and those the
    system has placed for good (eliminated from a knockout, out of a Paramus…), with their
    place: the round page lists the second apart, as out, not as waiting to be paired."""
    places = system_places(state)
    placed = {row.player_id: row for row in places.rows if not row.active} if places is not None else {}
    return [p for p in free if p.id not in placed], [(p, placed[p.id]) for p in free if p.id in placed]


def system_routes(pages: Any) -> list[Route]:
    """``/bracket`` (the players') and ``/desk/bracket`` (the director's)."""

    def build() -> dict[str, Any]:
        from goledger.render.bracket import bracket_svg
        from goledger.systems.views import bracket_of

        state = pages.desk.state()
        try:
            view = bracket_of(state)
        except CommandRejected as exc:  # a bracket system before its draw can be made: said in the page
            if state.settings is None or state.settings.system not in BRACKET_SYSTEMS:
                raise
            return {"state": state, "view": None, "svg": "", "why": exc.message, "head": state.seq}
        return {"state": state, "view": view, "svg": bracket_svg(view), "head": state.seq}

    async def public_bracket(request: Request) -> Response:
        response: Response = await pages.public_page(request, "bracket_page.html", build)
        return response

    async def desk_bracket(request: Request) -> Response:
        if (missing := pages.no_ledger(request)) is not None:
            return missing
        data = await pages.read(request, build)
        return pages.render(request, "bracket_page.html", **data)

    return [Route("/bracket", public_bracket), Route("/desk/bracket", pages.director_only(desk_bracket))]
