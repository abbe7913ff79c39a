"""Dates and decimals as each language writes them, from Babel's CLDR data (issue 33, item 3).

Points keep their glyphs: ``2½`` is ``2½`` in every language (the EGF's and the founding
documents' way of writing half points). Decimals written with a point — a komi of ``6.5``,
a rating of ``2104.25`` — take the language's decimal separator, and ISO dates
(``2026-12-01``) its date pattern. A text that is not a plain decimal or an ISO date (an
empty field, ``3/8``, a date with a time, a name) is given back as it is.

>>> from goledger.i18n import use_language
>>> with use_language("tr"):
...     decimal("6.5"), decimal("-0.5"), decimal("2½"), date("2026-12-01")
('6,5', '-0,5', '2½', '1 Aralık 2026')
>>> with use_language("hu"):
...     date("2026-12-01"), decimal("7")
('2026. december 1.', '7')
>>> with use_language("de"):
...     date("2026-12-01"), decimal("6.5"), date("not a date")
('1. Dezember 2026', '6,5', 'not a date')
>>> decimal("6.5"), date("2026-12-01")
('6.5', 'December 1, 2026')
"""

from __future__ import annotations

import datetime
import re
from decimal import Decimal
from functools import cache, lru_cache
from typing import Any, Final

from goledger.i18n import current_language

__all__ = ["date", "date_range", "date_time", "decimal", "numeric_date"]

_DECIMAL: Final = re.compile(r"[-+]?[0-9]{1,18}(?:\.[0-9]{1,18})?")
_ISO_DATE: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@cache
def _locale(language: str) -> Any:
    # Babel loads late: only a number or date written for a reader needs it
    from babel import Locale

    return Locale.parse(language)


def decimal(text: object) -> str:
    """A plain decimal (``6.5``, ``-12``, a change ``+1.062``) written with the current
    language's separator (CLDR's, by Babel's ``format_decimal``), every digit kept (no
    rounding, no grouping: a rating ``2638.000`` is ``2638,000`` in Turkish, never read as
    thousands) and its sign kept; anything else as it is.

    >>> from goledger.i18n import use_language
    >>> with use_language("hu"):
    ...     decimal("+1.062"), decimal("-0.004"), decimal("2638.000")
    ('+1,062', '-0,004', '2638,000')
    """
    value = str(text)
    if not _DECIMAL.fullmatch(value):
        return value
    if "." not in value:
        return value
    return _formatted_decimal(value, current_language())


@lru_cache(maxsize=4096)
def _formatted_decimal(value: str, language: str) -> str:
    """:func:`decimal` of a plain decimal with a point, in ``language`` (kept: a pairing list
    writes the same komi on every row)."""
    from babel.numbers import format_decimal

    plus = value.startswith("+")
    digits = len(value.partition(".")[2])
    pattern = "0." + "0" * digits
    shown = str(format_decimal(Decimal(value.lstrip("+")), format=pattern, locale=_locale(language),
                               decimal_quantization=False, group_separator=False))
    return "+" + shown if plus else shown


def date(text: object, width: str = "long") -> str:
    """An ISO date (``2026-12-01``) as the current language writes it (``width``: Babel's
    ``short``, ``medium``, ``long``); anything else as it is."""
    value = str(text)
    if not _ISO_DATE.fullmatch(value):
        return value
    try:
        day = datetime.date.fromisoformat(value)
    except ValueError:
        return value
    from babel.dates import format_date

    return str(format_date(day, width, locale=_locale(current_language())))


def date_time(text: object) -> str:
    """A moment the log recorded (ISO 8601, ``2026-12-05T12:38:59.123+00:00``) as the current
    language writes a date and time (Babel's ``format_datetime``, ``medium``), to the second
    and at the clock time recorded (no zone conversion); anything else as it is.

    >>> from goledger.i18n import use_language
    >>> with use_language("tr"):
    ...     date_time("2026-12-05T12:38:59.5+00:00")
    '5 Ara 2026 12:38:59'
    >>> with use_language("hu"):
    ...     date_time("2026-12-05T12:38:59Z"), date_time("soon")
    ('2026. dec. 5. 12:38:59', 'soon')
    """
    value = str(text)
    if not _ISO_DATE.match(value):
        return value
    try:
        moment = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return value
    from babel.dates import format_datetime

    plain = moment.replace(tzinfo=None, microsecond=0)
    return str(format_datetime(plain, "medium", locale=_locale(current_language())))


def numeric_date(text: object) -> str:
    """An ISO date (``2026-12-01``) in digits as the current language writes it (CLDR's short
    date pattern by Babel's ``format_date``, the year always whole): Turkish ``22.02.2019``,
    Hungarian ``2019. 02. 22.``, German ``22.02.2019``, French ``22/02/2019``. English, the
    CLI's language that scripts read too, keeps the ISO form (its CLDR ``2/22/19`` is read as
    22 February only in the United States). Anything else as it is: the date of a rating
    list, which names the list.

    >>> from goledger.i18n import use_language
    >>> with use_language("tr"):
    ...     numeric_date("2019-02-22")
    '22.02.2019'
    >>> with use_language("hu"):
    ...     numeric_date("2019-02-22")
    '2019. 02. 22.'
    >>> numeric_date("2019-02-22"), numeric_date("")
    ('2019-02-22', '')
    """
    value = str(text)
    language = current_language()
    if language == "en" or not _ISO_DATE.fullmatch(value):
        return value
    try:
        day = datetime.date.fromisoformat(value)
    except ValueError:
        return value
    from babel.dates import format_date

    locale = _locale(language)
    pattern = re.sub(r"(?<!y)y{1,2}(?!y)", "y", locale.date_formats["short"].pattern)
    return str(format_date(day, pattern, locale=locale))


def date_range(begin: str, end: str) -> str:
    """A tournament's dates: one date, or both joined by an en dash (``""`` when neither is
    known)."""
    first, last = date(begin), date(end)
    if not last or last == first:
        return first
    if not first:
        return last
    return f"{first} – {last}"
