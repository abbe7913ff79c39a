"""Players report their results from their phones, and the desk reconciles them (issue 46).

The player (his personal key is the credential, as on his key page, :mod:`goledger.web.key_pages`):

* ``GET /k/KEY/result``: the game he can report (his latest game shown to the players in a
  round still open, :func:`goledger.replay.scoring.reports.closed_reason`), what he and his
  opponent reported so far, and "I won" / "I lost" / "Jigo" with an optional margin;
* ``POST /k/KEY/result`` (``round``, ``opponent``, ``outcome``, ``margin``, ``expected_head``,
  the CSRF token): :func:`goledger.commands.report_result` for the key's player and no one
  else, in a worker process, the reports that arrive together written together
  (:func:`reports_work`, :mod:`goledger.web.group_commit`), each judged per subject against
  the page's head
  (:func:`goledger.web.concurrency.run_per_subject`: a re-pairing of his game refuses it; the
  opponent's report or a result at another table does not).

Abuse: every ``/k/KEY/result`` request takes a token from its address's bucket and a post
from its key's (:mod:`goledger.web.rate_limit`): 429 with one sentence when empty. A revoked,
unknown or malformed key gets the key page's one answer, byte for byte.

The director (behind :meth:`Pages.director_only`): ``GET /desk/reports/R``, round R's games
by what their players reported (agree, disagree, one report, none, recorded) with both claims,
and "approve all agreeing" (``POST /desk/do/approve-reports``, the desk's write path).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from goledger.errors import CommandRejected, GoledgerError, StaleHeadError
from goledger.i18n import gettext
from goledger.i18n.messages import say
from goledger.web import forms
from goledger.web.group_commit import GroupCommit
from goledger.web.isolate import Done
from goledger.web.key_pages import KeyPages
from goledger.web.rate_limit import ADDRESS_LIMIT, KEY_LIMIT, RateLimit
from goledger.web.routing import DeskPages

__all__ = ["report_routes", "reports_work"]

_NO_STORE: Final = {"Cache-Control": "no-store"}


class _Repaired(CommandRejected):
    """A report whose game was paired again since its page was shown (answered 409)."""


def reports_work(db: Path, reports: list[tuple[str, int, str, str, str, int]]) -> Done:
    """Many players' reports at once, ``(player, round, outcome, margin, opponent,
    expected_head)`` each (:func:`goledger.commands.report_result`), each refused only when an
    event since its page's head touches his or his opponent's pairing in that round, or the
    round's pairing (the opponent's report or a result at another table does not refuse it);
    one fold and one transaction
    (:func:`goledger.commands.recording.record_many`): ``data`` is each report's ``(status,
    message)`` in order."""
    from goledger.commands.player_reports import report_intent
    from goledger.commands.recording import record_many
    from goledger.ledger.store import Record, touching
    from goledger.ledger.subjects import record_subjects

    def stale_for(player_id: str, opponent: str, round_: int) -> Any:
        deps = {("player in round", player_id, round_), ("player in round", opponent, round_), ("round", round_)}

        def stale(since: list[Record]) -> None:
            if touching(since, deps, record_subjects):
                raise _Repaired(gettext("Your game was paired again since this page was shown: reload it."))
        return stale

    try:
        answers = record_many(db, [report_intent(pid, round_, outcome, margin, opponent, head,
                                                 stale_for(pid, opponent, round_))
                                   for pid, round_, outcome, margin, opponent, head in reports])
    except GoledgerError as exc:
        return Done(400, exc.message, [(400, exc.message)] * len(reports))
    return Done(200, "", [(409 if isinstance(a, _Repaired | StaleHeadError) else 400, a.message)
                          if isinstance(a, GoledgerError) else (200, a.message) for a in answers])


class ReportPages(KeyPages):
    """The handlers (one method per route); the key's player as on his key page."""

    def __init__(self, pages: DeskPages) -> None:
        super().__init__(pages)
        self.per_key = RateLimit(*KEY_LIMIT)
        self.per_address = RateLimit(*ADDRESS_LIMIT)
        self.reports: GroupCommit[tuple[str, int, str, str, str, int]] = GroupCommit(pages.work, reports_work,
                                                                                    pages.desk.db)
        """The players' reports, written together (:mod:`goledger.web.group_commit`)."""

    def _too_many(self, request: Request) -> Response:
        response = self.pages.refusal(request, gettext("Too many requests: wait a minute, then try again."), 429)
        response.headers.update({**_NO_STORE, "Retry-After": "60"})
        return response

    def _game(self, pid: str) -> dict[str, Any]:
        """His game to report: the latest round shown to the players that has his game and is
        still open, with both claims and the result."""
        from goledger.replay.views import closed_reason, current_claim

        state = self.desk.state()
        player = state.players[pid]
        for round_ in range(state.rounds, 0, -1):
            game = state.game_of(pid, round_)
            if game is None or game.white == game.black or not state.round_visible(round_):
                continue
            if closed_reason(state, round_) is not None:
                break
            opponent = game.opponent(pid)
            return {"state": state, "player": player, "round": round_, "game": game,
                    "opponent": state.players[opponent], "white": game.white == pid,
                    "mine": current_claim(state, game, pid), "theirs": current_claim(state, game, opponent),
                    "recorded": game.result.is_known, "head": state.seq}
        return {"state": state, "player": player, "round": None, "game": None, "head": state.seq}

    async def _page(self, request: Request, key: str, pid: str, status: int = 200, message: str = "") -> Response:
        data = await self.read(lambda: self._game(pid))
        settings = data["state"].settings
        response = self.pages.render(request, "player_report.html", status, key=key, message=message,
                                     reports=settings.player_reports if settings is not None else "off", **data)
        response.headers.update(_NO_STORE)
        return response

    def _address(self, request: Request) -> str:
        return request.client.host if request.client is not None else ""

    async def _reporter(self, request: Request) -> tuple[str, str] | Response:
        """The key and player of a report route, or the answer that stops it (an address over
        its limit, an unknown key): what the page and the post check first, alike."""
        if not self.per_address.allow(self._address(request)):
            return self._too_many(request)
        key = request.path_params["key"]
        pid = await self.read(lambda: self._player_of(key))
        if pid is None:
            return self._unknown(request)
        return key, pid

    async def report_page(self, request: Request) -> Response:
        found = await self._reporter(request)
        if isinstance(found, Response):
            return found
        return await self._page(request, *found)

    async def report_post(self, request: Request) -> Response:
        found = await self._reporter(request)
        if isinstance(found, Response):
            return found
        key, pid = found
        if not self.per_key.allow(pid):
            return self._too_many(request)
        form = await self.pages.checked_form(request, director=False)
        outcome = forms.text(form, "outcome")
        if outcome not in ("won", "lost", "jigo"):
            raise CommandRejected(gettext("the result is one of: won, lost, jigo"))
        round_ = forms.number(form, "round", "round", low=1, high=99)
        head = forms.number(form, "expected_head", "the page's ledger head", low=0, high=2**62)
        margin = forms.text(form, "points")[:8] or forms.text(form, "margin")[:8]
        opponent = forms.text(form, "opponent")[:40]
        from goledger.i18n import current_language

        status, said = await self.reports.submit((pid, round_, outcome, margin, opponent, head), current_language())
        message = gettext("Thank you: your report is recorded.") if status == 200 else said
        return await self._page(request, key, pid, status, message)

    # ------------------------------------------------------------------ the director's

    async def desk_reports(self, request: Request) -> Response:
        from goledger.replay.views import REPORT_STATUSES as STATUSES
        from goledger.replay.views import round_reports

        round_ = request.path_params["round"]

        def build() -> dict[str, Any]:
            state = self.desk.state()
            if not 1 <= round_ <= state.rounds:
                raise CommandRejected(say("round %(round)d is outside 1..%(rounds)d of this tournament",
                                          round=round_, rounds=state.rounds))
            rows = round_reports(state, round_)
            groups = {status: [r for r in rows if r.status == status] for status in STATUSES}
            return {"state": state, "round": round_, "groups": groups, "head": state.seq,
                    "rounds": range(1, state.rounds + 1)}

        data = await self.pages.read(request, build)
        return self.pages.render(request, "desk_reports.html", **data)


def report_routes(pages: DeskPages) -> list[BaseRoute]:
    """The players' report page and the desk's reconciliation page."""
    reports = ReportPages(pages)
    return [
        Route("/k/{key}/result", reports.report_page),
        Route("/k/{key}/result", reports.report_post, methods=["POST"]),
        Route("/desk/reports/{round:int}", pages.director_only(reports.desk_reports)),
    ]
