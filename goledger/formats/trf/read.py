"""Reading a FIDE Tournament Report File (TRF-16, TRF(x), TRF-2026) into ledger events.

Spec ``formats/trf.md``. Two steps:

1. :func:`parse_trf` decodes the bytes (strict UTF-8 without BOM, else Windows-1252, said in
   the report) and cuts every line into its fixed columns (§1–§4, §7, §8): a
   :class:`TrfDocument`. Unknown record codes are kept verbatim.
2. :func:`read_trf` maps the document to events plus an
   :class:`~goledger.formats.report.InterchangeReport`:

   ================================  ==============================================================
   TRF                               ledger
   ================================  ==============================================================
   ``001`` player line               ``PlayerRegistered`` (pairing number → ``start_number``; rank
                                     ``30k``: a TRF has no Go rank; FIDE rating, id, sex, title,
                                     federation and birth date kept)
   game ``1 = 0`` / ``W D L``        ``GamePaired`` + ``ResultRecorded`` (``W D L``: unrated, kept)
   ``+`` / ``-``                     a by-default result won by the ``+`` side
   ``-`` / ``-``                     a double forfeit: ``both-lose`` by default
   ``U``                             ``ByeAssigned`` (the pairing-allocated bye)
   ``F`` / ``H`` / ``Z``, blank      an absence worth 1 / ½ / 0 (``0000 - -`` read as ``Z``)
   ``Z`` … to the last round         ``PlayerWithdrew`` (inferred, reported)
   ``240`` (future byes)             an absence worth 1 / ½ / 0 in that round
   ``XXS`` / ``162``                 the tournament's point system (policy option ``point_system``)
   ``212`` / ``202``                 placement criteria (FIDE names)
   ``092``, ``142``/``XXR``          system (round robin or Swiss, as TieBreakServer decides), rounds
   ================================  ==============================================================

   Everything else (``032``, ``112``, ``122``, ``132``, ``152``…, ``XXC``, team and NRS
   records, ``XX?`` extensions, comments) is kept verbatim in the tournament's ``extras``
   (``trf.<code>``; unmapped records under ``trf.unmapped``) so an export can write it back,
   and listed in the report. Every asymmetric pairing, impossible result pair and points
   column that does not add up is reported.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from typing import Final

import msgspec

from goledger.errors import FormatError
from goledger.formats.carried import apply_carried, parse_carried
from goledger.formats.numbers import ascii_decimal, ascii_int, is_ascii_number
from goledger.formats.report import InterchangeReport
from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.replay.fold.state import fold
from goledger.replay.scoring.criteria import get_criterion
from goledger.replay.scoring.criteria.names import CRITERION_FOR_FIDE
from goledger.replay.scoring.policies import get_policy
from goledger.replay.scoring.registries import check_registered

__all__ = ["ReadResult", "TrfBlock", "TrfDocument", "TrfPlayer", "parse_trf", "read_trf"]

MAX_FILE_BYTES: Final = 16 * 1024 * 1024

KEPT_CODES: Final = ("032", "092", "112", "122", "132", "152", "172", "182", "192", "202", "212", "222", "XXC")
"""Tournament records kept verbatim (in ``extras["trf.<code>"]``) for the export."""

INFORMATIVE_CODES: Final = ("062", "072", "082")
"""Counts the exporter recomputes."""

RESULT_CODES: Final = frozenset("1=0WDL+-HFUZ ?*")


@dataclass
class TrfBlock:
    """One round block of a player line (§3): opponent pairing number (0: none), colour
    ``w``/``b``/``-`` and the result code (upper case; ``" "`` for blank)."""

    round: int
    opponent: int
    colour: str
    result: str

    @property
    def no_game(self) -> bool:
        """No opponent: a bye, an absence or nothing."""
        return self.opponent == 0

    @property
    def zero_like(self) -> bool:
        """``Z``, blank or ``0000 - -``: a zero-point bye that can belong to a withdrawal."""
        return self.opponent == 0 and self.result in ("Z", " ", "-")


@dataclass
class TrfPlayer:
    line: int
    number: int
    sex: str
    title: str
    name: str
    rating: int | None
    federation: str
    fide_id: str
    birth: str
    points: str
    rank: str
    blocks: list[TrfBlock] = field(default_factory=list)

    def block(self, round_: int) -> TrfBlock | None:
        return self.blocks[round_ - 1] if 0 < round_ <= len(self.blocks) else None


@dataclass
class TrfDocument:
    """A parsed TRF: tournament records by code (all lines of a code, in order), players,
    announced byes (``240``), unknown lines and comments, with their line numbers."""

    encoding: str
    records: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    players: list[TrfPlayer] = field(default_factory=list)
    byes_240: list[tuple[int, str, int, list[int]]] = field(default_factory=list)
    unknown: list[tuple[int, str]] = field(default_factory=list)
    comments: list[tuple[int, str]] = field(default_factory=list)

    def text(self, code: str) -> str:
        """The data of the first record with ``code`` (from column 5), stripped."""
        lines = self.records.get(code)
        return lines[0][1][4:].strip() if lines else ""

    @property
    def last_round(self) -> int:
        """The highest round that has a block in some player line."""
        return max((len(p.blocks) for p in self.players), default=0)


class ReadResult:
    def __init__(self, events: list[ev.Event], report: InterchangeReport, document: TrfDocument,
                 places: dict[str, int] | None = None) -> None:
        self.events = events
        self.report = report
        self.document = document
        self.places = places or {}
        """Player id → the place of the file's rank column (the import compares it with goledger's)."""


# --------------------------------------------------------------------------- parsing


def decode_trf(data: bytes, report: InterchangeReport) -> tuple[str, str]:
    """Text and encoding name: strict UTF-8 (a BOM is dropped), else Windows-1252 (§1)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
        report.info("normalised", "a UTF-8 byte-order mark was dropped")
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        report.warning("normalised", "the file is not UTF-8; it was read as Windows-1252 (ISO-8859-1)")
        return data.decode("cp1252", errors="replace"), "cp1252"


def _int(text: str) -> int | None:
    return ascii_int(text)


def parse_trf(data: bytes, source: str, report: InterchangeReport) -> TrfDocument:
    """Cut a TRF into records (spec §1–§4, §8). Raises :class:`FormatError` when the file
    holds neither a player line nor a tournament name (it is not a TRF; a tournament
    before its registrations, as `export trf` writes one, has only the header records)."""
    if b"\x00" in data[:4096]:
        raise FormatError(f"{source} is not a text file (it contains NUL bytes), so not a TRF")
    text, encoding = decode_trf(data, report)
    doc = TrfDocument(encoding=encoding)
    for number, raw in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        line = raw.rstrip("\n")
        if not line.strip():
            continue
        code = line[:3]
        if code == "###":
            doc.comments.append((number, line))
        elif code == "001":
            player = _parse_player(line, number, report)
            if player is not None:
                doc.players.append(player)
        elif code == "240":
            _parse_240(line, number, doc, report)
        elif len(line) >= 3 and (line[3:4] in ("", " ")) and (code.isdigit() or code.startswith("XX")):
            doc.records.setdefault(code, []).append((number, line))
        else:
            doc.unknown.append((number, line))
    if not doc.players and "012" not in doc.records:
        raise FormatError(f"{source} has neither a player record (001) nor a tournament name (012); "
                          "it is not a TRF file")
    return doc


def _parse_player(line: str, number: int, report: InterchangeReport) -> TrfPlayer | None:
    where = f"line {number}"
    padded = line.ljust(89)
    pairing = _int(padded[4:8])
    if pairing is None or pairing == 0:
        report.error("invalid", f"player line without a pairing number in columns 5–8: {padded[4:8]!r}", where)
        return None
    rating_text = padded[48:52].strip()
    rating = _int(rating_text)
    if rating_text and rating is None:
        report.warning("invalid", f"rating {rating_text!r} is not a number; player {pairing} left unrated", where)
    player = TrfPlayer(
        line=number, number=pairing, sex=padded[9].strip().lower(), title=padded[10:13].strip(),
        name=padded[14:47].strip(), rating=rating or None, federation=padded[53:56].strip(),
        fide_id=padded[57:68].strip(), birth=padded[69:79].strip(), points=padded[80:84].strip(),
        rank=padded[85:89].strip(),
    )
    r = 1
    while len(line) >= 92 + 10 * (r - 1):
        start = 89 + 10 * (r - 1)
        chunk = line[start:start + 10].ljust(10)
        block_where = f"{where}, round {r}"
        if chunk[:2].strip() or chunk[6].strip() or chunk[8].strip():
            report.warning("invalid", f"round block of player {pairing} is not aligned on the TRF columns: "
                           f"{chunk!r}", block_where)
        opp_text = chunk[2:6]
        if opp_text.strip() == "":
            opponent = 0
        elif is_ascii_number(opp_text):
            opponent = int(opp_text)
        else:
            report.error("invalid", f"opponent {opp_text!r} of player {pairing} is not a pairing number", block_where)
            opponent = 0
        colour = chunk[7].lower() if chunk[7] != " " else "-"
        if colour not in ("w", "b", "-"):
            report.warning("invalid", f"colour {chunk[7]!r} of player {pairing} is not w, b or -; read as -",
                           block_where)
            colour = "-"
        result = chunk[9].upper()
        if result not in RESULT_CODES:
            report.error("invalid", f"result code {chunk[9]!r} of player {pairing} is not a TRF result", block_where)
            result = "?"
        player.blocks.append(TrfBlock(r, opponent, colour, result))
        r += 1
    while player.blocks and player.blocks[-1].opponent == 0 and player.blocks[-1].result == " ":
        player.blocks.pop()  # trailing blank blocks mean "no result", as a missing block
    return player


def _parse_240(line: str, number: int, doc: TrfDocument, report: InterchangeReport) -> None:
    padded = line.ljust(14)
    kind = padded[4].upper()
    round_ = _int(padded[6:9])
    ids = [_int(line[i:i + 4]) for i in range(10, len(line), 5)]
    if kind not in ("F", "H", "Z") or round_ is None or not ids or any(i is None for i in ids):
        report.warning("unmapped", f"bye record 240 not understood: {line!r}", f"line {number}")
        doc.unknown.append((number, line))
        return
    doc.byes_240.append((number, kind, round_, [i for i in ids if i is not None]))


# --------------------------------------------------------------------------- mapping helpers


def parse_trf_date(text: str) -> str | None:
    """``YYYY/MM/DD``, ``YYYY-MM-DD``, ``DD.MM.YYYY``, ``DD/MM/YYYY`` or ``YY/MM/DD`` → ISO date.

    >>> parse_trf_date("2025/03/01"), parse_trf_date("01.03.2025"), parse_trf_date("26/01/10")
    ('2025-03-01', '2025-03-01', '2026-01-10')
    >>> parse_trf_date("spring") is None
    True
    """
    text = text.strip()
    patterns = (
        (r"(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})", (1, 2, 3)),
        (r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})", (3, 2, 1)),
        (r"(\d{2})/(\d{2})/(\d{2})", (1, 2, 3)),
    )
    for pattern, (y, m, d) in patterns:
        match = re.fullmatch(pattern, text)
        if match:
            year = int(match.group(y))
            if year < 100:
                year += 2000
            try:
                return date(year, int(match.group(m)), int(match.group(d))).isoformat()
            except ValueError:
                return None
    return None


def point_system_from_162(text: str) -> tuple[str, list[str]]:
    """TRF-2026 ``162`` (letter in column 6, points in 7–10, then every 9 columns) → the
    policy's ``point_system`` text; ``P`` defaults to ``W``. Returns also what was ignored."""
    pairs: dict[str, str] = {}
    ignored: list[str] = []
    padded = text.ljust(10)
    index = 5
    while index < len(padded):
        letter = padded[index].strip().upper()
        value = padded[index + 1:index + 5].strip()
        if letter:
            if letter in ("W", "D", "L", "A", "P") and value:
                pairs[letter] = value
            else:
                ignored.append(f"{letter}{value}")
        index += 9
    if "P" not in pairs and "W" in pairs:
        pairs["P"] = pairs["W"]
    order = ("W", "D", "L", "A", "P")
    return " ".join(f"{k}={pairs[k]}" for k in order if k in pairs), ignored


_RESULT_PAIRS: Final = {
    ("1", "0"): (Result.WHITE, False, False), ("0", "1"): (Result.BLACK, False, False),
    ("=", "="): (Result.JIGO, False, False),
    ("W", "L"): (Result.WHITE, False, True), ("L", "W"): (Result.BLACK, False, True),
    ("D", "D"): (Result.JIGO, False, True),
    ("+", "-"): (Result.WHITE, True, False), ("-", "+"): (Result.BLACK, True, False),
    ("-", "-"): (Result.BOTH_LOSE, True, False),
    ("+", "+"): (Result.BOTH_WIN, True, False),
    ("1", "1"): (Result.BOTH_WIN, False, False), ("0", "0"): (Result.BOTH_LOSE, False, False),
}
"""(white's code, black's code) → (result, by default, not rated)."""

_GO_ONLY: Final = {("+", "+"), ("1", "1"), ("0", "0")}


def _is_round_robin(doc: TrfDocument, rounds: int, report: InterchangeReport) -> bool:
    """TieBreakServer's rule (§9.4): SWISS, RR, ROBIN or BERGER in ``092``; failing that, a
    field of n players is a round robin when n = rounds, rounds + 1, 2·rounds or 2·(rounds + 1)."""
    kind = doc.text("092").upper()
    if "SWISS" in kind:
        return False
    if re.search(r"\bRR\b|ROBIN|BERGER", kind):
        return True
    n = len(doc.players)
    if rounds and n in (rounds, rounds + 1, 2 * rounds, 2 * (rounds + 1)):
        report.info("inferred", f"no Swiss or round-robin word in 092: {n} players for {rounds} rounds is read as a "
                    "round robin (TieBreakServer's rule)")
        return True
    return False


# --------------------------------------------------------------------------- mapping


def read_trf(data: bytes, source: str = "", policy: str = "fide-2024") -> ReadResult:
    """Parse a TRF and map it to the events of a new ledger (see the module docstring)."""
    report = InterchangeReport(format="trf", source=source)
    doc = parse_trf(data, source or "the file", report)
    report.dialect = "TRF-2026" if any(c in doc.records for c in ("142", "162", "212", "202")) or doc.byes_240 \
        else ("TRF(x)" if any(c.startswith("XX") for c in doc.records) else "TRF-16")

    numbers: dict[int, TrfPlayer] = {}
    for player in doc.players:
        if player.number in numbers:
            report.error("duplicate", f"pairing number {player.number} is used twice (lines "
                         f"{numbers[player.number].line} and {player.line}); the second player was not imported",
                         f"line {player.line}")
            continue
        numbers[player.number] = player
    players = [numbers[n] for n in sorted(numbers)]

    last_round = doc.last_round
    rounds = _rounds(doc, last_round, report)
    settings = _settings(doc, rounds, policy, source, report)
    events: list[ev.Event] = [ev.TournamentCreated(settings=settings)]
    events.append(ev.SourceImported(format="trf", filename=source.rsplit("/", 1)[-1],
                                    sha256=hashlib.sha256(data).hexdigest(),
                                    summary={"players": len(players), "rounds": last_round}))

    ids: dict[int, str] = {}
    for index, player in enumerate(players, start=1):
        pid = f"p{index:04d}"
        ids[player.number] = pid
        events.append(_registration(pid, player))
        _count(report, "players")

    # A withdrawal runs to the last round in which someone still has a result (Z-only rounds
    # at the end are announced absences of a round not played yet).
    active_last = max((b.round for p in players for b in p.blocks if not b.zero_like), default=0)
    withdrawn = _withdrawals(players, active_last)
    unrated: list[str] = []
    for r in range(1, last_round + 1):
        events.extend(_round_events(r, players, numbers, ids, withdrawn, unrated, report))
    events.extend(_byes_240(doc, numbers, ids, withdrawn, last_round, rounds, report))
    for player in players:
        k = withdrawn.get(player.number)
        if k is not None:
            events.append(ev.PlayerWithdrew(player_id=ids[player.number], from_round=k, reason="inferred from TRF"))
            _count(report, "withdrawals")
            if k == 1:
                report.info("inferred", f"player {player.number} ({player.name}) never played: withdrawn from round 1",
                            f"line {player.line}")
            else:
                report.info("inferred", f"player {player.number} ({player.name}) has only zero-point byes from "
                            f"round {k} to round {active_last}: withdrawal from round {k} inferred",
                            f"line {player.line}")
    if unrated:
        extras = dict(settings.extras)
        extras["trf.unrated"] = " ".join(unrated)
        events[0] = ev.TournamentCreated(settings=_with_extras(settings, extras))
    carried = [(n, text) for n, text in doc.comments if _carried_line(text)]
    if carried:
        where = f"line {carried[0][0]}"
        apply_carried(events, parse_carried((text[3:] for _, text in carried), report, where), report, where,
                      exact_free_rounds=True)
    places = {ids[p.number]: int(p.rank) for p in players if p.rank.isascii() and p.rank.isdigit() and int(p.rank) > 0}
    _check_points(events, players, ids, last_round, report)
    _check_counts(doc, players, report)
    return ReadResult(events, report, doc, places)


def _carried_line(text: str) -> bool:
    """Whether a comment line is one goledger wrote for itself (``### goledger …``,
    :mod:`goledger.formats.carried`): read back, not kept for the export."""
    return text[3:].strip().startswith("goledger ")


def _with_extras(settings: ev.TournamentSettings, extras: dict[str, str]) -> ev.TournamentSettings:
    return msgspec.structs.replace(settings, extras=extras)


def _rounds(doc: TrfDocument, last_round: int, report: InterchangeReport) -> int:
    declared = [(code, _int(doc.text(code))) for code in ("142", "XXR") if code in doc.records]
    for code, value in declared:
        if value is None:
            report.warning("invalid", f"number of rounds {doc.text(code)!r} in {code} is not a number")
    values = [v for _, v in declared if v]
    if len(set(values)) > 1:
        report.warning("inconsistency", f"142 and XXR disagree on the number of rounds ({values[0]} and {values[1]}); "
                       f"{values[0]} is used")
    rounds = values[0] if values else last_round
    if rounds < last_round:
        report.warning("inconsistency", f"the file declares {rounds} rounds but has blocks for {last_round}; "
                       f"{last_round} rounds are used")
        rounds = last_round
    if rounds > 99:
        raise FormatError(f"the file declares {rounds} rounds; goledger handles up to 99")
    return max(rounds, 1)


def _settings(doc: TrfDocument, rounds: int, policy: str, source: str, report: InterchangeReport
              ) -> ev.TournamentSettings:
    # FIDE's unplayed-game rules load late: only a file that sets a point system needs them
    from goledger.replay.scoring.fide_unplayed import PointSystem

    get_policy(policy)
    extras: dict[str, str] = {}
    for code in KEPT_CODES:
        lines = doc.records.get(code)
        if lines:
            extras[f"trf.{code}"] = "\n".join(text for _, text in lines)
            report.info("kept", f"record {code} kept for the export", f"line {lines[0][0]}")
    dates: dict[str, str] = {}
    for code, key in (("042", "begin_date"), ("052", "end_date")):
        raw = doc.text(code)
        if raw:
            iso = parse_trf_date(raw)
            if iso is None:
                extras[f"trf.{code}"] = doc.records[code][0][1]
                report.warning("unmapped", f"date {raw!r} in {code} is not understood; kept verbatim")
            else:
                dates[key] = iso
    overrides: dict[str, object] = {}
    system_text = ""
    if "162" in doc.records:
        system_text, ignored = point_system_from_162(doc.records["162"][0][1])
        for item in ignored:
            report.warning("unmapped", f"scoring item {item!r} of record 162 is not used by goledger")
    if "XXS" in doc.records:
        xxs = " ".join(text[4:].strip() for _, text in doc.records["XXS"])
        system_text = f"{system_text} {xxs}".strip()
    if system_text:
        try:
            points = PointSystem.parse(system_text)
        except Exception as exc:  # CommandRejected: say it and keep the standard system
            report.error("invalid", f"scoring system not understood: {exc}")
            points = PointSystem()
        if not points.is_standard:
            overrides["point_system"] = points.to_text()
            report.info("mapped", f"scoring system {points.to_text()!r} kept as the policy's point system")
    criteria: tuple[str, ...] = ()
    for code in ("212", "202"):
        raw = doc.text(code)
        if not raw:
            continue
        names: list[str] = []
        complete = True
        for spec in raw.split(","):
            name = spec.strip().upper().replace("/", "-").replace("#", "-").replace("!", "-")
            if not name:
                continue
            try:
                names.append(CRITERION_FOR_FIDE.get(name) or get_criterion(name).name)
            except Exception:
                complete = False
                report.warning("unmapped", f"tie-break {spec.strip()!r} of record {code} is not known to goledger")
        if names:
            criteria = tuple(names) if code == "212" or names[0] == "PTS" else ("PTS", *names)
            if complete and (code == "212" or names[0] == "PTS"):
                extras.pop(f"trf.{code}", None)  # the export writes it from the criteria
            break
    name = doc.text("012") or (source.rsplit("/", 1)[-1].rsplit(".", 1)[0] if source else "") or "TRF tournament"
    if not doc.text("012"):
        report.warning("unmapped", f"no tournament name (012); named {name!r}")
    system: ev.System = "round-robin" if _is_round_robin(doc, rounds, report) else "swiss"
    for code in INFORMATIVE_CODES:
        for number, _ in doc.records.get(code, []):
            if code == "082":
                report.warning("unmapped", "record 082 (number of teams) is for team events; ignored",
                               f"line {number}")
    for code, lines in doc.records.items():
        if code in KEPT_CODES or code in INFORMATIVE_CODES or code in ("012", "022", "042", "052", "102", "142",
                                                                      "162", "XXR", "XXS"):
            continue
        doc.unknown.extend(lines)
    doc.unknown.sort()
    if doc.unknown:
        extras["trf.unmapped"] = "\n".join(text for _, text in doc.unknown)
        for number, text in doc.unknown:
            report.warning("unmapped", f"record {text[:3]!r} is not used by goledger (kept verbatim for the export)",
                           f"line {number}")
    kept = [(n, text) for n, text in doc.comments if not _carried_line(text)]
    if kept:
        extras["trf.comments"] = "\n".join(text for _, text in kept)
        report.info("kept", f"{len(kept)} comment line(s) kept for the export")
    return ev.TournamentSettings(
        name=name, location=doc.text("022"), director=doc.text("102"), rounds=rounds, system=system,
        mm_bar="9d", mm_floor="30k", nbw2_bye=2, nbw2_absent=0, mms2_bye=2, mms2_absent=0, round_down=False,
        criteria=criteria, policy=policy, policy_overrides=overrides, extras=extras, **dates,  # type: ignore[arg-type]
    )


def _registration(pid: str, player: TrfPlayer) -> ev.PlayerRegistered:
    surname, _, first = player.name.partition(",")
    extras = {f"trf.{k}": v for k, v in (("sex", player.sex), ("title", player.title),
                                         ("federation", player.federation), ("birth", player.birth)) if v}
    ids = {"fide_id": player.fide_id} if player.fide_id else {}
    return ev.PlayerRegistered(
        player_id=pid, surname=surname.strip() or player.name or f"Player {player.number}",
        first_name=first.strip(), rank="30k", rating=player.rating, rating_origin="FIDE" if player.rating else "",
        ids=ids, start_number=player.number, extras=extras,
    )


def _withdrawals(players: list[TrfPlayer], last_round: int) -> dict[int, int]:
    """Pairing number → first round of a run of zero-point byes lasting to the file's last
    round (spec §5: no game, forfeit, ``U``, ``H`` or ``F`` from that round on)."""
    found: dict[int, int] = {}
    if last_round == 0:
        return found
    for player in players:
        k = last_round + 1
        for r in range(last_round, 0, -1):
            block = player.block(r)
            if block is None or block.zero_like:
                k = r
            else:
                break
        if k <= last_round:
            found[player.number] = k
    return found


def _round_events(
    r: int, players: list[TrfPlayer], numbers: dict[int, TrfPlayer], ids: dict[int, str], withdrawn: dict[int, int],
    unrated: list[str], report: InterchangeReport,
) -> list[ev.Event]:
    events: list[ev.Event] = []
    games: list[tuple[TrfPlayer, TrfBlock, TrfPlayer, TrfBlock]] = []
    seen: set[int] = set()
    byes = 0
    for player in players:
        block = player.block(r)
        where = f"line {player.line}, round {r}"
        if block is None or block.no_game:
            if withdrawn.get(player.number, r + 1) <= r:
                continue
            code = " " if block is None else block.result
            if block is not None and block.result == "-":
                report.info("normalised", f"player {player.number}: '0000 - -' read as a zero-point bye (Z)", where)
            if code in ("1", "W", "+"):
                report.warning("normalised", f"player {player.number}: result {code!r} without an opponent read as a "
                               "full-point bye (F)", where)
                code = "F"
            elif code in ("=", "D"):
                report.warning("normalised", f"player {player.number}: result {code!r} without an opponent read as a "
                               "half-point bye (H)", where)
                code = "H"
            elif code in ("0", "L", "?", "*"):
                report.warning("normalised", f"player {player.number}: result {code!r} without an opponent read as a "
                               "zero-point bye (Z)", where)
                code = "Z"
            if code == "U":
                byes += 1
                events.append(ev.ByeAssigned(round=r, player_id=ids[player.number]))
                _count(report, "byes")
            else:
                points2 = {"F": 2, "H": 1}.get(code, 0)
                events.append(ev.ParticipationChanged(player_id=ids[player.number], round=r, participating=False,
                                                      points2=points2))
                _count(report, {2: "full-point byes", 1: "half-point byes"}.get(points2, "zero-point byes"))
            continue
        if player.number in seen:
            continue
        opponent = numbers.get(block.opponent)
        if opponent is None:
            report.error("invalid", f"player {player.number} meets player {block.opponent}, who is not in the file",
                         where)
            continue
        other = opponent.block(r)
        if other is None or other.opponent != player.number:
            shown = "nothing" if other is None else f"opponent {other.opponent:04d}"
            report.error("inconsistency", f"player {player.number} meets {opponent.number} but {opponent.number}'s "
                         f"round {r} shows {shown}; the game was not imported", where)
            seen.add(player.number)
            continue
        seen.update((player.number, opponent.number))
        games.append((player, block, opponent, other))
    if byes > 1:
        report.warning("inconsistency", f"round {r} has {byes} pairing-allocated byes (U)")
    for table, (a, block_a, b, block_b) in enumerate(games, start=1):
        events.extend(_game_events(r, table, a, block_a, b, block_b, ids, unrated, report))
    return events


def _game_events(
    r: int, table: int, a: TrfPlayer, block_a: TrfBlock, b: TrfPlayer, block_b: TrfBlock, ids: dict[int, str],
    unrated: list[str], report: InterchangeReport,
) -> list[ev.Event]:
    where = f"line {a.line}, round {r}"
    colours = (block_a.colour, block_b.colour)
    color_known = True
    if colours == ("w", "b"):
        white, black, wb, bb = a, b, block_a, block_b
    elif colours == ("b", "w"):
        white, black, wb, bb = b, a, block_b, block_a
    else:
        color_known = False
        white, black, wb, bb = a, b, block_a, block_b
        if colours != ("-", "-"):
            report.warning("inconsistency", f"players {a.number} and {b.number} show colours {colours[0]!r} and "
                           f"{colours[1]!r} in round {r}; colours recorded as unknown", where)
    events: list[ev.Event] = [ev.GamePaired(round=r, table=table, white=ids[white.number], black=ids[black.number],
                                            color_known=color_known)]
    _count(report, "games")
    pair = (wb.result, bb.result)
    if pair in (("?", "?"), ("*", "*"), (" ", " "), ("?", " "), (" ", "?"), ("*", " "), (" ", "*")):
        report.warning("unfinished", f"game {a.number}–{b.number} of round {r} has no result yet", where)
        return events
    mapped = _RESULT_PAIRS.get(pair)
    if mapped is None:
        report.error("inconsistency", f"results {pair[0]!r} and {pair[1]!r} of players {white.number} and "
                     f"{black.number} in round {r} do not match; the game was paired without a result", where)
        return events
    result, by_default, not_rated = mapped
    if pair in _GO_ONLY:
        report.warning("inconsistency", f"results {pair[0]!r}/{pair[1]!r} in round {r} are not a chess result; "
                       f"recorded as {result.value}" + (" by default" if by_default else ""), where)
    events.append(ev.ResultRecorded(round=r, table=table, result=result, by_default=by_default))
    if by_default:
        _count(report, "forfeits")
    if not_rated:
        unrated.append(f"{r}.{table}")
    return events


def _byes_240(doc: TrfDocument, numbers: dict[int, TrfPlayer], ids: dict[int, str], withdrawn: dict[int, int],
              last_round: int, rounds: int, report: InterchangeReport) -> list[ev.Event]:
    events: list[ev.Event] = []
    for line, kind, round_, players in doc.byes_240:
        where = f"line {line}"
        if not 1 <= round_ <= rounds:
            report.warning("invalid", f"bye record 240 names round {round_}, outside 1..{rounds}", where)
            continue
        for number in players:
            player = numbers.get(number)
            if player is None:
                report.error("invalid", f"bye record 240 names player {number}, who is not in the file", where)
                continue
            if player.block(round_) is not None or round_ <= last_round:
                block = player.block(round_)
                if block is None or block.result != kind:
                    report.warning("inconsistency", f"bye record 240 gives player {number} {kind!r} in round {round_}, "
                                   "but the round is already in the player line; the player line is used", where)
                continue
            if number in withdrawn:
                report.warning("inconsistency", f"bye record 240 for player {number}, who has withdrawn", where)
                continue
            events.append(ev.ParticipationChanged(player_id=ids[number], round=round_, participating=False,
                                                  points2={"F": 2, "H": 1}.get(kind, 0)))
            _count(report, "announced byes")
    return events


def _check_points(events: list[ev.Event], players: list[TrfPlayer], ids: dict[int, str], last_round: int,
                  report: InterchangeReport) -> None:
    """Recompute every player's points (policy point system) and report lines that differ (§6)."""
    from goledger.replay.scoring.fide_unplayed import FideData

    state = fold(events, check=check_registered)
    assert state.settings is not None
    policy = get_policy(state.settings.policy).with_overrides(state.settings.policy_overrides)
    data = FideData(state, last_round, policy)
    for player in players:
        if not player.points:
            continue
        stated = ascii_decimal(player.points)
        if stated is None:
            report.warning("invalid", f"points {player.points!r} of player {player.number} is not a number",
                           f"line {player.line}")
            continue
        pid = ids[player.number]
        computed = Fraction(data.score2[pid], 2)
        if stated == computed:
            continue
        value2 = _pab_value_fitting(data, pid, stated - computed, data.points.pab is None)
        if value2 is not None:
            for index, event in enumerate(events):
                if isinstance(event, ev.ByeAssigned) and event.player_id == pid:
                    events[index] = ev.ByeAssigned(round=event.round, player_id=pid, points2=value2)
            report.info("inferred", f"player {player.number} ({player.name}): the points column fits pairing-allocated "
                        f"byes worth {_decimal(Fraction(value2, 2))}; recorded so (as TieBreakServer reads it)",
                        f"line {player.line}")
            continue
        report.warning("inconsistency", f"player {player.number} ({player.name}): the points column says "
                       f"{player.points} but the rounds add up to {_decimal(computed)}", f"line {player.line}")


def _pab_value_fitting(data: object, pid: str, difference: Fraction, free: bool) -> int | None:
    """The value (half-points: 0, 1 or 2) that the player's pairing-allocated byes must have
    for his points column to add up, if one exists (§6: TieBreakServer lets each PAB take the
    value that fits its own line). ``None`` when no single value fits or the system fixes it."""
    from goledger.replay.scoring.fide_unplayed import FideData, Kind

    assert isinstance(data, FideData)
    byes = [fr for fr in data.rounds[pid] if fr.kind is Kind.PAB]
    if not free or not byes or len({fr.points2 for fr in byes}) != 1:
        return None
    current = byes[0].points2
    for value2 in (2, 1, 0):
        if value2 != current and Fraction((value2 - current) * len(byes), 2) == difference:
            return value2
    return None


def _check_counts(doc: TrfDocument, players: list[TrfPlayer], report: InterchangeReport) -> None:
    for code, actual, what in (("062", len(players), "players"),
                               ("072", sum(1 for p in players if p.rating), "rated players")):
        raw = doc.text(code)
        if not raw:
            continue
        match = re.match(r"\d+", raw)
        # ascii_int: a count of more than MAX_DIGITS digits is not a count (and int() of 5,000
        # digits raises); it is reported as a mismatch like any other.
        if match and ascii_int(match.group()) != actual:
            report.info("inconsistency", f"record {code} says {match.group()} {what}; the file lists {actual}")


def _count(report: InterchangeReport, kind: str) -> None:
    report.count_read(kind)
    report.count_recorded(kind)


def _decimal(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.1f}"
