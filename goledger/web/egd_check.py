"""The desk's EGD check page (issue 47, item 3): ``GET /desk/egd-check`` (director), the
findings of ``goledger egd-check`` for the desk's ledger against the machine's EGD list
(:func:`goledger.formats.egd.egd_check`), one row each with its fix."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from goledger.errors import GoledgerError

__all__ = ["egd_check_routes"]


def egd_check_routes(pages: Any) -> list[Route]:
    """The route, over the desk's pages object (its director check, renderer, reads)."""

    async def page(request: Request) -> Response:
        from goledger.formats.egd import egd_check
        from goledger.ratings.store import default_path
        from goledger.web.ratings import no_list_words

        if not default_path().is_file():
            return pages.render(request, "egd_check.html", result=None, error=no_list_words())
        try:
            result = await pages.read(request, lambda: egd_check(pages.desk.db))
        except GoledgerError as exc:
            return pages.render(request, "egd_check.html", result=None, error=exc.message)
        return pages.render(request, "egd_check.html", result=result, error="")

    return [Route("/desk/egd-check", pages.director_only(page))]
