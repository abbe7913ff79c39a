"""The systems' own refusals in the page's language (issue 44, item 1): a knockout, a double
knockout, a Paramus, a match and a team Swiss refuse the desk's pair, bye, result
and pair-round forms with sentences of their own (``goledger.systems.*``, ``goledger.teams.*``).
Over HTTP on a running ``goledger serve`` for a Turkish and a Hungarian knockout and Paramus, and
through the library inside :func:`~goledger.i18n.messages.at_desk` for the other systems, each
refusal shown is checked like the desk's other messages
(:mod:`tests.web.test_desk_messages_in_language`): no English left, no ``a(z)``, no command-line
words, the ledger unchanged."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from goledger import commands
from goledger.commands.teams import team_add, team_assign
from goledger.errors import CommandRejected
from goledger.i18n import use_language
from goledger.i18n.messages import at_desk

from ..desk_server import DeskServer
from .test_desk_messages_in_language import CLI_WORDS, _english, _head, _shown
from .test_web_attacks import logged_in

httpx = pytest.importorskip("httpx")

NAMES = {"tr": [("Yılmaz", "Ece"), ("Altan", "Kuntay"), ("Demir", "Can"), ("Kaya", "Ada")],
         "hu": [("Sütő", "Lőrinc"), ("Csizmadia", "György"), ("Kovács", "Anna"), ("Szabó", "Zsófia")]}


def _tournament(folder: Path, language: str, system: str, players: int, rounds: int) -> Path:
    """A ``system`` tournament in ``language`` with ``players`` players, round 1 paired by its engine."""
    db = folder / f"{system}-{language}.db"
    commands.new(db, "Kupa", rounds, system, language=language)
    for i, (surname, first) in enumerate(NAMES[language][:players]):
        commands.register(db, surname, first, f"{i + 1}d")
    commands.pair_round(db, 1)
    return db


DESK_REFUSALS: dict[str, list[tuple[str, dict[str, str]]]] = {
    "knockout": [
        ("result", {"round": "1", "table": "1", "result": "both-win"}),  # one player goes on
        ("player", {"what": "bye", "player": "p0001", "round": "2"}),  # round 1 undecided
        ("pair", {"round": "2", "white": "p0001", "black": "p0002"}),  # round 1 undecided
    ],
    "paramus": [
        ("result", {"round": "1", "table": "1", "result": "both-win"}),
        ("player", {"what": "bye", "player": "p0001", "round": "2"}),  # a Paramus has no byes
        ("pair", {"round": "2", "white": "p0001", "black": "p0002"}),  # round 1 has no result yet
    ],
}
"""Desk forms a system refuses for a reason of its own (what the comment says)."""


def _checked(message: str, language: str, template) -> list[str]:  # type: ignore[no-untyped-def]
    """What is wrong with a refusal shown on a ``language`` desk: English left, an ``a(z)``,
    a command-line word."""
    wrong = _english(message, language, template)
    if "a(z)" in message.lower():
        wrong.append("a(z)")
    if CLI_WORDS.search(message):
        wrong.append("command line")
    return wrong


@pytest.fixture(scope="module")
def template():  # type: ignore[no-untyped-def]
    from goledger.i18n.catalogs import extract

    return extract()


@pytest.mark.parametrize("language", ["tr", "hu"])
@pytest.mark.parametrize("system", sorted(DESK_REFUSALS))
def test_the_desk_shows_a_system_refusal_in_the_page_language(tmp_path: Path, language: str, system: str,
                                                              template) -> None:  # type: ignore[no-untyped-def]
    db = _tournament(tmp_path, language, system, 4, 3)
    wrong: list[str] = []
    with DeskServer(db) as desk:
        client, csrf = logged_in(desk.url)
        for action, fields in DESK_REFUSALS[system]:
            before = _head(db)
            response = client.post(f"/desk/do/{action}", data={
                "csrf": csrf, "expected_head": str(before), "back": "/desk", **fields})
            message = _shown(response.text)
            assert response.status_code in (400, 409) and _head(db) == before, (action, fields, message)
            problems = _checked(message, language, template)
            if problems:
                wrong.append(f"{action} {fields}: {message} {problems}")
    assert wrong == [], "\n".join(wrong)


def _play_round_1(db: Path) -> None:
    commands.result(db, 1, 1, "white")
    commands.result(db, 1, 2, "white")


LIBRARY_REFUSALS: list[tuple[str, int, int, Callable[[Path], None], Callable[[Path], object]]] = [
    ("double-knockout", 4, 6, lambda db: None, lambda db: commands.bye(db, "p0001", 2)),
    ("double-knockout", 4, 6, lambda db: None, lambda db: commands.pair(db, 2, "p0001", "p0002")),
    ("double-knockout", 4, 6, lambda db: None, lambda db: commands.result(db, 1, 1, "both-win")),
    ("knockout", 4, 2, _play_round_1, lambda db: commands.pair(db, 2, "p0001", "p0002")),  # eliminated
    ("match", 2, 3, lambda db: None, lambda db: commands.bye(db, "p0001", 2)),
    ("match", 2, 3, lambda db: None, lambda db: commands.pair(db, 2, "p0002", "p0001")),  # no result yet
    ("paramus", 4, 3, lambda db: commands.result(db, 1, 1, "white"),
     lambda db: commands.pair(db, 2, "p0001", "p0004")),  # not the ladder's game
]
"""Refusals of the systems reached through the library as the desk calls it: the system, its
players and rounds, what happens after round 1 is paired, and the refused call."""


@pytest.mark.parametrize("language", ["tr", "hu"])
@pytest.mark.parametrize(("system", "players", "rounds", "before", "refused"), LIBRARY_REFUSALS)
def test_a_system_refuses_in_the_desk_language(tmp_path: Path, language: str, system: str, players: int,
                                                rounds: int, before: Callable[[Path], None],
                                                refused: Callable[[Path], object],
                                                template) -> None:  # type: ignore[no-untyped-def]
    db = _tournament(tmp_path, language, system, players, rounds)
    before(db)
    head = _head(db)
    with use_language(language), at_desk(), pytest.raises(CommandRejected) as info:
        refused(db)
    message = str(info.value)
    assert _head(db) == head
    assert _checked(message, language, template) == [], message


@pytest.mark.parametrize("language", ["tr", "hu"])
@pytest.mark.parametrize("players", [None, ["p0001", "p0003"]])
def test_a_team_round_refuses_in_the_desk_language(tmp_path: Path, language: str, players: list[str] | None,
                                                    template) -> None:  # type: ignore[no-untyped-def]
    """A team with an empty board cannot be paired; a team round pairs no choice of players."""
    db = tmp_path / "league.db"
    commands.new(db, "Lig", 3, "team-swiss", options={"boards": 2}, language=language)
    for i, (surname, first) in enumerate(NAMES[language]):
        commands.register(db, surname, first, f"{i + 1}d")
    team_add(db, "Kartallar")
    team_add(db, "Kurtlar")
    team_assign(db, "Kartallar", "p0001", 1)
    team_assign(db, "Kartallar", "p0002", 2)
    team_assign(db, "Kurtlar", "p0003", 1)
    head = _head(db)
    with use_language(language), at_desk(), pytest.raises(CommandRejected) as info:
        commands.pair_round(db, 1, players=players)
    message = str(info.value)
    assert _head(db) == head
    assert "Kurtlar" in message or players is not None, message
    assert _checked(message, language, template) == [], message


@pytest.mark.parametrize("language", ["tr", "hu"])
@pytest.mark.parametrize("system", ["knockout", "match"])
def test_the_places_before_the_draw_say_why_in_the_page_language(tmp_path: Path, language: str, system: str,
                                                                  template) -> None:  # type: ignore[no-untyped-def]
    """The places page of a bracket system with one entrant says, in the page's language, that
    there is no draw yet."""
    from goledger.systems import places_of

    from ..systems_support import state_of

    db = tmp_path / "cup.db"
    commands.new(db, "Kupa", 2, system, language=language)
    commands.register(db, *NAMES[language][0], "1d")
    with use_language(language):
        places = places_of(state_of(db))
    assert places is not None and len(places.notes) == 1
    assert _checked(places.notes[0], language, template) == [], places.notes
    assert list(places.to_dict()["notes"]) == list(places.notes)
