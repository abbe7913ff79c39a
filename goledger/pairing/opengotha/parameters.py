"""OpenGotha's pairing and handicap parameters, by OpenGotha's own names (spec ``pairing.md``
§2.3; ``PairingParameterSet.java``, ``HandicapParameterSet.java`` of 3.51.02).

Every value is kept as the text OpenGotha writes in its XML file (``paiMaLastRoundForSeedSystem1``
is 1-based there, as in the GUI). Where they come from, strongest first:

1. ``request.parameters`` (``pair-round --param NAME=VALUE``), by OpenGotha's names;
2. the tournament's ``settings.pairing`` (an OpenGotha import keeps the file's
   ``PairingParameterSet`` there verbatim) and ``settings.handicap``;
3. OpenGotha's defaults for a new tournament of the tournament's system
   (``initForMM`` / ``initForSwiss`` / ``initForSwissCat`` / ``initForCup``).

>>> p = resolve({}, "mcmahon", {})
>>> p.source, p.text["paiMaSeedSystem2"], p.weights.last_round_seed1
('OpenGotha 3.51.02 defaults for a new McMahon tournament (initForMM)', 'SPLITANDSLIP', 1)
>>> resolve({}, "swiss", {"paiMaSeedSystem1": "SPLITANDFOLD"}).weights.seed_system1
2
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.ledger.events import HandicapSettings
from goledger.ledger.values import Rank, bounded_int
from goledger.replay.scoring.criteria.names import OPENGOTHA_NAMES

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["CRITERION_NAMES", "HANDICAP_DEFAULTS", "HANDICAP_NAMES", "PAIRING_DEFAULTS", "Parameters", "Weights",
           "resolve"]

_BASE = {
    "paiBaAvoidDuplGame": "500000000000000",
    "paiBaRandom": "0",
    "paiBaDeterministic": "true",
    "paiBaBalanceWB": "1000000",
    "paiMaMinimizeScoreDifference": "100000000000",
    "paiMaDUDDWeight": "100000000",
    "paiMaCompensateDUDD": "true",
    "paiMaDUDDUpperMode": "MID",
    "paiMaDUDDLowerMode": "MID",
    "paiMaMaximizeSeeding": "5000000",
    "paiMaLastRoundForSeedSystem1": "2",
    "paiSeBarThresholdActive": "true",
    "paiStandardNX1Factor": "0.5",
}

PAIRING_DEFAULTS: dict[str, dict[str, str]] = {
    "mcmahon": {
        **_BASE,
        "paiMaAvoidMixingCategories": "0",
        "paiMaSeedSystem1": "SPLITANDRANDOM",
        "paiMaSeedSystem2": "SPLITANDSLIP",
        "paiMaAdditionalPlacementCritSystem1": "Rating",
        "paiMaAdditionalPlacementCritSystem2": "NULL",
        "paiSeRankThreshold": "1D",
        "paiSeNbWinsThresholdActive": "false",
        "paiSeDefSecCrit": "100000000000",
        "paiSeMinimizeHandicap": "0",
        "paiSeAvoidSameGeo": "100000000000",
        "paiSePreferMMSDiffRatherThanSameCountry": "1",
        "paiSePreferMMSDiffRatherThanSameClub": "3",
    },
    "swiss": {
        **_BASE,
        "paiMaAvoidMixingCategories": "0",
        "paiMaSeedSystem1": "SPLITANDSLIP",
        "paiMaSeedSystem2": "SPLITANDSLIP",
        "paiMaAdditionalPlacementCritSystem1": "Rating",
        "paiMaAdditionalPlacementCritSystem2": "Rating",
        "paiSeRankThreshold": "30K",
        "paiSeNbWinsThresholdActive": "true",
        "paiSeDefSecCrit": "20000000000000",
        "paiSeMinimizeHandicap": "0",
        "paiSeAvoidSameGeo": "0",
        "paiSePreferMMSDiffRatherThanSameCountry": "0",
        "paiSePreferMMSDiffRatherThanSameClub": "0",
    },
    "swisscat": {
        **_BASE,
        "paiMaAvoidMixingCategories": "20000000000000",
        "paiMaSeedSystem1": "SPLITANDRANDOM",
        "paiMaSeedSystem2": "SPLITANDFOLD",
        "paiMaAdditionalPlacementCritSystem1": "Rating",
        "paiMaAdditionalPlacementCritSystem2": "NULL",
        "paiSeRankThreshold": "1D",
        "paiSeNbWinsThresholdActive": "true",
        "paiSeDefSecCrit": "20000000000000",
        "paiSeMinimizeHandicap": "20000000000000",
        "paiSeAvoidSameGeo": "20000000000000",
        "paiSePreferMMSDiffRatherThanSameCountry": "1",
        "paiSePreferMMSDiffRatherThanSameClub": "3",
    },
    "cup": {
        **_BASE,
        "paiMaAvoidMixingCategories": "0",
        "paiMaSeedSystem1": "SPLITANDFOLD",
        "paiMaSeedSystem2": "SPLITANDFOLD",
        "paiMaAdditionalPlacementCritSystem1": "Rating",
        "paiMaAdditionalPlacementCritSystem2": "Rating",
        "paiSeRankThreshold": "30K",
        "paiSeNbWinsThresholdActive": "true",
        "paiSeDefSecCrit": "20000000000000",
        "paiSeMinimizeHandicap": "0",
        "paiSeAvoidSameGeo": "0",
        "paiSePreferMMSDiffRatherThanSameCountry": "0",
        "paiSePreferMMSDiffRatherThanSameClub": "0",
    },
}
"""OpenGotha's ``initForMM/Swiss/SwissCat/Cup`` as the XML would write them. A round-robin
ledger (no OpenGotha system) gets the Swiss set."""

HANDICAP_DEFAULTS: dict[str, dict[str, str]] = {
    "mcmahon": {"hdBasedOnMMS": "true", "hdNoHdRankThreshold": "1D", "hdCorrection": "1", "hdCeiling": "9"},
    "swiss": {"hdBasedOnMMS": "false", "hdNoHdRankThreshold": "30K", "hdCorrection": "0", "hdCeiling": "0"},
    "swisscat": {"hdBasedOnMMS": "true", "hdNoHdRankThreshold": "9D", "hdCorrection": "1", "hdCeiling": "9"},
    "cup": {"hdBasedOnMMS": "false", "hdNoHdRankThreshold": "30K", "hdCorrection": "0", "hdCeiling": "0"},
}
"""``HandicapParameterSet.initFor…`` per system: used for a hand-made ledger whose handicap
settings are still goledger's untouched defaults (an import always has its own)."""

_INIT = {"mcmahon": "initForMM", "swiss": "initForSwiss", "swisscat": "initForSwissCat", "cup": "initForCup"}
_TITLE = {"mcmahon": "McMahon", "swiss": "Swiss", "swisscat": "SwissCat", "cup": "Cup"}

HANDICAP_NAMES = ("hdBasedOnMMS", "hdNoHdRankThreshold", "hdCorrection", "hdCeiling")
"""The ``HandicapParameterSet`` names ``request.parameters`` may override."""

_DUDD_MODES = {"TOP": 1, "MID": 2, "BOT": 3}
_SEED_SYSTEMS = {"SPLITANDRANDOM": 1, "SPLITANDFOLD": 2, "SPLITANDSLIP": 3}
SEED_SYSTEM_NAMES = {v: k for k, v in _SEED_SYSTEMS.items()}


class Weights(msgspec.Struct, frozen=True, kw_only=True):
    """The parsed parameters, in OpenGotha's internal units (``last_round_seed1`` is the
    0-based round, as ``ExternalDocument`` stores it: file value − 1; ranks are OpenGotha
    rank integers, 30k = −30 … 9d = 8; modes: TOP 1, MID 2, BOT 3; seed systems: split
    and random 1, fold 2, slip 3)."""

    avoid_dupl: int
    random: int
    deterministic: bool
    balance_wb: int
    avoid_mixing_categories: int
    minimize_score_difference: int
    dudd_weight: int
    compensate_dudd: bool
    dudd_upper_mode: int
    dudd_lower_mode: int
    maximize_seeding: int
    last_round_seed1: int
    seed_system1: int
    seed_system2: int
    additional_crit1: str
    additional_crit2: str
    bar_threshold_active: bool
    rank_threshold: int
    nbw_threshold_active: bool
    minimize_handicap: int
    avoid_same_geo: int
    country_factor: int
    club_factor: int
    nx1: float
    hd_based_on_mms: bool
    hd_no_hd_rank_threshold: int
    hd_correction: int
    hd_ceiling: int


class Parameters(msgspec.Struct, frozen=True, kw_only=True):
    """The parameters of one pairing: ``text`` (every name → its text, what ``RoundPaired``
    records), ``weights`` (parsed) and ``source`` (where the values came from, one phrase)."""

    text: dict[str, str]
    weights: Weights
    source: str


def _bool(text: str) -> bool:
    # Java's Boolean.parseBoolean: "true" in any case is true, anything else false.
    return text.strip().lower() == "true"


def _int(name: str, text: str) -> int:
    try:
        return bounded_int(text, digits=19)  # OpenGotha's weights are Java longs
    except ValueError:
        raise CommandRejected(say("OpenGotha parameter %(name)s must be an integer, not %(text)r", name=name,
                                  text=text)) from None


def _rank(name: str, text: str) -> int:
    try:
        return Rank.parse(text.strip()).value
    except (ValueError, KeyError):
        raise CommandRejected(say("OpenGotha parameter %(name)s must be a rank such as 1D or 20K, not %(text)r",
                                  name=name, text=text)) from None


def _choice(text: str, table: Mapping[str, int], default: int) -> int:
    # ExternalDocument: an unknown word keeps the reader's default.
    return table.get(text.strip(), default)


CRITERION_NAMES = frozenset({"NULL"} | OPENGOTHA_NAMES)
"""OpenGotha's placement criterion long names (what ``paiMaAdditionalPlacementCrit…`` may say)."""

_WORDS = {
    "paiMaDUDDUpperMode": _DUDD_MODES, "paiMaDUDDLowerMode": _DUDD_MODES,
    "paiMaSeedSystem1": _SEED_SYSTEMS, "paiMaSeedSystem2": _SEED_SYSTEMS,
    "paiMaAdditionalPlacementCritSystem1": CRITERION_NAMES, "paiMaAdditionalPlacementCritSystem2": CRITERION_NAMES,
}


def _check_override(name: str, text: str) -> None:
    """A value asked for in the request must be one OpenGotha understands (a file's value is
    read as OpenGotha reads it, unknown words falling back to its defaults)."""
    words = _WORDS.get(name)
    if words is not None and text.strip() not in words:
        raise CommandRejected(say("OpenGotha parameter %(name)s must be one of %(words)s, not %(text)r", name=name,
                                  words=", ".join(sorted(words)), text=text))
    if name in ("paiSeRankThreshold", "hdNoHdRankThreshold"):
        _rank(name, text)
    elif name == "paiStandardNX1Factor":
        try:
            float(text)
        except ValueError:
            raise CommandRejected(say("OpenGotha parameter %(name)s must be a number, not %(text)r", name=name,
                                      text=text)) from None
    elif words is None and name not in ("paiBaDeterministic", "paiMaCompensateDUDD", "paiSeBarThresholdActive",
                                        "paiSeNbWinsThresholdActive", "hdBasedOnMMS"):
        _int(name, text)


def _criterion(text: str, default: str) -> str:
    name = text.strip()
    return name if name in CRITERION_NAMES else default


def _handicap_text(settings: object, family: str, hand_made: bool) -> dict[str, str]:
    hd = getattr(settings, "handicap", None)
    if hd is None or (hand_made and hd == HandicapSettings()):
        return dict(HANDICAP_DEFAULTS[family])
    return {
        "hdBasedOnMMS": "true" if hd.based_on_mms else "false",
        "hdNoHdRankThreshold": hd.no_handicap_threshold.upper(),
        "hdCorrection": str(hd.correction),
        "hdCeiling": str(hd.ceiling),
    }


def resolve(pairing: Mapping[str, str], system: str, overrides: Mapping[str, str],
            settings: object | None = None) -> Parameters:
    """The parameters of a pairing from the tournament's ``pairing`` set (maybe empty), its
    ``system`` and the request's ``overrides`` (see the module docstring); ``settings``
    (the tournament settings) gives the handicap set. Refuses an unknown name or a value
    that does not parse."""
    family = system if system in PAIRING_DEFAULTS else "swiss"
    defaults = PAIRING_DEFAULTS[family]
    known = set(defaults) | set(HANDICAP_NAMES)
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise CommandRejected(say("unknown OpenGotha pairing parameter %(name)r (known: %(known)s)", name=unknown[0],
                                  known=", ".join(sorted(known))))
    if pairing:
        source = "the tournament's PairingParameterSet"
    elif family == system:
        source = f"OpenGotha 3.51.02 defaults for a new {_TITLE[family]} tournament ({_INIT[family]})"
    else:
        source = f"OpenGotha 3.51.02 Swiss defaults (initForSwiss): OpenGotha has no {system} system"
    own = {k: v for k, v in pairing.items() if k in defaults}
    text = {**defaults, **own, **_handicap_text(settings, family, not pairing)}
    for name, value in overrides.items():
        _check_override(name, value)
    text.update(overrides)
    if overrides:
        source += f", with {', '.join(sorted(overrides))} from the request"
    t = text
    try:
        nx1 = float(t["paiStandardNX1Factor"])
    except ValueError:
        raise CommandRejected(say("OpenGotha parameter %(name)s must be a number, not %(text)r",
                                  name="paiStandardNX1Factor", text=t["paiStandardNX1Factor"])) from None
    weights = Weights(
        avoid_dupl=_int("paiBaAvoidDuplGame", t["paiBaAvoidDuplGame"]),
        random=_int("paiBaRandom", t["paiBaRandom"]),
        deterministic=_bool(t["paiBaDeterministic"]),
        balance_wb=_int("paiBaBalanceWB", t["paiBaBalanceWB"]),
        avoid_mixing_categories=_int("paiMaAvoidMixingCategories", t["paiMaAvoidMixingCategories"]),
        minimize_score_difference=_int("paiMaMinimizeScoreDifference", t["paiMaMinimizeScoreDifference"]),
        dudd_weight=_int("paiMaDUDDWeight", t["paiMaDUDDWeight"]),
        compensate_dudd=_bool(t["paiMaCompensateDUDD"]),
        dudd_upper_mode=_choice(t["paiMaDUDDUpperMode"], _DUDD_MODES, 2),
        dudd_lower_mode=_choice(t["paiMaDUDDLowerMode"], _DUDD_MODES, 2),
        maximize_seeding=_int("paiMaMaximizeSeeding", t["paiMaMaximizeSeeding"]),
        last_round_seed1=_int("paiMaLastRoundForSeedSystem1", t["paiMaLastRoundForSeedSystem1"]) - 1,
        seed_system1=_choice(t["paiMaSeedSystem1"], _SEED_SYSTEMS, 1),
        seed_system2=_choice(t["paiMaSeedSystem2"], _SEED_SYSTEMS, 1),
        additional_crit1=_criterion(t["paiMaAdditionalPlacementCritSystem1"], "Rating"),
        additional_crit2=_criterion(t["paiMaAdditionalPlacementCritSystem2"], "NULL"),
        bar_threshold_active=_bool(t["paiSeBarThresholdActive"]),
        rank_threshold=_rank("paiSeRankThreshold", t["paiSeRankThreshold"]),
        nbw_threshold_active=_bool(t["paiSeNbWinsThresholdActive"]),
        minimize_handicap=_int("paiSeMinimizeHandicap", t["paiSeMinimizeHandicap"]),
        avoid_same_geo=_int("paiSeAvoidSameGeo", t["paiSeAvoidSameGeo"]),
        country_factor=_int("paiSePreferMMSDiffRatherThanSameCountry", t["paiSePreferMMSDiffRatherThanSameCountry"]),
        club_factor=_int("paiSePreferMMSDiffRatherThanSameClub", t["paiSePreferMMSDiffRatherThanSameClub"]),
        nx1=nx1,
        hd_based_on_mms=_bool(t["hdBasedOnMMS"]),
        hd_no_hd_rank_threshold=_rank("hdNoHdRankThreshold", t["hdNoHdRankThreshold"]),
        hd_correction=_int("hdCorrection", t["hdCorrection"]),
        hd_ceiling=_int("hdCeiling", t["hdCeiling"]),
    )
    return Parameters(text=dict(sorted(text.items())), weights=weights, source=source)
