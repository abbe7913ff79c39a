"""``POST /api/pair-round``: the desk's JSON door to ``goledger pair-round`` (issue 29).

The body is ``{"round": R}`` with, optionally, ``"expected_head"`` (refused with 409 and the
current head when events were appended since), ``"dry_run"``, ``"engine"``, ``"seed"``,
``"actor"``, ``"reason"`` and ``"force"`` (pair a round out of order, ``docs/pairing-rounds.md``).
It needs ``Authorization: Bearer TOKEN`` — the director token, as ``POST /api/results`` does;
the director cookie does not open it (the API carries no CSRF token). The answer is what
``goledger pair-round R --json`` prints (:meth:`goledger.commands.pairing.PairRoundOutcome.to_dict`)
plus ``"message"`` and the appended events' ``"seqs"``; a refusal is ``{"error": SENTENCE, "code": WORD}`` with 400 —
``code`` ``"decided"`` when the tournament system has decided its event ("the knockout is
decided: P1 won the final"), so a script driving the desk knows it is done; ``"out-of-order"``
for a round paired before an earlier one is paired or played; ``"engine-failed"`` when the
engine broke (the sentence names the other engines).
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from goledger.errors import CommandRejected, GoledgerError, StaleHeadError
from goledger.web.routing import DeskState, bearer_token, json_response

__all__ = ["routes"]

_FIELDS = frozenset({"round", "expected_head", "dry_run", "engine", "seed", "actor", "reason", "force"})


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read(body: object) -> dict[str, Any]:
    """The body's fields, checked (one sentence when they are not what the route takes)."""
    if not isinstance(body, dict):
        raise CommandRejected('send a JSON object: {"round", "expected_head"}')
    unknown = sorted(set(body) - _FIELDS)
    if unknown:
        raise CommandRejected(f"pair-round takes no field {unknown[0]!r} (its fields: {', '.join(sorted(_FIELDS))})")
    if "round" not in body:
        raise CommandRejected("pair-round needs the round")
    if not _whole(body["round"]) or not all(body.get(k) is None or _whole(body[k]) for k in ("expected_head", "seed")):
        raise CommandRejected("round, expected_head and seed are whole numbers")
    for flag in ("dry_run", "force"):
        if not isinstance(body.get(flag, False), bool):
            raise CommandRejected(f"{flag} is true or false")
    for key in ("engine", "actor", "reason"):
        if body.get(key) is not None and not isinstance(body[key], str):
            raise CommandRejected(f"{key} is a text")
    return body


def routes(desk: DeskState) -> list[Route]:
    """The route of this module over ``desk`` (:class:`goledger.web.app.Desk`)."""

    async def api_pair_round(request: Request) -> Response:
        """``goledger pair-round R [--dry-run] [--engine E] [--seed N] --expected-head H --json``."""
        if not desk.keys.token_ok(bearer_token(request)):
            return json_response({"error": "this needs the director token (Authorization: Bearer TOKEN)"}, 401)
        import msgspec

        try:
            body = _read(msgspec.json.decode(await request.body()))
        except msgspec.DecodeError:
            return json_response({"error": "the body is not JSON"}, 400)
        except CommandRejected as exc:
            return json_response({"error": exc.message, "code": exc.code}, 400)
        from goledger.commands.pairing import pair_round

        try:
            outcome = await run_in_threadpool(lambda: pair_round(
                desk.db, body["round"], dry_run=bool(body.get("dry_run", False)), engine=body.get("engine"),
                force=bool(body.get("force", False)),
                seed=body.get("seed"), expected_head=body.get("expected_head"),
                actor=str(body.get("actor") or "api"), reason=str(body.get("reason") or "")))
        except StaleHeadError as exc:
            head = await run_in_threadpool(desk.head)
            return json_response({"error": exc.message, "code": exc.code, "head": head}, 409)
        except GoledgerError as exc:
            return json_response({"error": exc.message, "code": exc.code}, 400)
        return json_response({**outcome.to_dict(), "message": outcome.message, "seqs": outcome.seqs})

    return [Route("/api/pair-round", api_pair_round, methods=["POST"])]
