"""The registry of placement criteria (DESIGN §5).

A :class:`Criterion` has a name (OpenGotha long names such as ``SOSM-1``, FIDE names such as
``BH-C1``), a ``scale`` (values are integers in units of ``1/scale`` point: 2 for
half-points, 4 for quarter points, 1 for counts and ratings), a ``compute`` function of a
:class:`~goledger.replay.scoring.scoring.ScoringContext` returning one integer per player, and an
``explain`` function listing the terms behind one player's value.

Higher values rank better; a criterion where lower is better (CAT) stores negated values.

>>> get_criterion("mms").name, get_criterion("MMS").scale
('MMS', 2)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from goledger.errors import CommandRejected

__all__ = ["CRITERIA", "Criterion", "Explanation", "Term", "get_criterion", "register"]


@dataclass(frozen=True)
class Term:
    """One term of a criterion value: where it comes from and how much it brings."""

    round: int | None
    value: int
    source: str
    opponent: str | None = None
    rule: str = ""
    detail: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Explanation:
    """Why a player has a value: the terms, the total and the rule text it follows."""

    criterion: str
    player_id: str
    round: int
    value: int
    scale: int
    rule: str
    terms: tuple[Term, ...] = ()


Context = TypeVar("Context")
"""What a criterion computes from: the :class:`~goledger.replay.scoring.scoring.ScoringContext`.
The context looks criteria up here by name, so this registry sits below it and is generic in
it (``Criterion[ScoringContext]``); it imports nothing of the scoring."""

Compute = Callable[[Context], dict[str, int]]
ComputeFor = Callable[[Context, Collection[str]], dict[str, int]]
Update = Callable[[Context, dict[str, int]], dict[str, int] | None]
Explain = Callable[[Context, str], Explanation]


@dataclass(frozen=True)
class Criterion(Generic[Context]):
    """A placement criterion. ``depth`` and ``compute_for`` let an audit's forward pass
    update values instead of recomputing them (:meth:`ScoringContext.value`): ``depth`` says
    how far a player's value reaches — 0 his own rounds only, 1 his opponents' rounds too
    (SOS), 2 their opponents' as well (SOSOS) — and ``compute_for(ctx, players)`` gives the
    values of ``players`` alone, with the same rule as ``compute`` (which is then
    ``compute_for(ctx, ctx.all_players)``). ``depth=None``: a value may depend on any player
    (direct confrontation, a group's rating…), computed in full at every point. ``update(ctx,
    before)``, when given, turns the previous point's values ``before`` into this point's
    from what changed in between (``None`` when it cannot tell: then the players dirty at
    ``depth`` are computed again)."""

    name: str
    scale: int
    compute: Compute[Context]
    explain: Explain[Context] | None = None
    description: str = ""
    aliases: tuple[str, ...] = ()
    depth: int | None = None
    compute_for: ComputeFor[Context] | None = None
    update: Update[Context] | None = None


CRITERIA: dict[str, Criterion[Any]] = {}
_LOOKUP: dict[str, str] = {}


def register(criterion: Criterion[Context]) -> Criterion[Context]:
    """Add a criterion (and its aliases, case-insensitively) to the registry."""
    CRITERIA[criterion.name] = criterion
    for key in (criterion.name, *criterion.aliases):
        _LOOKUP[key.upper()] = criterion.name
    return criterion


def get_criterion(name: str) -> Criterion[Any]:
    """Look a criterion up by name or alias, ignoring case."""
    _load_builtin()
    found = _LOOKUP.get(name.strip().upper())
    if found is None:
        known = ", ".join(sorted(CRITERIA))
        raise CommandRejected(f"unknown criterion {name!r}; known criteria: {known}")
    return CRITERIA[found]


def known_criteria() -> list[str]:
    _load_builtin()
    return sorted(CRITERIA)


BUILTIN_MODULES: tuple[str, ...] = (
    "goledger.replay.scoring.criteria.go",
    "goledger.replay.scoring.criteria.sos",
    "goledger.replay.scoring.criteria.exploits",
    "goledger.replay.scoring.criteria.dc",
    "goledger.replay.scoring.criteria.fide",
    "goledger.replay.scoring.criteria.macmahon",
)
"""Modules that register criteria when imported; loaded on first lookup."""

_LOADED = False


def _load_builtin() -> None:
    """Import the modules that register the built-in criteria (once, lazily)."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True

    for module in BUILTIN_MODULES:
        importlib.import_module(module)
