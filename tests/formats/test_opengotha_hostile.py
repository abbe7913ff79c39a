"""Hostile and broken OpenGotha files are refused in under a second with a clear message,
through the library and the CLI, and no ledger file (nor a temporary one) is left behind.

The second is measured in CPU time of the refusing process (``time.process_time``), so that
the check holds on a loaded machine where wall-clock time also counts other processes."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from goledger.errors import FormatError
from goledger.formats.opengotha import import_opengotha

from ..conftest import run_cli

GOOD_HEAD = (b'<?xml version="1.0" encoding="UTF-8"?>\n<Tournament dataVersion="201">\n<Players>\n'
             + b'<Player name="Doe" firstName="John" rank="3K" rating="1750"/>\n' * 200
             + b"</Players>\n<Games>\n")

HOSTILE: dict[str, tuple[bytes, str]] = {
    "external-entity": (
        b'<?xml version="1.0"?>\n<!DOCTYPE Tournament [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
        b'<Tournament><Players><Player name="&xxe;" firstName="x"/></Players></Tournament>',
        "declares XML entities",
    ),
    "billion-laughs": (
        b'<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
        + b"".join(b'<!ENTITY lol%d "%s">' % (i, b"&lol%d;" % (i - 1) * 10 if i > 1 else b"&lol;" * 10)
                   for i in range(1, 10))
        + b']>\n<Tournament name="&lol9;"/>',
        "declares XML entities",
    ),
    "dtd-fetch": (
        b'<?xml version="1.0"?>\n<!DOCTYPE Tournament SYSTEM "http://127.0.0.1:9/tournament.dtd">\n<Tournament/>',
        "points to an external DTD",
    ),
    "parameter-entity": (
        b'<?xml version="1.0"?>\n<!DOCTYPE t [<!ENTITY % remote SYSTEM "http://127.0.0.1:9/x">%remote;]><t/>',
        "declares XML entities",
    ),
    "truncated": (GOOD_HEAD + b'<Game roundNumber="1" tableNumber="1" whiteP', "is not well-formed XML"),
    "wrong-root": (b'<?xml version="1.0"?>\n<MacMahonTournament><Players/></MacMahonTournament>',
                   "root element is <MacMahonTournament>, not <Tournament>"),
    "empty": (b"   \n", "is empty"),
}


def junk(size: int) -> bytes:
    return os.urandom(size)


def assert_nothing_written(folder: Path) -> None:
    leftovers = [p.name for p in folder.iterdir() if p.suffix != ".xml" and p.name != "report.json"]
    assert leftovers == []


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_library_refuses_quickly(name: str, tmp_path: Path) -> None:
    data, message = HOSTILE[name]
    source = tmp_path / f"{name}.xml"
    source.write_bytes(data)
    start = time.process_time()
    with pytest.raises(FormatError, match=message):
        import_opengotha(source, tmp_path / "t.db", report=tmp_path / "report.json")
    assert time.process_time() - start < 1.0
    assert_nothing_written(tmp_path)
    assert not (tmp_path / "report.json").exists()  # a refusal writes no report (issue 40, item 6)…
    with pytest.raises(FormatError, match=message):  # …unless asked, as a folder migration does
        import_opengotha(source, tmp_path / "t.db", report=tmp_path / "report.json", report_refusals=True)
    assert_nothing_written(tmp_path)
    assert message in (tmp_path / "report.json").read_text()


def printable_junk(size: int) -> bytes:
    """Random bytes without XML's forbidden control characters nor markup: text-like junk
    that reaches the parser (and its encoding repairs) instead of failing at byte one."""
    table = bytes(range(256)).translate(None, b"<&\"]")
    allowed = bytes(b for b in table if b >= 0x20)
    return os.urandom(size).translate(bytes(allowed[b % len(allowed)] for b in range(256)))


JUNK = {
    "random-bytes": lambda size: junk(size),
    "huge-text": lambda size: b"<Junk>" + b"x" * size + b"</Junk>",
    "valid-start": lambda size: GOOD_HEAD + junk(size),
    "text-in-attribute": lambda size: b'<?xml version="1.0"?><Tournament a="' + printable_junk(size) + b'"/>',
    "latin-1-text": lambda size: (b'<?xml version="1.0" encoding="ISO-8859-1"?><Tournament>' + printable_junk(size)
                                  + b"</Tournament>"),
}


@pytest.mark.parametrize("kind", sorted(JUNK))
@pytest.mark.parametrize("megabytes", [50, 12])
def test_megabytes_of_junk(kind: str, megabytes: int, tmp_path: Path) -> None:
    """50 MB is refused by its size before it is read; 12 MB (under the 32 MB limit for
    OpenGotha files) by the parser, also in under a second."""
    source = tmp_path / "junk.xml"
    source.write_bytes(JUNK[kind](megabytes * 1024 * 1024))
    start = time.process_time()
    with pytest.raises(FormatError) as refused:
        import_opengotha(source, tmp_path / "t.db")
    assert time.process_time() - start < 1.0
    assert "junk.xml" in refused.value.message
    if megabytes == 50:
        assert "larger than the 32 MB limit for OpenGotha files" in refused.value.message
    assert_nothing_written(tmp_path)


def test_cli_refuses_fifty_megabytes(tmp_path: Path) -> None:
    (tmp_path / "junk.xml").write_bytes(junk(50 * 1024 * 1024))
    result = run_cli("import", "opengotha", "junk.xml", "--db", "t.db", cwd=tmp_path)
    assert result.code == 1 and "larger than the 32 MB limit" in result.err
    assert_nothing_written(tmp_path)


@pytest.mark.parametrize("name", ["external-entity", "billion-laughs", "dtd-fetch", "truncated", "wrong-root"])
def test_cli_refuses_with_one_line(name: str, tmp_path: Path) -> None:
    data, message = HOSTILE[name]
    (tmp_path / "in.xml").write_bytes(data)
    result = run_cli("import", "opengotha", "in.xml", cwd=tmp_path)
    assert result.code == 1, result
    assert result.err.startswith("error: ") and message in result.err and "Traceback" not in result.err
    assert result.err.count("\n") == 1
    assert_nothing_written(tmp_path)
