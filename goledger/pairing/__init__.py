"""Pairing engines (DESIGN §8, spec ``pairing.md``): pure functions of the tournament before a
round, parameters and a seed → games and a bye, with integer weights. See
:mod:`goledger.pairing.engine` for the contract and :func:`get_engine` for the names.
"""

from __future__ import annotations

import importlib
import importlib.util

from goledger.errors import CommandRejected
from goledger.pairing.engine import Engine

__all__ = ["ENGINES", "check_parameters", "get_engine", "known_engines"]

ENGINES: dict[str, str] = {
    "opengotha": "goledger.pairing.opengotha",
    "egf": "goledger.pairing.egf",
}
"""Engine name → the module whose ``ENGINE`` attribute implements it (imported on first use)."""


def known_engines() -> list[str]:
    """The engine names ``--engine`` accepts."""
    return sorted(ENGINES)


def get_engine(name: str) -> Engine:
    """The engine called ``name``, or a refusal listing the known ones."""
    module = ENGINES.get(name)
    if module is None:
        raise CommandRejected(f"unknown pairing engine {name!r} (known: {', '.join(known_engines())})")
    try:
        loaded = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        others = [n for n in known_engines() if n != name and importlib.util.find_spec(ENGINES[n]) is not None]
        raise CommandRejected(f"the pairing engine {name!r} is not part of this goledger yet; choose another with "
                              f"--engine ({', '.join(others) or 'none available'})") from None
    engine: Engine = loaded.ENGINE
    return engine


def check_parameters(texts: dict[str, str]) -> None:
    """Refuse pairing parameters (``settings.pairing``) that goledger's ``egf`` engine would
    refuse: its ``egf.<name>`` entries (other keys, such as an imported file's own weights,
    are kept verbatim and not judged here)."""
    own = {k[4:]: v for k, v in texts.items() if k.startswith("egf.")}
    if own:
        from goledger.pairing.egf.parameters import EgfParameters

        EgfParameters.from_texts({k: str(v) for k, v in own.items()})
