"""Every desk message in the page's language (issue 44, item 1, the done-when): over HTTP on a
running ``goledger serve``, a Turkish and a Hungarian tournament's desk is made to refuse and to
confirm each command it calls — results, corrections, absences, byes, withdrawals,
reinstatements, registration, player updates, rule changes, pairing and unpairing, hand edits,
publishing, showing a round, units — by posting the desk's own forms (``POST /desk/do/ACTION``).
Each message the director is shown (the refusal page's, or the flash line after a write) is
checked against the catalogs: no English fragment of a catalog message that the language
translates otherwise (:func:`tests.test_translations.english_left`), no Hungarian ``a(z)``. A
refusal leaves the ledger as it was; a confirmation appends."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from goledger import commands
from goledger.ledger.store import Ledger

from ..desk_server import DeskServer
from ..test_translations import english_left
from .test_web_attacks import logged_in

httpx = pytest.importorskip("httpx")

NAMES = {
    "tr": [("Yılmaz", "Ece", "2d"), ("Altan", "Kuntay", "1k"), ("Demir", "Can", "4k"), ("Kaya", "Ada", "5k"),
           ("Şahin", "Efe", "6k"), ("Öztürk", "Naz", "7k")],
    "hu": [("Sütő", "Lőrinc", "2d"), ("Csizmadia", "György", "1k"), ("Kovács", "Anna", "4k"),
           ("Szabó", "Zsófia", "5k"), ("Nagy", "Ödön", "6k"), ("Tóth", "Ilona", "7k")],
}

REFUSALS: list[tuple[str, dict[str, str]]] = [
    ("result", {"round": "1", "table": "9", "result": "1-0"}),  # no such table
    ("result", {"round": "1", "table": "1", "result": "0-1"}),  # already has a result
    ("result", {"round": "2", "table": "1", "result": "1-0"}),  # round not paired yet
    ("result", {"round": "9", "table": "1", "result": "1-0"}),  # outside the tournament
    ("result", {"round": "1", "entry": "9 1-0"}),  # a typed entry naming no table
    ("correct", {"round": "1", "table": "2", "result": "1-0", "reason": "elírás"}),  # no result yet
    ("correct", {"round": "1", "table": "1", "result": "1-0", "reason": "elírás"}),  # nothing to correct
    ("correct", {"round": "1", "table": "1", "result": "0-1"}),  # no reason
    ("unpair", {"round": "1", "table": "7"}),
    ("player", {"what": "absent", "player": "nobody", "round": "2"}),
    ("player", {"what": "absent", "player": "p0001", "round": "2", "points": "3"}),
    ("player", {"what": "absent", "player": "p0001", "round": "1"}),  # paired in round 1
    ("player", {"what": "present", "player": "p0001", "round": "2"}),
    ("player", {"what": "bye", "player": "p0001", "round": "1"}),  # already paired
    ("player", {"what": "unbye", "player": "p0001", "round": "2"}),
    ("player", {"what": "withdraw", "player": "p0001", "round": "1"}),  # unpair first
    ("player", {"what": "reinstate", "player": "p0001", "round": "2"}),
    ("player", {"what": "dance", "player": "p0001", "round": "2"}),
    ("register", {"surname": "", "first_name": "Ali", "rank": "3k"}),
    ("register", {"surname": "Veli", "first_name": "Ali", "rank": ""}),
    ("register", {"surname": "Veli", "first_name": "Ali", "rank": "3k", "country": "TUR"}),
    ("register", {"surname": "Ay\u200bse", "first_name": "Ali", "rank": "3k"}),  # a zero-width space (the domain)
    ("update-player", {"player": "p0001", "club": "Ank\u202eara"}),  # a bidi override (the domain)
    ("change-rules", {"settings": "mm_floor=40k"}),  # not a rank (the domain)
    ("update-player", {"player": "p0001"}),
    ("update-player", {"player": "p0001", "status": "maybe"}),
    ("change-rules", {"settings": ""}),
    ("change-rules", {"settings": "nonsense=1"}),
    ("change-rules", {"settings": "komi=7.5"}),  # the value it has
    ("pair-round", {"round": "1"}),  # nobody left to pair
    ("pair-round", {"round": "9"}),
    ("edit-game", {"round": "1", "table": "2"}),  # no edit
    ("edit-game", {"round": "1", "table": "1", "komi": "6.5"}),  # it has a result
    ("renumber-tables", {"round": "2"}),
    ("show-round", {"round": "1"}),  # pairings_visible=auto
    ("publish", {"round": "3"}),
    ("unit-add", {"name": "Ekip", "member1": "p0001", "member2": "p0002"}),
    ("unit-remove", {"unit": "u009"}),
    ("unpair-round", {"round": "2", "reason": "wrong"}),
    ("forbid", {"player_a": "p0001", "player_b": "p0001"}),  # named twice
    ("forbid", {"player_a": "p0001", "player_b": "p0002", "lift": "1"}),  # no constraint to lift
    ("forbid", {"player_a": "p0001", "player_b": "p0002", "from_round": "3", "until_round": "2"}),
    ("fix-pairing", {"player_a": "p0001", "player_b": "p0001", "round": "2"}),  # cannot play himself
    ("fix-pairing", {"player_a": "p0001", "player_b": "p0002", "round": "2", "lift": "1"}),  # nothing fixed
]
"""Forms the desk refuses, each for a reason of its own (what the comment says, else the form's)."""

CONFIRMATIONS: list[tuple[str, dict[str, str]]] = [
    ("result", {"round": "1", "table": "2", "result": "W+R"}),
    ("correct", {"round": "1", "table": "1", "result": "B+2.5", "reason": "elírás"}),
    ("player", {"what": "absent", "player": "p0001", "round": "2"}),
    ("player", {"what": "absent", "player": "p0002", "round": "2", "points": "0.5"}),
    ("player", {"what": "present", "player": "p0001", "round": "2"}),
    ("unpair", {"round": "1", "table": "3"}),
    ("player", {"what": "bye", "player": "p0005", "round": "1"}),
    ("player", {"what": "unbye", "player": "p0005", "round": "1"}),
    ("player", {"what": "withdraw", "player": "p0006", "round": "2"}),
    ("player", {"what": "reinstate", "player": "p0006", "round": "3"}),
    ("register", {"surname": "Veli", "first_name": "Ali", "rank": "3k"}),
    ("update-player", {"player": "p0003", "club": "Ankara"}),
    ("change-rules", {"settings": "komi=6.5"}),
    ("change-rules", {"settings": "mm_bar=2d", "from_round": "2"}),
    ("edit-game", {"round": "1", "table": "2", "komi": "0.5", "force": "1"}),
    ("publish", {"round": "1"}),
]
"""Forms the desk records, in this order (each confirmation is the command's own sentence)."""


CLI_WORDS = re.compile(r"(?<![\w-])--[a-z]|`goledger|\bgoledger\s+(?:[a-z]+-[a-z-]+|" + "|".join(
    ("result", "correct", "pair", "unpair", "register", "withdraw", "reinstate", "absent", "present", "bye",
     "unbye", "publish", "unit", "team", "ratings", "forbid", "settings", "standings", "explain", "keys",
     "slips", "import", "export", "log", "audit", "new", "serve", "verify", "criteria", "check-in")) + r")\b")
"""What names the command line: an option (``--force``), a command (``goledger correct``)."""


PAGES = ("/desk", "/desk/round/1", "/desk/round/1/results", "/desk/players", "/desk/standings", "/desk/log",
         "/desk/settings", "/", "/standings", "/player/p0001")
"""Pages whose Hungarian text writes articles before numbers (rounds, tables, events)."""


def _tournament(folder: Path, language: str) -> Path:
    """Round 1 of a McMahon in ``language`` paired by hand, table 1 played."""
    db = folder / f"{language}.db"
    commands.new(db, "Kupa", 3, "mcmahon", "3d", "20k", None, None, "7.5", language=language)
    for surname, first, rank in NAMES[language]:
        commands.register(db, surname, first, rank)
    for table, (white, black) in enumerate((("p0001", "p0002"), ("p0003", "p0004"), ("p0005", "p0006")), 1):
        commands.pair(db, 1, white, black, table)
    commands.result(db, 1, 1, "white")
    return db


def _head(db: Path) -> int:
    with Ledger.open(db) as ledger:
        return ledger.head().seq


def _prose(message: str) -> str:
    """``message`` without what is the same in every language, as the catalogs keep it out of
    translation: the commands and options it names (```goledger result```, ``edit-game``,
    ``--force``), the settings by their names (``withdrawn``), and what the director typed,
    which it quotes (``'nobody'``)."""
    from goledger.commands.settings import catalogue

    text = re.sub(r"`[^`]*`|'[^']*'|--[a-z-]+|\bgoledger [a-z-]+|\b[a-z]+-[a-z-]+\b", " ", message)
    names = {info.name for info in catalogue()}
    return " ".join(word for word in text.split() if word.strip(",.;:()") not in names)


def _shown(page: str) -> str:
    found = re.search(r'id="message"[^>]*>(.*?)</div>', page, re.S)
    assert found, page[:400]
    return html.unescape(found.group(1)).strip()


def _english(message: str, language: str, template) -> list[str]:
    """The English left in ``message``'s prose: the catalogs' fragments that the language
    translates otherwise (:func:`english_left`), and any single word of four letters or more
    of the catalogs' English that no translation of the language uses (a sentence made outside
    the catalogs is caught by its words)."""
    prose = _prose(message)
    words = [w for w in re.findall(r"[A-Za-z]{4,}", prose) if w.lower() in _vocabulary(template, "en")
             and w.lower() not in _vocabulary(template, language)]
    return english_left(f"<p>{html.escape(prose)}</p>", language, template) + words


_VOCABULARIES: dict[str, set[str]] = {}


def _vocabulary(template, language: str) -> set[str]:
    """The words (four letters or more, lower case) of the catalogs' English, or of one
    language's translations."""
    if language not in _VOCABULARIES:
        from goledger.i18n.catalogs import read_catalog

        if language == "en":
            texts = [t for m in template if m.id for t in (m.id if isinstance(m.id, (list, tuple)) else [m.id])]
        else:
            texts = [t for m in read_catalog(language) if m.id
                     for t in (m.string if isinstance(m.string, (list, tuple)) else [m.string]) if t]
        _VOCABULARIES[language] = {w.lower() for t in texts for w in re.findall(r"[A-Za-z]{4,}", t)}
    return _VOCABULARIES[language]


@pytest.fixture(scope="module")
def template():
    from goledger.i18n.catalogs import extract

    return extract()


@pytest.mark.parametrize("language", ["tr", "hu"])
def test_every_desk_message_is_in_the_page_language(tmp_path: Path, language: str, template) -> None:
    db = _tournament(tmp_path, language)
    english: list[tuple[str, str, list[str]]] = []
    with DeskServer(db) as desk:
        client, csrf = logged_in(desk.url)

        def post(action: str, fields: dict[str, str]) -> tuple[int, str]:
            response = client.post(f"/desk/do/{action}", data={
                "csrf": csrf, "expected_head": str(_head(db)), "back": "/desk", **fields})
            return response.status_code, _shown(response.text)

        for action, fields in REFUSALS:
            before = _head(db)
            status, message = post(action, fields)
            assert status in (400, 409) and _head(db) == before, (action, fields, status, message)
            english.append((action, message, _english(message, language, template)))
        for action, fields in CONFIRMATIONS:
            before = _head(db)
            status, message = post(action, fields)
            assert status == 200 and _head(db) > before, (action, fields, status, message)
            english.append((action, message, _english(message, language, template)))
        pages = {path: client.get(path).text for path in PAGES}
    assert [path for path, page in pages.items() if "a(z)" in page.lower()] == []  # every article chosen
    messages = [m for _, m, _ in english]
    left = [f"{action}: {message} {words}" for action, message, words in english if words]
    assert left == [], "\n".join(left)
    assert [m for m in messages if "a(z)" in m.lower()] == []
    assert [m for m in messages if CLI_WORDS.search(m)] == []  # the desk names its own controls
