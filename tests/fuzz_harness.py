"""Hostile inputs for the importers (issue 10 item 1): mutation strategies and the one
property every importer must keep.

**The property** (:func:`check_import`): an input file either imports — a ledger that
verifies, holds exactly the events the outcome announces, folds and gives standings, with a
report — or is refused with a :class:`~goledger.errors.GoledgerError` whose message is one
line, and then no file at all is left behind (no ledger, no temporary file). Anything
else (another exception, a hang past :data:`TIME_LIMIT` seconds, a half-written ledger)
fails the test, and Hypothesis shrinks the input.

**Mutations** start from seed files: small generated ones (always, so the suite runs on a
fresh clone) and the real files of ``../shared`` when present. Byte-level mutations
(truncation, flipped, inserted and deleted bytes, invalid UTF-8), XML-level ones (attribute
values replaced by wrong types, huge numbers, long or odd text; elements duplicated,
removed, moved, nested deep; dangling references; renamed root), line-level ones for
text formats, encoding tricks (UTF-16/32, Latin-1/Cp1252 under a UTF-8 declaration, BOMs)
and entity tricks (XXE, billion laughs, parameter entities, external DTDs, XInclude).

**Settings**: :data:`CI` derandomises (a fixed seed per test), so CI runs the same
examples every time; ``pytest -m slow`` runs the same properties with :data:`LONG_FACTOR`
times more examples and a random seed (a failure prints the seed and a ``@reproduce_failure``
blob to pin it).
"""

from __future__ import annotations

import copy
import os
import signal
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from lxml import etree

from goledger.errors import GoledgerError

__all__ = [
    "CI",
    "HOSTILE_TEXT",
    "LONG",
    "byte_mutations",
    "check_import",
    "encoding_tricks",
    "line_mutations",
    "xml_attribute_mutations",
    "xml_structure_mutations",
]

TIME_LIMIT: Final = 8.0
"""Seconds one import may take before the property fails (a hang is a bug)."""

LONG_FACTOR: Final = int(os.environ.get("GOLEDGER_FUZZ_FACTOR", "20"))

FAST_TMP: Final = os.environ.get("GOLEDGER_FUZZ_TMP") or ("/dev/shm" if os.access("/dev/shm", os.W_OK) else None)
"""Where the fuzzed imports write: a RAM disk when there is one (the property does not
depend on durability, and fsync dominates the time of a small import on a real disk)."""

_HEALTH: Final = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                  HealthCheck.large_base_example]
CI: Final = settings(derandomize=True, deadline=None, database=None, suppress_health_check=_HEALTH,
                     max_examples=100, print_blob=True)
LONG: Final = settings(CI, derandomize=False)


def examples(n: int, slow: bool) -> settings:
    """Settings for ``n`` examples in CI, ``n × LONG_FACTOR`` under ``-m slow``."""
    return settings(LONG if slow else CI, max_examples=n * LONG_FACTOR if slow else n)


# --------------------------------------------------------------------------- the property


class _TimeUp(Exception):
    pass


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise inside the block after ``seconds`` (SIGALRM; a no-op where there is none)."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    def alarm(signum: int, frame: Any) -> None:
        raise _TimeUp(f"took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


Importer = Callable[[Path, Path], Any]
"""``importer(source_file, ledger_path)`` → an outcome with ``.events`` and ``.report``."""


def check_import(importer: Importer, data: bytes, name: str = "input.xml") -> str:
    """The property (module docstring). Returns ``"imported"`` or ``"refused: <message>"``."""
    from goledger.ledger.store import Ledger
    from goledger.replay.loading.load import load_state
    from goledger.replay.scoring.standings import standings

    with tempfile.TemporaryDirectory(prefix="goledger-fuzz-", dir=FAST_TMP) as folder:
        root = Path(folder)
        source = root / name
        source.write_bytes(data)
        db = root / "out" / "t.db"
        db.parent.mkdir()
        try:
            with time_limit(TIME_LIMIT):
                outcome = importer(source, db)
        except GoledgerError as exc:
            message = exc.message
            assert message.strip(), "a refusal needs a message"
            assert "\n" not in message, f"a refusal is one line: {message!r}"
            assert "Traceback" not in message
            left = sorted(p.name for p in db.parent.iterdir())
            assert not left, f"refused import left files behind: {left}"
            assert source.read_bytes() == data, "the source file was changed"
            return f"refused: {message}"
        assert outcome.report is not None
        assert db.is_file(), "the import reported success but wrote no ledger"
        left = sorted(p.name for p in db.parent.iterdir() if p.name not in ("t.db", "t.db-wal", "t.db-shm"))
        assert not left, f"the import left temporary files: {left}"
        with Ledger.open(db) as ledger:
            report = ledger.verify()
            assert report.ok, report.problem
            assert report.events == outcome.events
            with time_limit(TIME_LIMIT):
                state = load_state(ledger)
        try:
            with time_limit(TIME_LIMIT):
                standings(state, None, None, None)
        except GoledgerError:
            pass  # e.g. a criterion this goledger does not know: refused, with a message
        return "imported"


Appender = Callable[[Path, Path], Any]
"""``appender(source_file, existing_ledger)`` → an outcome with ``.records``."""


def check_append(appender: Appender, data: bytes, ledger_bytes: bytes, name: str = "list.txt") -> str:
    """The property for an import *into an existing ledger*: it appends (the ledger verifies
    and grew by exactly the records announced) or it is refused with one line and the
    ledger file is unchanged, byte for byte."""
    from goledger.ledger.store import Ledger

    with tempfile.TemporaryDirectory(prefix="goledger-fuzz-", dir=FAST_TMP) as folder:
        root = Path(folder)
        source = root / name
        source.write_bytes(data)
        db = root / "t.db"
        db.write_bytes(ledger_bytes)
        with Ledger.open(db) as ledger:
            before = ledger.head().seq
        snapshot = db.read_bytes()
        try:
            with time_limit(TIME_LIMIT):
                outcome = appender(source, db)
        except GoledgerError as exc:
            message = exc.message
            assert message.strip() and "\n" not in message, f"a refusal is one line: {message!r}"
            with Ledger.open(db) as ledger:
                assert ledger.head().seq == before, "a refused import appended events"
            assert _logical(db) == _logical_bytes(snapshot, root), "a refused import changed the ledger"
            return f"refused: {message}"
        with Ledger.open(db) as ledger:
            report = ledger.verify()
            assert report.ok, report.problem
            assert report.events == before + len(outcome.records)
        return "appended"


def _logical(db: Path) -> list[tuple]:
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT * FROM events ORDER BY seq").fetchall()
    finally:
        conn.close()


def _logical_bytes(data: bytes, folder: Path) -> list[tuple]:
    copy = folder / "snapshot.db"
    copy.write_bytes(data)
    return _logical(copy)


# --------------------------------------------------------------------------- byte mutations

INVALID_UTF8: Final = (b"\xff", b"\xfe", b"\xc3", b"\xc3\x28", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf",
                       b"\xf4\x90\x80\x80", b"\x80", b"\xe9", b"\x96", b"\x00")


@st.composite
def byte_mutations(draw: st.DrawFn, seeds: Sequence[bytes]) -> bytes:
    """A seed with 1–4 byte-level edits: truncation, flips, insertions (invalid UTF-8,
    NULs, random bytes), deletions, duplicated spans."""
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["truncate", "flip", "insert", "invalid-utf8", "delete", "duplicate"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if kind == "truncate":
            del data[at:]
        elif kind == "flip" and data:
            data[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "invalid-utf8":
            data[at:at] = draw(st.sampled_from(INVALID_UTF8))
        elif kind == "delete":
            del data[at: at + draw(st.integers(1, 64))]
        elif kind == "duplicate":
            span = bytes(data[at: at + draw(st.integers(1, 400))])
            data[at:at] = span
    return bytes(data)


# --------------------------------------------------------------------------- values

HUGE_NUMBERS: Final = ("99999999999999999999999", "2147483648", "-2147483649", "9223372036854775808",
                       "18446744073709551616", "1" * 5000, "1e309", "-0", "007", "+5", " 5 ", "1_000", "٣",
                       "１２", "0x10", "NaN", "Infinity", "4294967297", "-1", "0")
HOSTILE_TEXT: Final = ("", " ", "abc", "null", "true", "RESULT_", "30K", "99K", "10D", "10P", "-5K",
                       "x" * 10_000, "İıŞ", "王李张", "שלום", "مرحبا", "\u202eevil", "a\u0301", "\ufeff",
                       "\ud7ff", "Ｓａｔｏ", "<", "&", "'\"", "\t\n", "../../etc/passwd", "%s%n", "{}", "[]")


def hostile_value() -> st.SearchStrategy[str]:
    """An attribute or field value: a wrong type, a huge number, odd or long text."""
    return st.one_of(
        st.sampled_from(HUGE_NUMBERS),
        st.sampled_from(HOSTILE_TEXT),
        st.integers(-(2**70), 2**70).map(str),
        st.text(st.characters(exclude_categories=("Cs",)), max_size=30),
    )


def _xml_text(value: str) -> str:
    """Drop characters XML 1.0 cannot hold (lxml refuses to write them)."""
    return "".join(c for c in value if c in "\t\n\r" or (" " <= c <= "\ud7ff") or ("\ue000" <= c <= "\ufffd")
                   or c >= "\U00010000")


# --------------------------------------------------------------------------- XML mutations


def _parse(seed: bytes) -> etree._Element:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, remove_blank_text=False)
    return etree.fromstring(seed, parser)


def _serialise(root: etree._Element) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


@st.composite
def xml_attribute_mutations(draw: st.DrawFn, seeds: Sequence[bytes]) -> bytes:
    """A seed with 1–5 attributes of random elements set to hostile values (or removed)."""
    root = _parse(draw(st.sampled_from(seeds)))
    elements = [el for el in root.iter() if isinstance(el.tag, str)]
    for _ in range(draw(st.integers(1, 5))):
        el = draw(st.sampled_from(elements))
        names = sorted(el.attrib)
        action = draw(st.sampled_from(["set", "set", "set", "remove", "add"]))
        if action == "remove" and names:
            del el.attrib[draw(st.sampled_from(names))]
        elif action == "add" or not names:
            el.set(draw(st.sampled_from(["unknownAttr", "dataVersion", "roundNumber", "x"])),
                   _xml_text(draw(hostile_value())))
        else:
            el.set(draw(st.sampled_from(names)), _xml_text(draw(hostile_value())))
    return _serialise(root)


@st.composite
def xml_structure_mutations(draw: st.DrawFn, seeds: Sequence[bytes]) -> bytes:
    """A seed with 1–4 structural edits: an element duplicated (duplicate ids, tables,
    byes), removed, moved under another parent, nested deep, a reference pointed at a
    missing player, the root renamed, text or comments added."""
    root = _parse(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 4))):
        elements = [el for el in root.iter() if isinstance(el.tag, str)]
        children = [el for el in elements if el.getparent() is not None]
        kind = draw(st.sampled_from(["duplicate", "duplicate", "remove", "move", "nest", "dangling", "rename-root",
                                     "text", "self-pair"]))
        if kind == "duplicate" and children:
            el = draw(st.sampled_from(children))
            for _ in range(draw(st.integers(1, 3))):
                el.addnext(copy.deepcopy(el))
        elif kind == "remove" and children:
            el = draw(st.sampled_from(children))
            el.getparent().remove(el)
        elif kind == "move" and children:
            el = draw(st.sampled_from(children))
            target = draw(st.sampled_from(elements))
            if el is not target and el not in target.iterancestors():
                target.append(el)
        elif kind == "nest":
            el = draw(st.sampled_from(elements))
            depth = draw(st.sampled_from([2, 50, 300, 3000]))
            inner = el
            for _ in range(depth):
                inner = etree.SubElement(inner, draw(st.sampled_from(["Player", "Game", "Players", "x"])))
        elif kind == "dangling":
            refs = [el for el in elements if any(a in el.attrib for a in ("whitePlayer", "blackPlayer", "player"))]
            if refs:
                el = draw(st.sampled_from(refs))
                attr = next(a for a in ("whitePlayer", "blackPlayer", "player") if a in el.attrib)
                el.set(attr, draw(st.sampled_from(["NOBODYATALL", "", " ", "SATO"])))
        elif kind == "rename-root":
            root.tag = draw(st.sampled_from(["tournament", "Tournoi", "html", "Players"]))
        elif kind == "text":
            el = draw(st.sampled_from(elements))
            el.text = _xml_text(draw(hostile_value()))
            el.append(etree.Comment(" a comment "))
        elif kind == "self-pair":
            games = [el for el in elements if el.tag == "Game"]
            if games:
                g = draw(st.sampled_from(games))
                g.set("blackPlayer", g.get("whitePlayer", ""))
    return _serialise(root)


# --------------------------------------------------------------------------- encodings


def _declared(data: bytes, encoding: str) -> bytes:
    head, sep, rest = data.partition(b"?>")
    if data.startswith(b"<?xml") and sep:
        import re

        head = re.sub(rb'encoding\s*=\s*["\'][^"\']*["\']', f'encoding="{encoding}"'.encode(), head)
        return head + sep + rest
    return f'<?xml version="1.0" encoding="{encoding}"?>'.encode() + data


@st.composite
def encoding_tricks(draw: st.DrawFn, seeds: Sequence[bytes]) -> bytes:
    """A seed re-encoded or mislabelled: UTF-16/32 with and without BOM, Latin-1/Cp1252 text
    under a UTF-8 declaration (and the reverse), a doubled or misplaced BOM, an unknown or
    unsupported encoding name, a declaration after blank space."""
    data = draw(st.sampled_from(seeds))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    kind = draw(st.sampled_from(["utf16", "utf16-nobom", "utf32", "latin1-as-utf8", "cp1252-as-utf8",
                                 "utf8-as-latin1", "bom", "double-bom", "unknown-encoding", "ebcdic", "blank-first",
                                 "mixed"]))
    if kind == "utf16":
        return _declared(text.encode("utf-8"), "UTF-16").decode("utf-8").encode("utf-16")
    if kind == "utf16-nobom":
        return _declared(text.encode("utf-8"), "UTF-16LE").decode("utf-8").encode("utf-16-le")
    if kind == "utf32":
        return _declared(text.encode("utf-8"), "UTF-32").decode("utf-8").encode("utf-32")
    if kind == "latin1-as-utf8":
        return text.encode("latin-1", errors="replace")
    if kind == "cp1252-as-utf8":
        return text.replace("'", "’").encode("cp1252", errors="replace")
    if kind == "utf8-as-latin1":
        return _declared(text.encode("utf-8"), "ISO-8859-1")
    if kind == "bom":
        return b"\xef\xbb\xbf" + data
    if kind == "double-bom":
        return b"\xef\xbb\xbf\xef\xbb\xbf" + data
    if kind == "unknown-encoding":
        return _declared(data, draw(st.sampled_from(["x-bogus", "UTF-7", "", "utf-8 ", "UTF-8\x00", "latin-9"])))
    if kind == "ebcdic":
        return _declared(text.encode("utf-8"), "IBM037").decode("utf-8").encode("cp037", errors="replace")
    if kind == "blank-first":
        return b"\n \t\n" + data
    # mixed: one half UTF-8, the other Latin-1
    half = len(text) // 2
    return text[:half].encode("utf-8") + text[half:].encode("latin-1", errors="replace")


# --------------------------------------------------------------------------- line formats


@st.composite
def line_mutations(draw: st.DrawFn, seeds: Sequence[bytes], separator: bytes = b" ") -> bytes:
    """A text file (EGD, TRF…) with 1–5 line edits: a line duplicated, removed or swapped, a
    field replaced by a hostile value, fields shuffled, a very long line, a NUL or CR."""
    lines = draw(st.sampled_from(seeds)).split(b"\n")
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["duplicate", "remove", "swap", "field", "field", "shuffle", "long", "odd"]))
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        if kind == "duplicate" and lines:
            lines.insert(i, lines[i])
        elif kind == "remove" and lines:
            del lines[i]
        elif kind == "swap" and len(lines) > 1:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind in ("field", "shuffle") and lines:
            fields = lines[i].split(separator)
            if kind == "field" and fields:
                k = draw(st.integers(0, len(fields) - 1))
                fields[k] = draw(hostile_value()).encode("utf-8", errors="surrogatepass")
            else:
                fields = draw(st.permutations(fields))
            lines[i] = separator.join(fields)
        elif kind == "long" and lines:
            lines[i] = lines[i] + separator + b"9" * draw(st.sampled_from([300, 5000, 100_000]))
        elif kind == "odd" and lines:
            lines[i] = lines[i] + draw(st.sampled_from([b"\x00", b"\r", b"\t", b"\xff\xfe", b"\x1a", b"\x0c"]))
    return b"\n".join(lines)


# --------------------------------------------------------------------------- entity tricks


def entity_tricks(secret: Path) -> dict[str, bytes]:
    """Documents that try to read ``secret``, explode in memory, or reach the network."""
    uri = secret.resolve().as_uri()
    laughs = '<!ENTITY a0 "lol">' + "".join(
        f'<!ENTITY a{i} "{f"&a{i - 1};" * 10}">' for i in range(1, 10)
    )
    body = '<Tournament><Players><Player name="{ref}" firstName="x" rank="1D"/></Players></Tournament>'
    docs = {
        "xxe-system": f'<?xml version="1.0"?><!DOCTYPE Tournament [<!ENTITY x SYSTEM "{uri}">]>'
                      + body.format(ref="&x;"),
        "xxe-in-text": f'<?xml version="1.0"?><!DOCTYPE Tournament [<!ENTITY x SYSTEM "{uri}">]>'
                       "<Tournament><Players>&x;</Players></Tournament>",
        "xxe-parameter": f'<?xml version="1.0"?><!DOCTYPE Tournament [<!ENTITY % p SYSTEM "{uri}"> %p;]>'
                         + body.format(ref="a"),
        "xxe-lowercase-keyword": f'<?xml version="1.0"?><!DOCTYPE Tournament [<!entity x SYSTEM "{uri}">]>'
                                 + body.format(ref="&x;"),
        "billion-laughs": f'<?xml version="1.0"?><!DOCTYPE Tournament [{laughs}]>' + body.format(ref="&a9;"),
        "quadratic-blowup": '<?xml version="1.0"?><!DOCTYPE Tournament [<!ENTITY a "' + "x" * 50_000 + '">]>'
                            + body.format(ref="&a;" * 2000),
        "internal-entity": '<?xml version="1.0"?><!DOCTYPE Tournament [<!ENTITY n "Sato">]>'
                           + body.format(ref="&n;"),
        "external-dtd-url": '<?xml version="1.0"?><!DOCTYPE Tournament SYSTEM "http://127.0.0.1:9/t.dtd">'
                            + body.format(ref="a"),
        "external-dtd-file": f'<?xml version="1.0"?><!DOCTYPE Tournament SYSTEM "{uri}">' + body.format(ref="a"),
        "public-dtd": '<?xml version="1.0"?><!DOCTYPE Tournament PUBLIC "-//X//DTD//EN" "t.dtd">'
                      + body.format(ref="a"),
        "xinclude": f'<?xml version="1.0"?><Tournament xmlns:xi="http://www.w3.org/2001/XInclude"><Players>'
                    f'<xi:include href="{uri}" parse="text"/></Players></Tournament>',
        "stylesheet-pi": f'<?xml version="1.0"?><?xml-stylesheet href="{uri}"?>' + body.format(ref="a"),
        "undeclared-entity": '<?xml version="1.0"?>' + body.format(ref="&nbsp;"),
        "charref-nul": '<?xml version="1.0"?>' + body.format(ref="&#0;"),
        "charref-out-of-range": '<?xml version="1.0"?>' + body.format(ref="&#x110000;"),
        "charref-surrogate": '<?xml version="1.0"?>' + body.format(ref="&#xD800;"),
        "cdata-in-attribute-position": '<?xml version="1.0"?><Tournament><![CDATA[<Player/>]]></Tournament>',
    }
    out = {name: doc.encode("utf-8") for name, doc in docs.items()}
    for name in ("xxe-system", "billion-laughs", "internal-entity"):
        out[f"{name}-utf16"] = docs[name].replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="UTF-16"?>'
                                                  ).encode("utf-16")
    return out
