"""The players' welcome sheet and the keys on the result slips (issue 46, point 1).

Each player's personal link is ``BASE/k/KEY`` (:mod:`goledger.keys`), printed as a QR code
(segno, as inline SVG: the page fetches nothing) and as text, on a welcome sheet (an A4 page
or an A6 card per player) and, for both players of a table, on the round's result slips.
``BASE`` is the address the players' phones reach the desk at, given by the director
(``--url``) or, on the desk, the address the director's own browser used; it is checked
before anything is printed (:func:`check_base_url`): ``http`` or ``https``, a host, no
query, no control character, at most 200 characters.

Printing creates the keys of players who have none (:func:`goledger.keys.ensure_keys`) and
prints the same keys again on every reprint: only "reissue" changes a key.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Final, Literal

import msgspec
from markupsafe import Markup

from goledger.errors import CommandRejected
from goledger.i18n import gettext
from goledger.keys import ensure_keys, keep_figures, kept_figures
from goledger.ledger.store import Ledger
from goledger.render.printouts import printable as safe
from goledger.replay.fold.players import find_player
from goledger.replay.loading.load import load_state

if TYPE_CHECKING:
    import os
    from collections.abc import Iterable

    from goledger.replay.fold.state import TournamentState

__all__ = ["LAYOUTS", "KeyLink", "Layout", "check_base_url", "key_link", "key_links", "qr_svg", "render_welcome",
           "welcome_sheet"]

LAYOUTS: Final = ("a4", "a6")
Layout = Literal["a4", "a6"]
_URL: Final = re.compile(r"https?://[A-Za-z0-9.\-\[\]:]+(/[A-Za-z0-9._~/\-]*)?")


class KeyLink(msgspec.Struct, frozen=True, kw_only=True):
    """A player's printed link: his id, name, rank, club, the link and its QR code (SVG)."""

    player_id: str
    name: str
    rank: str
    club: str
    link: str
    qr: str


def check_base_url(url: str) -> str:
    """``url`` without its final ``/``, or a refusal in one sentence.

    >>> check_base_url("https://go.example.org/desk/")
    'https://go.example.org/desk'
    >>> check_base_url("javascript:alert(1)")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    goledger.errors.CommandRejected: the address the players' phones reach the desk at must be ... 'javascript:alert(1)'
    """
    if len(url) > 200 or _URL.fullmatch(url) is None:
        raise CommandRejected("the address the players' phones reach the desk at must be http:// or https://, a host "
                              f"and at most a path (e.g. https://go.example.org), not {url[:200]!r}")
    return url.rstrip("/")


def key_link(base_url: str, key: str) -> str:
    """The short link of a key: ``BASE/k/KEY``."""
    return f"{check_base_url(base_url)}/k/{key}"


def qr_svg(text: str) -> str:
    """``text`` as a QR code in inline SVG (error correction M, boosted when it fits): a
    ``viewBox`` in modules and no size, so the page's stylesheet sizes it (70 mm on an A4 sheet)."""
    # Jinja2 and segno load late: only a sheet with QR codes needs them
    import segno

    buffer = io.BytesIO()
    segno.make(text, error="m", micro=False).save(buffer, kind="svg", xmldecl=False, svgns=True, nl=False,
                                                  svgclass="qr-code", lineclass=None, omitsize=True)
    return buffer.getvalue().decode("ascii")


def _links(db: str | os.PathLike[str], state: TournamentState, keys: dict[str, str],
           base_url: str) -> list[KeyLink]:
    """The printed links of ``keys``, their QR codes drawn once and kept beside the keys
    (:func:`goledger.keys.kept_figures`)."""
    links = {pid: key_link(base_url, key) for pid, key in keys.items()}
    kept = kept_figures(db, {link: keys[pid] for pid, link in links.items()})
    drawn = {link: (keys[pid], qr_svg(link)) for pid, link in links.items() if link not in kept}
    keep_figures(db, drawn)
    out: list[KeyLink] = []
    for pid, link in links.items():
        player = state.players[pid]
        figure = kept[link] if link in kept else drawn[link][1]
        out.append(KeyLink(player_id=pid, name=player.full_name, rank=player.rank, club=player.club, link=link,
                           qr=figure))
    return out


def key_links(db: str | os.PathLike[str], base_url: str, players: Iterable[str] | None = None) -> list[KeyLink]:
    """The printed links of ``players`` (references: id, PIN or unique name; default: every
    registered player, in registration order), issuing a key to each that has none."""
    base = check_base_url(base_url)
    with Ledger.open(db) as ledger:
        state = load_state(ledger)
    ids = None if players is None else [find_player(state, ref).id for ref in players]
    return _links(db, state, ensure_keys(db, ids), base)


def render_welcome(tournament: str, cards: list[KeyLink], layout: Layout = "a4") -> bytes:
    """The welcome sheet of ``cards`` (template ``welcome.html``): an A4 page or an A6 card each."""
    from goledger.render.html import render as render_template

    if layout not in LAYOUTS:
        raise CommandRejected(f"{layout!r}: print the welcome sheet as a4 (a page each) or a6 (a card each)")

    shown_cards = [{"player_id": c.player_id, "name": safe(c.name), "rank": c.rank, "club": safe(c.club),
                    "link": c.link, "qr": Markup(c.qr)} for c in cards]  # segno's SVG of a checked link
    title = gettext("%(tournament)s · the players' personal links") % {"tournament": safe(tournament)}
    return render_template("welcome.html", title=title, tournament=safe(tournament), cards=shown_cards,
                           paper=layout).encode("utf-8")


def welcome_sheet(db: str | os.PathLike[str], base_url: str, players: Iterable[str] | None = None,
                  layout: Layout = "a4") -> bytes:
    """``goledger keys sheet``: the welcome sheet of ``players`` (default: every registered
    player), issuing the keys that are missing (:func:`key_links`)."""
    if layout not in LAYOUTS:
        raise CommandRejected(f"{layout!r}: print the welcome sheet as a4 (a page each) or a6 (a card each)")
    cards = key_links(db, base_url, players)
    with Ledger.open(db) as ledger:
        state = load_state(ledger)
    name = state.settings.name if state.settings is not None else ""
    return render_welcome(name, cards, layout)
