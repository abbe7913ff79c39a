"""Errors that reach the user as one clear sentence (CLI exit code 1).

Every refusal in goledger raises a :class:`GoledgerError` whose message names the problem;
the CLI prints it on stderr and exits with status 1. Nothing is written when one is raised.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from goledger.i18n.messages import Message

__all__ = ["CommandRejected", "FormatError", "GoledgerError", "LedgerError", "StaleHeadError"]


_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


class GoledgerError(Exception):
    """Base class: an expected failure with a message meant for the user.

    ``message`` is always one line: control characters, line separators and bidirectional
    overrides that came in with a file's text are shown escaped (``\\n``, ``\\u202e``), so a
    hostile name can neither split the message nor reorder it on the terminal.

    >>> GoledgerError("player 'a\\nb' unknown").message
    "player 'a\\\\nb' unknown"

    A refusal made with :func:`goledger.i18n.messages.say` carries its catalog message
    (``msg``: msgid, parameters, ``render(language)``); a Hungarian ``a(z)`` left by a
    translation is resolved to *a*/*az* from the word that follows.
    """

    exit_code = 1
    code = "error"
    """A stable word for scripts (the ``code`` of a ``--json`` refusal)."""

    @property
    def message(self) -> str:
        text = str(self.args[0]) if self.args else self.__class__.__name__
        if "(z)" in text:
            # loaded late: the ledger imports errors and no words (tests/test_layers.py)
            from goledger.i18n.messages import resolve_articles

            text = resolve_articles(text)
        return _UNPRINTABLE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)

    @property
    def msg(self) -> Message | None:
        """The catalog message this refusal was made with (``None``: a plain sentence)."""
        first = self.args[0] if self.args else None
        return first if type(first).__name__ == "Message" else None


class CommandRejected(GoledgerError):
    """A command that does not fit the tournament as it stands (unknown player, bad round…)."""

    code = "rejected"


class EventDecided(CommandRejected):
    """Nothing more to pair: the tournament system has decided its event (a knockout's
    final, a Paramus's last game, a match's target, every round of a fixed count played).
    The message says so in one sentence, e.g. "the knockout is decided: P1 won the final"."""

    code = "decided"


class LedgerError(GoledgerError):
    """The ledger file is missing, damaged, foreign, newer, or cannot be locked."""

    code = "ledger"


class StaleHeadError(LedgerError):
    """The caller's expected head is not the ledger's head any more. ``expected`` is the
    head the caller gave and ``since`` the stored records appended after it (empty when
    the expected head lies beyond the ledger's last event, or only those touching what the
    write depends on: :meth:`goledger.ledger.store.Transaction.depend`); ``head`` the
    ledger's head when the write was refused, when known."""

    code = "stale-head"

    def __init__(self, message: str, *, expected: int | None = None, since: tuple = (),
                 head: int | None = None) -> None:
        super().__init__(message)
        self.expected = expected
        self.since = since
        self.head = head


class FormatError(GoledgerError):
    """An input file that cannot be read as the format it claims to be."""

    code = "format"
