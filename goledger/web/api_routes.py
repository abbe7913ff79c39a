"""The desk's JSON API: ``GET /api/head``, ``/api/standings`` and ``/api/pairings`` for anyone;
``POST /api/results`` (and ``POST /api/pair-round``, :mod:`goledger.web.api_pairing`) with
``Authorization: Bearer TOKEN``. Their JSON is the text the CLI's ``--json`` prints."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from goledger.errors import CommandRejected
from goledger.web import api_pairing, isolate
from goledger.web.routing import DeskPages, bearer_token, criteria_list, int_param, json_response, round_or

__all__ = ["api_routes"]

class ApiRoutes:
    """The JSON API's handlers (one method per route)."""

    def __init__(self, pages: DeskPages) -> None:
        self.pages = pages
        self.desk = pages.desk

    async def api_head(self, request: Request) -> Response:
        return json_response({"seq": await run_in_threadpool(self.desk.head)})

    async def api_standings(self, request: Request) -> Response:
        """Exactly ``goledger standings [--round R] [--as-of S] [--policy P] [--criteria C] --json``."""
        from goledger.replay.views import standings
        from goledger.web.system_pages import system_places

        def build() -> Any:
            round_, as_of = int_param(request, "round"), int_param(request, "as_of")
            policy = request.query_params.get("policy") or None
            criteria = criteria_list(request.query_params.get("criteria"))
            if as_of is not None and not director:  # a cancelled registration stays cancelled for the public
                from goledger.replay.scoring.standings import standings as compute_standings
                from goledger.web.data import without_unregistered

                state = without_unregistered(self.desk.state(as_of), self.desk.state())
                if policy is None and criteria is None and (own := system_places(state, round_)) is not None:
                    return own.to_dict()
                return compute_standings(state, round_, policy, criteria).to_dict()
            own = system_places(self.desk.state(as_of), round_) if policy is None and criteria is None else None
            if own is not None:  # a knockout's, Paramus's… own places, as the CLI's
                return own.to_dict()
            return standings(self.desk.db, round_, as_of, policy, criteria).to_dict()

        director = self.pages.is_director(request)

        data = await self.pages.read(request, build)
        return json_response(data)

    async def api_pairings(self, request: Request) -> Response:
        """The recorded pairings of ``?round=R`` (default: the current round), in the shape of
        ``pair-round R --dry-run --json`` (:func:`goledger.web.data.pairings_dict`)."""
        def build() -> Any:
            from goledger.web.data import current_round, pairings_dict

            state = self.desk.state(int_param(request, "as_of"))
            round_ = round_or(int_param(request, "round"), current_round(state))
            if not 1 <= round_ <= state.rounds:
                raise CommandRejected(f"round {round_} is outside 1..{state.rounds} of this tournament")
            if not state.round_visible(round_) and not director:
                raise CommandRejected(f"round {round_} is not shown to the players yet")
            return pairings_dict(state, round_)

        director = self.pages.is_director(request)

        data = await self.pages.read(request, build)
        return json_response(data)

    async def api_results(self, request: Request) -> Response:
        """``goledger result --round R --table T RESULT --expected-head H --json``. Only the
        ``Authorization: Bearer`` header counts here, not the director cookie: the API carries
        no CSRF token, so a browser's cookie must not be able to write through it."""
        if not self.desk.keys.token_ok(bearer_token(request)):
            return json_response({"error": "this needs the director token (Authorization: Bearer TOKEN)"}, 401)
        import msgspec

        try:
            body = msgspec.json.decode(await request.body())
            if not isinstance(body, dict):
                raise CommandRejected("send a JSON object: {\"round\", \"table\", \"result\", \"expected_head\"}")
            missing = [k for k in ("round", "table", "result") if k not in body]
            if missing:
                raise CommandRejected(f"the result needs {', '.join(missing)}")
            round_, table, head = body["round"], body["table"], body.get("expected_head")
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in (round_, table)) or not (
                    head is None or (isinstance(head, int) and not isinstance(head, bool))):
                raise CommandRejected("round, table and expected_head are whole numbers")
            if not isinstance(body["result"], str):
                raise CommandRejected("result is one of white, black, jigo, both-lose, both-win")
        except msgspec.DecodeError:
            return json_response({"error": "the body is not JSON"}, 400)
        except RecursionError:
            return json_response({"error": "the body nests deeper than a result needs; send one flat JSON object"}, 400)
        done = await self.pages.work(isolate.api_result, self.desk.db, round_, table, body["result"],
                               bool(body.get("by_default", False)), str(body.get("actor") or "api"),
                               str(body.get("reason") or ""), head, bool(body.get("retry", False)))
        if done.status == 409:
            if "conflict" in done.extra:
                return json_response({"error": done.message, "code": "conflict", "head": done.head}, 409)
            return json_response({"error": done.message, "head": done.head}, 409)
        if done.status != 200:
            return json_response({"error": done.message}, done.status)
        return json_response(done.data)


def api_routes(pages: DeskPages) -> list[BaseRoute]:
    """The JSON API: reads for anyone, writes with ``Authorization: Bearer TOKEN``."""
    api = ApiRoutes(pages)
    return [
        Route("/api/head", api.api_head),
        Route("/api/standings", api.api_standings),
        Route("/api/pairings", api.api_pairings),
        Route("/api/results", api.api_results, methods=["POST"]),
        *api_pairing.routes(pages.desk),  # POST /api/pair-round
    ]
