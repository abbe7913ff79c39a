"""``goledger import opengotha`` and ``goledger export opengotha``: thin shells over
:mod:`goledger.formats.opengotha` (same names, same arguments)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from goledger.cli.common import DbOption, JsonOption, default_db, errors_as_exit, fail, print_json
from goledger.cli.interchange import (
    AllowErrorsOption,
    AsOfOption,
    ForceOption,
    OutputOption,
    QuietOption,
    ReportOption,
    StrictOption,
    run_export,
    run_import,
)


def import_opengotha(
    paths: Annotated[list[Path], typer.Argument(help="OpenGotha XML file; with --into, files and folders.")],
    db: Annotated[
        Path | None, typer.Option("--db", help="The new ledger file (default: <file stem>.db here).")
    ] = None,
    into: Annotated[
        Path | None, typer.Option("--into", help="Migrate: one new ledger per file into this folder.")
    ] = None,
    report: ReportOption = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Replace an existing --report file; with --into, also replace ledgers that exist but "
        "are not up to date with their file.")] = False,
    strict: StrictOption = False,
    allow_errors: AllowErrorsOption = False,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
    catalog: Annotated[Path | None, typer.Option(
        "--catalog", help="With --into: build or refresh this federation archive from the folder.")] = None,
) -> None:
    """Create a new ledger from an OpenGotha XML save (default ledger: <file stem>.db),
    or, with --into, migrate a whole archive (one ledger per file; ledgers already
    imported from the same bytes are skipped)."""
    if catalog is not None and into is None:
        fail("--catalog goes with --into DIR (it catalogues the migrated folder)", 2)
    if into is not None:
        if db is not None or report is not None:
            fail("--db and --report apply to a single file; with --into each ledger and report goes into "
                 "the folder", 2)
        if catalog is not None and into.is_dir():  # refuse an archive or metadata target before migrating
            from goledger.catalog.build import check_targets

            with errors_as_exit():
                check_targets([into], catalog)
        try:
            _migrate(paths, into, strict, allow_errors, as_json, quiet=quiet, force=force)
        finally:
            if catalog is not None:
                from goledger.cli.catalog import refresh_after_import

                refresh_after_import(into, catalog, as_json)
        return
    if len(paths) != 1:
        fail(f"give one file to import (got {len(paths)}); to migrate several use --into DIR", 2)
    from goledger.formats.opengotha import import_opengotha

    run_import(lambda: import_opengotha(paths[0], db, report, strict, allow_errors, force=force),
               as_json=as_json, quiet=quiet)


STATUS_TEXT = {"imported": "imported", "replaced": "replaced", "up-to-date": "up to date",
               "outdated": "OUTDATED", "failed": "FAILED"}


def shorten(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters from the left, keeping its distinctive end.

    >>> shorten("archive/2019/paris-open-2019-final.xml", 20)
    '…open-2019-final.xml'
    >>> shorten("short.xml", 20)
    'short.xml'
    """
    if len(text) <= width:
        return text
    return "…" + text[len(text) - width + 1:] if width > 1 else text[-width:]


def migration_table(items: list[Any], into: Path, width: int = 80) -> list[str]:
    """The migration summary as lines of at most ``width`` characters: file and ledger names
    shortened from the left when needed (their distinctive end kept), counts, and the outcome."""
    headers = ["file", "players", "games", "byes", "warn", "err", "ledger", "result"]
    rows = [[Path(i.source).name, str(i.players), str(i.games), str(i.byes), str(i.warnings), str(i.errors),
             Path(i.db).name if i.status != "failed" else "-", STATUS_TEXT.get(i.status, i.status)] for i in items]
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(headers)]
    room = width - sum(widths[1:6]) - widths[7] - 2 * (len(headers) - 1)
    if widths[0] + widths[6] > room:
        half = max(8, room // 2)
        if widths[0] <= half:
            widths[6] = max(8, room - widths[0])
        elif widths[6] <= half:
            widths[0] = max(8, room - widths[6])
        else:
            widths[0], widths[6] = half, max(8, room - half)
    lines = [f"OpenGotha migration into {into}"]
    for row in [headers, *rows]:
        cells = [shorten(row[0], widths[0]).ljust(widths[0]),
                 *(c.rjust(widths[k + 1]) for k, c in enumerate(row[1:6])),
                 shorten(row[6], widths[6]).ljust(widths[6]), row[7]]
        lines.append("  ".join(cells).rstrip())
    return lines


def migration_summary(items: list[Any], into: Path) -> str:
    """``"3 imported, 1 up to date, 1 failed; reports in ledgers"`` (kinds with a count)."""
    order = ("imported", "replaced", "up-to-date", "outdated", "failed")
    counts = {k: sum(1 for i in items if i.status == k) for k in order}
    parts = [f"{n} {STATUS_TEXT[k].lower()}" for k, n in counts.items() if n or k in ("imported", "failed")]
    return f"{', '.join(parts)}; reports in {into}"


def _migrate(paths: list[Path], into: Path, strict: bool, allow_errors: bool, as_json: bool, *,
             quiet: bool = False, force: bool = False) -> None:
    import shutil

    import msgspec
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from goledger.cli.common import echo
    from goledger.formats.opengotha import migrate_opengotha, opengotha_sources

    console = Console(stderr=True)
    total = len(opengotha_sources(paths))
    with errors_as_exit(), Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console, transient=True, disable=as_json or quiet,
    ) as progress:
        task = progress.add_task("migrating", total=total)

        def step(file: Path, item: Any) -> None:
            if item is None:
                progress.update(task, description=f"importing {file.name}")
            else:
                progress.advance(task)

        items = migrate_opengotha(paths, into, strict, allow_errors, progress=step, force=force)
    unresolved = [i for i in items if i.status in ("failed", "outdated")]
    if as_json:
        print_json({"into": str(into), "items": msgspec.to_builtins(items),
                    "failed": sum(1 for i in items if i.status == "failed"),
                    "outdated": sum(1 for i in items if i.status == "outdated")})
    else:
        if not quiet:
            width = shutil.get_terminal_size((80, 24)).columns
            for line in migration_table(items, into, max(40, width)):
                echo(line)
            for item in unresolved:
                echo(f"{STATUS_TEXT[item.status]} {Path(item.source).name}: {item.message}")
        renamed = [i for i in items if Path(i.db).stem != Path(i.source).stem]
        note = (f" ({len(renamed)} renamed because another file had the same name: "
                f"{', '.join(Path(i.db).name for i in renamed[:5])})" if renamed else "")
        echo(migration_summary(items, into) + note)
    if unresolved:
        raise typer.Exit(1)


def export_opengotha(
    db: DbOption = None,  # type: ignore[assignment]
    output: OutputOption = None,
    upto: AsOfOption = None,
    report: ReportOption = None,
    force: ForceOption = False,
    quiet: QuietOption = False,
    as_json: JsonOption = False,
) -> None:
    """Write the ledger as an OpenGotha XML save (dataVersion 201, UTF-8) that OpenGotha 3.51 loads."""
    from goledger.formats.opengotha import export_opengotha

    run_export(lambda: export_opengotha(db or default_db(), output, upto, report, force), as_json=as_json,
               quiet=quiet)
