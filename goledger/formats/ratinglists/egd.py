"""The EGD rating list (``allworld_lp.html``): one player per line, blank-separated columns.

Format (``../shared/realdata/SOURCES.md``, "ratinglists"): a legend and the column titles
(``PIN  Name  Club  Grade P&D  GoR  NT  Last appearance``), then one line per player::

     13701534  Celebican Barkin                      TR  Ist     1k   --   2004   130  T190217A

``PIN`` 8 digits; ``Name`` the surname, a blank, the first names with their own blanks
written ``_`` (some have no first name); country (2 letters, ``XX`` unknown); club (1–4
characters, ``xxx``/``xxxx`` unknown); grade (``20k``…``1k``, ``1d``…``9d``, ``1p``…``9p``);
``P&D`` (a suggested grade or ``--``); ``GoR``; ``NT`` (tournaments played); the EGD code of
the last tournament, ``T``/``E``/``G``/``W`` + ``YYMMDD`` + letters (absent for a player
who played none). The file ends with ``Number of players: N``.

Every line after the titles that is not blank, markup or the closing counts is a player
line, and ends up either in ``players`` or in ``unparsed`` with the reason; nothing is
guessed. The list's date is its newest last appearance.

>>> text = (" 13701534  Celebican Barkin    TR  Ist     1k   --   2004   130  T190217A\\n"
...         " 18950052  Choi Su-gyeom       KR  xxxx    5d  20k      0     0\\n"
...         " 13462834  Qiu Danyun          0+  8+      8d   --   2800     1  T190216K\\n")
>>> parsed = read(text.encode())
>>> parsed.ref.date, parsed.player_lines, [p.pin for p in parsed.players]
('2019-02-17', 3, ['13701534', '18950052'])
>>> parsed.players[0].first_name, parsed.players[0].gor, parsed.players[1].last_tournament
('Barkin', 2004, '')
>>> parsed.unparsed[0].why
"country '0+' is not two capital letters"
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import re
from typing import Final

from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.ratings.model import MAX_UNPARSED_KEPT, DuplicatePin, ListRef, ParsedList, RatedPlayer, Row, Unparsed

__all__ = ["read"]

_GRADES: Final = frozenset([f"{n}k" for n in range(1, 31)] + [f"{n}d" for n in range(1, 10)]
                           + [f"{n}p" for n in range(1, 10)])
_LAST: Final = re.compile(r"[A-Z](\d\d)(\d\d)(\d\d)[A-Z]{0,2}")
_FOOTER: Final = re.compile(r"\s*Number of\b")
_WELL_FORMED: Final = re.compile(
    r" *(\d{8}) +([^ _][^ ]*)(?: +([^ ]+))? +([A-Z]{2}) +([^ ]{1,4}) +(\d{1,2}[kdp]) +(--|\d{1,2}[kdp])"
    r" +(\d{1,6}) +(\d{1,6})(?: +([A-Z]\d{6}[A-Z]{0,2}))? *")
"""The usual line, read by one match; any other goes through :func:`_player`, which says why
it is not a player when it is not (both read a well-formed line alike: a test checks it)."""


def _titles_line(lines: list[str]) -> int:
    """The index of the column titles (``PIN … Name``), or -1."""
    for i, line in enumerate(lines[:50]):
        words = line.split()
        if words[:2] == ["PIN", "Name"]:
            return i
    return -1


@functools.lru_cache(maxsize=8192)
def last_date(code: str) -> str:
    """``T190217A`` → ``2019-02-17`` (years 70–99 are 19xx, 00–69 20xx); ``""`` when not a
    date. (A date after today is no last appearance: :func:`read` lists its line as unparsed.)

    >>> last_date("T190217A"), last_date("G970705"), last_date("T191317A")
    ('2019-02-17', '1997-07-05', '')
    """
    m = _LAST.fullmatch(code)
    if not m:
        return ""
    yy, mm, dd = (int(g) for g in m.groups())
    try:
        return datetime.date(1900 + yy if yy >= 70 else 2000 + yy, mm, dd).isoformat()
    except ValueError:
        return ""


def _player(line: str, number: int) -> RatedPlayer | str:
    """The player of one line, or why it is not one. The columns are found from the right
    (the name alone may hold blanks): the last appearance when the last word is not a
    number, then NT, GoR, P&D, grade, club and country."""
    words = line.split()
    has_last = len(words) > 1 and not words[-1].isdigit()
    tail = 7 if has_last else 6
    if len(words) < tail + 2:
        return "not the columns PIN, name, country, club, grade, P&D, GoR, NT, last appearance"
    pin = words[0]
    country, club, grade, pd, gor, nt = words[-tail:][:6]
    last = words[-1] if has_last else ""
    if len(pin) != 8 or not pin.isdigit() or not pin.isascii():
        return f"PIN {pin[:20]!r} is not 8 digits"
    if not (len(country) == 2 and country.isascii() and country.isalpha() and country.isupper()):
        return f"country {country[:20]!r} is not two capital letters"
    if len(club) > 4:
        return f"club {club[:20]!r} is not 1 to 4 characters"
    if grade not in _GRADES:
        return f"grade {grade[:20]!r} is not a grade like 20k, 1k, 1d, 7d or 1p"
    if pd != "--" and pd not in _GRADES:
        return f"P&D {pd[:20]!r} is neither '--' nor a grade"
    if not (gor.isascii() and gor.isdigit() and len(gor) <= 6 and nt.isascii() and nt.isdigit() and len(nt) <= 6):
        return f"GoR {gor[:20]!r} and NT {nt[:20]!r} are not both numbers"
    date = last_date(last) if last else ""
    if last and not date:
        return f"last appearance {last[:20]!r} is not a tournament code like T190217A"
    names = words[1:-tail]
    if len(names) == 2 and "_" not in names[0] and "_" not in names[1]:
        surname, first = names
    else:
        names = [w.replace("_", " ") for w in names]
        surname = " ".join(names[0].split())
        first = " ".join(" ".join(names[1:]).split())
    if not surname:
        return "the name is blank"
    return RatedPlayer(pin=pin, surname=surname, first_name=first, country=country, club=club,
                       grade=grade, promotion="" if pd == "--" else pd, gor=int(gor), nt=int(nt),
                       last_tournament=last, last_date=date, line=number)


def read(data: bytes, today: str | None = None) -> ParsedList:
    """Read the EGD list's bytes (UTF-8; a file that is not UTF-8 is read as Latin-1, the
    EGD's older encoding). Refuses a file with no player line or no dated one.

    The list's date is its newest last appearance no later than ``today`` (default: today's
    date): a line whose last appearance is after today (``T680101`` read as 2068) is unparsed,
    so it can neither date the list nor make every real list "older". Unparsed lines are
    counted; the first :data:`~goledger.ratings.model.MAX_UNPARSED_KEPT` are kept with their
    text and reason. A PIN given by more than one line is reported (:attr:`ParsedList.duplicate_pins`)."""
    today = today or datetime.date.today().isoformat()
    sha = hashlib.sha256(data).hexdigest()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    lines = text.splitlines()
    start = _titles_line(lines) + 1
    players: list[Row] = []
    unparsed: list[Unparsed] = []
    unparsed_lines = 0
    declared: int | None = None
    count = 0
    fast = _WELL_FORMED.fullmatch
    for index in range(start, len(lines)):
        line = lines[index]
        if line[:2] == " 1" or line[:1].isdigit():
            pass  # the usual player line, fast
        elif not line.strip() or line.lstrip().startswith("<"):
            continue
        elif _FOOTER.match(line):
            m = re.fullmatch(r"\s*Number of players:\s*(\d{1,9})\s*", line)
            if m:
                declared = int(m[1])
            continue
        count += 1
        m = fast(line)
        if m is not None:
            pin, surname, first, country, club, grade, pd, gor, nt, last = m.groups()
            date = last_date(last) if last else ""
            if grade in _GRADES and (pd == "--" or pd in _GRADES) and (date or not last) and "_" not in surname \
                    and date <= today:
                players.append((pin, surname, "" if not first else " ".join(first.replace("_", " ").split())
                                if "_" in first else first, country, club, grade, "" if pd == "--" else pd,
                                int(gor), int(nt), last or "", date, index + 1))
                continue
        got = _player(line, index + 1)
        if not isinstance(got, str) and got.last_date > today:
            got = f"last appearance {got.last_tournament!r} ({got.last_date}) is after today"
        if isinstance(got, str):
            unparsed_lines += 1
            if len(unparsed) < MAX_UNPARSED_KEPT:
                unparsed.append(Unparsed(line=index + 1, text=line[:200], why=got))
        else:
            players.append(got.row())
    if not players:
        raise CommandRejected(say("this is not an EGD rating list: no line reads as a player "
                                  "(PIN, name, country, club, grade, P&D, GoR, NT, last appearance)"))
    date = max(p[10] for p in players)
    if not date:
        raise CommandRejected(say("the list has no dated last appearance, so it has no date"))
    return ParsedList(ref=ListRef(source="egd", date=date, sha256=sha), rows=players, unparsed=unparsed,
                      player_lines=count, declared_players=declared, unparsed_lines=unparsed_lines,
                      duplicate_pins=duplicate_pins(players))


def duplicate_pins(rows: list[Row]) -> tuple[DuplicatePin, ...]:
    """The PINs more than one row gives, with their lines, in the order of their first line
    (the first :data:`~goledger.ratings.model.MAX_UNPARSED_KEPT`).

    >>> duplicate_pins([("1", "A", *("",) * 5, 0, 0, "", "", 3), ("1", "B", *("",) * 5, 0, 0, "", "", 9)])
    (DuplicatePin(pin='1', lines=(3, 9)),)
    """
    lines: dict[str, list[int]] = {}
    for row in rows:
        lines.setdefault(row[0], []).append(row[11])
    found = [DuplicatePin(pin=pin, lines=tuple(at)) for pin, at in lines.items() if len(at) > 1]
    return tuple(found[:MAX_UNPARSED_KEPT])
