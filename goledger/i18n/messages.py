"""Messages as messages (issue 44): a refusal or a confirmation is a catalog message with
named parameters, rendered in the language written in.

The mechanism, in one place:

- A command makes its sentence with :func:`say` (or :func:`nsay` for a count): the English
  ``msgid`` with named ``%(name)s`` parameters, looked up in the catalog of the language in
  force (:func:`goledger.i18n.use_language`: the desk's worker runs each write in the page's
  language, the CLI in English unless ``--language`` or the tournament's language applies where
  it already did). English renders as the msgid, so the CLI's output and scripts stay as they were.
- The result is a :class:`Message`: a ``str`` (the rendered text, usable everywhere a
  sentence was) that keeps its msgid, plural, count and parameters, so it can be rendered again
  in another language (:meth:`Message.render`). :class:`goledger.errors.GoledgerError` carries
  it (``.msg``), and a command's outcome carries the one its describer made.
- A parameter that is itself a word (a colour, a result, a system's name, "by resignation")
  is passed as a :class:`Word` (``word(N_("white"))``: ``N_`` marks it for the catalogs) and
  translated when the message is rendered, never interpolated in English; a parameter
  that is a :class:`Message` is rendered in the same language.
- Hungarian chooses its definite article from what follows: a translation writes the marker
  ``a(z)`` before a parameter, and :func:`resolve_articles` replaces it, once the parameters
  are in, by *a* or *az* (:func:`hu_article`: *az* before a vowel sound, numbers read
  *egy*, *öt*, *ezer*… included). Nothing goledger shows keeps an ``a(z)``: messages, the
  refusals' ``.message``, the outcomes and the templates' ``_()`` all resolve it.
- A sentence that names a command-line option (``use --force``) has a twin for the desk that
  names the desk's own control instead (*tick “Even if forbidden or a repeat”*):
  :func:`say_at` picks the one for the door the reader came in by — the desk's worker makes
  its messages inside :func:`at_desk`, everything else is the command line.
- Ordinals are the translations' business: Turkish and Hungarian write the number first
  (``%(round)d. tur · %(table)d. masa``, ``%(round)d. forduló · %(table)d. asztal``).

>>> from goledger.i18n import N_, use_language
>>> m = say("round %(round)d table %(table)d: %(outcome)s", round=1, table=4, outcome=word(N_("black")))
>>> m, m.msgid, m.params["round"]
('round 1 table 4: black', 'round %(round)d table %(table)d: %(outcome)s', 1)
>>> import pickle
>>> with use_language("tr"):
...     kept = pickle.dumps(say("round %(round)d is not paired yet", round=3))
>>> pickle.loads(kept)
'3. tur henüz eşleştirilmedi'
>>> resolve_articles("a(z) 5. fordulótól, a(z) 10. asztal, A(z) opengotha, a(z) 1000 pont")
'az 5. fordulótól, a 10. asztal, Az opengotha, az 1000 pont'
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Final

from goledger.i18n import current_language, gettext, ngettext, use_language

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

__all__ = ["Message", "Word", "articles_in_page", "at_desk", "hu_article", "nsay", "on_desk", "resolve_articles", "say",
           "say_at", "word"]

Param = object
"""A message parameter: a number, a name, a :class:`Word`, another :class:`Message`…"""


class Word(str):
    """An English word of the catalogs given as a parameter (``white``, ``by resignation``,
    a system's name): translated in the message's language when the message is rendered."""

    __slots__ = ()


def word(english: str) -> Word:
    """``english``, marked for the catalogs with ``N_``, as a word a message translates when
    rendered: ``word(N_("by resignation"))``."""
    return Word(english)


_VOWELS: Final = frozenset("aáeéiíoóöőuúüűAÁEÉIÍOÓÖŐUÚÜŰ")
_LETTER_NAMES_WITH_VOWEL: Final = frozenset("AEFILMNORSUXÁÉÍÓÖŐÚÜŰ")
"""Capitals whose Hungarian names start with a vowel sound (*ef*, *el*, *em*, *en*, *er*,
*es*, *iksz*): an abbreviation read letter by letter takes *az* after them (*az MMS*, *az SOS*)."""


def hu_article(following: str) -> str:
    """The Hungarian definite article before ``following`` (a word, a number, an
    abbreviation): ``az`` before a vowel sound, ``a`` otherwise. A number is read aloud:
    *az* for those read from *egy*, *öt*, *ezer*, *egymillió*… (1, 5, 50, 500, 1000, 1005,
    5000…), *a* for *tíz*, *száz*, *kettő*… (10, 100, 2, 12…).

    >>> [hu_article(n) for n in ("1", "5", "50", "500", "1000", "1.", "10", "100", "2", "12", "15.", "1 000")]
    ['az', 'az', 'az', 'az', 'az', 'az', 'a', 'a', 'a', 'a', 'a', 'az']
    >>> [hu_article(w) for w in ("opengotha", "Élőpont", "forduló", "MMS", "GoR", "EGD", "“Sonuç”", "")]
    ['az', 'az', 'a', 'az', 'a', 'az', 'a', 'a']
    """
    text = following.lstrip(" \u00a0'\"“”„‘’«»([")
    if not text:
        return "a"
    digits = re.match(r"[0-9][0-9\u00a0 ]*", text)
    if digits:
        number = re.sub(r"[^0-9]", "", digits.group())
        first = number[0]
        if first == "5":  # öt, ötven, ötszáz, ötezer…
            return "az"
        if first == "1":  # egy (1), ezer (1000), egymillió: every third length; tíz, száz otherwise
            return "az" if len(number) % 3 == 1 else "a"
        return "a"
    token = re.match(r"\w+", text)
    if token and len(token.group()) > 1 and token.group().isupper():
        return "az" if token.group()[0] in _LETTER_NAMES_WITH_VOWEL else "a"
    return "az" if text[0] in _VOWELS else "a"


_MARKER: Final = re.compile(r"\b([Aa])\(z\)(\s+)((?:<[^>]{0,200}>)*)(\S*)")


def resolve_articles(text: str) -> str:
    """Every ``a(z)`` of a Hungarian text replaced by the article the next word or number
    takes (:func:`hu_article`), tags in between skipped (``a(z) <b>5</b>``); a capital ``A(z)``
    gives ``A``/``Az``. A text without the marker is returned as it is."""
    if "(z)" not in text:
        return text

    def article(found: re.Match[str]) -> str:
        chosen = hu_article(found.group(4))
        if found.group(1) == "A":
            chosen = chosen.capitalize()
        return chosen + found.group(2) + found.group(3) + found.group(4)

    return _MARKER.sub(article, text)


def articles_in_page(text: str) -> str:
    """A page written in the language in force with the Hungarian article of every ``a(z)``
    chosen (:func:`resolve_articles`; a page in another language is returned as it is, after
    one look for the marker). What a template writes from a text made in Python (a described
    event, an explanation's term) reaches the page through here."""
    if "(z)" not in text:
        return text

    return resolve_articles(text) if current_language() == "hu" else text


def _param(value: Param) -> Param:
    if isinstance(value, Message):
        return value.rendered()
    if isinstance(value, Word):
        return gettext(value)
    return value


class Message(str):
    """A rendered catalog message that remembers how it was made: ``msgid`` (the singular
    for a plural), ``plural`` and the count ``n`` (``None`` for a plain message) and ``params``.
    As a ``str`` it is the text in the language it was made in."""

    __slots__ = ("msgid", "n", "params", "plural")
    msgid: str
    plural: str | None
    n: int | None
    params: Mapping[str, Param]

    def __new__(cls, msgid: str, params: Mapping[str, Param], plural: str | None = None,
                count: int | None = None) -> Message:
        made = super().__new__(cls, _render(msgid, params, plural, count))
        made.msgid, made.params, made.plural, made.n = msgid, dict(params), plural, count
        return made

    def rendered(self) -> str:
        """The message in the language in force now."""
        return _render(self.msgid, self.params, self.plural, self.n)

    def render(self, language: str) -> str:
        """The message in ``language``."""
        with use_language(language):
            return self.rendered()

    def __reduce__(self) -> tuple[object, ...]:
        """Crosses the desk's worker pipe as itself, its text as rendered (the page's language)."""
        return (_restored, (str(self), self.msgid, dict(self.params), self.plural, self.n))


def _restored(text: str, msgid: str, params: Mapping[str, Param], plural: str | None,
              count: int | None) -> Message:
    made = str.__new__(Message, text)
    made.msgid, made.params, made.plural, made.n = msgid, params, plural, count
    return made


def _render(msgid: str, params: Mapping[str, Param], plural: str | None, count: int | None) -> str:
    template = gettext(msgid) if plural is None or count is None else ngettext(msgid, plural, count)
    values = {name: _param(value) for name, value in params.items()}
    return resolve_articles(template % values)


def say(msgid: str, /, **params: Param) -> Message:
    """The catalog message ``msgid`` with ``params``, in the language written in."""
    return Message(msgid, params)


def nsay(singular: str, plural: str, count: int, /, **params: Param) -> Message:
    """The catalog message for ``count`` (the language's plural rule), with ``params``
    (``count`` is not added to them: name it as the message does, e.g. ``n=count``)."""
    return Message(singular, params, plural, count)


_DESK: ContextVar[bool] = ContextVar("goledger_desk", default=False)


@contextmanager
def at_desk() -> Iterator[None]:
    """The messages made inside are read on the desk's pages (:func:`say_at` names the
    desk's controls, never a command-line option)."""
    token = _DESK.set(True)
    try:
        yield
    finally:
        _DESK.reset(token)


def on_desk() -> bool:
    """Whether the messages made now are read on the desk (inside :func:`at_desk`)."""
    return _DESK.get()


def say_at(cli: str, desk: str, /, **params: Param) -> Message:
    """The catalog message ``cli`` (naming a command-line option: ``use --force``) on the
    command line, its twin ``desk`` (naming the desk's control for it) on the desk
    (:func:`at_desk`); both take the same ``params``.

    >>> say_at("use --force to pair them", "tick “Even if forbidden or a repeat” to pair them")
    'use --force to pair them'
    >>> with at_desk():
    ...     say_at("use --force to pair them", "tick “Even if forbidden or a repeat” to pair them")
    'tick “Even if forbidden or a repeat” to pair them'
    """
    return Message(desk if _DESK.get() else cli, params)
