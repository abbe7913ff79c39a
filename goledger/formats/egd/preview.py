"""The rating preview in the EGD export's report (``goledger export egd --with-preview``,
issue 21): before a director uploads the table, the report says what the EGD's GoR 2021 would
make of it (:mod:`goledger.rating.preview`, default ``gor-2021`` options).

Each player gets an ``info`` entry ``rating-preview`` with his rating before, the change and
the rating after; a ledger rating more than a grade away from the player's grade is a
``warning`` ``rating-grade`` (after a wrong PIN, the most common submission error); games the
EGD will not rate are counted by reason in one ``info`` entry ``rating-not-rated``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goledger.rating.gor import shown
from goledger.rating.preview import preview_state

if TYPE_CHECKING:
    from goledger.formats.report import InterchangeReport
    from goledger.replay.fold.state import TournamentState

__all__ = ["add_rating_preview"]


def add_rating_preview(report: InterchangeReport, state: TournamentState, egd_class: str | None = None) -> None:
    """Add the preview of ``state`` (class ``egd_class``, default from the time settings) to
    ``report``."""
    preview = preview_state(state, egd_class)
    for p in preview.players:
        name = f"{p.surname} {p.first_name}".strip()
        change = shown(p.change)
        sign = "" if change.startswith("-") else "+"
        report.info("rating-preview", f"{name}: GoR {shown(p.rating_before)} → {shown(p.rating_after)} "
                    f"({sign}{change}, {sum(1 for g in p.games if g.rated)} rated games, class "
                    f"{preview.egd_class})", p.id)
        for flag in p.flags:
            report.warning("rating-grade", f"{name}: {flag}", p.id)
    skipped: dict[str, int] = {}
    for p in preview.players:
        for g in p.games:
            if not g.rated:
                skipped[g.reason] = skipped.get(g.reason, 0) + 1
    if skipped:
        text = "; ".join(f"{reason} ({n} player-games)" for reason, n in sorted(skipped.items()))
        report.info("rating-not-rated", f"games the EGD will not rate: {text}")
