"""The one HTML renderer: Jinja2 templates with autoescaping, shared by the command line's
printouts and the desk (issue 28, item 4; issues 32 and 33).

Every HTML page goledger writes comes from a template rendered by an environment made here, so
escaping, the stylesheet and the translations are decided in one place. Templates of the
printouts and reports live in ``goledger/render/templates/``; the desk adds its own folder
(``make_environment(desk_folder)``) in front of it and so sees both.

Visible text is marked for translation: ``{{ _("Round") }}`` or ``{% trans %}…{% endtrans %}``
in templates, :func:`gettext` in Python. The language is the one made current by
:func:`use_language` (English when none is).

>>> with use_language("en"):
...     render_string("<p>{{ _('Round') }} {{ n }}: {{ name }}</p>", n=1, name="<Sato>")
'<p>Round 1: &lt;Sato&gt;</p>'
>>> current_language()
'en'
"""

from __future__ import annotations

import contextvars
import gettext as _gettext
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Final

from jinja2 import Environment, FileSystemLoader, select_autoescape

__all__ = [
    "DEFAULT_LANGUAGE",
    "TEMPLATES",
    "current_language",
    "environment",
    "gettext",
    "make_environment",
    "ngettext",
    "render",
    "render_string",
    "translations",
    "use_language",
]

TEMPLATES: Final = Path(__file__).resolve().parent / "templates"
"""The printouts' and reports' templates."""

DEFAULT_LANGUAGE: Final = "en"

_LANGUAGE: contextvars.ContextVar[str] = contextvars.ContextVar("goledger_language", default=DEFAULT_LANGUAGE)


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """The message catalog of ``language`` (English, the source language, translates nothing)."""
    return _gettext.NullTranslations()


def current_language() -> str:
    """The language pages and printouts are being written in."""
    return _LANGUAGE.get()


@contextmanager
def use_language(language: str) -> Iterator[str]:
    """Write everything inside the block in ``language``."""
    token = _LANGUAGE.set(language)
    try:
        yield language
    finally:
        _LANGUAGE.reset(token)


def gettext(message: str) -> str:
    """``message`` in the current language."""
    return translations(current_language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """``singular`` or ``plural`` for ``n``, in the current language."""
    return translations(current_language()).ngettext(singular, plural, n)


def make_environment(*folders: Path) -> Environment:
    """An environment whose templates are looked up in ``folders`` first, then in
    :data:`TEMPLATES`; HTML is autoescaped and ``_``/``gettext``/``ngettext`` translate."""
    env = Environment(
        loader=FileSystemLoader([str(f) for f in (*folders, TEMPLATES)]),
        autoescape=select_autoescape(default=True, default_for_string=True),
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals["current_language"] = current_language
    return env


@cache
def environment() -> Environment:
    """The environment of the printouts and reports (built once per process)."""
    return make_environment()


def render(name: str, **context: object) -> str:
    """Template ``name`` of :data:`TEMPLATES` rendered with ``context``."""
    return environment().get_template(name).render(**context)


def render_string(source: str, **context: object) -> str:
    """A template given as text, rendered like the others (for tests and one-line snippets)."""
    return environment().from_string(source).render(**context)
