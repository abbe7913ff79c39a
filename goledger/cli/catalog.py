"""``goledger catalog build|player|h2h|check``: thin shells over :mod:`goledger.catalog`
(same names, same arguments)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from goledger.cli.common import JsonOption, echo, errors_as_exit, print_json, render_text_table

catalog_app = typer.Typer(help="The federation archive: one queryable database across every ledger.",
                          no_args_is_help=True)

ArchiveOption = Annotated[Path, typer.Option("--archive", "-a", help="The archive database.")]


def build_with_progress(sources: list[Path], output: Path, metadata: Path | None, show: bool) -> Any:
    """:func:`goledger.catalog.build` with a progress bar on stderr (when ``show``)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from goledger import catalog
    from goledger.catalog.build import ledger_files

    total = len(ledger_files(sources, exclude=output))
    with errors_as_exit(), Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=Console(stderr=True), transient=True, disable=not show,
    ) as progress:
        task = progress.add_task("cataloguing", total=total)

        def step(path: Path, done: bool) -> None:
            if done:
                progress.advance(task)
            else:
                progress.update(task, description=f"cataloguing {path.name}")

        return catalog.build(sources, output, metadata, progress=step)


def refresh_after_import(folder: Path, archive: Path, as_json: bool) -> None:
    """``import … --into DIR --catalog ARCHIVE``: catalogue the folder after the migration,
    with a progress bar; the summary line goes to stderr under ``--json`` (stdout holds the
    migration's JSON)."""
    summary = build_with_progress([folder], archive, None, show=not as_json)
    line = summary_line(summary)
    for item in summary.failed:
        line += f"\n  failed: {item['path']}: {item['error']}"
    if as_json:
        print(line, file=sys.stderr)
    else:
        echo(line)


def summary_line(summary: Any) -> str:
    failed = f", {len(summary.failed)} failed" if summary.failed else ""
    return (f"{summary.archive}: {summary.tournaments} tournaments ({summary.refreshed} refreshed, "
            f"{summary.unchanged} unchanged{failed}); Datasette metadata in {summary.metadata}")


@catalog_app.command("build")
def build(
    sources: Annotated[list[Path], typer.Argument(help="Ledger files, or folders holding *.db ledgers.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The archive database to build or refresh.")],
    metadata: Annotated[Path | None, typer.Option(
        "--metadata", help="Datasette metadata file (default: metadata.json beside the archive).")] = None,
    as_json: JsonOption = False,
) -> None:
    """Build or refresh the archive: only tournaments whose chain head changed are rewritten."""
    summary = build_with_progress(sources, output, metadata, show=not as_json and sys.stderr.isatty())
    if as_json:
        data = summary.to_dict()
        print_json({k: data[k] for k in ("tournaments", "refreshed", "unchanged", "failed")}
                   | {"rows_written": data["rows_written"]})
    else:
        echo(summary_line(summary))
        for item in summary.failed:
            echo(f"  failed: {item['path']}: {item['error']}")
    if summary.failed:
        raise typer.Exit(1)


@catalog_app.command("player")
def player(
    who: Annotated[str, typer.Argument(help="A name (or part of one) or an EGD PIN.")],
    archive: ArchiveOption = Path("archive.db"),
    as_json: JsonOption = False,
) -> None:
    """Every tournament, game and place of a player across the archive."""
    from goledger import catalog

    result = catalog.player(archive, who)
    if as_json:
        print_json(result)
        return
    for person in result["people"]:
        echo(f"{person['person']} ({', '.join(person['names'])}; {', '.join(c for c in person['countries'] if c)};"
             f" linked by {', '.join(person['linked_by'])})")
        rows = [[t["begin_date"], t["tournament"], t["rank"], "" if t["rating"] is None else str(t["rating"]),
                 "" if t["place"] is None else str(t["place"]),
                 " ".join(f"{g['result'][0].upper() if g['result'] in ('win', 'loss') else g['result']}"
                          for g in t["games"])] for t in person["tournaments"]]
        echo(render_text_table(["date", "tournament", "rank", "rating", "place", "games"], rows, {3, 4}))


@catalog_app.command("h2h")
def h2h(
    a: Annotated[str, typer.Argument(help="First player: name or EGD PIN.")],
    b: Annotated[str, typer.Argument(help="Second player: name or EGD PIN.")],
    archive: ArchiveOption = Path("archive.db"),
    as_json: JsonOption = False,
) -> None:
    """Every game between two players, and the score."""
    from goledger import catalog

    result = catalog.h2h(archive, a, b)
    if as_json:
        print_json(result)
        return
    rows = [[g["begin_date"], g["tournament"], str(g["round"]), g["white"], g["black"], str(g["handicap"]),
             g["result"]] for g in result["games"]]
    echo(render_text_table(["date", "tournament", "round", "white", "black", "handicap", "result"], rows, {2, 5},
                           title=f"{result['a']} v {result['b']}: {result['a_wins']} wins, "
                                 f"{result['a_losses']} losses, {result['other']} other"))


@catalog_app.command("check")
def check(
    archive: ArchiveOption = Path("archive.db"),
    as_json: JsonOption = False,
) -> None:
    """Rank/rating contradictions, EGD PIN collisions, the same person twice in one event.
    Exits 1 when there is any."""
    from goledger import catalog

    result = catalog.check(archive)
    if as_json:
        print_json(result)
    else:
        for p in result["problems"]:
            echo(f"{p['kind']}: {p['message']}")
        echo(f"{len(result['problems'])} problem(s)" + (
            ": " + ", ".join(f"{k} {n}" for k, n in sorted(result["counts"].items())) if result["counts"] else ""))
    if result["problems"]:
        raise typer.Exit(1)
