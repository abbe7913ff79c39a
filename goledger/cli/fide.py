"""FIDE-style commands: ``crosstable``, ``schedule --berger``, and the rendering of
``standings --adjusted`` (thin shells over :mod:`goledger.replay.scoring.fide_views`,
:mod:`goledger.replay.scoring.crosstable` and :mod:`goledger.commands.schedule`)."""

from __future__ import annotations

from typing import Annotated, Any, Unpack

import typer

from goledger.cli.common import (
    DbOption,
    JsonOption,
    LanguageOption,
    Shared,
    default_db,
    echo,
    output_language,
    print_json,
    recorded,
    render_text_table,
    shared_options,
)


def render_adjusted(result: Any, as_json: bool) -> None:
    """Print the adjusted-score view: one line per player, then one per unplayed round."""
    if as_json:
        print_json(result.to_dict())
        return
    from goledger.ledger.values import format_points

    def pts(value2: int) -> str:
        return format_points(value2, 2) or "0"

    headers = ["Id", "Name", "Actual", "Adjusted", "Round", "Unplayed", "FIDE", "VUR", "Points", "Seen", "Own BH",
               "Own BH source"]
    rows: list[list[str]] = []
    for row in result.rows:
        name = f"{row.surname} {row.first_name}".strip()
        first = [row.player_id, name, pts(row.actual2), pts(row.adjusted2)]
        if not row.unplayed:
            rows.append([*first, "", "", "", "", "", "", "", ""])
        for i, u in enumerate(row.unplayed):
            lead = first if i == 0 else ["", "", "", ""]
            rows.append([*lead, str(u.round), u.category, f"16.2.{u.fide_category}" if u.fide_category else "",
                         "yes" if u.vur else "", pts(u.points2), pts(u.seen_by_opponents2), pts(u.own_buchholz2),
                         u.own_source])
    title = (f"Adjusted scores after round {result.round} · policy {result.policy} · opponents see "
             f"{result.adjustment} · own unplayed rounds: {result.own_unplayed}"
             + (" · round-robin rules (article 16 off)" if result.round_robin else ""))
    echo(render_text_table(headers, rows, {2, 3, 4, 8, 9, 10}, title))


def render_crosstable(result: Any, as_json: bool) -> None:
    if as_json:
        print_json(result.to_dict())
        return
    from goledger.ledger.values import format_points

    headers = ["No", "Pl", "Name", *result.columns, "Pts", *result.criteria]
    rows = []
    previous = None
    for row in result.rows:
        rows.append([
            str(row.number), str(row.place) if row.place != previous else "", row.name, *row.cells,
            format_points(row.score2, 2) or "0",
            *(format_points(row.values[c], result.scales[c]) or "0" for c in result.criteria),
        ])
        previous = row.place
    width = 3 + len(result.columns)
    right = {0, 1, *range(3, width + 1 + len(result.criteria))}
    layout = "round robin" if result.round_robin else "by round"
    echo(render_text_table(headers, rows, right, f"Crosstable after round {result.round} ({layout}) · policy "
                           f"{result.policy} · as of event {result.as_of_seq}"))
    from goledger.replay.scoring.crosstable import LEGEND

    echo("\nLegend: " + "; ".join(f"{code} {meaning}" for code, meaning in LEGEND))


def crosstable(
    round_: Annotated[int | None, typer.Option("--round", "-r", help="After this round (default: latest).")] = None,
    as_of: Annotated[int | None, typer.Option("--as-of", help="As of this event sequence number.")] = None,
    policy: Annotated[str | None, typer.Option(help="Rule policy (default: the tournament's).")] = None,
    criteria: Annotated[str | None, typer.Option(help="Criteria, comma-separated.")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="table, csv, html (print CSS) or json.")] = "table",
    language: LanguageOption = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """Crosstable: a square table for a round robin, opponents and results by round otherwise."""
    data = as_json or fmt == "json"
    with output_language(db, language, data) as chosen:
        from goledger.replay.views import crosstable as crosstable_view

        crit = [c.strip() for c in criteria.split(",") if c.strip()] if criteria else None
        alphabet = chosen if not data and (language or chosen != "en") else None  # a page in a language
        result = crosstable_view(db or default_db(), round_, as_of, policy, crit, alphabet)
        if fmt in ("csv", "html"):
            from goledger.cli.day import emit
            from goledger.render.printouts import crosstable_sheet

            emit(crosstable_sheet(result, result.tournament), result.to_dict(), fmt, False)
            return
        render_crosstable(result, as_json or fmt == "json")


@shared_options()
def schedule(
    berger: Annotated[bool, typer.Option("--berger", help="FIDE Berger tables (round robin).")] = False,
    double: Annotated[bool, typer.Option("--double", help="Double round robin (colours reversed).")] = False,
    first_round: Annotated[int, typer.Option("--first-round", help="Round of the first Berger round.")] = 1,
    rest_points: Annotated[str, typer.Option("--rest-points", help="Points of a rest in an odd field.")] = "0",
    **shared: Unpack[Shared],
) -> None:
    """Record a fixed round-robin schedule (Berger tables) for the registered players."""
    from goledger.commands.schedule import schedule as schedule_command

    recorded(schedule_command, berger, double, first_round, rest_points, **shared)
