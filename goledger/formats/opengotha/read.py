"""OpenGotha XML → ledger events and an import report (spec ``formats/opengotha-xml.md``).

:func:`read_opengotha` turns the bytes of a save file into the events that create a
ledger holding **everything** the file holds, in this order::

    TournamentCreated, SourceImported, PlayerRegistered…, ParticipationChanged…,
    TeamRegistered / TeamMemberAssigned…, then round by round: ByeAssigned…,
    GamePaired (+ ResultRecorded)… in table order

Mapping rules (section numbers are those of the spec):

* Elements are found anywhere in the tree, as OpenGotha's reader does (§1); a missing
  attribute takes OpenGotha's **reader** default (§7) and the report says so.
* Parameters (§7) go to typed ``TournamentSettings`` fields; the pairing weights go to
  ``pairing`` verbatim; everything else OpenGotha writes (root attributes, display and
  publish sets, team parameters, clubs groups, unknown attributes) goes to ``extras`` as
  ``"opengotha.<Element>.<attribute>" → text`` so that the writer can put it back.
* Players (§3) keep every attribute: ``rank`` canonical (``"4d"``), ``grade`` verbatim,
  ``rating`` the file's integer (shifted by +2050 only for an explicit ``dataVersion`` below
  201, §2), ``rating_origin`` the prefix of ``ratingOrigin`` (``"FFG : -131"`` → ``FFG``),
  licences and AGA data in ``ids``, ``start_number`` = position in the file. A verbatim
  text that the canonical value cannot reproduce (``99K``, ``2P``, ``FFG : -131``, a
  ``participating`` string with flags past the last round) is kept in the player's extras.
* ``participating`` flags ``0`` within the rounds become ``ParticipationChanged`` (§3, §4.2).
* References to players are matched by :mod:`goledger.formats.opengotha.keys`; a
  reference nothing matches is an **error** (and, so that no game is dropped, a
  placeholder player is recorded for it if the caller accepts errors).
* Every ``Game`` is recorded (§4): result and forfeit flag from the code
  (``RESULT_UNKNOWN`` records no result), ``knownColor`` honoured (OpenGotha 3.51 ignores
  it), a duplicate table in a round is renumbered (OpenGotha would overwrite it). Every
  ``ByePlayer`` is recorded (§5), even a second one in a round (OpenGotha keeps the last).
* Teams (§6) become ``TeamRegistered`` and ``TeamMemberAssigned`` (``round=None`` for a
  board without round number: every round).
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import msgspec

from goledger.errors import FormatError
from goledger.formats.carried import apply_carried, parse_carried, xml_carried
from goledger.formats.opengotha import values as ogv
from goledger.formats.opengotha.keys import KeyIndex
from goledger.formats.report import InterchangeReport
from goledger.formats.xmlsafe import parse_xml
from goledger.ledger import events as ev
from goledger.ledger.domains import name_key
from goledger.ledger.values import Rank, RankError, Result
from goledger.replay.scoring.criteria.names import OPENGOTHA_NAMES, PAIRGOTH_NAMES

if TYPE_CHECKING:
    from lxml import etree

__all__ = ["FORMAT", "ReadResult", "read_opengotha"]

FORMAT: Final = "opengotha"
MAX_ROUNDS: Final = 20
LEDGER_MAX_ROUNDS: Final = 99
"""The most rounds a goledger tournament holds (``goledger new`` refuses more); a round
number beyond it in a file is an error, not a loop over a billion rounds."""
PARTICIPATING_LENGTH: Final = 20
MAX_FILE_BYTES: Final = 32 * 1024 * 1024
"""Larger than any OpenGotha save: 2000 players (OpenGotha's maximum), 20 rounds and team
boards for all of them stay under 10 MB."""
FILE_KIND: Final = "OpenGotha files"

ROOT_ATTRIBUTES: Final = frozenset({
    "dataVersion", "gothaVersion", "gothaMinorVersion", "fullVersionNumber", "runningMode", "saveDT",
    "externalIPAddress", "macAddress", "privateTournament", "remoteUUID",
})
PLAYER_ATTRIBUTES: Final = frozenset({
    "name", "firstName", "country", "club", "egfPin", "ffgLicence", "ffgLicenceStatus", "agaId",
    "agaExpirationDate", "rank", "rating", "ratingOrigin", "grade", "smmsCorrection", "participating",
    "registeringStatus", "userName",
})
PLAYER_IDS: Final = {
    "ffgLicence": "ffg_licence",
    "ffgLicenceStatus": "ffg_licence_status",
    "agaId": "aga_id",
    "agaExpirationDate": "aga_expiration_date",
}
"""Player attributes kept in ``PlayerRegistered.ids`` (only when not empty)."""

GAME_ATTRIBUTES: Final = frozenset({
    "roundNumber", "tableNumber", "whitePlayer", "blackPlayer", "knownColor", "handicap", "result",
})
GENERAL_MAPPED: Final = frozenset(ogv.GENERAL_DEFAULTS) | {
    "beginDate", "endDate", "bInternetGame", "numberOfBZHGroups", "time", "byoYomi",
}
GENERAL_KEPT: Final = ("numberOfBZHGroups", "time", "byoYomi")
"""GeneralParameterSet attributes without a settings field, kept verbatim in extras."""

KNOWN_ELEMENTS: Final = frozenset({
    "Tournament", "Players", "Player", "Games", "Game", "ByePlayers", "ByePlayer", "Teams", "Team",
    "Board", "TournamentParameterSet", "GeneralParameterSet", "Categories", "Category",
    "HandicapParameterSet", "PlacementParameterSet", "PlacementCriteria", "PlacementCriterion",
    "PairingParameterSet", "DPParameterSet", "PublishParameterSet", "TeamTournamentParameterSet",
    "TeamGeneralParameterSet", "TeamPlacementParameterSet", "ClubsGroups", "ClubsGroup", "Club",
})

PLAYER_EXTRA: Final = "opengotha.Player."
"""Prefix of player extras: ``opengotha.Player.<attribute>`` → verbatim text."""
GAME_EXTRA: Final = "opengotha.Game."
"""Prefix of a game's extras (``PairingAnnotated``): ``opengotha.Game.<attribute>`` → verbatim
text of an attribute OpenGotha 3.51 does not write (a later version's, or another program's)."""


class ReadResult(msgspec.Struct, kw_only=True):
    """What :func:`read_opengotha` produced: the events and the report."""

    events: list[ev.Event]
    report: InterchangeReport
    places: dict[str, int] = msgspec.field(default_factory=dict)
    """Player id → the place goledger's own file states (:mod:`goledger.formats.carried`)."""


def extra_key(element: str, attribute: str) -> str:
    """The ``TournamentSettings.extras`` key of a verbatim attribute."""
    return f"opengotha.{element}.{attribute}"


def _where(el: etree._Element, label: str = "") -> str:
    line = f"line {el.sourceline}" if el.sourceline else ""
    return ", ".join(part for part in (line, label) if part)


class _Tally:
    """Collects repetitive notes (one per player…) into one report entry per message."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, str, str], list[str]] = defaultdict(list)

    def add(self, severity: str, kind: str, message: str, where: str) -> None:
        self.items[(severity, kind, message)].append(where)

    def flush(self, report: InterchangeReport) -> None:
        for (severity, kind, message), wheres in self.items.items():
            shown = "; ".join(wheres[:5]) + (f"; … {len(wheres) - 5} more" if len(wheres) > 5 else "")
            count = f" ({len(wheres)} times)" if len(wheres) > 1 else ""
            report.add(severity, kind, message + count, shown)  # type: ignore[arg-type]


class _Reader:
    def __init__(self, root: etree._Element, report: InterchangeReport, source: str) -> None:
        self.root = root
        self.report = report
        self.source = source
        self.tally = _Tally()
        self.extras: dict[str, str] = {}
        self.data_version: int | None = None
        self.keys = KeyIndex()
        self.players: list[dict[str, Any]] = []
        self.placeholders: dict[str, str] = {}

    # ------------------------------------------------------------------ attribute helpers

    def _first(self, tag: str, parent: etree._Element | None = None) -> etree._Element | None:
        found = list((parent if parent is not None else self.root).iter(tag))
        if len(found) > 1:
            self.report.warning(
                "inconsistency", f"{len(found)} <{tag}> elements; only the first is used, as OpenGotha does",
                _where(found[1]),
            )
        return found[0] if found else None

    def _attrs(
        self, el: etree._Element | None, element: str, defaults: dict[str, str], known: frozenset[str]
    ) -> dict[str, str]:
        """The element's attributes over the reader defaults; reports missing and unknown ones
        (unknown ones are kept in extras)."""
        values = dict(defaults)
        present = dict(el.attrib) if el is not None else {}
        missing = [name for name in defaults if name not in present]
        if el is None:
            self.report.info(
                "default", f"no <{element}>: OpenGotha's defaults recorded for its {len(defaults)} values", element
            )
        elif missing:
            shown = ", ".join(f"{name}={defaults[name]}" for name in missing)
            self.report.info("default", f"<{element}> lacks {shown}: reader defaults recorded", _where(el))
        for name, value in present.items():
            values[name] = value
            if name not in known and name not in defaults:
                self.extras[extra_key(element, name)] = value
                self.report.warning(
                    "unmapped", f"unknown attribute {name}={value!r} of <{element}> kept verbatim, not interpreted",
                    _where(el),
                )
        return values

    def _int(self, values: dict[str, str], name: str, element: str, where: str, default: int) -> int:
        parsed = ogv.parse_int(values[name])
        if parsed is None:
            self.extras[extra_key(element, name)] = values[name]
            self.report.warning(
                "normalised", f"{element}/@{name}={values[name]!r} is not a number; {default} recorded "
                "(the text is kept for export)", where,
            )
            return default
        if str(parsed) != values[name]:
            self.report.info("normalised", f"{element}/@{name}={values[name]!r} read as {parsed}", where)
        return parsed

    def _bool(self, values: dict[str, str], name: str, element: str, where: str) -> bool:
        text = values[name]
        parsed = ogv.java_bool(text)
        if text not in ("true", "false"):
            self.report.info("normalised", f"{element}/@{name}={text!r} read as {str(parsed).lower()}", where)
        return parsed

    def _rank(self, values: dict[str, str], name: str, element: str, where: str) -> str:
        text = values[name]
        value = ogv.og_rank(text)
        if value is None:
            self.extras[extra_key(element, name)] = text
            self.report.warning(
                "normalised", f"{element}/@{name}={text!r} is not a rank; OpenGotha reads 30K", where
            )
            return "30k"
        written = ogv.rank_text(value)
        if text.strip().upper() != written:
            self.extras[extra_key(element, name)] = text
            self.report.info("normalised", f"{element}/@{name}={text!r} read as {written} (text kept)", where)
        elif text != written:
            self.tally.add("info", "normalised", "rank text in lower case or padded (read case-insensitively)",
                           f"{element}/@{name}")
        return ogv.canonical_rank(value)

    # ------------------------------------------------------------------ the file

    def read(self) -> list[ev.Event]:
        root = self.root
        if root.tag != "Tournament":
            tag = root.tag if isinstance(root.tag, str) else "?"
            raise FormatError(
                f"{self.source} is not an OpenGotha tournament file: its root element is <{tag}>, not <Tournament>"
            )
        self._scan_elements()
        self._root_attributes()
        self.report.dialect = self._dialect()
        settings_parts = self._settings()
        self._players()
        games = self._games()
        byes = self._byes()
        teams = self._teams()
        rounds = self._rounds(settings_parts["rounds"], games, byes)
        settings_parts["rounds"] = rounds
        settings = ev.TournamentSettings(**settings_parts, extras=dict(sorted(self.extras.items())))
        absences = self._absences(rounds)
        self._consistency(games, byes, absences)
        events = self._events(settings, absences, teams, games, byes)
        self.tally.flush(self.report)
        return events

    def _scan_elements(self) -> None:
        unknown: dict[str, list[str]] = defaultdict(list)
        texts: list[str] = []
        for el in self.root.iter():
            if not isinstance(el.tag, str):
                continue
            if el.tag not in KNOWN_ELEMENTS:
                unknown[el.tag].append(_where(el))
            if el.text and el.text.strip():
                texts.append(f"<{el.tag}> {_where(el)}")
        for tag, wheres in unknown.items():
            self.report.warning(
                "unmapped", f"unknown element <{tag}> not mapped ({len(wheres)} found)", "; ".join(wheres[:5])
            )
        if texts:
            self.report.info("unmapped", "text inside elements ignored (OpenGotha keeps everything in attributes)",
                             "; ".join(texts[:5]))

    def _root_attributes(self) -> None:
        for name, value in self.root.attrib.items():
            if name == "dataVersion":
                self.data_version = ogv.parse_int(value)
                if self.data_version is None:
                    self.report.warning("normalised", f"dataVersion={value!r} is not a number; read as 201",
                                        _where(self.root))
                continue
            self.extras[extra_key("Tournament", name)] = value
            if name not in ROOT_ATTRIBUTES:
                self.report.warning("unmapped", f"unknown attribute {name}={value!r} of <Tournament> kept verbatim",
                                    _where(self.root))
        if self.data_version is not None and self.data_version < 201:
            self.report.warning(
                "normalised", f"dataVersion {self.data_version}: ratings are on the old scale; +2050 added to each "
                "(capped at 2949), as OpenGotha does", _where(self.root),
            )

    def _dialect(self) -> str:
        root = self.root
        names = list(root.attrib)
        wrapper = any(el.get("player") is None and len(el) for el in root.iter("ByePlayer"))
        if (names[-1:] == ["dataVersion"] and "fullVersionNumber" in names) or wrapper:
            return "pairgoth export"
        version = root.get("fullVersionNumber")
        if version is None and root.get("gothaVersion"):
            major = root.get("gothaVersion", "")
            version = f"{major[:1]}.{major[1:]}.{root.get('gothaMinorVersion', '0').zfill(2)}"
        return f"OpenGotha {version}" if version else "OpenGotha (version not stated)"

    # ------------------------------------------------------------------ parameters

    def _settings(self) -> dict[str, Any]:
        tps = self._first("TournamentParameterSet")
        if tps is None:
            self.report.warning("default", "no <TournamentParameterSet>: OpenGotha's reader defaults recorded",
                                "Tournament")
        gen_el = self._first("GeneralParameterSet")
        gen = self._attrs(gen_el, "GeneralParameterSet", ogv.GENERAL_DEFAULTS, GENERAL_MAPPED)
        where = _where(gen_el) if gen_el is not None else "GeneralParameterSet"
        g = "GeneralParameterSet"
        parts: dict[str, Any] = {
            "name": gen["name"],
            "short_name": gen["shortName"],
            "location": gen["location"],
            "director": gen["director"],
            "begin_date": gen.get("beginDate", ""),
            "end_date": gen.get("endDate", ""),
        }
        for name in ("beginDate", "endDate"):
            if gen_el is not None and gen_el.get(name) is None:
                self.report.info("default", f"<{g}> lacks {name}: left empty (OpenGotha would use today)", where)
        begin, end = parts["begin_date"], parts["end_date"]
        if begin and end and end < begin:
            self.report.info("inconsistency", f"the tournament ends ({end}) before it begins ({begin})", where)
        if gen_el is not None and gen_el.get("bInternet") is None and gen_el.get("bInternetGame") is not None:
            gen["bInternet"] = gen["bInternetGame"]
            self.report.info("normalised", "bInternetGame (OpenGotha 3.51.05+) read as bInternet", where)
        parts["internet"] = self._bool(gen, "bInternet", g, where)
        for name in GENERAL_KEPT:
            if name in gen:
                self.extras[extra_key(g, name)] = gen[name]
        if gen_el is not None and gen_el.get("basicTime") is None and gen.get("time") is not None:
            gen["basicTime"] = gen["time"]
            self.report.info("normalised", "legacy time attribute read as basicTime", where)
        system_text = gen["complementaryTimeSystem"]
        time_system = ogv.TIME_SYSTEMS.get(system_text)
        if time_system is None:
            self.extras[extra_key(g, "complementaryTimeSystem")] = system_text
            self.report.warning("normalised", f"complementaryTimeSystem={system_text!r} unknown; canadian recorded",
                                where)
            time_system = "canadian"
        parts["time"] = ev.TimeSettings(
            basic_minutes=self._int(gen, "basicTime", g, where, 60),
            system=time_system,  # type: ignore[arg-type]
            byo_yomi_seconds=self._int(gen, "stdByoYomiTime", g, where, 30),
            canadian_stones=self._int(gen, "nbMovesCanTime", g, where, 15),
            canadian_seconds=self._int(gen, "canByoYomiTime", g, where, 300),
            fischer_seconds=self._int(gen, "fischerTime", g, where, 10),
        )
        parts["board_size"] = self._int(gen, "size", g, where, 19)
        parts["komi"] = gen["komi"]
        parts["rounds"] = self._int(gen, "numberOfRounds", g, where, 5)
        if parts["rounds"] > LEDGER_MAX_ROUNDS:
            self.extras[extra_key(g, "numberOfRounds")] = gen["numberOfRounds"]
            self.report.error("invalid", f"numberOfRounds {parts['rounds']} is beyond the {LEDGER_MAX_ROUNDS} "
                              f"rounds a goledger tournament holds; {MAX_ROUNDS} recorded (the text is kept)", where)
            parts["rounds"] = MAX_ROUNDS
        elif not 1 <= parts["rounds"] <= MAX_ROUNDS:
            self.report.warning("inconsistency", f"numberOfRounds {parts['rounds']} is outside OpenGotha's 1..20",
                                where)
            parts["rounds"] = max(1, parts["rounds"])
        parts["mm_floor"] = self._rank(gen, "genMMFloor", g, where)
        parts["mm_bar"] = self._rank(gen, "genMMBar", g, where)
        parts["mm_zero"] = self._rank(gen, "genMMZero", g, where)
        if ogv.og_rank(parts["mm_zero"]) != ogv.og_rank("30K"):
            self.report.warning(
                "inconsistency", f"genMMZero {gen['genMMZero']}: OpenGotha 3.51.02 ignores it and starts McMahon "
                "scores from 30K, and so does the opengotha policy (quirk_mm_zero_30k); other policies use "
                f"{parts['mm_zero']} (the file's value is kept for export)", where)
        parts["nbw2_absent"] = self._int(gen, "genNBW2ValueAbsent", g, where, 0)
        parts["nbw2_bye"] = self._int(gen, "genNBW2ValueBye", g, where, 0)
        parts["mms2_absent"] = self._int(gen, "genMMS2ValueAbsent", g, where, 0)
        parts["mms2_bye"] = self._int(gen, "genMMS2ValueBye", g, where, 0)
        parts["round_down"] = self._bool(gen, "genRoundDownNBWMMS", g, where)
        parts["not_played_as_half"] = self._bool(gen, "genCountNotPlayedGamesAsHalfPoint", g, where)
        parts["category_limits"] = self._categories(gen, where)
        parts["handicap"] = self._handicap()
        criteria, system = self._criteria()
        parts["criteria"] = criteria
        parts["system"] = system
        parts["policy"] = "opengotha"
        parts["pairing"] = self._pairing()
        self._verbatim_set("DPParameterSet", ogv.DP_DEFAULTS)
        self._verbatim_set("PublishParameterSet", ogv.PUBLISH_DEFAULTS)
        self._team_parameters()
        self._clubs_groups()
        return parts

    def _categories(self, gen: dict[str, str], where: str) -> tuple[str, ...]:
        declared = self._int(gen, "numberOfCategories", "GeneralParameterSet", where, 1)
        found: list[tuple[int, str]] = []
        for el in self.root.iter("Category"):
            number = ogv.parse_int(el.get("number", "1")) or 1
            limit = self._rank({"lowerLimit": el.get("lowerLimit", "30K")}, "lowerLimit", "Category", _where(el))
            found.append((number, limit))
        limits = tuple(limit for _, limit in sorted(found))
        if declared != len(limits) + 1:
            self.extras[extra_key("GeneralParameterSet", "numberOfCategories")] = gen["numberOfCategories"]
            self.report.warning(
                "inconsistency", f"numberOfCategories is {declared} but the file has {len(limits)} category "
                f"limit(s); the limits are recorded and the declared number kept for export", where,
            )
        return limits

    def _handicap(self) -> ev.HandicapSettings:
        el = self._first("HandicapParameterSet")
        h = "HandicapParameterSet"
        values = self._attrs(el, h, ogv.HANDICAP_DEFAULTS, frozenset({"hdBase"}))
        where = _where(el) if el is not None else h
        if el is not None and el.get("hdBasedOnMMS") is None and el.get("hdBase") is not None:
            values["hdBasedOnMMS"] = "true" if el.get("hdBase", "").upper() == "MMS" else "false"
            self.report.info("normalised", f"hdBase={el.get('hdBase')!r} (OpenGotha 3.51.05+) read as hdBasedOnMMS",
                             where)
        ceiling = self._int(values, "hdCeiling", h, where, 9)
        if not 0 <= ceiling <= 9:
            self.report.warning("inconsistency", f"hdCeiling {ceiling} is outside 0..9", where)
        return ev.HandicapSettings(
            based_on_mms=self._bool(values, "hdBasedOnMMS", h, where),
            no_handicap_threshold=self._rank(values, "hdNoHdRankThreshold", h, where),
            correction=self._int(values, "hdCorrection", h, where, 1),
            ceiling=ceiling,
        )

    def _criterion_slots(self, container: str, names: frozenset[str]) -> list[tuple[str, str]] | None:
        """(raw name, meaning) per slot of the first ``container``, in number order."""
        parent = self._first(container)
        if parent is None:
            return None
        slots: list[tuple[int, int, str, etree._Element]] = []
        for order, el in enumerate(parent.iter("PlacementCriterion")):
            number = ogv.parse_int(el.get("number", "1"))
            slots.append((number if number is not None else 99, order, el.get("name", "NULL"), el))
        slots.sort(key=lambda s: (s[0], s[1]))
        numbers = [s[0] for s in slots]
        if numbers != list(range(1, len(slots) + 1)) or len(slots) != 6:
            self.report.warning(
                "inconsistency", f"<{container}> numbers its criteria {numbers} instead of 1..6", _where(parent)
            )
        out: list[tuple[str, str]] = []
        for _, _, raw, el in slots:
            meaning = raw
            if raw == "NULL" or raw in names:
                pass
            elif raw in PAIRGOTH_NAMES and names is OPENGOTHA_NAMES:
                meaning = PAIRGOTH_NAMES[raw]
                self.report.warning(
                    "normalised", f"criterion {raw!r} (pairgoth's name) read as {meaning}; OpenGotha reads it as NULL",
                    _where(el),
                )
            else:
                meaning = "NULL"
                self.report.warning("unmapped", f"unknown criterion {raw!r} read as NULL, as OpenGotha does",
                                    _where(el))
            out.append((raw, meaning))
        return out

    def _criteria(self) -> tuple[tuple[str, ...], str]:
        slots = self._criterion_slots("PlacementParameterSet", OPENGOTHA_NAMES)
        if slots is None:
            self.report.warning("default", "no <PlacementParameterSet>: no placement criteria recorded",
                                "TournamentParameterSet")
            slots = []
        criteria = tuple(meaning for _, meaning in slots if meaning != "NULL")
        raw = [name for name, _ in slots]
        canonical = list(criteria) + ["NULL"] * (6 - len(criteria))
        if raw != canonical:
            self.extras[extra_key("PlacementParameterSet", "criteria")] = ",".join(raw)
        first = criteria[0] if criteria else "NULL"
        system = ogv.SYSTEM_OF_FIRST_CRITERION.get(first)
        if system is None:
            self.report.info("default", f"first criterion {first} does not name a system; mcmahon recorded",
                             "PlacementParameterSet")
            system = "mcmahon"
        return criteria, system

    def _pairing(self) -> dict[str, str]:
        el = self._first("PairingParameterSet")
        known = frozenset({"paiSePreferMMSDiffRatherThanSameClubsGroup"})
        values = self._attrs(el, "PairingParameterSet", ogv.PAIRING_DEFAULTS, known)
        for name in values:
            self.extras.pop(extra_key("PairingParameterSet", name), None)
        return dict(sorted(values.items()))

    def _verbatim_set(self, element: str, defaults: dict[str, str]) -> None:
        el = self._first(element)
        values = self._attrs(el, element, defaults, frozenset(defaults) | _LEGACY.get(element, frozenset()))
        for name, value in values.items():
            self.extras[extra_key(element, name)] = value

    def _team_parameters(self) -> None:
        el = self._first("TeamGeneralParameterSet")
        values = self._attrs(el, "TeamGeneralParameterSet", {"teamSize": "4"}, frozenset({"teamSize"}))
        for name, value in values.items():
            self.extras[extra_key("TeamGeneralParameterSet", name)] = value
        slots = self._criterion_slots("TeamPlacementParameterSet", ogv.TEAM_CRITERION_NAMES)
        if slots is None:
            raw = list(ogv.TEAM_CRITERIA_DEFAULT)
            self.report.info("default", "no <TeamPlacementParameterSet>: OpenGotha's default team criteria recorded",
                             "TeamTournamentParameterSet")
        else:
            raw = [name for name, _ in slots]
        self.extras[extra_key("TeamPlacementParameterSet", "criteria")] = ",".join(raw)

    def _clubs_groups(self) -> None:
        groups = [
            [group.get("name", ""), [club.get("name", "") for club in group.iter("Club")]]
            for group in self.root.iter("ClubsGroup")
        ]
        if groups:
            self.extras[extra_key("ClubsGroups", "groups")] = json.dumps(groups, ensure_ascii=False)

    # ------------------------------------------------------------------ players

    def _players(self) -> None:
        shift = self.data_version is not None and self.data_version < 201
        for number, el in enumerate(self.root.iter("Player"), start=1):
            self.report.count_read("players")
            attrs = dict(el.attrib)
            name, first = attrs.get("name", ""), attrs.get("firstName", "")
            where = _where(el, f"player {number} {name} {first}".rstrip())
            extras: dict[str, str] = {}
            if not name or not first:
                self.report.warning("inconsistency", "empty name or first name (OpenGotha refuses such a player)",
                                    where)
            rank_raw = attrs.get("rank", "30K")
            rank_value = ogv.og_rank(rank_raw)
            if rank_value is None:
                rank_value = ogv.RANK_MIN
                extras[PLAYER_EXTRA + "rank"] = rank_raw
                self.report.warning("normalised", f"rank {rank_raw!r} is not a rank; OpenGotha reads 30K (text kept)",
                                    where)
            elif rank_raw.strip().upper() != ogv.rank_text(rank_value):
                extras[PLAYER_EXTRA + "rank"] = rank_raw
                self.tally.add("info", "normalised", f"rank {rank_raw} read as {ogv.rank_text(rank_value)}, as "
                               "OpenGotha does (text kept)", where)
            elif rank_raw != ogv.rank_text(rank_value):
                self.tally.add("info", "normalised", "rank text in lower case or padded (read case-insensitively)",
                               where)
            if "rank" not in attrs:
                self.report.info("default", "player without rank: 30K recorded (reader default)", where)
            grade = attrs.get("grade")
            pro = _professional(grade, rank_value)
            if pro:
                self.tally.add("info", "normalised", f"grade {grade} read as the professional rank {pro} (OpenGotha "
                               f"ranks it {ogv.rank_text(rank_value)}, as goledger does)", where)
            if not grade:
                grade = ogv.rank_text(rank_value)
                self.tally.add("info", "default", "no grade: the rank recorded as grade, as OpenGotha does", where)
            rating = self._rating(attrs, extras, where, shift)
            origin_raw = attrs.get("ratingOrigin", "")
            origin = origin_raw.split(" : ", 1)[0]
            if origin != origin_raw:
                extras[PLAYER_EXTRA + "ratingOrigin"] = origin_raw
                self.tally.add("info", "normalised", "ratingOrigin with the raw rating appended: prefix recorded "
                               "(text kept)", where)
            club = attrs.get("club", "")
            if len(club) > 4:
                self.tally.add("warning", "inconsistency", "club longer than 4 characters (OpenGotha keeps the "
                               "first 4 on load; recorded whole)", where)
            correction_raw = attrs.get("smmsCorrection", "0")
            correction = ogv.parse_int(correction_raw)
            if correction is None:
                extras[PLAYER_EXTRA + "smmsCorrection"] = correction_raw
                self.report.warning("normalised", f"smmsCorrection {correction_raw!r} is not a number; 0 recorded",
                                    where)
                correction = 0
            elif not -1 <= correction <= 2:
                self.report.warning("inconsistency", f"smmsCorrection {correction} is outside -1..2", where)
            status_raw = attrs.get("registeringStatus", "FIN")
            status = "preliminary" if status_raw == "PRE" else "final"
            if status_raw not in ("FIN", "PRE"):
                extras[PLAYER_EXTRA + "registeringStatus"] = status_raw
                self.report.warning("normalised", f"registeringStatus {status_raw!r} read as FIN (text kept)", where)
            ids = {key: attrs[attr] for attr, key in PLAYER_IDS.items() if attrs.get(attr)}
            for attr, value in attrs.items():
                if attr == "userName":
                    extras[PLAYER_EXTRA + attr] = value
                elif attr not in PLAYER_ATTRIBUTES:
                    extras[PLAYER_EXTRA + attr] = value
                    self.report.warning("unmapped", f"unknown player attribute {attr}={value!r} kept verbatim", where)
            player_id = f"p{number:04d}"
            earlier = self.keys.add(name, first, player_id)
            if earlier is not None:
                self.report.warning(
                    "inconsistency", f"same key as {earlier} (OpenGotha refuses homonyms); references go to {earlier}",
                    where,
                )
            self.players.append({
                "el": el, "where": where, "participating": attrs.get("participating"),
                "event": dict(
                    player_id=player_id, surname=name, first_name=first, rank=pro or ogv.canonical_rank(rank_value),
                    grade=grade, rating=rating, rating_origin=origin, country=attrs.get("country", ""), club=club,
                    egd_pin=attrs.get("egfPin", ""), status=status, mm_correction=correction, ids=ids,
                    start_number=number, extras=extras,
                ),
            })

    def _rating(self, attrs: dict[str, str], extras: dict[str, str], where: str, shift: bool) -> int | None:
        raw = attrs.get("rating")
        if raw is None:
            self.report.info("default", "player without rating: -900 recorded (reader default)", where)
            return -900
        rating = ogv.parse_int(raw)
        if rating is None:
            extras[PLAYER_EXTRA + "rating"] = raw
            self.report.warning("normalised", f"rating {raw!r} is not an integer; no rating recorded (text kept)",
                                where)
            return None
        if shift:
            rating = min(rating + 2050, 2949)
        if not -900 <= rating <= 2949:
            clamped = max(-900, min(2949, rating))
            self.tally.add("warning", "inconsistency", "rating outside -900..2949: the file's value recorded "
                           "(OpenGotha clamps it on load)", f"{where}: {rating} → {clamped}")
        return rating

    # ------------------------------------------------------------------ references

    def _resolve(self, ref: str, where: str, what: str) -> str:
        match = self.keys.resolve(ref)
        if match is not None:
            if match.step == "normalised":
                self.tally.add("info", "normalised", "player reference not upper-cased or with spaces: matched after "
                               "removing spaces and upper-casing", where)
            elif match.step == "turkish":
                self.tally.add("info", "normalised", "player reference written by a Turkish-locale OpenGotha (İ): "
                               "matched after folding İ/ı to I", where)
            elif match.step == "obsolete":
                self.report.warning("normalised", f"{what} {ref!r} matched only by OpenGotha's obsolete A-Z key "
                                    "form", where)
            return match.player_id
        if ref in self.placeholders:
            player_id = self.placeholders[ref]
        else:
            player_id = f"p{len(self.players) + len(self.placeholders) + 1:04d}"
            self.placeholders[ref] = player_id
        reason = "matches several players" if self.keys.is_ambiguous(ref) else "matches no player"
        self.report.error("unresolved", f"{what} {ref!r} {reason}", where)
        return player_id

    # ------------------------------------------------------------------ games, byes, teams

    def _games(self) -> list[dict[str, Any]]:
        games: list[dict[str, Any]] = []
        for el in self.root.iter("Game"):
            self.report.count_read("games")
            attrs = dict(el.attrib)
            round_raw, table_raw = attrs.get("roundNumber", "1"), attrs.get("tableNumber", "1")
            where = _where(el, f"round {round_raw} table {table_raw}")
            extras = {GAME_EXTRA + attr: value for attr, value in attrs.items() if attr not in GAME_ATTRIBUTES}
            for key, value in extras.items():
                self.report.warning("unmapped", f"unknown game attribute {key.removeprefix(GAME_EXTRA)}={value!r} "
                                    "kept verbatim, not interpreted", where)
            round_ = ogv.parse_int(round_raw)
            if round_ is None or not 1 <= round_ <= LEDGER_MAX_ROUNDS:
                self.report.error("invalid", f"game with round number {round_raw!r} cannot be recorded", where)
                continue
            table = ogv.parse_int(table_raw)
            if table is None or table < 1:
                self.report.warning("normalised", f"table number {table_raw!r} is not a positive number; the game "
                                    "gets the next free table of its round", where)
                table = None
            white = self._resolve(attrs.get("whitePlayer", ""), where, "white player")
            black = self._resolve(attrs.get("blackPlayer", ""), where, "black player")
            if white == black:
                self.report.warning("inconsistency", "a player is paired against himself", where)
            hd_raw = attrs.get("handicap", "0")
            handicap = ogv.parse_int(hd_raw)
            if handicap is None or not 0 <= handicap <= 9:
                clamped = 0 if handicap is None else max(0, min(9, handicap))
                self.report.warning("normalised", f"handicap {hd_raw!r} read as {clamped}, as OpenGotha does", where)
                handicap = clamped
            known_raw = attrs.get("knownColor", "true")
            if known_raw not in ("true", "false"):
                self.report.info("normalised", f"knownColor {known_raw!r} read as {ogv.java_bool(known_raw)}", where)
            code = attrs.get("result", "RESULT_UNKNOWN")
            meaning = ogv.parse_result(code)
            if meaning is None and code in ogv.PAIRGOTH_RESULT_CODES:
                meaning = ogv.PAIRGOTH_RESULT_CODES[code]
                self.report.warning("normalised", f"result {code} (pairgoth's spelling) read as both lose; OpenGotha "
                                    "reads it as unknown", where)
            elif meaning is None:
                meaning = ("unknown", False)
                self.report.warning("unmapped", f"result {code!r} is not an OpenGotha result code; no result "
                                    "recorded (OpenGotha reads it as unknown)", where)
            games.append(dict(
                round=round_, table=table, white=white, black=black, handicap=handicap,
                color_known=ogv.java_bool(known_raw), result=meaning[0], by_default=meaning[1], where=where,
                extras=extras,
            ))
        self._number_tables(games)
        games.sort(key=lambda g: (g["round"], g["table"]))
        return games

    def _number_tables(self, games: list[dict[str, Any]]) -> None:
        used: dict[int, set[int]] = defaultdict(set)
        for game in games:
            if game["table"] is not None:
                used[game["round"]].add(game["table"])
        taken: dict[int, set[int]] = defaultdict(set)
        for game in games:
            round_, table = game["round"], game["table"]
            if table is not None and table not in taken[round_]:
                taken[round_].add(table)
                continue
            new = max(used[round_] | taken[round_], default=0) + 1
            used[round_].add(new)
            taken[round_].add(new)
            if table is not None:
                self.report.warning("inconsistency", f"table {table} of round {round_} used twice (OpenGotha keeps "
                                    f"only the last game); this game recorded at table {new}", game["where"])
            game["table"] = new

    def _byes(self) -> list[dict[str, Any]]:
        byes: list[dict[str, Any]] = []
        seen: dict[tuple[int, str], str] = {}
        per_round: dict[int, list[str]] = defaultdict(list)
        for el in self.root.iter("ByePlayer"):
            ref = el.get("player")
            if ref is None:
                if len(el):
                    self.report.info("normalised", "<ByePlayer> used as the container of byes (pairgoth export)",
                                     _where(el))
                else:
                    self.report.warning("unmapped", "<ByePlayer> without player ignored, as OpenGotha does",
                                        _where(el))
                continue
            self.report.count_read("byes")
            round_raw = el.get("roundNumber", "1")
            where = _where(el, f"bye round {round_raw}")
            round_ = ogv.parse_int(round_raw)
            if round_ is None or not 1 <= round_ <= LEDGER_MAX_ROUNDS:
                self.report.error("invalid", f"bye with round number {round_raw!r} cannot be recorded", where)
                continue
            player_id = self._resolve(ref, where, "bye player")
            if (round_, player_id) in seen:
                self.report.warning("inconsistency", f"{ref} has the bye of round {round_} twice; recorded once",
                                    where)
                continue
            seen[(round_, player_id)] = ref
            per_round[round_].append(ref)
            byes.append(dict(round=round_, player_id=player_id, where=where))
        for round_, refs in per_round.items():
            if len(refs) > 1:
                self.report.warning(
                    "inconsistency", f"round {round_} has {len(refs)} bye players ({', '.join(refs)}); OpenGotha keeps "
                    f"only the last ({refs[-1]}); all are recorded", f"round {round_}",
                )
        byes.sort(key=lambda b: b["round"])
        return byes

    def _teams(self) -> list[dict[str, Any]]:
        teams: list[dict[str, Any]] = []
        names: dict[str, str] = {}
        for index, el in enumerate(self.root.iter("Team"), start=1):
            self.report.count_read("teams")
            number = ogv.parse_int(el.get("teamNumber", "1"))
            name = el.get("teamName", "Unnamed team")
            where = _where(el, f"team {name}")
            key = name_key(name)
            if key in names:  # compared as player names are: one team printed twice
                self.report.error("duplicate", f"team {name!r} has the name of team {names[key]!r} (they differ "
                                  "only in case, accents' encoding, letter width or invisible characters); not "
                                  "recorded", where)
                continue
            names[key] = name
            members: list[dict[str, Any]] = []
            for board_el in el.iter("Board"):
                self.report.count_read("team_boards")
                b_where = _where(board_el, f"team {name}")
                round_raw = board_el.get("roundNumber", "0")
                round_ = ogv.parse_int(round_raw)
                board = ogv.parse_int(board_el.get("boardNumber", "1"))
                if round_ is None or not 0 <= round_ <= LEDGER_MAX_ROUNDS or board is None or board < 1:
                    self.report.error("invalid", f"board {board_el.get('boardNumber')!r} of round {round_raw!r} "
                                      "cannot be recorded", b_where)
                    continue
                player_id = self._member(board_el.get("player", ""), name, board, round_, b_where)
                if player_id is not None:
                    members.append(dict(player_id=player_id, board=board, round=round_ or None))
            members.sort(key=lambda m: (m["round"] or 0, m["board"]))
            teams.append(dict(team_id=f"t{index:03d}", name=name, number=number, members=members, where=where))
        stray = [b for b in self.root.iter("Board") if b.getparent() is None or b.getparent().tag != "Team"]
        for board_el in stray:
            self.report.warning("unmapped", "<Board> outside a <Team> not mapped", _where(board_el))
        return teams

    def _member(self, ref: str, team: str, board: int, round_: int, where: str) -> str | None:
        """The player a team board names, or ``None``: a reference that matches no player (nor
        the placeholder of a game) is dropped with a warning, and the team keeps that board
        empty, as OpenGotha loads such a file and shows it (issue 40, item 7)."""
        if self.keys.resolve(ref) is not None or ref in self.placeholders:
            return self._resolve(ref, where, "team member")
        reason = "matches several players" if self.keys.is_ambiguous(ref) else "matches no player"
        rounds = f"round {round_}" if round_ else "every round"
        self.report.warning("dropped", f"team {team!r} board {board} ({rounds}): member {ref!r} {reason}; the "
                            "board is left empty, as OpenGotha shows it", where)
        return None

    def _rounds(self, declared: int, games: list[dict[str, Any]], byes: list[dict[str, Any]]) -> int:
        """OpenGotha grows ``numberOfRounds`` to the last round with a game or a bye (team
        boards, written for all 20 possible rounds, do not count)."""
        used = [g["round"] for g in games] + [b["round"] for b in byes]
        highest = max(used, default=0)
        if highest > declared:
            self.report.warning("inconsistency", f"numberOfRounds is {declared} but round {highest} is used; "
                                f"{highest} rounds recorded, as OpenGotha does", "GeneralParameterSet")
            return highest
        return declared

    # ------------------------------------------------------------------ participation

    def _absences(self, rounds: int) -> dict[str, list[int]]:
        absences: dict[str, list[int]] = {}
        for player in self.players:
            raw = player["participating"]
            event = player["event"]
            if raw is None:
                continue
            absent = [r for r in range(1, rounds + 1) if r <= len(raw) and raw[r - 1] == "0"]
            if absent:
                absences[event["player_id"]] = absent
            if raw != participating_text(absent, rounds, None):
                event["extras"][PLAYER_EXTRA + "participating"] = raw
        return absences

    def _consistency(self, games: list[dict[str, Any]], byes: list[dict[str, Any]],
                     absences: dict[str, list[int]]) -> None:
        absent = {(pid, r) for pid, rounds in absences.items() for r in rounds}
        paired: dict[tuple[str, int], str] = {}
        names = {p["event"]["player_id"]: f"{p['event']['surname']} {p['event']['first_name']}" for p in self.players}
        preliminary = {p["event"]["player_id"] for p in self.players if p["event"]["status"] == "preliminary"}
        for game in games:
            for pid in (game["white"], game["black"]):
                key = (pid, game["round"])
                who = names.get(pid, pid)
                if pid in preliminary:
                    self.tally.add("info", "inconsistency", "a preliminary (PRE) player is paired", game["where"])
                if key in paired and game["white"] != game["black"]:
                    self.report.warning("inconsistency", f"{who} plays twice in round {game['round']}", game["where"])
                paired.setdefault(key, game["where"])
                if key in absent:
                    self.report.warning("inconsistency", f"{who} is paired in round {game['round']} where the file "
                                        "marks him absent", game["where"])
        for bye in byes:
            key = (bye["player_id"], bye["round"])
            who = names.get(bye["player_id"], bye["player_id"])
            if key in paired:
                self.report.warning("inconsistency", f"{who} has the bye of round {bye['round']} and a game in it",
                                    bye["where"])
            if key in absent:
                self.report.warning("inconsistency", f"{who} has the bye of round {bye['round']} where the file "
                                    "marks him absent", bye["where"])

    # ------------------------------------------------------------------ events

    def _events(self, settings: ev.TournamentSettings, absences: dict[str, list[int]],
                teams: list[dict[str, Any]], games: list[dict[str, Any]],
                byes: list[dict[str, Any]]) -> list[ev.Event]:
        report = self.report
        events: list[ev.Event] = [ev.TournamentCreated(settings=settings)]
        body: list[ev.Event] = []
        for player in self.players:
            body.append(ev.PlayerRegistered(**player["event"]))
            report.count_recorded("players")
        for ref, player_id in self.placeholders.items():
            body.append(ev.PlayerRegistered(
                player_id=player_id, surname=ref, rank="30k", grade="30K", status="preliminary",
                extras={PLAYER_EXTRA + "placeholder": "unresolved reference"},
            ))
            report.warning("placeholder", f"placeholder player {player_id} recorded for the unresolved reference "
                           f"{ref!r} so that its games are kept", ref)
        for player_id, rounds in absences.items():
            for round_ in rounds:
                body.append(ev.ParticipationChanged(player_id=player_id, round=round_, participating=False))
                report.count_read("absences")
                report.count_recorded("absences")
        for team in teams:
            body.append(ev.TeamRegistered(team_id=team["team_id"], name=team["name"], number=team["number"]))
            report.count_recorded("teams")
            for member in team["members"]:
                body.append(ev.TeamMemberAssigned(team_id=team["team_id"], **member))
                report.count_recorded("team_boards")
        by_round: dict[int, list[ev.Event]] = defaultdict(list)
        for bye in byes:
            by_round[bye["round"]].append(ev.ByeAssigned(round=bye["round"], player_id=bye["player_id"]))
            report.count_recorded("byes")
        for game in games:
            round_events = by_round[game["round"]]
            round_events.append(ev.GamePaired(
                round=game["round"], table=game["table"], white=game["white"], black=game["black"],
                handicap=game["handicap"], color_known=game["color_known"],
            ))
            report.count_recorded("games")
            if game["extras"]:
                round_events.append(ev.PairingAnnotated(round=game["round"], table=game["table"],
                                                        extras=game["extras"]))
            if game["result"] != "unknown":
                round_events.append(ev.ResultRecorded(
                    round=game["round"], table=game["table"], result=Result(game["result"]),
                    by_default=game["by_default"],
                ))
                report.count_read("results")
                report.count_recorded("results")
        for round_ in sorted(by_round):
            body.extend(by_round[round_])
        summary = {kind: c["recorded"] for kind, c in sorted(report.counts.items())}
        events.append(ev.SourceImported(format=FORMAT, filename=Path(self.source).name, sha256="", summary=summary))
        events.extend(body)
        return events


_LEGACY: Final = {
    "DPParameterSet": frozenset({"showPlayerRank"}),
    "PublishParameterSet": frozenset({"exportHFToOGSite", "exportTFToOGSite", "exportToUDSite", "exportToOGSite"}),
}
"""Legacy attributes of the display and publish sets (spec §7.5), kept verbatim."""


def participating_text(absent: list[int], rounds: int, raw: str | None) -> str:
    """The ``participating`` string for a player absent in ``absent`` rounds (spec §3).

    Without ``raw``, OpenGotha's form: 20 flags, ``0`` for each absent round. With the
    file's verbatim ``raw`` text, every flag that still means the same is kept as it was
    (flags past the last round, odd characters), so that an unchanged player writes back
    the same text.

    >>> participating_text([2], 3, None)
    '10111111111111111111'
    >>> participating_text([2], 3, "1101100000")
    '1011100000'
    """
    absent_set = set(absent)
    length = max(PARTICIPATING_LENGTH if raw is None else len(raw), rounds)
    out = []
    for i in range(length):
        is_absent = (i + 1) in absent_set and i < rounds
        old = raw[i] if raw is not None and i < len(raw) else None
        if old is not None and (i >= rounds or (old == "0") == is_absent):
            out.append(old)
        else:
            out.append("0" if is_absent else "1")
    return "".join(out)


def read_opengotha(data: bytes, *, source: str = "tournament.xml") -> ReadResult:
    """Read an OpenGotha save file (bytes) into events and an import report.

    Raises :class:`~goledger.errors.FormatError` when the bytes are not a well-formed,
    safe XML document whose root is ``<Tournament>``. Everything else is reported, not
    raised: whether errors refuse the import is the caller's decision (see
    :func:`goledger.formats.importing.write_new_ledger`).
    """
    report = InterchangeReport(format=FORMAT, source=source)
    notes: list[str] = []
    root = parse_xml(data, what=source, notes=notes, max_bytes=MAX_FILE_BYTES, kind=FILE_KIND)
    for note in notes:
        report.info("encoding", note)
    reader = _Reader(root, report, source)
    events = reader.read()
    imported = events[1]
    assert isinstance(imported, ev.SourceImported)
    events[1] = msgspec.structs.replace(imported, sha256=hashlib.sha256(data).hexdigest())

    carried = xml_carried(data)
    places: dict[str, int] = {}
    if carried:  # goledger's own file: its rules and places (issue 40, item 5)
        places = apply_carried(events, parse_carried(carried, report, "after </Tournament>"), report,
                               "after </Tournament>")
    return ReadResult(events=events, report=report, places=places)


def _professional(grade: str | None, rank_value: int) -> str:
    """The professional rank a player's grade names when OpenGotha's rank is the one it maps
    it to (``1P``–``3P`` → 7D, ``4P``–``6P`` → 8D, ``7P``–``9P`` → 9D), else ``""``: the
    pairing and McMahon values stay OpenGotha's, and a 3p stays a 3p (issue 40, item 5).

    >>> _professional("3P", 6), _professional(" 8p", 7), _professional("3P", 5), _professional("2D", 1)
    ('3p', '', '', '')
    """

    text = (grade or "").strip().lower()
    if not text.endswith("p"):
        return ""
    try:
        rank = Rank.parse(text)
    except RankError:
        return ""
    return str(rank) if rank.value == rank_value else ""
