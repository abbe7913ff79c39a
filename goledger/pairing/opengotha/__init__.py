"""The ``opengotha`` pairing engine: a re-implementation of OpenGotha 3.51.02's automatic
pairing (spec ``pairing.md`` §2), reproducing its pairings, costs, byes, colours, handicaps
and table numbers. ``ENGINE`` satisfies :class:`goledger.pairing.engine.Engine`.

Modules, one job each: :mod:`.parameters` (the pairing and handicap parameter sets and their
defaults), :mod:`.facts` (what the cost function knows about each player), :mod:`.costs`
(``costValue``), :mod:`.chunking` (200/600), :mod:`.bye` (``chooseAByePlayer``),
:mod:`.colours` (``gameBetween``, ``detRandom``), :mod:`.tables`
(``renumberTablesByBestScoreThenRating``) and :mod:`.engine` (putting them together).

>>> ENGINE.name, ENGINE.version
('opengotha', '3.51.02')
"""

from __future__ import annotations

from goledger.pairing.opengotha.engine import ENGINE, OpenGothaEngine

__all__ = ["ENGINE", "OpenGothaEngine"]
