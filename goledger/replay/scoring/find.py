"""Find my table (issue 32, item 3): a player typed by name (any case, any accents, surname or
first name first, a part of either) or by EGD PIN → his game of the round being played (table,
opponent, colour, handicap, komi) and his results so far.

The players' view asks this on every public page (``/find?q=``) and ``GET /api/find?q=`` is
its JSON twin (:meth:`Found.to_dict`). Names are compared in :func:`~goledger.replay.fold.players.match_key`
form (``Müller`` = ``muller`` = ``MÜLLER``); every word typed must begin a word of the name
(``kim you`` finds *Kim Youngsam*), or the whole text must be a part of it. A query of digits
is also an EGD PIN (exact). At most :data:`LIMIT` players are answered, exact surnames first.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

from goledger.ledger.values import Result, effective_komi
from goledger.replay.fold.players import match_key
from goledger.replay.scoring.units import unit_of_player, unit_state

if TYPE_CHECKING:
    from goledger.replay.fold.state import PlayerState, TournamentState

__all__ = ["LIMIT", "MAX_QUERY", "Found", "FoundGame", "NameIndex", "find_players"]

LIMIT: Final = 10
MAX_QUERY: Final = 80
"""Characters of a query read (a name is never longer)."""


@dataclass(frozen=True)
class FoundGame:
    """One round of the player, seen from him."""

    round: int
    table: int | None
    colour: str
    """``white``, ``black`` or ``""`` without a game (then ``status`` says why)."""
    opponent: str
    opponent_rank: str
    opponent_id: str
    handicap: int
    komi: str
    outcome: str
    """``won``, ``lost``, ``jigo``, ``both won``, ``both lost`` (with ``by default``), or ``""``
    while the game is on."""
    status: str
    """The player's status in the round (``paired``, ``bye``, ``absent``, ``withdrawn``,
    ``not-assigned``)."""

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "colour": self.colour,
                "opponent": {"id": self.opponent_id, "name": self.opponent, "rank": self.opponent_rank}
                if self.opponent_id else None,
                "handicap": self.handicap, "komi": self.komi, "outcome": self.outcome, "status": self.status}


@dataclass(frozen=True)
class Found:
    """A player found: who he is, his game of ``round`` (``None`` before any round is shown),
    and every earlier round."""

    player: PlayerState
    round: int
    now: FoundGame | None
    results: tuple[FoundGame, ...]

    def to_dict(self) -> dict[str, Any]:
        p = self.player
        return {"id": p.id, "name": p.full_name, "surname": p.surname, "first_name": p.first_name,
                "rank": p.rank, "country": p.country, "club": p.club, "egd_pin": p.egd_pin,
                "withdrawn_from": p.withdrawn_from, "round": self.round,
                "now": self.now.to_dict() if self.now is not None else None,
                "results": [g.to_dict() for g in self.results]}


@lru_cache(maxsize=16384)
def _key(text: str) -> str:
    """:func:`match_key` of a name, remembered (the index is rebuilt at every head; names rarely change)."""
    return match_key(text)


class NameIndex:
    """The players of one state in matching form (built once per ledger head)."""

    def __init__(self, state: TournamentState) -> None:
        self.seq = state.seq
        self.entries: list[tuple[str, str, tuple[str, ...], str]] = []
        for p in state.players.values():
            surname = _key(p.surname)
            name = _key(f"{p.surname} {p.first_name}")
            self.entries.append((p.id, surname, tuple(name.replace("-", " ").split()), name))
        self.pins = {p.egd_pin: p.id for p in state.players.values() if p.egd_pin}

    def search(self, query: str, limit: int = LIMIT) -> list[str]:
        """Player ids matching ``query``, exact surnames first, then by name."""
        text = match_key(query[:MAX_QUERY]).strip()
        if not text:
            return []
        hits: list[tuple[int, str, str]] = []
        if text.isdigit() and text in self.pins:
            hits.append((0, "", self.pins[text]))
        words = text.replace("-", " ").split()
        flat = " ".join(words)
        for pid, surname, tokens, name in self.entries:
            if all(any(t.startswith(w) for t in tokens) for w in words):
                hits.append((1 if surname == flat else 2, name, pid))
            elif flat in name or flat in " ".join(tokens):
                hits.append((3, name, pid))
        seen: set[str] = set()
        out = []
        for _, _, pid in sorted(hits):
            if pid not in seen:
                seen.add(pid)
                out.append(pid)
        return out[:limit]


def _game(state: TournamentState, player_id: str, round_: int, shown: TournamentState | None = None) -> FoundGame:
    """``player_id``'s game of ``round_``; the opponent named as in ``shown`` (a Pair Go or
    Rengo tournament's units, :func:`~goledger.replay.scoring.units.unit_state`)."""
    game = state.game_of(player_id, round_)
    status = state.status(player_id, round_)
    if game is None:
        return FoundGame(round_, None, "", "", "", "", 0, "", "", status)
    white = game.white == player_id
    opponent = (shown or state).players[game.black if white else game.white]
    mine, theirs = game.result.points2()
    if not white:
        mine, theirs = theirs, mine
    outcome = "" if game.result is Result.UNKNOWN else (
        "won" if mine > theirs else "lost" if mine < theirs else "jigo" if mine == 1 else
        "both won" if mine == 2 else "both lost")
    if outcome and game.by_default:
        outcome += " by default"
    komi = state.settings_for_round(round_).komi if state.settings is not None else "7.5"
    return FoundGame(round_, game.table, "white" if white else "black", opponent.full_name, opponent.rank,
                     opponent.id, game.handicap, effective_komi(komi, game.komi, game.handicap), outcome, status)


def find_players(state: TournamentState, query: str, round_: int, index: NameIndex | None = None,
                 limit: int = LIMIT) -> list[Found]:
    """The players ``query`` names, each with his game of ``round_`` (the round the players'
    view shows; ``0``: none yet) and his rounds before it.

    >>> from goledger.ledger import events as ev
    >>> from goledger.replay.fold.state import fold
    >>> s = fold([ev.TournamentCreated(settings=ev.TournamentSettings(name="T", rounds=2)),
    ...           ev.PlayerRegistered(player_id="p0001", surname="Müller", first_name="Jörg", rank="2d"),
    ...           ev.PlayerRegistered(player_id="p0002", surname="Ito", rank="1k", egd_pin="12345678"),
    ...           ev.GamePaired(round=1, table=4, white="p0002", black="p0001", handicap=2)])
    >>> found = find_players(s, "MULLER jo", 1)
    >>> found[0].now.table, found[0].now.colour, found[0].now.opponent, found[0].now.komi
    (4, 'black', 'Ito', '0.5')
    >>> [f.player.id for f in find_players(s, "12345678", 1)], find_players(s, "nobody", 1)
    (['p0002'], [])
    """
    index = index if index is not None and index.seq == state.seq else NameIndex(state)
    shown = unit_state(state)
    found = []
    for pid in index.search(query, limit):
        unit = unit_of_player(state, pid)   # a unit's member plays in his unit's game
        plays = unit.representative if unit is not None else pid
        now = _game(state, plays, round_, shown) if 1 <= round_ <= state.rounds else None
        results = tuple(_game(state, plays, r, shown) for r in range(1, min(round_, state.rounds + 1)))
        found.append(Found(state.players[pid], round_, now, results))
    return found
