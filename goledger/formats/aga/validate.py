"""An AGA rating report checked before it is sent (docs/formats/aga.md): every problem with its line.

Errors: no ``TOURNEY`` line first; no ``PLAYERS`` or ``GAMES`` section; a player line that
is not ``ID, name, rank`` (the ID a positive number, the name ``Surname, First``, the rank
``5k``/``3d``); an ID listed twice; a game line that is not ``white black W|B handicap
komi``, or names an ID not in ``PLAYERS``, or a player against himself, or a handicap
outside 0..9; a player in two games of one round (``GAMES R``); a line after ``END``.
Warnings: no ``start=``/``finish=`` date (yyyy-mm-dd or m/d/yyyy) or ``rules=``; a
temporary ID (99999 downwards, as OpenGotha and goledger write for a player without one);
a listed player without any game; no ``END``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from goledger.formats.aga.write import TEMPORARY_TOP

__all__ = ["AgaProblem", "AgaValidation", "validate_aga_report"]

_RANK = re.compile(r"^\d{1,2}[kKdDpP]$")
_DATE = re.compile(r"^(\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{4})$")


@dataclass(frozen=True)
class AgaProblem:
    severity: str
    line: int
    message: str


@dataclass
class AgaValidation:
    """Every problem of a report; ``ok`` when none is an error."""

    source: str
    players: int = 0
    games: int = 0
    problems: list[AgaProblem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)

    def add(self, severity: str, line: int, message: str) -> None:
        self.problems.append(AgaProblem(severity, line, message))

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "ok": self.ok, "players": self.players, "games": self.games,
                "problems": [{"severity": p.severity, "line": p.line, "message": p.message} for p in self.problems]}

    def render(self) -> str:
        errors = sum(1 for p in self.problems if p.severity == "error")
        head = (f"{self.source}: {self.players} players, {self.games} games: {errors} error(s), "
                f"{len(self.problems) - errors} warning(s)")
        return "\n".join([head, *(f"  line {p.line}: {p.severity}: {p.message}" for p in self.problems)])


def validate_aga_report(data: bytes, source: str = "") -> AgaValidation:
    """Check the bytes of an AGA report (the module's rules)."""
    result = AgaValidation(source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
        result.add("warning", 1, "the file is not UTF-8: read as Latin-1")
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines or not lines[0][1].upper().startswith("TOURNEY"):
        result.add("error", lines[0][0] if lines else 1, "the report must start with a TOURNEY line naming the event")
    section = "header"
    ids: dict[int, int] = {}
    played: set[int] = set()
    in_round: dict[int, int] = {}
    round_ = 0
    keys: set[str] = set()
    ended = False
    for number, line in lines:
        word = line.split()[0].upper()
        if ended:
            result.add("error", number, "a line after END: remove it")
            continue
        if word == "END":
            ended = True
            continue
        if word == "PLAYERS":
            section = "players"
            continue
        if word == "GAMES":
            section, round_, in_round = "games", round_ + 1, {}
            rest = line.split()[1:]
            if rest and rest[0].isdigit():
                round_ = int(rest[0])
            continue
        if section == "header":
            key, eq, value = line.partition("=")
            if eq:
                keys.add(key.strip().lower())
                if key.strip().lower() in ("start", "finish") and not _DATE.match(value.strip()):
                    result.add("warning", number, f"{key.strip()}={value.strip()} is not a date (yyyy-mm-dd)")
        elif section == "players":
            _player(number, line, ids, result)
        else:
            _game(number, line, ids, played, in_round, round_, result)
    for key in ("start", "finish", "rules"):
        if key not in keys:
            result.add("warning", 1, f"no {key}= line in the TOURNEY header: add it")
    if section == "header":
        result.add("error", lines[-1][0] if lines else 1, "no PLAYERS section")
    if not result.games:
        result.add("error", lines[-1][0] if lines else 1, "no GAMES section with a game")
    for aga_id, number in ids.items():
        if aga_id not in played:
            result.add("warning", number, f"player {aga_id} has no game: leave him out")
    if not ended:
        result.add("warning", lines[-1][0] if lines else 1, "no END line")
    result.problems.sort(key=lambda p: (p.line, p.severity))
    return result


def _player(number: int, line: str, ids: dict[int, int], result: AgaValidation) -> None:
    fields = [f.strip() for f in re.split(r"\t+", line)]
    if len(fields) != 3:
        match = re.fullmatch(r"(\d+)\s+(.+?)\s+(\d{1,2}[kKdDpP])", line)
        fields = list(match.groups()) if match else fields
    if len(fields) != 3 or not fields[0].isdigit():
        result.add("error", number, f"{line[:40]!r} is not a player line 'ID<TAB>Surname, First<TAB>rank'")
        return
    aga_id = int(fields[0])
    result.players += 1
    if aga_id in ids:
        result.add("error", number, f"ID {aga_id} is listed twice (first on line {ids[aga_id]})")
    ids.setdefault(aga_id, number)
    if "," not in fields[1]:
        result.add("error", number, f"the name {fields[1]!r} is not 'Surname, First'")
    if not _RANK.match(fields[2]):
        result.add("error", number, f"the rank {fields[2]!r} is not a rank such as 5k or 3d")
    if aga_id > TEMPORARY_TOP - 1000:
        result.add("warning", number, f"ID {aga_id} is a temporary ID: give the player's AGA membership ID")


def _game(number: int, line: str, ids: dict[int, int], played: set[int], in_round: dict[int, int], round_: int,
          result: AgaValidation) -> None:
    fields = line.split()
    if len(fields) != 5 or not (fields[0].isdigit() and fields[1].isdigit() and fields[3].isdigit()) \
            or fields[2].upper() not in ("W", "B") or not re.fullmatch(r"-?\d+", fields[4]):
        result.add("error", number, f"{line[:40]!r} is not a game line 'white black W|B handicap komi'")
        return
    result.games += 1
    white, black, handicap = int(fields[0]), int(fields[1]), int(fields[3])
    for who in (white, black):
        if who not in ids:
            result.add("error", number, f"ID {who} is not in PLAYERS")
        if who in in_round:
            result.add("error", number, f"ID {who} plays twice in round {round_} (also on line {in_round[who]})")
        in_round.setdefault(who, number)
        played.add(who)
    if white == black:
        result.add("error", number, f"ID {white} plays himself")
    if not 0 <= handicap <= 9:
        result.add("error", number, f"handicap {handicap} is outside 0..9")
