"""The FIDE rule policies: ``fide-2009``, ``fide-2024`` and ``fide-2026`` (spec ``scoring.md`` §4, §7).

They differ only in how unplayed rounds enter Buchholz, Sonneborn-Berger and their variants:

* ``fide-2009`` (C.02 §13.15–13.16, 2009–2023): an own unplayed round is a game against a
  *virtual opponent* (score before the round + the complementary result + a draw for every
  later round); every unplayed round of an opponent counts as a draw; cuts drop the lowest
  values.
* ``fide-2024`` (C.07 article 16 as in force from 2023/2024): an own unplayed round is a game
  against a *dummy* with the player's own score; for opponents only category-5 rounds (a
  requested bye followed only by voluntary unplayed rounds, i.e. a withdrawal, or one in the
  last round) count as draws; voluntary unplayed rounds are cut first.
* ``fide-2026`` (C.07 effective 1 March 2026): as 2024, with the dummy's score capped (16.4):
  at the scheduled opponent's adjusted score for forfeits, at draw points × rounds otherwise.

Every choice is a named :class:`~goledger.replay.scoring.policies.Policy` option, so a tournament can
keep one of these and override a single rule (``policy_overrides``).

>>> from goledger.replay.scoring.policies import get_policy
>>> [get_policy(n).sos_own_unplayed for n in ("fide-2009", "fide-2024", "fide-2026")]
['virtual-opponent', 'dummy', 'capped-dummy']
"""

from __future__ import annotations

from goledger.replay.scoring.policies import Policy, register_policy

__all__ = ["FIDE_2009", "FIDE_2024", "FIDE_2026"]

_COMMON = {
    "round_down": "none",
    "not_played_as_half": False,
    "sos_handicap_correction": False,
    "sos_own_forfeit_round": "unplayed",
    "sodos_weighting": "points-scored",
    "direct_comparison": "fide",
    "listed_players": "all",
    "default_criteria": ("PTS", "BH-C1", "BH", "SB"),
}

FIDE_2009 = register_policy(
    Policy(
        name="fide-2009",
        description=(
            "FIDE C.02 §13.15–13.16 (2009–2023): own unplayed rounds against a virtual opponent "
            "(score before the round + complementary result + ½ per later round), opponents' unplayed "
            "games counted as draws, cuts drop the lowest values."
        ),
        sos_own_unplayed="virtual-opponent",
        opponent_score_adjustment="all-unplayed-as-draw",
        cut_rule="lowest",
        virtual_opponent_for_sb=True,
        **_COMMON,  # type: ignore[arg-type]
    )
)

FIDE_2024 = register_policy(
    Policy(
        name="fide-2024",
        description=(
            "FIDE C.07 article 16 (2023/2024, TieBreakServer): own unplayed rounds against a dummy with "
            "the player's own score; for opponents only a withdrawal's trailing requested byes (category 5) "
            "count as draws; voluntary unplayed rounds cut first."
        ),
        sos_own_unplayed="dummy",
        opponent_score_adjustment="withdrawal-as-draw",
        cut_rule="vur-first",
        **_COMMON,  # type: ignore[arg-type]
    )
)

FIDE_2026 = register_policy(
    Policy(
        name="fide-2026",
        description=(
            "FIDE C.07 effective 1 March 2026: as fide-2024, with the dummy's score capped (16.4) at the "
            "scheduled opponent's adjusted score for forfeits and at draw points × rounds for byes."
        ),
        sos_own_unplayed="capped-dummy",
        opponent_score_adjustment="withdrawal-as-draw",
        cut_rule="vur-first",
        **_COMMON,  # type: ignore[arg-type]
    )
)
