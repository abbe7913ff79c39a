"""Names sorted as each language's alphabet has them (issue 33, item 3).

The library is pyuca (the Unicode Collation Algorithm over the DUCET that ships with it,
Unicode 10 on Python 3.11), with the CLDR tailorings of Turkish and Hungarian written below.
PyICU, which would carry every CLDR tailoring itself, is not used: PyPI has it only as a
source distribution that needs ICU's C++ headers and a compiler (``pip download pyicu
--only-binary :all:`` finds no wheel for Python 3.11), and a dependency that CI and every
director's machine must build from source is a dependency that breaks installs.

* English, German, French: the root collation (CLDR ``root``/``en``/``de``/``fr``; French
  sorts accents forwards since CLDR 1.9, only ``fr-CA`` backwards): accents and case are
  secondary and tertiary differences, so ``Çelebi < Celik < Cem < Dag`` and
  ``Müller < Muller`` only when everything else is equal.
* Turkish (CLDR ``tr``): ``&C<ç &G<ğ &[before 1]i<ı &i<<<İ &O<ö &S<ş &U<ü`` — ç, ğ, ı, ö, ş, ü
  are letters of their own after c, g, h, o, s, u; dotless ı (capital I) comes before dotted i
  (capital İ): ``Celik < Cem < Çelebi < Dag`` and ``Ilgaz < İnan``.
* Hungarian (CLDR ``hu``): ``&C<cs &D<dz<dzs &G<gy &L<ly &N<ny &S<sz &T<ty &Z<zs &O<ö<<ő
  &U<ü<<ű`` — the digraphs are letters (``Cukor < Csányi``, ``Szabó`` after every ``S…``),
  a doubled digraph is two of them (``ccs`` = ``cs``+``cs``, ``ssz`` = ``sz``+``sz``), and ö/ő,
  ü/ű follow o and u (the long vowel a secondary difference, as the acute on a, e, i, o, u).

How a tailoring is made: every DUCET primary weight is spread by :data:`SPREAD`, which leaves
room for :data:`SPREAD` − 1 letters after each letter (``&X < Y`` gives Y the primary of X plus
its rank) and one before it (``[before 1]``). Secondary and tertiary weights are DUCET's, a
tailored letter's tertiary that of its first character, so capitals still follow small letters.

>>> sorted(["Dag", "Cem", "Çelebi", "Celik"], key=key_for("tr"))
['Celik', 'Cem', 'Çelebi', 'Dag']
>>> sorted(["Dag", "Cem", "Çelebi", "Celik"], key=key_for("en"))
['Çelebi', 'Celik', 'Cem', 'Dag']
>>> sorted(["Csanyi", "Cukor", "Czene"], key=key_for("hu"))
['Cukor', 'Czene', 'Csanyi']
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, Final

from goledger.i18n import current_language

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = ["SPREAD", "TAILORINGS", "key_for", "sort_key", "sorted_by_name", "ties_by_name"]

SPREAD: Final = 16
"""DUCET primaries are multiplied by this: the gaps hold the tailored letters."""

Elements = list[tuple[int, int, int]]

TAILORINGS: Final[dict[str, tuple[tuple[str, str, int], ...]]] = {
    # (letter, after this letter of the root alphabet, rank after it: 1, 2 … ; -1 = just before it)
    "tr": (
        ("ç", "c", 1), ("ğ", "g", 1), ("ı", "i", -1), ("ö", "o", 1), ("ş", "s", 1), ("ü", "u", 1),
    ),
    "hu": (
        ("cs", "c", 1), ("dz", "d", 1), ("dzs", "d", 2), ("gy", "g", 1), ("ly", "l", 1), ("ny", "n", 1),
        ("sz", "s", 1), ("ty", "t", 1), ("zs", "z", 1), ("ö", "o", 1), ("ő", "o", 1), ("ü", "u", 1),
        ("ű", "u", 1),
    ),
}
"""The CLDR rules above as data: each tailored letter (small letters; capitals follow) with
the root letter it is sorted after. Hungarian ő/ű share ö/ü's primary and differ from them
as ó from o: by the secondary weight of the double acute."""

_HU_DOUBLES: Final = {"ccs": "cs", "ddz": "dz", "ddzs": "dzs", "ggy": "gy", "lly": "ly", "nny": "ny",
                      "ssz": "sz", "tty": "ty", "zzs": "zs"}
"""Hungarian writes a long digraph consonant by doubling its first letter (``asszony``):
it sorts as the digraph twice."""


@cache
def _collator() -> Any:
    # pyuca loads late: only a list sorted by name needs it
    import pyuca

    return pyuca.Collator()


def _root_elements(text: str) -> Elements:
    """DUCET collation elements of NFD ``text``, primaries spread."""
    return [(p * SPREAD, s, t) for p, s, t, *_ in _collator().collation_elements(text)]


def _variants(letter: str) -> Iterable[str]:
    """The case forms a tailored letter is written in: ``cs``, ``Cs``, ``CS`` (and ``cS``)."""
    forms = {""}
    for ch in letter:
        forms = {f + c for f in forms for c in {ch, ch.upper()}}
    return forms


@cache
def _table(language: str) -> dict[str, Elements]:
    """Tailored spellings (NFD, every case form) → their collation elements in ``language``."""
    table: dict[str, Elements] = {}
    for letter, base, rank in TAILORINGS.get(language, ()):
        primary = _root_elements(base)[0][0] + rank
        secondary = 0x21 if letter in ("ő", "ű") else 0x20
        for form in _variants(letter):
            tertiary = _root_elements(unicodedata.normalize("NFD", form[0]))[0][2]
            table[unicodedata.normalize("NFD", form)] = [(primary, secondary, tertiary)]
    if language == "tr":
        # Turkish capitals: I is the capital of ı (dotless), İ (I + dot above) that of i.
        dotless, capital = table["ı"][0], _root_elements("I")[0][2]
        table["I"] = [(dotless[0], dotless[1], capital)]
        table["I\u0307"] = [(_root_elements("i")[0][0], 0x20, capital)]
    if language == "hu":
        for double in _HU_DOUBLES:
            for form in _variants(double):
                single = table.get(unicodedata.normalize("NFD", form[1:]))
                if single is not None:
                    first = (single[0][0], single[0][1], _root_elements(form[0])[0][2])
                    table[form] = [first, *single]
    return table


@cache
def _longest(language: str) -> int:
    return max((len(k) for k in _table(language)), default=0)


def _elements(text: str, language: str) -> Elements:
    nfd = unicodedata.normalize("NFD", text)
    table = _table(language)
    if not table:
        return _root_elements(nfd)
    starts = {k[0] for k in table}
    out: Elements = []
    chunk_start = 0
    i = 0
    longest = _longest(language)
    while i < len(nfd):
        if nfd[i] in starts:
            for size in range(min(longest, len(nfd) - i), 0, -1):
                found = table.get(nfd[i:i + size])
                if found is not None and not _continues(nfd, i + size):
                    if chunk_start < i:
                        out += _root_elements(nfd[chunk_start:i])
                    out += found
                    i += size
                    chunk_start = i
                    break
            else:
                i += 1
        else:
            i += 1
    if chunk_start < len(nfd):
        out += _root_elements(nfd[chunk_start:])
    return out


def _continues(nfd: str, end: int) -> bool:
    """Whether a combining mark follows a match (``I`` of ``İ`` is not the letter ``I``)."""
    return end < len(nfd) and unicodedata.combining(nfd[end]) != 0


def sort_key(text: str, language: str | None = None) -> tuple[int, ...]:
    """The collation key of ``text`` in ``language`` (default: the current one): primaries,
    0, secondaries, 0, tertiaries, as UCA §7.3 builds it."""
    return _key(text, language or current_language())


@lru_cache(maxsize=1 << 15)
def _key(text: str, language: str) -> tuple[int, ...]:
    """:func:`sort_key`, kept for the names a standings page lists at every head (a congress's
    tied players are keyed again each time the head moves)."""
    elements = _elements(text, language)
    key: list[int] = []
    for level in range(3):
        if level:
            key.append(0)
        key += [e[level] for e in elements if e[level]]
    return tuple(key)


def key_for(language: str | None = None) -> Callable[[str], tuple[int, ...]]:
    """A key function sorting texts in ``language`` (default: the current one)."""
    chosen = language or current_language()
    return lambda text: sort_key(text, chosen)


def sorted_by_name(items: Iterable[Any], surname: Callable[[Any], str], first_name: Callable[[Any], str],
                   tie: Callable[[Any], str] = str, language: str | None = None) -> list[Any]:
    """``items`` by surname, then first name, in ``language``'s alphabet, then by ``tie``."""
    chosen = language or current_language()
    return sorted(items, key=lambda x: (sort_key(surname(x), chosen), sort_key(first_name(x), chosen), tie(x)))


def ties_by_name(items: Iterable[Any], place: Callable[[Any], object], surname: Callable[[Any], str],
                 first_name: Callable[[Any], str], language: str | None = None) -> list[Any]:
    """``items`` in their order, except that a run of neighbours sharing one ``place`` is
    listed by surname, then first name, in ``language``'s alphabet (issue 44, item 6): the
    order between places never changes, and equal names keep their order.

    >>> rows = [(1, "Zeki"), (2, "Kıyak"), (2, "Çoban"), (2, "Akçin"), (5, "Ağar")]
    >>> [n for _, n in ties_by_name(rows, lambda r: r[0], lambda r: r[1], lambda r: "", "tr")]
    ['Zeki', 'Akçin', 'Çoban', 'Kıyak', 'Ağar']
    """
    chosen = language or current_language()
    out: list[Any] = []
    run: list[Any] = []
    for item in items:
        if run and place(item) != place(run[0]):
            out += _by_name(run, surname, first_name, chosen)
            run = []
        run.append(item)
    return out + _by_name(run, surname, first_name, chosen)


def _by_name(run: list[Any], surname: Callable[[Any], str], first_name: Callable[[Any], str],
             language: str) -> list[Any]:
    if len(run) < 2:
        return run
    return sorted(run, key=lambda x: (sort_key(surname(x), language), sort_key(first_name(x), language)))
