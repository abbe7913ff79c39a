"""Templates compiled once, kept in the user's cache folder and never trusted
(:class:`goledger.render.html.CompiledTemplates`): a kept template is used only while its
source is unchanged; a damaged, foreign or unwritable cache only means compiling again; and a
command's page is the same bytes with the cache empty, filled or damaged."""

from __future__ import annotations

import os
from pathlib import Path
from types import CodeType

import pytest
from jinja2 import Environment

from goledger.render.html import CompiledTemplates, compiled_templates, make_environment

from ..conftest import run_cli


def _environment(templates: Path, cache: Path) -> Environment:
    env = make_environment(templates)
    env.bytecode_cache = CompiledTemplates(cache)
    return env


def test_a_kept_template_is_used_only_while_its_source_is_unchanged(tmp_path: Path) -> None:
    templates, cache = tmp_path / "templates", tmp_path / "cache"
    templates.mkdir()
    page = templates / "page_of_test.html"
    page.write_text("<p>{{ name }} one</p>", encoding="utf-8")
    assert _environment(templates, cache).get_template("page_of_test.html").render(name="<b>") == \
        "<p>&lt;b&gt; one</p>"
    kept = list(cache.glob("*.jinja"))
    assert len(kept) == 1
    # a fresh environment (another process) loads it instead of compiling: its code is in the file
    env = _environment(templates, cache)
    compiled: list[str] = []
    original = env._compile

    def compile_spy(source: str, filename: str) -> CodeType:
        compiled.append(filename)
        return original(source, filename)

    env._compile = compile_spy  # type: ignore[method-assign]
    assert env.get_template("page_of_test.html").render(name="x") == "<p>x one</p>"
    assert compiled == []
    # the template changed: the kept code is not used
    page.write_text("<p>{{ name }} two</p>", encoding="utf-8")
    assert _environment(templates, cache).get_template("page_of_test.html").render(name="x") == "<p>x two</p>"


@pytest.mark.parametrize("damage", [b"", b"garbage", b"j2" + b"\x00" * 40])
def test_a_damaged_cache_file_is_compiled_again(tmp_path: Path, damage: bytes) -> None:
    templates, cache = tmp_path / "templates", tmp_path / "cache"
    templates.mkdir()
    (templates / "page_of_test.html").write_text("<i>{{ n }}</i>", encoding="utf-8")
    _environment(templates, cache).get_template("page_of_test.html")
    (kept,) = cache.glob("*.jinja")
    kept.write_bytes(damage)
    assert _environment(templates, cache).get_template("page_of_test.html").render(n=3) == "<i>3</i>"


def test_an_unwritable_cache_only_means_compiling(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "page_of_test.html").write_text("<i>{{ n }}</i>", encoding="utf-8")
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    env = _environment(templates, blocked / "cache")  # its parent is a file: nothing can be written
    assert env.get_template("page_of_test.html").render(n=1) == "<i>1</i>"


def test_the_folder_is_named_after_what_the_compiled_code_depends_on() -> None:
    one, other = compiled_templates(["jinja2.ext.i18n"]), compiled_templates(["jinja2.ext.i18n", "jinja2.ext.do"])
    assert one.folder.name.startswith("templates-") and one.folder != other.folder
    assert one.folder == compiled_templates(["jinja2.ext.i18n"]).folder


def test_the_report_is_the_same_with_the_cache_empty_filled_or_damaged(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    assert run_cli("new", "--name", "Kupa <&>", "--rounds", "2", "--db", db).code == 0
    for name in ("Ada", "Bea", "Cem", "Dag"):
        assert run_cli("register", "--surname", name, "--rank", "1k", "--db", db).code == 0
    assert run_cli("pair-round", "1", "--db", db).code == 0
    cache = tmp_path / "xdg"
    env = {"XDG_CACHE_HOME": str(cache)}
    pages = []
    for turn in ("empty", "filled", "damaged"):
        if turn == "damaged":
            for kept in cache.rglob("*.jinja"):
                kept.write_bytes(os.urandom(64))
        out = tmp_path / f"{turn}.html"
        result = run_cli("report", "--html", out, "--db", db, env=env)
        assert result.code == 0, result.err
        pages.append(out.read_bytes())
        if turn == "empty":
            assert len(list(cache.rglob("*.jinja"))) >= 3  # the report's page, tables and stylesheet
    assert pages[0] == pages[1] == pages[2]
    wall = [run_cli("wall-list", "--format", "html", "--db", db, env=env).out for _ in range(2)]
    assert wall[0] == wall[1] and "<html" in wall[0]
