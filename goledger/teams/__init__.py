"""Team tournaments (issue 30, docs/teams.md): teams of 1 … 10 boards, their composition per
round (:mod:`.model`), the team standings exactly as OpenGotha 3.51.02 computes them and their
explanation (:mod:`.standings`), and the views by ledger path (:mod:`.views`). Board games are
ordinary games of the ledger; teams are ``TeamRegistered`` / ``TeamMemberAssigned`` /
``TeamMemberRemoved`` / ``TeamRemoved`` events."""
