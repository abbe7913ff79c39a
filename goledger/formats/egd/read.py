"""EGD result table → ledger events, with the tolerant reading rules of spec ``formats/egd.md``.

:func:`read_egd` turns the bytes of a ``.h9`` file into the events of a new ledger and an
:class:`~goledger.formats.report.InterchangeReport`. What it does with each part:

* **Tournament** (§2): ``EV`` → name, ``PC`` → location (and ``extras["egd.country"]``),
  ``DT`` → dates, ``KM`` → komi, ``HA[hN]`` → handicap correction N (``h9`` → even games),
  ``CL[D]`` → internet. ``CL``, ``TM``/``TA``, ``CM`` and ``TC`` are kept verbatim in
  ``extras`` (``egd.CL``…): the file holds the *adjusted* time, not the time settings, so
  they cannot be rebuilt; the EGD writer reuses the kept values. The number of rounds is
  the number of round columns. The system and criteria are read from the column-header
  comment when there is one (OpenGotha's 5-character names, pairgoth's names).
* **Players** (§3.1, §3.3): one per line, ids ``p0001``… in line order, ``start_number`` =
  line ordinal. ``_`` in names becomes a space; with more than two name tokens the last one
  is the first name (OpenGotha's reading). A rank without ``k``/``d`` is kyu. The
  placeholders ``XX`` (country) and ``xxxx`` (club) become empty. The printed place and
  tie-break columns are kept in ``extras`` (``egd.place``, ``egd.columns``).
* **Games** (§3.2, §3.3): both halves of every game are matched. Opponent numbers are
  printed places when these are complete and unique, else line ordinals. Results: ``+``/``-``
  a win, ``=``/``=`` jigo, ``+``/``+`` both win, ``-``/``-`` both lose, ``?`` unknown.
  ``!`` anywhere in a cell makes the result by default (a forfeit). A colour ``?`` or a
  short cell (``12+``) gives a game whose colour is unknown. Tables are numbered per round
  in the order of the higher line of each game. A half whose opponent's cell does not
  name the player back is a *warning* when the opponent's cell is a free round (the game
  is kept) and an *error* when it names a third player (the half is dropped).
* **Free rounds** (§3.2, §4): a file cannot tell a bye from an absence. ``0+`` is recorded
  as the round's bye worth 1 (as absences worth 1 when several players have ``0+`` in the
  round), ``0=`` as an absence worth ½, ``0-`` as an absence worth 0 — explicit values, so
  every policy scores them as the file says. ``0-`` in a round without any game (a future
  round) records nothing.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass
from datetime import date
from pathlib import PurePath
from typing import NamedTuple

from goledger.errors import CommandRejected, FormatError
from goledger.formats.carried import apply_carried, parse_carried
from goledger.formats.countries import UNKNOWN_COUNTRY, is_country_code
from goledger.formats.egd.syntax import RANK_RE, Cell, EgdTable, PlayerLine, decode_egd, parse_table
from goledger.formats.places import stated_places
from goledger.formats.report import InterchangeReport
from goledger.ledger import events as ev
from goledger.ledger.values import Rank, RankError, Result
from goledger.replay.scoring.criteria import get_criterion
from goledger.replay.scoring.criteria.names import EGD_HEADER_NAMES

__all__ = ["ReadResult", "TableReader", "read_egd", "read_egd_table"]

_SYSTEM_BY_MAIN = {"MMS": "mcmahon", "NBW": "swiss", "CAT": "swisscat", "CPS": "cup"}


@dataclass
class _Half:
    round: int
    player: PlayerLine
    opponent: PlayerLine
    cell: Cell


class ReadResult(NamedTuple):
    """The events of the new ledger and the import report (unpacks as a pair)."""

    events: list[ev.Event]
    report: InterchangeReport

    @property
    def places(self) -> dict[str, int]:
        """Player id → the place of the table's place column (the import compares it with goledger's)."""

        return stated_places(self.events)


def read_egd(data: bytes, source: str = "") -> ReadResult:
    """Read an EGD file's bytes into ledger events and an import report.

    Raises :class:`~goledger.errors.FormatError` when the bytes hold no EGD table at all.
    """
    text, encoding, _bom = decode_egd(data)
    table = parse_table(text, source, encoding)
    events, report = read_egd_table(table)
    name = PurePath(source).name if source else ""
    provenance = ev.SourceImported(
        format="egd", filename=name, sha256=hashlib.sha256(data).hexdigest(),
        summary={k: c["recorded"] for k, c in report.counts.items()},
    )
    return ReadResult([events[0], provenance, *events[1:]], report)


def read_egd_table(table: EgdTable) -> tuple[list[ev.Event], InterchangeReport]:
    """Events (starting with ``TournamentCreated``) and the report for a tokenised table."""
    if not table.players:
        raise FormatError(f"{table.source or 'the file'} holds no EGD player line (is it an EGD result table?)")
    if table.rounds == 0:
        raise FormatError(f"{table.source or 'the file'}: no round cell found at the end of the player lines")
    return _Reader(table).read()


class _Reader:
    def __init__(self, table: EgdTable) -> None:
        self.table = table
        dialect = table.generator or ("EGD-stored" if table.tag("TC") else "unknown generator")
        self.report = InterchangeReport(format="egd", source=table.source, dialect=f"{dialect}, {table.encoding}")
        self.ids = {p.row: f"p{p.row:04d}" for p in table.players}
        self.consumed: set[tuple[int, int]] = set()  # (round, row) cells used by a one-sided game

    def read(self) -> tuple[list[ev.Event], InterchangeReport]:
        for number, text in self.table.junk:
            self.report.warning("skipped", f"line {text.strip()[:40]!r} is neither a comment nor a player line",
                                f"line {number}")
        settings = self._settings()
        players = [self._player(p) for p in self.table.players]
        games = self._games()
        game_events = self._game_events(games)
        free_events = self._free_rounds(games)
        self._lost_information()
        events: list[ev.Event] = [ev.TournamentCreated(settings=settings), *players, *game_events, *free_events]
        self._carried(events)
        return events, self.report

    def _carried(self, events: list[ev.Event]) -> None:
        """The rules goledger wrote in a comment line replace those guessed from the column
        header (:mod:`goledger.formats.carried`)."""

        lines = [(n, text.lstrip(";").strip()) for n, text in self.table.comments]
        found = [n for n, text in lines if text.startswith("goledger ")]
        if found:
            where = f"line {found[0]}"
            apply_carried(events, parse_carried((text for _, text in lines), self.report, where), self.report, where)

    # ------------------------------------------------------------------ tournament

    def _settings(self) -> ev.TournamentSettings:
        table, report = self.table, self.report
        extras: dict[str, str] = {}
        for tag in table.tags:
            key = f"egd.{tag.name}"
            extras[key] = f"{extras[key]} | {tag.value}" if key in extras else tag.value
        if table.generator:
            extras["egd.generator"] = table.generator
        for name in ("CL", "TM", "CM"):
            extras.setdefault(f"egd.{name}", "")
        if not extras["egd.TM"] and extras.get("egd.TA"):
            extras["egd.TM"] = extras["egd.TA"]
            report.info("normalised", f"TA[{extras['egd.TA']}] (OpenGotha 3.45.0x) read as the adjusted time TM")
        ev_tag = table.tag("EV")
        name = ev_tag.value.strip() if ev_tag and ev_tag.value.strip() else PurePath(table.source).stem or "EGD import"
        if not (ev_tag and ev_tag.value.strip()):
            report.warning("missing", f"no EV[] tag: the tournament is named {name!r}")
        location = self._location(extras)
        begin, end = self._dates()
        komi = "7.5"
        km = table.tag("KM")
        if km and re.fullmatch(r"-?\d+(\.[05]0*)?", km.value.strip()):
            komi = km.value.strip()
        elif km:
            report.warning("unmapped", f"KM[{km.value}] is not a komi; the default 7.5 is used", f"line {km.line}")
        handicap = ev.HandicapSettings()
        ha = table.tag("HA")
        if ha and re.fullmatch(r"h[0-9]", ha.value.strip()):
            n = int(ha.value.strip()[1])
            handicap = ev.HandicapSettings(ceiling=0) if n == 9 else ev.HandicapSettings(correction=n)
        elif ha:
            report.warning("unmapped", f"HA[{ha.value}] is not h0…h9; ignored", f"line {ha.line}")
        cl = table.tag("CL")
        system, criteria = self._system_and_criteria()
        report.info("not-in-format", "time settings are not in EGD files (only the adjusted time TM and class CL): "
                                     "the ledger keeps CL, TM and CM as they were written")
        return ev.TournamentSettings(
            name=name, location=location, begin_date=begin, end_date=end, rounds=table.rounds,
            system=system,  # type: ignore[arg-type]
            komi=komi, handicap=handicap, internet=bool(cl and cl.value.strip() == "D"),
            criteria=criteria, extras=extras,
        )

    def _location(self, extras: dict[str, str]) -> str:
        pc = self.table.tag("PC")
        if pc is None:
            return ""
        country, comma, city = pc.value.partition(",")
        if not comma:
            return pc.value.strip()
        if is_country_code(country.strip()):
            extras["egd.country"] = country.strip().upper()
        elif country.strip():
            self.report.warning("unmapped", f"PC[{pc.value}]: {country.strip()!r} is not a country code",
                                f"line {pc.line}")
        return city.strip()

    def _dates(self) -> tuple[str, str]:
        dt = self.table.tag("DT")
        if dt is None:
            return "", ""
        parts = [p.strip() for p in dt.value.split(",")]
        try:
            days = [date.fromisoformat(p).isoformat() for p in parts if p]
        except ValueError:
            days = []
        if not days or len(days) > 2:
            self.report.warning("unmapped", f"DT[{dt.value}] holds no dates yyyy-mm-dd; ignored", f"line {dt.line}")
            return "", ""
        begin, end = days[0], days[-1]
        if end < begin:
            self.report.warning("inconsistency", f"DT[{dt.value}]: the last day is before the first (kept as written)",
                                f"line {dt.line}")
        return begin, end

    def _system_and_criteria(self) -> tuple[str, tuple[str, ...]]:
        header = self.table.column_header
        names = _header_criteria(header[1]) if header else []
        if not names:
            self.report.info("not-in-format", "no column-header comment: the tournament system and placement "
                                              "criteria are unknown; recorded as Swiss with the policy's criteria")
            return "swiss", ()
        main = names[0] if names[0] in _SYSTEM_BY_MAIN else next((n for n in names if n in ("MMS", "NBW")), "NBW")
        family = "M" if "MMS" in names else "W"
        criteria = tuple(n.replace("*", family) for n in names if n)
        if not criteria:
            return "swiss", ()
        system = _SYSTEM_BY_MAIN.get(main, "swiss")
        self.report.info("normalised", f"system {system} and criteria {', '.join(criteria)} read from the column "
                                       f"header", f"line {header[0]}" if header else "")
        return system, criteria

    # ------------------------------------------------------------------ players

    def _player(self, p: PlayerLine) -> ev.PlayerRegistered:
        report, where = self.report, f"line {p.line}"
        report.count_read("players")
        tokens = [t.replace("_", " ").strip() for t in p.name_tokens]
        if len(tokens) == 1:
            surname, first = tokens[0], ""
            report.warning("normalised", f"{p.name!r} has a single name token: recorded as a surname", where)
        else:
            surname, first = " ".join(tokens[:-1]), tokens[-1]
            if len(tokens) > 2:
                report.warning("normalised", f"{p.name!r} has {len(tokens)} name tokens: surname {surname!r}, "
                                             f"first name {first!r}", where)
        if "?" in p.name:
            report.warning("lost", f"name {p.name!r} contains '?': characters were lost when the file was written",
                           where)
        if self.table.generator.startswith("OpenGotha") and len(p.name) >= 30:
            report.warning("lost", f"name {p.name!r} fills OpenGotha's 30-character column: it may be cut", where)
        rank = self._rank(p)
        country = ""
        if p.country is not None and p.country.upper() != UNKNOWN_COUNTRY:
            country = p.country.upper()
            if not is_country_code(country):
                report.warning("inconsistency", f"country {p.country!r} is not a country code (kept)", where)
        elif p.country is None:
            report.warning("missing", "no country token on this line", where)
        club = p.club or ""
        if club.lower() == "xxxx":
            club = ""
        if p.club is None:
            report.warning("missing", "no club token on this line", where)
        pin = ""
        if p.pin:
            if re.fullmatch(r"\d{8}", p.pin):
                pin = p.pin
            else:
                report.warning("unmapped", f"'|{p.pin}' is not an 8-digit EGD PIN; not recorded", where)
        extras = {"egd.place": p.place_text}
        if p.columns:
            extras["egd.columns"] = " ".join(p.columns)
        report.count_recorded("players")
        return ev.PlayerRegistered(
            player_id=self.ids[p.row], surname=surname, first_name=first, rank=rank, grade=p.rank_text,
            country=country, club=club, egd_pin=pin, start_number=p.row, extras=extras,
        )

    def _rank(self, p: PlayerLine) -> str:
        where = f"line {p.line}"
        text = p.rank_text
        if RANK_RE.match(text) is None:
            text += "k"
            self.report.warning("normalised", f"rank {p.rank_text!r} without k or d read as {text}", where)
        try:
            return str(Rank.parse(text))
        except RankError:
            self.report.error("unmapped", f"rank {p.rank_text!r} is not a rank; the player is recorded as 30k", where)
            return "30k"

    # ------------------------------------------------------------------ games

    def _halves(self) -> dict[tuple[int, int], _Half]:
        index = self.table.opponent_index()
        halves: dict[tuple[int, int], _Half] = {}
        for p in self.table.players:
            if p.short:
                self.report.warning(
                    "inconsistency",
                    f"the line has {len(p.cells)} round cells instead of {self.table.rounds}: its cells are not "
                    f"used; its games are read from its opponents' lines", f"line {p.line}")
                continue
            for round_, cell in enumerate(p.cells, start=1):
                if cell.is_free:
                    continue
                q = index.get(cell.opponent)
                if q is None or q is p:
                    what = "the player himself" if q is p else f"opponent {cell.opponent}, who is not in the table"
                    self.report.error("unmapped", f"round {round_}: {cell.text!r} names {what}; ignored",
                                      f"line {p.line}")
                    continue
                halves[(round_, p.row)] = _Half(round_, p, q, cell)
        return halves

    def _games(self) -> list[tuple[_Half, _Half | None]]:
        halves = self._halves()
        games: list[tuple[_Half, _Half | None]] = []
        occupied: set[tuple[int, int]] = set()
        for key in sorted(halves, key=lambda k: (k[0], k[1])):
            if key in occupied:
                continue
            half = halves[key]
            round_, p, q = half.round, half.player, half.opponent
            back = halves.get((round_, q.row))
            where = f"line {p.line}"
            if back is not None and back.opponent is p:
                if (round_, q.row) in occupied:
                    continue
                games.append((half, back))
                occupied.update({(round_, p.row), (round_, q.row)})
                continue
            if back is None and (round_, q.row) not in occupied:
                other = q.cells[round_ - 1].text if not q.short else "(line not used)"
                self.report.warning(
                    "inconsistency",
                    f"round {round_}: {half.cell.text!r} names {q.name} (line {q.line}), whose cell {other!r} does "
                    f"not name this player; the game is recorded from this half", where)
                games.append((half, None))
                occupied.update({(round_, p.row), (round_, q.row)})
                if not q.short:
                    self.consumed.add((round_, q.row))
                continue
            self.report.error(
                "inconsistency",
                f"round {round_}: {half.cell.text!r} names {q.name} (line {q.line}), who played someone else in "
                f"that round; this half is ignored", where)
        return games

    def _game_events(self, games: list[tuple[_Half, _Half | None]]) -> list[ev.Event]:
        events: list[ev.Event] = []
        tables: Counter[int] = Counter()
        unknown_colour = no_colour = 0
        for half, back in sorted(games, key=lambda g: (g[0].round, min(g[0].player.row, g[0].opponent.row))):
            self.report.count_read("games")
            round_ = half.round
            tables[round_] += 1
            table = tables[round_]
            white, black, colour_known = self._colours(half, back)
            if not colour_known:
                if "?" in (half.cell.colour, back.cell.colour if back else None):
                    unknown_colour += 1
                else:
                    no_colour += 1
            handicap = self._handicap(half, back)
            result, by_default = self._result(half, back, white)
            events.append(ev.GamePaired(round=round_, table=table, white=self.ids[white.row],
                                        black=self.ids[black.row], handicap=handicap, color_known=colour_known))
            if result is not Result.UNKNOWN or by_default:
                events.append(ev.ResultRecorded(round=round_, table=table, result=result, by_default=by_default))
            self.report.count_recorded("games")
        if unknown_colour:
            self.report.warning("lost", f"{unknown_colour} game(s) have colour '?': recorded with colour unknown")
        if no_colour:
            self.report.warning("lost", f"{no_colour} game(s) are written without colour or handicap (short "
                                        f"format): recorded as even games with colour unknown")
        return events

    def _colours(self, half: _Half, back: _Half | None) -> tuple[PlayerLine, PlayerLine, bool]:
        p, q = half.player, half.opponent
        mine = half.cell.colour
        theirs = back.cell.colour if back else None
        if mine in ("w", "b") and theirs in ("w", "b") and mine == theirs:
            self.report.warning("inconsistency", f"round {half.round}: both {p.name} and {q.name} have colour "
                                                 f"{mine!r}; this line's colour is used", f"line {p.line}")
        if mine in ("w", "b"):
            return (p, q, True) if mine == "w" else (q, p, True)
        if theirs in ("w", "b"):
            return (q, p, True) if theirs == "w" else (p, q, True)
        return p, q, False

    def _handicap(self, half: _Half, back: _Half | None) -> int:
        mine = half.cell.handicap or 0
        if back is not None and (back.cell.handicap or 0) != mine:
            self.report.warning("inconsistency", f"round {half.round}: handicaps {half.cell.text!r} and "
                                                 f"{back.cell.text!r} differ; {mine} is used",
                                f"line {half.player.line}")
        return mine

    def _result(self, half: _Half, back: _Half | None, white: PlayerLine) -> tuple[Result, bool]:
        mine = half.cell.result
        theirs = back.cell.result if back else None
        forfeit = half.cell.forfeit or (back is not None and back.cell.forfeit)
        if back is not None and half.cell.forfeit != back.cell.forfeit:
            self.report.warning("inconsistency", f"round {half.round}: only one of {half.cell.text!r} and "
                                                 f"{back.cell.text!r} is marked '!'; the game is recorded by default",
                                f"line {half.player.line}")
        pair = mine + (theirs or "")
        if pair == "++":
            return Result.BOTH_WIN, forfeit
        if pair == "--":
            return Result.BOTH_LOSE, forfeit
        if back is not None and pair not in ("+-", "-+", "==", "??"):
            used = "this line's"
            if mine == "?":
                mine, used = {"+": "-", "-": "+"}.get(back.cell.result, back.cell.result), "the other line's"
            self.report.warning("inconsistency", f"round {half.round}: results {half.cell.text!r} and "
                                                 f"{back.cell.text!r} do not match; {used} is used",
                                f"line {half.player.line}")
        if mine == "=":
            return Result.JIGO, forfeit
        if mine == "?":
            return Result.UNKNOWN, forfeit
        p_wins = mine == "+"
        return (Result.WHITE if (half.player is white) == p_wins else Result.BLACK), forfeit

    # ------------------------------------------------------------------ free rounds

    def _free_rounds(self, games: list[tuple[_Half, _Half | None]]) -> list[ev.Event]:
        table = self.table
        rounds_with_games = {half.round for half, _ in games}
        wins_by_round = Counter(
            r for p in table.players if not p.short for r, c in enumerate(p.cells, start=1)
            if c.is_free and c.result == "+" and (r, p.row) not in self.consumed
        )
        events: list[ev.Event] = []
        marked = 0
        for p in table.players:
            if p.short:
                continue
            for round_, cell in enumerate(p.cells, start=1):
                if not cell.is_free or (round_, p.row) in self.consumed:
                    continue
                if cell.forfeit or cell.colour or cell.handicap is not None:
                    marked += 1
                pid = self.ids[p.row]
                if cell.result == "+":
                    if round_ in rounds_with_games and wins_by_round[round_] == 1:
                        events.append(ev.ByeAssigned(round=round_, player_id=pid, points2=2))
                    else:
                        events.append(ev.ParticipationChanged(player_id=pid, round=round_, participating=False,
                                                              points2=2))
                elif cell.result == "=":
                    events.append(ev.ParticipationChanged(player_id=pid, round=round_, participating=False, points2=1))
                elif round_ in rounds_with_games:
                    if cell.result == "?":
                        self.report.warning("normalised", f"round {round_}: free round {cell.text!r} with result '?' "
                                                          f"recorded as worth 0", f"line {p.line}")
                    events.append(ev.ParticipationChanged(player_id=pid, round=round_, participating=False, points2=0))
                else:
                    continue
                self.report.count_read("free rounds")
                self.report.count_recorded("free rounds")
        if marked:
            self.report.info("normalised", f"{marked} free-round cell(s) carry a '!', colour or handicap "
                                           f"(e.g. '0+!b'); these marks are ignored")
        return events

    # ------------------------------------------------------------------ what the format lost

    def _lost_information(self) -> None:
        report, table = self.report, self.table
        cells = [c for p in table.players if not p.short for c in p.cells]
        if any(c.is_free and c.result in "+=" for c in cells):
            report.info("lost", "an EGD table does not tell a bye from an absence: 0+ is recorded as a bye worth 1 "
                                "(absences worth 1 when several in a round), 0= as an absence worth ½, 0- as an "
                                "absence worth 0")
        if table.generator.startswith("OpenGotha"):
            report.info("lost", "OpenGotha lists only players who played or had a bye; other registered players "
                                "are not in the file")
            if not any(c.forfeit for c in cells) and any(c.is_free and c.result == "=" for c in cells):
                report.info("lost", "OpenGotha writes forfeits as 0= when asked not to keep by-default results: "
                                    "some 0= free rounds may stand for forfeited games")
        if any(c.forfeit for c in cells):
            report.info("normalised", "cells marked '!' are recorded as results by default (forfeits)")
        report.info("not-in-format", "printed places and tie-break columns are kept in player extras "
                                     "(egd.place, egd.columns); the ledger recomputes standings")


TableReader = _Reader
"""The reading rules of a tokenised table, for a format whose lines are an EGD table's
(:mod:`goledger.formats.ffg.read` reads a ``.tou`` with them)."""


def _header_criteria(text: str) -> list[str]:
    """Criterion names from a column-header comment, ``*`` standing for W/M (the registry's ``EGD_HEADER_NAMES``).

    Names separated by blanks are tried first (pairgoth, goledger), then OpenGotha's glued
    5-character fields (``MMS  SOSSOSOS``). Round labels (``R1``…) end the list.

    >>> _header_criteria("; Pl Name    Rk Co Club  MMS  SOSSOSOS")
    ['MMS', 'SOS*', 'SOSOS*']
    >>> _header_criteria("; Pl Name    Rk Co Club NBW SOSW   R1   R2")
    ['NBW', 'SOSW']
    """
    match = re.search(r"\bClub\b", text)
    if match is None:
        return []
    rest = re.split(r"\s+R1\b", text[match.end():])[0].rstrip()
    names = [_criterion_name(token) for token in rest.split()]
    if rest.strip() and all(names):
        return [n for n in names if n is not None]
    if rest and len(rest) % 5 == 0:
        names = [_criterion_name(rest[i : i + 5].strip()) for i in range(0, len(rest), 5)]
        if all(names):
            return [n for n in names if n is not None]
    return []


def _criterion_name(token: str) -> str | None:
    """The criterion a header token names (``""`` for a column to skip), or ``None``."""
    mapped = EGD_HEADER_NAMES.get(token.upper())
    if mapped is not None:
        return mapped

    try:
        return get_criterion(token).name
    except CommandRejected:
        return None
