"""The rules a tournament is scored by: one value, resolved once from a policy and the
tournament's settings (issue 48, item 4).

A :class:`~goledger.replay.scoring.policies.Policy` leaves some choices to the tournament
(``None``: "take the tournament's own parameter", as an imported OpenGotha file brings its bye
and absent values, its round-down flag and its half-point option). :func:`rules_for` is the one
place that answers "the policy's value, else the tournament's": the numbers (the round table,
the scoring context, the FIDE rounds) and the words that explain them (``explain``, the
withdrawal and absence sentences, a dispute's rule) read the same :class:`Rules`, so an
explanation can never name another value than the one the score used.

>>> from goledger.ledger.events import TournamentSettings
>>> from goledger.replay.scoring.policies import get_policy
>>> club = TournamentSettings(name="club", rounds=5, mms2_absent=0, round_down=False)
>>> rules = rules_for(get_policy("opengotha"), club)
>>> rules.mms2_absent, rules.round_down, rules.source("mms2_absent")
(0, 'none', 'tournament')
>>> egf = rules_for(get_policy("egf"), club)
>>> egf.mms2_absent, egf.round_down, egf.source("mms2_absent")
(1, 'whole-score', 'policy')
>>> egf.criteria
('MMS', 'DC', 'SOSM-2', 'Rating')
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from goledger.ledger.events import TournamentSettings
from goledger.replay.scoring.policies import Policy
from goledger.replay.scoring.start_scores import rank_value

__all__ = ["MAIN_SCORE", "Rules", "rules_for"]

MAIN_SCORE: Final[dict[str, str]] = {"mcmahon": "MMS", "swiss": "NBW", "swisscat": "NBW", "cup": "CPS",
                                     "round-robin": "NBW"}
"""A system's main score criterion (spec §2.1 presets); any other system ranks by NBW."""

RoundDown = Literal["unpaired-part", "whole-score", "none"]
Adjustment = Literal["none", "all-unplayed-as-draw", "withdrawal-as-draw"]

_FROM_TOURNAMENT: Final = ("nbw2_bye", "mms2_bye", "nbw2_absent", "mms2_absent", "round_down", "not_played_as_half")
"""The policy fields whose ``None`` means "the tournament's own value"."""


class Rules(msgspec.Struct, frozen=True, kw_only=True):
    """Every rule choice the scores, the standings and their explanations need, for one
    policy and the settings in force (values in half-points, as everywhere in the engine).
    Build it with :func:`rules_for`; each field names the spec row (``scoring.md``) it
    implements."""

    policy: Policy
    """The policy, for the choices it always makes itself (criteria flavours, quirks…)."""
    settings: TournamentSettings
    """The tournament's settings the values below were resolved against."""

    nbw2_bye: int
    """§7.1: NBW half-points of a bye without a value of its own."""
    mms2_bye: int
    """§7.1: MMS half-points of such a bye."""
    nbw2_absent: int
    """§7.2: NBW half-points of an announced absence without a value of its own."""
    mms2_absent: int
    """§7.2: MMS half-points of such an absence."""
    not_assigned: Literal["zero", "absent"]
    """§7.3: a participating player left neither paired nor bye scores 0 or the absent value."""
    withdrawn: Literal["absent", "zero"]
    """§7.1–7.3 for a withdrawal: each round from it on scores the absent value, or nothing."""
    round_down: RoundDown
    """§7.4: what is rounded down: the bye/absent part (OpenGotha), the whole score (EGF), nothing."""
    jigo2: int
    """§7.5: half-points of a jigo."""
    not_played_as_half: bool
    """§7.9: opponents' not-played rounds count ½ in the SOS family (OpenGotha's option)."""
    opponent_score_adjustment: Adjustment
    """§7.9 for FIDE BH/SB: which of the opponents' unplayed rounds count as draws."""
    fide_event_type: Literal["swiss", "round-robin"]
    """§4.3 (C.07 articles 15–16): the FIDE unplayed-round rules of a Swiss event, or of an
    event with pre-determined pairings (forfeits are games); the policy's, else the system's."""
    sos_handicap_correction: bool
    """§7.11: ±handicap on the opponent's score in the McMahon SOS family."""
    mm_bar: str
    """§1.1 start score: the McMahon bar."""
    mm_floor: str
    """§1.1 start score: the McMahon floor."""
    mm_zero: str
    """§1.1 start score: the McMahon zero (30k under ``quirk_mm_zero_30k``, spec §2.7)."""
    sts_zero: str
    """§1.1 STS: the zero the bar's start score is counted from in the Strasbourg bonus (30k
    under ``quirk_sts_zero_30k``, oracle README item 11; else the tournament's)."""
    criteria: tuple[str, ...]
    """§2.1: the placement criteria when a view names none: the tournament's, else the
    policy's for the system, else the system's main score."""
    from_policy: frozenset[str]
    """The names of the values above that the policy set (the others are the tournament's)."""

    def source(self, name: str) -> Literal["policy", "tournament"]:
        """Whose value ``name`` is (the words of an explanation say it).

        >>> from goledger.replay.scoring.policies import get_policy
        >>> rules_for(get_policy("egf"), TournamentSettings(name="t", rounds=3)).source("nbw2_bye")
        'policy'
        """
        return "policy" if name in self.from_policy else "tournament"

    @property
    def start_settings(self) -> TournamentSettings:
        """The settings start scores are computed with: the tournament's, with the McMahon
        zero these rules use."""
        if self.mm_zero == self.settings.mm_zero:
            return self.settings
        return msgspec.structs.replace(self.settings, mm_zero=self.mm_zero)

    @property
    def mm_zero_ignored(self) -> bool:
        """Whether the tournament's own McMahon zero is set aside (``quirk_mm_zero_30k``)."""
        return self.mm_zero != self.settings.mm_zero


def rules_for(policy: Policy, settings: TournamentSettings) -> Rules:
    """The :class:`Rules` of ``policy`` with the tournament's ``settings`` (those in force
    for the round looked at): each value the policy leaves open (``None``) is the
    tournament's. This is the only place that makes that choice."""
    own = frozenset(name for name in _FROM_TOURNAMENT if getattr(policy, name) is not None)
    half = settings.not_played_as_half if policy.not_played_as_half is None else policy.not_played_as_half
    adjustment: Adjustment = (policy.opponent_score_adjustment if policy.opponent_score_adjustment is not None
                              else "all-unplayed-as-draw" if half else "none")
    round_down: RoundDown = (policy.round_down if policy.round_down is not None
                             else "unpaired-part" if settings.round_down else "none")
    zero = "30k" if policy.quirk_mm_zero_30k and rank_value(settings.mm_zero) != -30 else settings.mm_zero
    criteria = settings.criteria or policy.criteria_for(settings.system) or (MAIN_SCORE.get(settings.system, "NBW"),)
    return Rules(
        policy=policy, settings=settings,
        nbw2_bye=settings.nbw2_bye if policy.nbw2_bye is None else policy.nbw2_bye,
        mms2_bye=settings.mms2_bye if policy.mms2_bye is None else policy.mms2_bye,
        nbw2_absent=settings.nbw2_absent if policy.nbw2_absent is None else policy.nbw2_absent,
        mms2_absent=settings.mms2_absent if policy.mms2_absent is None else policy.mms2_absent,
        not_assigned=policy.not_assigned, withdrawn=policy.withdrawn, round_down=round_down, jigo2=policy.jigo2,
        not_played_as_half=half, opponent_score_adjustment=adjustment,
        fide_event_type=(policy.fide_event_type if policy.fide_event_type != "auto"
                         else "round-robin" if settings.system == "round-robin" else "swiss"),
        sos_handicap_correction=policy.sos_handicap_correction,
        mm_bar=settings.mm_bar, mm_floor=settings.mm_floor, mm_zero=zero,
        sts_zero="30k" if policy.quirk_sts_zero_30k else settings.mm_zero, criteria=criteria, from_policy=own,
    )
