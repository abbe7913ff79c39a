"""The colours, handicap and komi of one pair, as the tournament's own engine gives them
(issue 31: "``pair`` and ``pair-round`` can never differ for the same two players").

:class:`GameRule` answers for one round of one state:

* **McMahon, Swiss, SwissCat** (and every system that has no rule of its own: cup,
  continuous handicap, a tournament without an engine): OpenGotha 3.51.02's
  ``Tournament.gameBetween`` — :func:`goledger.pairing.opengotha.colours.game_between` over
  the same :class:`~goledger.pairing.opengotha.facts.RoundFacts` the ``opengotha`` engine
  builds for ``pair-round`` (pseudo-ranks from the McMahon score after round R−1 or the
  rank, the tournament's ``HandicapSettings``; with handicap 0 the larger white–black
  balance takes Black, equal balances by ``detRandom``). The komi is the one ``pair-round``
  records: none of the game's own, so the game plays ½ with a handicap, else the
  tournament's komi (:func:`goledger.ledger.values.effective_komi`).
* **Other systems with an engine** (handicap, knockout, double knockout, Paramus, match,
  round robin): the engine itself, asked to pair exactly these two players; when it makes
  that game, its colours, handicap and komi are the rule. When it cannot (the two are not
  due to meet under the system), OpenGotha's ``gameBetween`` as above.

The facts are built once per :class:`GameRule`, so a desk (or a test sweeping a whole
round) asks for many pairs at the cost of one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from goledger.errors import GoledgerError

if TYPE_CHECKING:
    from goledger.pairing.opengotha.facts import RoundFacts
    from goledger.replay.fold.state import TournamentState

__all__ = ["GOTHA_RULE", "GameRule", "RuledGame"]

GOTHA_RULE = "OpenGotha's gameBetween"
"""How :attr:`RuledGame.rule` names OpenGotha's rule."""


class RuledGame(msgspec.Struct, frozen=True, kw_only=True):
    """A game as the rule makes it: ``komi`` is the game's own komi (``None``: the
    tournament's, or ½ with a handicap), ``rule`` names the rule in a few words."""

    white: str
    black: str
    handicap: int
    komi: str | None
    rule: str


class GameRule:
    """The rule of round ``round_`` of ``state`` (see the module docstring)."""

    def __init__(self, state: TournamentState, round_: int) -> None:
        assert state.settings is not None
        self.state = state
        self.round = round_
        self._facts: RoundFacts | None = None
        self._games: dict[frozenset[str], RuledGame] = {}
        from goledger.systems import DEFAULT_ENGINE

        engine = DEFAULT_ENGINE.get(state.settings.system)
        self.engine_name = engine if engine is not None and engine != "opengotha" else None

    def facts(self) -> RoundFacts:
        """The ``opengotha`` engine's facts for this round (built on first use)."""
        if self._facts is None:
            from goledger.pairing.engine import PairingRequest
            from goledger.pairing.opengotha.engine import _parameters
            from goledger.pairing.opengotha.facts import RoundFacts

            params = _parameters(self.state, PairingRequest(round=self.round, players=()))
            self._facts = RoundFacts(self.state, self.round, params.weights)
        return self._facts

    def gotha(self, a: str, b: str) -> RuledGame:
        """OpenGotha's ``gameBetween(a, b)`` (symmetric: the order of ``a`` and ``b`` does
        not matter, ``detRandom(1, ·, ·)`` of the two orders are complements)."""
        from goledger.pairing.opengotha.colours import game_between

        white, black, handicap = game_between(self.facts(), a, b)
        return RuledGame(white=white, black=black, handicap=handicap, komi=None, rule=GOTHA_RULE)

    def game(self, a: str, b: str) -> RuledGame:
        """The game of ``a`` and ``b`` in this round as the tournament's rule makes it
        (remembered: the same pair asked again costs nothing)."""
        key = frozenset((a, b))
        found = self._games.get(key)
        if found is None:
            if self.engine_name is not None:
                found = self._from_engine(a, b)
            if found is None:
                found = self.gotha(a, b)
            self._games[key] = found
        return found

    def _from_engine(self, a: str, b: str) -> RuledGame | None:
        from goledger.pairing.engine import PairingRequest
        from goledger.systems import engine_for

        try:
            engine = engine_for(self.state, self.engine_name)
            pairing = engine.pair(self.state, PairingRequest(round=self.round, players=(a, b)))
        except GoledgerError:
            return None
        games = [g for g in pairing.games if {g.white, g.black} == {a, b}]
        if len(games) != 1:
            return None
        g = games[0]
        return RuledGame(white=g.white, black=g.black, handicap=g.handicap, komi=g.komi,
                         rule=f"the {engine.name} engine's rule")
