"""The refusals of the desk's reading pages in the page's language (issue 44, item 1): over
HTTP on a running ``goledger serve``, a Turkish and a Hungarian tournament's audit page
(diff, what-if, history), its what-if and dispute pages, the players' timeline what-if, the
desk's round pages and the printouts are asked for what they refuse — an event outside the
ledger, a malformed list of events, a round outside the tournament, a view that does not exist,
a missing upload. Each refusal page's sentence is checked against the catalogs as the desk's
form refusals are (:mod:`tests.web.test_desk_messages_in_language`): no English left, no
Hungarian ``a(z)``, and no command-line option (``--from``, ``--without``): the desk names its
own controls. A refusal writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..desk_server import DeskServer
from .test_desk_messages_in_language import CLI_WORDS, _english, _head, _shown, _tournament
from .test_web_attacks import logged_in

httpx = pytest.importorskip("httpx")

READS: list[str] = [
    "/desk/audit?view=diff&from=99",  # --from outside the ledger
    "/desk/audit?view=diff&from=1&to=99",  # --to past the head
    "/desk/audit?view=diff",  # neither --from nor --published
    "/desk/audit?view=what-if&without=0",  # event 0
    "/desk/audit?view=what-if&without=5-2",  # not a range
    "/desk/audit?view=what-if&without=1-999999999",  # too many at once
    "/desk/audit?view=what-if&without=999",  # outside the ledger
    "/desk/audit?view=what-if",  # nothing to leave out
    "/desk/audit?view=what-if&without=1",  # without the tournament
    "/desk/audit?view=nonsense",
    "/desk/what-if/999",  # outside the ledger
    "/desk/what-if/1",  # the tournament's creation
    "/player/p0001/what-if/2",  # a registration: no timeline shows it
    "/print/dispute-sheet/p0001/2",
    "/desk/round/9",
    "/print/pairings/9",
    "/print/slips/9",
    "/print/wall?round=9",
]
"""Reads the desk refuses, each for a reason of its own (the comment's, else the path's)."""


@pytest.mark.parametrize("language", ["tr", "hu"])
def test_every_audit_and_printout_refusal_is_in_the_page_language(tmp_path: Path, language: str, template) -> None:
    db = _tournament(tmp_path, language)
    head = _head(db)
    shown: list[tuple[str, str, list[str]]] = []
    with DeskServer(db) as desk:
        client, csrf = logged_in(desk.url)
        for path in READS:
            response = client.get(path)
            assert response.status_code == 400, (path, response.status_code, response.text[:300])
            message = _shown(response.text)
            shown.append((path, message, _english(message, language, template)))
        upload = client.post("/desk/import", data={"csrf": csrf, "format": "opengotha"})  # no file chosen
        assert upload.status_code == 400, upload.text[:300]
        shown.append(("/desk/import", _shown(upload.text), _english(_shown(upload.text), language, template)))
    assert _head(db) == head
    left = [f"{path}: {message} {words}" for path, message, words in shown if words]
    assert left == [], "\n".join(left)
    assert [m for _, m, _ in shown if "a(z)" in m.lower()] == []
    assert [m for _, m, _ in shown if CLI_WORDS.search(m)] == []  # the desk names its own controls
    assert len({m for _, m, _ in shown}) >= len(READS) - 4  # each its own sentence, not one catch-all


@pytest.fixture(scope="module")
def template():
    from goledger.i18n.catalogs import extract

    return extract()
