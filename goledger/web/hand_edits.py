"""The desk's hand edits (issue 31): a game's page with its edits (swap colours, handicap,
komi, table, unpair), the round's renumbering, and hand pairing by the tournament's rule.

Issue 43, item 4: hand pairing picks two unpaired players from lists and shows the game the
rule makes of them (colours, handicap, komi, table: :func:`pair_preview`, the very
``GamePaired`` that :func:`goledger.commands.hand.decide_pair` decides) before "Record"
posts it; the round's games are selected in its table to swap their colours or move or
exchange their tables (:func:`edit_games_action`).

Every form posts to ``/desk/do/ACTION`` (:mod:`goledger.web.actions`), which calls the same
library function as the CLI (``edit-game``, ``renumber-tables``, ``pair``, ``unpair``) with the
head the page was rendered at: the same rules, the same refusals. This module adds the game's
page (``GET /desk/round/R/game?table=T``) and the runner of the selected games' edits.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from goledger.errors import CommandRejected, GoledgerError
from goledger.i18n import gettext
from goledger.i18n.messages import say
from goledger.web.form_types import MOVE_TO, EditGames, PairGame, decode
from goledger.web.forms import Form, missing, whole
from goledger.web.forms import flag as _flag
from goledger.web.forms import text as _text

if TYPE_CHECKING:
    from goledger.replay.fold.state import TournamentState

__all__ = ["edit_games_action", "pair_preview", "pairable_scores", "routes", "selected_tables"]


def pair_preview(state: TournamentState, round_: int, query: Form) -> dict[str, Any] | None:
    """The game hand pairing would record for the two players picked in ``query`` (``white``,
    ``black``, ``colours`` = ``picked`` or else ``rule``, optional ``table``, ``handicap`` and
    ``force``), decided as the ``pair`` form records it
    (:meth:`goledger.web.form_types.PairGame.keywords`): ``{"game", "white", "black", "komi",
    "fields"}``, or ``{"problem", "fields"}`` with the refusal's sentence; ``None`` when two
    players are not picked."""
    from goledger.commands.hand import decide_pair
    from goledger.ledger import events as ev
    from goledger.ledger.values import effective_komi

    white, black = _text(query, "white"), _text(query, "black")
    if not white or not black:
        return None
    fields = {"white": white, "black": black, "colours": "picked" if _text(query, "colours") == "picked" else "rule",
              "table": _text(query, "table"), "handicap": _text(query, "handicap"),
              "force": "1" if _flag(query, "force") else ""}
    picked = decode({**query, "round": str(round_)}, PairGame)
    try:
        events = decide_pair(state, round_, white, black, colours_by_hand=fields["colours"] != "rule",
                             table=picked.table, handicap=picked.handicap, force=picked.force)
    except GoledgerError as exc:
        return {"problem": exc.message, "fields": fields}
    game = events[0]
    assert isinstance(game, ev.GamePaired)
    komi = effective_komi(state.settings_for_round(round_).komi, game.komi, game.handicap)
    return {"game": game, "white": state.players[game.white], "black": state.players[game.black], "komi": komi,
            "fields": fields}


def pairable_scores(state: TournamentState, round_: int, players: list[Any]) -> dict[str, str]:
    """Each of ``players``' main score after round ``round_`` − 1 (``MMS 2½``), as OpenGotha's
    list of pairable players shows it; empty for round 1 or nobody to pair."""
    from goledger.ledger.values import format_points
    from goledger.replay.scoring.standings import standings

    if round_ <= 1 or not players:
        return {}
    table = standings(state, round_ - 1)
    if not table.criteria:
        return {}
    main = table.criteria[0]
    wanted = {p.id for p in players}
    return {row.player_id: f"{main} {format_points(row.values[main], table.scales[main])}" for row in table.rows
            if row.player_id in wanted and main in row.values}


def selected_tables(form: Form) -> list[int]:
    """The tables of the games ticked in the round's table (check boxes ``game_T``)."""
    return sorted({whole(key[5:], "table", signed=False) for key in form if key.startswith("game_")
                   and _flag(form, key)})


def edit_games_action(db: Path, form: Form, **kw: Any) -> Any:
    """The games selected in the round's table (:func:`selected_tables`), by ``what``:
    ``swap`` swaps the colours of each of them (one transaction), ``move`` moves the one
    selected game to table ``move_to``, ``exchange`` exchanges the tables of the two selected
    games (``edit-game --move-to`` onto a taken table swaps them)."""
    from goledger import commands
    from goledger.commands.hand import decide_edit_game
    from goledger.commands.recording import record

    fields = decode(form, EditGames)
    round_, what, force = fields.round, fields.what, fields.force
    tables = selected_tables(form)
    if not tables:
        raise CommandRejected(gettext("select the games first: tick them in the table's first column"))
    if what == "swap":
        return record(db, lambda state: [e for t in tables for e in decide_edit_game(
            state, round_, t, swap_colours=True, force=force)],
            lambda state, events: gettext("round %(round)d: colours swapped at tables %(tables)s") % {
                "round": round_, "tables": ", ".join(str(t) for t in tables)}, **kw)
    if what == "move":
        if len(tables) != 1:
            raise CommandRejected(gettext("select one game to move (%(n)d are selected)") % {"n": len(tables)})
        if fields.move_to is None:
            raise missing(MOVE_TO)
        return commands.edit_game(db, round_, tables[0], move_to=fields.move_to, force=force, **kw)
    if what == "exchange":
        if len(tables) != 2:
            raise CommandRejected(gettext("select two games to exchange their tables (%(n)d are selected)")
                                  % {"n": len(tables)})
        return commands.edit_game(db, round_, tables[0], move_to=tables[1], force=force, **kw)
    raise CommandRejected(say("%(what)r is not an edit of the selected games: use swap, move or exchange",
                              what=what))


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
