"""The second floor of ``replay``: everything computed from a folded state — round tables
(``rounds.py``), start scores, the scoring context, ``criteria/`` and ``policies/``,
standings, explanations and the pure parts of the read views (crosstable, printouts, FIDE
adjusted scores). It imports the fold and ``goledger.ledger``, never opens a ledger
(docs/architecture.md, ``tests/test_layers.py``)."""
