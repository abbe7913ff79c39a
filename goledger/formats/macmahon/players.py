"""MacMahon's plain participant list → registrations appended to an existing ledger.

The list is UTF-8 text, one participant per line, fields separated by ``|`` (spaces around
a field are ignored; a BOM, blank lines and lines starting with ``#`` or ``;`` are skipped)::

    surname|first name|strength|country|club|rating|EGD PIN|registration|rounds

Only the first three fields are required; a line may stop after any field.

* ``strength`` — a MacMahon level: ``10k``, ``2d``, ``1p``, any case, ``10 kyu``/``2 dan``
  accepted (35k…1k, 1d…9d, 1p…10p; a level outside the ledger's 30k…9p is kept in
  ``macmahon.GoLevel`` as the XML import does);
* ``country`` — a two-letter code (``de``, ``FR``); ``club`` — the club's name;
* ``rating`` — an integer; ``EGD PIN`` — digits;
* ``registration`` — ``f``/``F`` final (the default) or ``p``/``P`` preliminary
  (spec ``formats/macmahon.md`` §4);
* ``rounds`` — "playing in rounds", one character per round from round 1: ``1``, ``+``,
  ``x`` or ``y`` plays, ``0``, ``-``, ``.`` or ``n`` does not (an announced absence);
  rounds past the string are played.

A first line whose strength field is not a level but a word (``strength``, ``level``,
``rank``) is taken as a header and skipped.

**Behaviour** (goledger's choice; MacMahon's own column layout was not recovered):
the list is **appended to an existing ledger** (create the tournament first with
``goledger new`` or an import), in one transaction, after a ``SourceImported`` event. A
line naming a player the ledger (or an earlier line) already has — same EGD PIN, or same
surname and first name — is skipped with a warning, so a list can be imported again after
it grew; ``force`` registers namesakes instead. A line that cannot be read is an error:
any error refuses the whole list (nothing is written) unless ``allow_errors``, which skips
those lines; ``strict`` refuses on any warning too.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

from goledger.errors import FormatError, GoledgerError
from goledger.formats.importing import check_domains, check_report, read_input, write_report
from goledger.formats.report import InterchangeReport
from goledger.i18n.messages import say
from goledger.ledger import events as ev
from goledger.ledger.domains import identity_key
from goledger.ledger.store import Ledger, Record
from goledger.outputs import check_output
from goledger.replay.loading.load import load_state
from goledger.replay.scoring.macmahon_rules import PREFIX, Level, LevelError

if TYPE_CHECKING:
    from goledger.replay.fold.state import TournamentState

__all__ = ["FORMAT", "PlayersOutcome", "import_macmahon_players", "read_player_list"]

FORMAT: Final = "macmahon-players"
MAX_LIST_BYTES: Final = 16 * 1024 * 1024
"""A participant list of 10,000 players is about 1 MB; far larger files are not one."""
PathLike = str | os.PathLike[str]
_PLAYS: Final = frozenset("1+xXyY")
_SKIPS: Final = frozenset("0-.nN")
_HEADER_WORDS: Final = frozenset({"strength", "level", "rank", "grade", "stärke", "niveau"})


@dataclass
class ListedPlayer:
    """One line of the list, parsed."""

    line: int
    surname: str
    first_name: str
    level: Level
    country: str = ""
    club: str = ""
    rating: int | None = None
    egd_pin: str = ""
    preliminary: bool = False
    absent: list[int] = field(default_factory=list)


@dataclass
class PlayersOutcome:
    """What an import of a player list appended."""

    db: str
    records: list[Record]
    report: InterchangeReport

    @property
    def events(self) -> int:
        """How many events the import appended."""
        return len(self.records)

    @property
    def message(self) -> str:
        c = self.report.counts.get("players", {"read": 0, "recorded": 0})
        return f"registered {c['recorded']} of {c['read']} listed players in {self.db} ({len(self.records)} events)"


def _fold(text: str) -> str:
    """The form two listed names are the same person's in: Unicode twins (NFC/NFD,
    compatibility forms, invisible characters, case) compare equal (issue 18, point 6)."""
    return identity_key(text)[0]


def read_player_list(data: bytes, rounds: int, report: InterchangeReport) -> list[ListedPlayer]:
    """Parse the list (module docstring); problems go to ``report``, readable lines are returned."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad_line = data[: exc.start].count(b"\n") + 1
        raise FormatError(f"{report.source} is not UTF-8 (line {bad_line}); save the list as UTF-8") from None
    players: list[ListedPlayer] = []
    first = True
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        fields = [f.strip() for f in line.split("|")]
        where = say("line %(line)d", line=number)
        if first:
            first = False
            if len(fields) >= 3 and fields[2].casefold() in _HEADER_WORDS:
                report.info("header", "first line taken as a header and skipped", where)
                continue
        report.count_read("players")
        parsed = _parse_line(fields, number, rounds, report, where)
        if parsed is not None:
            players.append(parsed)
    return players


def _parse_line(fields: list[str], number: int, rounds: int, report: InterchangeReport,
                where: str) -> ListedPlayer | None:
    fields = fields + [""] * (9 - len(fields))
    if any(fields[9:]):
        report.warning("ignored", say("fields after the 9th are ignored: %(fields)r", fields="|".join(fields[9:])),
                       where)
    surname, first_name, strength, country, club, rating_text, pin, registration, playing = fields[:9]
    if not surname:
        report.error("missing", say("no surname"), where)
        return None
    if not strength:
        report.error("missing", say("%(surname)s: no strength (a level such as 10k or 2d)", surname=surname), where)
        return None
    try:
        level = Level.parse(strength)
    except LevelError as exc:  # its sentence made in the language in force
        report.error("invalid", say("%(surname)s: %(problem)s", surname=surname, problem=str(exc)), where)
        return None
    code = country.upper()
    if code and not re.fullmatch(r"[A-Z]{2}", code):
        report.error("invalid", say("%(surname)s: country %(country)r is not a two-letter code such as DE",
                                    surname=surname, country=country), where)
        return None
    rating: int | None = None
    if rating_text:
        try:
            rating = int(rating_text)
        except ValueError:
            report.error("invalid", say("%(surname)s: rating %(rating)r is not an integer", surname=surname,
                                        rating=rating_text), where)
            return None
    if pin and not pin.isdigit():
        report.error("invalid", say("%(surname)s: EGD PIN %(pin)r must be digits only", surname=surname, pin=pin),
                     where)
        return None
    if registration and registration not in ("f", "F", "p", "P"):
        report.error("invalid", say("%(surname)s: registration %(registration)r is not f (final) or p (preliminary)",
                                    surname=surname, registration=registration), where)
        return None
    absent: list[int] = []
    for index, flag in enumerate(playing, start=1):
        if flag in _PLAYS:
            continue
        if flag not in _SKIPS:
            report.error("invalid", say("%(surname)s: round flag %(flag)r is not 1/+/x (plays) or 0/-/. (absent)",
                                        surname=surname, flag=flag), where)
            return None
        if index > rounds:
            report.warning("ignored", say("%(surname)s: round %(round)d is past the tournament's %(rounds)d rounds",
                                           surname=surname, round=index, rounds=rounds), where)
            continue
        absent.append(index)
    if str(level) != strength:
        report.info("normalised", say("%(surname)s: strength %(strength)r read as %(level)s", surname=surname,
                                      strength=strength, level=str(level)), where)
    return ListedPlayer(number, surname, first_name, level, code, club, rating, pin.lstrip("0") if pin else "",
                        registration in ("p", "P"), absent)


def _events(state: TournamentState, listed: list[ListedPlayer], force: bool,
            report: InterchangeReport) -> list[ev.Event]:
    pins = {p.egd_pin: p.id for p in state.players.values() if p.egd_pin}
    names = {(_fold(p.surname), _fold(p.first_name)): p.id for p in state.players.values()}
    registrations: list[ev.Event] = []
    absences: list[ev.Event] = []
    count = len(state.players)
    for item in listed:
        where = say("line %(line)d", line=item.line)
        if item.egd_pin and item.egd_pin in pins:
            report.warning("duplicate", say("%(name)s: EGD PIN %(pin)s is already registered (%(id)s); skipped",
                                            name=f"{item.surname} {item.first_name}", pin=item.egd_pin,
                                            id=pins[item.egd_pin]), where)
            continue
        key = (_fold(item.surname), _fold(item.first_name))
        if key in names and not force:
            report.warning("duplicate", say("%(name)s is already registered as %(id)s; skipped (force registers a "
                                            "namesake)", name=f"{item.surname} {item.first_name}", id=names[key]),
                           where)
            continue
        count += 1
        player_id = f"p{count:04d}"
        extras = {} if item.level.fits_rank else {PREFIX + "GoLevel": str(item.level)}
        registrations.append(ev.PlayerRegistered(
            player_id=player_id, surname=item.surname, first_name=item.first_name, rank=item.level.to_rank(),
            rating=item.rating, country=item.country, club=item.club, egd_pin=item.egd_pin,
            status="preliminary" if item.preliminary else "final", start_number=count, extras=extras,
        ))
        report.count_recorded("players")
        for r in item.absent:
            absences.append(ev.ParticipationChanged(player_id=player_id, round=r, participating=False))
            report.count_recorded("absences")
        if item.egd_pin:
            pins[item.egd_pin] = player_id
        names[key] = player_id
    return registrations + absences


def import_macmahon_players(
    file: PathLike,
    db: PathLike,
    report: PathLike | None = None,
    strict: bool = False,
    allow_errors: bool = False,
    force: bool = False,
    *,
    actor: str = "import",
    reason: str = "",
    expected_head: int | None = None,
) -> PlayersOutcome:
    """Append the players of a MacMahon participant list to the ledger ``db`` (module docstring)."""

    source = Path(file)
    if report is not None:
        try:
            check_output(report, [db, source], what="report")
        except GoledgerError as exc:
            raise FormatError(exc.message) from None
    data = read_input(source, max_bytes=MAX_LIST_BYTES, kind="participant lists")
    rep = InterchangeReport(format=FORMAT, source=str(source))
    target = Path(db)
    if not target.exists():
        raise FormatError(f"{target} does not exist; create the tournament first (goledger new) and import the "
                          "list into it")
    with Ledger.open(target) as ledger, ledger.writing(expected_head) as tx:
        state = load_state(tx)
        if state.settings is None:
            raise FormatError(f"{target} has no tournament")
        listed = read_player_list(data, state.rounds, rep)
        body = _events(state, listed, force, rep)
        check_domains(body, rep)
        check_report(rep, strict=strict, allow_errors=allow_errors)
        if not body:
            return PlayersOutcome(db=str(target), records=[], report=rep)
        summary = {kind: c["recorded"] for kind, c in sorted(rep.counts.items())}
        head = ev.SourceImported(format=FORMAT, filename=source.name, sha256=hashlib.sha256(data).hexdigest(),
                                 summary=summary)
        records = tx.append([head, *body], actor=actor, reason=reason or f"import {FORMAT} {source.name}")
    write_report(rep, report, protect=[db, source])
    return PlayersOutcome(db=str(target), records=records, report=rep)
