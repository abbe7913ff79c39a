"""The rules in force as a settings form shows them, and the ``change-rules`` changes a filled
form means (issue 43, item 2: the desk's settings form, :mod:`goledger.web.settings_page`).

:func:`rules_in_force` gives the values the rules have now: the placement criteria (the
policy's default ones while the tournament names none), bar and floor, the super group, the
bye and absence values, the withdrawn-player policy, and the handicap rule and OpenGotha
pairing parameters the ``opengotha`` engine and hand pairing's rule read
(:func:`goledger.pairing.opengotha.parameters.resolve`: OpenGotha's defaults for the system
while the tournament has none of its own).

:func:`changes_from` turns the values a director asked for into the changes that differ from
those in force, as ``change-rules`` takes them. A changed handicap rule or pairing parameter
writes both sets whole (``handicap`` and ``pairing``), so that every other value in force stays
what it was: a tournament whose ``pairing`` set is empty reads OpenGotha's defaults for its
system, and would read other handicap values once the set is not empty; an imported file's
entries the engine does not read are kept. A value OpenGotha would not read is refused in one
sentence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from goledger.errors import CommandRejected, GoledgerError
from goledger.replay.fold.state import TournamentState

__all__ = ["RulesInForce", "canonical_criteria", "changes_from", "rules_in_force"]


class RulesInForce(msgspec.Struct, frozen=True, kw_only=True):
    """The values the rules have now (ranks as goledger writes them, ``1d``; ``handicap`` as
    ``HandicapSettings``' fields; ``pairing`` OpenGotha's pairing parameters by name, as text)."""

    criteria: list[str]
    mm_bar: str
    mm_floor: str
    mm_super_group: bool
    nbw2_bye: int
    mms2_bye: int
    nbw2_absent: int
    mms2_absent: int
    withdrawn: str
    handicap: dict[str, Any]
    pairing: dict[str, str]


def _rank(text: str) -> str:
    from goledger.ledger.values import Rank, RankError

    try:
        return str(Rank.parse(text))
    except (RankError, ValueError, KeyError):
        return text


_MODES = {1: "TOP", 2: "MID", 3: "BOT"}
_FLAGS = {"paiBaDeterministic": "deterministic", "paiMaCompensateDUDD": "compensate_dudd",
          "paiSeBarThresholdActive": "bar_threshold_active", "paiSeNbWinsThresholdActive": "nbw_threshold_active",
          "hdBasedOnMMS": "hd_based_on_mms"}


def _gotha(state: TournamentState) -> dict[str, str]:
    """The OpenGotha parameters in force (pairing and handicap, by OpenGotha's names), each
    written as the engine reads it: a word OpenGotha does not know as the default it takes
    instead (pairgoth writes ``None`` for no additional criterion), true and false, ranks in
    capitals, whole numbers without leading zeros."""
    from goledger.ledger.values import Rank
    from goledger.pairing.opengotha.parameters import SEED_SYSTEM_NAMES, resolve

    settings = state.settings
    assert settings is not None
    try:
        params = resolve(settings.pairing, settings.system, {}, settings)
    except CommandRejected:  # an imported value OpenGotha would not read: the engine refuses it anyway
        params = resolve({}, settings.system, {}, settings)
    w = params.weights
    text = {k: str(int(v)) if v.strip().isdigit() else v.strip() for k, v in params.text.items()}
    text.update({name: "true" if getattr(w, field) else "false" for name, field in _FLAGS.items()})
    text.update(paiMaSeedSystem1=SEED_SYSTEM_NAMES[w.seed_system1], paiMaSeedSystem2=SEED_SYSTEM_NAMES[w.seed_system2],
                paiMaDUDDUpperMode=_MODES[w.dudd_upper_mode], paiMaDUDDLowerMode=_MODES[w.dudd_lower_mode],
                paiMaAdditionalPlacementCritSystem1=w.additional_crit1,
                paiMaAdditionalPlacementCritSystem2=w.additional_crit2,
                paiSeRankThreshold=str(Rank.from_value(w.rank_threshold)).upper())
    return text


def rules_in_force(state: TournamentState) -> RulesInForce:
    """The rules of ``state`` as the settings form shows them (see the module docstring)."""
    from goledger.pairing.opengotha.parameters import HANDICAP_NAMES
    from goledger.replay.scoring.policies import get_policy
    from goledger.replay.scoring.rules import rules_for

    settings = state.settings
    if settings is None:
        raise CommandRejected("this ledger has no tournament yet")
    try:
        policy = get_policy(settings.policy).with_overrides(settings.policy_overrides)
    except GoledgerError:
        policy = get_policy("opengotha")
    gotha = _gotha(state)
    return RulesInForce(
        criteria=canonical_criteria(rules_for(policy, settings).criteria),
        mm_bar=_rank(settings.mm_bar), mm_floor=_rank(settings.mm_floor), mm_super_group=settings.mm_super_group,
        nbw2_bye=settings.nbw2_bye, mms2_bye=settings.mms2_bye, nbw2_absent=settings.nbw2_absent,
        mms2_absent=settings.mms2_absent, withdrawn=policy.withdrawn,
        handicap={"based_on_mms": gotha["hdBasedOnMMS"].strip().lower() == "true",
                  "no_handicap_threshold": _rank(gotha["hdNoHdRankThreshold"]),
                  "correction": int(gotha["hdCorrection"]), "ceiling": int(gotha["hdCeiling"])},
        pairing={k: v.strip() for k, v in gotha.items() if k not in HANDICAP_NAMES},
    )


def canonical_criteria(names: Sequence[str]) -> list[str]:
    """``names`` by the registry's own names, each once: an unknown name, a name given twice or
    no name at all is refused in one sentence."""
    from goledger.i18n import gettext
    from goledger.replay.scoring.criteria import get_criterion

    if not names:
        raise CommandRejected(gettext("choose at least one placement criterion"))
    out: list[str] = []
    for name in names:
        try:
            canonical = get_criterion(name).name
        except GoledgerError as exc:
            raise CommandRejected(exc.message.split(";")[0]) from None
        if canonical in out:
            raise CommandRejected(gettext("the criterion %(name)s is chosen twice") % {"name": canonical})
        out.append(canonical)
    return out


def changes_from(state: TournamentState, wanted: Mapping[str, Any]) -> dict[str, Any]:
    """The ``change-rules`` changes of the values ``wanted`` (the fields of
    :class:`RulesInForce`, ``pairing`` only the parameters asked for) that differ from those
    in force (see the module docstring)."""
    from goledger.pairing.opengotha.parameters import resolve

    settings = state.settings
    assert settings is not None
    now = msgspec.to_builtins(rules_in_force(state))
    changes: dict[str, Any] = {}
    if "criteria" in wanted:
        criteria = canonical_criteria(wanted["criteria"])
        if criteria != now["criteria"]:
            changes["criteria"] = criteria
    for name in ("mm_bar", "mm_floor", "mm_super_group", "nbw2_bye", "mms2_bye", "nbw2_absent", "mms2_absent",
                 "withdrawn"):
        if name in wanted and wanted[name] != now[name]:
            changes[name] = wanted[name]
    handicap = {**now["handicap"], **wanted.get("handicap", {})}
    changed = {k: v for k, v in wanted.get("pairing", {}).items() if v != now["pairing"].get(k)}
    if changed or handicap != now["handicap"]:
        whole_set = {**settings.pairing, **now["pairing"], **changed}  # a file's own other entries kept
        resolve(whole_set, settings.system, changed, settings)  # refuses a value OpenGotha would not read
        if whole_set != settings.pairing:
            changes["pairing"] = whole_set
        stored = msgspec.to_builtins(settings.handicap)
        if handicap != {**stored, "no_handicap_threshold": _rank(stored["no_handicap_threshold"])}:
            changes["handicap"] = handicap
    return changes
