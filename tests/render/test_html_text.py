"""The markup written as text (:mod:`goledger.render.html_text`) is byte for byte what lxml's
serializer writes for the same tree: each function against lxml on hostile texts, and the
audit report, the standings page and the rating preview page against the lxml-tree renderer
they replaced (``tests/report_reference.py``), on ledgers whose names are markup."""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree
from lxml.html import builder as E

from goledger import commands
from goledger.commands.publish import publish
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.rating.preview import preview_state
from goledger.render import audit_report, html_text, rating
from goledger.render.html_text import element, page_bytes, table, text, text_element
from goledger.replay.fold.state import fold
from goledger.replay.scoring.standings import standings

from .. import report_reference
from ..conftest import REPO
from ..systems_support import new_event, play_out

HOSTILE = [
    '<script>alert("x")</script> & <b>Co</b>', '"quoted" & <club>', "it's", "both \" and '", "'only single'",
    "&{x}", "&{", "a&{b}c&d}", "&{<b>\"}", "}{&", "<!--x-->", "<!-->", "<!--->", "<!-- open", "<!- x -->", "<!",
    "&amp;", "&#1;", "&lt;", "x > y", "Zoë Łukasz Ødegaard 李 Şahin", "\t\n\r", "\r\n", "\u2028\u202e\u200b\xad\xa0",
    "\x7f\x80\x9f", "", " ", "  lead", "trail  ", "🙂", "\U0010ffff", "\ufeff", "\ufffd", "#event-1", "%41",
]
"""Texts lxml writes in some special way, or that a careless escaper gets wrong."""

NOT_XML = ["\x00", "\x01", "\x08", "\x0b", "\x0c", "\x0e", "\x1b", "\x1f", "\ufffe", "\uffff", "\ud800", "\udfff"]
"""Characters lxml refuses in any text or attribute."""


def lxml_bytes(tree: Any) -> bytes:
    data: bytes = etree.tostring(tree, method="html", encoding="utf-8")
    return data


def test_the_module_says_what_it_does() -> None:
    assert html_text.text("a<b") == "a&lt;b"


@pytest.mark.parametrize("value", HOSTILE)
def test_text_and_attributes_as_lxml_writes_them(value: str) -> None:
    ours = element("p", text(value), attrs={"title": value, "data-player": value, "class": value})
    theirs = E.P(value, {"title": value, "data-player": value, "class": value})
    assert ours.encode("utf-8") == lxml_bytes(theirs)
    assert text_element("td", value, {"id": value}).encode("utf-8") == lxml_bytes(E.TD(value, id=value))


_SPECIAL = st.sampled_from(list("&{}<>!-\"' \t\nab#;é李\u2028"))
_ANY = st.characters(codec="utf-8").filter(lambda c: (c not in NOT_XML and c >= " ") or c in "\t\n\r")


@given(st.text(st.one_of(_SPECIAL, _ANY), max_size=24))
def test_any_text_as_lxml_writes_it(value: str) -> None:
    ours = element("td", text(value), attrs={"title": value})
    assert ours.encode("utf-8") == lxml_bytes(E.TD(value, title=value))


def test_a_table_as_lxml_writes_it() -> None:
    rng = random.Random(7)
    rows = [[rng.choice(HOSTILE) for _ in range(4)] for _ in range(30)] + [["short"], []]
    ours = table(["A", "<B>", "C & D", "E"], rows, {1, 3}, {"id": "t"})
    head = E.TR(*(E.TH(h) for h in ["A", "<B>", "C & D", "E"]))
    body = [E.TR(*(E.TD(c, E.CLASS("num")) if i in {1, 3} else E.TD(c) for i, c in enumerate(row))) for row in rows]
    assert ours.encode("utf-8") == lxml_bytes(E.TABLE(E.THEAD(head), E.TBODY(*body), id="t"))


def test_a_page_as_lxml_writes_it() -> None:
    title = HOSTILE[0]
    body = element("section", text_element("h1", title), element("br"), attrs={"id": "s"})
    theirs = etree.tostring(E.HTML(E.HEAD(E.META(charset="utf-8"), E.TITLE(title), E.STYLE("a > b & c {}")),
                                   E.BODY(_lxml_section(E.H1(title), E.BR(), id="s")), lang="en"),
                            method="html", encoding="utf-8", doctype="<!DOCTYPE html>")
    assert page_bytes(title, "a > b & c {}", body) == theirs


def _lxml_section(*children: Any, **attrs: str) -> Any:
    return E.E.section(*children, **attrs)


@pytest.mark.parametrize("bad", NOT_XML)
def test_what_xml_cannot_carry_is_refused_as_lxml_refuses_it(bad: str) -> None:
    with pytest.raises(ValueError):
        E.P(f"a{bad}b")
    with pytest.raises(ValueError):
        page_bytes("t", "", text_element("p", f"a{bad}b"))
    with pytest.raises(ValueError):
        page_bytes(f"a{bad}b", "", text_element("p", "x"))


def test_only_links_within_the_page_and_no_end_of_style() -> None:
    assert html_text.anchor("x", "event-12") == '<a href="#event-12">x</a>'
    for link in ("https://example.org", "javascript:alert(1)", "#a b", "#<x>"):
        with pytest.raises(ValueError, match="only links within the page"):
            element("a", attrs={"href": link})
    with pytest.raises(ValueError):
        page_bytes("t", "p {} </style><script>", text_element("p", "x"))
    with pytest.raises(ValueError):
        element("meta", text("x"))
    for raw in ("script", "style"):
        with pytest.raises(ValueError, match="not written by element"):
            element(raw, text("x"))


def _svg() -> Any:
    svg = etree.Element("svg", width="3")  # an element of an XML document, as bracket.py builds them
    text_ = etree.SubElement(svg, "text", title="&{x}")
    text_.text = "Zoë & <x>\r"
    svg.tail = " tail & more"
    return svg


def test_trees_from_other_modules_are_written_as_in_an_html_document() -> None:
    alone = lxml_bytes(_svg())
    assert b"&#13;" in alone and b"&amp;{x}" in alone  # alone, an XML document's element is escaped otherwise
    inside = lxml_bytes(_lxml_section(_svg()))  # what the lxml report wrote: the element moved into the page
    assert html_text.from_tree(_svg()).encode("utf-8") == inside[len(b"<section>"):-len(b"</section>")]
    assert html_text.from_tree(_svg()) == ('<svg width="3"><text title="&{x}">Zoë &amp; &lt;x&gt;\r</text></svg>'
                                           " tail &amp; more")


# --------------------------------------------------------------------------- whole pages against the lxml renderer


def _hostile_sample(folder: Path) -> Path:
    """The bundled sample published after round 5, then corrected, withdrawn, updated,
    with registrations and reasons holding markup and the quirks of lxml's serializer."""
    db = folder / "sample.db"
    shutil.copy(REPO / "samples" / "sample.db", db)
    publish(db, 5, 'prize giving & <b>"speech"</b>')
    commands.correct(db, 5, 3, "black", "appeal &{x} <!-- -->", actor="<td>'s desk")
    commands.register(db, HOSTILE[0], "Zoë", "12k", club='"quoted" & <club> <!-->')
    commands.register(db, "both \" and '", "&{<b>\"}", "3k", club="'only single'")
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
                   ev.PlayerRegistered(player_id="p0005", surname="+cmd|' /C calc'!A0", first_name="\x01", rank="2k"),
                   ev.GamePaired(round=2, table=1, white="p0004", black="p0005"),
                   ev.ResultRecorded(round=2, table=1, result="white")],
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


@pytest.mark.parametrize(("top", "view"), [(10, audit_report.View()), (3, audit_report.View("egf", ["MMS", "NBW"])),
                                           (0, audit_report.View())])
def test_the_report_is_the_lxml_renderers(ledger: Path, top: int, view: audit_report.View) -> None:
    with Ledger.open(ledger) as opened:
        verify = opened.verify()
        records = list(opened.records())
        events = opened.events()
    chunks, summary = audit_report.render_report(records, events, verify, ledger, top, view)
    ours = b"".join(chunks)
    theirs, expected = report_reference.render_report(records, events, verify, ledger, top, view)
    assert summary == expected
    assert ours == theirs


def _outcome(render: Callable[[], bytes]) -> bytes | str:
    """The page, or the kind of error that refused it."""
    try:
        return render()
    except ValueError as exc:
        return type(exc).__name__


def test_the_standings_and_rating_pages_are_the_lxml_renderers(ledger: Path) -> None:
    with Ledger.open(ledger) as opened:
        state = fold(opened.events())
    title = f"{HOSTILE[0]} standings"
    for round_ in range(state.last_round_with_games() + 1):
        table_ = standings(state, round_)
        assert audit_report.standings_page(table_, title) == report_reference.standings_page(table_, title)
    preview = preview_state(state)
    # the preview page shows names as they are: an old ledger's control characters are refused by both
    assert _outcome(lambda: rating.preview_html(preview, title)) == _outcome(
        lambda: report_reference.preview_html(preview, title))
