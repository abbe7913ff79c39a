"""Tournament systems (DESIGN §8, spec ``pairing.md`` §1): for each value of ``goledger new
--system``, how its next round is made (the engine ``pair-round`` uses by default), what the
recording commands must refuse, and how its places are projected. The event vocabulary is the
same for every system.

=====================  ===============================  ==========================================
system                 next round                       places
=====================  ===============================  ==========================================
mcmahon, swiss, cup …  the ``opengotha`` engine         the standings (criteria)
knockout               the bracket (``knockout``)       final, semi-finals, then 5–8, 9–16 …
double-knockout        both brackets                    champion, runner-up, then by elimination
paramus                the ladder (``paramus``)         the last winner, then wins, then exit
match                  the two players, alternating     who reached the target score
handicap               score groups, rank-difference    the standings (criteria)
continuous-handicap    players choose; or a proposal    a named ranking function
round-robin            Berger tables                    the standings (criteria)
pairgo, rengo2/3       units (``opengotha`` engine)     the units' standings (criteria)
=====================  ===============================  ==========================================

Each system module has an options struct (stored in ``TournamentSettings.system_options``),
an ``ENGINE`` (when it pairs rounds), ``check(state, event)`` (called by the recording
commands before appending a game, a bye or a result) and ``places(state)`` when its places
are not the standings. A system whose round count follows from its entrants has
``rounds_needed(state)`` (:func:`rounds_needed`: knockout ⌈log₂ N⌉, double knockout with its
grand final, Paramus N − 1, round robin the Berger table), and a system that can finish
before its last round says so with ``decided(state)`` (:func:`decided`).

How ``pair-round`` drives a system (issue 29): the engine is asked to pair every player free
in the round; it places those the system pairs and lists every other one in
``Pairing.unpaired`` with the reason (eliminated, a bye that is a walk-over into the next
round, waiting on the Paramus ladder, sitting out an odd losers' bracket); ``pair-round``
checks that exactly those players are accounted for and records the reasons in
``RoundPaired.not_paired``. Once the event is decided the engine refuses with
:class:`~goledger.errors.EventDecided`, one sentence: "the knockout is decided: P1 won the
final".
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any, Final

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n import N_
from goledger.i18n.messages import nsay, say, say_at, word
from goledger.systems.common import AT_DRAW, Places, entrants, read_options
from goledger.systems.registry import ENGINES, GENERAL_ENGINES, SYSTEMS

if TYPE_CHECKING:
    from goledger.pairing.engine import Engine
    from goledger.replay.fold.state import TournamentState

__all__ = ["DEFAULT_ENGINE", "ROUNDS_AT_DRAW", "SYSTEM_MODULES", "check_event", "decided", "engine_for", "get_engine",
           "known_engines", "places_of", "rounds_at_draw", "rounds_needed", "system_options"]

DEFAULT_ENGINE: dict[str, str] = {name: entry.engine for name, entry in SYSTEMS.items() if entry.engine is not None}
"""System → the pairing engine ``pair-round`` uses when ``--engine`` is not given (from
:data:`goledger.systems.registry.SYSTEMS`)."""

SYSTEM_MODULES: dict[str, str] = {name: entry.module for name, entry in SYSTEMS.items() if entry.module is not None}
"""System → its module (imported on first use); systems not listed have no rules of their own."""



def _module(system: str) -> Any:
    name = SYSTEM_MODULES.get(system)
    return importlib.import_module(name) if name else None


def engine_for(state: TournamentState, name: str | None = None) -> Engine:
    """The engine that pairs the next round of ``state``'s tournament: ``name`` when given,
    else its system's default; a refusal when the system has none."""
    system = state.settings.system if state.settings is not None else ""
    chosen = name or DEFAULT_ENGINE.get(system)
    if chosen is None:
        raise CommandRejected(say_at("a %(system)s tournament has no automatic pairing; pair its games with "
                                     "goledger pair",
                                     N_("a %(system)s tournament has no automatic pairing; pair its games by hand"),
                                     system=system or "goledger"))
    return get_engine(chosen)


def known_engines() -> list[str]:
    """The engines that pair any tournament of the McMahon and Swiss family."""
    return sorted(GENERAL_ENGINES)


def get_engine(name: str) -> Engine:
    """The engine called ``name`` (:data:`goledger.systems.registry.ENGINES`), or a refusal
    listing the known ones."""
    module = ENGINES.get(name)
    if module is None:
        raise CommandRejected(say("unknown pairing engine %(name)r (known: %(known)s)", name=name,
                                  known=", ".join(sorted(ENGINES))))
    try:
        loaded = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        others = [n for n in known_engines() if n != name and importlib.util.find_spec(ENGINES[n]) is not None]
        raise CommandRejected(say_at("the pairing engine %(name)r is not part of this goledger yet; choose another "
                                     "with --engine (%(others)s)",
                                     N_("the pairing engine %(name)r is not part of this goledger yet; choose another "
                                        "(%(others)s)"), name=name,
                                     others=", ".join(others) or say("none available"))) from None
    engine: Engine = loaded.ENGINE
    return engine


def system_options(system: str, options: dict[str, Any]) -> dict[str, Any]:
    """Validate ``options`` (names and values, texts accepted) for ``system`` and return them
    as stored in the settings; a system without options refuses any."""
    module = _module(system)
    if module is None or not hasattr(module, "OPTIONS"):
        if options:
            raise CommandRejected(say("a %(system)s tournament has no system options", system=system))
        return {}
    parsed = read_options(module.OPTIONS, options, system)
    defaults = msgspec.to_builtins(module.OPTIONS())
    return {k: v for k, v in msgspec.to_builtins(parsed).items() if defaults.get(k) != v}


ROUNDS_AT_DRAW = frozenset(name for name, entry in SYSTEMS.items() if entry.rounds_at_draw)
"""The systems whose round count ``goledger new`` may leave to the draw (no ``--rounds``)."""


def rounds_at_draw(state: TournamentState) -> bool:
    """Whether ``state``'s round count is set when the draw is made (``goledger new`` without
    ``--rounds``; :data:`goledger.systems.common.AT_DRAW`)."""

    return bool(state.settings is not None and state.settings.system_options.get(AT_DRAW))


def rounds_needed(state: TournamentState) -> tuple[int, str] | None:
    """The rounds ``state``'s system needs for its entrants and why (a few words), or
    ``None`` when the system's round count is the director's choice (McMahon, Swiss, match,
    handicap…). Refuses with one sentence when the entrants cannot make the event (fewer than
    two)."""
    if state.settings is None:
        return None
    module = _module(state.settings.system)
    if module is None or not hasattr(module, "rounds_needed"):
        return None
    found: tuple[int, str] = module.rounds_needed(state)
    return found


def decided(state: TournamentState) -> str:
    """One sentence saying that ``state``'s system has decided its event ("the knockout is
    decided: P1 won the final"), or ``""`` while there is more to pair."""
    if state.settings is None:
        return ""
    module = _module(state.settings.system)
    if module is None or not hasattr(module, "decided"):
        return ""
    text: str = module.decided(state)
    return text


def check_event(state: TournamentState, event: Any) -> None:
    """Refuse, with one sentence, a game, bye or result that ``state``'s system forbids
    (called by ``goledger pair``, ``bye``, ``result`` and ``correct`` before appending)."""
    if state.settings is None:
        return
    module = _module(state.settings.system)
    if module is not None and hasattr(module, "check"):
        module.check(state, event)


def has_places(system: str) -> bool:
    """Whether ``system`` ranks its players by places of its own (knockout, Paramus, match…)
    rather than by the standings (:func:`places_of`)."""
    module = _module(system)
    return module is not None and hasattr(module, "places")


def places_of(state: TournamentState) -> Places | None:
    """The system's places (:class:`goledger.systems.common.Places`), or ``None`` when the
    system's places are the standings."""
    if state.settings is None:
        return None
    system = state.settings.system
    if not has_places(system):
        return None
    module = _module(system)
    if system in _DRAWN:
        count = len(entrants(state))
        if count < 2 or (system == "match" and count != 2):
            return Places(system=system, round=0, finished=False, rows=(),
                          notes=(str(nsay("no draw yet: %(count)d entrant; a match needs exactly two",
                                          "no draw yet: %(count)d entrants; a match needs exactly two", count,
                                          count=count) if system == "match" else
                                     nsay("no draw yet: %(count)d entrant; a %(system)s needs at least two",
                                          "no draw yet: %(count)d entrants; a %(system)s needs at least two",
                                          count, count=count, system=word(_DRAWN_WORDS[system]))),))
    return module.places(state)


_DRAWN = frozenset({"knockout", "double-knockout", "paramus", "match"})

_DRAWN_WORDS: Final = {"knockout": N_("knockout"), "double-knockout": N_("double knockout"), "paramus": N_("Paramus")}
"""The drawn systems other than the match, in words (the note of their places before the draw)."""
