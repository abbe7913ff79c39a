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


def register_import(import_app: typer.Typer) -> None:
    @import_app.command("opengotha")
    def import_opengotha_cmd(
        paths: Annotated[list[Path], typer.Argument(help="OpenGotha XML file; with --into, files and folders.")],
        db: Annotated[
            Path | None, typer.Option("--db", help="The new ledger file (default: <file stem>.db here).")
        ] = None,
        into: Annotated[
            Path | None, typer.Option("--into", help="Migrate: one new ledger per file into this folder.")
        ] = None,
        report: ReportOption = None,
        force: ForceOption = False,
        strict: StrictOption = False,
        allow_errors: AllowErrorsOption = False,
        quiet: QuietOption = False,
        as_json: JsonOption = False,
        catalog: Annotated[Path | None, typer.Option(
            "--catalog", help="With --into: build or refresh this federation archive from the folder.")] = None,
    ) -> None:
        """Create a new ledger from an OpenGotha XML save (default ledger: <file stem>.db),
        or, with --into, migrate a whole archive (one ledger per file)."""
        if catalog is not None and into is None:
            fail("--catalog goes with --into DIR (it catalogues the migrated folder)", 2)
        if into is not None:
            if db is not None or report is not None:
                fail("--db and --report apply to a single file; with --into each ledger and report goes into "
                     "the folder", 2)
            try:
                _migrate(paths, into, strict, allow_errors, as_json)
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


def _migrate(paths: list[Path], into: Path, strict: bool, allow_errors: bool, as_json: bool) -> None:
    import msgspec
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from goledger.formats.opengotha import migrate_opengotha, opengotha_sources

    console = Console(stderr=as_json)
    total = len(opengotha_sources(paths))
    with errors_as_exit(), Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console, transient=True, disable=as_json,
    ) as progress:
        task = progress.add_task("migrating", total=total)

        def step(file: Path, item: Any) -> None:
            if item is None:
                progress.update(task, description=f"importing {file.name}")
            else:
                progress.advance(task)

        items = migrate_opengotha(paths, into, strict, allow_errors, progress=step)
    failed = [i for i in items if i.status == "failed"]
    if as_json:
        print_json({"into": str(into), "items": msgspec.to_builtins(items), "failed": len(failed)})
    else:
        table = Table(title=f"OpenGotha migration into {into}")
        for name, justify in (("file", "left"), ("players", "right"), ("games", "right"), ("byes", "right"),
                              ("warnings", "right"), ("errors", "right"), ("result", "left")):
            table.add_column(name, justify=justify)  # type: ignore[arg-type]
        for item in items:
            result = Path(item.db).name if item.status == "imported" else f"FAILED: {item.message}"
            table.add_row(Path(item.source).name, str(item.players), str(item.games), str(item.byes),
                          str(item.warnings), str(item.errors), result)
        console.print(table)
        renamed = [i for i in items if Path(i.db).stem != Path(i.source).stem]
        note = (f"; {len(renamed)} renamed because another file had the same name "
                f"({', '.join(Path(i.db).name for i in renamed[:5])})" if renamed else "")
        console.print(f"{len(items) - len(failed)} imported, {len(failed)} failed{note}; reports in {into}")
    if failed:
        raise typer.Exit(1)


def register_export(export_app: typer.Typer) -> None:
    @export_app.command("opengotha")
    def export_opengotha_cmd(
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


def register_commands(app: typer.Typer) -> None:
    """No top-level commands: this module only adds ``import``/``export`` subcommands."""
