"""Everything goledger computes from the log, in four floors, each importing only the floors
below it (docs/architecture.md, ``tests/test_layers.py``): :mod:`goledger.replay.fold`
(events → state), :mod:`goledger.replay.scoring` (what a state gives: rounds, criteria,
policies, standings, explanations, printouts), :mod:`goledger.replay.loading` (a state from a
ledger path: the fold of the stored log, its snapshots and their seal) and
:mod:`goledger.replay.views` (every read view by ledger path and the standings cache: what the
CLI and the desk call)."""
