"""The players' view on the day (issue 32, item 3): "find my table" and its JSON twin.

- ``GET /find?q=`` — the search box of every public page: each player the query names
  (:func:`goledger.replay.scoring.find.find_players`) with his table, opponent, colour, handicap and komi
  in the round being played, and his results so far.
- ``GET /api/find?q=`` — the same as JSON: ``{"query", "round", "players": [...]}`` with each
  player as :meth:`goledger.replay.scoring.find.Found.to_dict` gives him.

The round is the one the players' view shows (:func:`goledger.web.data.shown_round`). The name
index is built once per ledger head and shared by every phone.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from goledger.replay.fold.state import TournamentState
from goledger.replay.scoring.find import MAX_QUERY, NameIndex, find_players
from goledger.web.routing import Pages, json_response

__all__ = ["routes"]


class _Finder:
    def __init__(self, pages: Pages) -> None:
        self.pages = pages
        self.index: NameIndex | None = None

    def _found(self, request: Request) -> dict[str, Any]:
        from goledger.web.data import round_progress, shown_round

        state: TournamentState = self.pages.desk.state()
        if self.index is None or self.index.seq != state.seq:
            self.index = NameIndex(state)
        query = request.query_params.get("q", "")[:MAX_QUERY]
        round_ = shown_round(state)
        found = find_players(state, query, round_, self.index) if query.strip() else []
        return {"state": state, "query": query, "round": round_, "found": found, "head": state.seq,
                "progress": round_progress(state, round_)}

    async def page(self, request: Request) -> Response:
        return await self.pages.public_page(request, "public_find.html", lambda: self._found(request))

    async def api(self, request: Request) -> Response:

        if not self.pages.desk.db.exists():
            return json_response({"error": "there is no tournament yet"}, 404)
        data = await self.pages.read(request, lambda: self._found(request))
        return json_response({"query": data["query"], "round": data["round"],
                      "players": [f.to_dict() for f in data["found"]]})


def routes(pages: Pages) -> list[Route]:
    """The players' view's routes over the desk's pages."""
    finder = _Finder(pages)
    return [Route("/find", finder.page), Route("/api/find", finder.api)]
