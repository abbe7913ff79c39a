"""Everything goledger computes from the log, in three floors, each importing only the floors
below it (docs/architecture.md, ``tests/test_layers.py``): :mod:`goledger.replay.fold`
(events → state), :mod:`goledger.replay.scoring` (what a state gives: rounds, criteria,
policies, standings, explanations, printouts) and :mod:`goledger.replay.views` (every read by
ledger path, with its loading and caches: what the CLI and the desk call)."""
