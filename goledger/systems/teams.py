"""Team tournaments (``goledger new --system team-swiss|team-mcmahon --boards N``; issue 30,
docs/teams.md): teams of N boards meet board i against board i; the teams are paired by team
points, then board points (:mod:`goledger.teams.pairing`), and ranked by OpenGotha's team
criteria (:mod:`goledger.teams.standings`). The individual games are ordinary games, so the
individual standings, the EGD export and every audit command work on them unchanged.

Why a system of its own and not a flag: the pairing of a team round is a different decision
(which teams meet, then OpenGotha's ``pairTeams`` board rule), so ``pair-round`` needs to
know; everything else (events, results, standings of players) is the same vocabulary.

>>> TeamOptions().boards, TeamOptions().team_criteria
(4, 'TEAMP,BDW,BDW3U,BDW2U,BDW1U,MNR')
"""

from __future__ import annotations

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.teams.model import DEFAULT_TEAM_CRITERIA, MAX_BOARDS, TEAM_CRITERIA
from goledger.teams.swiss import ENGINE

__all__ = ["ENGINE", "OPTIONS", "TeamOptions"]


class TeamOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``boards``: players per team (OpenGotha's ``teamSize``, 1 … 10); ``team_criteria``:
    the six team placement criteria; ``avoid_same_club``: the team pairing avoids two teams
    of one club where it can (a team's club is its players' common club)."""

    boards: int = 4
    team_criteria: str = ",".join(DEFAULT_TEAM_CRITERIA)
    avoid_same_club: bool = True

    def __post_init__(self) -> None:
        if not 1 <= self.boards <= MAX_BOARDS:
            raise CommandRejected(say("a team has 1..%(most)d boards, not %(boards)d", most=MAX_BOARDS,
                                      boards=self.boards))
        names = [c.strip().upper() for c in self.team_criteria.split(",") if c.strip()]
        unknown = [c for c in names if c not in TEAM_CRITERIA]
        if unknown or len(names) > 6:
            raise CommandRejected(say("team criteria are at most six of %(known)s",
                                      known=", ".join(sorted(TEAM_CRITERIA))))


OPTIONS = TeamOptions
