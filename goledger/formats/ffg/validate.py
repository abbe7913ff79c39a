"""A ``.tou`` file checked before it is sent to the FFG: every problem with its line.

Errors (the file cannot be read as the tournament it claims to be): a line that is neither
a comment nor a player line; a line with fewer round cells than the others; a printed place
that is not the line's number (places count lines; a tie leaves the place blank); a cell
naming a line that does not exist or the player himself; a game whose two cells disagree
(the opponent's cell does not name this line back, the results do not mirror, both have the
same colour, the handicaps differ). Warnings: a missing ``;name=``, ``;date=`` (dd/mm/yyyy)
or ``;komi=`` line; a player without an FFG licence; a name longer than its 25 columns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from goledger.formats.ffg.syntax import TouFile, decode_tou, parse_tou

__all__ = ["TouProblem", "TouValidation", "validate_tou"]

_MIRROR = {"+": "-", "-": "+", "=": "=", "?": "?"}


@dataclass(frozen=True)
class TouProblem:
    """One problem: ``severity`` (``error`` or ``warning``), the line and the sentence."""

    severity: str
    line: int
    message: str


@dataclass
class TouValidation:
    """Every problem of a file; ``ok`` when none is an error."""

    source: str
    players: int = 0
    rounds: int = 0
    problems: list[TouProblem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)

    def add(self, severity: str, line: int, message: str) -> None:
        self.problems.append(TouProblem(severity, line, message))

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "ok": self.ok, "players": self.players, "rounds": self.rounds,
                "problems": [{"severity": p.severity, "line": p.line, "message": p.message} for p in self.problems]}

    def render(self) -> str:
        errors = sum(1 for p in self.problems if p.severity == "error")
        head = (f"{self.source}: {self.players} players, {self.rounds} rounds: {errors} error(s), "
                f"{len(self.problems) - errors} warning(s)")
        return "\n".join([head, *(f"  line {p.line}: {p.severity}: {p.message}" for p in self.problems)])


def validate_tou(data: bytes, source: str = "") -> TouValidation:
    """Check the bytes of a ``.tou`` file (the module's rules); a file without any player
    line is refused by :func:`~goledger.formats.ffg.syntax.parse_tou`."""
    text, encoding = decode_tou(data)
    tou = parse_tou(text, source, encoding)
    result = TouValidation(source, len(tou.table.players), tou.table.rounds)
    _header(tou, result)
    _lines(tou, result)
    _games(tou, result)
    result.problems.sort(key=lambda p: (p.line, p.severity))
    return result


def _header(tou: TouFile, result: TouValidation) -> None:
    for key, what in (("name", "the tournament's short name"), ("date", "the first day"), ("komi", "the komi")):
        if key not in tou.header:
            result.add("warning", 1, f"no ;{key}= line ({what}): add it")
    date = tou.header.get("date")
    if date is not None and not re.fullmatch(r"\d{2}/\d{2}/\d{4}", date):
        result.add("warning", tou.header_lines["date"], f";date={date} is not dd/mm/yyyy: write the first day so")


def _lines(tou: TouFile, result: TouValidation) -> None:
    for number, text in tou.table.junk:
        result.add("error", number, f"{text.strip()[:40]!r} is neither a comment nor a player line")
    for p in tou.table.players:
        if p.short:
            result.add("error", p.line, f"{len(p.cells)} round cells where the file has {tou.table.rounds}: add the "
                                        "missing rounds (0- for a round without a game)")
        if p.place_text and int(p.place_text) != p.row:
            result.add("error", p.line, f"place {p.place_text} on line {p.row} of the players: places count lines "
                                        f"(write {p.row}, or leave it blank for a tie with the line above)")
        if p.row == 1 and not p.place_text:
            result.add("error", p.line, "the first line has no place: write 1")
        if p.row not in tou.licences:
            result.add("warning", p.line, f"{p.name} has no FFG licence: the FFG cannot rate him without one")
        if len(p.name) > 25:
            result.add("warning", p.line, f"the name {p.name!r} is longer than its 25 columns")


def _games(tou: TouFile, result: TouValidation) -> None:
    players = {p.row: p for p in tou.table.players}
    for p in tou.table.players:
        for round_, cell in enumerate(p.cells, start=1):
            if cell.is_free:
                continue
            q = players.get(cell.opponent)
            if q is None or q is p:
                what = "the player himself" if q is p else f"line {cell.opponent}, which does not exist"
                result.add("error", p.line, f"round {round_}: {cell.text!r} names {what}")
                continue
            if round_ > len(q.cells):
                continue
            back = q.cells[round_ - 1]
            where = f"round {round_}: {cell.text!r} and {back.text!r} on line {q.line}"
            if back.opponent != p.row:
                result.add("error", p.line, f"{where} do not name each other")
            elif _MIRROR[cell.result] != back.result and (cell.result, back.result) not in (("+", "+"), ("-", "-")):
                result.add("error", p.line, f"{where}: the results do not mirror")
            elif cell.colour in ("w", "b") and cell.colour == back.colour:
                result.add("error", p.line, f"{where}: both players have colour {cell.colour!r}")
            elif (cell.handicap or 0) != (back.handicap or 0):
                result.add("error", p.line, f"{where}: the handicaps differ")
