"""FFG ``.tou`` → ledger events (docs/formats/ffg-tou.md).

:func:`read_tou` tokenises the file (:mod:`goledger.formats.ffg.syntax`) and reads its player
lines with the EGD table's rules (:class:`~goledger.formats.egd.read.TableReader`: games from
both halves, colours, handicaps, free rounds ``0+``/``0=``/``0-``). What differs:

* **Tournament**: ``;comm=`` → name (``;name=`` when there is no ``comm``), ``;name=`` →
  short name, ``;vill=`` → location, ``;date=dd/mm/yyyy`` → first day, ``;komi=``,
  ``;size=`` → board size. ``;time=``/``;ta=`` are kept in ``extras`` (``ffg.time``,
  ``ffg.ta``): they do not say the overtime system, so the ledger's time settings stay
  unknown. The file names no system and no criteria.
* **Places**: the lines are the final standings and the place column says them (blank:
  tied with the line above). Each player keeps his place in ``extras["file.place"]`` and the
  tournament is recorded with the one criterion ``FilePlace``, so the ledger's standings are
  the file's places, exactly, whatever criteria produced them (``change-rules criteria=…``
  recomputes them under other criteria).
* **Players**: the FFG licence goes to ``ids["ffg_licence"]``; the file has no country
  (players are recorded without one).
"""

from __future__ import annotations

import hashlib
import re
from datetime import date
from pathlib import PurePath
from typing import TYPE_CHECKING

import msgspec

from goledger.errors import FormatError
from goledger.formats.egd.read import ReadResult, TableReader
from goledger.formats.ffg.syntax import TouFile, decode_tou, parse_tou
from goledger.formats.report import InterchangeReport
from goledger.ledger import events as ev
from goledger.replay.scoring.criteria.go import FILE_PLACE_KEY

if TYPE_CHECKING:
    from goledger.formats.egd.syntax import PlayerLine

__all__ = ["read_tou", "read_tou_file"]


def read_tou(data: bytes, source: str = "") -> ReadResult:
    """Read a ``.tou`` file's bytes into ledger events and an import report; a
    :class:`~goledger.errors.FormatError` when the bytes hold no player line."""
    text, encoding = decode_tou(data)
    events, report = read_tou_file(parse_tou(text, source, encoding))
    provenance = ev.SourceImported(
        format="ffg", filename=PurePath(source).name if source else "", sha256=hashlib.sha256(data).hexdigest(),
        summary={k: c["recorded"] for k, c in report.counts.items()},
    )
    return ReadResult([events[0], provenance, *events[1:]], report)


def read_tou_file(tou: TouFile) -> tuple[list[ev.Event], InterchangeReport]:
    """Events (starting with ``TournamentCreated``) and the report for a tokenised file."""

    if tou.table.rounds == 0:
        raise FormatError(f"{tou.table.source or 'the file'}: its player lines hold no round cell")
    return _TouReader(tou).read()


class _TouReader(TableReader):
    def __init__(self, tou: TouFile) -> None:
        super().__init__(tou.table)
        self.tou = tou
        self.report = InterchangeReport(format="ffg", source=tou.table.source,
                                        dialect=f"{tou.table.generator or 'unknown generator'}, {tou.table.encoding}")

    def _settings(self) -> ev.TournamentSettings:
        header, report, lines = self.tou.header, self.report, self.tou.header_lines
        name = header.get("comm") or header.get("name") or PurePath(self.table.source).stem or "FFG import"
        if not (header.get("comm") or header.get("name")):
            report.warning("missing", f"no ;comm= or ;name= line: the tournament is named {name!r}")
        begin = ""
        if "date" in header:
            match = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", header["date"])
            try:
                begin = date(int(match[3]), int(match[2]), int(match[1])).isoformat() if match else ""
            except ValueError:
                begin = ""
            if not begin:
                report.warning("unmapped", f"date {header['date']!r} is not dd/mm/yyyy; ignored",
                               f"line {lines['date']}")
        komi = "7.5"
        if "komi" in header:
            if re.fullmatch(r"-?\d{1,2}([.,][05]0*)?", header["komi"]):
                komi = header["komi"].replace(",", ".")
            else:
                report.warning("unmapped", f"komi {header['komi']!r} is not a komi; 7.5 is used",
                               f"line {lines['komi']}")
        size = 19
        if "size" in header:
            if header["size"] in ("9", "13", "19"):
                size = int(header["size"])
            else:
                report.warning("unmapped", f"size {header['size']!r} is not 9, 13 or 19; 19 is used",
                               f"line {lines['size']}")
        extras = {f"ffg.{key}": value for key, value in header.items() if key in ("time", "ta", "prog", "name")}
        if self.table.generator:
            extras["ffg.generator"] = self.table.generator
        report.info("not-in-format", "a .tou file gives the basic time and the adjusted time, not the overtime "
                                     "system: the ledger keeps them as written (ffg.time, ffg.ta) and has no "
                                     "time settings")
        report.info("normalised", "the file's lines are its final standings: each player keeps his place "
                                  "(file.place) and the tournament is ordered on FilePlace, so its standings "
                                  "are the file's places")
        return ev.TournamentSettings(
            name=name, short_name=header.get("name", ""), location=header.get("vill", ""), begin_date=begin,
            end_date=begin, rounds=self.table.rounds, system="swiss", komi=komi, board_size=size, time=None,
            criteria=("FilePlace",), extras=extras,
        )

    def _player(self, p: PlayerLine) -> ev.PlayerRegistered:
        event = super()._player(p)
        extras = {key: value for key, value in event.extras.items() if not key.startswith("egd.")}
        if p.place is not None:
            extras[FILE_PLACE_KEY] = str(p.place)
        else:
            self.report.warning("missing", "no place on the first line: the player is not placed", f"line {p.line}")
        licence = self.tou.licences.get(p.row, "")
        return msgspec.structs.replace(event, extras=extras, grade="",
                                       ids={"ffg_licence": licence} if licence else {})

    def _lost_information(self) -> None:
        cells = [c for p in self.table.players if not p.short for c in p.cells]
        if any(c.is_free and c.result in "+=" for c in cells):
            self.report.info("lost", "a .tou file does not tell a bye from an absence: 0+ is recorded as a bye "
                                     "worth 1 (absences worth 1 when several in a round), 0= as an absence worth "
                                     "½, 0- as an absence worth 0")
        self.report.info("lost", "a .tou file has no country, no rating and no forfeit mark (OpenGotha drops '!')")
