"""Read commands: standings, log, verify (thin shells over library functions)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from goledger.cli.common import (
    DbOption,
    JsonOption,
    LanguageOption,
    default_db,
    echo,
    fail,
    output_language,
    print_json,
    render_text_table,
)

FormatOption = Annotated[str, typer.Option("--format", "-f", help="table, json, csv or html (a self-contained page).")]


def render_standings(result: Any, fmt: str, title: str = "") -> None:
    """Print standings as a text table, JSON (DESIGN §8 shape), CSV (exact decimals) or a
    self-contained HTML page."""
    from goledger.ledger.values import format_points
    from goledger.outputs import shown

    for note in getattr(result, "notes", ()):  # an event the fold had to ignore: said, never a traceback
        sys.stderr.write(f"note: {shown(note)}\n")
    if fmt == "json":
        print_json(result.to_dict())
        return
    if fmt == "csv":
        from goledger.outputs import csv_text

        sys.stdout.write(csv_text([  # text cells neutralised against spreadsheet formulas; values are numbers
            ["place", "player_id", "surname", "first_name", "rank", "egd_pin", *result.criteria],
            *([row.place, row.player_id, row.surname, row.first_name, row.rank, row.egd_pin,
               *(decimal_text(row.values[c], result.scales[c]) for c in result.criteria)] for row in result.rows),
        ]))
        return
    if fmt == "html":
        from goledger.i18n import gettext
        from goledger.render.audit_report import standings_page

        sys.stdout.buffer.write(standings_page(result, title or gettext("Standings")))
        sys.stdout.flush()
        return
    if fmt != "table":
        fail(f"unknown format {fmt!r}; use table, json, csv or html", 2)
    from goledger.i18n import gettext, pgettext

    headers = [pgettext("short for place", "Pl"), gettext("Id"), gettext("Name"), gettext("Rank"), *result.criteria]
    rows: list[list[str]] = []
    previous = None
    for row in result.rows:
        rows.append([
            str(row.place) if row.place != previous else "", row.player_id,
            f"{row.surname} {row.first_name}".strip(), row.rank,
            *(format_points(row.values[c], result.scales[c]) for c in result.criteria),
        ])
        previous = row.place
    right = {0, 3, *range(4, 4 + len(result.criteria))}
    heading = title or gettext("Standings after round %(round)d · policy %(policy)s · as of event %(seq)d") % {
        "round": result.round, "policy": result.policy, "seq": result.as_of_seq}
    echo(render_text_table(headers, rows, right, heading))


def decimal_text(value: int, scale: int) -> str:
    """Exact decimal text: 7/2 → ``3.5``, 7/4 → ``1.75``."""
    from fractions import Fraction

    frac = Fraction(value, scale)
    if frac.denominator == 1:
        return str(frac.numerator)
    whole = frac.numerator / frac.denominator
    text = f"{whole:.6f}".rstrip("0")
    return text if Fraction(text) == frac else f"{frac.numerator}/{frac.denominator}"


def standings(
    round_: Annotated[int | None, typer.Option("--round", "-r", help="After this round (default: latest).")] = None,
    as_of: Annotated[int | None, typer.Option("--as-of", help="As of this event sequence number.")] = None,
    policy: Annotated[str | None, typer.Option(help="Rule policy (default: the tournament's).")] = None,
    criteria: Annotated[str | None, typer.Option(help="Criteria, comma-separated.")] = None,
    as_published: Annotated[int | None, typer.Option(
        "--as-published", help="The standings of this round exactly as published (verifies the chain).")] = None,
    fmt: FormatOption = "table",
    adjusted: Annotated[bool, typer.Option("--adjusted", help="Actual and adjusted scores with every unplayed "
                                           "round (FIDE categories) instead of the standings.")] = False,
    wall: Annotated[bool, typer.Option("--wall", help="The wall list: tournament name and round in the title, "
                                       "country, club, status and per-round cells (as wall-list).")] = False,
    language: LanguageOption = None,
    teams: Annotated[bool, typer.Option("--teams", help="The team standings (OpenGotha's team criteria).")]
    = False,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """Standings after a round, as of any event, under any policy (--wall: the wall list)."""
    with output_language(db, language, as_json or fmt == "json") as chosen:
        shown = "json" if as_json else fmt
        crit = [c.strip() for c in criteria.split(",") if c.strip()] if criteria else None
        if teams:
            from goledger.cli.teams import show_team_standings

            show_team_standings(db, round_, as_of, fmt, as_json)
        elif as_published is not None:
            show_published(db or default_db(), as_published, (round_, as_of, policy, criteria), shown)
        elif adjusted:
            show_adjusted(db, round_, as_of, policy, shown)
        elif policy is None and criteria is None and show_places(db, round_, as_of, shown):
            pass  # a knockout's, a cup's…: the system's own places are its standings
        elif wall:
            # a shared place lists its players in the alphabet of the language written in
            show_wall_list(db, round_, as_of, policy, crit, fmt, as_json,
                           chosen if shown != "json" and (language or chosen != "en") else None)
        elif shown in ("html", "table"):
            show_standings_page(db, round_, as_of, policy, crit, shown, chosen if language or chosen != "en" else None)
        else:
            show_standings_data(db, round_, as_of, policy, crit, shown)


def show_places(db: Path | None, round_: int | None, as_of: int | None, fmt: str) -> bool:
    """``goledger standings`` of a system placing its players itself (knockout, cup…): its places,
    and ``True``; ``False`` when the system's places are the standings (McMahon, Swiss…)."""
    from goledger.cli.systems import show_system_places as show

    return show(db, round_, as_of, fmt)


def show_adjusted(db: Path | None, round_: int | None, as_of: int | None, policy: str | None, fmt: str) -> None:
    """``goledger standings --adjusted``: actual and adjusted scores with every unplayed round."""
    from goledger.cli.fide import render_adjusted
    from goledger.replay.views import adjusted_scores

    render_adjusted(adjusted_scores(db or default_db(), round_, as_of, policy), fmt == "json")


def show_wall_list(db: Path | None, round_: int | None, as_of: int | None, policy: str | None,
                   criteria: list[str] | None, fmt: str, as_json: bool, alphabet: str | None) -> None:
    """``goledger standings --wall``: the wall list (as ``goledger wall-list``), a shared place's
    players in ``alphabet``'s order when one is given."""
    from goledger.cli.day import emit
    from goledger.render.printouts import wall_sheet
    from goledger.replay.views import wall_list

    shown = wall_list(db or default_db(), round_, as_of, policy, criteria, alphabet)
    emit(wall_sheet(shown), shown.to_dict(), fmt, as_json)


def show_standings_page(db: Path | None, round_: int | None, as_of: int | None, policy: str | None,
                        criteria: list[str] | None, fmt: str, alphabet: str | None) -> None:
    """``goledger standings`` as a text table or an HTML page: the page's title, and its note of
    the withdrawn players under the table; a shared place's players in ``alphabet``'s order
    when one is given."""
    from goledger.replay.views import standings_page

    page = standings_page(db or default_db(), round_, as_of, policy, criteria)
    table = page.standings.in_alphabet(alphabet) if alphabet else page.standings
    if fmt == "html":
        render_standings(table, fmt, page.title())
        return
    render_standings(table, fmt)
    note = page.withdrawn_note()
    if note:
        echo(note)


def show_standings_data(db: Path | None, round_: int | None, as_of: int | None, policy: str | None,
                        criteria: list[str] | None, fmt: str) -> None:
    """``goledger standings`` as data: JSON (``--json``, ``--format json``) or CSV."""
    from goledger.replay.views import standings as standings_view

    render_standings(standings_view(db or default_db(), round_, as_of, policy, criteria), fmt)


def log(
    after: Annotated[int, typer.Option(help="Only events after this sequence number.")] = 0,
    upto: Annotated[int | None, typer.Option(help="Only events up to this sequence number.")] = None,
    event_type: Annotated[str | None, typer.Option("--type", help="Only events of this type.")] = None,
    full: Annotated[bool, typer.Option("--full", help="Print every payload whole (default: cut to one "
                                       "line of 110 characters).")] = False,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """List the events of the ledger (envelope and payload)."""
    import json

    import msgspec

    from goledger import commands
    from goledger.outputs import one_line

    records = commands.log(db or default_db(), after, upto, event_type)
    if as_json:
        print_json([{**msgspec.to_builtins(r), "payload": json.loads(r.payload)} for r in records])
        return
    for r in records:
        payload = json.loads(r.payload)
        payload.pop("type", None)
        summary = one_line(" ".join(f"{k}={v}" for k, v in payload.items() if v not in ("", None, {}, [])))
        if not full and len(summary) > 110:
            summary = summary[:109] + "…"
        echo(f"{r.seq:>6}  {r.recorded_at[:19]}  {r.type:<22} {summary}")


def verify(
    repair_report: Annotated[
        bool, typer.Option("--repair-report", help="Read a damaged or tampered ledger as far as possible and "
                           "say which events can be trusted, up to which event.")
    ] = False,
    published_head: Annotated[
        str | None, typer.Option("--published-head", help="A chain head you published (hash, or its first "
                                 "16+ hex digits): say which event it is, fail if it is not in the ledger.")
    ] = None,
    salvage: Annotated[
        Path | None, typer.Option("--salvage", help="With --repair-report: copy the trusted events, hashes "
                                  "unchanged, into this new ledger file.")
    ] = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """Recompute the hash chain; exit 1 naming the first event that does not match."""
    import msgspec

    from goledger import commands

    if salvage is not None and not repair_report:
        fail("--salvage goes with --repair-report", 2)
    if repair_report:
        found = commands.repair_report(db or default_db(), published_head, salvage)
        if as_json:
            print_json(msgspec.to_builtins(found))
        else:
            echo(render_repair_report(found))
        if not found.ok:
            raise typer.Exit(1)
        return
    report = commands.verify(db or default_db(), published_head)
    if as_json:
        print_json(msgspec.to_builtins(report))
    elif report.ok:
        echo(f"ok: {report.events} events, chain head {report.head}")
        for note in report.notes:
            echo(f"note: {note}")
    if not report.ok:
        fail(report.problem + (f"; events 1..{report.trusted_upto} can be trusted" if report.trusted_upto else ""))


def render_repair_report(report: Any) -> str:
    """The repair report as text: the verdict first, then the details."""
    lines = [f"repair report for {report.path}", f"  verdict: {report.verdict}"]
    if report.ledger:
        claimed = "" if report.events_claimed in (None, report.events_read) else (
            f" (its index claims {report.events_claimed})")
        lines.append(f"  events read: {report.events_read}{claimed}")
        if report.trusted_upto:
            lines.append(f"  trusted: events 1..{report.trusted_upto}, ending at hash {report.trusted_head}")
        else:
            lines.append("  trusted: none")
    if report.damage:
        lines.append(f"  file: {report.damage}")
    if report.protection:
        lines.append(f"  protection: {report.protection}")
    for finding in report.findings:
        lines.append(f"  event {finding.seq}: {finding.kind}: {finding.detail}")
    if report.findings_total > len(report.findings):
        lines.append(f"  … and {report.findings_total - len(report.findings)} more findings (see --json)")
    for note in report.notes:
        lines.append(f"  note: {note}")
    return "\n".join(lines)


def show_published(db: Path, round_: int, others: tuple[Any, ...], fmt: str) -> None:
    """``goledger standings --as-published R`` (refuses other view options: exit 2)."""
    from goledger.audit.published import as_published

    if any(o is not None for o in others):
        fail("--as-published shows the standings as they were published; it takes no --round, --as-of, "
             "--policy or --criteria", 2)
    shown = as_published(db, round_)
    if fmt == "json":
        print_json(shown.to_dict())
        return
    cp = shown.checkpoint
    title = (f"Standings after round {cp.round} as published at event {shown.seq} ({shown.recorded_at[:19]}, "
             f"as of event {cp.event_count}) · policy {shown.standings.policy} · digest {cp.digest[:16]}… verified")
    render_standings(shown.standings, fmt, title)
    if cp.note:
        echo(f"note: {cp.note}")
