"""Every desk action refuses and confirms in the page's language (issue 44, item 1): the
sibling of :mod:`tests.web.test_desk_messages_in_language` for the actions it leaves out —
teams, units, the pasted list, check-in decisions, the selected games' edits, constraints,
the rating refresh, the players' result reports and their approval, the round's pairing
and unpairing, renumbering, showing a round, and the forms each player action has of its
own — and for a rank the form's own check refuses ("55k"). (The ledger's domain refusals — a
name with an invisible character, a rating out of range — stay English: the ledger holds no
words, :mod:`tests.test_layers`.)

Over HTTP on a running ``goledger serve``, in a Turkish and a Hungarian tournament, each
form is posted as the desk posts it; every message shown is checked as the sibling checks
its own (no English fragment of the catalogs, no ``a(z)``) and for the command line's words
(no ``--option``, no ``goledger COMMAND``: the desk names its own controls). Between the two
files every action of :data:`goledger.web.actions.ACTIONS` is made to refuse and to confirm
at least once, so a new action cannot escape. A player's phone page (his key's check-in and
report posts) answers in the phone's language, not the tournament's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from goledger import commands
from goledger.keys import ensure_keys
from goledger.web.actions import ACTIONS

from ..desk_server import DeskServer
from ..ratings_support import write_list
from .test_desk_messages_in_language import (
    CLI_WORDS,
    CONFIRMATIONS,
    NAMES,
    REFUSALS,
    _english,
    _head,
    _shown,
    _tournament,
    template,
)
from .test_web_attacks import csrf_of, logged_in

httpx = pytest.importorskip("httpx")

__all__ = ["template"]

REFUSE, CONFIRM = "refuse", "confirm"

MCMAHON: list[tuple[str, str, dict[str, str]]] = [
    (REFUSE, "check-in", {"player": "p0001", "round": "1"}),  # round 1 is paired
    (CONFIRM, "check-in", {"player": "p0001", "round": "2"}),
    (REFUSE, "check-in", {"player": "p0001", "round": "2"}),  # already checked in
    (REFUSE, "absent-unchecked", {"round": "1"}),
    (CONFIRM, "absent-unchecked", {"round": "3"}),
    (REFUSE, "absent-unchecked", {"round": "3"}),  # nobody left to mark
    (REFUSE, "absent", {"player": "nobody", "round": "2"}),
    (CONFIRM, "absent", {"player": "p0004", "round": "2"}),
    (CONFIRM, "present", {"player": "p0004", "round": "2"}),
    (REFUSE, "present", {"player": "p0003", "round": "2"}),  # not absent
    (REFUSE, "bye", {"player": "p0001", "round": "1"}),  # already paired
    (CONFIRM, "bye", {"player": "p0005", "round": "2"}),
    (CONFIRM, "unbye", {"player": "p0005", "round": "2"}),
    (REFUSE, "unbye", {"player": "p0005", "round": "2"}),
    (REFUSE, "withdraw", {"player": "p0001", "round": "1"}),  # unpair first
    (CONFIRM, "withdraw", {"player": "p0006", "round": "2"}),
    (REFUSE, "withdraw", {"player": "p0006", "round": "2"}),  # already withdrawn
    (CONFIRM, "reinstate", {"player": "p0006", "round": "2"}),
    (REFUSE, "reinstate", {"player": "p0006", "round": "2"}),
    (REFUSE, "register", {"surname": "Veli", "first_name": "Ali", "rank": "55k"}),  # domain: rank
    (REFUSE, "update-player", {"player": "p0003", "rank": "55k"}),
    (REFUSE, "bulk-register", {"list": ""}),
    (REFUSE, "bulk-register", {"list": "Veli|Ali|55k"}),
    (REFUSE, "refresh-ratings", {}),  # nothing to change: nobody has a PIN yet
    (CONFIRM, "bulk-register", {"list": "Veli|Ali|3k|TR|Ist\nDoğan|Ayşe|2k|TR|Ank\nYilmaz|Mehmet|3k|TR|Ank||14000001"}),
    (CONFIRM, "update-player", {"player": "p0007", "rank": "4k", "rating": "100"}),
    (CONFIRM, "refresh-ratings", {}),
    (REFUSE, "edit-games", {"round": "1", "what": "swap"}),  # nothing selected
    (REFUSE, "edit-games", {"round": "1", "what": "dance", "game_2": "1"}),
    (REFUSE, "edit-games", {"round": "1", "what": "move", "game_2": "1", "game_3": "1", "move_to": "5"}),
    (REFUSE, "edit-games", {"round": "1", "what": "exchange", "game_2": "1"}),
    (CONFIRM, "edit-games", {"round": "1", "what": "swap", "game_2": "1", "game_3": "1"}),
    (CONFIRM, "edit-games", {"round": "1", "what": "exchange", "game_2": "1", "game_3": "1"}),
    (CONFIRM, "edit-game", {"round": "1", "table": "2", "handicap": "2"}),
    (REFUSE, "fix-table", {"player": "nobody", "table": "4"}),
    (CONFIRM, "fix-table", {"player": "p0003", "table": "7"}),
    (CONFIRM, "fix-table", {"player": "p0003", "lift": "1"}),
    (REFUSE, "forbid", {"player_a": "p0003", "player_b": "p0004", "kind": "dance"}),
    (CONFIRM, "forbid", {"player_a": "p0003", "player_b": "p0004"}),
    (CONFIRM, "forbid", {"player_a": "p0003", "player_b": "p0004", "lift": "1"}),
    (CONFIRM, "fix-pairing", {"player_a": "p0003", "player_b": "p0005", "round": "2"}),
    (REFUSE, "fix-pairing", {"player_a": "p0003", "player_b": "p0004", "round": "2"}),  # p0003 is fixed
    (CONFIRM, "fix-pairing", {"player_a": "p0003", "player_b": "p0005", "round": "2", "lift": "1"}),
    (REFUSE, "approve-reports", {"round": "1"}),  # no agreeing reports
    ("phone", "report-refuse", {"player": "p0003", "outcome": "maybe"}),
    ("phone", "report-confirm", {"player": "p0003", "outcome": "won"}),
    ("phone", "report-confirm", {"player": "p0004", "outcome": "lost"}),
    ("phone", "report-refuse", {"player": "p0004", "outcome": "lost"}),  # already reported (round 1 still open)
    (CONFIRM, "approve-reports", {"round": "1"}),
    (REFUSE, "pair", {"round": "1", "white": "p0001", "black": "p0002", "colours": "picked"}),  # paired
    (REFUSE, "pair", {"round": "2", "white": "p0001", "black": "p0001", "colours": "picked"}),
    (REFUSE, "pair", {"round": "2", "white": "p0001", "black": "p0002", "colours": "picked"}),  # a repeat
    (CONFIRM, "pair", {"round": "2", "white": "p0001", "black": "p0003", "colours": "picked"}),
    (CONFIRM, "pair", {"round": "2", "white": "p0002", "black": "p0004", "colours": "rule"}),
    (REFUSE, "pair-round", {"round": "2"}),  # has games: confirm first
    (REFUSE, "pair-round", {"round": "2", "confirm": "1"}),  # results missing
    (CONFIRM, "pair-round", {"round": "2", "confirm": "1", "force": "1"}),
    (REFUSE, "renumber-tables", {"round": "3"}),
    (CONFIRM, "renumber-tables", {"round": "2", "start": "5"}),
    (REFUSE, "unpair", {"round": "2", "table": "1"}),  # renumbered from 5
    (CONFIRM, "unpair", {"round": "2", "table": "5"}),
    (REFUSE, "unpair-round", {"round": "3", "reason": "yanlış"}),
    (CONFIRM, "unpair-round", {"round": "2", "reason": "yanlış"}),
    (REFUSE, "show-round", {"round": "1"}),  # pairings_visible=auto
    (CONFIRM, "change-rules", {"settings": "pairings_visible=manual"}),
    (CONFIRM, "pair", {"round": "2", "white": "p0001", "black": "p0003", "colours": "picked"}),
    (CONFIRM, "show-round", {"round": "2"}),
    (REFUSE, "show-round", {"round": "2"}),  # already shown
    (REFUSE, "approve-reports", {"round": "1"}),  # no agreeing reports
    (REFUSE, "approve-reports", {"round": "9"}),
    ("phone", "check-in-confirm", {"player": "p0002", "round": "2", "answer": "absent"}),
    ("phone", "check-in-refuse", {"player": "p0002", "round": "1", "answer": "play"}),  # round 1 paired
    ("phone", "check-in-refuse", {"player": "p0002", "round": "2", "answer": "dance"}),
]
"""A McMahon's forms in order: ``refuse`` or ``confirm``, the action and the form; ``phone``
steps post a player's key pages (his report, his check-in) in the phone's language."""

TEAMS: list[tuple[str, str, dict[str, str]]] = [
    (REFUSE, "team-add", {"name": "", "short_name": ""}),
    (REFUSE, "team-add", {"name": "T" * 100, "short_name": ""}),
    (CONFIRM, "team-add", {"name": "Aslanlar", "short_name": "ASL"}),
    (REFUSE, "team-add", {"name": "aslanlar", "short_name": ""}),  # the name is taken
    (CONFIRM, "team-add", {"name": "Kaplanlar", "short_name": "KAP"}),
    (REFUSE, "team-assign", {"team": "t001", "player": "p0001", "board": "9"}),  # past the boards
    (REFUSE, "team-assign", {"team": "t009", "player": "p0001", "board": "1"}),  # no such team
    (CONFIRM, "team-assign", {"team": "t001", "player": "p0001", "board": "1"}),
    (CONFIRM, "team-assign", {"team": "t001", "player": "p0002", "board": "2", "from_round": "2"}),
    (REFUSE, "team-assign", {"team": "t002", "player": "p0001", "board": "1"}),  # plays for t001
    (REFUSE, "team-assign", {"team": "t001", "player": "p0001", "board": "2"}),  # already on board 1
    (REFUSE, "team-remove", {"team": "t001", "player": "p0003"}),  # on no board of it
    (CONFIRM, "team-remove", {"team": "t001", "player": "p0002"}),
    (CONFIRM, "team-remove", {"team": "t002"}),
    (REFUSE, "team-remove", {"team": "t002"}),  # gone
]
"""A team tournament's forms (two boards)."""

UNITS: list[tuple[str, str, dict[str, str]]] = [
    (REFUSE, "unit-add", {"name": "", "member1": "p0001", "member2": "p0002"}),
    (REFUSE, "unit-add", {"name": "Çift", "member1": "p0001"}),  # one member
    (REFUSE, "unit-add", {"name": "Çift", "member1": "p0001", "member2": "p0002", "sex1": "F", "sex2": "F"}),
    (REFUSE, "unit-add", {"name": "Çift", "member1": "p0001", "member2": "p0002", "sex1": "X", "sex2": "M"}),
    (REFUSE, "unit-add", {"name": "Çift", "member1": "p0001", "member2": "p0001", "sex1": "F", "sex2": "M"}),
    (CONFIRM, "unit-add", {"name": "Çift", "member1": "p0001", "member2": "p0002", "sex1": "M", "sex2": "F"}),
    (REFUSE, "unit-add", {"name": "çift", "member1": "p0003", "member2": "p0004", "sex1": "F", "sex2": "M"}),
    (REFUSE, "unit-add", {"name": "İkinci", "member1": "p0001", "member2": "p0003", "sex1": "F", "sex2": "M"}),
    (CONFIRM, "unit-add", {"name": "İkinci", "member1": "p0003", "member2": "p0004", "sex1": "F", "sex2": "M"}),
    (REFUSE, "unit-remove", {"unit": "Yok"}),
    (CONFIRM, "unit-remove", {"unit": "u002"}),
]
"""A Pair Go tournament's forms."""



def _other(folder: Path, language: str, system: str, **options: object) -> Path:
    db = folder / f"{language}-{system}.db"
    commands.new(db, "Kupa", 3, system, language=language, **options)  # type: ignore[arg-type]
    sexes = ["M", "F", "F", "M", "M", "F"]
    for (surname, first, rank), _ in zip(NAMES[language], sexes, strict=True):
        commands.register(db, surname, first, rank)
    return db


def _run(db: Path, steps: list[tuple[str, str, dict[str, str]]], language: str, template,
         seen: set[tuple[str, str]], shown: list[tuple[str, str]]) -> list[str]:
    """Post each step on a server over ``db``; what is wrong with each message shown."""
    keys = ensure_keys(db)
    phone_language = {"tr": "hu", "hu": "tr"}[language]  # a Hungarian phone at a Turkish event, and back
    wrong: list[str] = []
    with DeskServer(db) as desk:
        client, csrf = logged_in(desk.url)
        phones: dict[str, httpx.Client] = {}
        for kind, action, fields in steps:
            before = _head(db)
            if kind == "phone":
                key = keys[fields["player"]]
                if key not in phones:  # each player his own phone
                    phones[key] = httpx.Client(base_url=desk.url, timeout=30,
                                               headers={"Accept-Language": phone_language})
                phone = phones[key]
                if action.startswith("report"):
                    page = phone.get(f"/k/{key}/result")
                    form = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page.text))
                    response = phone.post(f"/k/{key}/result", data={**form, "outcome": fields["outcome"]})
                else:
                    page = phone.get(f"/k/{key}")
                    response = phone.post(f"/k/{key}/check-in", data={
                        "csrf": csrf_of(page.text), "round": fields["round"], "answer": fields["answer"],
                        "expected_head": str(before)})
                refused, read_in = action.endswith("refuse"), phone_language
            else:
                response = client.post(f"/desk/do/{action}", data={
                    "csrf": csrf, "expected_head": str(before), "back": "/desk", **fields})
                refused, read_in = kind == REFUSE, language
            message = _shown(response.text)
            status, after = response.status_code, _head(db)
            if refused and not (status in (400, 409) and after == before):
                wrong.append(f"{action} {fields}: not refused ({status}): {message}")
            if not refused and not (status == 200 and after > before):
                wrong.append(f"{action} {fields}: not recorded ({status}): {message}")
            if kind == CONFIRM:  # what the desk records names the desk (players' reports: the desk approved them)
                actors = {r.actor for r in commands.log(db) if r.seq > before}
                if not all(actor.startswith("desk ") or actor.endswith("(approved by desk web)") for actor in actors):
                    wrong.append(f"{action} {fields}: recorded as {sorted(actors)}, not as the desk")
            seen.add((action, REFUSE if refused else CONFIRM))
            shown.append((action, message))
            words = _english(message.replace("EGD PIN", " "), read_in, template)  # the PIN's name everywhere
            if words:
                wrong.append(f"{action}: {message} {words}")
            if "a(z)" in message.lower():
                wrong.append(f"{action}: {message} a(z)")
            if CLI_WORDS.search(message):
                wrong.append(f"{action}: {message} names the command line")
        for phone in phones.values():
            phone.close()
        client.close()
    return wrong


@pytest.mark.parametrize("language", ["tr", "hu"])
def test_every_action_refuses_and_confirms_in_the_page_language(tmp_path: Path, language: str, template,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from goledger.formats.ratinglists import import_list

    store = tmp_path / "ratings.db"
    import_list(write_list(tmp_path / "list.txt"), "egd", store)
    monkeypatch.setenv("GOLEDGER_RATINGS", str(store))
    seen: set[tuple[str, str]] = set()
    shown: list[tuple[str, str]] = []
    wrong = _run(_tournament(tmp_path, language), MCMAHON, language, template, seen, shown)
    wrong += _run(_other(tmp_path, language, "team-swiss", options={"boards": 2}), TEAMS, language, template,
                  seen, shown)
    wrong += _run(_other(tmp_path, language, "pairgo"), UNITS, language, template, seen, shown)
    assert wrong == [], "\n".join(wrong)
    seen |= {(action, REFUSE) for action, _ in REFUSALS} | {(action, CONFIRM) for action, _ in CONFIRMATIONS}
    phone = {"report-refuse", "report-confirm", "check-in-refuse", "check-in-confirm"}
    exercised = {action for action, _ in seen} - phone
    assert exercised == set(ACTIONS)  # a new action of the desk is added here too
    assert {action for action in ACTIONS if (action, REFUSE) not in seen} == set()
    assert {action for action in ACTIONS if (action, CONFIRM) not in seen} == set()


def test_the_sibling_messages_name_no_command_line() -> None:
    """The command line's words in the sentences the desk shows (a refusal naming ``--force``
    names the desk's ``force`` box instead), found by the pattern the HTTP test uses."""
    assert CLI_WORDS.search("use --force to pair anyway")
    assert CLI_WORDS.search("record it with `goledger result`")
    assert CLI_WORDS.search("see goledger unit list")
    assert not CLI_WORDS.search("'b' is read as white in Turkish, but goledger reads it as black")
    assert not CLI_WORDS.search("round 2 – 3 tables, both-lose")
