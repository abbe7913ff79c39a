"""The text and JSON output of the audit commands: the fast paths (one write, memoized
values, printable lines left as they are, msgspec's bytes straight to stdout) print exactly
what the plain ones did, and a hostile name is still escaped everywhere."""

from __future__ import annotations

import io
import json
import sys
from contextlib import redirect_stdout
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goledger import commands
from goledger.audit.compare import RowView, row_json
from goledger.cli import audit as cli_audit
from goledger.cli.common import SafeText, _safe, echo, echo_lines, print_json
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger, Record
from goledger.ledger.values import format_points
from goledger.outputs import _escaped, shown
from goledger.render.json_text import json_text, msgspec_json
from goledger.replay.scoring.standings import json_number

# Characters that matter to `shown`: controls, line breaks, bidi and zero-width characters,
# non-breaking and unassigned ones, surrogates, and ordinary letters and glyphs.
AWKWARD = st.text(st.sampled_from(list("ab Ü→½\t\n\r\x00\x1b\x7f\x85\xa0\xad\u061c\u200b\u2028\u202e\u2066"
                                       "\ufeff\ufffe\u0378\ue000\ud800")) | st.characters(), max_size=30)


def _stdout_bytes(action: Any, encoding: str = "utf-8") -> bytes:
    """What ``action()`` writes to a stdout like a real one (text over a binary stream)."""
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding=encoding, errors="backslashreplace")
    with redirect_stdout(stream):
        action()
        stream.flush()
    return raw.getvalue()


# --------------------------------------------------------------------------- escaping


@given(AWKWARD)
def test_safe_is_shown_line_by_line(text: str) -> None:
    assert _safe(text) == "\n".join(shown(line) for line in text.split("\n"))
    assert _safe(SafeText(text)) == text


def test_every_printable_character_is_its_own_escape() -> None:
    printable = "".join(c for c in map(chr, range(sys.maxunicode + 1)) if c.isprintable())
    assert shown(printable) == printable
    assert _escaped(printable, keep_lines=False) == printable  # what lets shown skip its escaping


@given(st.lists(AWKWARD, max_size=6))
def test_echo_lines_prints_what_echo_prints_line_by_line(messages: list[str]) -> None:
    def one_by_one() -> None:
        for message in messages:
            echo(message)

    assert _stdout_bytes(lambda: echo_lines(messages)) == _stdout_bytes(one_by_one)


def test_echo_lines_keeps_a_tables_colours() -> None:
    table = SafeText("\x1b[1mPlace\x1b[0m")
    assert _stdout_bytes(lambda: echo_lines([table, "x\x1by"])) == b"\x1b[1mPlace\x1b[0m\nx\\x1by\n"


def test_a_hostile_name_is_escaped_in_diff_and_history(tmp_path: Path, cli) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "Hostile Open", 3)
    for surname in ("Müller", "Costa"):
        commands.register(db, surname, "Jan", "3d")
    with Ledger.open(db) as ledger:
        head = len(ledger.events())
    with Ledger.open(db) as ledger, ledger.writing() as tx:  # what an older goledger could have appended
        tx.append([
            ev.PlayerRegistered(player_id="p0003", surname="Evil\x1b]0;pwn\x07\u202e", first_name="A\nB\x01",
                                rank="3d"),
            ev.GamePaired(round=1, table=1, white="p0003", black="p0001"),
            ev.ResultRecorded(round=1, table=1, result="white"),
        ], actor="old-goledger", reason="")
    for argv in (["diff", "--from", str(head)], ["history", "p0003"]):
        done = cli(*argv, "--db", db)
        assert done.code == 0, (argv, done)
        assert not any(c in done.out for c in "\x1b\x07\x01\u202e"), (argv, done.out)
        assert "Evil\\x1b]0;pwn\\x07\\u202e" in done.out, done.out
    assert "Evil\\x1b]0;pwn" in cli("diff", "--from", str(head), "--db", db).out.split("Events between")[1]


# --------------------------------------------------------------------------- values as text


def _old_points(values: dict[str, int] | None, name: str, scales: dict[str, int]) -> str:
    if values is None or name not in values:
        return "–"
    return format_points(values[name], scales[name])


def _old_row_text(view: RowView | None, scales: dict[str, int]) -> str:
    if view is None:
        return "not listed"
    return ", ".join([f"place {view.place}"] + [f"{c} {_old_points(view.values, c, scales)}" for c in scales
                                               if c in view.values])


def _old_change_text(before: RowView | None, after: RowView | None, scales: dict[str, int]) -> str:
    """``_change_text`` as it was before its values were memoized (the oracle)."""
    if before is None or after is None:
        return f"{_old_row_text(before, scales)} → {_old_row_text(after, scales)}"
    parts = [] if before.place == after.place else [f"place {before.place} → {after.place}"]
    for name in dict.fromkeys([*scales, *after.values, *before.values]):
        old, new = _old_points(before.values, name, scales), _old_points(after.values, name, scales)
        if old != new:
            parts.append(f"{name} {old} → {new}")
    return ", ".join(parts) or "unchanged"


SCALES = {"MMS": 2, "SOS": 4, "AOB": 100, "NBW": 1, "X": 3}
VIEWS = st.none() | st.builds(
    RowView, place=st.integers(1, 5),
    values=st.dictionaries(st.sampled_from(list(SCALES)), st.integers(-20, 20), max_size=5))


@given(st.lists(st.tuples(VIEWS, VIEWS), max_size=8))
def test_change_text_reads_as_before(pairs: list[tuple[RowView | None, RowView | None]]) -> None:
    points = cli_audit._Points(SCALES)  # one for all pairs: memoized values are reused
    for before, after in pairs:
        assert cli_audit._change_text(before, after, points) == _old_change_text(before, after, SCALES)


def test_event_line_reads_the_payload_as_json_did() -> None:
    payload = '{"type": "X", "big": 123456789012345678901234567890, "far": 1e400, "list": [], "flag": false}'
    record = Record(seq=7, type="X", schema_version=1, payload=payload, recorded_at="2026-01-02T03:04:05.123",
                    actor="", reason="", prev_hash="", hash="")
    assert cli_audit._event_line(record) == (
        "     7  2026-01-02T03:04:05  X                      big=123456789012345678901234567890 far=inf "
        "flag=False")


# --------------------------------------------------------------------------- JSON


@settings(max_examples=300)
@given(st.integers(-10**20, 10**20), st.sampled_from([1, 2, 3, 4, 5, 8, 10, 16, 100, 1000, 1024]))
def test_row_json_numbers_are_json_number(value: int, scale: int) -> None:
    data = row_json(RowView(place=1, values={"C": value}), {"C": scale})
    assert data is not None
    got, expected = data["values"]["C"], json_number(value, scale)
    assert (type(got), got) == (type(expected), expected)
    if isinstance(got, float):
        assert got == float(Fraction(value, scale))


@pytest.mark.parametrize("data", [{"name": "Šimon", "values": [1, 1.5, None, True]}, [], "x\u202e"])
def test_print_json_writes_json_text(data: Any) -> None:
    expected = (json_text(data) + "\n").encode("utf-8")
    assert _stdout_bytes(lambda: print_json(data)) == expected
    text = io.StringIO()  # no binary stream below: the text is written
    with redirect_stdout(text):
        print_json(data)
    assert text.getvalue().encode("utf-8") == expected


def test_print_json_keeps_a_stdout_that_is_not_utf8() -> None:
    data = {"name": "Šimon"}
    assert _stdout_bytes(lambda: print_json(data), "ascii") == b'{\n  "name": "\\u0160imon"\n}\n'


def test_print_json_writes_after_earlier_text() -> None:
    def both() -> None:
        sys.stdout.write("first\n")
        print_json({"a": 1})

    assert _stdout_bytes(both) == b'first\n{\n  "a": 1\n}\n'


def test_json_msgspec_cannot_write_falls_back_to_json() -> None:
    assert msgspec_json({"s": "\ud800"}) is None
    assert json_text({"s": "\ud800"}) == json.dumps({"s": "\ud800"}, ensure_ascii=False, indent=2)
