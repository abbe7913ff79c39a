"""The one reader of the desk's form fields (issue 41, item 8): text, flags and whole numbers.

Every number a desk form or a desk query carries (a round, a table, a handicap, a first
table, a number of rounds, the head a form was rendered at, a result list's limit) is read
here, the way the command line reads numbers (:func:`goledger.ledger.values.bounded_int`):
ASCII digits only, at most 18 of them, one optional sign, checked **as text before**
``int()`` sees it. ``--5``, ``²``, ``٣``, ``1_000`` or 5,000 digits are refused with one
sentence naming the field (a :class:`~goledger.errors.CommandRejected`: 400 at the desk),
never a ``ValueError`` (500). The commands then check each number's domain as they do for
the command line. The desk's actions decode their forms as types
(:func:`goledger.web.form_types.decode`), which reads every number with :func:`whole`; a
refusal names the field in the page's language.

>>> whole("12", "table"), whole("-1", "handicap")
(12, -1)
>>> whole("--5", "handicap")
Traceback (most recent call last):
...
goledger.errors.CommandRejected: handicap '--5' is not a whole number (ASCII digits, at most 18)
>>> number_or_none({"round": "²"}, "round") is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from goledger.errors import CommandRejected
from goledger.i18n.messages import say, word
from goledger.ledger.values import MAX_NUMBER_DIGITS, bounded_int

__all__ = ["Form", "flag", "missing", "number", "number_or_none", "optional", "optional_number", "text", "whole"]

Form = Mapping[str, Any]
"""A posted form (Starlette's ``FormData``) or the fields of one (a ``dict``)."""


def text(form: Form, name: str) -> str:
    """Field ``name`` without surrounding blanks; ``""`` when absent or an uploaded file."""
    value = form.get(name, "")
    return value.strip() if isinstance(value, str) else ""


def optional(form: Form, name: str) -> str | None:
    """Field ``name``, ``None`` when empty."""
    return text(form, name) or None


def flag(form: Form, name: str) -> bool:
    """A check box: ``1``, ``on``, ``true`` or ``yes``."""
    return text(form, name).lower() in ("1", "on", "true", "yes")


def whole(value: str, label: str, *, signed: bool = True, low: int | None = None,
          high: int | None = None) -> int:
    """``value`` as a whole number, checked as text first (ASCII digits, at most 18, a sign
    unless not ``signed``), then within ``low``..``high`` when given; anything else is refused
    in one sentence naming ``label`` (a word of the catalogs: the sentence is in the page's
    language).

    >>> whole("7", "rounds", signed=False, low=1, high=99)
    7
    >>> whole("٣", "round")
    Traceback (most recent call last):
    ...
    goledger.errors.CommandRejected: round '٣' is not a whole number (ASCII digits, at most 18)
    >>> whole("0", "rounds", low=1, high=99)
    Traceback (most recent call last):
    ...
    goledger.errors.CommandRejected: rounds '0' is not a whole number in 1..99
    """
    try:
        result = bounded_int(value, signed=signed)
    except ValueError:
        shown = value if len(value) <= 20 else value[:20] + "…"
        raise CommandRejected(say("%(field)s %(typed)s is not a whole number (ASCII digits, at most %(digits)d)",
                                  field=word(label), typed=repr(shown), digits=MAX_NUMBER_DIGITS)) from None
    if (low is not None and result < low) or (high is not None and result > high):
        raise CommandRejected(say("%(field)s %(typed)s is not a whole number in %(low)s..%(high)s",
                                  field=word(label), typed=repr(value.strip()), low="" if low is None else low,
                                  high="" if high is None else high))
    return result


def missing(label: str) -> CommandRejected:
    """The refusal of an empty field the action cannot do without: "give the ``label``"."""
    return CommandRejected(say("give the %(field)s", field=word(label)))


def optional_number(form: Form, name: str, label: str | None = None, **bounds: Any) -> int | None:
    """Field ``name`` as :func:`whole` (``label`` in the refusal, else ``name``); ``None`` when empty."""
    value = text(form, name)
    return whole(value, label or name, **bounds) if value else None


def number(form: Form, name: str, label: str | None = None, **bounds: Any) -> int:
    """Field ``name`` as :func:`whole`; an empty field is refused too ("give the …")."""
    value = optional_number(form, name, label, **bounds)
    if value is None:
        raise missing(label or name)
    return value


def number_or_none(form: Form, name: str) -> int | None:
    """Field ``name`` as a whole number when it is one, else ``None``: for what only looks at
    a form (which table a refused write was about) and must not refuse it itself."""
    try:
        return optional_number(form, name)
    except CommandRejected:
        return None
