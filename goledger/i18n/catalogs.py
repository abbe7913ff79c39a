"""Extracting the messages and keeping the catalogs complete (issue 33; ``babel.cfg``).

``python -m goledger.i18n.catalogs update`` extracts every message from the Python
(``gettext``, ``ngettext``, ``pgettext``, ``N_``, ``_``, and ``say``, ``nsay`` of
:mod:`goledger.i18n.messages`) and from the Jinja2 templates
(``{{ _("…") }}``, ``{% trans %}``) and merges them into each language's ``.po``: new
messages arrive untranslated, translations of messages that are gone are dropped, the rest is
kept. ``python -m goledger.i18n.catalogs
check`` lists what is missing (``tests/test_translations.py`` fails on the same list): every
message needs a translation in every language but English, with the same ``%(name)s``
placeholders as the English.

A developer who adds a visible string runs ``update``, writes the four translations in the
``.po`` files (Turkish, Hungarian, French, German), and runs ``check``.
"""

from __future__ import annotations

import datetime
import re
import sys
from typing import TYPE_CHECKING, Any, Final

from goledger.i18n import DEFAULT_LANGUAGE, DOMAIN, LANGUAGES, LOCALE_DIR, catalog_path

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["ROOT", "extract", "problems", "read_catalog", "update"]

ROOT: Final = LOCALE_DIR.parent.parent
"""The source tree (where ``babel.cfg`` is)."""

KEYWORDS: Final = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "N_": None,
                   "say": None, "nsay": (1, 2), "Problem": None}
"""The calls whose literal arguments are messages: gettext's, and :mod:`goledger.i18n.messages`'
``say`` and ``nsay`` (a message made where it is raised or returned)."""

_FIXED_DATE: Final = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)
"""The header date written in every catalog: a fixed one, so that merging the catalogs of two
branches conflicts only where their messages do."""

_PLACEHOLDER: Final = re.compile(r"%(?:\([A-Za-z_]+\))?[-#0 +]*[0-9]*(?:\.[0-9]+)?[sdifr%]|\{[A-Za-z_][A-Za-z_0-9]*\}")
"""``%(name)s`` placeholders (``gettext(...) % {...}``) and ``{name}`` ones (``.format(name=...)``)."""


def _mapping() -> Any:
    # Babel loads late: a developer's tool, never on a user's path
    from babel.messages.frontend import parse_mapping_cfg

    with (ROOT / "babel.cfg").open(encoding="utf-8") as cfg:
        return parse_mapping_cfg(cfg)


def extract() -> Any:
    """Every message of the source as a Babel ``Catalog`` (the ``.pot``)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    method_map, options_map = _mapping()
    catalog = Catalog(project="goledger", domain=DOMAIN, charset="utf-8", creation_date=_FIXED_DATE,
                      copyright_holder="goledger developers", fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def read_catalog(language: str) -> Any:
    from babel.messages.pofile import read_po

    with catalog_path(language).open("rb") as source:
        return read_po(source, locale=language, domain=DOMAIN)


def update(languages: Iterable[str] = LANGUAGES) -> None:
    """Merge the source's messages into each language's catalog (made when missing)."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    template = extract()
    for language in languages:
        path = catalog_path(language)
        if path.exists():
            catalog = read_catalog(language)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=language, domain=DOMAIN, project="goledger", charset="utf-8",
                              copyright_holder="goledger developers", creation_date=_FIXED_DATE,
                              revision_date=_FIXED_DATE, fuzzy=False)
            catalog.language_team = f"{language} <goledger>"
            catalog.last_translator = "goledger developers"
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        with path.open("wb") as out:
            write_po(out, catalog, width=100, sort_output=True, no_location=True, include_previous=False)


def _texts(message: Any) -> list[str]:
    return list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]


def _placeholders(text: str) -> list[str]:
    return sorted(p for p in _PLACEHOLDER.findall(text) if p != "%%")


def problems(template: Any | None = None) -> list[str]:
    """What keeps the catalogs from being complete: a message without a translation (or
    fuzzy) in a language, a translation whose placeholders differ from the English (the
    singular form of a plural message may leave some out)."""
    template = template if template is not None else extract()
    found: list[str] = []
    for language in LANGUAGES:
        if not catalog_path(language).exists():
            found.append(f"{language}: no catalog at {catalog_path(language)}")
            continue
        catalog = read_catalog(language)
        for message in template:
            if not message.id:
                continue
            entry = catalog.get(message.id, context=message.context)
            label = f"{language}: {message.id!r}" + (f" (context {message.context!r})" if message.context else "")
            if entry is None:
                found.append(f"{label} is not in the catalog")
                continue
            if language == DEFAULT_LANGUAGE:
                continue
            strings = list(entry.string) if isinstance(entry.string, (list, tuple)) else [entry.string]
            if entry.fuzzy or not all(strings):
                found.append(f"{label} has no translation")
                continue
            wanted = _placeholders(_texts(message)[-1])
            for form, text in enumerate(strings):
                got = _placeholders(text)
                # the singular form of a plural message may leave the number out ("the smallest value")
                fits = set(got) <= set(wanted) if form == 0 and len(strings) > 1 else got == wanted
                if not fits:
                    found.append(f"{label}: the translation {text!r} has placeholders {got}, the English {wanted}")
    return found


def main(argv: list[str]) -> int:
    if argv[:1] == ["update"]:
        update()
        return 0
    if argv[:1] == ["check"]:
        listed = problems()
        for line in listed:
            print(line)
        return 1 if listed else 0
    print("usage: python -m goledger.i18n.catalogs update|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
