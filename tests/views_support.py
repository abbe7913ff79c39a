"""Every view of a ledger, run through the library: what issue 18 point 2 promises works
after every accepted event (standings at every as-of point, explain, diff, history, the
audit report, every export). A view may refuse in one sentence (a
:class:`~goledger.errors.GoledgerError`: "round 2 has no games yet", "an EGD table cannot
hold it"); anything else — a traceback — fails the caller."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from goledger.errors import GoledgerError
from goledger.ledger.store import Ledger


def _run(name: str, call: Callable[[], Any], seen: dict[str, int]) -> Any:
    try:
        result = call()
    except GoledgerError as exc:
        message = exc.message
        assert message and "\n" not in message and "Traceback" not in message, (name, message)
        seen["refused"] = seen.get("refused", 0) + 1
        return None
    seen["ok"] = seen.get("ok", 0) + 1
    return result


def views(db: Path, scratch: Path, *, every_as_of: bool = True, exports: bool = True) -> dict[str, int]:
    """Run every view of ``db`` (writing the audit page into ``scratch``); returns how many
    worked and how many refused in one sentence. Raises on anything else."""
    from goledger.audit.queries import diff, history
    from goledger.formats.egd import export_egd
    from goledger.formats.macmahon import export_macmahon
    from goledger.formats.opengotha import export_opengotha
    from goledger.formats.trf import export_trf
    from goledger.render.audit_report import report
    from goledger.replay import views as replay_views

    seen: dict[str, int] = {}
    with Ledger.open(db) as ledger:
        head = ledger.head().seq
    points = range(1, head + 1) if every_as_of else [head]
    for as_of in points:
        _run(f"standings --as-of {as_of}", lambda a=as_of: replay_views.standings(db, as_of=a), seen)
    shown = _run("standings", lambda: replay_views.standings(db), seen)
    players = [row.player_id for row in shown.rows] if shown is not None else []
    for pid in players[:3]:
        _run(f"explain {pid}", lambda p=pid: replay_views.explain(db, p), seen)
    if players:
        _run("history", lambda: history(db, players[0], max_replays=50), seen)
    _run("diff", lambda: diff(db, 1, max_replays=50), seen)
    _run("report --html", lambda: report(db, scratch / "report.html", force=True), seen)
    if exports:
        _run("export opengotha", lambda: export_opengotha(db), seen)
        _run("export macmahon", lambda: export_macmahon(db), seen)
        _run("export egd", lambda: export_egd(db), seen)
        _run("export trf", lambda: export_trf(db), seen)
    return seen
