"""Tournament state → OpenGotha XML bytes and an export report (spec
``formats/opengotha-xml.md`` §11.9).

The file is what OpenGotha 3.51 writes: UTF-8, ``dataVersion="201"`` (so that 3.51.02's
reader does not shift ratings), one element per line without indentation, attributes in
alphabetical order, every attribute of every set, ``Players`` and ``Games`` always
present, ``ByePlayers``/``Teams``/``ClubsGroups`` only when not empty, upper-case ranks,
20-character ``participating`` strings, 1-based rounds and tables.

Values come from the state; verbatim texts the reader kept in ``extras`` are written back
while they still mean the current value (``99K`` for a rank still read as 30K, ``FFG :
-131`` while the origin is still FFG, participation flags past the last round). The
parameter sets OpenGotha needs but the ledger does not interpret (pairing weights,
display and publish options, team parameters) are OpenGotha's defaults overlaid with the
values the ledger keeps. Whatever the state holds that OpenGotha cannot (per-round rule
changes, per-absence point values, withdrawals, FIDE criteria…) is listed in the report.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Final

from lxml import etree

from goledger.formats.carried import carried_lines, export_places, xml_comments
from goledger.formats.opengotha import values as ogv
from goledger.formats.opengotha.keys import player_key
from goledger.formats.opengotha.read import (
    FORMAT,
    GAME_EXTRA,
    MAX_ROUNDS,
    PLAYER_EXTRA,
    extra_key,
    participating_text,
)
from goledger.formats.report import InterchangeReport
from goledger.ledger.events import TimeSettings
from goledger.ledger.values import Rank, RankError
from goledger.outputs import shown
from goledger.replay.scoring.criteria.names import OPENGOTHA_INSTEAD, OPENGOTHA_NAMES, PAIRGOTH_NAMES
from goledger.teams.model import team_criteria, team_size

if TYPE_CHECKING:
    from collections.abc import Callable

    from goledger.replay.fold.state import PlayerState, TournamentState

__all__ = ["write_opengotha"]

DATA_VERSION: Final = "201"
DECLARATION: Final = b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'

_TIME_CODES: Final = {meaning: code for code, meaning in ogv.TIME_SYSTEMS.items()}
_PLAYER_COMPUTED: Final = frozenset({
    "rank", "rating", "ratingOrigin", "participating", "registeringStatus", "smmsCorrection", "placeholder",
})
_WRITTEN_ELEMENTS: Final = frozenset({
    "Tournament", "GeneralParameterSet", "HandicapParameterSet", "PlacementParameterSet", "PairingParameterSet",
    "DPParameterSet", "PublishParameterSet", "TeamGeneralParameterSet", "TeamPlacementParameterSet", "ClubsGroups",
})


def _element(parent: etree._Element | None, tag: str, attrs: dict[str, str]) -> etree._Element:
    """An element with its attributes in alphabetical order, one per line (OpenGotha's layout).
    A value an older ledger may hold with characters the domains refuse today (ESC, NUL, a
    bidi override: lxml refuses most of them) is written with those characters escaped
    (:func:`goledger.outputs.shown`, line breaks kept)."""
    ordered = {k: v if v.isprintable() else shown(v, keep_lines=True) for k, v in sorted(attrs.items())}
    el = etree.Element(tag, ordered) if parent is None else etree.SubElement(parent, tag, ordered)
    el.tail = "\n"
    return el


def _container(parent: etree._Element, tag: str) -> etree._Element:
    el = _element(parent, tag, {})
    el.text = "\n"
    return el


def _bool(value: bool) -> str:
    return "true" if value else "false"


_NO_OPENGOTHA_SYSTEM: dict[str, str] = {
    "knockout": "OpenGotha's Cup pairs every player in every round by cup score; a bracket that eliminates "
                "cannot be held",
    "double-knockout": "OpenGotha has no losers' bracket",
    "paramus": "OpenGotha pairs whole rounds, not a ladder of one game a round",
    "match": "OpenGotha has no match target",
    "handicap": "written as a Swiss tournament; the maximum rank difference is not held",
    "continuous-handicap": "OpenGotha has no tournament without rounds nor a cap of games per pair",
}
"""Tournament systems (``goledger.systems``) that an OpenGotha file cannot say, and why."""


class _Writer:
    def __init__(self, state: TournamentState, report: InterchangeReport) -> None:
        assert state.settings is not None
        self.state = state
        self.settings = state.settings
        self.extras = state.settings.extras
        self.report = report
        self.keys: dict[str, str] = {}

    # ------------------------------------------------------------------ helpers

    def _raw(self, element: str, name: str, current: str, means: Callable[[str], bool]) -> str:
        """The verbatim text kept for ``element/@name`` if it still means ``current``."""
        raw = self.extras.get(extra_key(element, name))
        return raw if raw is not None and means(raw) else current

    def _rank(self, element: str, name: str, rank: str) -> str:
        value = _rank_value(rank)
        return self._raw(element, name, ogv.rank_text(value), lambda raw: _means_rank(raw, value))

    def _number(self, element: str, name: str, number: int, default: int) -> str:
        """The number, or the unreadable text the reader kept while the value is still the
        default it recorded in its place."""
        return self._raw(element, name, str(number), lambda raw: ogv.parse_int(raw) is None and number == default)

    def _kept(self, element: str, computed: frozenset[str] = frozenset()) -> dict[str, str]:
        """Extras of ``element`` written back verbatim (those not computed from the state)."""
        prefix = f"opengotha.{element}."
        return {
            key[len(prefix):]: value
            for key, value in self.extras.items()
            if key.startswith(prefix) and key[len(prefix):] not in computed
        }

    # ------------------------------------------------------------------ document

    def write(self) -> bytes:
        root_attrs = self._kept("Tournament")
        root_attrs["dataVersion"] = DATA_VERSION
        root = _element(None, "Tournament", root_attrs)
        root.text = "\n"
        self._check_extras()
        self._players(_container(root, "Players"))
        self._games(_container(root, "Games"))
        self._byes(root)
        self._teams(root)
        self._parameters(_container(root, "TournamentParameterSet"))
        self._team_parameters(_container(root, "TeamTournamentParameterSet"))
        self._clubs_groups(root)
        root.tail = "\n"
        return DECLARATION + etree.tostring(root, encoding="UTF-8", xml_declaration=False) + self._carried()

    def _carried(self) -> bytes:
        """The rules behind the places and each player's place, in the order the file lists
        them, as comments after the root (:mod:`goledger.formats.carried`): OpenGotha files
        state no places, and reading the file back compares with these."""

        assert self.state.settings is not None
        order = list(self.state.players)
        lines = carried_lines(self.state.settings, places=export_places(self.state, order), state=self.state,
                              order=order)
        self.report.info("carried", "goledger's places and the rules behind them written in comments after "
                         "</Tournament>, which OpenGotha skips and goledger reads back")
        return xml_comments(lines).encode("utf-8")

    def _check_extras(self) -> None:
        foreign = sorted(k for k in self.extras if not k.startswith("opengotha."))
        if foreign:
            self.report.info("unmapped", f"{len(foreign)} settings of another format have no place in OpenGotha: "
                             + ", ".join(foreign[:8]))
        unknown = sorted(
            k for k in self.extras if k.startswith("opengotha.") and k.split(".")[1] not in _WRITTEN_ELEMENTS
        )
        if unknown:
            self.report.warning("unmapped", "kept OpenGotha values of unknown elements are not written: "
                                + ", ".join(unknown[:8]))
        if self.state.round_settings:
            rounds = ", ".join(str(r) for r in sorted(self.state.round_settings))
            self.report.warning("unmapped", f"rule changes from round(s) {rounds} cannot be held by OpenGotha; the "
                                "settings of round 1 are written")
        if self.settings.system in _NO_OPENGOTHA_SYSTEM:
            self.report.warning("unmapped", f"the {self.settings.system} system has no OpenGotha equivalent "
                                f"({_NO_OPENGOTHA_SYSTEM[self.settings.system]}); its games are written, but "
                                "OpenGotha will not pair its next round nor compute its places")
        if self.settings.policy != "opengotha" or self.settings.policy_overrides:
            self.report.info("unmapped", f"rule policy {self.settings.policy!r} and its overrides are not written "
                             "(OpenGotha applies its own rules)")

    # ------------------------------------------------------------------ players

    def _players(self, parent: etree._Element) -> None:
        rounds = self.state.rounds
        seen: dict[str, str] = {}
        for player in self.state.players.values():
            self.report.count_read("players")
            key = player_key(player.surname, player.first_name)
            if key in seen:
                self.report.warning("inconsistency", f"{player.id} has the same OpenGotha key {key!r} as {seen[key]}; "
                                    "OpenGotha refuses homonyms", player.id)
            seen.setdefault(key, player.id)
            self.keys[player.id] = key
            extras = player.extras
            value = _rank_value(player.rank)
            rank = ogv.rank_text(value)
            raw_rank = extras.get(PLAYER_EXTRA + "rank")
            if raw_rank is not None and _means_rank(raw_rank, value):
                rank = raw_rank
            elif player.rank.endswith("p"):
                self.report.info("normalised", f"professional rank {player.rank} written as {rank} (OpenGotha's "
                                 f"rank for it), grade {player.grade or player.rank.upper()}", player.id)
            absent = sorted(r for r in player.absences if r <= rounds)
            if player.withdrawn_from is not None:
                absent = sorted(set(absent) | set(range(player.withdrawn_from, rounds + 1)))
                self.report.info("normalised", f"withdrawal from round {player.withdrawn_from} written as absences "
                                 "(OpenGotha has no withdrawal)", player.id)
            valued = [r for r, points in player.absences.items() if points is not None]
            if valued:
                self.report.warning("unmapped", f"absence value(s) of round(s) {valued} not written: OpenGotha gives "
                                    "every absence the tournament's value", player.id)
            attrs = {
                "agaExpirationDate": player.ids.get("aga_expiration_date", ""),
                "agaId": player.ids.get("aga_id", ""),
                "club": player.club,
                "country": player.country,
                "egfPin": player.egd_pin,
                "ffgLicence": player.ids.get("ffg_licence", ""),
                "ffgLicenceStatus": player.ids.get("ffg_licence_status", ""),
                "firstName": player.first_name,
                "grade": player.grade or (player.rank.upper() if player.rank.endswith("p") else ogv.rank_text(value)),
                "name": player.surname,
                "participating": participating_text(absent, rounds, extras.get(PLAYER_EXTRA + "participating")),
                "rank": rank,
                "rating": self._rating(player, value),
                "ratingOrigin": self._origin(player),
                "registeringStatus": "PRE" if player.status == "preliminary" else "FIN",
                "smmsCorrection": str(player.mm_correction),
            }
            raw_status = extras.get(PLAYER_EXTRA + "registeringStatus")
            if raw_status is not None and player.status == "final":
                attrs["registeringStatus"] = raw_status
            raw_correction = extras.get(PLAYER_EXTRA + "smmsCorrection")
            if raw_correction is not None and player.mm_correction == 0:
                attrs["smmsCorrection"] = raw_correction
            other_ids = sorted(set(player.ids) - {"aga_expiration_date", "aga_id", "ffg_licence", "ffg_licence_status"})
            if other_ids:
                self.report.info("unmapped", f"identifiers {', '.join(other_ids)} have no place in OpenGotha",
                                 player.id)
            for name, text in extras.items():
                if not name.startswith(PLAYER_EXTRA):
                    continue
                attr = name[len(PLAYER_EXTRA):]
                if attr not in _PLAYER_COMPUTED:
                    attrs[attr] = text
            if PLAYER_EXTRA + "placeholder" in extras:
                self.report.warning("inconsistency", f"{player.id} is a placeholder for an unresolved reference of the "
                                    "imported file", player.id)
            _element(parent, "Player", attrs)
            self.report.count_recorded("players")

    def _rating(self, player: PlayerState, rank_value: int) -> str:
        if player.rating is not None:
            return str(player.rating)
        raw = player.extras.get(PLAYER_EXTRA + "rating")
        if raw is not None:
            return raw
        rating = ogv.rating_from_rank(rank_value)
        self.report.info("normalised", f"no rating: {rating} written (OpenGotha's rating for rank "
                         f"{ogv.rank_text(rank_value)})", player.id)
        return str(rating)

    def _origin(self, player: PlayerState) -> str:
        raw = player.extras.get(PLAYER_EXTRA + "ratingOrigin")
        if raw is not None and raw.split(" : ", 1)[0] == player.rating_origin:
            return raw
        return player.rating_origin

    # ------------------------------------------------------------------ games, byes, teams

    def _games(self, parent: etree._Element) -> None:
        komi = self.settings.komi
        for game in self.state.all_games():
            self.report.count_read("games")
            if game.komi is not None and game.komi != komi:
                self.report.warning("unmapped", f"komi {game.komi} of this game not written (OpenGotha has one komi "
                                    f"per tournament: {komi})", f"round {game.round} table {game.table}")
            kept = {k.removeprefix(GAME_EXTRA): v for k, v in game.extras.items() if k.startswith(GAME_EXTRA)}
            _element(parent, "Game", {
                **kept,
                "blackPlayer": self.keys[game.black],
                "handicap": str(game.handicap),
                "knownColor": _bool(game.color_known),
                "result": ogv.result_code(game.result.value, game.by_default),
                "roundNumber": str(game.round),
                "tableNumber": str(game.table),
                "whitePlayer": self.keys[game.white],
            })
            self.report.count_recorded("games")

    def _byes(self, root: etree._Element) -> None:
        byes = [(r, pid, pts) for r in sorted(self.state.byes) for pid, pts in self.state.byes[r].items()]
        if not byes:
            return
        parent = _container(root, "ByePlayers")
        per_round: dict[int, int] = {}
        for round_, player_id, points in byes:
            self.report.count_read("byes")
            per_round[round_] = per_round.get(round_, 0) + 1
            if points is not None:
                self.report.warning("unmapped", f"bye value of {player_id} in round {round_} not written: OpenGotha "
                                    "gives every bye the tournament's value", f"round {round_}")
            _element(parent, "ByePlayer", {"player": self.keys[player_id], "roundNumber": str(round_)})
            self.report.count_recorded("byes")
        for round_, count in per_round.items():
            if count > 1:
                self.report.warning("inconsistency", f"round {round_} has {count} byes; OpenGotha keeps only the last "
                                    "one it reads", f"round {round_}")

    def _teams(self, root: etree._Element) -> None:
        if not self.state.teams:
            return
        parent = _container(root, "Teams")
        for index, team in enumerate(self.state.teams.values(), start=1):
            self.report.count_read("teams")
            el = _container(parent, "Team")
            el.attrib["teamName"] = team.name if team.name.isprintable() else shown(team.name, keep_lines=True)
            el.attrib["teamNumber"] = str(team.number if team.number is not None else index)
            for player_id, board, round_ in self._team_boards(team):
                attrs = {"boardNumber": str(board), "player": self.keys[player_id]}
                if round_ is not None:
                    attrs["roundNumber"] = str(round_)
                _element(el, "Board", attrs)
                self.report.count_read("team_boards")
                self.report.count_recorded("team_boards")
            self.report.count_recorded("teams")

    def _team_boards(self, team: Any) -> list[tuple[str, int, int | None]]:
        """The team's ``<Board>`` elements: its assignments as recorded, or — once a change
        covers rounds from one on or takes a player off (``team assign --from-round``, ``team
        remove --player``), which OpenGotha's format cannot say — its composition round by round."""
        if all(start is None and board is not None for _, board, _, start in team.changes):
            return [m for m in team.members if m[0] in self.keys]
        self.report.info("normalised", f"team {team.name}: composition changes written round by round")
        return [(pid, board, r) for r in range(1, self.state.rounds + 1)
                for board, pid in sorted(team.member_slots(r).items()) if pid in self.keys]

    # ------------------------------------------------------------------ parameters

    def _parameters(self, parent: etree._Element) -> None:
        s = self.settings
        g = "GeneralParameterSet"
        if s.rounds > MAX_ROUNDS:
            self.report.warning("inconsistency", f"{s.rounds} rounds: OpenGotha handles at most {MAX_ROUNDS}")
        time = s.time
        if time is None:
            time = TimeSettings()
            self.report.info("normalised", "the tournament has no time settings: default ones written "
                             f"({time.basic_minutes} min, {time.system})")
        if time.byo_yomi_periods is not None:
            self.report.info("unmapped", f"{time.byo_yomi_periods} byo-yomi periods not written (OpenGotha does not "
                             "store the number of periods)")
        numbers = {
            "basicTime": time.basic_minutes, "canByoYomiTime": time.canadian_seconds,
            "fischerTime": time.fischer_seconds, "nbMovesCanTime": time.canadian_stones,
            "stdByoYomiTime": time.byo_yomi_seconds, "size": s.board_size, "numberOfRounds": s.rounds,
            "genMMS2ValueAbsent": s.mms2_absent, "genMMS2ValueBye": s.mms2_bye,
            "genNBW2ValueAbsent": s.nbw2_absent, "genNBW2ValueBye": s.nbw2_bye,
            "numberOfCategories": len(s.category_limits) + 1,
        }
        attrs = self._kept(g, frozenset(numbers) | {"genMMBar", "genMMFloor", "genMMZero", "complementaryTimeSystem"})
        for name, number in numbers.items():
            attrs[name] = self._number(g, name, number, int(ogv.GENERAL_DEFAULTS[name]))
        declared = self.extras.get(extra_key(g, "numberOfCategories"))
        if declared is not None:
            attrs["numberOfCategories"] = declared
            self.report.info("inconsistency", f"numberOfCategories {declared!r} written as imported, although "
                             f"{len(s.category_limits)} category limit(s) are recorded")
        time_code = _TIME_CODES[time.system]
        attrs.update({
            "bInternet": _bool(s.internet),
            "beginDate": s.begin_date,
            "complementaryTimeSystem": self._raw(g, "complementaryTimeSystem", time_code,
                                                 lambda raw: time.system == "canadian"),
            "director": s.director,
            "endDate": s.end_date,
            "genCountNotPlayedGamesAsHalfPoint": _bool(s.not_played_as_half),
            "genMMBar": self._rank(g, "genMMBar", s.mm_bar),
            "genMMFloor": self._rank(g, "genMMFloor", s.mm_floor),
            "genMMZero": self._rank(g, "genMMZero", s.mm_zero),
            "genRoundDownNBWMMS": _bool(s.round_down),
            "komi": s.komi,
            "location": s.location,
            "name": s.name,
            "shortName": s.short_name,
        })
        general = _element(parent, g, attrs)
        if s.category_limits:
            general.text = "\n"
            categories = _container(general, "Categories")
            for number, limit in enumerate(s.category_limits, start=1):
                _element(categories, "Category", {
                    "lowerLimit": ogv.rank_text(_rank_value(limit)), "number": str(number),
                })
        h = "HandicapParameterSet"
        handicap = self._kept(h, frozenset(ogv.HANDICAP_DEFAULTS))
        handicap.update({
            "hdBasedOnMMS": _bool(s.handicap.based_on_mms),
            "hdCeiling": str(s.handicap.ceiling),
            "hdCorrection": str(s.handicap.correction),
            "hdNoHdRankThreshold": self._rank(h, "hdNoHdRankThreshold", s.handicap.no_handicap_threshold),
        })
        _element(parent, h, handicap)
        placement = _container(parent, "PlacementParameterSet")
        self._criteria(_container(placement, "PlacementCriteria"), self._placement_slots())
        pairing = dict(ogv.PAIRING_DEFAULTS) | dict(s.pairing) | self._kept("PairingParameterSet")
        _element(parent, "PairingParameterSet", pairing)
        _element(parent, "DPParameterSet", dict(ogv.DP_DEFAULTS) | self._kept("DPParameterSet"))
        _element(parent, "PublishParameterSet", dict(ogv.PUBLISH_DEFAULTS) | self._kept("PublishParameterSet"))

    def _placement_slots(self) -> list[str]:
        criteria = self._mapped_criteria(list(self.settings.criteria))
        raw = self.extras.get(extra_key("PlacementParameterSet", "criteria"))
        if raw is not None:
            slots = raw.split(",")
            meaning = [PAIRGOTH_NAMES.get(n, n) for n in slots]
            meaning = [n for n in meaning if n in OPENGOTHA_NAMES]
            if meaning == criteria:
                return slots
        written = [c for c in criteria if c in OPENGOTHA_NAMES]
        dropped = [c for c in criteria if c not in OPENGOTHA_NAMES]
        if dropped:
            self.report.warning("unmapped", f"criteria {', '.join(dropped)} are not OpenGotha criteria; not written")
        if len(written) > 6:
            self.report.warning("unmapped", f"OpenGotha holds 6 criteria; {', '.join(written[6:])} not written")
            written = written[:6]
        first = written[0] if written else "NULL"
        system = ogv.SYSTEM_OF_FIRST_CRITERION.get(first)
        if system is not None and system != self.settings.system:
            self.report.info("inconsistency", f"system {self.settings.system} but first criterion {first}: "
                             f"OpenGotha will treat the tournament as {system}")
        return written + ["NULL"] * (6 - len(written))

    def _mapped_criteria(self, criteria: list[str]) -> list[str]:
        """MacMahon's criteria replaced by their nearest OpenGotha criterion (issue 19.10), each
        replacement reported with what it changes; a criterion already written is not repeated."""
        out: list[str] = []
        for name in criteria:
            target = OPENGOTHA_INSTEAD.get(name)
            if target is None:
                if name not in out:
                    out.append(name)
                continue
            og_name, change = target
            if og_name is None:
                self.report.warning("unmapped", f"{name} has no OpenGotha counterpart ({change}); not written")
                continue
            if og_name in out:
                self.report.info("unmapped", f"{name} written as {og_name}, already in the list; not repeated")
                continue
            out.append(og_name)
            self.report.info("normalised", f"{name} written as OpenGotha's {og_name}: {change}")
        return out

    def _criteria(self, parent: etree._Element, slots: list[str]) -> None:
        for number, name in enumerate(slots, start=1):
            _element(parent, "PlacementCriterion", {"name": name, "number": str(number)})

    def _team_parameters(self, parent: etree._Element) -> None:
        general = {"teamSize": "4"} | self._kept("TeamGeneralParameterSet")
        options = self.settings.system_options
        if self.settings.system in ("team-swiss", "team-mcmahon"):
            general["teamSize"] = str(team_size(self.state))
        _element(parent, "TeamGeneralParameterSet", general)
        raw = self.extras.get(extra_key("TeamPlacementParameterSet", "criteria"))
        slots = raw.split(",") if raw else list(ogv.TEAM_CRITERIA_DEFAULT)
        if "team_criteria" in options:
            slots = list(team_criteria(self.state))
        placement = _container(parent, "TeamPlacementParameterSet")
        self._criteria(_container(placement, "PlacementCriteria"), slots)

    def _clubs_groups(self, root: etree._Element) -> None:
        raw = self.extras.get(extra_key("ClubsGroups", "groups"))
        if not raw:
            return
        try:
            groups = json.loads(raw)
        except ValueError:
            self.report.warning("unmapped", "the kept clubs groups are unreadable; not written")
            return
        parent = _container(root, "ClubsGroups")
        for name, clubs in groups:
            group = _container(parent, "ClubsGroup")
            group.attrib["name"] = name if name.isprintable() else shown(name, keep_lines=True)
            for club in clubs:
                _element(group, "Club", {"name": club})


def _means_rank(raw: str, value: int) -> bool:
    """Whether OpenGotha reads ``raw`` as the rank ``value`` (unreadable text reads as 30K)."""
    parsed = ogv.og_rank(raw)
    return (parsed if parsed is not None else ogv.RANK_MIN) == value


def _rank_value(rank: str) -> int:
    try:
        return Rank.parse(rank).value
    except RankError:
        value = ogv.og_rank(rank)
        return value if value is not None else ogv.RANK_MIN


def write_opengotha(state: TournamentState, *, source: str = "") -> tuple[bytes, InterchangeReport]:
    """The OpenGotha save file of a tournament state, and the export report."""
    report = InterchangeReport(format=FORMAT, source=source, direction="export", dialect="OpenGotha 3.51")
    if state.settings is None:
        raise ValueError("the state has no tournament")
    data = _Writer(state, report).write()
    return data, report
