"""The cells of one stretch of output written by one call (``written_texts``, ``written_all``,
gathered by the renderer's compiler): the page is the text each ``{{ }}`` writes alone, for any
value — hostile text, markup, numbers, ``None``, an undefined name, a field of a row."""

from __future__ import annotations

from typing import NamedTuple

from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup

from goledger.render.html import environment, render_string, written, written_all, written_text, written_texts

_PIECES = [*"&<>\"';ab é李\t\n\x00\x1b\u202e\u2028", "🙂", "&amp;", "<!--"]
VALUES = st.one_of(st.lists(st.sampled_from(_PIECES), max_size=8).map("".join), st.text(max_size=8),
                   st.integers(), st.none(), st.builds(Markup, st.sampled_from(["<i>x</i>", "a&amp;b", "plain"])))

ROW = ('<tr id="e-{{ a }}" data-b="{{ b }}"><td>{{ a|text }}</td><td>{{ b|text }}</td><td>{{ c|text }}</td>'
       '<td title="{{ c }}">{{ r.x|text }}</td></tr>')


class Row(NamedTuple):
    x: object


def _alone(a: object, b: object, c: object, x: object) -> str:
    return (f'<tr id="e-{written(a)}" data-b="{written(b)}"><td>{written_text(a)}</td><td>{written_text(b)}</td>'
            f'<td>{written_text(c)}</td><td title="{written(c)}">{written_text(x)}</td></tr>')


@given(VALUES, VALUES, VALUES, VALUES)
def test_a_gathered_row_is_its_cells_written_one_by_one(a: object, b: object, c: object, x: object) -> None:
    assert render_string(ROW, a=a, b=b, c=c, r=Row(x)) == _alone(a, b, c, x)


def test_an_undefined_name_among_gathered_cells_is_written_as_alone() -> None:
    assert render_string("<td>{{ a|text }}</td><td>{{ missing|text }}</td><td>{{ b|text }}</td>", a="<x>", b="y") == \
        "<td>&lt;x&gt;</td><td></td><td>y</td>"


@given(st.lists(VALUES, max_size=6))
def test_the_gathered_calls_write_what_the_single_ones_write(values: list[object]) -> None:
    assert list(map(str, written_texts(tuple(values)))) == [str(written_text(v)) for v in values]
    assert list(map(str, written_all(tuple(values)))) == [str(written(v)) for v in values]


def test_rows_are_gathered_and_calls_or_lone_cells_are_not() -> None:
    source = environment().compile(ROW, raw=True)
    assert source.count("environment.written_texts((") == 1 and source.count("environment.written_all((") == 1
    # a call is never moved before its place in the output, nor a cell alone in its stretch
    source = environment().compile("<td>{{ f(a)|text }}</td><td>{{ b|text }}</td>{% if x %}{{ c }}{% endif %}",
                                   raw=True)
    assert "written_texts" not in source and "written_all" not in source


def test_a_loop_row_in_the_report_tables_is_gathered() -> None:
    env = environment()
    source = env.compile(env.loader.get_source(env, "report_tables.html")[0], raw=True)  # type: ignore[union-attr]
    assert source.count("environment.written_texts((") >= 4  # standings, changes, rating, log and players rows
