"""What OpenGotha's EGD writer must have put in each oracle ``.h9``, predicted independently
of goledger's EGD code: from the oracle's XML input (plain lxml), its standings CSV and meta
JSON, and the writer's rules in spec ``egd.md`` §7.1. Used by ``test_egd_opengotha.py``."""

from __future__ import annotations

import csv
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from goledger.formats.countries import is_country_code
from goledger.formats.egd.validate import place_country_city
from goledger.ledger.events import TimeSettings
from goledger.rating.classes import egf_class

_SYSTEMS = {"SUDDENDEATH": "sudden-death", "STDBYOYOMI": "byo-yomi", "CANBYOYOMI": "canadian", "FISCHER": "fischer"}


@dataclass
class OracleGame:
    round: int
    white: str
    black: str
    handicap: int
    result: str  # RESULT_* without the _BYDEF suffix
    by_default: bool
    known_colour: bool


@dataclass
class OracleTournament:
    """An oracle input as OpenGotha saw it: the implied players in final standings order
    (``rows``: XML player elements), the games, and the parameters the writer uses."""

    stem: str
    rounds: int
    short_format: bool
    hd_correction: int
    time: TimeSettings
    internet: bool
    begin: str
    end: str
    criteria: list[str]
    location: str = ""
    rows: list[dict[str, str]] = field(default_factory=list)
    places: list[int] = field(default_factory=list)
    values: list[dict[str, str]] = field(default_factory=list)
    games: list[OracleGame] = field(default_factory=list)

    @property
    def keys(self) -> list[str]:
        return [r["key"] for r in self.values]


def load(shared: Path, stem: str) -> OracleTournament:
    xml = shared / "oracle" / "inputs" / f"{stem}.xml"
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    root = etree.parse(str(xml), parser).getroot()
    gen = next(root.iter("GeneralParameterSet"))
    hd = next(root.iter("HandicapParameterSet"), None)
    dp = next(root.iter("DPParameterSet"), None)
    meta = json.loads((shared / "oracle" / "outputs" / f"{stem}.meta.json").read_text(encoding="utf-8"))
    rounds = int(meta["numberOfRounds"])
    time = TimeSettings(
        basic_minutes=int(gen.get("basicTime", "60")),
        system=_SYSTEMS[gen.get("complementaryTimeSystem", "CANBYOYOMI")],  # type: ignore[arg-type]
        byo_yomi_seconds=int(gen.get("stdByoYomiTime", "30")),
        canadian_stones=int(gen.get("nbMovesCanTime", "15")),
        canadian_seconds=int(gen.get("canByoYomiTime", "300")),
        fischer_seconds=int(gen.get("fischerTime", "10")),
    )
    t = OracleTournament(
        stem=stem, rounds=rounds, short_format=dp is not None and dp.get("gameFormat") == "short",
        hd_correction=int(hd.get("hdCorrection", "1")) if hd is not None else 1, time=time,
        internet=(gen.get("bInternet") or gen.get("bInternetGame")) == "true",
        begin=gen.get("beginDate", ""), end=gen.get("endDate", ""),
        criteria=[c for c in meta["placementCriteria"] if c != "NULL"], location=gen.get("location", ""),
    )
    with (shared / "oracle" / "outputs" / f"{stem}.csv").open(encoding="utf-8", newline="") as f:
        final = [r for r in csv.DictReader(f) if int(r["round"]) == rounds and r["implied"] == "1"]
    final.sort(key=lambda r: int(r["order"]))
    players = {(p.get("name"), p.get("firstName")): dict(p.attrib) for p in root.iter("Player")}
    t.values = final
    t.rows = [players[(r["name"], r["firstName"])] for r in final]
    t.places = [int(r["place"]) for r in final]
    key_of_xml = {_xml_key(p): r["key"] for p, r in zip(t.rows, final, strict=True)}
    for g in root.iter("Game"):
        result = g.get("result", "RESULT_UNKNOWN")
        t.games.append(OracleGame(
            round=int(g.get("roundNumber", "0")),
            white=key_of_xml.get(g.get("whitePlayer", "").upper(), g.get("whitePlayer", "")),
            black=key_of_xml.get(g.get("blackPlayer", "").upper(), g.get("blackPlayer", "")),
            handicap=int(g.get("handicap", "0")),
            result=result.removesuffix("_BYDEF"), by_default=result.endswith("_BYDEF"),
            known_colour=g.get("knownColor", "true") == "true",
        ))
    return t


def _xml_key(player: dict[str, str]) -> str:
    return (player.get("name", "") + player.get("firstName", "")).replace(" ", "").upper()


def written_name(player: dict[str, str]) -> str:
    """``surname firstname`` as OpenGotha writes it: ``_`` for spaces, cut at 30, ISO-8859-15."""
    text = f"{player.get('name', '').strip().replace(' ', '_')} {player.get('firstName', '').strip().replace(' ', '_')}"
    return text[:30].encode("iso-8859-15", "replace").decode("iso-8859-15")


def written_club(player: dict[str, str]) -> str:
    """The club as OpenGotha 3.51.02 writes it: its **first** 4 characters (the oracle exports
    show ``Seou`` for ``Seoul``, ``no c`` for ``no club``), ``xxxx`` when empty. Spec egd.md
    §7.1 says "the last 4"; the files written by 3.51.02 disagree."""
    club = player.get("club", "")
    if not club.strip():
        return "xxxx"
    return club[:4]


def written_value(t: OracleTournament, row: dict[str, str], criterion: str) -> str:
    """A criterion value as OpenGotha prints it, ½ ¼ ¾ included (they become '?')."""
    column, unit = _column(criterion)
    raw = int(row[column])
    if criterion == "CAT":
        return str(1 - raw)
    whole, rest = divmod(raw, unit)
    glyph = "" if rest == 0 else "½" if 2 * rest == unit else "¼" if 4 * rest == unit else "¾"
    return f"{whole}{glyph}" if whole or not glyph else glyph


def _column(criterion: str) -> tuple[str, int]:
    special = {"CAT": ("CAT_neg0", 1), "Rank": ("Rank_int", 1), "Rating": ("Rating", 1),
               "DC": ("DC_tps", 1), "SDC": ("SDC_tps", 1)}
    if criterion in special:
        return special[criterion]
    unit = 4 if criterion.startswith("SODOS") else 2
    return f"{criterion}_x{unit}", unit


def predicted_problems(t: OracleTournament, keep_forfeits: bool) -> Counter[str]:
    """The validator codes OpenGotha's writer (spec egd.md §7.1) must cause in this file."""
    p: Counter[str] = Counter()
    # PC[,<location>]: OpenGotha never writes the country. A warning (issue 19.11) unless the
    # location itself names one ("TR, Istanbul"); an empty location leaves PC[,]: an error.
    place = place_country_city("," + t.location)
    if place is not None and not place[0]:
        p["pc-country-missing" if place[1] else "tag-value"] += 1
    if egf_class(t.time, t.internet) == "X":
        p["tag-value"] += 1  # CL[X]
    if t.begin and t.end and t.end < t.begin:
        p["tag-value"] += 1
    ha = None if t.hd_correction <= 0 else f"h{t.hd_correction}"
    if ha is None:
        p["tag-missing"] += 1
    p["place-blank"] += sum(1 for a, b in zip(t.places, t.places[1:], strict=False) if a == b)
    game_rounds: set[int] = set()
    for g in t.games:
        if g.round > t.rounds:
            continue
        dropped = g.by_default and not keep_forfeits and not t.short_format and g.result != "RESULT_UNKNOWN"
        if dropped:
            continue  # the 'no by-default results' variant writes 0= for both players
        game_rounds.add(g.round)
        if g.result == "RESULT_UNKNOWN":
            p["result-unknown"] += 2
        if g.result in ("RESULT_BOTHWIN", "RESULT_BOTHLOSE"):
            p["pair-result"] += 1
        if not t.short_format:
            if not g.known_colour:
                p["colour-unknown"] += 2
            if g.by_default:
                p["forfeit-marked"] += 2
    if t.short_format and game_rounds and ha != "h9":
        p["short-cells"] += 1
    if any(r not in game_rounds for r in range(1, t.rounds + 1)):
        p["empty-round"] += 1
    names: set[tuple[str, str]] = set()
    for player, row in zip(t.rows, t.values, strict=True):
        country = player.get("country", "").strip()
        code = country[-2:] if len(country) >= 2 else "XX"
        if code.upper() == "XX":
            p["country-unknown"] += 1
        elif not is_country_code(code):
            p["country"] += 1
        club = written_club(player)
        if len(club.split()) > 1:
            p["columns"] += 1
        name = written_name(player)
        if "?" in name:
            p["name-lost-characters"] += 1
        if len(name.split()) != 2:
            p["name-tokens"] += 1
        key = (name.casefold(), player.get("rank", "").upper())
        if key in names and "?" not in name:
            p["duplicate-player"] += 1
        names.add(key)
        cells = [written_value(t, row, c)[:4] for c in t.criteria]
        if any(v[:-1].isdigit() and v[-1] in "½¼¾" for v in cells):
            p["tiebreak-cell-shaped"] += 1
    return +p
