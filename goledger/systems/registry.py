"""The one registry of tournament systems (issue 48 item 4, issue 43 item 1): one
:class:`SystemEntry` per value of ``goledger new --system``, saying what the system is called
in words, which engine pairs its rounds, which module holds its own rules, how its round count
is set, and which of its options the New tournament form asks for. ``goledger.systems``
derives ``DEFAULT_ENGINE``, ``SYSTEM_MODULES`` and ``ROUNDS_AT_DRAW`` from it, and the desk's
New tournament form lists it, so a system is added in one place. :data:`ENGINES` is the one
table of pairing engines: the McMahon and Swiss family's (``goledger.pairing``) and every
system's own, derived from the entries.

The cup (OpenGotha's fourth tournament type) is paired by the ``opengotha`` engine with
OpenGotha's ``initForCup`` parameters (split and fold in both seeding phases, no handicap),
which reproduces OpenGotha's own cup rounds (``../shared/pairing-oracle/cdfa-2020-cup.r1``…
``r4``); its places are the standings by CPS, the cup score.

This module imports nothing but the i18n marker, so the desk and the command line read it
without loading any engine.

>>> SYSTEMS["knockout"].engine, SYSTEMS["knockout"].rounds_at_draw, SYSTEMS["cup"].engine
('knockout', True, 'opengotha')
>>> [f for f in SYSTEMS["team-swiss"].fields]
['boards']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal

from goledger.i18n import N_

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["ENGINES", "ENGINE_MODULES", "GENERAL_ENGINES", "SYSTEMS", "FormField", "SystemEntry"]

FormField = Literal["bar_floor", "boards", "third_place", "reset", "jigo", "seeding", "method", "target",
                    "max_games", "max_rank_difference", "cycles", "handicap_stones", "max_games_per_pair", "ranking"]
"""An option the New tournament form asks for (beyond what every system has: name, dates,
place, country, time, komi, handicap rule, language)."""


@dataclass(frozen=True)
class SystemEntry:
    """One tournament system: ``name`` (its ``System`` value), ``label`` (its name in words,
    a catalog message), ``engine`` (the pairing engine ``pair-round`` uses by default, or
    ``None`` when its games are paired by hand), ``module`` (its rules: options, ``check``,
    ``places``, ``rounds_needed``; ``None`` for a system with no rules of its own),
    ``rounds_at_draw`` (its round count follows from the entrants, set at the draw: then
    ``rounds_rule`` says how, in words), ``fields``, the options the New form asks for, and
    ``bracket``, whether it has a bracket to draw; ``preset``, its settings at creation."""

    name: str
    label: str
    engine: str | None
    module: str | None = None
    rounds_at_draw: bool = False
    rounds_rule: str = ""
    fields: tuple[FormField, ...] = ()
    bracket: bool = False
    """Whether ``goledger bracket`` draws it (a bracket, a ladder, OpenGotha's cup paths)."""
    preset: Mapping[str, Any] = field(default_factory=dict)
    """The settings ``goledger new`` starts it with (OpenGotha's new-tournament presets:
    McMahon bar 4d, floor 20k, MMS/SOSM/SOSOSM; Swiss NBW/SOSW/SOSOSW; a cup's byes and
    absences worth 0, ranked by CPS)."""


_ELIMINATION: Final = ("seeding", "jigo")
_MCMAHON: Final = {"mm_bar": "4d", "mm_floor": "20k", "criteria": ("MMS", "SOSM", "SOSOSM")}
_SWISS: Final = {"mm_bar": "9d", "mm_floor": "30k", "criteria": ("NBW", "SOSW", "SOSOSW")}
_OWN_PLACES: Final = {**_SWISS, "nbw2_bye": 2, "mms2_bye": 2}

_ENTRIES: Final = (
    SystemEntry("mcmahon", N_("McMahon"), "opengotha", fields=("bar_floor",), preset=_MCMAHON),
    SystemEntry("swiss", N_("Swiss"), "opengotha", preset=_SWISS),
    SystemEntry("swisscat", N_("Swiss with categories"), "opengotha",
                preset={"mm_bar": "9d", "mm_floor": "30k", "criteria": ("CAT", "NBW", "EXT", "EXR")}),
    SystemEntry("cup", N_("Cup (OpenGotha)"), "opengotha", bracket=True,
                preset={"mm_bar": "9d", "mm_floor": "30k", "nbw2_bye": 0, "mms2_bye": 0, "mms2_absent": 0,
                        "criteria": ("CPS",)}),
    SystemEntry("round-robin", N_("Round robin"), "round-robin", "goledger.systems.round_robin", True,
                N_("N − 1 rounds for N players (N for an odd N), from the Berger tables"), ("cycles",),
                preset={"mm_bar": "9d", "mm_floor": "30k", "criteria": ("NBW", "DE", "SB", "KS", "WIN")}),
    SystemEntry("knockout", N_("Knockout"), "knockout", "goledger.systems.knockout", True,
                N_("⌈log₂ N⌉ rounds for N entrants; the third-place game is played beside the final"),
                ("third_place", "method", *_ELIMINATION), bracket=True, preset=_OWN_PLACES),
    SystemEntry("double-knockout", N_("Double knockout"), "double-knockout", "goledger.systems.double_knockout",
                True, N_("both brackets and the grand final, from the number of entrants"),
                ("reset", "method", *_ELIMINATION), bracket=True, preset=_OWN_PLACES),
    SystemEntry("paramus", N_("Paramus"), "paramus", "goledger.systems.paramus", True,
                N_("N − 1 rounds for N players, one game each"), _ELIMINATION, bracket=True,
                preset=_OWN_PLACES),
    SystemEntry("match", N_("Match"), "match", "goledger.systems.match", fields=("target", "max_games", "seeding"),
                preset=_OWN_PLACES),
    SystemEntry("handicap", N_("Handicap tournament"), "handicap", "goledger.systems.handicap",
                fields=("max_rank_difference", "handicap_stones"), preset=_OWN_PLACES),
    SystemEntry("continuous-handicap", N_("Continuous handicap"), "continuous-handicap",
                "goledger.systems.continuous",
                fields=("max_rank_difference", "max_games_per_pair", "ranking"), preset=_OWN_PLACES),
    SystemEntry("team-swiss", N_("Team Swiss"), "teams", "goledger.systems.teams", fields=("boards",), preset=_SWISS),
    SystemEntry("team-mcmahon", N_("Team McMahon"), "teams", "goledger.systems.teams", fields=("boards", "bar_floor"),
                preset=_MCMAHON),
    SystemEntry("pairgo", N_("Pair Go"), "units", "goledger.systems.units", fields=("bar_floor",), preset=_MCMAHON),
    SystemEntry("rengo2", N_("Rengo (pairs)"), "units", "goledger.systems.units", fields=("bar_floor",),
                preset=_MCMAHON),
    SystemEntry("rengo3", N_("Rengo (threes)"), "units", "goledger.systems.units", fields=("bar_floor",),
                preset=_MCMAHON),
)

SYSTEMS: Final[dict[str, SystemEntry]] = {entry.name: entry for entry in _ENTRIES}
"""Every tournament system by its ``System`` name, in the order the New form lists them."""

ENGINE_MODULES: Final[dict[str, str]] = {entry.engine: entry.module for entry in _ENTRIES
                                         if entry.engine is not None and entry.module is not None}
"""A system's own engine → the module whose ``ENGINE`` it is."""

GENERAL_ENGINES: Final[dict[str, str]] = {"opengotha": "goledger.pairing.opengotha", "egf": "goledger.pairing.egf"}
"""The engines that pair any tournament of the McMahon and Swiss family (``--engine``) → their module."""

ENGINES: Final[dict[str, str]] = {**GENERAL_ENGINES, **ENGINE_MODULES}
"""Every pairing engine → the module whose ``ENGINE`` attribute implements it (imported on
first use, by :func:`goledger.systems.get_engine`)."""
