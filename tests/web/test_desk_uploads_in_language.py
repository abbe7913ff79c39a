"""The refusals of the desk's uploads and of the rating libraries in the page's language
(issue 44, item 1): over HTTP on a running ``goledger serve``, a rating list that is none, a
malformed or empty tournament file and a bad country in the rating search are refused in
Turkish and in Hungarian, with no English fragment of a catalog message left
(:func:`tests.web.test_desk_messages_in_language._english`) and no command-line option named.
The library's refusals the desk can reach but no form makes easily (a store holding a newer
list, a missing ratings store, a bad rating option, an unreadable file) are checked through
:func:`~goledger.i18n.messages.at_desk` in the same languages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from goledger import commands
from goledger.errors import GoledgerError

from ..desk_server import DeskServer
from ..ratings_support import write_list
from .test_desk_messages_in_language import CLI_WORDS, _english, _shown, template  # noqa: F401 (a fixture)
from .test_web_attacks import logged_in

httpx = pytest.importorskip("httpx")

ENTITIES = b'<?xml version="1.0"?>\n<!DOCTYPE t [<!ENTITY a "b">]>\n<Tournament>&a;</Tournament>\n'


def _refused(page: str) -> str:
    found = re.search(r'id="ratings-error">(.*?)</p>', page, re.S)
    return found.group(1).strip() if found else _shown(page)


@pytest.mark.parametrize("language", ["tr", "hu"])
def test_the_desk_uploads_are_refused_in_the_page_language(tmp_path: Path, language: str, template,  # noqa: F811
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOLEDGER_RATINGS", str(tmp_path / "store" / "ratings.db"))
    db = tmp_path / "t.db"
    commands.new(db, "Kupa", 3, "mcmahon", "3d", "20k", None, None, "7.5", language=language)
    commands.register(db, "Kaya", "Ada", "5k")
    shown: list[tuple[str, str]] = []
    with DeskServer(db) as desk:
        client, csrf = logged_in(desk.url)
        r = client.post("/desk/ratings/import", data={"csrf": csrf}, files={"file": ("x.html", b"<html>no</html>")})
        assert r.status_code == 400
        shown.append(("not a list", _shown(r.text)))
        assert not (tmp_path / "store" / "ratings.db").exists()
        r = client.post("/desk/ratings/import", data={"csrf": csrf},
                        files={"file": ("allworld_lp.html", write_list(tmp_path / "allworld_lp.html").read_bytes())})
        assert r.status_code == 200, r.text[-400:]
        r = client.get("/desk/ratings/search", params={"q": "Kovacs", "country": "TURK"})
        assert 'id="ratings-error"' in r.text, r.text[:400]
        shown.append(("country", _refused(r.text)))
    with DeskServer(tmp_path / f"new-{language}.db") as desk:  # serve --new: the import page
        client, csrf = logged_in(desk.url)
        for name, data in (("kupa", ENTITIES), ("bos", b"")):
            r = client.post(f"/desk/import?lang={language}", data={"csrf": csrf, "format": "opengotha"},
                            files={"file": (f"{name}.xml", data, "application/xml")})
            assert r.status_code == 400, (name, r.status_code, r.text[-400:])
            shown.append((name, _shown(r.text)))
        assert not (tmp_path / f"new-{language}.db").exists()
    assert [m for _, m in shown if "MB" in m or not m] == []
    left = [f"{what}: {message} {words}" for what, message in shown
            if (words := _english(message, language, template))]
    assert left == [], "\n".join(left)
    assert [m for _, m in shown if "a(z)" in m.lower() or CLI_WORDS.search(m)] == []


def _refusal(call) -> str:
    with pytest.raises(GoledgerError) as caught:
        call()
    return caught.value.message


@pytest.mark.parametrize("language", ["tr", "hu"])
def test_the_rating_libraries_refuse_in_the_desk_language(tmp_path: Path, language: str, template,  # noqa: F811
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from goledger.formats.importing import read_input
    from goledger.formats.ratinglists import import_list
    from goledger.formats.xmlsafe import parse_xml
    from goledger.i18n import use_language
    from goledger.i18n.messages import at_desk
    from goledger.rating.mge import load_parameters
    from goledger.rating.preview import parse_options
    from goledger.ratings.store import RatingsStore

    store = tmp_path / "ratings.db"
    newer = write_list(tmp_path / "allworld_lp.html")
    older = tmp_path / "older.html"
    older.write_text(re.sub(r"T(\d{6})", "T100101", newer.read_text(encoding="utf-8")), encoding="utf-8")
    import_list(newer, "egd", store)
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    with use_language(language), at_desk():
        said = {
            "newer list": _refusal(lambda: import_list(older, "egd", store)),
            "no store": _refusal(lambda: RatingsStore(tmp_path / "none.db")),
            "option": _refusal(lambda: parse_options({"grade_reset": "maybe"})),
            "mge json": _refusal(lambda: load_parameters(tmp_path / "bad.json")),
            "no file": _refusal(lambda: read_input(tmp_path / "gone.xml", max_bytes=10, kind="XML files")),
            "too big": _refusal(lambda: read_input(newer, max_bytes=10, kind="OpenGotha files")),
            "dtd": _refusal(lambda: parse_xml(b"<!DOCTYPE t [<!ELEMENT t ANY>]><t/>", what="t.xml")),
        }
    assert [what for what, message in said.items() if ENGLISH[what] in message] == []
    assert "--replace" not in said["newer list"] and "goledger" not in said["newer list"]
    prose = {what: re.sub(r"\S*/\S*|\b\w+_\w+\b", " ", message.split(": ")[0] if what == "mge json" else message)
             for what, message in said.items()}  # paths, option names and the JSON reader's own words left out
    left = [f"{what}: {said[what]} {words}" for what, message in prose.items()
            if (words := _english(message, language, template))]
    assert left == [], "\n".join(left)
    assert [m for m in said.values() if "a(z)" in m.lower()] == []


ENGLISH = {"newer list": "the store already holds", "no store": "no ratings store", "option": "grade_reset must",
           "mge json": "bad.json is not JSON", "no file": "no such file", "too big": "allworld_lp.html is",
           "dtd": "t.xml has an internal"}
"""How each refusal starts in English: none of them is left in the desk's language."""
