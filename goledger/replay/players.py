"""Player references: how a director names a player on the command line or at the desk.

A reference is the ledger id (``p0002``), an EGD PIN (all digits), or a unique name:
``"Ito Mai"``, ``"Ito, Mai"``, ``"Mai Ito"`` or just the surname ``Ito``. Names compare
after folding white space, Unicode normalisation (NFC) and case.

>>> fold_name("  Müller   JAN ")
'müller jan'
"""

from __future__ import annotations

import unicodedata
from typing import Any

from goledger.errors import CommandRejected

__all__ = ["find_player", "fold_name"]


def fold_name(text: str) -> str:
    """The form two names are compared in: single spaces, NFC, case-folded."""
    return unicodedata.normalize("NFC", " ".join(text.split())).casefold()


def find_player(state: Any, ref: str) -> Any:
    """Resolve a player reference (id, EGD PIN or unique name) or refuse naming the problem."""
    text = ref.strip()
    if text in state.players:
        return state.players[text]
    if text.isdigit():
        by_pin = [p for p in state.players.values() if p.egd_pin == text]
        if len(by_pin) == 1:
            return by_pin[0]
    wanted = fold_name(text.replace(",", " "))
    full = [p for p in state.players.values() if fold_name(f"{p.surname} {p.first_name}") == wanted]
    if not full:
        full = [p for p in state.players.values() if fold_name(f"{p.first_name} {p.surname}") == wanted]
    if not full:
        full = [p for p in state.players.values() if fold_name(p.surname) == wanted]
    if len(full) == 1:
        return full[0]
    if len(full) > 1:
        ids = ", ".join(p.id for p in full)
        raise CommandRejected(f"{ref!r} matches several players ({ids}); use the player id")
    raise CommandRejected(f"no player matches {ref!r} (use an id such as p0001, an EGD PIN or a unique name)")
