"""EGF tournament class and adjusted time from a tournament's time settings (spec ``egd.md`` §6).

The EGD weighs a tournament's games by its class (A 1.00, B 0.75, C 0.50, D 0.25), and the
class follows from the *basic* time and the *adjusted* time (basic time plus the time for
45 moves of Japanese byo-yomi, 60 moves of Canadian byo-yomi, or 120 Fischer increments).
The arithmetic is OpenGotha's ``Tournament.egfAdjustedTime`` / ``egfClass`` (and pairgoth's,
which agrees), so a tournament gets the class OpenGotha would print:

==============  =========================  ==========================
class           basic ≥ / adjusted ≥ (s)   Fischer: basic ≥ / adjusted ≥
==============  =========================  ==========================
A               3600 / 4500                2700 / 4500
B               2400 / 3000                1800 / 3000
C               1500 / 1800                1200 / 1800
D (internet)    2400 / 3000                1800 / 3000
==============  =========================  ==========================

Anything else is ``X`` (no class: the EGD upload form then asks, or refuses to rate).

The module sits in ``rating/`` (the rating preview weighs games by class and lies below the
formats); the EGD and FFG writers import it from here.

>>> from goledger.ledger.events import TimeSettings
>>> t = TimeSettings(basic_minutes=60, system="byo-yomi", byo_yomi_seconds=30)
>>> adjusted_seconds(t), egf_class(t), adjusted_minutes(t)
(4950, 'A', 82)
>>> egf_class(TimeSettings(basic_minutes=75, system="canadian", canadian_stones=12, canadian_seconds=300))
'A'
>>> egf_class(TimeSettings(basic_minutes=40, system="fischer", fischer_seconds=15), internet=True)
'D'
>>> egf_class(TimeSettings(basic_minutes=20, system="sudden-death"))
'X'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from goledger.ledger.events import TimeSettings

__all__ = ["CLASS_MIN_ADJUSTED_MINUTES", "adjusted_minutes", "adjusted_seconds", "describe_time", "egf_class"]

_THRESHOLDS: Final = {
    # (fischer?) -> [(class, basic seconds, adjusted seconds)], strongest first
    False: (("A", 3600, 4500), ("B", 2400, 3000), ("C", 1500, 1800)),
    True: (("A", 2700, 4500), ("B", 1800, 3000), ("C", 1200, 1800)),
}
_INTERNET: Final = {False: (2400, 3000), True: (1800, 3000)}

CLASS_MIN_ADJUSTED_MINUTES: Final = {"A": 75, "B": 50, "C": 30, "D": 50}
"""The least adjusted time (minutes) each class needs, used to check ``TM`` against ``CL``."""


def adjusted_seconds(time: TimeSettings) -> int:
    """EGF adjusted time in seconds (integer arithmetic exactly as OpenGotha's)."""
    basic = time.basic_minutes * 60
    if time.system == "byo-yomi":
        return basic + 45 * time.byo_yomi_seconds
    if time.system == "canadian":
        return basic + (60 * time.canadian_seconds // time.canadian_stones if time.canadian_stones > 0 else 0)
    if time.system == "fischer":
        return basic + 120 * time.fischer_seconds
    return basic


def adjusted_minutes(time: TimeSettings) -> int:
    """The ``TM[]`` value: adjusted seconds / 60, truncated."""
    return adjusted_seconds(time) // 60


def egf_class(time: TimeSettings, internet: bool = False) -> str:
    """``A``, ``B``, ``C``, ``D`` (internet) or ``X`` (none) for these time settings."""
    basic = time.basic_minutes * 60
    adjusted = adjusted_seconds(time)
    fischer = time.system == "fischer"
    if internet:
        need_basic, need_adjusted = _INTERNET[fischer]
        return "D" if basic >= need_basic and adjusted >= need_adjusted else "X"
    for name, need_basic, need_adjusted in _THRESHOLDS[fischer]:
        if basic >= need_basic and adjusted >= need_adjusted:
            return name
    return "X"


def describe_time(time: TimeSettings) -> str:
    """A one-line description for the ``CM[]`` tag.

    >>> from goledger.ledger.events import TimeSettings
    >>> describe_time(TimeSettings(basic_minutes=60, system="canadian", canadian_stones=15, canadian_seconds=300))
    'Canadian byo-yomi: 60 min + 15 stones in 5 min'
    >>> describe_time(TimeSettings(basic_minutes=45, system="fischer", fischer_seconds=15))
    'Fischer: 45 min + 15 s per move'
    """
    basic = f"{time.basic_minutes} min"
    if time.system == "byo-yomi":
        periods = f"{time.byo_yomi_periods} x " if time.byo_yomi_periods else ""
        return f"Standard byo-yomi: {basic} + {periods}{_duration(time.byo_yomi_seconds)}"
    if time.system == "canadian":
        return f"Canadian byo-yomi: {basic} + {time.canadian_stones} stones in {_duration(time.canadian_seconds)}"
    if time.system == "fischer":
        return f"Fischer: {basic} + {time.fischer_seconds} s per move"
    return f"Sudden death: {basic}"


def _duration(seconds: int) -> str:
    if seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds} s"
