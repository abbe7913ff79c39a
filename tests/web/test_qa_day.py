"""A director's day at the desk, over HTTP on a running ``goledger serve`` (the QA pass of
this session): each test is a defect a director met on a Turkish or Hungarian desk, kept so it
does not come back."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from ..desk_server import DeskServer
from .test_web_attacks import logged_in

httpx = pytest.importorskip("httpx")


def _status_line(text: str) -> str:
    found = re.search(r'id="message"[^>]*>([^<]*)<', text)
    assert found, text[:500]
    return html.unescape(found.group(1))


@pytest.mark.parametrize(("lang", "expected"), [
    ("tr", "Ankara Açık için {db} oluşturuldu (mcmahon, 4 tur)"),
    ("hu", "{db} létrehozva: Ankara Açık (mcmahon, 4 forduló)"),
    ("en", "created {db} for Ankara Açık (mcmahon, 4 rounds)"),
])
def test_creating_the_tournament_is_confirmed_in_the_pages_language(tmp_path: Path, lang: str,
                                                                     expected: str) -> None:
    db = tmp_path / "t.db"
    with DeskServer(db) as desk:
        client, csrf = logged_in(desk.url)
        r = client.post(f"/desk/new?lang={lang}", data={
            "csrf": csrf, "name": "Ankara Açık", "rounds": "4", "system": "mcmahon", "bar": "", "floor": "",
            "komi": "7.5", "language": lang})
        assert r.status_code == 200, r.text[r.text.find("<main>"):][:800]
        assert _status_line(r.text) == expected.format(db=db.name)  # the file, never the server's path (issue 43)


def _head(db: Path) -> str:
    from goledger.ledger.store import Ledger

    with Ledger.open(db) as ledger:
        return str(ledger.head().seq)


@pytest.fixture
def turkish(tmp_path: Path) -> Path:
    """A Turkish McMahon tournament of four rounds, nobody registered yet."""
    from goledger import commands

    db = tmp_path / "t.db"
    commands.new(db, "Ankara Açık", 4, "mcmahon", "3d", "20k", None, None, "7.5", language="tr")
    return db


def test_registering_a_pasted_list_and_an_upload_is_confirmed_in_turkish(turkish: Path) -> None:
    with DeskServer(turkish) as desk:
        client, csrf = logged_in(desk.url)
        r = client.post("/desk/do/bulk-register?lang=tr", data={
            "csrf": csrf, "expected_head": _head(turkish), "back": "/desk/players",
            "list": "Yılmaz|Ayşe|3d|TR\nKaya|Mehmet|2d|TR"})
        assert r.status_code == 200, r.text[r.text.find("<main>"):][:800]
        assert _status_line(r.text) == "yapıştırılan listeden 2 oyuncu kaydedildi"
        from goledger import commands

        reasons = {r.reason for r in commands.log(turkish) if r.type == "PlayerRegistered"}
        # the desk's own words, in its language (the review: the desk is never "masa")
        assert reasons == {"oyuncular yönetimde yapıştırıldı"}
        r = client.post("/desk/do/bulk-register?lang=tr", data={
            "csrf": csrf, "expected_head": _head(turkish), "back": "/desk/players",
            "list": "Yılmaz|Ayşe|3d|TR\nDemir|Elif|1d"})
        assert r.status_code == 200, r.text[r.text.find("<main>"):][:800]
        assert _status_line(r.text) == "yapıştırılan listeden 1 oyuncu kaydedildi; 1 satır uyarıyla atlandı"
        r = client.post("/desk/players/upload?lang=hu", data={"csrf": csrf, "expected_head": _head(turkish)},
                        files={"file": ("list.txt", "Çelik|Emre|1k|TR\n".encode(), "text/plain")})
        assert r.status_code == 200, r.text[r.text.find("<main>"):][:800]
        assert _status_line(r.text) == "1 játékos regisztrálva"


def test_a_refused_list_names_the_list_not_the_desks_temporary_folder(turkish: Path) -> None:
    with DeskServer(turkish) as desk:
        client, csrf = logged_in(desk.url)
        r = client.post("/desk/do/bulk-register", data={
            "csrf": csrf, "expected_head": _head(turkish), "back": "/desk/players", "list": "Demir|Elif|xx"})
        assert r.status_code == 400
        line = _status_line(r.text)
        assert line.startswith("yapıştırılan liste: 1 öğe içe aktarılamadı") and "goledger-desk-" not in line, line
        r = client.post("/desk/players/upload", data={"csrf": csrf, "expected_head": _head(turkish)},
                        files={"file": ("kayit.txt", b"Demir|Elif|xx\n", "text/plain")})
        assert r.status_code == 400
        line = _status_line(r.text)
        assert line.startswith("kayit.txt: 1 öğe") and "goledger-desk-" not in line, line
        assert _head(turkish) == "1"


def test_pairing_out_of_order_and_in_order_is_told_in_turkish(turkish: Path) -> None:
    from goledger import commands

    for surname, first, rank in (("Yılmaz", "Ayşe", "3d"), ("Kaya", "Mehmet", "2d"), ("Demir", "Elif", "1d")):
        commands.register(turkish, surname, first, rank)
    with DeskServer(turkish) as desk:
        client, csrf = logged_in(desk.url)

        def pair(round_: int) -> tuple[int, str]:
            r = client.post("/desk/do/pair-round?lang=tr", data={
                "csrf": csrf, "expected_head": _head(turkish), "back": f"/desk/round/{round_}", "round": str(round_),
                "engine": "opengotha"})
            return r.status_code, _status_line(r.text)

        before = _head(turkish)
        assert pair(2) == (400, "2. tur, 1. turdan önce eşleştirilemez: 1. tur henüz eşleştirilmedi "
                                "(turları sırayla eşleştirin ya da zorlayın)")
        assert _head(turkish) == before
        status, line = pair(1)
        assert status == 200 and re.fullmatch(
            r"1\. tur opengotha ile eşleştirildi: 1 oyun, Bye p000\d, toplam ağırlık \d+", line), line


def test_a_result_entered_twice_points_to_the_desks_correction_not_the_command_line(turkish: Path) -> None:
    """Two volunteers type the same table's result, one from a page rendered before the
    other's: the second is told, in Turkish, where the desk corrects a result."""
    from goledger import commands

    for surname, first, rank in (("Yılmaz", "Ayşe", "3d"), ("Kaya", "Mehmet", "2d")):
        commands.register(turkish, surname, first, rank)
    commands.pair(turkish, 1, "p0001", "p0002", 1)
    with DeskServer(turkish) as desk:
        client, csrf = logged_in(desk.url)
        rendered = _head(turkish)

        def enter(entry: str, head: str) -> tuple[int, str]:
            r = client.post("/desk/do/result?lang=tr", data={
                "csrf": csrf, "expected_head": head, "back": "/desk/round/1/results", "round": "1", "entry": entry})
            return r.status_code, _status_line(r.text)

        assert enter("1 beyaz", rendered)[0] == 200
        after = _head(turkish)
        status, line = enter("1 siyah", rendered)  # from the other desk's old page: the conflict, in Turkish
        assert status == 409 and line.startswith("Hiçbir şey yazılmadı"), (status, line)
        status, line = enter("1 siyah", after)  # after a reload: the correction form in the page (issue 43)
        assert (status, line) == (409, "1. tur 1. masanın zaten bir sonucu var (beyaz kazandı); sonucu “siyah "
                                       "kazandı” olarak değiştirmek için gerekçeyi yazıp burada düzeltin")
        assert _head(turkish) == after


def test_a_bare_zero_is_refused_in_the_pages_language(turkish: Path) -> None:
    from goledger import commands

    for surname, first, rank in (("Yılmaz", "Ayşe", "3d"), ("Kaya", "Mehmet", "2d")):
        commands.register(turkish, surname, first, rank)
    commands.pair(turkish, 1, "p0001", "p0002", 1)
    with DeskServer(turkish) as desk:
        client, csrf = logged_in(desk.url)
        before = _head(turkish)

        def enter(entry: str, lang: str) -> tuple[int, str]:
            r = client.post(f"/desk/do/result?lang={lang}", data={
                "csrf": csrf, "expected_head": before, "back": "/desk/round/1/results", "round": "1", "entry": entry})
            return r.status_code, _status_line(r.text)

        assert enter("1 0", "hu") == (400, "'0' nem fogadható el: jelentheti ezt: fekete győzelme (0-1) vagy "
                                           "döntetlen (jigo); írja be: fehér, fekete, döntetlen (vagy 1-0, 0-1, =)")
        assert enter("1 ½", "de") == (400, "'½' wird abgelehnt: es kann ein halber Punkt eines der beiden Spieler "
                                           "bedeuten; tippen Sie weiß, schwarz, remis (oder 1-0, 0-1, =)")
        status, line = enter("1 0", "en")  # the notation's own sentence
        assert status == 400 and line.startswith("'0' could mean a black win (0-1) or a jigo"), line
        assert _head(turkish) == before


def test_a_missing_table_and_a_line_that_is_no_entry_are_refused_in_turkish(turkish: Path) -> None:
    from goledger import commands

    for surname, first, rank in (("Yılmaz", "Ayşe", "3d"), ("Kaya", "Mehmet", "2d")):
        commands.register(turkish, surname, first, rank)
    with DeskServer(turkish) as desk:
        client, csrf = logged_in(desk.url)

        def enter(entry: str) -> tuple[int, str]:
            r = client.post("/desk/do/result?lang=tr", data={
                "csrf": csrf, "expected_head": _head(turkish), "back": "/desk/round/1/results", "round": "1",
                "entry": entry})
            return r.status_code, _status_line(r.text)

        assert enter("1 beyaz") == (400, "1. tur henüz eşleştirilmedi")
        commands.pair(turkish, 1, "p0001", "p0002", 1)
        assert enter("9 beyaz") == (400, "1. turda 9. masa yok")
        assert enter("x") == (400, "'x' bir sonuç girişi değil: önce masayı, sonra sonucu yazın (örneğin 12 beyaz, "
                                   "8 W+R, 9 B+2.5, 10 0-0; hükmen sonuç için ! ekleyin)")


def test_a_withdrawal_is_confirmed_in_turkish_without_commands_to_type(turkish: Path) -> None:
    from goledger import commands

    for surname, first, rank in (("Yılmaz", "Ayşe", "3d"), ("Arslan", "Selin", "8k")):
        commands.register(turkish, surname, first, rank)
    with DeskServer(turkish) as desk:
        client, csrf = logged_in(desk.url)
        r = client.post("/desk/do/player?lang=tr", data={
            "csrf": csrf, "expected_head": _head(turkish), "back": "/desk/players", "player": "Arslan",
            "what": "withdraw", "round": "2", "reason": ""})
        assert r.status_code == 200, r.text[r.text.find("<main>"):][:800]
        line = _status_line(r.text)
        assert line.startswith("p0002 Arslan Selin 2. turdan itibaren çekildi; "), line
        assert "ayarlar sayfasındaki withdrawn ayarıyla değiştirilir" in line, line
        assert "goledger" not in line and "change-rules" not in line and "withdraws" not in line, line


def test_the_pairing_report_of_a_round_not_paired_points_to_the_round_page(turkish: Path) -> None:
    with DeskServer(turkish) as desk:
        client, _ = logged_in(desk.url)
        r = client.get("/desk/round/2/report?lang=tr")
        assert r.status_code == 400
        assert _status_line(r.text) == "2. tur henüz eşleştirilmedi: tur sayfasında eşleştirin"


def test_every_link_of_a_players_page_answers_on_the_players_port(turkish: Path) -> None:
    """The player page on ``serve --public-port`` links his timeline, which links each event's
    what-if and dispute sheet: none of them is a dead link there."""
    from goledger import commands

    from ..desk_server import free_port

    for surname, first, rank in (("Yılmaz", "Ayşe", "3d"), ("Kaya", "Mehmet", "2d")):
        commands.register(turkish, surname, first, rank)
    commands.pair(turkish, 1, "p0001", "p0002", 1)
    commands.result(turkish, 1, 1, "white")
    players_port = free_port()
    with DeskServer(turkish, public_port=players_port):
        base = f"http://127.0.0.1:{players_port}"
        deadline = 30.0
        import time

        start = time.monotonic()
        while True:
            try:
                page = httpx.get(base + "/player/p0001", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() - start < deadline, "the players' port did not start"
                time.sleep(0.1)
        seen: set[str] = set()
        todo = ["/player/p0001"]
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            seen.add(path)
            r = httpx.get(base + path, timeout=10)
            assert r.status_code == 200, (path, r.status_code)
            todo += [link for link in re.findall(r'href="(/(?:player|print)/[^"?]*)"', r.text)
                     if link.startswith(("/player/p0001", "/print/dispute-sheet/p0001"))]
        assert "/player/p0001/timeline" in seen, seen
        result = _head(turkish)  # the what-if and dispute sheet pages a timeline links are served there too
        for path in (f"/player/p0001/what-if/{result}", f"/print/dispute-sheet/p0001/{result}"):
            r = httpx.get(base + path, timeout=10)
            assert r.status_code in (200, 400) and '<html lang="tr">' in r.text, (path, r.status_code)
        del page


def test_the_team_pages_of_a_tournament_without_teams_say_so_in_turkish(turkish: Path) -> None:
    """A player who opens /teams of an individual tournament is told so in his language, not
    given the command that adds teams."""
    with DeskServer(turkish) as desk:
        for path in ("/teams?lang=tr", "/teams/round/1?lang=tr"):
            status, text, _ = desk.get(path)
            assert status == 400 and _status_line(text) == "bu turnuvada takım yok", (path, status)


@pytest.mark.parametrize(("entry", "lang", "expected"), [
    ("1-0", "tr", "'1-0' bir sonuç girişi değil: önce masayı, sonra sonucu yazın"),
    ("1 maybe", "tr", "'1 maybe' bir sonuç girişi değil: önce masayı, sonra sonucu yazın"),
    ("1-0", "en", "'1-0' is not a result entry: type the table, then the result"),
])
def test_a_result_typed_without_its_table_is_refused_in_the_pages_language(turkish: Path, entry: str, lang: str,
                                                                           expected: str) -> None:
    """A volunteer types ``1-0`` with no table: it is not table 1 with the result ``-0``, and
    the refusal is in the page's language, not the command line's list of notations."""
    from goledger import commands

    for surname, first, rank in (("Yılmaz", "Ayşe", "3d"), ("Kaya", "Mehmet", "2d")):
        commands.register(turkish, surname, first, rank)
    commands.pair(turkish, 1, "p0001", "p0002", 1)
    before = _head(turkish)
    with DeskServer(turkish) as desk:
        client, csrf = logged_in(desk.url)
        r = client.post(f"/desk/do/result?lang={lang}", data={
            "csrf": csrf, "expected_head": before, "back": "/desk/round/1/results", "round": "1", "entry": entry})
        assert r.status_code == 400
        assert _status_line(r.text).startswith(expected), _status_line(r.text)
    assert _head(turkish) == before


def test_a_rank_typed_as_words_is_refused_in_turkish_and_kept_out_of_the_log(turkish: Path) -> None:
    before = _head(turkish)
    with DeskServer(turkish) as desk:
        client, csrf = logged_in(desk.url)
        r = client.post("/desk/do/register?lang=tr", data={
            "csrf": csrf, "expected_head": before, "back": "/desk/players", "surname": "Aydın", "first_name": "Çağla",
            "rank": "3 kyu"})
        assert r.status_code == 400
        assert _status_line(r.text) == "'3 kyu' bir derece değil: 30k..1k, 1d..9d ya da 1p..9p kullanın"
    assert _head(turkish) == before


def test_checking_in_twice_at_the_desk_is_told_in_hungarian(turkish: Path) -> None:
    from goledger import commands

    commands.register(turkish, "Szőke", "Árpád", "2d")
    with DeskServer(turkish) as desk:
        client, csrf = logged_in(desk.url)

        def check_in() -> tuple[int, str]:
            r = client.post("/desk/do/check-in?lang=hu", data={
                "csrf": csrf, "expected_head": _head(turkish), "back": "/desk/round/1", "round": "1",
                "player": "Szőke"})
            return r.status_code, _status_line(r.text)

        assert check_in() == (200, "p0001 Szőke Árpád jelentkezett az 1. fordulóra")
        before = _head(turkish)
        assert check_in() == (400, "p0001 Szőke Árpád már jelentkezett az 1. fordulóra")
        assert _head(turkish) == before


@pytest.mark.parametrize("form", ["ffg", "egd"])
def test_exporting_before_any_game_is_refused_in_turkish(turkish: Path, form: str) -> None:
    with DeskServer(turkish) as desk:
        client, _ = logged_in(desk.url)
        r = client.get(f"/desk/export/{form}?lang=tr")
        assert r.status_code == 400
        assert _status_line(r.text) == "dışa aktarılacak bir şey yok: bu turnuvanın hiçbir turunda oyun yok"


def test_an_egd_export_of_a_round_without_results_is_refused_in_turkish(turkish: Path) -> None:
    from goledger import commands

    for surname, first, rank in (("Yılmaz", "Ayşe", "3d"), ("Kaya", "Mehmet", "2d")):
        commands.register(turkish, surname, first, rank)
    commands.pair(turkish, 1, "p0001", "p0002", 1)
    with DeskServer(turkish) as desk:
        client, _ = logged_in(desk.url)
        r = client.get("/desk/export/egd?lang=tr")
        assert r.status_code == 400
        line = _status_line(r.text)
        assert line.startswith("dışa aktarılacak bir şey yok: 1..1. turların hiçbir oyununda"), line
        assert "--" not in line  # no command-line option on a desk page


def test_the_players_view_serves_the_bracket_its_menu_links(tmp_path: Path) -> None:
    """The players' port (``serve --public-port``) names "Bracket" in its menu for a knockout:
    the link answers the bracket, not a 404."""
    from goledger import commands

    from ..desk_server import players_view

    db = tmp_path / "k.db"
    commands.new(db, "Kupa", None, "knockout", language="hu")
    for i, rank in enumerate(("1d", "2k", "5k", "9k")):
        commands.register(db, f"Szőke{i}", "Árpád", rank)
    commands.pair_round(db, 1)
    with players_view(db) as port:
        standings = httpx.get(f"http://127.0.0.1:{port}/standings", timeout=30)
        assert 'href="/bracket"' in standings.text
        assert "még versenyben</span>: még versenyben az ágrajzon" in standings.text  # not said twice
        bracket = httpx.get(f"http://127.0.0.1:{port}/bracket", timeout=30)
        assert bracket.status_code == 200, bracket.text[:300]
        assert "Szőke0 Árpád" in html.unescape(bracket.text)


def test_importing_a_760_player_field_is_confirmed_in_hungarian(tmp_path: Path) -> None:
    """``serve --new``, a Hungarian page, the EGC 2011 OpenGotha file uploaded: the confirmation
    counts what came in, in Hungarian (the command line keeps its English)."""
    from ..conftest import shared_dir

    shared = shared_dir()
    source = shared / "realdata/opengotha/lucvannier_opengotha__egc2011.xml" if shared else None
    if source is None or not source.exists():
        pytest.skip("../shared/realdata is absent")
    db = tmp_path / "egc.db"
    with DeskServer(db) as desk:
        client, csrf = logged_in(desk.url)
        r = client.post("/desk/import?lang=hu", data={"csrf": csrf, "format": "opengotha"},
                        files={"file": (source.name, source.read_bytes(), "application/xml")})
        assert r.status_code == 200, r.text[-800:]
        assert _status_line(r.text) == (f"{source.name} importálva ide: egc.db: 760 játékos, 2708 játszma, "
                                        "2708 eredmény, 1574 távolmaradás (7752 esemény)")


def test_pairing_a_team_swiss_without_teams_is_refused_in_turkish(tmp_path: Path) -> None:
    from goledger import commands

    db = tmp_path / "teams.db"
    commands.new(db, "Takım Kupası", 5, "team-swiss", language="tr")
    commands.register(db, "Yılmaz", "Şükrü", "3k")
    before = _head(db)
    with DeskServer(db) as desk:
        client, csrf = logged_in(desk.url)
        r = client.post("/desk/do/pair-round?lang=tr", data={
            "csrf": csrf, "expected_head": before, "back": "/desk/round/1", "round": "1"})  # as the form posts it
        assert r.status_code == 400, _status_line(r.text)
        assert _status_line(r.text) == "1. turda eşleştirilecek 0 takım kaldı; bir maç için iki takım gerekir"
    assert _head(db) == before
