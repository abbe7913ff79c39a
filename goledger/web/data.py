"""What the desk's pages show, read from the tournament state (pure functions, no I/O).

The pairings of a recorded round are given in the shape ``pair-round R --dry-run --json``
prints (issue 17, §6): ``{"round", "engine", "total_weight", "bye", "games": [{"table",
"white", "black", "handicap", "komi"}]}`` with each player as ``{"id", "surname",
"first_name"}``. A recorded round has no engine run to describe, so ``engine`` is
``"recorded"`` and ``total_weight`` is ``None``; a game's ``komi`` is its own or, when it has
none, the one in force for the round.
"""

from __future__ import annotations

from typing import Any

from goledger.i18n import gettext
from goledger.ledger.values import Result, effective_komi, format_points
from goledger.replay.fold.players import fold_name
from goledger.replay.fold.state import GameState, PlayerState, TournamentState
from goledger.replay.scoring.standings import Standings

__all__ = [
    "RESULT_SHORT",
    "current_round",
    "game_rows",
    "pairings_dict",
    "placed_for_good",
    "player_dict",
    "player_games",
    "player_rows",
    "public_standings_rows",
    "round_progress",
    "shown_round",
    "standings_rows",
    "unassigned",
    "without_unregistered",
]

RESULT_SHORT: dict[Result, str] = {
    Result.WHITE: "1-0", Result.BLACK: "0-1", Result.JIGO: "½-½", Result.BOTH_LOSE: "0-0",
    Result.BOTH_WIN: "1-1", Result.UNKNOWN: "",
}
"""A result as printed on a pairing list (white's points first)."""


def player_dict(player: PlayerState) -> dict[str, str]:
    """``{"id", "surname", "first_name"}``, the player reference of the pairing JSON."""
    return {"id": player.id, "surname": player.surname, "first_name": player.first_name}


def shown_round(state: TournamentState) -> int:
    """The round the players' view is about: the last one with games or byes that is shown
    to the players (``pairings_visible=manual``: once ``show-round`` showed it; 0 before any)."""
    last = min(state.last_round_with_games(), max(state.rounds, 0))
    while last >= 1 and not state.round_visible(last):
        last -= 1
    return last


def round_progress(state: TournamentState, round_: int) -> dict[str, Any]:
    """How far ``round_`` is: ``{"round", "games", "results", "in_progress"}``; a round is in
    progress while some of its games have no result yet."""
    games = state.games_of_round(round_) if round_ >= 1 else []
    results = sum(1 for g in games if g.result is not Result.UNKNOWN)
    return {"round": round_, "games": len(games), "results": results,
            "in_progress": bool(games) and results < len(games)}


def public_standings_rows(table: Standings, state: TournamentState) -> list[tuple[Any, ...]]:
    """The players' standings as tuples (a congress has 760 rows; tuples render fastest):
    place (``""`` when shared with the row above), player id, name, the round he withdrew from
    (``None``), rank, country, club, and each criterion's value as exact text."""
    scales = [(c, table.scales[c]) for c in table.criteria]
    players = state.players
    rows: list[tuple[Any, ...]] = []
    previous = None
    for r in table.rows:
        p = players.get(r.player_id)
        rows.append((
            "" if r.place == previous else r.place, r.player_id, f"{r.surname} {r.first_name}".strip(),
            p.withdrawn_from if p is not None else None, r.rank, p.country if p is not None else "",
            p.club if p is not None else "", [format_points(r.values[c], scale) for c, scale in scales]))
        previous = r.place
    return rows


def current_round(state: TournamentState) -> int:
    """The round the players' view shows: the last one with games or byes (1 before any)."""
    return max(1, min(state.last_round_with_games() or 1, max(state.rounds, 1)))


def pairings_dict(state: TournamentState, round_: int) -> dict[str, Any]:
    """The recorded pairings of ``round_`` in the shape of ``pair-round --dry-run --json``.

    >>> from goledger.ledger import events as ev
    >>> from goledger.replay.fold.state import fold
    >>> s = fold([ev.TournamentCreated(settings=ev.TournamentSettings(name="T", rounds=2)),
    ...           ev.PlayerRegistered(player_id="p0001", surname="Sato", rank="2d"),
    ...           ev.PlayerRegistered(player_id="p0002", surname="Ito", rank="1k"),
    ...           ev.GamePaired(round=1, table=1, white="p0001", black="p0002")])
    >>> pairings_dict(s, 1)["games"][0]["white"]
    {'id': 'p0001', 'surname': 'Sato', 'first_name': ''}
    >>> pairings_dict(s, 1)["games"][0]["komi"], pairings_dict(s, 1)["bye"]
    ('7.5', None)
    """
    komi = state.settings_for_round(round_).komi if state.settings else None
    byes = sorted(state.byes.get(round_, {}))
    games = [
        {
            "table": g.table,
            "white": player_dict(state.players[g.white]),
            "black": player_dict(state.players[g.black]),
            "handicap": g.handicap,
            "komi": effective_komi(komi, g.komi, g.handicap) if komi is not None else g.komi,
        }
        for g in state.games_of_round(round_)
    ]
    return {
        "round": round_,
        "engine": "recorded",
        "total_weight": None,
        "bye": player_dict(state.players[byes[0]]) if byes else None,
        "games": games,
    }


def standings_rows(table: Standings) -> list[tuple[int, str, str, str, list[str]]]:
    """The standings as table rows: place, player id, name, rank and each criterion's value
    as exact text (``format_points``), computed once here rather than cell by cell in the
    template (a congress has 1,500 rows)."""
    scales = [(c, table.scales[c]) for c in table.criteria]
    return [(r.place, r.player_id, f"{r.surname} {r.first_name}".strip(), r.rank,
             [format_points(r.values[c], scale) for c, scale in scales]) for r in table.rows]


def game_rows(state: TournamentState, round_: int) -> list[dict[str, Any]]:
    """One row per game of ``round_`` for the pages: table, both players, handicap, result."""
    rows = []
    for g in state.games_of_round(round_):
        white, black = state.players[g.white], state.players[g.black]
        rows.append({
            "table": g.table, "white": white, "black": black, "handicap": g.handicap,
            "result": g.result.value if g.result is not Result.UNKNOWN else "",
            "short": RESULT_SHORT[g.result] + ("!" if g.by_default and g.result is not Result.UNKNOWN else ""),
            "by_default": g.by_default,
        })
    return rows


def unassigned(state: TournamentState, round_: int) -> list[PlayerState]:
    """Players of ``round_`` with neither game nor bye, not withdrawn and not absent."""
    return [p for p in state.players.values() if state.status(p.id, round_) == "not-assigned"]


def player_rows(state: TournamentState, query: str = "", round_: int | None = None) -> list[dict[str, Any]]:
    """The registered players whose name, id, club, country or EGD PIN contains ``query``
    (accents and case ignored), with their status in ``round_``."""
    needle = fold_name(query.strip()) if query.strip() else ""
    out = placed_for_good(state)
    rows = []
    for p in state.players.values():
        hay = fold_name(" ".join((p.full_name, p.id, p.club, p.country, p.egd_pin)))
        if needle and needle not in hay:
            continue
        status: str = state.status(p.id, round_) if round_ and 1 <= round_ <= state.rounds else ""
        if status == "not-assigned" and p.id in out:
            status = "out"
        rows.append({"player": p, "status": status_word(status),
                     "withdrawn": gettext("from round %(round)d") % {"round": p.withdrawn_from} if p.withdrawn_from
                     else "",
                     "absences": ", ".join(str(r) for r in sorted(p.absences))})
    return rows


PLAYER_ORDERS: tuple[str, ...] = ("registration", "name", "rank", "rating", "club")
"""How the players page may list the players (``?sort=``)."""


def sorted_rows(rows: list[dict[str, Any]], order: str) -> list[dict[str, Any]]:
    """The players page's rows in ``order`` (:data:`PLAYER_ORDERS`; anything else: as
    registered): by name in the page language's alphabet (:mod:`goledger.i18n.collation`),
    by rank or rating strongest first, or by club (in the alphabet, then by name); a
    player without a rating, rank or club comes last.

    >>> from types import SimpleNamespace as P
    >>> rows = [{"player": P(id=i, surname=s, first_name="", rank=r, rating=g, club=c)} for i, s, r, g, c in
    ...         [("p1", "Çelik", "3k", None, "Ank"), ("p2", "Cem", "2d", 2150, ""), ("p3", "Dinç", "1k", 1950, "Ist")]]
    >>> from goledger.i18n import use_language
    >>> with use_language("tr"):
    ...     [[r["player"].id for r in sorted_rows(rows, o)] for o in ("name", "rank", "rating", "club")]
    [['p2', 'p1', 'p3'], ['p2', 'p3', 'p1'], ['p2', 'p3', 'p1'], ['p1', 'p3', 'p2']]
    """
    from goledger.i18n.collation import sort_key
    from goledger.ledger.values import Rank, RankError

    def name(p: Any) -> tuple[Any, ...]:
        return sort_key(p.surname), sort_key(p.first_name), p.id

    def strength(p: Any) -> int:
        try:
            return -Rank.parse(p.rank).value
        except RankError:
            return 1 << 30

    keys: dict[str, Any] = {
        "name": lambda r: name(r["player"]),
        "rank": lambda r: (strength(r["player"]), name(r["player"])),
        "rating": lambda r: (r["player"].rating is None, -(r["player"].rating or 0), name(r["player"])),
        "club": lambda r: (not r["player"].club, sort_key(r["player"].club), name(r["player"])),
    }
    key = keys.get(order)
    return sorted(rows, key=key) if key is not None else rows


def player_games(state: TournamentState, player_id: str) -> list[dict[str, Any]]:
    """A player's rounds: opponent, colour, handicap, komi (the round's, as the game has it:
    :func:`goledger.ledger.values.effective_komi`), table and result seen from him."""
    from goledger.ledger.values import effective_komi

    rows = []
    out = player_id in placed_for_good(state)
    for round_ in range(1, state.rounds + 1):
        game: GameState | None = state.game_of(player_id, round_)
        status: str = state.status(player_id, round_)
        if status == "not-assigned" and out:
            status = "out"
        if game is None:
            empty: dict[str, Any] = {"round": round_, "status": status_word(status), "table": None, "opponent": None,
                                     "colour": "",
                         "handicap": 0, "komi": "", "outcome": ""}
            rows.append(empty)
            continue
        white = game.white == player_id
        opponent = state.players[game.black if white else game.white]
        mine, theirs = game.result.points2()
        if not white:
            mine, theirs = theirs, mine
        outcome = "" if game.result is Result.UNKNOWN else (
            gettext("won") if mine > theirs else gettext("lost") if mine < theirs else gettext("jigo") if mine == 1
            else gettext("both won") if mine == 2 else gettext("both lost"))
        if game.by_default and outcome:
            outcome = gettext("%(outcome)s by default") % {"outcome": outcome}
        komi = state.settings_for_round(round_).komi if state.settings is not None else "7.5"
        rows.append({"round": round_, "status": status_word(status), "table": game.table, "opponent": opponent,
                     "colour": gettext("white") if white else gettext("black"), "handicap": game.handicap,
                     "komi": effective_komi(komi, game.komi, game.handicap), "outcome": outcome})
    return rows


def placed_for_good(state: TournamentState) -> frozenset[str]:
    """The players the system has placed for good (eliminated from a knockout, out of a
    Paramus…): a round without a game is "out of the event" for them, not "not paired"."""
    from goledger.web.system_pages import system_places

    places = system_places(state)
    return frozenset(row.player_id for row in places.rows if not row.active) if places is not None else frozenset()


def status_word(status: str) -> str:
    """A player's status in a round (``TournamentState.status``) in the language written in."""
    words = {"bye": gettext("Bye"), "absent": gettext("absent"), "withdrawn": gettext("withdrawn"),
             "not-assigned": gettext("not paired"), "paired": gettext("paired"),
             "out": gettext("out of the event")}
    return words.get(status, status)


def without_unregistered(then: TournamentState, now: TournamentState) -> TournamentState:
    """The earlier state ``then`` without the players whose registration was cancelled by
    ``now`` (``goledger unregister``: "the player leaves every view"), for the public's
    ``?as_of=`` views: a cancelled entry, his PIN included, is never shown to the public,
    whichever point of the log is asked for. ``then`` itself is not changed.

    Such a player never had a game or a bye, so nobody else's score moves.
    """
    from goledger.ledger import events as ev
    from goledger.replay.fold.state import fold

    gone = [pid for pid in now.unregistered if pid in then.players]
    if not gone:
        return then
    out = fold((ev.PlayerUnregistered(player_id=pid) for pid in gone), start=then)
    out.seq = then.seq
    return out
