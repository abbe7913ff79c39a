"""What a pairing engine is: a pure function of the tournament before a round, the players to
pair, its parameters and a seed, returning games and a bye with integer weights (DESIGN §8,
spec ``pairing.md``).

Engines never write. ``commands.pair_round`` folds the ledger, asks the tournament's engine for
a :class:`Pairing`, and appends one ``RoundPaired`` event (the engine's name, version, every
parameter it used, the seed, the chunks, the total weight, the bye's candidates and rule)
followed by the ``GamePaired``/``ByeAssigned`` events it produced. ``pair-round --check`` asks
the same engine again with the same inputs and compares.

>>> g = PairedGame(table=1, white="p0001", black="p0002", handicap=0, komi="7.5", weight=12)
>>> Pairing(engine="egf", version="1", round=1, games=(g,), total_weight=12).players()
('p0001', 'p0002')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

import msgspec

if TYPE_CHECKING:
    from goledger.replay.fold.state import TournamentState

__all__ = ["ByeChoice", "Engine", "PairTerms", "PairedGame", "Pairing", "PairingRequest"]


class PairingRequest(msgspec.Struct, frozen=True, kw_only=True):
    """What to pair: round ``round`` (1-based) for the players ``players`` (ledger ids, the
    bye's candidates included; already paired players and byes are not in it), with the
    engine's parameters ``parameters`` (names and values as text, the engine's own defaults
    filling the rest) and the seed of every random choice."""

    round: int
    players: tuple[str, ...]
    seed: int = 0
    parameters: Mapping[str, str] = msgspec.field(default_factory=dict)


class PairedGame(msgspec.Struct, frozen=True, kw_only=True):
    """One game of a pairing: table (1-based), colours, handicap (stones, 0 = even), komi as
    an exact decimal string (``None``: the tournament's default) and the pair's weight in the
    engine's integer arithmetic (for OpenGotha its ``costValue``)."""

    table: int
    white: str
    black: str
    handicap: int = 0
    komi: str | None = None
    weight: int = 0


class ByeChoice(msgspec.Struct, frozen=True, kw_only=True):
    """Who got the bye and why: the candidates in the order the rule ranked them (best first,
    with the integer the rule compared), and the rule in one sentence."""

    player: str
    candidates: tuple[tuple[str, int], ...] = ()
    rule: str = ""


class Pairing(msgspec.Struct, frozen=True, kw_only=True):
    """An engine's answer for one round: every game, the bye (or ``None``), the total weight
    of the matching, the sizes of the groups it was matched in (``chunks``), and every
    parameter the engine used with its value (defaults included), so the decision can be
    re-derived from the log alone."""

    engine: str
    version: str
    round: int
    games: tuple[PairedGame, ...] = ()
    bye: ByeChoice | None = None
    total_weight: int = 0
    chunks: tuple[int, ...] = ()
    parameters: Mapping[str, str] = msgspec.field(default_factory=dict)
    seed: int = 0
    unpaired: tuple[tuple[str, str], ...] = ()
    """The players of the request this round does not pair, each with the reason in a few
    words (a tournament system's eliminated players, a knockout bye that is a walk-over into
    the next round, a Paramus's waiting players). ``pair-round`` checks that every requested
    player is placed once or listed here, and records the list in ``RoundPaired``."""
    note: str = ""
    """What the director should know about how this pairing was made, in one sentence
    (empty: nothing): e.g. that the tables were numbered by the fallback rule because
    OpenGotha's own table sort fails on the round. Shown by ``pair-round``, never recorded
    (it follows from the log, as the pairing does)."""

    def players(self) -> tuple[str, ...]:
        """Every player the pairing places: game by game, white first, then the bye."""
        out = [p for g in self.games for p in (g.white, g.black)]
        return (*out, self.bye.player) if self.bye else tuple(out)


class PairTerms(msgspec.Struct, frozen=True, kw_only=True):
    """The weight of one candidate pair, term by term (name → integer), as an explain view
    shows it; ``total`` is what the matching saw."""

    first: str
    second: str
    total: int
    terms: Mapping[str, int] = msgspec.field(default_factory=dict)


class Engine(Protocol):
    """A pairing engine. ``name`` is what ``--engine`` and ``RoundPaired`` say; ``version``
    changes whenever the same inputs could give another pairing.

    Optional: ``best_alternative(state, request, player, exclude) -> PairTerms | None``, the
    heaviest pair of ``player`` with anyone of the request but ``exclude`` (``explain-pairing``
    calls it when present, else it compares :meth:`pair_terms` over every player)."""

    name: str
    version: str

    def pair(self, state: TournamentState, request: PairingRequest) -> Pairing:
        """Pair ``request.players`` for ``request.round`` from ``state`` (the tournament as
        folded before the pairing; it may hold games of earlier rounds and of this round for
        players not in the request). Refuses with ``CommandRejected`` when no pairing exists
        (say why in one sentence)."""
        ...

    def pair_terms(self, state: TournamentState, request: PairingRequest, first: str, second: str) -> PairTerms:
        """The weight of pairing ``first`` with ``second`` in this request, term by term."""
        ...
