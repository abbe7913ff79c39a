"""Errors that reach the user as one clear sentence (CLI exit code 1).

Every refusal in goledger raises a :class:`GoledgerError` whose message names the problem;
the CLI prints it on stderr and exits with status 1. Nothing is written when one is raised.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from goledger.i18n.messages import Message

__all__ = ["CommandRejected", "FormatError", "GoledgerError", "LedgerError", "Problem", "StaleHeadError", "said"]


_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


class Problem(str):
    """A refusal of the ledger's (a value outside its domain, a file that cannot be written):
    one English sentence that remembers how it was made, its ``msgid`` (a catalog message with
    named parameters, marked for the catalogs by this class's name) and ``params``. The ledger
    has no words (``tests/test_layers.py``): a :class:`GoledgerError` made with one says it in
    the language in force when its :attr:`~GoledgerError.message` is read, and
    :func:`goledger.commands.checks.refusal` when it is raised. ``what`` names a field, said as
    a word of the catalogs.

    >>> p = Problem("%(what)s %(value)s is outside %(low)s..%(high)s", what="handicap", value=12, low=0, high=9)
    >>> p, p.msgid
    ('handicap 12 is outside 0..9', '%(what)s %(value)s is outside %(low)s..%(high)s')
    >>> p.relabelled("handicap", "game.handicap")
    'game.handicap 12 is outside 0..9'
    """

    __slots__ = ("msgid", "params")
    msgid: str
    params: dict[str, object]

    def __new__(cls, msgid: str, **params: object) -> Problem:
        made = super().__new__(cls, msgid % params)
        made.msgid, made.params = msgid, params
        return made

    def relabelled(self, name: str, label: str) -> Problem:
        """The same problem with the field ``name`` at the start of ``what`` called ``label``."""
        what = str(self.params.get("what", ""))
        if not what.startswith(name):
            return self
        return Problem(self.msgid, **{**self.params, "what": label + what[len(name):]})


def said(problem: Problem) -> str:
    """``problem`` as its catalog message in the language in force (a problem given as a
    parameter said too; ``what``, a field's name, as a word of the catalogs)."""
    from goledger.i18n.messages import Word, say  # loaded late: the ledger imports errors and no words

    return say(problem.msgid, **{
        name: said(value) if isinstance(value, Problem) else Word(value) if name == "what" and isinstance(value, str)
        else value for name, value in problem.params.items()})


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
        first = self.args[0] if self.args else self.__class__.__name__
        if isinstance(first, Problem):  # the ledger's sentence, said in the language in force
            first = said(first)
        text = str(first)
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
