"""The first floor of ``replay``: the fold, events → :class:`~goledger.replay.fold.state.TournamentState`
(``state.py``), player references (``players.py``) and the state without one event
(``without.py``). It imports ``goledger.ledger`` and the base modules only; a check that needs
a registry of a higher floor (the criterion and policy names a ``RulesChanged`` sets) is handed
in as an argument (docs/architecture.md, ``tests/test_layers.py``)."""
