"""OpenGotha's 200/600 chunking of big rounds (spec ``pairing.md`` §2.1;
``Tournament.makeAutomaticPairing`` of 3.51.02, ``Pairing.PAIRING_GROUP_MIN_SIZE = 200``,
``MAX = 600``).

While more than 600 players remain, a chunk is taken: for each category 0, 1, … and each
main-score level from the maximum down, the remaining players (in list order) whose category
is at most the current one and whose halved main score is at least the level join it. It
stops at once when it reaches 600 players or when at most 200 would remain; otherwise it
stops after a level once it has at least 200 players and an even count. Each chunk is matched
on its own, in extraction order (higher levels first, list order inside); the last ≤ 600
players form the last chunk.

>>> level = {f"p{i}": i % 3 for i in range(700)}
>>> [len(c) for c in chunks([f"p{i}" for i in range(700)], level, dict.fromkeys(level, 0), 1, 2, 0)]
[466, 234]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["GROUP_MAX", "GROUP_MIN", "chunks"]

GROUP_MIN = 200
GROUP_MAX = 3 * GROUP_MIN


def chunks(order: Sequence[str], level: Mapping[str, int], category: Mapping[str, int], categories: int,
           score_max: int, score_min: int) -> list[list[str]]:
    """``order`` cut into the chunks OpenGotha matches separately (see the module docstring);
    ``level`` is each player's halved main score after round R−1, ``category`` his category."""
    remaining = list(order)
    out: list[list[str]] = []
    while len(remaining) > GROUP_MAX:
        group: list[str] = []
        ready = False
        for cat in range(categories):
            for score in range(score_max, score_min - 1, -1):
                kept: list[str] = []
                for index, pid in enumerate(remaining):
                    if category[pid] > cat or level[pid] < score:
                        kept.append(pid)
                        continue
                    group.append(pid)
                    left = len(remaining) - index - 1 + len(kept)
                    if len(group) >= GROUP_MAX or left <= GROUP_MIN:
                        ready = True
                        kept.extend(remaining[index + 1:])
                        break
                remaining = kept
                if len(group) >= GROUP_MIN and len(group) % 2 == 0:
                    ready = True
                if ready:
                    break
            if ready:
                break
        if not group:
            break
        out.append(group)
    out.append(remaining)
    return [c for c in out if c]
