"""The desk's hand edits (issue 31): a game's page with its edits (swap colours, handicap,
komi, table, unpair), the round's renumbering, and hand pairing by the tournament's rule.

Every form posts to ``/desk/do/ACTION`` (:mod:`goledger.web.actions`), which calls the same
library function as the CLI (``edit-game``, ``renumber-tables``, ``pair``, ``unpair``) with the
head the page was rendered at: the same rules, the same refusals. This module adds the game's
page (``GET /desk/round/R/game?table=T``) and the action runners.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.web.forms import Form, whole
from goledger.web.forms import flag as _flag
from goledger.web.forms import number as _int
from goledger.web.forms import optional_number as _opt_int
from goledger.web.forms import text as _text

__all__ = ["edit_game_action", "pair_action", "renumber_action", "routes"]


def pair_action(db: Path, form: Form, **kw: Any) -> Any:
    """``pair``: with ``colours`` = ``rule`` the two players are paired by the tournament's
    rule (``pair -r R A B``), else with the colours as typed (``--white A --black B``); an empty
    handicap or komi is the rule's either way."""
    from goledger import commands

    round_ = _int(form, "round", "round")
    white, black = _text(form, "white"), _text(form, "black")
    by_rule = _text(form, "colours") == "rule"
    return commands.pair(db, round_, None if by_rule else white, None if by_rule else black,
                         _opt_int(form, "table", "table"), _opt_int(form, "handicap", "handicap"),
                         _text(form, "komi") or None, True, _flag(form, "force"),
                         [white, black] if by_rule else [], **kw)


def edit_game_action(db: Path, form: Form, **kw: Any) -> Any:
    """``edit-game``: the fields filled in are the edits."""
    from goledger import commands

    return commands.edit_game(db, _int(form, "round", "round"), _int(form, "table", "table"),
                              _flag(form, "swap_colours"), _opt_int(form, "handicap", "handicap"),
                              _text(form, "komi") or None, _opt_int(form, "move_to", "table to move to"),
                              _flag(form, "force"), **kw)


def renumber_action(db: Path, form: Form, **kw: Any) -> Any:
    """``renumber-tables``: ``keep_order`` shifts the tables, else OpenGotha's order."""
    from goledger import commands

    return commands.renumber_tables(db, _int(form, "round", "round"), _opt_int(form, "start", "first table") or 1,
                                    _text(form, "skip") or None, _flag(form, "keep_order"), **kw)


def routes(pages: Any) -> list[Route]:
    """The routes of this module, over the desk's pages object (``goledger.web.app``)."""

    async def game_page(request: Request) -> Response:
        """One game of a round and every hand edit of it."""
        round_ = request.path_params["round"]

        def build() -> dict[str, Any]:
            from goledger.ledger.values import Result, effective_komi

            state = pages.desk.state()
            table = whole(request.query_params.get("table", ""), "table", signed=False)
            if not 1 <= round_ <= state.rounds:
                raise CommandRejected(say("round %(round)d is outside 1..%(rounds)d of this tournament",
                                          round=round_, rounds=state.rounds))
            games = state.games.get(round_, {})
            if not games:
                raise CommandRejected(say("round %(round)d is not paired yet", round=round_))
            game = games.get(table)
            if game is None:
                raise CommandRejected(say("round %(round)d has no table %(table)d", round=round_, table=table))
            komi = effective_komi(state.settings_for_round(round_).komi, game.komi, game.handicap)
            return {"state": state, "round": round_, "game": game, "white": state.players[game.white],
                    "black": state.players[game.black], "komi": komi, "head": state.seq,
                    "has_result": game.result is not Result.UNKNOWN}

        data = await pages.read(request, build)
        return pages.render(request, "game_edit.html", **data)

    return [Route("/desk/round/{round:int}/game", pages.director_only(game_page))]
