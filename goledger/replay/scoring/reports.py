"""Players' own reports of their games, reconciled (issue 46): a pure projection of a state.

A player reports his game from his phone (``ResultClaimed``: he ``won``, ``lost``, or it was a
``jigo``). A claim counts for the game he has *now* in that round only if it names the same
opponent (a game re-paired since leaves the old claim behind). Each game of a round is then:

- ``recorded``: the game has a result (the desk's, or the players' agreeing reports');
- ``agree``: both players reported, and their claims give the same result (a win on one side
  and a loss on the other, or two jigos); the margin is the one they agree on, the one only
  one of them gave, or none when they give different ones;
- ``disagree``: both reported, with results that differ (two wins, a win and a jigo…);
- ``one``: only one of them reported;
- ``none``: neither did.

A round is **closed** to reports (:func:`closed_reason`) once the next round has a game or a
bye (it is paired), or once the standings after it, or after a later round, are published
(``goledger publish R``: the director's explicit close). After that only the director records
or corrects a result.

>>> from goledger.ledger import events as ev
>>> from goledger.replay.fold.state import fold
>>> s = fold([ev.TournamentCreated(settings=ev.TournamentSettings(name="T", rounds=2)),
...           ev.PlayerRegistered(player_id="p0001", surname="Sato", rank="2d"),
...           ev.PlayerRegistered(player_id="p0002", surname="Ito", rank="1k"),
...           ev.GamePaired(round=1, table=1, white="p0001", black="p0002"),
...           ev.ResultClaimed(round=1, table=1, player_id="p0002", opponent="p0001", outcome="won", margin="R")])
>>> [(g.status, g.table) for g in round_reports(s, 1)]
[('one', 1)]
>>> s = fold([ev.ResultClaimed(round=1, table=1, player_id="p0001", opponent="p0002", outcome="lost")], start=s)
>>> row = round_reports(s, 1)[0]
>>> row.status, row.claimed.value, row.margin
('agree', 'black', 'R')
"""

from __future__ import annotations

import re
from typing import Final, Literal

import msgspec

from goledger.ledger.values import Result
from goledger.replay.fold.state import Claim, GameState, TournamentState

__all__ = ["MARGIN", "PUBLISHED", "STATUSES", "GameReports", "ReportStatus", "claim_result", "closed_reason",
           "current_claim", "reconcile", "round_reports"]

ReportStatus = Literal["recorded", "agree", "disagree", "one", "none"]
STATUSES: Final[tuple[ReportStatus, ...]] = ("agree", "disagree", "one", "none", "recorded")
"""The order the desk lists them in: what waits for the director first."""

PUBLISHED: Final = "published"
"""The label of ``goledger publish``'s checkpoint (``goledger.audit.published.PUBLISHED_LABEL``)."""

MARGIN: Final = re.compile(r"^(R|T|[0-9]{1,3}(\.5)?)$")
"""A margin a player may give: ``R`` (resignation), ``T`` (time), or the points (at most 999.5,
whole or a half). A forfeit is the director's to record."""


class GameReports(msgspec.Struct, frozen=True, kw_only=True):
    """One game of a round with its players' reports and where it stands."""

    round: int
    table: int
    white: str
    black: str
    status: ReportStatus
    white_claim: Claim | None
    black_claim: Claim | None
    result: Result
    """The recorded result (``unknown`` when none)."""
    claimed: Result | None
    """The result both claims give (``agree``, or ``recorded`` with agreeing claims), else ``None``."""
    margin: str = ""

    @property
    def reported(self) -> tuple[str, ...]:
        """The players who reported, white first."""
        return tuple(p for p, c in ((self.white, self.white_claim), (self.black, self.black_claim)) if c is not None)


def claim_result(game: GameState, player_id: str, claim: Claim) -> Result:
    """The result a claim gives the game: ``won`` by White is ``white``, ``lost`` by White is
    ``black``, ``jigo`` is ``jigo``."""
    if claim.outcome == "jigo":
        return Result.JIGO
    white_won = (player_id == game.white) == (claim.outcome == "won")
    return Result.WHITE if white_won else Result.BLACK


def current_claim(state: TournamentState, game: GameState, player_id: str) -> Claim | None:
    """``player_id``'s latest claim of ``game``'s round, when it names the opponent he has now."""
    claim = state.claims.get(game.round, {}).get(player_id)
    if claim is None or claim.opponent != game.opponent(player_id):
        return None
    return claim


def _margin(a: Claim, b: Claim) -> str:
    if a.margin == b.margin or not b.margin:
        return a.margin
    return b.margin if not a.margin else ""


def reconcile(game: GameState, white_claim: Claim | None, black_claim: Claim | None) -> GameReports:
    """The game's row: its status, and the result and margin the two claims agree on."""
    claimed: Result | None = None
    margin = ""
    if white_claim is not None and black_claim is not None:
        mine, theirs = claim_result(game, game.white, white_claim), claim_result(game, game.black, black_claim)
        if mine is theirs:
            claimed, margin = mine, _margin(white_claim, black_claim)
        status: ReportStatus = "agree" if claimed is not None else "disagree"
    else:
        status = "one" if white_claim is not None or black_claim is not None else "none"
    if game.result is not Result.UNKNOWN:
        status = "recorded"
    return GameReports(round=game.round, table=game.table, white=game.white, black=game.black, status=status,
                       white_claim=white_claim, black_claim=black_claim, result=game.result, claimed=claimed,
                       margin=margin)


def round_reports(state: TournamentState, round_: int) -> list[GameReports]:
    """Every game of ``round_`` (table order) with its players' reports reconciled."""
    rows = []
    for game in state.games_of_round(round_):
        if game.white == game.black:
            continue
        rows.append(reconcile(game, current_claim(state, game, game.white), current_claim(state, game, game.black)))
    return rows


def closed_reason(state: TournamentState, round_: int) -> tuple[Literal["paired", "published"], int] | None:
    """Why round ``round_`` takes no more reports (``None``: it still does): ``("paired", R + 1)``
    when the next round has a game or a bye, ``("published", R')`` when the standings after it
    or a later round ``R'`` are published."""
    nxt = round_ + 1
    if state.games.get(nxt) or state.byes.get(nxt):
        return ("paired", nxt)
    for _, checkpoint in state.checkpoints:
        if checkpoint.label == PUBLISHED and checkpoint.round is not None and checkpoint.round >= round_:
            return ("published", checkpoint.round)
    return None
