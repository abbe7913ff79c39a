"""The third floor of ``replay``: a tournament's state read from a ledger path — the fold of
the stored log (``load.py``: ``load_state``, ``fresh_state``), the state snapshots that spare a
command the fold of a long log (``snapshots.py``) and the seal that keeps a forged snapshot or
standings entry from being used (``cache_seal.py``). It stands below the views so that a
recording command, which needs the state and none of the read views, loads only this: importing
``goledger.replay.views`` (every read view, with the standings, explanations, crosstables and
printouts they compute) cost every recording command's start-up 20–40 ms of CPU
(docs/architecture.md, ``tests/test_layers.py``)."""
