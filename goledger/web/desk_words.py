"""A refusal in the desk's words (issue 43, item 6): no desk page names a command line.

The library's refusals are shared with the command line, where ``use `goledger correct```
is the right advice; the desk shows the same sentence with every command it names replaced
by the place of the desk that does it (``the round page's “Correct a result” form``), and
any option or argument written after the command dropped with it. The command's name is
the key (it is the same in every language a refusal is written in, so the catalog's
translations are rewritten alike); a refusal the desk can answer in the page itself (a
result for a table that has one: the correction form) never comes here
(:class:`goledger.web.actions.CorrectionOffered`).

>>> from goledger.i18n import use_language
>>> with use_language("en"):
...     print(desk_words("round 1 table 3 has no result yet; record it with `goledger result`"))
...     print(desk_words("that pair is fixed at table 2 (goledger fix-pairing p1 p2 --round 1 --lift)"))
...     print(desk_words("cannot read the ratings store /home/td/.local/share/goledger/ratings.db: locked"))
round 1 table 3 has no result yet; record it with the round's result entry
that pair is fixed at table 2 (the round page's pairing forms)
cannot read the ratings store ratings.db: locked
>>> desk_words("'b' is read as white in Turkish, but goledger reads it as black")
"'b' is read as white in Turkish, but goledger reads it as black"
"""

from __future__ import annotations

import re
from typing import Final

from goledger.i18n import N_, gettext

__all__ = ["desk_words"]

_ROUND = N_("the round page's pairing forms")
_PLAYERS = N_("the players page")
_SETTINGS = N_("the settings page")
_PLACES: Final[dict[str, str]] = {
    "correct": N_("the round page's “Correct a result” form"),
    "result": N_("the round's result entry"),
    "unpair": N_("the round page's “Unpair” form"),
    "pair-round": N_("the round page's “Pair round” button"),
    "unpair-round": N_("the round page"),
    "pair": _ROUND, "fix-pairing": _ROUND, "fix-table": _ROUND, "forbid": _ROUND, "edit-game": _ROUND,
    "renumber-tables": _ROUND, "explain-pairing": N_("the round's pairing report"),
    "change-rules": _SETTINGS, "settings": _SETTINGS, "criteria": _SETTINGS,
    "withdraw": N_("the players page's “Absence, withdrawal, bye” form"),
    "reinstate": N_("the players page's “Absence, withdrawal, bye” form"),
    "register": _PLAYERS, "update-player": N_("the players page's “Change a player” form"),
    "ratings": N_("the players page's rating list"),
    "explain": N_("the player's explanation on the standings page"),
    "unit": N_("the units page"),
    "publish": N_("the desk's “Publish” form"),
    "standings": N_("the standings page"),
    "team": N_("the teams page"),
}
"""Each command a refusal may name → where the desk does it."""

_ELSEWHERE: Final = N_("another page of the desk")
"""A command the table above does not know."""

_NAME: Final = r"goledger\s+(?P<name>[a-z][a-z-]*)"
_COMMAND: Final = re.compile(
    rf"\((?P<bracket>{_NAME}[^)]*)\)"  # (goledger fix-pairing A B --round 1 --lift)
    rf"|`{_NAME.replace('name', 'quoted')}[^`]*`|'{_NAME.replace('name', 'single')}[^']*'"  # `…`, '…'
    rf"|goledger\s+(?P<bare>{'|'.join(sorted(_PLACES, key=len, reverse=True))})\b"
    r"(?:\s+(?:-{1,2}[\w-]+|[\w-]+=[^\s;,)]*|[A-Z]+|p\d+|\d+)\b)*")
"""``goledger NAME ARGS`` in brackets, back-quoted, quoted, or bare (a command the desk knows
a place for: ``goledger reads it as black`` names the program, not a command) with its
options, ``key=value`` settings, placeholders, player ids and numbers."""

_PATH: Final = re.compile(r"(?<![\w.:/~])/(?:[\w.+-]+/)+(?P<file>[\w.+-]+)")
"""A ``/``-rooted path of the server's: the desk names the file alone."""


def desk_words(message: str) -> str:
    """``message`` with each command line it names replaced by the desk's place for it (a
    command without one: "another page of the desk"), and each server path by its file's
    name. A message naming neither comes back unchanged."""
    if "/" in message:
        message = _PATH.sub(lambda m: m.group("file"), message)
    if "goledger" not in message:
        return message

    def place(match: re.Match[str]) -> str:
        name = next(n for n in (match.group(g) for g in ("name", "quoted", "single", "bare")) if n)
        where = gettext(_PLACES.get(name, _ELSEWHERE))
        return f"({where})" if match.group("bracket") else where

    return _COMMAND.sub(place, message)
