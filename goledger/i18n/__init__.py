"""The languages goledger writes its pages and printouts in (issue 33).

A base package: every layer may import it (it imports nothing of goledger). It holds the
language currently written in (a context variable set by :func:`use_language`), the message
catalogs and the lookups :func:`gettext`/:func:`ngettext` that templates and Python call;
:mod:`goledger.i18n.collation` sorts names in a language's alphabet and
:mod:`goledger.i18n.numbers` writes dates and decimals as the language does (Babel's CLDR data).

The catalogs are the gettext ``.po`` files of ``goledger/locale/<language>/LC_MESSAGES/``,
extracted from the templates and the Python with Babel (``babel.cfg``; see
``docs/translations.md``). They are compiled by Babel when a language is first used in a
process (about 10 ms for a catalog), so there is no compiled ``.mo`` file that could lag
behind its ``.po``; a fuzzy entry counts as untranslated, as ``msgfmt`` has it.

English is the source language: its catalog holds every message with an empty translation,
and a message without a translation is written in English.

>>> with use_language("tr"):
...     gettext("Round")
'Tur'
>>> with use_language("hu"):
...     ngettext("%(tournament)s · %(n)d player registered", "%(tournament)s · %(n)d players registered", 3) % {
...         "tournament": "Kupa", "n": 3}
'Kupa · 3 nevezett játékos'
>>> gettext("Round")
'Round'
>>> negotiate("hu-HU,hu;q=0.9,en;q=0.5"), negotiate("pt-BR, de;q=0.3"), negotiate("ja")
('hu', 'de', None)
"""

from __future__ import annotations

import contextvars
import gettext as _gettext
import io
from contextlib import contextmanager
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "N_",
    "check_language",
    "current_language",
    "gettext",
    "negotiate",
    "ngettext",
    "pgettext",
    "translations",
    "use_language",
]

LANGUAGES: Final = ("en", "tr", "hu", "fr", "de")
"""The languages with a catalog (ISO 639-1 codes, as ``<html lang>`` and ``Accept-Language``
write them)."""

LANGUAGE_NAMES: Final = {"en": "English", "tr": "Türkçe", "hu": "Magyar", "fr": "Français", "de": "Deutsch"}
"""Each language's name in itself, as a language switcher shows it."""

DEFAULT_LANGUAGE: Final = "en"

LOCALE_DIR: Final = Path(__file__).resolve().parent.parent / "locale"
"""``goledger/locale``: one ``<language>/LC_MESSAGES/goledger.po`` per language."""

DOMAIN: Final = "goledger"

_LANGUAGE: contextvars.ContextVar[str] = contextvars.ContextVar("goledger_language", default=DEFAULT_LANGUAGE)


def check_language(language: str) -> str:
    """``language`` normalised (``"TR"`` → ``"tr"``, ``"hu-HU"`` → ``"hu"``); ``ValueError``
    naming the languages there are when it has no catalog."""
    code = language.strip().replace("_", "-").split("-")[0].lower()
    if code not in LANGUAGES:
        raise ValueError(f"language {language!r} has no catalog; use one of {', '.join(LANGUAGES)}")
    return code


def catalog_path(language: str) -> Path:
    """Where ``language``'s ``.po`` catalog is."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """The compiled message catalog of ``language`` (English, the source language, and a
    language without a catalog translate nothing)."""
    if language == DEFAULT_LANGUAGE or language not in LANGUAGES:
        return _gettext.NullTranslations()
    path = catalog_path(language)
    if not path.exists():
        return _gettext.NullTranslations()
    # Babel loads late: only a catalog compiled from its .po file needs it
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as source:
        catalog = read_po(source, locale=language, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return _gettext.GNUTranslations(compiled)


def current_language() -> str:
    """The language pages and printouts are being written in."""
    return _LANGUAGE.get()


@contextmanager
def use_language(language: str | None) -> Iterator[str]:
    """Write everything inside the block in ``language`` (``None``: keep the current one)."""
    chosen = check_language(language) if language else current_language()
    token = _LANGUAGE.set(chosen)
    try:
        yield chosen
    finally:
        _LANGUAGE.reset(token)


def gettext(message: str) -> str:
    """``message`` in the current language."""
    return translations(current_language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """``singular`` or ``plural`` for ``n``, in the current language (its own plural rule)."""
    return translations(current_language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart by ``context`` from the same English
    word meaning something else (``pgettext("short for round", "R")``)."""
    return translations(current_language()).pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it yet (module constants, which
    are translated with :func:`gettext` when they are shown)."""
    return message


@lru_cache(maxsize=256)  # a hall of phones sends a few distinct headers, each on every request
def negotiate(accept_language: str, available: tuple[str, ...] = LANGUAGES) -> str | None:
    """The best of ``available`` for an HTTP ``Accept-Language`` header (RFC 9110 §12.5.4:
    ranges by quality, a region falling back to its language), or ``None`` when it names none.

    >>> negotiate("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")
    'fr'
    >>> negotiate("en;q=0.1, tr"), negotiate(""), negotiate("*")
    ('tr', None, None)
    """
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(accept_language.split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value.strip()[:5])
                except ValueError:
                    quality = 0.0
        code = tag.strip().split("-")[0].lower()
        if code in available and quality > 0:
            ranked.append((-quality, index, code))
    return min(ranked)[2] if ranked else None
