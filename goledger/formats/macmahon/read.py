"""MacMahon XML → ledger events and an import report (spec ``formats/macmahon.md``).

:func:`read_macmahon` turns the bytes of a MacMahon 3.x tournament file into the events of
a new ledger, in this order::

    TournamentCreated, SourceImported, PlayerRegistered…, ParticipationChanged…,
    PairingConstraintSet…, then round by round: GamePaired (+ ResultRecorded)
    + PairingAnnotated… in board order, ByeAssigned + PairingAnnotated…

Mapping (spec sections in brackets):

* Tournament (§1.1): ``Name`` and ``NumberOfRounds`` → ``name``/``rounds``; the bars →
  ``mm_bar``/``mm_floor``; the eight handicap elements → ``handicap``; ``AllowJigo`` →
  ``komi`` (7 or 7.5: MacMahon stores no komi); ``Boardsize`` → ``board_size``; the walllist
  criteria → ``criteria`` (``MM-`` names, §B.13) and ``policy = "macmahon"``. Every known
  element is also kept in ``extras`` as ``macmahon.<Element>`` (walllist options as
  ``macmahon.Walllist.<Element>``) with the value MacMahon's reader gives it — an absent
  element reads false/0 (§B.2) — so the ``macmahon`` policy scores with the file's own
  options and the writer puts them back. Unknown scalar elements are kept verbatim too.
  The country/club table is kept as JSON in ``macmahon.CountryTable``; each round's
  ``LastUpdated`` as ``macmahon.TournamentRound.<n>.LastUpdated``.
* Participants (§1.2): ``Id`` → ``start_number``; names, level (→ ``rank``; a level outside
  30k…9p also in ``macmahon.GoLevel``), rating (0 = none), EGD PIN (0 = none), country
  (upper-cased), club; ``PreliminaryRegistration`` → status; ``ScoreAdjustment(Value)`` →
  ``mm_correction`` (whole points toward zero) and, exactly, ``macmahon.ScoreAdjustment*``;
  ``Joker``, ``SuperBarMember``, ``Comment``, ``AsianName``, ``Nationality`` → player extras.
  ``NotPlayingInRound`` → ``ParticipationChanged`` (not for a round where he is paired:
  the pairing overrides it, §B.10).
* Pairings (§1.3, §B.4, §B.9): ``Black``/``White`` by Id; ``Result`` **Black first**;
  ``ResultByReferee`` → ``by_default``; ``BoardNumber`` → table; ``ResultPoints`` and the
  other pairing attributes → ``PairingAnnotated``. A bye → ``ByeAssigned`` + its annotation.
* ``UnwantedPairing`` → ``PairingConstraintSet`` (``forbidden`` or ``unwanted``).

The hand-written "MacMahon 3.9" sample of pairgoth (root ``<TournamentData>``, containers
``<Playerlist>``/``<Player>``, ``<Roundlist>``/``<Round>``, walllist ``<Criterion>``) is read
too, and the report says that it is not MacMahon's own layout (spec §2, §C).

Values MacMahon would refuse or silently change are accepted when their meaning is clear
and reported; anything that cannot be recorded is an **error** entry.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from goledger.errors import FormatError
from goledger.formats.carried import apply_carried, parse_carried, xml_carried
from goledger.formats.macmahon import layout
from goledger.formats.numbers import ascii_int, is_ascii_number
from goledger.formats.report import InterchangeReport
from goledger.formats.xmlsafe import parse_xml
from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.replay.scoring.criteria.names import CRITERION_FOR_MACMAHON
from goledger.replay.scoring.macmahon_rules import (
    PREFIX,
    WALLLIST,
    Level,
    LevelError,
    bar_settings,
    handicap_settings,
    komi_for_allow_jigo,
)

if TYPE_CHECKING:
    from lxml import etree

__all__ = ["DIALECT_PAIRGOTH", "FORMAT", "ReadResult", "read_macmahon"]

FORMAT: Final = "macmahon"
DIALECT_PAIRGOTH: Final = "pairgoth hand-written sample (not MacMahon's own layout)"
NEWEST_TYPEVERSION: Final = 9
_DATE_RE: Final = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")

_TOURNAMENT_ROWS: Final = {
    name: (kind, default) for name, kind, default in (*layout.TOURNAMENT, *layout.TOURNAMENT_TAIL)
}
_WALLLIST_ROWS: Final = {name: (kind, default) for name, kind, default in layout.WALLLIST}
_STRUCTURE: Final = frozenset({"Walllist", "Country", "IndividualParticipant", "TournamentRound", "UnwantedPairing",
                               "Playerlist", "Roundlist", "Tournament"})
_MAPPED_ONLY: Final = frozenset({"NumberOfRounds", "Name"})
MAX_ROUNDS: Final = 99
"""The most rounds a goledger tournament holds (as ``goledger new`` and the TRF reader)."""
_TOLERATED_RESULTS: Final = {
    "b+": "black", "w+": "white", "1/2-1/2": "jigo", "0.5-0.5": "jigo", "=": "jigo", "jigo": "jigo",
}


@dataclass
class ReadResult:
    events: list[ev.Event]
    report: InterchangeReport
    places: dict[str, int] = field(default_factory=dict)
    """Player id → the place goledger's own file states (:mod:`goledger.formats.carried`)."""


@dataclass
class _Participant:
    mm_id: int
    player_id: str
    absent: list[int] = field(default_factory=list)
    where: str = ""


def _text(el: etree._Element | None) -> str | None:
    """The value of an element: MacMahon reads only its first child node (§B.7); here the
    whole text (CDATA or escaped), which is the same for every file MacMahon writes."""
    if el is None:
        return None
    return el.text if el.text is not None else ""


class _Reader:
    def __init__(self, root: etree._Element, report: InterchangeReport, source: str) -> None:
        self.root = root
        self.report = report
        self.source = source
        self.dialect = root.tag == "TournamentData"
        self.extras: dict[str, str] = {}
        self.participants: dict[int, _Participant] = {}
        self.rounds = 0
        self.board_size = 19
        self.small_board_noted = False
        self._indexed: tuple[etree._Element, dict[str, list[etree._Element]]] | None = None
        self._duplicates: set[tuple[int, str]] = set()

    # ------------------------------------------------------------------ helpers

    def child(self, parent: etree._Element, tag: str, where: str) -> etree._Element | None:
        """The first direct child ``tag`` (MacMahon uses the first one, spec §B.1); a repeated
        single-valued element is reported. The children of the element being read are indexed
        once (the index holds the element, so the identity check is safe)."""
        if self._indexed is None or self._indexed[0] is not parent:
            index: dict[str, list[etree._Element]] = {}
            for c in parent:
                if isinstance(c.tag, str):
                    index.setdefault(c.tag, []).append(c)
            self._indexed = (parent, index)
        found = self._indexed[1].get(tag)
        if not found:
            return None
        if len(found) > 1 and (id(parent), tag) not in self._duplicates:
            self._duplicates.add((id(parent), tag))
            self.report.warning("duplicate", f"<{tag}> appears {len(found)} times; the first one is used", where)
        return found[0]

    def value(self, parent: etree._Element, tag: str, where: str) -> str | None:
        return _text(self.child(parent, tag, where))

    def parse_bool(self, text: str | None, tag: str, where: str) -> bool | None:
        if text is None:
            return None
        if text == "true":
            return True
        if text != "false":
            verdict = "true" if text.strip().lower() in ("true", "1", "yes") else "false"
            self.report.warning(
                "normalised", f"<{tag}> {text!r} is not 'true' or 'false'; MacMahon reads it as false, "
                f"goledger as {verdict}", where)
            return verdict == "true"
        return False

    def parse_int(self, text: str | None, tag: str, where: str) -> int | None:
        if text is None:
            return None
        if text == "" and tag in ("EgdPin", "Rating"):
            return 0
        number = ascii_int(text, signed=True)  # Java's Integer.parseInt: ASCII digits, 32 bits
        if number is not None and not -(2**31) <= number < 2**31:
            number = None
        if number is not None and text.strip() != text:
            self.report.warning("normalised", f"<{tag}> {text!r} has spaces around the number (MacMahon refuses "
                                f"the file); read as {number}", where)
        if number is None:
            self.report.error("invalid", f"<{tag}> {text!r} is not an integer", where)
        return number

    def parse_level(self, text: str | None, tag: str, where: str) -> Level | None:
        if text is None:
            return None
        try:
            level = Level.parse(text)
        except LevelError as exc:
            self.report.error("invalid", f"<{tag}>: {exc}", where)
            return None
        if str(level) != text:
            self.report.info("normalised", f"<{tag}> {text!r} read as {level}", where)
        return level

    def parse_date(self, text: str | None, tag: str, where: str) -> str | None:
        if text is None or text == "":
            return None
        if not _DATE_RE.match(text):
            self.report.warning("invalid", f"<{tag}> {text!r} is not a date like 2024-05-01 10:12:00 "
                                "(MacMahon refuses it); kept verbatim", where)
        return text

    def canonical(self, kind: str, text: str | None, tag: str, where: str) -> str | None:
        """The canonical text of a value of ``kind`` (None when absent or unreadable)."""
        base = kind.removesuffix("-opt")
        if base == "bool":
            b = self.parse_bool(text, tag, where)
            return None if b is None else ("true" if b else "false")
        if base == "int":
            n = self.parse_int(text, tag, where)
            return None if n is None else str(n)
        if base == "level":
            lv = self.parse_level(text, tag, where)
            return None if lv is None else str(lv)
        if base == "date":
            return self.parse_date(text, tag, where)
        if text is None:
            return None
        stripped = text.strip()
        return stripped or None

    # ------------------------------------------------------------------ tournament

    def settings_element(self) -> etree._Element:
        if not self.dialect:
            return self.root
        inner = self.child(self.root, "Tournament", "TournamentData")
        if inner is None:
            raise FormatError(f"{self.source}: <TournamentData> holds no <Tournament> element")
        return inner

    def read_tournament(self) -> dict[str, str | None]:
        el = self.settings_element()
        where = "Tournament"
        version = el.get("typeversion")
        if not self.dialect:
            if version is None:
                self.report.warning("format", "<Tournament> has no typeversion (MacMahon 3.10 refuses the file)", where)
            elif not is_ascii_number(version):
                self.report.warning("format", f"<Tournament typeversion={version!r}> is not a number", where)
            elif int(version) > NEWEST_TYPEVERSION:
                self.report.warning(
                    "format", f"typeversion {version} is newer than MacMahon 3.10's {NEWEST_TYPEVERSION}; "
                    "read as version 9", where)
        values: dict[str, str | None] = {}
        seen: set[str] = set()
        for child in el:
            if not isinstance(child.tag, str):
                continue
            tag = child.tag
            if tag in _STRUCTURE:
                continue
            if tag in seen:
                self.report.warning("duplicate", f"<{tag}> appears more than once; the first one is used", where)
                continue
            seen.add(tag)
            if tag == "MakePairingSeedingPlacementCriterion":
                values[tag] = self.canonical("text", self.value(child, "ShortName", f"{where}/{tag}"), tag, where)
                continue
            row = _TOURNAMENT_ROWS.get(tag)
            if row is None:
                if len(child):
                    self.report.warning("unmapped", f"<{tag}> (with child elements) is not a MacMahon element "
                                        "goledger knows; not kept", where)
                else:
                    self.extras[PREFIX + tag] = _text(child) or ""
                    self.report.info("kept", f"<{tag}> is kept verbatim for export, not interpreted", where)
                continue
            values[tag] = self.canonical(row[0], _text(child), tag, where)
        # Absent elements: MacMahon's reader gives false / 0 / nothing (spec §B.2). The
        # pairgoth dialect is not MacMahon's, so a new tournament's defaults stand there.
        for tag, (kind, _default) in _TOURNAMENT_ROWS.items():
            if values.get(tag) is None:
                if self.dialect:
                    values[tag] = None
                elif kind in ("bool",):
                    values[tag] = "false"
                elif kind == "int" and tag not in ("NumberOfRounds", "CurrentRoundNumber"):
                    values[tag] = "0"
                else:
                    values.setdefault(tag, None)
        return values

    def apply_tournament(self, values: dict[str, str | None]) -> dict[str, Any]:
        where = "Tournament"
        rounds_text = values.get("NumberOfRounds")
        rounds = int(rounds_text) if rounds_text is not None else 0
        if rounds < 1:
            numbers = [int(n) for n in self._round_numbers() if n > 0]
            rounds = max(numbers, default=1)
            self.report.warning(
                "invalid", f"<NumberOfRounds> is missing or below 1 (MacMahon refuses the file); "
                f"{rounds} round(s) assumed from the rounds in the file", where)
        if rounds > MAX_ROUNDS:
            raise FormatError(f"{self.source} declares {rounds} rounds; goledger handles up to {MAX_ROUNDS}")
        self.rounds = rounds
        name = values.get("Name")
        if not name:
            self.report.warning("missing", "the tournament has no <Name>", where)
        current = values.get("CurrentRoundNumber")
        if current is not None and not 1 <= int(current) <= rounds:
            self.report.warning("invalid", f"<CurrentRoundNumber> {current} is outside 1..{rounds} "
                                "(MacMahon refuses the file); kept for export", where)

        levels: dict[str, Level] = {}
        for tag, fallback in (("UpperMacMahonBarLevel", "9d"), ("LowerMacMahonBarLevel", "35k"),
                              ("HandicapBelowLevel", "1d")):
            text = values.get(tag)
            if text is None:
                if not self.dialect:
                    self.report.warning("missing", f"<{tag}> is missing (MacMahon refuses the file); {fallback} "
                                        "assumed", where)
                text = fallback
                values[tag] = fallback
            levels[tag] = Level.parse(text)
        upper_on = values.get("UpperMacMahonBar") == "true"
        lower_on = values.get("LowerMacMahonBar") == "true"
        mm_bar, mm_floor = bar_settings(upper_on, levels["UpperMacMahonBarLevel"], lower_on,
                                        levels["LowerMacMahonBarLevel"])
        if upper_on and lower_on and Level.parse(mm_floor).absolute > Level.parse(mm_bar).absolute:
            self.report.warning("inconsistency", f"the lower bar {mm_floor} is above the upper bar {mm_bar}", where)
        handicap_values = {k: v for k, v in values.items() if k.startswith("Handicap") and v is not None}
        if self.dialect:
            defaults = {name: d for name, _kind, d in layout.TOURNAMENT if name.startswith("Handicap") and d}
            handicap_values = defaults | handicap_values
        handicap = handicap_settings(handicap_values)
        allow_jigo = values.get("AllowJigo") == "true"
        board = values.get("Boardsize")
        board_size = int(board) if board not in (None, "0") else 19
        self.board_size = board_size
        for tag, text in values.items():
            if text is not None and tag not in _MAPPED_ONLY:
                self.extras[PREFIX + tag] = text
        if values.get("RatingDeterminesStartScore") == "true":
            self.report.warning(
                "approximated", "RatingDeterminesStartScore is on: MacMahon takes start scores from the ratings; "
                "the macmahon policy takes them from the levels (spec §A confirms only level-based start scores)",
                where)
        return {
            "name": (name or "").strip() or Path(self.source).stem,
            "rounds": rounds,
            "mm_bar": mm_bar,
            "mm_floor": mm_floor,
            "handicap": handicap,
            "komi": komi_for_allow_jigo(allow_jigo),
            "board_size": board_size,
        }

    def _round_numbers(self) -> list[int]:
        numbers = []
        for rnd in self.round_elements():
            text = _text(self.child(rnd, "RoundNumber", "TournamentRound"))
            if text is not None and is_ascii_number(text):
                numbers.append(int(text))
        return numbers

    # ------------------------------------------------------------------ walllist

    def read_walllist(self) -> tuple[str, ...]:
        wall = self.child(self.root, "Walllist", "Tournament")
        if wall is None:
            self.report.warning("missing", "the file has no <Walllist> (MacMahon refuses it); the macmahon "
                                "policy's criteria ScoreX, SOS, SOSOS apply", "Tournament")
            return ()
        where = "Walllist"
        seen: set[str] = set()
        criteria: list[str] = []
        for child in wall:
            if not isinstance(child.tag, str):
                continue
            tag = child.tag
            if tag in ("SortCriterionDescriptor", "Criterion"):
                short = (self.value(child, "ShortName", f"{where}/{tag}") or "").strip()
                mapped = CRITERION_FOR_MACMAHON.get(short)
                if mapped is None:
                    self.report.warning("dropped", f"walllist criterion {short!r} is not one MacMahon's reader "
                                        "accepts (Score, ScoreX, SOS, SOSOS, Points, SODOS, SORP); dropped, as "
                                        "MacMahon drops it", where)
                elif mapped in criteria:
                    self.report.warning("duplicate", f"walllist criterion {short} appears twice; kept once", where)
                else:
                    criteria.append(mapped)
                continue
            row = _WALLLIST_ROWS.get(tag)
            if row is None or tag in seen:
                what = "appears more than once" if tag in seen else "is not a walllist element goledger knows"
                self.report.warning("unmapped", f"<{tag}> {what}; not kept", where)
                continue
            seen.add(tag)
            text = self.canonical(row[0], _text(child), tag, where)
            if text is not None:
                self.extras[WALLLIST + tag] = text
        if not self.dialect:
            for tag, (kind, _default) in _WALLLIST_ROWS.items():
                if WALLLIST + tag not in self.extras:
                    self.extras[WALLLIST + tag] = "false" if kind == "bool" else "0"
        return tuple(criteria)

    # ------------------------------------------------------------------ countries

    def read_countries(self) -> None:
        table: list[dict[str, Any]] = []
        for country in self.root.findall("Country"):
            where = "Country"
            code = (self.value(country, "InternetCode", where) or "").strip()
            if not code:
                self.report.warning("invalid", "a <Country> without <InternetCode> is not kept", where)
                continue
            if code != code.lower():
                self.report.warning("normalised", f"country code {code!r} lower-cased (MacMahon matches nothing "
                                    "with an upper-case table entry)", where)
                code = code.lower()
            clubs = []
            for club in country.findall("Club"):
                clubs.append([(self.value(club, "Name", f"{where}/Club") or "").strip(),
                              (self.value(club, "EGDName", f"{where}/Club") or "").strip()])
            table.append({"code": code, "name": (self.value(country, "Name", where) or "").strip(), "clubs": clubs})
        if table:
            self.extras[PREFIX + "CountryTable"] = json.dumps(table, ensure_ascii=False, separators=(",", ":"))
        self.report.count_read("countries", len(table))
        self.report.count_recorded("countries", len(table))

    # ------------------------------------------------------------------ participants

    def participant_elements(self) -> list[etree._Element]:
        if self.dialect:
            return [p for holder in self.root.findall("Playerlist") for p in holder.findall("Player")]
        return self.root.findall("IndividualParticipant")

    def round_elements(self) -> list[etree._Element]:
        if self.dialect:
            return [r for holder in self.root.findall("Roundlist") for r in holder.findall("Round")]
        return self.root.findall("TournamentRound")

    def read_participants(self) -> list[ev.Event]:
        events: list[ev.Event] = []
        elements = self.participant_elements()
        self.report.count_read("players", len(elements))
        for position, el in enumerate(elements, start=1):
            where = f"participant #{position}"
            id_text = self.value(el, "Id", where)
            mm_id = self.parse_int(id_text, "Id", where) if id_text is not None else position
            if id_text is None:
                self.report.info("normalised", f"participant without <Id> numbered {position} (its place in the "
                                 "file)", where)
            if mm_id is None:
                continue
            where = f"participant Id {mm_id}"
            if mm_id in self.participants:
                self.report.error("duplicate", f"participant Id {mm_id} is used twice (MacMahon refuses the file); "
                                  "the second one is not recorded", where)
                continue
            event = self.read_participant(el, mm_id, len(self.participants) + 1, where)
            if event is None:
                continue
            events.append(event)
            self.report.count_recorded("players")
        return events

    def read_participant(self, el: etree._Element, mm_id: int, number: int, where: str) -> ev.PlayerRegistered | None:
        extras: dict[str, str] = {}
        for tag, kind, _default in layout.PARTICIPANT[1:]:
            text = self.canonical(kind, self.value(el, tag, where), tag, where)
            if text is None and not self.dialect and kind == "bool":
                text = "false"
            if text is not None and tag != "PreliminaryRegistration":
                extras[PREFIX + tag] = text
        if not self.dialect and PREFIX + "ScoreAdjustmentValue" not in extras:
            extras[PREFIX + "ScoreAdjustmentValue"] = "0"
        preliminary = self.parse_bool(self.value(el, "PreliminaryRegistration", where), "PreliminaryRegistration",
                                      where)
        known = {row[0] for row in layout.PARTICIPANT} | {"NotPlayingInRound", "GoPlayer"}
        for child in el:
            if isinstance(child.tag, str) and child.tag not in known:
                self.report.warning("unmapped", f"<{child.tag}> of a participant is not mapped", where)
        go = self.child(el, "GoPlayer", where)
        if go is None:
            self.report.error("missing", "participant without <GoPlayer>: no name or level to record", where)
            return None
        values: dict[str, str | None] = {}
        for tag, kind, _default in layout.PLAYER:
            values[tag] = self.canonical(kind, self.value(go, tag, f"{where}/GoPlayer"), tag, where)
        known_player = {row[0] for row in layout.PLAYER}
        for child in go:
            if isinstance(child.tag, str) and child.tag not in known_player:
                self.report.warning("unmapped", f"<GoPlayer><{child.tag}> is not mapped", where)
        if values["GoLevel"] is None:
            if self.child(go, "GoLevel", where) is None:
                self.report.error("missing", "participant without <GoLevel> (MacMahon refuses the file)", where)
            return None
        level = Level.parse(values["GoLevel"])
        if not level.fits_rank:
            extras[PREFIX + "GoLevel"] = str(level)
            self.report.info("normalised", f"level {level} is kept in macmahon.GoLevel; the ledger rank is "
                             f"{level.to_rank()}", where)
        surname = values["Surname"] or ""
        first_name = values["FirstName"] or ""
        if not surname:
            self.report.warning("missing", "participant without <Surname>", where)
        asian = values["AsianName"]
        if asian is not None or not self.dialect:
            extras[PREFIX + "AsianName"] = asian or "false"
        nationality = values["Nationality"]
        if nationality is not None:
            extras[PREFIX + "Nationality"] = nationality.lower()
        country = (values["Country"] or "").upper()
        if values["Country"] and values["Country"] != values["Country"].lower():
            self.report.info("normalised", f"country {values['Country']!r}: MacMahon writes lower case", where)
        adjust_on = extras.get(PREFIX + "ScoreAdjustment") == "true"
        adjust_value = int(extras.get(PREFIX + "ScoreAdjustmentValue", "0"))
        effective = adjust_value if adjust_on else 0
        mm_correction = effective // 4 if effective >= 0 else -((-effective) // 4)
        pin = int(values["EgdPin"] or 0)
        rating = int(values["Rating"] or 0)
        player_id = f"p{number:04d}"
        self.participants[mm_id] = _Participant(mm_id, player_id, where=where)
        absent: set[int] = set()
        for child in el.findall("NotPlayingInRound"):
            r = self.parse_int(_text(child), "NotPlayingInRound", where)
            if r is None:
                continue
            if r < 1:
                self.report.error("invalid", f"<NotPlayingInRound> {r} is not a round (MacMahon refuses the file)",
                                  where)
            elif r > self.rounds:
                self.report.info("ignored", f"<NotPlayingInRound> {r} is past the last round {self.rounds}; "
                                 "ignored, as MacMahon ignores it", where)
            elif r in absent:
                self.report.info("duplicate", f"<NotPlayingInRound> {r} appears twice", where)
            else:
                absent.add(r)
        self.participants[mm_id].absent = sorted(absent)
        return ev.PlayerRegistered(
            player_id=player_id, surname=surname, first_name=first_name, rank=level.to_rank(),
            rating=rating or None, country=country, club=values["Club"] or "", egd_pin=str(pin) if pin else "",
            status="preliminary" if preliminary else "final", mm_correction=mm_correction,
            start_number=mm_id, extras=extras,
        )

    # ------------------------------------------------------------------ rounds

    def read_rounds(self) -> tuple[list[ev.Event], dict[int, set[str]]]:
        by_round: dict[int, list[ev.Event]] = {}
        busy: dict[int, set[str]] = {}
        tables: dict[int, set[int]] = {}
        rounds_seen: set[int] = set()
        for position, rnd in enumerate(self.round_elements(), start=1):
            where = f"round #{position}"
            number = self.parse_int(self.value(rnd, "RoundNumber", where), "RoundNumber", where)
            if number is None:
                self.report.error("missing", "a round without a readable <RoundNumber>; its pairings are not "
                                  "recorded", where)
                self.report.count_read("games", len(rnd.findall("Pairing")))
                continue
            where = f"round {number}"
            if not 1 <= number <= self.rounds:
                self.report.error("invalid", f"round {number} is outside 1..{self.rounds}; its pairings are not "
                                  "recorded", where)
                self.report.count_read("games", len(rnd.findall("Pairing")))
                continue
            if number in rounds_seen:
                self.report.warning("duplicate", f"round {number} appears twice; the pairings of both are read",
                                    where)
            rounds_seen.add(number)
            updated = self.parse_date(self.value(rnd, "LastUpdated", where), "LastUpdated", where)
            if updated is not None:
                self.extras.setdefault(f"{PREFIX}TournamentRound.{number}.LastUpdated", updated)
            elif not self.dialect:
                self.report.info("missing", "round without <LastUpdated> (MacMahon cannot save it)", where)
            for child in rnd:
                if isinstance(child.tag, str) and child.tag not in ("RoundNumber", "LastUpdated", "Pairing"):
                    self.report.warning("unmapped", f"<{child.tag}> of a round is not mapped", where)
            pairings = rnd.findall("Pairing")
            if not self.dialect:
                self.check_boards(pairings, where)
            out = by_round.setdefault(number, [])
            for index, pairing in enumerate(pairings, start=1):
                self.read_pairing(pairing, number, f"{where} pairing #{index}", out,
                                  busy.setdefault(number, set()), tables.setdefault(number, set()))
        events: list[ev.Event] = []
        for number in sorted(by_round):
            games = [e for e in by_round[number] if not _is_bye_event(e)]
            byes = [e for e in by_round[number] if _is_bye_event(e)]
            events.extend(games)
            events.extend(byes)
        return events, busy

    def check_boards(self, pairings: list[etree._Element], where: str) -> None:
        """Warn where MacMahon 3.10's reader would crash on board numbers (spec §B.5)."""
        fixed: list[int] = []
        loose: list[int] = []
        for p in pairings:
            number_text = _text(self.child(p, "BoardNumber", where))
            try:
                number = int(number_text) if number_text is not None else None
            except ValueError:
                number = None
            if number is None:
                return
            if _text(self.child(p, "BoardNumberFixed", where)) == "true" and number > 0:
                fixed.append(number)
            else:
                loose.append(number)
        counter = 1
        for number in sorted(fixed):
            counter = number + 1
        for number in loose:
            if number != counter:
                self.report.warning(
                    "format", f"board numbers of non-fixed pairings are not consecutive from {counter} (found "
                    f"{number}); MacMahon 3.10 refuses such a round", where)
                return
            counter += 1

    def read_pairing(self, el: etree._Element, round_: int, where: str, out: list[ev.Event], busy: set[str],
                     tables: set[int]) -> None:
        bye = self.parse_bool(self.value(el, "PairingWithBye", where), "PairingWithBye", where) or False
        kind = "byes" if bye else "games"
        self.report.count_read(kind)
        black = self.player_ref(el, "Black", where)
        if black is None:
            return
        extras: dict[str, str] = {}
        for tag in ("ForcedPairing", "BoardNumberFixed"):
            text = self.canonical("bool", self.value(el, tag, where), tag, where)
            if text is not None or not self.dialect:
                extras[PREFIX + tag] = text or "false"
        comment = self.canonical("text", self.value(el, "Comment", where), "Comment", where)
        if comment is not None:
            extras[PREFIX + "Comment"] = comment
        created = self.parse_date(self.value(el, "CreationTime", where), "CreationTime", where)
        if created is not None:
            extras[PREFIX + "CreationTime"] = created
        known = {row[0] for row in layout.GAME_PAIRING}
        for child in el:
            if isinstance(child.tag, str) and child.tag not in known:
                self.report.warning("unmapped", f"<{child.tag}> of a pairing is not mapped", where)
        board_text = self.value(el, "BoardNumber", where)
        board = self.parse_int(board_text, "BoardNumber", where) if board_text is not None else None
        if board_text is None:
            self.report.warning("missing", "pairing without <BoardNumber> (MacMahon refuses the file)", where)
        if bye:
            ignored = [c.tag for c in el if isinstance(c.tag, str) and c.tag not in layout.BYE_ELEMENTS]
            if ignored:
                self.report.info("ignored", f"a bye's {', '.join('<' + t + '>' for t in ignored)} ignored, as "
                                 "MacMahon ignores them", where)
            if black in busy:
                self.report.error("conflict", f"{black} already has a pairing in round {round_}; this bye is not "
                                  "recorded", where)
                return
            busy.add(black)
            out.append(ev.ByeAssigned(round=round_, player_id=black))
            out.append(ev.PairingAnnotated(round=round_, table=board or 0, bye=black, extras=extras))
            self.report.count_recorded("byes")
            return
        white = self.player_ref(el, "White", where)
        if white is None:
            return
        if white == black:
            self.report.error("conflict", f"{black} is paired against himself; the pairing is not recorded", where)
            return
        for pid in (black, white):
            if pid in busy:
                self.report.error("conflict", f"{pid} already has a pairing in round {round_}; this pairing is not "
                                  "recorded", where)
                return
        table = board if board is not None and board >= 1 else 0
        if table == 0 or table in tables:
            new = max(tables, default=0) + 1
            if table:
                self.report.warning("renumbered", f"board {table} is used twice in round {round_}; this game is "
                                    f"recorded at table {new}", where)
            else:
                self.report.warning("renumbered", f"board number {board} is not a table; recorded at table {new}",
                                    where)
            table = new
        tables.add(table)
        busy.update((black, white))
        handicap = self.parse_int(self.value(el, "Handicap", where), "Handicap", where) or 0
        allow = self.canonical("bool", self.value(el, "AllowJigo", where), "AllowJigo", where)
        if allow is not None or not self.dialect:
            extras[PREFIX + "AllowJigo"] = allow or "false"
        referee = self.parse_bool(self.value(el, "ResultByReferee", where), "ResultByReferee", where) or False
        points = self.parse_int(self.value(el, "ResultPoints", where), "ResultPoints", where) or 0
        result = self.read_result(self.value(el, "Result", where), where)
        if handicap and self.board_size not in (19, 0) and not self.small_board_noted:
            self.small_board_noted = True
            self.report.warning(
                "approximated", f"handicaps on a {self.board_size}×{self.board_size} board are in MacMahon's own "
                "units, not stones (spec §B.15); recorded as they are", where)
        out.append(ev.GamePaired(round=round_, table=table, white=white, black=black, handicap=handicap))
        self.report.count_recorded("games")
        if result is not Result.UNKNOWN:
            out.append(ev.ResultRecorded(round=round_, table=table, result=result, by_default=referee))
            self.report.count_read("results")
            self.report.count_recorded("results")
        elif referee:
            extras[PREFIX + "ResultByReferee"] = "true"
        if points or not self.implied(extras, result):
            out.append(ev.PairingAnnotated(round=round_, table=table, result_points=points, extras=extras))

    def implied(self, extras: dict[str, str], result: Result) -> bool:
        """Whether a game's attributes are those the writer gives a game without annotation
        (not forced, fixed board, AllowJigo as the tournament's or true for a jigo, nothing
        else): then ``PairingAnnotated`` would carry no information and is not recorded."""
        allow = "true" if result is Result.JIGO else self.extras.get(PREFIX + "AllowJigo", "false")
        implied = {PREFIX + "ForcedPairing": "false", PREFIX + "BoardNumberFixed": "true", PREFIX + "AllowJigo": allow}
        return all(implied.get(key) == value for key, value in extras.items())

    def read_result(self, text: str | None, where: str) -> Result:
        if text is None:
            self.report.warning("missing", "game without <Result> (MacMahon refuses the file); no result recorded",
                                where)
            return Result.UNKNOWN
        raw = text.strip()
        name = layout.RESULTS.get(raw)
        if name is not None:
            return Result(name)
        referee_mark = raw.endswith("!")
        core = raw.rstrip("!").strip()
        name = layout.RESULTS.get(core) or _TOLERATED_RESULTS.get(core.lower())
        if name is None:
            self.report.warning("unmapped", f"result {text!r} is not one of MacMahon's six (?-?, 1-0, 0-1, ½-½, "
                                "0-0, 1-1); no result recorded", where)
            return Result.UNKNOWN
        self.report.warning("normalised", f"result {text!r} read as {name} (MacMahon itself reads it as ?-?)"
                            + (" and its '!' dropped" if referee_mark else ""), where)
        return Result(name)

    def player_ref(self, el: etree._Element, tag: str, where: str) -> str | None:
        text = self.value(el, tag, where)
        if text is None:
            self.report.error("missing", f"pairing without <{tag}>; not recorded", where)
            return None
        number = self.parse_int(text, tag, where)
        if number is None:
            return None
        found = self.participants.get(number)
        if found is None:
            self.report.error("unknown", f"<{tag}> {number} is no participant's Id; the pairing is not recorded",
                              where)
            return None
        return found.player_id

    # ------------------------------------------------------------------ constraints

    def read_unwanted(self) -> list[ev.Event]:
        events: list[ev.Event] = []
        elements = self.root.findall("UnwantedPairing")
        self.report.count_read("unwanted pairings", len(elements))
        for index, el in enumerate(elements, start=1):
            where = f"unwanted pairing #{index}"
            one = self.player_ref(el, "ParticipantOne", where)
            two = self.player_ref(el, "ParticipantTwo", where)
            if one is None or two is None:
                continue
            if one == two:
                self.report.error("invalid", f"an unwanted pairing names {one} twice; not recorded", where)
                continue
            forbidden = self.parse_bool(self.value(el, "Forbidden", where), "Forbidden", where) or False
            events.append(ev.PairingConstraintSet(player_a=one, player_b=two,
                                                  constraint="forbidden" if forbidden else "unwanted"))
            self.report.count_recorded("unwanted pairings")
        return events

    # ------------------------------------------------------------------ all

    def read(self) -> list[ev.Event]:
        if self.dialect:
            self.report.dialect = DIALECT_PAIRGOTH
            self.report.warning(
                "dialect", "this file uses the hand-written 'MacMahon 3.9' layout of pairgoth's test sample "
                "(<TournamentData>, <Playerlist>, <Roundlist>), not MacMahon's own layout; MacMahon 3.10 "
                "refuses it", "TournamentData")
        values = self.read_tournament()
        fields = self.apply_tournament(values)
        criteria = self.read_walllist()
        self.read_countries()
        players = self.read_participants()
        games, busy = self.read_rounds()
        absences: list[ev.Event] = []
        for part in self.participants.values():
            for r in part.absent:
                if part.player_id in busy.get(r, set()):
                    self.report.info("inconsistency", f"{part.player_id} is marked not playing in round {r} but is "
                                     "paired there; the pairing overrides it, as in MacMahon", part.where)
                    continue
                absences.append(ev.ParticipationChanged(player_id=part.player_id, round=r, participating=False))
        self.report.count_read("absences", sum(len(p.absent) for p in self.participants.values()))
        self.report.count_recorded("absences", len(absences))
        constraints = self.read_unwanted()
        settings = ev.TournamentSettings(
            **fields, system="mcmahon", criteria=criteria, policy="macmahon", extras=dict(sorted(self.extras.items())),
        )
        summary = {kind: c["recorded"] for kind, c in sorted(self.report.counts.items())}
        head: list[ev.Event] = [
            ev.TournamentCreated(settings=settings),
            ev.SourceImported(format=FORMAT, filename=Path(self.source).name, sha256="", summary=summary),
        ]
        return head + players + absences + constraints + games


def _is_bye_event(event: ev.Event) -> bool:
    return isinstance(event, ev.ByeAssigned) or (isinstance(event, ev.PairingAnnotated) and event.bye is not None)


def read_macmahon(data: bytes, *, source: str = "tournament.xml") -> ReadResult:
    """Read a MacMahon 3.x XML file (bytes) into events and an import report.

    Raises :class:`~goledger.errors.FormatError` when the bytes are not a well-formed, safe
    XML document whose root is ``<Tournament>`` (MacMahon) or ``<TournamentData>`` (pairgoth's
    sample). Everything else is reported; whether errors refuse the import is the caller's
    decision (:func:`goledger.formats.importing.write_new_ledger`).
    """
    report = InterchangeReport(format=FORMAT, source=source)
    notes: list[str] = []
    root = parse_xml(data, what=source, notes=notes)
    for note in notes:
        report.warning("encoding", f"{note} (MacMahon itself refuses bytes its declared encoding cannot read)")
    if root.tag not in ("Tournament", "TournamentData"):
        raise FormatError(f"{source} is not a MacMahon file: its root element is <{root.tag}>, not <Tournament>")
    opengotha = root.find("Players") is not None or root.find("TournamentParameterSet") is not None
    if root.tag == "Tournament" and opengotha:
        raise FormatError(f"{source} is an OpenGotha file, not a MacMahon file; use `goledger import opengotha`")
    events = _Reader(root, report, source).read()
    imported = events[1]
    assert isinstance(imported, ev.SourceImported)
    events[1] = ev.SourceImported(format=imported.format, filename=imported.filename,
                                  sha256=hashlib.sha256(data).hexdigest(), summary=imported.summary)

    carried = xml_carried(data)
    places: dict[str, int] = {}
    if carried:  # goledger's own file: its rules and places (issue 40, item 5)
        places = apply_carried(events, parse_carried(carried, report, "after </Tournament>"), report,
                               "after </Tournament>")
    return ReadResult(events=events, report=report, places=places)
