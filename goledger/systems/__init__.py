"""Tournament systems (DESIGN §8, spec ``pairing.md`` §1): for each value of ``goledger new
--system``, how its next round is made (the engine ``pair-round`` uses by default) and how its
places are projected. The event vocabulary is the same for every system.
"""

from __future__ import annotations

from typing import Any

from goledger.errors import CommandRejected
from goledger.pairing import get_engine
from goledger.pairing.engine import Engine

__all__ = ["DEFAULT_ENGINE", "engine_for"]

DEFAULT_ENGINE: dict[str, str] = {
    "mcmahon": "opengotha",
    "swiss": "opengotha",
    "swisscat": "opengotha",
}
"""System → the pairing engine ``pair-round`` uses when ``--engine`` is not given."""


def engine_for(state: Any, name: str | None = None) -> Engine:
    """The engine that pairs the next round of ``state``'s tournament: ``name`` when given,
    else its system's default; a refusal when the system has none."""
    system = state.settings.system if state.settings is not None else ""
    chosen = name or DEFAULT_ENGINE.get(system)
    if chosen is None:
        raise CommandRejected(f"a {system or 'tournament'} tournament has no automatic pairing; pair its games "
                              "with goledger pair")
    return get_engine(chosen)
