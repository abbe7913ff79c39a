"""No English on any page written in Turkish (issue 33, item 4: "no English left on a page
rendered in Turkish, names and abbreviations aside").

Every HTML output is rendered in Turkish through the door its reader uses — the CLI's
printouts (``--format html``), the audit report, the bracket page, the rating preview, the
explanations printed by ``explain``, ``place`` and ``explain-pairing``, and the desk's and the
players' pages through Starlette's test client — over tournaments of several systems and rule
policies (McMahon under OpenGotha's rules, the FIDE and MacMahon-program policies, a knockout,
a double knockout and a round robin), and each page's text is searched for the English words
of the catalogs' messages (:func:`english_words_left`): a sentence nobody marked for
translation shares its words with the ones that were ("round", "after", "winner"…), so the
check finds what the catalogs themselves do not list."""

from __future__ import annotations

import os
import re
from html import escape
from pathlib import Path
from typing import Any

import pytest

from goledger import commands as rec

from ..conftest import run_cli
from ..test_translations import _Text

NAMES = [("Yılmaz", "Ayşe", "3d"), ("Kaya", "Mehmet", "2d"), ("Demir", "Elif", "1d"), ("Çelik", "Emre", "1k"),
         ("Şahin", "Zeynep", "2k"), ("Öztürk", "Burak", "3k"), ("Aydın", "Deniz", "5k"), ("Arslan", "Selin", "8k")]


def english_words(language: str) -> set[str]:
    """The English words (three letters or more) of the catalogs' messages that ``language``'s
    translations do not use themselves (Turkish keeps *Bye*, *komi*, *McMahon*)."""
    from goledger.i18n.catalogs import read_catalog

    english: set[str] = set()
    kept: set[str] = set()
    for message in read_catalog(language):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, (list, tuple)) else [message.id]
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        for text in ids:
            english |= set(_words(text))
        for text in strings:
            kept |= set(_words(text or ""))
    return english - kept


def _words(text: str) -> list[str]:
    text = re.sub(r"%\([a-z_]+\)[sd]|\{[a-z_]+\}|%[sd]", " ", text)
    return [w.lower() for w in re.findall(r"[A-Za-z]{3,}", text) if not re.search(r"[A-Z].*[A-Z]", w)]
    # words with two capitals are abbreviations (MMS, SOS, SOSOS, NBW, EGD, McMahon)


def page_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    text = re.sub(r"\S+=\S+", " ", " ".join(parser.parts))  # name=value: identifiers (settings)
    text = re.sub(r"--[a-z][\w-]*", " ", text)  # command-line options
    return re.sub(r"\S*_\S*", " ", text)  # setting and option names (mm_bar, balance_wb)


def english_words_left(html: str, language: str, allowed: set[str] = frozenset()) -> list[str]:
    """The English words of the catalogs found in ``html``'s text, each with a bit of its
    context, when it is written in ``language`` (``<code>``, ``<pre>``, styles and scripts
    aside)."""
    words = english_words(language) - {w.lower() for w in allowed}
    text = page_text(html)
    found: dict[str, str] = {}
    for match in re.finditer(r"(?<!\w)[A-Za-z]{3,}(?!\w)", text):  # whole words (not the letters of a hash)
        word = match.group()
        if word.lower() in words and not re.search(r"[A-Z].*[A-Z]", word) and word.lower() not in found:
            found[word.lower()] = f"{word}: …{text[max(0, match.start() - 40):match.end() + 40]}…".replace("\n", " ")
    return list(found.values())


# Words of names and data that are not sentences of the program: the tournaments' names and
# the engines' names are data.
ALLOWED = {"Kupa", "opengotha", "macmahon", "fide", "egf", "swiss", "knockout", "double", "robin", "egd", "trf",
           "director"}


CRITERIA = {
    "fide": ("PTS", "DE", "BH-C1", "BH-M1", "FB", "AOB", "SB", "SB-C1", "PS", "PS-C1", "KS", "ARO", "ARO-C1", "TPR",
             "PTP", "APRO", "APPO", "WIN", "WON", "BPG", "BWG", "REP", "KASHDAN"),
    "mmprogram": ("MM-Score", "MM-ScoreX", "MM-Points", "MM-SOS", "MM-SOSOS", "MM-SODOS", "MM-SORP"),
}
"""Every FIDE criterion (C.07), and every criterion of the MacMahon program's own rules."""


@pytest.fixture(scope="module")
def ledgers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("turkish")
    built: dict[str, Path] = {}

    def make(key: str, system: str, rounds: int | None, policy: str | None = None, names=NAMES,
             criteria: tuple[str, ...] | None = None, options: dict[str, Any] | None = None) -> Path:
        db = folder / f"{key}.db"
        rec.new(db, "Kupa", rounds, system, policy=policy, criteria=criteria, language="tr", options=options)
        for surname, first, rank in names:
            rec.register(db, surname, first, rank)
        built[key] = db
        return db

    def play(db: Path, rounds: int) -> None:
        from ..systems_support import pair_next

        for round_ in range(1, rounds + 1):
            pairing = pair_next(db, round_)
            for i, g in enumerate(pairing.games):
                rec.result(db, round_, g.table, ("white", "black", "jigo")[i % 3] if i < 3 else "white",
                           by_default=(i == 3))

    mcmahon = make("mcmahon", "mcmahon", 3)
    rec.withdraw(mcmahon, "p0008", 3)
    play(mcmahon, 2)
    for key, policy in (("fide", "fide-2024"), ("mmprogram", "macmahon")):
        db = make(key, "swiss" if key == "fide" else "mcmahon", 3, policy, criteria=CRITERIA[key])
        play(db, 2)
    play(make("exploits", "mcmahon", 3, criteria=("MMS", "DC", "SDC", "EXT", "EXR", "SOSM-1", "SOSOSM", "CUSSM")), 2)
    for key, system in (("knockout", "knockout"), ("double", "double-knockout"), ("robin", "round-robin")):
        db = make(key, system, None, names=NAMES[:6] if system == "round-robin" else NAMES)
        from ..systems_support import play_out

        play_out(db, max_rounds=3)
    from goledger.commands.teams import pair_teams, team_add, team_assign

    league = make("teams", "team-swiss", 2, names=NAMES[:4], options={"boards": 2})
    for team in ("Aslanlar", "Kaplanlar"):
        team_add(league, team)
    for team, pid, board in (("Aslanlar", "p0001", 1), ("Aslanlar", "p0002", 2), ("Kaplanlar", "p0003", 1),
                             ("Kaplanlar", "p0004", 2)):
        team_assign(league, team, pid, board)
    pair_teams(league, 1, "Aslanlar", "Kaplanlar")
    rec.result(league, 1, 1, "white")
    rec.result(league, 1, 2, "jigo")
    return built


COST_NAMES = {"base", "duplicate", "random", "categories", "score", "seeding", "handicap", "geography", "bracket",
              "berger", "ladder", "match", "rematch", "rank"}
"""The engines' names of the parts of a pairing's cost (``explain-pairing``): identifiers."""

SETTING_NAMES = {"rounds"}
"""Setting names the event log lists as changed (``rules changed: rounds``): identifiers."""


def _check(html: str, what: str, allowed: set[str] = frozenset()) -> None:
    left = english_words_left(html, "tr", ALLOWED | allowed)
    if os.environ.get("GOLEDGER_LEAKS"):  # list every page's English in this file instead of failing
        with open(os.environ["GOLEDGER_LEAKS"], "a") as f:
            f.write(f"== {what}\n" + "".join(f"   {x}\n" for x in left))
        return
    assert not left, f"{what}: English left on a Turkish page:\n" + "\n".join(left[:40])


def _cli(db: Path, *args: str) -> str:
    got = run_cli(*args, "--db", db)
    assert got.code == 0, (args, got.err)
    return got.out


REPORTED = ("mcmahon", "fide", "mmprogram")
"""The tournaments whose audit report is checked (it refuses one whose rounds were set at the
draw: a knockout, a round robin)."""

PRINTOUTS = [("pairings", "--round", "2"), ("players",), ("wall-list",), ("standings",), ("crosstable",)]


@pytest.mark.parametrize("key", ["mcmahon", "fide", "mmprogram", "knockout", "double", "robin"])
def test_printouts_and_report_in_turkish(ledgers: dict[str, Path], tmp_path: Path, key: str) -> None:
    db = ledgers[key]
    for words in PRINTOUTS:
        out = _cli(db, *words, "--format", "html")
        assert '<html lang="tr">' in out
        _check(out, f"{key}: {' '.join(words)}")
    if key not in REPORTED:
        return
    report = tmp_path / "rapor.html"
    _cli(db, "report", "--html", str(report))
    _check(report.read_text(encoding="utf-8"), f"{key}: report")


@pytest.mark.parametrize("key", ["mcmahon", "fide", "mmprogram", "exploits", "robin"])
def test_explanations_in_turkish(ledgers: dict[str, Path], key: str) -> None:
    db = ledgers[key]
    for pid in ("p0001", "p0004", "p0008") if key != "robin" else ("p0001", "p0006"):
        out = _cli(db, "explain", pid)
        _check(f"<p>{escape(out)}</p>", f"{key}: explain {pid}")
    if key in ("mcmahon", "fide"):
        out = _cli(db, "explain-pairing", "2")
        _check(f"<p>{escape(out)}</p>", f"{key}: explain-pairing 2", COST_NAMES)


@pytest.mark.parametrize("key", ["knockout", "double"])
def test_places_and_brackets_in_turkish(ledgers: dict[str, Path], key: str) -> None:
    db = ledgers[key]
    _check(_cli(db, "bracket", "--format", "html"), f"{key}: bracket")
    _check(f"<p>{escape(_cli(db, 'bracket'))}</p>", f"{key}: bracket text")
    for pid in ("p0001", "p0005", "p0008"):
        _check(f"<p>{escape(_cli(db, 'place', pid))}</p>", f"{key}: place {pid}")


def test_team_pages_in_turkish(ledgers: dict[str, Path]) -> None:
    db = ledgers["teams"]
    for words in (("team", "sheets", "--round", "1"), ("standings", "--teams", "--format", "html"),
                  ("team", "pairings", "--round", "1", "--format", "html"),
                  ("team", "crosstable", "--format", "html")):
        got = run_cli(*words, "--db", db)
        if got.code == 2 and "--format" in got.err:  # a printout without an HTML form
            continue
        assert got.code == 0, (words, got.err)
        _check(got.out, f"teams: {' '.join(words)}")
    _check(f"<p>{escape(_cli(db, 'explain', '--team', 'Aslanlar'))}</p>", "teams: explain --team")
    desk = _desk(db)
    for url in ("/teams", "/teams/round/1", "/desk/teams/round/1", "/player/p0003"):
        r = desk.client.get(url)
        assert r.status_code == 200, url
        _check(r.text, f"teams: {url}")


def _desk(db: Path) -> Any:
    from ..web.test_web import Desk

    return Desk(db)


DESK_PAGES = ["/desk", "/desk/players", "/desk/round/1", "/desk/round/2", "/desk/round/2/results", "/desk/standings",
              "/desk/explain?player=p0001", "/desk/explain?player=p0008", "/desk/audit?view=history&player=p0001",
              "/desk/audit?view=diff&from=5", "/desk/audit?view=what-if&without=12", "/desk/settings", "/desk/files",
              "/desk/log", "/desk/verify", "/desk/round/2/game?table=1", "/print/pairings/2", "/print/slips/2",
              "/print/players", "/print/wall", "/desk/round/2/report", "/desk/new", "/login"]
PUBLIC_PAGES = ["/", "/standings", "/player/p0001", "/player/p0008", "/?find=Kaya"]


@pytest.mark.parametrize("key", ["mcmahon", "fide", "knockout"])
def test_desk_and_players_view_in_turkish(ledgers: dict[str, Path], key: str) -> None:
    desk = _desk(ledgers[key])
    for url in DESK_PAGES + PUBLIC_PAGES:
        r = desk.client.get(url)
        if r.status_code == 404:
            continue
        assert r.status_code in (200, 400), (url, r.status_code)
        assert '<html lang="tr">' in r.text, url
        if r.status_code == 200:  # a refusal's sentence is the library's (English, as the command line's)
            _check(r.text, f"{key}: {url}", COST_NAMES | SETTING_NAMES)
    from starlette.testclient import TestClient

    from goledger.web.app import create_app

    public = TestClient(create_app(ledgers[key], "token"))
    for url in PUBLIC_PAGES:
        r = public.get(url, headers={"Accept-Language": "tr-TR,tr"})
        assert r.status_code == 200, url
        _check(r.text, f"{key}: public {url}")


def test_the_check_finds_english() -> None:
    """It can fail: a sentence of the English catalog, and one no catalog has, are found."""
    assert english_words_left("<p>Kupa · standings after round 2</p>", "tr")
    assert english_words_left("<p>the winner of the final</p>", "tr")
    assert not english_words_left("<p>Kupa · 2. tur sonrası sıralama; MMS, SOS</p>", "tr")
    assert not english_words_left("<pre>standings after round 2</pre>", "tr")
    assert not english_words_left("<p>8add50bf231c</p>", "tr")
