"""The catalogs are complete (issue 33, item 4): every message of the templates and the Python
has a translation in Turkish, Hungarian, French and German with the English's placeholders, and
a page written in Turkish carries no English sentence (names and abbreviations aside)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from goledger.i18n import LANGUAGES, gettext, translations, use_language
from goledger.i18n.catalogs import extract, problems, read_catalog


@pytest.fixture(scope="module")
def template():
    return extract()


def test_every_message_is_translated_in_every_language(template) -> None:
    assert len(template) > 50  # the extraction found the templates and the Python
    listed = problems(template)
    assert not listed, (
        "untranslated or mismatched messages (run `python -m goledger.i18n.catalogs update`, translate them in "
        "goledger/locale/*/LC_MESSAGES/goledger.po):\n" + "\n".join(listed[:60]))


def test_the_catalogs_compile_and_translate() -> None:
    for language in LANGUAGES:
        translations.cache_clear()
        with use_language(language):
            word = gettext("Round")
        assert word == {"en": "Round", "tr": "Tur", "hu": "Forduló", "fr": "Ronde", "de": "Runde"}[language]


def test_a_missing_translation_is_found(template, tmp_path, monkeypatch) -> None:
    """The check can fail: a catalog with one translation blanked is reported."""
    import goledger.i18n as i18n
    import goledger.i18n.catalogs as catalogs

    for language in LANGUAGES:
        target = tmp_path / language / "LC_MESSAGES"
        target.mkdir(parents=True)
        text = i18n.catalog_path(language).read_text(encoding="utf-8")
        if language == "tr":
            text = text.replace('msgstr "Tur"', 'msgstr ""', 1)
        (target / "goledger.po").write_text(text, encoding="utf-8")
    monkeypatch.setattr(catalogs, "catalog_path", lambda language: tmp_path / language / "LC_MESSAGES" / "goledger.po")
    assert any(line.startswith("tr: 'Round'") for line in problems(template))


def test_the_english_catalog_lists_every_message(template) -> None:
    english = read_catalog("en")
    assert all(english.get(m.id, context=m.context) is not None for m in template if m.id)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    SKIPPED = ("style", "script", "code", "pre")
    """Not prose: styles, scripts, and data shown as it is stored (an event's JSON payload)."""

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in self.SKIPPED:
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIPPED:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def english_left(html: str, language: str, template) -> list[str]:
    """English fragments of the catalogs' messages (four letters or more, between placeholders)
    that appear in ``html``'s text although ``language`` translates them otherwise (data shown
    as stored, in ``<code>`` and ``<pre>``, aside)."""
    parser = _Text()
    parser.feed(html)
    text = re.sub(r"\S+=\S+", " ", " ".join(parser.parts))  # settings written as name=value are identifiers
    catalog = read_catalog(language)
    found = []
    for message in template:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, (list, tuple)) else [message.id]
        entry = catalog.get(message.id, context=message.context)
        strings = entry.string if isinstance(entry.string, (list, tuple)) else [entry.string]
        for english in ids:
            for fragment in re.split(r"%(?:\([a-z_]+\))?[sd]", english):
                fragment = fragment.strip(" ·—:,.()")
                if len(re.sub(r"[^A-Za-z]", "", fragment)) >= 4 and not any(fragment in s for s in strings) \
                        and re.search(rf"(?<![A-Za-z]){re.escape(fragment)}(?![A-Za-z])", text):
                    found.append(fragment)
    return found


def test_english_left_finds_english(template) -> None:
    assert "standings after round" in english_left("<p>Cup · standings after round 2 of 3</p>", "tr", template)


def test_the_wheel_ships_the_catalogs() -> None:
    """``pip install .`` carries every ``.po`` (hatch ``artifacts``): a wheel without them would
    write English whatever the tournament's language."""
    import fnmatch
    import tomllib

    from goledger.i18n import LOCALE_DIR

    from .conftest import REPO

    artifacts = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["hatch"]["build"][
        "targets"]["wheel"]["artifacts"]
    catalogs = [p.relative_to(REPO).as_posix() for p in LOCALE_DIR.rglob("*.po")]
    assert len(catalogs) == len(LANGUAGES)
    assert all(any(fnmatch.fnmatch(c, pattern) for pattern in artifacts) for c in catalogs)


def test_placeholders_of_both_styles_are_compared() -> None:
    from goledger.i18n.catalogs import _placeholders

    assert _placeholders("Round {round} of %(rounds)d, 100%%") == ["%(rounds)d", "{round}"]
