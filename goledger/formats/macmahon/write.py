"""Ledger state → a MacMahon 3.10 XML file and an export report (spec ``formats/macmahon.md`` §1, §B).

What the writer guarantees, point by point against spec §B:

* the full element set of a genuine 3.10 file, in writer order (§1.1, §B.1): the tournament
  scalars, ``<Walllist>``, the country table, ``DefaultCountry``/``DefaultNationality``,
  participants, **every** round (even empty), then ``UnwantedPairing``s (§B.16);
* ``typeversion`` on every object element (§B.3); CDATA only for ``Name``, ``Description``,
  ``FirstName``, ``Surname``, ``Comment`` and ``ExportColumnDelimiter``, inline (§B.7);
  empty optional strings omitted, never empty CDATA (§B.6); a value containing ``]]>`` is
  written as escaped text (MacMahon would cut it);
* byes as a ``Pairing`` without ``White``/``Result``… (§B.4); results **Black first**;
* board numbers MacMahon's reader accepts (§B.5): fixed pairings keep their number;
  non-fixed ones must be numbered on from the last fixed one in file order, else they are
  written fixed. Pairings that did not come from MacMahon are written **fixed**, so that
  MacMahon keeps the ledger's table numbers instead of renumbering them;
* a ``<Country>`` entry (with its ``<Club>``s) for every country, nationality and club the
  players use (§B.12), after the table an imported file brought;
* levels in lower case (``3d``, ``10k``), dates ``yyyy-MM-dd HH:mm:ss`` (§B.8), the XML
  declaration of the genuine files, two-space indentation, ``\\n`` line ends (§B.16).

Values MacMahon keeps that the ledger holds elsewhere are derived from the typed fields
through :mod:`goledger.replay.scoring.macmahon_rules` (refinement rule), so an imported file writes
back what it held, and a ledger from another program writes what MacMahon needs.
Everything the ledger holds that MacMahon cannot is listed in the export report.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final
from xml.sax.saxutils import escape

from goledger import __version__
from goledger.errors import CommandRejected
from goledger.formats.carried import carried_lines, export_places, xml_comments
from goledger.formats.countries import country_name
from goledger.formats.exporting import report_players_paired_twice
from goledger.formats.macmahon import layout
from goledger.formats.numbers import is_ascii_number
from goledger.formats.report import InterchangeReport
from goledger.ledger.events import TournamentSettings
from goledger.ledger.values import Result, parse_number
from goledger.outputs import shown
from goledger.replay.scoring.choices import resolve_policy
from goledger.replay.scoring.criteria import get_criterion
from goledger.replay.scoring.criteria.names import MACMAHON_FOR_CRITERION, MACMAHON_INSTEAD
from goledger.replay.scoring.macmahon_rules import (
    PREFIX,
    WALLLIST,
    Level,
    adjustment,
    bool_text,
    effective_bars,
    effective_handicap,
    komi_for_allow_jigo,
    macmahon_ids,
    player_level,
)
from goledger.replay.scoring.rules import rules_for

if TYPE_CHECKING:
    from goledger.replay.fold.state import PlayerState, TournamentState

__all__ = ["DEFAULT_DATE", "FORMAT", "write_macmahon"]

FORMAT: Final = "macmahon"
DEFAULT_DATE: Final = "2000-01-01 00:00:00"
DECLARATION: Final = '<?xml version="1.0" encoding="UTF-8" standalone="no"?>'
_INVALID_XML: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_TOURNAMENT_ROWS: Final = {row[0] for row in (*layout.TOURNAMENT, *layout.TOURNAMENT_TAIL)}
_WRITTEN_SETTINGS: Final = frozenset({"name", "rounds", "mm_bar", "mm_floor", "komi", "board_size", "handicap",
                                      "criteria", "policy", "extras"})
"""``TournamentSettings`` fields a MacMahon file holds (the komi as AllowJigo, criteria as the walllist)."""
_OTHER_SCORING: Final = frozenset({"nbw2_bye", "nbw2_absent", "mms2_bye", "mms2_absent", "round_down",
                                   "not_played_as_half", "mm_zero", "mm_groups", "mm_super_group", "policy_overrides"})
"""Fields that change scores under other policies but have no MacMahon element (export warning)."""
_REPORTED_APART: Final = frozenset({"short_name", "location", "director", "begin_date", "end_date", "system"})
_SPECIAL_EXTRAS: Final = frozenset({"CountryTable"})


class _Xml:
    """A line-per-element XML writer with MacMahon's indentation and CDATA rules."""

    def __init__(self, report: InterchangeReport) -> None:
        self.lines: list[str] = [DECLARATION]
        self.depth = 0
        self.report = report
        self.trimmed: dict[str, int] = {}

    def report_trimmed(self) -> None:
        """One note per element whose values lost surrounding spaces (MacMahon trims them too)."""
        for tag, count in sorted(self.trimmed.items()):
            self.report.info("normalised", f"{count} <{tag}> value(s) written without surrounding spaces, as "
                             "MacMahon stores them (its setters trim)", tag)

    def open(self, tag: str) -> None:
        version = layout.TYPEVERSIONS.get(tag)
        attr = f' typeversion="{version}"' if version is not None else ""
        self.lines.append(f"{'  ' * self.depth}<{tag}{attr}>")
        self.depth += 1

    def close(self, tag: str) -> None:
        self.depth -= 1
        self.lines.append(f"{'  ' * self.depth}</{tag}>")

    def leaf(self, tag: str, text: str | None, where: str = "", *, cdata: bool | None = None) -> None:
        """One element with a value; CDATA for MacMahon's CDATA elements unless ``cdata`` says
        otherwise (a country's and a club's ``<Name>`` are plain text, spec §B.7)."""
        pad = "  " * self.depth
        use_cdata = tag in layout.CDATA_ELEMENTS if cdata is None else cdata
        if text is not None and text != text.strip():
            self.trimmed[tag] = self.trimmed.get(tag, 0) + 1
            text = text.strip()
        if text is None or text == "":
            self.lines.append(f"{pad}<{tag}/>")
            return
        clean = _INVALID_XML.sub("", shown(text, keep_lines=True))
        if clean != text:  # an old ledger's control or bidi character (issue 27, §7): shown as its escape
            self.report.warning("normalised", f"control or invisible characters were written as escapes in <{tag}>",
                                where)
        if use_cdata and "]]>" not in clean:
            self.lines.append(f"{pad}<{tag}><![CDATA[{clean}]]></{tag}>")
        else:
            if use_cdata:
                self.report.info("normalised", f"<{tag}> contains ']]>': written as escaped text, which MacMahon "
                                 "reads whole (a CDATA section would be cut there)", where)
            self.lines.append(f"{pad}<{tag}>{escape(clean)}</{tag}>")

    def optional(self, tag: str, text: str | None, where: str = "") -> None:
        """An element written only when it has a value: MacMahon omits empty strings (spec §B.6)."""
        if text and text.strip():
            self.leaf(tag, text, where)

    def bytes(self) -> bytes:
        return ("\n".join(self.lines) + "\n").encode("utf-8")


@dataclass
class _Board:
    number: int | None
    fixed: bool
    game: Any = None
    bye: str | None = None
    extras: dict[str, str] | None = None


class _Writer:
    def __init__(self, state: TournamentState, report: InterchangeReport) -> None:
        assert state.settings is not None
        self.state = state
        self.settings = state.settings
        self.extras = state.settings.extras
        self.report = report
        self.out = _Xml(report)
        self.ids = macmahon_ids(state.players)
        self._values: dict[str, str | None] | None = None

    # ------------------------------------------------------------------ tournament

    def stored(self, tag: str, default: str | None) -> str | None:
        return self.extras.get(PREFIX + tag, default)

    def current_round(self) -> tuple[str, str]:
        """``(CurrentRoundNumber, TakeCurrentRoundInAccount)``: the stored pair while it is
        not behind the ledger, else the last paired round, counted when it is complete."""
        state = self.state
        last = max(state.last_round_with_games(), 1)
        stored = self.extras.get(PREFIX + "CurrentRoundNumber")
        take = self.extras.get(PREFIX + "TakeCurrentRoundInAccount")
        if stored is not None and is_ascii_number(stored) and take is not None and int(stored) >= last \
                and int(stored) <= state.rounds:
            return stored, take
        games = state.games_of_round(last)
        complete = all(g.result is not Result.UNKNOWN for g in games)
        return str(last), bool_text(complete)

    def tournament_values(self) -> dict[str, str | None]:
        if self._values is None:
            self._values = self._tournament_values()
        return self._values

    def _tournament_values(self) -> dict[str, str | None]:
        s = self.settings
        values: dict[str, str | None] = {}
        for tag, _kind, default in layout.TOURNAMENT:
            values[tag] = self.stored(tag, default)
        values["NumberOfRounds"] = str(s.rounds)
        values["CurrentRoundNumber"], values["TakeCurrentRoundInAccount"] = self.current_round()
        values["Name"] = s.name
        upper_on, upper, lower_on, lower = effective_bars(s)
        stored_upper = self.extras.get(PREFIX + "UpperMacMahonBarLevel")
        values["UpperMacMahonBar"], values["UpperMacMahonBarLevel"] = bool_text(upper_on), str(upper)
        values["LowerMacMahonBar"], values["LowerMacMahonBarLevel"] = bool_text(lower_on), str(lower)
        if stored_upper != str(upper) or PREFIX + "UpperMacMahonBarRating" not in self.extras:
            one_dan = int(values["RatingLowestOneDanRating"] or 2050)
            values["UpperMacMahonBarRating"] = str(one_dan + 100 * (upper.absolute - 35))
        values.update(effective_handicap(s))
        allow = self.extras.get(PREFIX + "AllowJigo")
        if allow is None or komi_for_allow_jigo(allow == "true") != s.komi:
            whole = _whole_komi(s.komi)
            values["AllowJigo"] = bool_text(whole)
            if s.komi not in ("7", "7.5"):
                self.report.info("approximated", f"komi {s.komi}: MacMahon stores only whether jigo is allowed "
                                 f"(AllowJigo {bool_text(whole)})", "Tournament")
        board = self.extras.get(PREFIX + "Boardsize")
        size = int(board) if board is not None and is_ascii_number(board, signed=True) else 0
        if board is None or (size if size > 0 else 19) != s.board_size:
            values["Boardsize"] = str(s.board_size)
        values["VersionCreated"] = self.stored("VersionCreated", f"goledger {__version__}")
        values["VersionSaved"] = f"goledger {__version__}"
        return values

    def write_tournament(self) -> None:
        out = self.out
        out.lines.append('<Tournament typeversion="9">')
        out.depth = 1
        values = self.tournament_values()
        for tag, kind, _default in layout.TOURNAMENT:
            value = values[tag]
            if kind == "criterion":
                out.open(tag)
                out.leaf("ShortName", value or "SOS")
                out.close(tag)
            elif kind.endswith("-opt"):
                out.optional(tag, value, "Tournament")
            else:
                out.leaf(tag, value, "Tournament")
        for key, value in self.extras.items():
            tag = key.removeprefix(PREFIX)
            if key.startswith(PREFIX) and "." not in tag and tag not in _TOURNAMENT_ROWS \
                    and tag not in _SPECIAL_EXTRAS:
                out.leaf(tag, value, "Tournament")

    def carried_lines(self) -> list[str]:
        """The rules behind the places and each participant's place, in the order the file
        lists them, as comments after the root (:mod:`goledger.formats.carried`): MacMahon
        computes its own standings, and reading the file back compares with these places."""

        order = sorted(self.state.players, key=lambda k: self.ids[k])
        lines = carried_lines(self.settings, places=export_places(self.state, order), state=self.state, order=order)
        self.out.report.info("carried", "goledger's places and the rules behind them written in comments after "
                             "</Tournament>, which MacMahon skips and goledger reads back")
        return xml_comments(lines).splitlines()

    def write_walllist(self) -> None:
        out = self.out
        out.open("Walllist")
        for tag, _kind, default in layout.WALLLIST:
            out.leaf(tag, self.extras.get(WALLLIST + tag, default), "Walllist")
        for short in self.criteria():
            out.open("SortCriterionDescriptor")
            out.leaf("ShortName", short)
            out.close("SortCriterionDescriptor")
        out.close("Walllist")

    def criteria(self) -> list[str]:
        names = list(rules_for(resolve_policy(self.state, None), self.settings).criteria)
        shorts: list[str] = []
        for name in names:
            try:
                canonical = get_criterion(name).name
            except CommandRejected:  # an unknown criterion name in the ledger
                canonical = name
            short = MACMAHON_FOR_CRITERION.get(canonical)
            if short is None and canonical in MACMAHON_INSTEAD:
                short = MACMAHON_INSTEAD[canonical]
                self.report.info("approximated", f"criterion {canonical} written as MacMahon's {short}, which "
                                 "MacMahon computes by its own rules", "Walllist")
            if short is None:
                self.report.warning("unmapped", f"criterion {canonical} has no MacMahon counterpart; not written",
                                    "Walllist")
                continue
            if short not in shorts:
                shorts.append(short)
        if not shorts:
            shorts = ["ScoreX", "SOS", "SOSOS"]
            self.report.info("default", "no criterion could be written; MacMahon's defaults ScoreX, SOS, SOSOS are "
                             "used", "Walllist")
        return shorts

    # ------------------------------------------------------------------ countries

    def write_countries(self) -> None:
        table: list[dict[str, Any]] = []
        text = self.extras.get(PREFIX + "CountryTable")
        if text:
            try:
                table = json.loads(text)
            except ValueError:
                self.report.warning("invalid", "the stored MacMahon country table is not readable; rebuilt from the "
                                    "players", "Country")
                table = []
        by_code = {entry["code"]: entry for entry in table}
        needed: list[str] = []
        clubs: list[tuple[str, str]] = []
        for key in ("DefaultCountry", "DefaultNationality"):
            code = self.extras.get(PREFIX + key)
            if code:
                needed.append(code.lower())
        for p in self.state.players.values():
            code = p.country.strip().lower()
            if code:
                needed.append(code)
                if p.club.strip():
                    clubs.append((code, p.club.strip()))
            elif p.club.strip():
                self.report.warning("unmapped", f"{p.id} {p.full_name}: club {p.club!r} without a country; MacMahon "
                                    "cannot store a club without a country", p.id)
            nationality = p.extras.get(PREFIX + "Nationality", "").lower()
            if nationality:
                needed.append(nationality)
        entry: dict[str, Any]
        for code in sorted(set(needed) - set(by_code)):
            entry = {"code": code, "name": country_name(code), "clubs": []}
            table.append(entry)
            by_code[code] = entry
        for code, club in clubs:
            entry = by_code[code]
            if not any(name.lower() == club.lower() for name, _egd in entry["clubs"]):
                entry["clubs"].append([club, club[:4].strip()])
        out = self.out
        for entry in table:
            out.open("Country")
            out.leaf("InternetCode", entry["code"])
            out.leaf("Name", entry["name"] or entry["code"].upper(), cdata=False)
            for name, egd in entry["clubs"]:
                out.open("Club")
                out.leaf("Name", name, cdata=False)
                out.leaf("EGDName", egd)
                out.close("Club")
            out.close("Country")
        for key in ("DefaultCountry", "DefaultNationality"):
            code = self.extras.get(PREFIX + key)
            if code:
                out.leaf(key, code.lower())

    # ------------------------------------------------------------------ participants

    def not_playing(self, p: PlayerState) -> list[int]:
        rounds = []
        for r in range(1, self.state.rounds + 1):
            missing = r in p.absences or p.is_withdrawn(r)
            if missing and self.state.game_of(p.id, r) is None and p.id not in self.state.byes.get(r, {}):
                rounds.append(r)
        return rounds

    def write_participants(self) -> None:
        out = self.out
        for pid in sorted(self.state.players, key=lambda k: self.ids[k]):
            p = self.state.players[pid]
            where = f"{pid} {p.full_name}"
            self.check_player(p, where)
            x = p.extras
            out.open("IndividualParticipant")
            out.leaf("Id", str(self.ids[pid]))
            out.leaf("Joker", x.get(PREFIX + "Joker", "false"))
            out.leaf("PreliminaryRegistration", bool_text(p.status == "preliminary"))
            on, value = adjustment(p)
            out.leaf("ScoreAdjustment", bool_text(on))
            out.leaf("ScoreAdjustmentValue", str(value))
            out.leaf("SuperBarMember", x.get(PREFIX + "SuperBarMember", "false"))
            out.optional("Comment", x.get(PREFIX + "Comment"), where)
            for r in self.not_playing(p):
                out.leaf("NotPlayingInRound", str(r))
            out.open("GoPlayer")
            out.leaf("AsianName", x.get(PREFIX + "AsianName", self.extras.get(PREFIX + "DefaultAsianName", "false")))
            out.optional("FirstName", p.first_name.strip(), where)
            out.optional("Surname", p.surname.strip(), where)
            out.leaf("GoLevel", str(player_level(p)))
            out.leaf("Rating", str(p.rating or 0))
            out.leaf("EgdPin", self.pin(p, where))
            country = p.country.strip().lower()
            if country:
                out.leaf("Country", country)
                out.optional("Club", p.club.strip(), where)
            out.optional("Nationality", x.get(PREFIX + "Nationality", "").lower(), where)
            out.close("GoPlayer")
            out.close("IndividualParticipant")
            self.report.count_recorded("players")

    def pin(self, p: PlayerState, where: str) -> str:
        pin = p.egd_pin.strip()
        if not pin:
            return "0"
        if not pin.isdigit():
            self.report.warning("unmapped", f"EGD PIN {pin!r} is not a number; MacMahon stores PINs as integers", where)
            return "0"
        if pin.startswith("0") and int(pin):
            self.report.warning("normalised", f"EGD PIN {pin} loses its leading zero (MacMahon stores an integer)",
                                where)
        return str(int(pin))

    def check_player(self, p: PlayerState, where: str) -> None:
        self.report.count_read("players")
        if p.grade and p.grade.strip().lower() != p.rank:
            self.report.info("unmapped", f"grade {p.grade!r} (MacMahon keeps only the level {p.rank})", where)
        if p.ids:
            self.report.info("unmapped", f"identifiers {', '.join(sorted(p.ids))} have no place in MacMahon", where)
        if p.rating_origin:
            self.report.info("unmapped", f"rating origin {p.rating_origin!r} has no place in MacMahon", where)
        for r, points in sorted(p.absences.items()):
            if points is not None:
                self.report.warning("unmapped", f"the absence of round {r} is worth {Fraction(points, 2)} "
                                    "point(s); MacMahon gives every absence its own fixed value", where)
        if p.withdrawn_from is not None:
            self.report.info("approximated", f"withdrawal from round {p.withdrawn_from} written as not playing in "
                             "the rounds after it", where)

    # ------------------------------------------------------------------ rounds

    def boards(self, r: int) -> list[_Board]:
        state = self.state
        items: list[_Board] = []
        for game in state.games_of_round(r):
            flag = game.extras.get(PREFIX + "BoardNumberFixed")
            items.append(_Board(game.table, flag != "false", game=game, extras=game.extras))
        details = state.bye_details.get(r, {})
        for pid in sorted(state.byes.get(r, {}), key=lambda k: self.ids[k]):
            d = details.get(pid)
            number = d.table if d is not None and d.table >= 1 else None
            flag = d.extras.get(PREFIX + "BoardNumberFixed") if d is not None else None
            items.append(_Board(number, flag != "false", bye=pid, extras=d.extras if d is not None else {}))
        used: set[int] = set()
        for item in items:
            if item.number is not None and item.number in used:
                item.number = None
            if item.number is not None:
                used.add(item.number)
        for item in items:
            if item.number is None:
                item.number = max(used, default=0) + 1
                used.add(item.number)
        items.sort(key=lambda b: b.number or 0)
        counter = 1
        for item in items:
            if item.fixed:
                counter = (item.number or 0) + 1
        loose = [item for item in items if not item.fixed]
        if any(item.number != counter + i for i, item in enumerate(loose)):
            self.report.info("renumbered", f"round {r}: board numbers that MacMahon would renumber are written as "
                             "fixed, to keep the ledger's table numbers", f"round {r}")
            for item in loose:
                item.fixed = True
        return items

    def round_date(self, r: int) -> str:
        stored = self.extras.get(f"{PREFIX}TournamentRound.{r}.LastUpdated")
        if stored:
            return stored
        for day in (self.settings.begin_date, self.settings.end_date):
            if re.fullmatch(r"\d{4}-\d{2}-\d{2}", day or ""):
                return f"{day} 00:00:00"
        return DEFAULT_DATE

    def write_rounds(self) -> None:
        out = self.out
        tournament_jigo = self.tournament_values()["AllowJigo"] or "false"
        undated = []
        for r in range(1, self.state.rounds + 1):
            where = f"round {r}"
            out.open("TournamentRound")
            out.leaf("RoundNumber", str(r))
            if f"{PREFIX}TournamentRound.{r}.LastUpdated" not in self.extras:
                undated.append(r)
            out.leaf("LastUpdated", self.round_date(r))
            for board in self.boards(r):
                out.open("Pairing")
                x = board.extras or {}
                out.leaf("ForcedPairing", x.get(PREFIX + "ForcedPairing", "false"))
                if board.bye is not None:
                    out.leaf("PairingWithBye", "true")
                    out.leaf("Black", str(self.ids[board.bye]))
                    points = self.state.byes[r][board.bye]
                    if points is not None and points != 2:
                        self.report.warning("unmapped", f"the bye of {board.bye} is worth {Fraction(points, 2)} "
                                            "point(s); a MacMahon bye is always worth 1", where)
                    self.report.count_recorded("byes")
                else:
                    game = board.game
                    foreign = sorted(k for k in game.extras if not k.startswith(PREFIX))
                    if foreign:
                        self.report.warning("unmapped", f"{', '.join(foreign)} of the game at table {game.table} "
                                            "not written (a MacMahon pairing has no place for them)", where)
                    out.leaf("PairingWithBye", "false")
                    out.leaf("Black", str(self.ids[game.black]))
                    out.leaf("White", str(self.ids[game.white]))
                    out.leaf("Handicap", str(game.handicap))
                    allow = x.get(PREFIX + "AllowJigo")
                    if allow is None:
                        if game.komi is not None:
                            allow = bool_text(_whole_komi(game.komi))
                        else:
                            allow = "true" if game.result is Result.JIGO else tournament_jigo
                    out.leaf("AllowJigo", allow)
                    out.leaf("Result", layout.RESULT_NAMES[game.result.value])
                    referee = game.by_default if game.result.is_known else x.get(PREFIX + "ResultByReferee") == "true"
                    out.leaf("ResultByReferee", bool_text(referee))
                    out.leaf("ResultPoints", str(game.result_points))
                    if not game.color_known:
                        self.report.warning("unmapped", f"table {game.table}: colours unknown in the ledger; written "
                                            "with its White and Black", where)
                    self.report.count_recorded("games")
                out.leaf("BoardNumber", str(board.number))
                out.leaf("BoardNumberFixed", bool_text(board.fixed))
                out.optional("Comment", x.get(PREFIX + "Comment"), where)
                out.optional("CreationTime", x.get(PREFIX + "CreationTime"), where)
                out.close("Pairing")
            out.close("TournamentRound")
        if undated:
            self.report.info("default", f"round(s) {', '.join(map(str, undated))} had no MacMahon date; "
                             f"LastUpdated written as {self.round_date(undated[0])}", "TournamentRound")

    def write_unwanted(self) -> None:
        out = self.out
        pairs = []
        for a, partners in self.state.pairing_constraints.items():
            for b, kind in partners.items():
                one, two = sorted((self.ids[a], self.ids[b]))
                pairs.append((one, two, kind))
        for one, two, kind in sorted(pairs):
            out.open("UnwantedPairing")
            out.leaf("ParticipantOne", str(one))
            out.leaf("ParticipantTwo", str(two))
            out.leaf("Forbidden", bool_text(kind == "forbidden"))
            out.close("UnwantedPairing")
            self.report.count_recorded("unwanted pairings")

    def check_tournament(self) -> None:
        s = self.settings
        lost = [label for label, value in (("short name", s.short_name), ("location", s.location),
                                           ("director", s.director), ("begin date", s.begin_date),
                                           ("end date", s.end_date)) if value]
        if lost:
            self.report.info("unmapped", f"the tournament's {', '.join(lost)} have no place in a MacMahon file",
                             "Tournament")
        defaults = TournamentSettings(name=s.name, rounds=s.rounds)
        changed = [name for name in TournamentSettings.__struct_fields__
                   if name not in _WRITTEN_SETTINGS and getattr(s, name) is not None
                   and getattr(s, name) != getattr(defaults, name)]  # None (no time settings): nothing lost
        scoring = [f"{name} {getattr(s, name)!r}" for name in changed if name in _OTHER_SCORING]
        if scoring:
            self.report.warning("unmapped", f"scoring parameters of other programs have no place in a MacMahon file: "
                                f"{', '.join(scoring)} (MacMahon scores a bye 1, an absence ½)", "Tournament")
        other = [name for name in changed if name not in _OTHER_SCORING and name not in _REPORTED_APART]
        if other:
            self.report.info("unmapped", f"{', '.join(other)} have no place in a MacMahon file", "Tournament")
        if s.system != "mcmahon":
            self.report.warning("unmapped", f"system {s.system}: MacMahon runs McMahon tournaments only",
                                "Tournament")
        if self.state.teams:
            self.report.warning("unmapped", f"{len(self.state.teams)} team(s) have no place in a MacMahon file",
                                "Tournament")
        if self.state.round_settings:
            self.report.warning("unmapped", "rule changes from a given round on cannot be written; the settings of "
                                "round 1 are written", "Tournament")
        foreign = sorted({k.split(".")[0] for k in s.extras if not k.startswith(PREFIX)})
        if foreign:
            self.report.info("unmapped", f"settings kept for other formats ({', '.join(foreign)}) are not written",
                             "Tournament")
        upper = effective_bars(s)[1]
        if upper.absolute < Level.from_rank(s.mm_floor).absolute:
            self.report.warning("inconsistency", "the McMahon floor is above the bar", "Tournament")

    def write(self) -> bytes:
        self.check_tournament()
        self.write_tournament()
        self.write_walllist()
        self.write_countries()
        self.write_participants()
        self.write_rounds()
        self.write_unwanted()
        self.out.report_trimmed()
        self.out.depth = 0
        self.out.lines.append("</Tournament>")
        self.out.lines.extend(self.carried_lines())
        return self.out.bytes()


def write_macmahon(state: TournamentState, *, source: str = "") -> tuple[bytes, InterchangeReport]:
    """The MacMahon 3.10 file of a tournament state, and the export report."""
    if state.settings is None:
        raise CommandRejected("the ledger has no tournament yet")
    report = InterchangeReport(format=FORMAT, source=source, direction="export")
    report_players_paired_twice(state, report, "a MacMahon file")
    report.count_read("games", sum(len(t) for t in state.games.values()))
    report.count_read("byes", sum(len(b) for b in state.byes.values()))
    constraints = sum(len(p) for p in state.pairing_constraints.values())
    report.count_read("unwanted pairings", constraints)
    data = _Writer(state, report).write()
    report.counts = {k: report.counts[k] for k in ("players", "games", "byes", "unwanted pairings")
                     if k in report.counts}
    for kind in ("games", "byes", "unwanted pairings"):
        report.counts.setdefault(kind, {"read": 0, "recorded": 0})
    return data, report


def _whole_komi(komi: str) -> bool:
    """Whether ``komi`` is a whole number (jigo possible), read by the bounded
    :func:`goledger.ledger.values.parse_number` (an old ledger's komi may be any text)."""
    try:
        return parse_number(komi).denominator == 1
    except ValueError:
        return False
