"""The desk's units page (issue 47; docs/pairgo.md): ``/desk/units`` lists a Pair Go or Rengo
tournament's units with their strength and members, and holds the forms that form a unit
(``POST /desk/do/unit-add``) and dissolve one (``POST /desk/do/unit-remove``), the same library
functions as ``goledger unit add`` and ``unit remove`` (:mod:`goledger.web.actions`)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from goledger.web.routing import Pages

__all__ = ["unit_routes"]


def unit_routes(pages: Pages) -> list[Route]:
    """The units route over the desk's page helpers (``pages``: rendering, reading, auth)."""

    async def desk_units(request: Request) -> Response:
        def build() -> dict[str, Any]:
            from goledger.systems.unit_views import unit_page

            state = pages.desk.state()
            return {"state": state, "head": state.seq, **unit_page(state)}

        data = await pages.read(request, build)
        return pages.render(request, "desk_units.html", **data)

    return [Route("/desk/units", pages.director_only(desk_units))]
