"""The ``egf`` engine's choices as named policy data (spec ``pairing.md`` §1.5, R1–R14).

Every weight is an integer; a pair's weight is ``1 +`` the sum of its terms and the matching
maximises the total. The defaults are ordered so that a stronger rule always wins over the sum
of every weaker one on a chunk (``no_repeat`` > ``score`` > ``rank_gap`` > ``club`` >
``country`` > ``draw`` > ``favourites`` > ``seeding`` > ``colour``), which is the seeds' R14:
the rules conflict, so the pairing is the best weighted compromise.

A tournament sets any of them as ``settings.pairing["egf.<name>"] = "<text>"`` (``goledger
change-rules pairing='{"egf.seeding": "fold"}'``); ``pair_round(parameters=…)`` is not offered on
purpose: what pairs a round is the tournament's rules, kept in the log.

>>> p = EgfParameters.from_texts({"seeding": "fold", "max_rank_gap": "5"})
>>> p.seeding, p.max_rank_gap, p.no_repeat
('fold', 5, 500000000000000)
>>> EgfParameters.from_texts({"seeding": "zigzag"})
Traceback (most recent call last):
...
goledger.errors.CommandRejected: egf parameter seeding must be one of fold, adjacent, slide, not 'zigzag'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from goledger.errors import CommandRejected
from goledger.ledger.values import bounded_int

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["CHOICES", "EgfParameters"]

CHOICES: dict[str, tuple[str, ...]] = {
    "seeding": ("fold", "adjacent", "slide"),
    "round1": ("lot", "method"),
    "draw_up": ("top", "middle", "bottom"),
    "draw_down": ("top", "middle", "bottom"),
    "handicap": ("off", "egf"),
}
"""The text parameters and the values each accepts."""


class EgfParameters(msgspec.Struct, frozen=True, kw_only=True):
    """The rules of the ``egf`` engine, each with the seed requirement it serves."""

    no_repeat: int = 5 * 10**14
    """R1: added when the two have never met (nor are an ``unwanted`` pair): no repeat
    whenever a repeat-free pairing exists."""
    score: int = 10**11
    """R2: the bonus of two equal main scores (MMS in McMahon, wins in Swiss), less
    ``score_gap`` per squared half-point of difference (so two gaps of one beat one of two)."""
    score_gap: int = 10**9
    """R2: the cost of a score difference of d half-points is ``score_gap · d² / 4``."""
    seeding: str = "slide"
    """R3: within a score group (players by strength): ``fold`` (first–last), ``adjacent``
    (first–second) or ``slide`` (first of the upper half – first of the lower half)."""
    round1: str = "lot"
    """R2: round 1 by a seeded lot (the group's order shuffled by the seed, then adjacent) or
    by the ``seeding`` method on the players' strength."""
    seeding_weight: int = 5 * 10**6
    """R3: the full seeding bonus, for the ideal partner; it falls with the square of the
    distance from him."""
    draw_up: str = "middle"
    """R4: where in his group the player drawn up (to a higher group) should come from."""
    draw_down: str = "middle"
    """R4: where in his group the player drawn down should come from."""
    draw: int = 10**8
    """R4: the draw-up/down term: full for a pair in one group; across groups, a quarter for
    each player's position and a half for balance (a player already drawn down is not drawn
    down again, a draw that corrects an earlier opposite one is preferred)."""
    draw_span: int = 6
    """R4: the largest score difference (half-points) that still earns position and balance."""
    club: int = 2 * 10**9
    """R5: the bonus of two players from different clubs (an unknown club counts as different)."""
    country: int = 5 * 10**8
    """R5: the bonus of two players from different countries. Neither geography term biases a
    pair with a player at or above the McMahon bar (EGF rules): such pairs get both in full."""
    colour: int = 10**6
    """R6: the bonus of a pair whose colour balances are not both to the same side."""
    max_rank_gap: int = 9
    """R7: the largest grade difference between opponents; hard (no such pair) when
    handicaps are on, else a pair beyond it loses ``rank_gap`` in tenths per grade over."""
    rank_gap: int = 10**10
    """R7: the bonus of a pair within ``max_rank_gap``."""
    favourites: int = 4
    """R8: how many of the strongest players (by rank, then rating) are favourites."""
    favourites_until: int = 0
    """R8: the last round in which two favourites are kept apart (0: half the rounds)."""
    favourites_weight: int = 10**7
    """R8: the bonus of a pair that is not two favourites, in those rounds."""
    handicap: str = "off"
    """R9: ``off`` (even games) or ``egf``: between two players of 15k and below, the grade
    difference − 2 stones (Black), komi 0.5; capped by the tournament's handicap ceiling."""
    chunk_size: int = 200
    """Scale: the pool is matched in chunks of about this many players, cut between score
    groups where possible; a chunk that would need a repeat or has no perfect matching is
    merged with its neighbour and matched again."""

    @classmethod
    def from_texts(cls, texts: Mapping[str, str]) -> EgfParameters:
        """Parameters from ``name → text`` (unknown names and bad values refused)."""
        fields = set(cls.__struct_fields__)
        values: dict[str, Any] = {}
        for name, text in texts.items():
            if name not in fields:
                raise CommandRejected(f"unknown egf parameter {name!r} (known: {', '.join(sorted(fields))})")
            if name in CHOICES:
                if text not in CHOICES[name]:
                    raise CommandRejected(f"egf parameter {name} must be one of {', '.join(CHOICES[name])}, "
                                          f"not {text!r}")
                values[name] = text
            else:
                try:
                    number = bounded_int(str(text), digits=19)
                except ValueError:
                    raise CommandRejected(f"egf parameter {name} must be a whole number, not {text!r}") from None
                if number < 0 or (name == "chunk_size" and number < 2):
                    raise CommandRejected(f"egf parameter {name} must be positive, not {text!r}")
                values[name] = number
        return cls(**values)

    def texts(self) -> dict[str, str]:
        """Every parameter as text (what ``RoundPaired.parameters`` keeps)."""
        return {name: str(getattr(self, name)) for name in self.__struct_fields__}
