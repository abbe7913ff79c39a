"""Teams as OpenGotha 3.51.02 holds them: team size, criteria, numbers, names, the composition
of a round and which team a player plays for (``../shared/team-oracle/README.md``, "Team
numbers and names on import", "Which matches exist"; docs/teams.md).

* **Team size** (``TeamGeneralParameterSet.teamSize``): the tournament's ``boards`` system
  option (``goledger new --system team-swiss --boards N``), else the imported file's
  ``teamSize``, else OpenGotha's default 4.
* **Numbers.** OpenGotha's internal number is the file's ``teamNumber − 1``; when that is ≤ 0
  or already taken the team gets the smallest free internal number from 0 on, in the order
  the teams were registered (``Tournament.addTeam``). Shown numbers are internal + 1.
* **Names.** A name already taken gets ``_2``, ``_3`` … (the team keeps its own name in the
  ledger; this is the name OpenGotha would show and key its map by).
* **Map order.** OpenGotha keeps teams in a ``HashMap<String, Team>`` keyed by name: a
  player in two teams in one round plays for the first one in that map's iteration order.

>>> java_string_hash("FLG"), java_string_hash("")
(69697, 0)
>>> hashmap_order(["FLG", "GELE", "Olga's team", "ROBOCOP", "Levallois-Jussieu", "Poilâne"])
['FLG', 'GELE', "Olga's team", 'ROBOCOP', 'Levallois-Jussieu', 'Poilâne']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import msgspec

if TYPE_CHECKING:
    from collections.abc import Sequence

    from goledger.replay.fold.state import TeamState, TournamentState

__all__ = [
    "DEFAULT_TEAM_CRITERIA",
    "DEFAULT_TEAM_SIZE",
    "MAX_BOARDS",
    "TEAM_CRITERIA",
    "TEAM_SYSTEMS",
    "Roster",
    "hashmap_order",
    "is_team_tournament",
    "java_string_hash",
    "roster",
    "team_criteria",
    "team_size",
]

MAX_BOARDS: Final = 10
"""OpenGotha's ``Gotha.MAX_NUMBER_OF_MEMBERS_BY_TEAM``: boards 1 … 10."""
DEFAULT_TEAM_SIZE: Final = 4
TEAM_CRITERIA: Final = frozenset({"NULL", "TEAMP", "SOST", "BDW", "MNR"} | {f"BDW{k}U" for k in range(1, 10)})
"""The team placement criteria OpenGotha 3.51.02 knows (an unknown name becomes NULL)."""
DEFAULT_TEAM_CRITERIA: Final = ("TEAMP", "BDW", "BDW3U", "BDW2U", "BDW1U", "MNR")
"""``TeamPlacementParameterSet``'s default criteria."""
TEAM_SYSTEMS: Final = frozenset({"team-swiss", "team-mcmahon"})
_TEAM_SIZE_KEY: Final = "opengotha.TeamGeneralParameterSet.teamSize"
_TEAM_CRITERIA_KEY: Final = "opengotha.TeamPlacementParameterSet.criteria"


def is_team_tournament(state: TournamentState) -> bool:
    """Whether ``state`` is run as a team tournament (``--system team-swiss|team-mcmahon``)."""
    return state.settings is not None and state.settings.system in TEAM_SYSTEMS


def team_size(state: TournamentState) -> int:
    """Boards per team (see the module docstring), within 1 … 10."""
    settings = state.settings
    if settings is None:
        return DEFAULT_TEAM_SIZE
    boards = settings.system_options.get("boards")
    if isinstance(boards, int) and not isinstance(boards, bool):
        return max(1, min(MAX_BOARDS, boards))
    raw = settings.extras.get(_TEAM_SIZE_KEY, "")
    if raw.strip().lstrip("-").isdigit() and len(raw) < 6:
        return max(1, min(MAX_BOARDS, int(raw)))
    return DEFAULT_TEAM_SIZE


def team_criteria(state: TournamentState) -> tuple[str, ...]:
    """The six team placement criteria in order (NULL where empty, an unknown name as NULL)."""
    settings = state.settings
    raw: Sequence[str] = DEFAULT_TEAM_CRITERIA
    if settings is not None:
        option = settings.system_options.get("team_criteria")
        if isinstance(option, str) and option.strip():
            raw = option.split(",")
        elif isinstance(option, (list, tuple)) and option:
            raw = [str(c) for c in option]
        elif settings.extras.get(_TEAM_CRITERIA_KEY):
            raw = settings.extras[_TEAM_CRITERIA_KEY].split(",")
    names = [c.strip().upper() if c.strip().upper() in TEAM_CRITERIA else "NULL" for c in raw][:6]
    return tuple(names + ["NULL"] * (6 - len(names)))


def java_string_hash(text: str) -> int:
    """``String.hashCode()``: Σ c·31^(n−1−i) over the UTF-16 code units, as a signed 32-bit int."""
    h = 0
    raw = text.encode("utf-16-le")
    for i in range(0, len(raw), 2):
        h = (31 * h + (raw[i] | raw[i + 1] << 8)) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def hashmap_order(keys: Sequence[str]) -> list[str]:
    """The iteration order of a fresh ``HashMap<String, …>`` after putting ``keys`` in order:
    by bucket (``(h ^ h >>> 16) & (capacity − 1)``, capacity 16 doubled past ¾ full), then
    insertion order inside a bucket."""
    capacity = 16
    while len(keys) > capacity * 3 // 4:
        capacity *= 2

    def bucket(key: str) -> int:
        h = java_string_hash(key) & 0xFFFFFFFF
        return (h ^ (h >> 16)) & (capacity - 1)

    indexed = sorted(enumerate(keys), key=lambda item: (bucket(item[1]), item[0]))
    return [key for _, key in indexed]


class Roster(msgspec.Struct, frozen=True, kw_only=True):
    """Every team as OpenGotha numbers, names and orders it (see the module docstring)."""

    ids: tuple[str, ...]
    """Team ids in registration order."""
    number: dict[str, int]
    """Team id → OpenGotha's shown number (internal + 1)."""
    name: dict[str, str]
    """Team id → OpenGotha's name (duplicates renamed ``_2`` …)."""
    map_order: tuple[str, ...]
    """Team ids in ``HashMap<String, Team>`` iteration order."""
    size: int

    def members(self, state: TournamentState, team_id: str, round_: int) -> dict[int, str]:
        """Board → player id of round ``round_`` (boards 1 … 10; players still registered)."""
        team = state.teams[team_id]
        return {b: p for b, p in team.member_slots(round_).items() if 1 <= b <= MAX_BOARDS and p in state.players}

    def team_of(self, state: TournamentState, player_id: str, round_: int,
                slots: dict[str, dict[int, str]] | None = None) -> str | None:
        """The team ``player_id`` plays for in ``round_``: the first team in map order that
        has him on any board (``Tournament.getTeamOfPlayer``)."""
        for tid in self.map_order:
            members = slots[tid] if slots is not None else self.members(state, tid, round_)
            if player_id in members.values():
                return tid
        return None


def roster(state: TournamentState) -> Roster:
    """The tournament's teams as OpenGotha holds them."""
    teams: list[TeamState] = list(state.teams.values())
    taken: set[int] = set()
    number: dict[str, int] = {}
    for team in teams:
        internal = (team.number or 0) - 1
        if internal <= 0 or internal in taken:
            internal = 0
            while internal in taken:
                internal += 1
        taken.add(internal)
        number[team.id] = internal + 1
    names: dict[str, str] = {}
    used: set[str] = set()
    for team in teams:
        name = team.name
        k = 2
        while name in used:
            name = f"{team.name}_{k}"
            k += 1
        used.add(name)
        names[team.id] = name
    by_name = {names[t.id]: t.id for t in teams}
    order = tuple(by_name[n] for n in hashmap_order([names[t.id] for t in teams]))
    return Roster(ids=tuple(t.id for t in teams), number=number, name=names, map_order=order,
                  size=team_size(state))
