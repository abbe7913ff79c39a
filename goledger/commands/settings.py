"""The catalogue of settings: every tournament setting and every field of the rule policy,
with its value, its declared domain and the spec rule it implements (issue 20, item 2).

The domain of a setting is exactly what ``goledger settings`` lists: the same
:class:`SettingInfo` that prints it also validates a change (``goledger change-rules
FIELD=VALUE``), so the two cannot drift. The catalogue is read off the types themselves:
``TournamentSettings`` (``goledger.ledger.events``) and :class:`~goledger.replay.scoring.policies.Policy`
(a new ``Policy`` field appears here, settable, without being listed anywhere); value bounds
come from :mod:`goledger.ledger.domains`; each policy field's spec row is the ``§7.N`` its
comment in the ``Policy`` source cites (spec ``scoring.md`` §7).

A policy field is set by its name (``withdrawn=zero``) or, where a tournament setting has the
same name (``round_down``), as ``policy.round_down``; it is kept in the tournament's
``policy_overrides``. A change touches only what it names (issue 40, item 3):
``policy_overrides='{"withdrawn":"zero"}'`` sets that one field as ``withdrawn=zero`` does and
keeps every other override; a field given ``null`` there drops its override (the policy's
value again), and only the empty object ``{}`` drops them all.

>>> info = {s.name: s for s in catalogue()}
>>> info["withdrawn"].domain
'absent | zero'
>>> info["mms2_absent"].domain, info["mms2_absent"].spec
('0..2', 'scoring.md §7.2')
>>> info["withdrawn"].kind
'policy'
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import msgspec
import msgspec.inspect

from goledger.commands.checks import refusal
from goledger.errors import CommandRejected, GoledgerError
from goledger.i18n.messages import Message, nsay, on_desk, say
from goledger.ledger import domains
from goledger.ledger import events as ev
from goledger.ledger.values import Rank
from goledger.replay.fold.state import TournamentState

__all__ = [
    "SettingInfo",
    "SettingValue",
    "catalogue",
    "check_views_after",
    "handicap_settings",
    "resolve_changes",
    "settings",
    "time_settings",
]


class SettingInfo(msgspec.Struct, frozen=True, kw_only=True):
    """One setting: ``name`` as ``change-rules`` takes it, ``field`` of ``kind``
    (``"tournament"``: a ``TournamentSettings`` field; ``"policy"``: a ``Policy`` field kept in
    ``policy_overrides``), its ``domain`` in words and the ``spec`` rule it implements."""

    name: str
    field: str
    kind: str
    domain: str
    spec: str = ""
    help: str = ""


class SettingValue(msgspec.Struct, frozen=True, kw_only=True):
    """A setting with its current value in one tournament (``overridden``: a policy field
    the tournament sets in ``policy_overrides``)."""

    name: str
    kind: str
    value: Any
    domain: str
    spec: str = ""
    help: str = ""
    overridden: bool = False


_TOURNAMENT_SPEC: dict[str, str] = {
    "nbw2_bye": "scoring.md §7.1", "mms2_bye": "scoring.md §7.1",
    "nbw2_absent": "scoring.md §7.2", "mms2_absent": "scoring.md §7.2",
    "round_down": "scoring.md §7.4", "not_played_as_half": "scoring.md §7.9",
    "mm_bar": "scoring.md §8.4", "mm_floor": "scoring.md §8.4", "mm_zero": "scoring.md §8.4",
    "mm_groups": "scoring.md §8.4", "mm_super_group": "scoring.md §8.4",
    "criteria": "scoring.md §2", "policy": "scoring.md §7", "policy_overrides": "scoring.md §7",
}
_SKIPPED_POLICY_FIELDS = frozenset({"name", "description"})
_TOURNAMENTS = "tournament"
"""The word for a policy field's ``None``: take the tournament's own setting."""


def _domain_of(name: str, kind: msgspec.inspect.Type, null: str = "none") -> str:
    if isinstance(kind, msgspec.inspect.UnionType):
        parts = [_domain_of(name, t) for t in kind.types if not isinstance(t, msgspec.inspect.NoneType)]
        none = any(isinstance(t, msgspec.inspect.NoneType) for t in kind.types)
        return " | ".join(parts) + (f" | {null}" if none else "")
    if isinstance(kind, msgspec.inspect.LiteralType):
        return " | ".join(str(v) for v in kind.values)
    if isinstance(kind, msgspec.inspect.BoolType):
        return "true | false"
    if isinstance(kind, msgspec.inspect.IntType):
        low, high = domains.INT_DOMAINS.get(name, (domains.SQLITE_MIN, domains.SQLITE_MAX))
        return f"{low}..{high}" if name in domains.INT_DOMAINS else "whole number"
    if isinstance(kind, msgspec.inspect.StrType):
        if name in domains.RANK_FIELDS:
            return "rank 30k..1k, 1d..9d, 1p..9p"
        if name == "komi":
            return "whole or half number, e.g. 6.5"
        if name == "policy":
            return "policy name: " + ", ".join(_known_policies())
        if name in ("begin_date", "end_date", "ratings_date"):
            return "date YYYY-MM-DD or empty"
        return "text without control characters" if name in domains.IDENTITY_FIELDS else "text"
    if name == "criteria":
        return "comma-separated criterion names (see `goledger criteria`), strongest first"
    if name == "category_limits":
        return "comma-separated ranks"
    if isinstance(kind, (msgspec.inspect.VarTupleType, msgspec.inspect.TupleType)):
        return "comma-separated list (JSON for nested values)"
    if isinstance(kind, msgspec.inspect.DictType):
        return "JSON object"
    if isinstance(kind, msgspec.inspect.StructType):
        return "JSON object of " + ", ".join(f.name for f in kind.fields)
    return "JSON value"


def _known_policies() -> list[str]:
    from goledger.replay.scoring.policies import known_policies

    return sorted(known_policies())


@cache
def _policy_comments() -> dict[str, str]:
    """Each ``Policy`` field's comment block (the lines of ``#`` comments right above it)."""
    from goledger.replay.scoring import policies

    try:
        source = inspect.getsource(policies.Policy)
    except (OSError, TypeError):
        return {}
    lines = source.splitlines()
    comments: dict[str, str] = {}
    previous = ""
    previous_end = -2
    for node in ast.parse(source).body[0].body:  # type: ignore[attr-defined]
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            block: list[str] = []
            row = node.lineno - 2
            while row >= 0 and lines[row].strip().startswith("#"):
                text = lines[row].strip().lstrip("#").strip()
                if not text.startswith("-----"):  # a section header, not the field's comment
                    block.insert(0, text)
                row -= 1
            # a field right below another one, without a comment of its own, shares its comment
            comment = " ".join(block) if block or row != previous_end else previous
            comments[node.target.id] = comment
            previous, previous_end = comment, (node.end_lineno or node.lineno) - 1
    return comments


def _policy_spec(comment: str) -> str:
    match = re.search(r"§\s?(7\.\d+(?:[–-]\d+)?)", comment) or re.search(r"§\s?(\d+(?:\.\d+)*)", comment)
    return f"scoring.md §{match.group(1)}" if match else ""


@cache
def catalogue() -> tuple[SettingInfo, ...]:
    """Every setting a tournament has: the ``TournamentSettings`` fields, then the fields of
    the ``Policy`` struct (read from the type, so new fields join automatically)."""
    from goledger.replay.scoring.policies import Policy

    out: list[SettingInfo] = []
    tournament = msgspec.inspect.type_info(ev.TournamentSettings)
    names = set()
    for f in tournament.fields:  # type: ignore[attr-defined]
        out.append(SettingInfo(name=f.name, field=f.name, kind="tournament", domain=_domain_of(f.name, f.type),
                               spec=_TOURNAMENT_SPEC.get(f.name, "")))
        names.add(f.name)
    comments = _policy_comments()
    for f in msgspec.inspect.type_info(Policy).fields:  # type: ignore[attr-defined]
        if f.name in _SKIPPED_POLICY_FIELDS:
            continue
        comment = comments.get(f.name, "")
        out.append(SettingInfo(
            name=f"policy.{f.name}" if f.name in names else f.name, field=f.name, kind="policy",
            domain=_domain_of(f.name, f.type, _TOURNAMENTS), spec=_policy_spec(comment), help=comment,
        ))
    return tuple(out)


def _lookup(name: str) -> SettingInfo:
    by_name = {s.name: s for s in catalogue()}
    info = by_name.get(name)
    if info is None and name.startswith("policy."):
        info = next((s for s in catalogue() if s.kind == "policy" and s.field == name[7:]), None)
    if info is None:
        raise CommandRejected(say("unknown setting %(name)r; `goledger settings` lists every setting and its values",
                                  name=name))
    return info


def settings(db: str | Any) -> list[SettingValue]:
    """Every setting of the tournament in ``db`` with its current value, its allowed values and
    the spec rule it implements (``goledger settings``)."""
    from goledger.replay.scoring.policies import get_policy
    from goledger.replay.views import state_as_of

    state = state_as_of(db)
    if state.settings is None:
        raise CommandRejected(say("%(db)s has no tournament (its log has no TournamentCreated event)", db=str(db)))
    current = msgspec.to_builtins(state.settings)
    overrides = state.settings.policy_overrides
    try:
        policy = get_policy(state.settings.policy)
        policy = policy.with_overrides(overrides)
    except GoledgerError:
        policy = get_policy("opengotha")
    policy_values = msgspec.to_builtins(policy)
    rounds_note = _rounds_note(state)
    return [
        SettingValue(
            name=s.name, kind=s.kind, domain=s.domain, spec=s.spec,
            help=rounds_note if s.name == "rounds" and rounds_note else s.help,
            value=current.get(s.field) if s.kind == "tournament" else policy_values.get(s.field),
            overridden=s.kind == "policy" and s.field in overrides,
        )
        for s in catalogue()
    ]


def _rounds_note(state: TournamentState) -> str:
    """For a tournament whose rounds are set at the draw (issue 29): ``"set at the draw: …"``
    once it is made, ``"to be set at the draw: …"`` before (the count for the entrants
    registered now); ``""`` for any other tournament."""
    from goledger.systems import rounds_at_draw, rounds_needed

    if not rounds_at_draw(state):
        return ""
    try:
        need = rounds_needed(state)
    except GoledgerError as exc:
        return f"to be set at the draw ({exc.message})"
    if need is None:
        return ""
    drawn = bool(state.round_pairings.get(1) or state.games.get(1))
    return f"{'set' if drawn else 'to be set'} at the draw: {need[1]}"


def _json_or_text(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return msgspec.json.decode(value)
    except msgspec.DecodeError:
        return value


def resolve_changes(state: TournamentState, changes: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Turn ``FIELD=VALUE`` changes (tournament settings and policy fields by name) into the
    ``RulesChanged.changes`` they mean, validated against the catalogue's domains, with one
    ``"name old → new"`` phrase per changed setting (a policy field's phrase too when it changes
    because another setting did). A partial ``policy_overrides`` is merged into the overrides
    in force, never replaces them. Refuses the first value outside its domain in one sentence."""
    from goledger.replay.scoring.policies import get_policy

    settings_now = state.settings
    assert settings_now is not None
    tournament: dict[str, Any] = {}
    policy_changes: dict[str, Any] = {}
    dropped: set[str] = set()
    cleared = False
    for name, value in changes.items():
        info = _lookup(name)
        if info.field == "policy_overrides" and isinstance(value, dict):
            cleared = cleared or not value
            for field, part in value.items():
                if part is None:
                    dropped.add(field)
                    policy_changes.pop(field, None)
                else:
                    policy_changes[field] = _policy_value(_policy_info(field), part)
                    dropped.discard(field)
        elif info.kind == "tournament":
            tournament[info.field] = value
        else:
            policy_changes[info.field] = _policy_value(info, value)
            dropped.discard(info.field)
    current = msgspec.to_builtins(settings_now)
    if policy_changes or dropped or cleared:
        overrides = {} if cleared else dict(settings_now.policy_overrides)
        for field in dropped:
            overrides.pop(field, None)
        overrides.update(policy_changes)
        tournament["policy_overrides"] = overrides
    if "criteria" in tournament:
        tournament["criteria"] = _criteria_change(tournament["criteria"])
    for name, value in tournament.items():
        problem = domains.setting_problem(name, value)
        if problem:
            raise refusal(problem)
    try:
        merged = msgspec.convert(current | tournament, ev.TournamentSettings)
    except msgspec.ValidationError as exc:
        raise CommandRejected(say("invalid setting: %(problem)s", problem=str(exc))) from None
    problem = domains.settings_problem(merged)
    if problem:
        raise CommandRejected(problem)
    if {"mm_floor", "mm_bar"} & set(tournament) and Rank.parse(merged.mm_floor) > Rank.parse(merged.mm_bar):
        raise CommandRejected(say("the McMahon floor %(floor)s is above the bar %(bar)s", floor=merged.mm_floor,
                                  bar=merged.mm_bar))
    policy = get_policy(merged.policy)
    effective_policy = policy.with_overrides(merged.policy_overrides)
    _check_criteria(merged)
    if "criteria" in tournament:
        from goledger.replay.scoring.criteria import get_criterion

        tournament["criteria"] = [get_criterion(c).name for c in merged.criteria]
    played = state.last_round_with_games()
    if merged.rounds < played:
        raise CommandRejected(say("rounds %(rounds)d is below round %(round)d, which already has games",
                                  rounds=merged.rounds, round=played))
    effective = {k: v for k, v in tournament.items() if current.get(k) != msgspec.to_builtins(v)}
    phrases: list[str] = []
    old_policy = msgspec.to_builtins(get_policy(settings_now.policy).with_overrides(settings_now.policy_overrides)) \
        if _policy_ok(settings_now) else {}
    new_policy = msgspec.to_builtins(effective_policy)
    for name, value in tournament.items():
        if name == "policy_overrides" and old_policy:
            continue
        if name in effective:
            phrases.append(f"{name} {_shown(current.get(name))} → {_shown(msgspec.to_builtins(value))}")
    if old_policy:
        phrases += _policy_phrases(old_policy, new_policy, settings_now.policy_overrides, merged)
    return effective, phrases


def _policy_phrases(old_policy: dict[str, Any], new_policy: dict[str, Any], old_overrides: Mapping[str, Any],
                    merged: ev.TournamentSettings) -> list[str]:
    """One phrase per policy field the change touches, in the catalogue's order: every field
    whose value in force changed (``withdrawn absent → zero (policy egf)``), whether it was
    named or follows from another change (a new policy, an override dropped), and every field
    that became or stopped being the tournament's own choice at the same value. The fields a
    new policy changes by itself (no override of theirs changed) are named in one phrase
    (``with policy egf 18 rules change: …``); ``goledger settings`` shows their values."""
    phrases: list[str] = []
    by_policy: list[str] = []
    new_overrides = merged.policy_overrides
    for info in catalogue():
        if info.kind != "policy":
            continue
        field = info.field
        before, after = old_policy.get(field), new_policy.get(field)
        touched = old_overrides.get(field, _ABSENT) != new_overrides.get(field, _ABSENT)
        if before != after and not touched and old_policy.get("name") != new_policy.get("name"):
            by_policy.append(info.name)
        elif before != after:
            old, new = (_TOURNAMENTS if v is None else _shown(v) for v in (before, after))
            phrases.append(say("%(name)s %(old)s → %(new)s (policy %(policy)s)", name=info.name, old=old, new=new,
                               policy=merged.policy))
        elif (field in old_overrides) != (field in new_overrides):
            kept = _TOURNAMENTS if after is None else _shown(after)
            if field in new_overrides:
                phrases.append(say("%(name)s stays %(value)s (now set by the tournament)", name=info.name, value=kept))
            else:
                phrases.append(say("%(name)s stays %(value)s (now the policy %(policy)s's)", name=info.name,
                                   value=kept, policy=merged.policy))
    if by_policy:
        n, rules = len(by_policy), ", ".join(by_policy)
        if on_desk():
            phrases.append(nsay("with policy %(policy)s %(n)d rule changes: %(rules)s (the settings page shows its "
                                "value)", "with policy %(policy)s %(n)d rules change: %(rules)s (the settings page "
                                "shows their values)", n, policy=merged.policy, n=n, rules=rules))
        else:
            phrases.append(Message("with policy %(policy)s %(n)d rules change: %(rules)s (goledger settings shows "
                                   "their values)" if n > 1 else "with policy %(policy)s %(n)d rule changes: "
                                   "%(rules)s (goledger settings shows their values)",
                                   {"policy": merged.policy, "n": n, "rules": rules}))
    return [str(phrase) for phrase in phrases]  # plain text in the language in force: the preview's JSON carries it


_ABSENT = object()
"""Marks a field without an override (an override may hold ``None``: the tournament's value)."""


def _policy_info(field: str) -> SettingInfo:
    """The catalogue entry of the policy field ``field`` (a key of ``policy_overrides``)."""
    info = next((s for s in catalogue() if s.kind == "policy" and s.field == field), None)
    if info is None:
        raise CommandRejected(say("policy_overrides names %(field)r, which is no policy setting; "
                                  "`goledger settings` lists every setting and its values", field=field))
    return info


def _policy_ok(settings_now: Any) -> bool:
    from goledger.replay.scoring.policies import get_policy

    try:
        get_policy(settings_now.policy).with_overrides(settings_now.policy_overrides)
    except GoledgerError:
        return False
    return True


def _policy_value(info: SettingInfo, value: Any) -> Any:
    """A policy field's value, typed by the ``Policy`` struct (refused when outside it)."""
    from goledger.replay.scoring.policies import Policy

    if value is None or (isinstance(value, str) and value.strip().lower() in (_TOURNAMENTS, "null")):
        if not info.domain.endswith(f"| {_TOURNAMENTS}"):
            raise CommandRejected(say("%(name)s must have a value: %(domain)s", name=info.name, domain=info.domain))
        return None
    if isinstance(value, str) and info.domain.startswith("comma-separated"):
        value = [_json_or_text(v.strip()) for v in value.split(",") if v.strip()]
    try:
        typed = msgspec.convert({"name": "x", info.field: value}, Policy, strict=False)
    except msgspec.ValidationError:
        raise CommandRejected(say("%(name)s %(value)r is outside its domain: %(domain)s", name=info.name, value=value,
                                  domain=info.domain)) from None
    result = msgspec.to_builtins(getattr(typed, info.field))
    problem = domains._value_problem(info.field, getattr(typed, info.field), info.name)
    if problem:
        raise CommandRejected(problem)
    return result


def _criteria_change(value: Any) -> Any:
    """The placement criteria asked for: at least one name, or the word ``default`` (the
    policy's default criteria, stored as an empty list). An empty value (``criteria=``) is
    refused: it is a slip of the keyboard far more often than a wish."""
    names = [value] if isinstance(value, str) else value
    if isinstance(names, (list, tuple)):
        words = [n.strip() for n in names if isinstance(n, str)]
        if len(words) == len(names) and not any(words):
            raise CommandRejected(say("criteria must name at least one criterion (`goledger criteria` lists them), "
                                      "or be `default` for the policy's default criteria"))
        if [w.lower() for w in words] == ["default"]:
            return []
    return value


def _check_criteria(merged: ev.TournamentSettings) -> None:
    """The criteria must be known criterion names (whether the policy can compute them is
    checked by computing the standings, see :func:`goledger.commands.change_rules`)."""
    from goledger.replay.scoring.criteria import get_criterion

    for name in merged.criteria:
        try:
            get_criterion(name)
        except GoledgerError as exc:
            raise CommandRejected(say("criteria: %(problem)s", problem=exc.message.split(";")[0])) from None


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return msgspec.json.encode(value).decode()
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value) or "(none)"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def describe(values: Sequence[SettingValue]) -> list[list[str]]:
    """Rows for the settings table: name, value, allowed values, spec rule."""
    def cell(value: Any) -> str:
        text = msgspec.json.encode(value).decode() if isinstance(value, dict) else _shown(value)
        return text if len(text) <= 48 else text[:47] + "…"

    def shown(v: SettingValue) -> str:
        if v.value is None and v.kind == "policy":
            return _TOURNAMENTS
        if v.name == "rounds" and v.help.startswith("set at the draw"):
            return f"{v.value} (set at the draw)"
        if v.name == "rounds" and v.help.startswith("to be set at the draw"):
            count = re.search(r"(\d+) rounds", v.help)
            return f"set at the draw ({count.group(1)} for the entrants now)" if count else "set at the draw"
        return cell(v.value)

    return [[v.name + (" *" if v.overridden else ""), shown(v), v.domain, v.spec] for v in values]


# --------------------------------------------------------------------------- new

_TIME_SYSTEMS = ("sudden-death", "byo-yomi", "canadian", "fischer")


def time_settings(system: str | None, main_time: int | None, byo_yomi: int | None, periods: int | None,
                   stones: int | None, fischer: int | None) -> ev.TimeSettings | None:
    """The ``TimeSettings`` of :func:`~goledger.commands.new`'s time options (``None`` without ``--time``)."""
    given = {"--main-time": main_time, "--byo-yomi": byo_yomi, "--periods": periods, "--stones": stones,
             "--fischer": fischer}
    if system is None:
        extra = [k for k, v in given.items() if v is not None]
        if extra:
            raise CommandRejected(f"{extra[0]} needs --time (sudden-death, byo-yomi, canadian or fischer)")
        return None
    if system not in _TIME_SYSTEMS:
        raise CommandRejected(f"unknown time system {system!r}; use one of {', '.join(_TIME_SYSTEMS)}")
    if main_time is None:
        raise CommandRejected("--time needs --main-time (the main thinking time in minutes)")
    allowed = {"sudden-death": (), "byo-yomi": ("--byo-yomi", "--periods"), "canadian": ("--byo-yomi", "--stones"),
               "fischer": ("--fischer",)}[system]
    extra = [k for k, v in given.items() if v is not None and k != "--main-time" and k not in allowed]
    if extra:
        raise CommandRejected(f"{extra[0]} does not apply to {system} time")
    missing = [k for k in allowed if k != "--periods" and given[k] is None]
    if missing:
        raise CommandRejected(f"{system} time needs {missing[0]}")
    defaults = ev.TimeSettings()
    return ev.TimeSettings(
        basic_minutes=main_time, system=system,  # type: ignore[arg-type]
        byo_yomi_seconds=byo_yomi if byo_yomi is not None and system == "byo-yomi" else defaults.byo_yomi_seconds,
        byo_yomi_periods=periods,
        canadian_stones=stones if stones is not None else defaults.canadian_stones,
        canadian_seconds=byo_yomi if byo_yomi is not None and system == "canadian" else defaults.canadian_seconds,
        fischer_seconds=fischer if fischer is not None else defaults.fischer_seconds,
    )


def handicap_settings(correction: int | None, ceiling: int | None, threshold: str | None,
                      based_on: str | None) -> ev.HandicapSettings:
    """The ``HandicapSettings`` of :func:`new`'s handicap options (OpenGotha's defaults for
    what is not given)."""
    if based_on not in (None, "mms", "rank"):
        raise CommandRejected(f"--handicap-on {based_on!r}: use mms or rank")
    base = ev.HandicapSettings()
    return ev.HandicapSettings(
        based_on_mms=base.based_on_mms if based_on is None else based_on == "mms",
        no_handicap_threshold=base.no_handicap_threshold if threshold is None else _rank(threshold),
        correction=base.correction if correction is None else correction,
        ceiling=base.ceiling if ceiling is None else ceiling,
    )


def _rank(text: str) -> str:
    from goledger.ledger.values import RankError

    try:
        return str(Rank.parse(text))
    except RankError as exc:
        raise CommandRejected(str(exc)) from None


def check_views_after(state: TournamentState, event: ev.Event) -> None:
    """Refuse an event after which the standings could not be computed (e.g. criteria the
    policy cannot compute), naming why: an accepted event must stay foldable forever."""
    from goledger.errors import GoledgerError
    from goledger.replay.fold.state import apply, fold
    from goledger.replay.scoring.registries import check_registered
    from goledger.replay.scoring.standings import standings

    after = fold([], start=state)
    apply(after, event, check_registered)
    if after.anomalies[len(state.anomalies):]:
        raise CommandRejected(after.anomalies[-1].message)
    try:
        standings(after, after.last_round_with_games() or None)
    except GoledgerError as exc:
        raise CommandRejected(say("refused: after this change %(problem)s", problem=exc.message)) from None
