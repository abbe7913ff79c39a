"""``goledger register --from-file``: the shell over :func:`goledger.commands.bulk.register_from_file`."""

from __future__ import annotations

from pathlib import Path

from goledger.cli.common import echo, print_json


def register_from_file(file: Path, db: Path, ratings: Path | None, force: bool, preliminary: bool, actor: str,
                       reason: str, expected_head: int | None, as_json: bool) -> None:
    """Register every row or none; print each row's decision (stdout), the refusal on stderr."""
    from goledger.commands.bulk import BulkRejected, BulkReport
    from goledger.commands.bulk import register_from_file as library

    def show(report: BulkReport) -> None:
        if as_json:
            print_json(report.to_dict())
            return
        for row in report.rows:
            echo(f"line {row.line}: {row.decision}: {row.message}")

    try:
        report = library(db, file, ratings, force, preliminary, actor=actor, reason=reason,
                         expected_head=expected_head)
    except BulkRejected as exc:  # its report, then the one handler's sentence
        show(exc.report)
        raise
    show(report)
    if not as_json:
        echo(f"registered {sum(r.decision == 'registered' for r in report.rows)} players "
             f"(events {report.seqs[0]}–{report.seqs[-1]})" if report.seqs else "registered nobody")
