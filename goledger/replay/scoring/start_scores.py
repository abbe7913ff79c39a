"""McMahon start scores with the variants of the founding documents (spec ``scoring.md``
§1.1, §6.5; seed ``egf-rules.json``).

* **Bar and floor** (OpenGotha, EGF): ``clamp(rank, floor, bar) − zero + correction``
  (:func:`start_mms`).
* **Grouped McMahon**: the tournament's ``mm_groups`` give one start score to a whole rank
  range (``1k–2d = 29``) instead of one per rank; a rank in no group keeps bar and floor.
* **EGF super-group** (``mm_super_group``): when more than 6(N−2) players are at or above
  the bar (N = rounds), the 4(N−2) strongest (rank, then rating) start one point higher.
  By default no super-group is used (EGF TSR); a tournament's own rules switch it on.
* **Bar-size warning** (Hungarian rules): the bar works best when 2^(N−1) < players at or
  above the bar < 2^N; outside that range :func:`start_score_table` warns.

The player's own McMahon correction (−1 … +2, OpenGotha's super-group mechanism) is added
last. These are tournament settings, not policy options: they are the organiser's
decisions for one event (they drive its pairings as much as its standings), recorded in
``TournamentCreated``/``RulesChanged`` like the bar and floor, so every view of the
tournament — whatever rule policy reads it — starts from the same scores.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.ledger.events import StartGroup, TournamentSettings
from goledger.ledger.values import Rank, RankError

if TYPE_CHECKING:
    from goledger.replay.fold.state import TournamentState

__all__ = [
    "StartScoreRow",
    "StartScoreTable",
    "bar_size_warning",
    "parse_groups",
    "rank_value",
    "start_mms",
    "start_score_table",
    "start_scores",
    "super_group_members",
]


@lru_cache(maxsize=512)
def rank_value(text: str) -> int:
    """OpenGotha's rank integer (30k = −30 … 9d = 8) of a rank string."""
    return Rank.parse(text).value


def start_mms(rank: str, correction: int, settings: TournamentSettings) -> int:
    """Starting McMahon score in whole points: ``clamp(rank, floor, bar) − zero + correction``.

    >>> s = TournamentSettings(name="t", rounds=5, mm_bar="4d", mm_floor="20k")
    >>> start_mms("1d", 0, s), start_mms("25k", 0, s), start_mms("6d", 0, s), start_mms("6d", 1, s)
    (30, 10, 33, 34)
    """
    value = max(rank_value(settings.mm_floor), min(rank_value(settings.mm_bar), rank_value(rank)))
    return value - rank_value(settings.mm_zero) + correction


def parse_groups(spec: str) -> tuple[StartGroup, ...]:
    """``"5d-9d=33, 1d-4d=31, 10k-1k=25"`` → start groups (each range weakest-strongest in
    any order). Refuses malformed items and overlapping ranges.

    >>> [(g.lowest, g.highest, g.score) for g in parse_groups("3d-1d=32, 5k-1k=29")]
    [('1d', '3d', 32), ('5k', '1k', 29)]
    >>> parse_groups("1d-3d=32, 2d-4d=33")
    Traceback (most recent call last):
    ...
    goledger.errors.CommandRejected: start groups 1d-3d and 2d-4d overlap
    """
    groups: list[StartGroup] = []
    for item in spec.split(","):
        item = item.strip()
        if not item:
            continue
        ranks, sep, score = item.partition("=")
        low, dash, high = ranks.strip().partition("-")
        if not sep or not dash:
            raise CommandRejected(say("start group %(group)r is not RANK-RANK=SCORE (e.g. 1d-4d=31)", group=item))
        try:
            a, b = Rank.parse(low), Rank.parse(high)
            value = int(score.strip())
        except (RankError, ValueError):
            raise CommandRejected(say("start group %(group)r is not RANK-RANK=SCORE (e.g. 1d-4d=31)",
                                      group=item)) from None
        weak, strong = (a, b) if a <= b else (b, a)
        groups.append(StartGroup(lowest=str(weak), highest=str(strong), score=value))
    ordered = sorted(groups, key=lambda g: rank_value(g.lowest))
    for first, second in pairwise(ordered):
        if rank_value(second.lowest) <= rank_value(first.highest):
            raise CommandRejected(say("start groups %(first)s and %(second)s overlap",
                                      first=f"{first.lowest}-{first.highest}",
                                      second=f"{second.lowest}-{second.highest}"))
    return tuple(groups)


def _group_of(rank: str, settings: TournamentSettings) -> StartGroup | None:
    value = rank_value(rank)
    for group in settings.mm_groups:
        if rank_value(group.lowest) <= value <= rank_value(group.highest):
            return group
    return None


def _participants(state: TournamentState) -> list[Any]:
    """Players counted for the super-group and bar-size rules: all but those withdrawn from round 1."""
    return [p for p in state.players.values() if p.withdrawn_from != 1]


def super_group_members(state: TournamentState, settings: TournamentSettings) -> tuple[set[str], list[str]]:
    """The players who get the super-group point, and warnings (a tie at the cut)."""
    n = settings.rounds
    warnings: list[str] = []
    if not settings.mm_super_group or n <= 2:
        return set(), warnings
    bar = rank_value(settings.mm_bar)
    above = [p for p in _participants(state) if rank_value(p.rank) >= bar]
    if len(above) <= 6 * (n - 2):
        return set(), warnings
    size = 4 * (n - 2)
    by_registration = sorted(above, key=lambda p: p.registered_seq)
    ordered = sorted(by_registration, key=lambda p: (Rank.parse(p.rank), p.rating or 0), reverse=True)
    chosen = ordered[:size]
    if len(ordered) > size:
        last, first_out = ordered[size - 1], ordered[size]
        if (last.rank, last.rating) == (first_out.rank, first_out.rating):
            warnings.append(
                f"the super-group cut ({size} players) falls between players of equal rank {last.rank} and rating "
                f"{last.rating or 'none'} ({last.id} in, {first_out.id} out, by registration order)"
            )
    return {p.id for p in chosen}, warnings


def start_scores(state: TournamentState, settings: TournamentSettings) -> dict[str, int]:
    """Every player's start McMahon score (whole points) under ``settings``."""
    if not settings.mm_groups and not settings.mm_super_group:
        return {pid: start_mms(p.rank, p.mm_correction, settings) for pid, p in state.players.items()}
    members, _ = super_group_members(state, settings)
    scores = {}
    for pid, p in state.players.items():
        group = _group_of(p.rank, settings)
        base = group.score if group is not None else start_mms(p.rank, 0, settings)
        scores[pid] = base + (1 if pid in members else 0) + p.mm_correction
    return scores


def bar_size_warning(above: int, rounds: int) -> str | None:
    """Hungarian rule (seed ``egf-rules.json``): 2^(rounds−1) < players above the bar < 2^rounds.

    >>> bar_size_warning(40, 6) is None
    True
    >>> bar_size_warning(32, 6)
    '32 players at or above the bar for 6 rounds: the bar works best with more than 32 and fewer than 64'

    """
    low, high = 2 ** (rounds - 1), 2 ** rounds
    if low < above < high:
        return None
    return (f"{above} players at or above the bar for {rounds} rounds: the bar works best with more than {low} and "
            f"fewer than {high}")


class StartScoreRow(msgspec.Struct, kw_only=True):
    player_id: str
    surname: str
    first_name: str
    rank: str
    rating: int | None
    source: str
    base: int
    super_group: bool
    correction: int
    start: int
    taking_part: bool = True
    """False for a player withdrawn from round 1: listed, but left out of the super-group and
    bar-size counts."""


class StartScoreTable(msgspec.Struct, kw_only=True):
    round: int
    system: str
    bar: str
    floor: str
    zero: str
    groups: list[dict[str, Any]]
    super_group_rule: bool
    at_or_above_bar: int
    """Players at or above the bar who take part (the count the super-group and bar-size rules use)."""
    super_group_size: int
    rows: list[StartScoreRow]
    warnings: list[str]
    listed_at_or_above_bar: int = 0
    """Every listed player at or above the bar, withdrawn-from-round-1 players included."""

    def summary(self) -> str:
        """``3 at or above the bar`` — and, when a player withdrawn from round 1 is among them,
        how many of them the rules count."""
        text = f"{self.listed_at_or_above_bar} at or above the bar"
        left_out = self.listed_at_or_above_bar - self.at_or_above_bar
        if left_out:
            text += (f", {self.at_or_above_bar} taking part ({left_out} withdrawn from round 1, not counted by the "
                     f"bar-size and super-group rules)")
        return text

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = msgspec.to_builtins(self)
        return out


def start_score_table(state: TournamentState, round: int | None = None) -> StartScoreTable:  # noqa: A002
    """Start scores with their reasons and the warnings of the founding documents."""
    if state.settings is None:
        raise CommandRejected(say("the ledger has no tournament yet"))
    round_ = round or max(state.last_round_with_games(), 1)
    settings = state.settings_for_round(round_)
    members, warnings = super_group_members(state, settings)
    bar, floor = rank_value(settings.mm_bar), rank_value(settings.mm_floor)
    scores = start_scores(state, settings)
    rows = []
    for pid, p in state.players.items():
        group = _group_of(p.rank, settings)
        value = rank_value(p.rank)
        if group is not None:
            source, base = f"group {group.lowest}–{group.highest}", group.score
        else:
            source = "bar" if value >= bar else ("floor" if value <= floor else "rank")
            base = start_mms(p.rank, 0, settings)
        rows.append(StartScoreRow(player_id=pid, surname=p.surname, first_name=p.first_name, rank=p.rank,
                                  rating=p.rating, source=source, base=base, super_group=pid in members,
                                  correction=p.mm_correction, start=scores[pid], taking_part=p.withdrawn_from != 1))
    rows.sort(key=lambda r: (-r.start, -rank_value(r.rank), -(r.rating or 0), r.player_id))
    above = sum(1 for p in _participants(state) if rank_value(p.rank) >= bar)
    listed_above = sum(1 for p in state.players.values() if rank_value(p.rank) >= bar)
    if settings.system == "mcmahon":
        message = bar_size_warning(above, settings.rounds)
        if message:
            warnings.append(message)
    uncovered = sorted({r.rank for r in rows if settings.mm_groups and not r.source.startswith("group")},
                       key=rank_value)
    if uncovered:
        warnings.append(f"ranks in no start group (bar and floor apply): {', '.join(uncovered)}")
    return StartScoreTable(
        round=round_, system=settings.system, bar=settings.mm_bar, floor=settings.mm_floor, zero=settings.mm_zero,
        groups=[msgspec.to_builtins(g) for g in settings.mm_groups], super_group_rule=settings.mm_super_group,
        at_or_above_bar=above, super_group_size=len(members), rows=rows, warnings=warnings,
        listed_at_or_above_bar=listed_above,
    )
