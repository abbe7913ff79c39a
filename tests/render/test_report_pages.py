"""The audit report, the standings page and the rating preview page (issue 28, item 4): written
by the one template environment (:mod:`goledger.render.html`), they are the same documents as
the lxml-tree renderer they replace (``tests/report_reference.py``): element for element,
attribute for attribute, text for text (the stylesheet aside, which is issue 28's own change),
on ledgers whose names are markup, quotes, ampersands and control characters; through the
library, the command line (``goledger report --html``, ``rating-preview --format html``,
``standings --format html``) and the desk (``/desk/report``). And the environment's one-call
output (:func:`goledger.render.html.written`) writes what Jinja2's own ``escape(finalize(…))``
does."""

from __future__ import annotations

import shutil
import unicodedata
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup, escape

from goledger import commands
from goledger.commands.publish import publish
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.rating.preview import preview_state
from goledger.render import audit_report, rating
from goledger.render.html import environment, render_string, shown_text, written, written_text
from goledger.replay.fold.state import fold
from goledger.replay.scoring.standings import standings

from .. import report_reference
from ..conftest import REPO, run_cli
from ..systems_support import new_event, play_out

HOSTILE = [
    '<script>alert("x")</script> & <b>Co</b>', '"quoted" & <club>', "it's", "both \" and '", "'only single'",
    "&{x}", "&{", "a&{b}c&d}", "&{<b>\"}", "}{&", "<!--x-->", "<!-->", "<!--->", "<!-- open", "<!- x -->", "<!",
    "&amp;", "&#1;", "&lt;", "x > y", "Zoë Łukasz Ødegaard 李 Şahin", "\t\n\r", "\r\n", "\u2028\u202e\u200b\xad\xa0",
    "\x7f\x80\x9f", "", " ", "  lead", "trail  ", "🙂", "\U0010ffff", "\ufeff", "\ufffd", "#event-1", "%41",
]
"""Texts a careless escaper gets wrong, or that lxml's serializer wrote in some special way."""

RAW = ("\x1b", "\x07", "\x00", "\x01", "\u202e")
"""Characters an older ledger may hold that a page must never write as they are."""


def dom(data: bytes) -> Any:
    """The document as nested tuples: tag, attributes, text, children, tail; a ``style``
    element's text left out (the stylesheet is issue 28's own change)."""

    def tree(e: Any) -> Any:
        text = None if e.tag == "style" else (e.text or "")
        return (e.tag, dict(e.attrib), text, [tree(c) for c in e], e.tail or "")

    return tree(lxml.html.document_fromstring(data))


# --------------------------------------------------------------------------- ledgers


def _hostile_sample(folder: Path) -> Path:
    """The bundled sample published after round 5, then corrected, withdrawn, updated,
    with registrations and reasons holding markup and the quirks of lxml's serializer."""
    db = folder / "sample.db"
    shutil.copy(REPO / "samples" / "sample.db", db)
    publish(db, 5, 'prize giving & <b>"speech"</b>')
    commands.correct(db, 5, 3, "black", "appeal &{x} <!-- -->", actor="<td>'s desk")
    commands.register(db, HOSTILE[0], "Zoë", "12k", club='"quoted" & <club> <!-->', force=True)  # after round 5
    commands.register(db, "both \" and '", "&{<b>\"}", "3k", club="'only single'", force=True)
    commands.reinstate(db, "p0004", 5, reason="back & <well>")
    commands.update_player(db, "p0002", first_name="Ann & <Bo>", reason="typo's fixed")
    commands.change_rules(db, {"mms2_absent": 0}, reason="absences worth nothing")
    return db


def _old_ledger(folder: Path) -> Path:
    """A ledger an older goledger wrote: names and reasons with control and invisible characters."""
    db = folder / "old.db"
    commands.new(db, "Sacred Open", 5)
    for surname, first, rank in (("Müller", "Jan", "3d"), ("Costa", "Ana", "1k"), ("Dubois", "Luc", "5k")):
        commands.register(db, surname, first, rank)
    commands.pair(db, 1, "p0001", "p0002")
    commands.result(db, 1, 1, "white")
    commands.bye(db, "p0003", 1)
    with Ledger.open(db) as ledger, ledger.writing() as tx:
        tx.append([ev.PlayerRegistered(player_id="p0004", surname="Evil\x1b]0;pwn\x07\u202e",
                                       first_name='=HYPERLINK("x")\nB', rank="3d"),
                   ev.PlayerRegistered(player_id="p0005", surname="+cmd|' /C calc'!A0", first_name="\x01\x00",
                                       rank="2k"),
                   ev.GamePaired(round=2, table=1, white="p0004", black="p0005"),
                   ev.ResultRecorded(round=2, table=1, result="white"),
                   ev.ResultCorrected(round=2, table=1, result="black", reason="<b>\x1b[2J</b>")],
                  actor="old\x1b-goledger", reason="tab\there\r\n")
    return db


def _knockout(folder: Path) -> Path:
    db = new_event(folder, "knockout", 4, 2, {"method": "adjacent"}, ranks=lambda i: f"{4 - i}d", name="ko.db")
    play_out(db, pick=lambda g: "white")
    return db


def _unpaired(folder: Path) -> Path:
    db = folder / "new.db"
    commands.new(db, "<Empty> & new", 3)
    commands.register(db, "Solo", "&{}", "1d")
    return db


LEDGERS = {"hostile sample": _hostile_sample, "old ledger": _old_ledger, "knockout": _knockout,
           "nothing paired": _unpaired}


@pytest.fixture(scope="module", params=list(LEDGERS))
def ledger(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return LEDGERS[request.param](tmp_path_factory.mktemp("ledger"))


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _hostile_sample(tmp_path_factory.mktemp("hostile"))


@pytest.fixture(scope="module")
def old(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _old_ledger(tmp_path_factory.mktemp("old"))


def _reference_report(db: Path, top: int = 10, view: audit_report.View | None = None) -> tuple[bytes, dict[str, Any]]:
    with Ledger.open(db) as opened:
        verify, records, events = opened.read_verified()
    return report_reference.render_report(records, events, verify, db, top, view or audit_report.View())


def _no_raw_controls(data: bytes) -> None:
    text = data.decode("utf-8")
    for raw in RAW:
        assert raw not in text, f"{raw!r} written as it is"


# --------------------------------------------------------------------------- the library


@pytest.mark.parametrize(("top", "view"), [(10, audit_report.View()), (3, audit_report.View("egf", ["MMS", "NBW"])),
                                           (0, audit_report.View())])
def test_the_report_is_the_lxml_renderers_document(ledger: Path, top: int, view: audit_report.View) -> None:
    with Ledger.open(ledger) as opened:
        verify, records, events = opened.read_verified()
    chunks, summary = audit_report.render_report(records, events, verify, ledger, top, view)
    ours = b"".join(chunks)
    theirs, expected = report_reference.render_report(records, events, verify, ledger, top, view)
    assert summary == expected
    assert dom(ours) == dom(theirs)
    _no_raw_controls(ours)
    assert b"<script" not in ours


def _outcome(render: Callable[[], bytes]) -> bytes | None:
    """The page, or None when the renderer refused it (lxml refuses control characters)."""
    try:
        return render()
    except ValueError:
        return None


def test_the_standings_and_rating_pages_are_the_lxml_renderers_documents(ledger: Path) -> None:
    with Ledger.open(ledger) as opened:
        state = fold(opened.events())
    title = f"{HOSTILE[0]} standings"
    for round_ in range(state.last_round_with_games() + 1):
        table_ = standings(state, round_)
        ours = audit_report.standings_page(table_, title)
        assert dom(ours) == dom(report_reference.standings_page(table_, title))
        _no_raw_controls(ours)
    preview = preview_state(state)
    ours = rating.preview_html(preview, title)
    theirs = _outcome(lambda: report_reference.preview_html(preview, title))
    if theirs is not None:
        assert dom(ours) == dom(theirs)
    _no_raw_controls(ours)  # where lxml refused an old ledger's names, the template shows their escapes


_VALUES = st.one_of(st.text(st.sampled_from([*"&<>\"'ab é李\t\n\x00\x1b\u202e\ud800\ufffe", "🙂"]), max_size=12),
                    st.text(max_size=12), st.integers(), st.none(), st.builds(Markup, st.text(max_size=8)))


@given(_VALUES)
def test_the_one_call_output_is_jinjas_own_escaping(value: object) -> None:
    expected = str(escape(shown_text(value)))
    assert written(value) == expected
    assert render_string("<td title='{{ v }}'>{{ v }}</td>", v=value) == f"<td title='{expected}'>{expected}</td>"


_PIECES = [*"&<>\"';ab é李\t\n\x00\x01\x1b\x7f\x9f\u202e\u2028\ufeff", "🙂", "&amp;", "&#34;", "<!--", "]]>"]
_TEXTS = st.one_of(st.text(max_size=12), st.lists(st.sampled_from(_PIECES), max_size=16).map("".join))


@given(_TEXTS)
def test_the_text_filter_parses_back_to_the_shown_text(value: str) -> None:
    """``{{ v|text }}`` in an element's content: only ``&``, ``<``, ``>`` escaped (quotes as they
    are, as lxml wrote text), controls shown as their escapes; an HTML parser reads back the
    shown text, and no raw ``<``, ``&`` or control character is written."""
    out = written_text(value)
    assert out == render_string("{{ v|text }}", v=value) == str(render_string("{{ (v|text) ~ '' }}", v=value))
    shown = str(shown_text(value))
    assert out == shown.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    assert "<" not in out and "&" not in out.replace("&amp;", "").replace("&lt;", "").replace("&gt;", "")
    assert not any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") and ch not in "\t\n\r" for ch in out)
    parsed = lxml.html.fragment_fromstring(f"<p>{out}</p>")
    assert (parsed.text or "") == shown.replace("\r\n", "\n").replace("\r", "\n")
    # in an attribute the same value is fully escaped (written): quotes too
    attribute = render_string("<p title='{{ v }}' data-v=\"{{ v }}\">{{ v|text }}</p>", v=value)
    assert attribute == f"<p title='{written(value)}' data-v=\"{written(value)}\">{out}</p>"
    assert "'" not in written(value) and '"' not in written(value)


def test_templates_compile_to_the_one_call() -> None:
    source = environment().compile("{{ v }}{% autoescape false %}{{ v }}{% endautoescape %}", raw=True)
    assert "yield environment.written(" in source and "yield str(environment.finalize(" in source
    source = environment().compile("{{ v|text }}{{ v|text|upper }}", raw=True)
    assert "yield environment.written_text(" in source and "environment.written(t_" in source
    assert render_string("{% autoescape false %}{{ v }}{% endautoescape %}", v="<b>") == "<b>"


# --------------------------------------------------------------------------- through the doors


def test_the_report_file_through_the_command_line(hostile: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    done = run_cli("report", "--html", out, "--db", hostile)
    assert done.code == 0, done
    data = out.read_bytes()
    assert dom(data) == dom(_reference_report(hostile)[0])
    page = lxml.html.document_fromstring(data)
    assert not page.xpath("//script") and not page.xpath("//b") and not page.xpath("//club")
    names = page.xpath("//table[@id='players-table']//td/text()")
    assert HOSTILE[0] + " Zoë" in names and "both \" and ' &{<b>\"}" in names
    # a text cell escapes only ``&``, ``<``, ``>``, as lxml did: quotes as they are
    assert b"<td>&lt;script&gt;alert(\"x\")&lt;/script&gt; &amp; &lt;b&gt;Co&lt;/b&gt; Zo\xc3\xab</td>" in data
    assert b"&#34;" not in data and b"&#39;" not in data


def test_a_hostile_name_in_a_text_cell_and_in_an_attribute(tmp_path: Path) -> None:
    """Through the command line: a name holding markup, quotes, ``&`` and control characters is
    written escaped in the report's text cells (``&``, ``<``, ``>``; quotes kept; controls shown)
    and, where the environment puts it into an attribute, with its quotes escaped too."""
    db = tmp_path / "evil.db"
    commands.new(db, "Evil's \"Open\" & <Co>", 2)
    commands.register(db, "Sato", "Ken", "3d")
    with Ledger.open(db) as opened, opened.writing() as tx:
        tx.append([ev.PlayerRegistered(player_id="p0002", surname='<script>x="1"</script>\x00\x1b\u202e',
                                       first_name="O'Brien & Co", rank="1k")])
    out = tmp_path / "report.html"
    done = run_cli("report", "--html", out, "--db", db)
    assert done.code == 0, done
    data = out.read_bytes()
    _no_raw_controls(data)
    page = lxml.html.document_fromstring(data)
    assert not page.xpath("//script")
    names = page.xpath("//table[@id='players-table']//td[2]/text()")
    assert '<script>x="1"</script>\\x00\\x1b\\u202e O\'Brien & Co' in names
    cell = b'<td>&lt;script&gt;x="1"&lt;/script&gt;\\x00\\x1b\\u202e O\'Brien &amp; Co</td>'
    assert cell in data
    assert page.xpath("//title/text()") == ["Audit report: Evil's \"Open\" & <Co>"]
    assert b"Evil's \"Open\" &amp; &lt;Co&gt;" in data
    for value in page.xpath("//@*"):  # every attribute parses to a value with nothing raw in its source
        assert not any(ch in value for ch in RAW)
    # the attribute path of the same environment: every quote escaped
    name = page.xpath("//table[@id='players-table']//td[2]/text()")[1]
    assert render_string('<td title="{{ n }}">{{ n|text }}</td>', n=name) == (
        '<td title="&lt;script&gt;x=&#34;1&#34;&lt;/script&gt;\\x00\\x1b\\u202e O&#39;Brien &amp; Co">'
        '&lt;script&gt;x="1"&lt;/script&gt;\\x00\\x1b\\u202e O\'Brien &amp; Co</td>')


def test_an_old_ledgers_report_rating_and_standings_pages_show_escapes(old: Path, tmp_path: Path) -> None:
    out = tmp_path / "old.html"
    assert run_cli("report", "--html", out, "--db", old).code == 0
    data = out.read_bytes()
    _no_raw_controls(data)
    assert dom(data) == dom(_reference_report(old)[0])
    text = data.decode("utf-8")
    assert "Evil\\x1b]0;pwn\\x07\\u202e" in text and "old\\x1b-goledger" in text
    for command in (["rating-preview", "--format", "html"], ["standings", "--format", "html"]):
        done = run_cli(*command, "--db", old)
        assert done.code == 0, done
        _no_raw_controls(done.out.encode("utf-8"))
        assert "Evil\\x1b]0;pwn\\x07\\u202e" in done.out, command


def test_the_rating_and_standings_pages_through_the_command_line(hostile: Path) -> None:
    with Ledger.open(hostile) as opened:
        state = fold(opened.events())
    for command, reference in (
        (["rating-preview", "--format", "html"], lambda title: report_reference.preview_html(preview_state(state),
                                                                                            title)),
        (["standings", "--format", "html"], lambda title: report_reference.standings_page(standings(state), title)),
    ):
        done = run_cli(*command, "--db", hostile)
        assert done.code == 0, done
        title = lxml.html.document_fromstring(done.out).findtext(".//title")  # the command's own
        assert dom(done.out.encode("utf-8")) == dom(reference(title)), command
        assert "&lt;script&gt;" in done.out and "<script" not in done.out


def test_the_desks_report_is_the_command_lines(hostile: Path, tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from goledger.web import create_app

    from ..web.test_web import TOKEN, csrf_of

    client = TestClient(create_app(hostile, TOKEN, poll=0.05))
    csrf = csrf_of(client.get("/login").text)
    assert client.post("/login", data={"csrf": csrf, "token": TOKEN, "next": "/desk", "desk": "t"},
                       follow_redirects=False).status_code == 303
    page = client.get("/desk/report?top=3")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    out = tmp_path / "report.html"
    assert run_cli("report", "--html", out, "--top", "3", "--db", hostile).code == 0
    assert page.content == out.read_bytes()
    assert dom(page.content) == dom(_reference_report(hostile, 3)[0])
