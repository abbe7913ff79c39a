"""The desk's pairing constraints page (issue 43, item 4): ``GET /desk/constraints``, what
``goledger forbid``, ``fix-pairing`` and ``fix-table`` record (:mod:`goledger.commands.constraints`),
as a page: the forbidden and unwanted pairs with their rounds, the fixed pairings of each
round and the players fixed to a table, each with a button that lifts it, and forms that pick
the players from lists. The forms post to ``/desk/do/forbid``, ``fix-pairing`` and
``fix-table`` (:mod:`goledger.web.actions`: each form decoded as its type, the same library
functions as the command line), with the same refusals.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from goledger.web.routing import Pages

__all__ = ["constraints_routes"]


def constraints_routes(pages: Pages) -> list[Route]:
    """``GET /desk/constraints`` over the desk's pages."""

    async def constraints_page(request: Request) -> Response:
        from goledger.i18n import current_language

        language = current_language()  # the lists of players in the page's alphabet

        def build() -> dict[str, Any]:
            from goledger.i18n.collation import sorted_by_name

            state = pages.desk.state()
            players = sorted_by_name([p for p in state.players.values() if not p.withdrawn_from],
                                     lambda p: p.surname, lambda p: p.first_name, lambda p: p.id, language)
            pairs = [{"a": state.players[a], "b": state.players[b], "kind": kind,
                      "rounds": state.constraint_rounds.get(a, {}).get(b) or [None, None]}
                     for a, others in sorted(state.pairing_constraints.items()) for b, kind in sorted(others.items())
                     if a in state.players and b in state.players]
            fixed = [{"round": r, "a": state.players[a], "b": state.players[b], "table": table}
                     for r, by_player in sorted(state.fixed_pairs.items())
                     for a, (b, table) in sorted(by_player.items()) if a in state.players and b in state.players]
            tables = [{"player": state.players[p], "from_round": start, "table": table}
                      for p, by_round in sorted(state.fixed_tables.items()) if p in state.players
                      for start, table in sorted(by_round.items()) if table is not None]
            return {"state": state, "head": state.seq, "players": players, "pairs": pairs, "fixed": fixed,
                    "tables": tables}

        data = await pages.read(request, build)
        return pages.render(request, "constraints.html", **data)

    return [Route("/desk/constraints", pages.director_only(constraints_page))]
