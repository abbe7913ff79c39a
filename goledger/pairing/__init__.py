"""Pairing engines (DESIGN §8, spec ``pairing.md``): pure functions of the tournament before a
round, parameters and a seed → games and a bye, with integer weights. See
:mod:`goledger.pairing.engine` for the contract; the engines are found by name in the one
table of engines, :data:`goledger.systems.registry.ENGINES` (:func:`goledger.systems.get_engine`).
"""

from __future__ import annotations

__all__ = ["check_parameters"]


def check_parameters(texts: dict[str, str]) -> None:
    """Refuse pairing parameters (``settings.pairing``) that goledger's ``egf`` engine would
    refuse: its ``egf.<name>`` entries (other keys, such as an imported file's own weights,
    are kept verbatim and not judged here)."""
    own = {k[4:]: v for k, v in texts.items() if k.startswith("egf.")}
    if own:
        # the egf package loads its engine (numpy): only a tournament with egf.* entries pays
        from goledger.pairing.egf.parameters import EgfParameters

        EgfParameters.from_texts({k: str(v) for k, v in own.items()})
