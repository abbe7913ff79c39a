"""The players' own pages, reached by their personal key, and the director's key desk (issue 46).

Players (no login: the key in the address is the credential, :mod:`goledger.keys`):

* ``GET /k/KEY``: his page, phone-sized, in his browser's language (then the tournament's):
  his current game, the next round to pair and whether he has checked in for it, with "I will
  play round R" and "I will not play round R";
* ``POST /k/KEY/check-in`` (``round``, ``answer`` = ``play`` or ``absent``, the CSRF token):
  :func:`goledger.commands.check_in` or :func:`goledger.commands.absent` for the key's
  player and no one else, in a worker process, with the actor ``player <id>``
  (:func:`goledger.keys.player_actor`); the answers that arrive together are written
  together, one fold and one transaction, each judged on its own
  (:mod:`goledger.web.group_commit`, :func:`check_ins_work`).

A revoked, unknown or malformed key, or one whose player is no longer registered, gets one
answer, 404 with the same sentence (:func:`_unknown_key`). The pages are never kept for others
(``Cache-Control: no-store``), and send no referrer beyond the desk (``same-origin``, the desk's own).

The director (behind :meth:`Pages.director_only` and the guard): ``/desk/keys`` lists who
holds a key, reissues or revokes one, and prints the welcome sheet (``/desk/keys/welcome``,
A4 or A6) and the result slips with each player's link (``/desk/keys/slips/R``): the
bytes ``goledger keys sheet`` and ``goledger slips --url`` write, with the print button.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, TypeVar

from anyio import CapacityLimiter, to_thread
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from goledger.errors import CommandRejected, GoledgerError
from goledger.i18n import gettext
from goledger.i18n.messages import say
from goledger.web import forms
from goledger.web.isolate import Done
from goledger.web.routing import DeskPages

__all__ = ["ANSWERS", "check_ins_work", "key_routes", "key_work", "slips_work", "welcome_work"]

_NO_STORE: Final = {"Cache-Control": "no-store"}
"""Never kept by a browser or a proxy for anyone else. (The desk's ``Referrer-Policy:
same-origin`` already keeps the address, key included, from other sites; ``no-referrer``
would make the browser send ``Origin: null`` with the page's own forms, which the guard refuses.)"""
ANSWERS: Final = ("play", "absent")
PLAYERS_AT_ONCE: Final = 2
"""The players' reads running at once (two cores: more only take turns at the interpreter)."""
T = TypeVar("T")


def _unknown_key() -> str:
    """The one answer to a revoked, unknown or malformed key."""
    return gettext("This link is not valid (any more). Ask the desk for your personal link.")


# ---------------------------------------------------------------------------- what workers run


def check_ins_work(db: Path, answers: list[tuple[str, int, str]]) -> Done:
    """Many players' answers at once, ``(player, round, answer)`` each: ``play``
    (:func:`goledger.commands.check_in`) or ``absent`` (:func:`goledger.commands.absent`,
    worth what the rules say), each with the actor ``player <id>``: one fold and one
    transaction (:func:`goledger.commands.recording.record_many`). ``data`` is each answer's
    ``(status, message)`` in order, 400 with its own sentence for a refused one."""
    from goledger.commands.checking_in import answer_intent
    from goledger.commands.recording import record_many
    from goledger.keys import player_actor

    try:
        outcomes = record_many(db, [answer_intent(pid, round_, answer == "play", player_actor(pid))
                                    for pid, round_, answer in answers])
    except GoledgerError as exc:
        return Done(400, exc.message, [(400, exc.message)] * len(answers))
    return Done(200, "", [(400, o.message) if isinstance(o, GoledgerError) else (200, o.message) for o in outcomes])


def key_work(db: Path, what: str, player_id: str) -> Done:
    """The director's ``reissue`` or ``revoke`` of a player's key (the keys file, not the log)."""
    from goledger.keys import issue_key, revoke_key

    if what == "reissue":
        issue_key(db, player_id)
        return Done(200, gettext("%(player)s has a new personal link; the old one no longer works")
                    % {"player": player_id})
    revoke_key(db, player_id)
    return Done(200, gettext("%(player)s's personal link is revoked") % {"player": player_id})


def welcome_work(db: Path, url: str, players: list[str] | None, layout: str) -> Done:
    """The welcome sheet (:func:`goledger.render.welcome.welcome_sheet`) as ``data``: drawing a
    congress's QR codes the first time holds the interpreter for seconds, so not in the desk's
    own process."""
    from goledger.render.welcome import welcome_sheet

    return Done(200, "", welcome_sheet(db, url, players, "a6" if layout == "a6" else "a4"))


def slips_work(db: Path, round_: int, url: str, per_page: int) -> Done:
    """The result slips of ``round_`` with both players' links as ``data`` (in a worker, as
    :func:`welcome_work`)."""
    from goledger.render.printouts import render_slips
    from goledger.render.welcome import key_links
    from goledger.replay.views import pairings

    table = pairings(db, round_)
    ids = [pid for row in table.rows for pid in (row.white_id, row.black_id)]
    return Done(200, "", render_slips(table, per_page, {c.player_id: c for c in key_links(db, url, ids)}))


# ---------------------------------------------------------------------------- the pages


class KeyPages:
    """The handlers (one method per route)."""

    def __init__(self, pages: DeskPages) -> None:
        from goledger.web.group_commit import GroupCommit

        self.pages = pages
        self.desk = pages.desk
        self.check_ins: GroupCommit[tuple[str, int, str]] = GroupCommit(pages.work, check_ins_work, pages.desk.db)
        """The players' answers, written together (a congress checks in at once)."""
        self._limiter: CapacityLimiter | None = None

    async def read(self, fn: Callable[[], T]) -> T:
        """A players' page's library read, in a thread, at most :data:`PLAYERS_AT_ONCE` of them
        at a time: a hall of phones queues among itself, and the director's own pages (the
        desk's thread pool) do not wait behind it."""
        if self._limiter is None:
            self._limiter = CapacityLimiter(PLAYERS_AT_ONCE)
        return await to_thread.run_sync(fn, limiter=self._limiter)

    def _player_of(self, key: str) -> str | None:
        """The registered player ``key`` acts for, or ``None`` (one path for every wrong key)."""
        from goledger.keys import player_for_key

        pid = player_for_key(self.desk.db, key[:64])
        return pid if pid is not None and pid in self.desk.state().players else None

    def _unknown(self, request: Request) -> Response:
        response = self.pages.render(request, "player_key.html", 404, player=None, unknown=_unknown_key(),
                                     key="")
        response.headers.update(_NO_STORE)
        return response

    def _context(self, pid: str) -> dict[str, Any]:
        from goledger.replay.views import next_round, standing

        state = self.desk.state()
        player = state.players[pid]
        game = None
        for round_ in range(state.rounds, 0, -1):
            found = state.game_of(pid, round_)
            if found is not None and state.round_visible(round_):
                white = found.white == pid
                game = {"round": round_, "table": found.table, "white": white,
                        "opponent": state.players[found.black if white else found.white],
                        "handicap": found.handicap, "result": str(found.result)}
                break
        next_ = next_round(state)
        mode = state.settings.check_in if state.settings is not None else "no"
        status = None
        if next_ is not None and not player.is_withdrawn(next_):
            status = standing(state, player, next_)
        return {"state": state, "player": player, "game": game, "next_round": next_, "standing": status,
                "check_in": mode, "head": state.seq}

    async def player_page(self, request: Request) -> Response:
        key = request.path_params["key"]
        pid = await self.read(lambda: self._player_of(key))
        if pid is None:
            return self._unknown(request)
        data = await self.read(lambda: self._context(pid))
        response = self.pages.render(request, "player_key.html", key=key, unknown="", **data)
        response.headers.update(_NO_STORE)
        return response

    async def player_post(self, request: Request) -> Response:
        key = request.path_params["key"]
        pid = await self.read(lambda: self._player_of(key))
        if pid is None:
            return self._unknown(request)
        form = await self.pages.checked_form(request, director=False)
        answer = forms.text(form, "answer")
        if answer not in ANSWERS:
            raise CommandRejected(say("%(answer)r is not an answer: play or absent", answer=answer[:20]))
        round_ = forms.number(form, "round", "round", low=1, high=99)
        from goledger.i18n import current_language

        status, said = await self.check_ins.submit((pid, round_, answer), current_language())
        data = await self.read(lambda: self._context(pid))
        message = _answer_words(answer, round_) if status == 200 else said
        response = self.pages.render(request, "player_key.html", status,
                                     key=key, unknown="", message=message, **data)
        response.headers.update(_NO_STORE)
        return response

    # ------------------------------------------------------------------ the director's

    async def keys_page(self, request: Request) -> Response:
        from goledger.keys import keys_for

        def build() -> dict[str, Any]:
            state = self.desk.state()
            return {"state": state, "held": keys_for(self.desk.db), "head": state.seq}

        data = await self.pages.read(request, build)
        base = str(request.base_url).rstrip("/")
        response = self.pages.render(request, "desk_keys.html", url=base, **data)
        response.headers.update(_NO_STORE)
        return response

    async def keys_post(self, request: Request) -> Response:
        form = await self.pages.checked_form(request)
        what, player = forms.text(form, "what"), forms.text(form, "player")
        if what not in ("reissue", "revoke"):
            raise CommandRejected(say("%(what)r is not a key action: reissue or revoke", what=what[:20]))
        done = await self.pages.work(key_work, self.desk.db, what, player)
        if done.status != 200:
            return self.pages.refusal(request, done.message, done.status)
        return self.pages.done(request, "/desk/keys", done.message)

    async def _printout(self, request: Request, done: Done) -> Response:
        from goledger.web.print_pages import printed

        if done.status != 200:
            return self.pages.refusal(request, done.message, done.status)
        return printed(done.data, _NO_STORE)

    async def welcome(self, request: Request) -> Response:
        """``goledger keys sheet --url URL --layout a4|a6 [--player P]``: the welcome sheet
        (``?player=ID``: his alone, to replace a lost one)."""
        url = request.query_params.get("url", "")[:200] or str(request.base_url)
        layout = "a6" if request.query_params.get("layout") == "a6" else "a4"
        player = request.query_params.get("player", "")[:80]
        return await self._printout(request, await self.pages.work(welcome_work, self.desk.db, url,
                                                                   [player] if player else None, layout))

    async def slips(self, request: Request) -> Response:
        """``goledger slips --round R --url URL [--per-page 8]``: the slips with both players' links."""
        round_ = request.path_params["round"]
        url = request.query_params.get("url", "")[:200] or str(request.base_url)
        per_page = 8 if request.query_params.get("per_page") == "8" else 4
        return await self._printout(request, await self.pages.work(slips_work, self.desk.db, round_, url, per_page))


def _answer_words(answer: str, round_: int) -> str:
    if answer == "play":
        return gettext("Thank you: you are checked in for round %(round)d.") % {"round": round_}
    return gettext("Thank you: the desk knows you will not play round %(round)d.") % {"round": round_}


def key_routes(pages: DeskPages) -> list[BaseRoute]:
    """The players' key pages and the director's key desk."""
    keyed = KeyPages(pages)
    director = pages.director_only
    return [
        Route("/k/{key}", keyed.player_page),
        Route("/k/{key}/check-in", keyed.player_post, methods=["POST"]),
        Route("/desk/keys", director(keyed.keys_page)),
        Route("/desk/keys/do", keyed.keys_post, methods=["POST"]),
        Route("/desk/keys/welcome", director(keyed.welcome)),
        Route("/desk/keys/slips/{round:int}", director(keyed.slips)),
    ]
