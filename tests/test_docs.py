"""Issue 20, item 7: the docs/ folder holds the rules the code implements, and stays in step
with it — every policy, policy field and criterion is documented, the per-policy table is
the code's, and the README cites only files of the repository."""

from __future__ import annotations

import re

import pytest

from goledger.replay.scoring.criteria import known_criteria
from goledger.replay.scoring.policies import Policy, get_policy, known_policies

from .conftest import REPO

DOCS = REPO / "docs"
SKIP_TABLE = {"name", "description", "default_criteria", "default_criteria_by_system", "criterion_aliases"}


def _text(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def _show(value: object) -> str:
    if value is None:
        return "tournament's"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return "(" + ", ".join(map(str, value)) + ")"
    return '""' if value == "" else str(value)


def policy_table() -> str:
    """The table of every policy field and each policy's value, as docs/policies.md shows it."""
    names = ["opengotha", "egf", "macmahon", "fide-2009", "fide-2024", "fide-2026"]
    base = Policy(name="x")
    lines = ["| field | default | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    for field in Policy.__struct_fields__:
        if field in SKIP_TABLE:
            continue
        default = getattr(base, field)
        cells = [f"**{_show(v)}**" if (v := getattr(get_policy(n), field)) != default else "·" for n in names]
        lines.append(f"| `{field}` | {_show(default)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def test_every_policy_and_field_is_documented() -> None:
    text = _text("policies.md")
    for name in known_policies():
        assert f"### `{name}`" in text or f"`{name}`" in text, name
    for field in Policy.__struct_fields__:
        if field not in ("name", "description"):
            assert f"`{field}`" in text, field


def test_the_policy_table_is_the_codes() -> None:
    assert policy_table() in _text("policies.md"), "regenerate the table with tests/test_docs.py:policy_table"


def test_every_criterion_is_documented() -> None:
    text = _text("criteria.md")
    for name in known_criteria():
        assert f"`{name}`" in text, name


@pytest.mark.parametrize("name", ["opengotha", "macmahon", "egd", "trf"])
def test_every_format_has_its_page(name: str) -> None:
    text = _text(f"formats/{name}.md")
    for section in ("## What is read", "## What is written", "## What is lost"):
        assert section in text, (name, section)


def test_readme_cites_only_files_of_the_repository() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "spec/" not in readme and "DESIGN" not in readme
    pages = [readme] + [p.read_text(encoding="utf-8") for p in DOCS.rglob("*.md")]
    assert len(pages) >= 8
    for path, text in [(REPO / "README.md", readme)] + [(p, p.read_text(encoding="utf-8"))
                                                          for p in DOCS.rglob("*.md")]:
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
            if "://" in target:
                continue
            assert (path.parent / target).exists(), (path.name, target)


def _reference_page(name: str) -> str:
    """A page of the reference (the README's former sections, moved to docs/reference/)."""
    return (DOCS / "reference" / f"{name}.md").read_text(encoding="utf-8")


def test_readme_names_every_dependency_of_pyproject() -> None:
    """The Dependencies page names each runtime and test dependency ``pyproject.toml``
    declares, and says sqlite-utils is a runtime dependency (issue 28)."""
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    names = {re.split(r"[<>=!~\[ ;]", spec, maxsplit=1)[0].lower() for spec in declared}
    section = _reference_page("dependencies").lower()
    assert sorted(n for n in names if n not in section) == []
    assert "sqlite-utils is nevertheless a runtime dependency" in section
    assert "not a runtime dependency" not in section


def test_readme_layout_table_has_no_duplicate_row() -> None:
    """One row per folder, in one unbroken table (a blank line would split it in two)."""
    lines = _reference_page("layout").splitlines()
    start = lines.index("| path | what |")
    table = [line for line in lines[start:] if line.startswith("|")]
    block = lines[start: start + len(table)]
    assert block == table, "the Layout table is broken by a line that is not a row"
    folders = [row.split("|")[1].strip() for row in table[2:]]
    assert len(folders) == len(set(folders)), folders


def test_readme_layout_table_has_a_row_for_every_package() -> None:
    """Every package of ``goledger/`` has its row (a cell may name two, as ``i18n/`` and ``locale/``)."""
    lines = _reference_page("layout").splitlines()
    cells = " ".join(line.split("|")[1] for line in lines if line.startswith("| `"))
    packages = sorted(p.parent.name for p in (REPO / "goledger").glob("*/__init__.py"))
    assert len(packages) > 10
    assert [p for p in packages if f"`goledger/{p}/`" not in cells] == []
