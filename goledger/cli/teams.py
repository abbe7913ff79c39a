"""Team commands: thin shells over :mod:`goledger.commands.teams` and :mod:`goledger.teams`
(``team add|assign|remove|list``; ``standings --teams`` and ``explain --team`` come here from
their own commands)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
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

team_app = typer.Typer(help="Teams of a team tournament: add, assign players to boards, remove, list.",
                       no_args_is_help=True)
TeamArg = Annotated[str, typer.Argument(metavar="TEAM", help="Team id (t001), name, short name or number.")]
RoundOpt = Annotated[int | None, typer.Option("--round", "-r", help="This round only.")]
FromRoundOpt = Annotated[int | None, typer.Option("--from-round", help="From this round on.")]


@team_app.command("add")
@shared_options(without=("retry",))
def add(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The team's name.")],
    short: Annotated[str, typer.Option("--short", help="Short name for printouts.")] = "",
    boards: Annotated[int | None, typer.Option("--boards", help="Boards of this team (default: the team size).")]
    = None,
    **shared: Unpack[Shared],
) -> None:
    """Register a team."""
    from goledger.commands.teams import team_add

    recorded(team_add, name, short, boards, **shared)


@team_app.command("assign")
@shared_options(without=("retry",))
def assign(
    team: TeamArg,
    player: Annotated[str, typer.Argument(metavar="PLAYER", help="Player id, EGD PIN or unique name.")],
    board: Annotated[int, typer.Option("--board", "-b", help="Board number (1 = first board).")],
    round_: RoundOpt = None,
    from_round: FromRoundOpt = None,
    **shared: Unpack[Shared],
) -> None:
    """Put a player on a board of a team (every round, one round, or from a round on)."""
    from goledger.commands.teams import team_assign

    recorded(team_assign, team, player, board, round_, from_round, **shared)


@team_app.command("remove")
@shared_options(without=("retry",))
def remove(
    team: TeamArg,
    player: Annotated[str | None, typer.Option("--player", "-p", help="Take this player off the team's boards.")]
    = None,
    round_: RoundOpt = None,
    from_round: FromRoundOpt = None,
    **shared: Unpack[Shared],
) -> None:
    """Delete a team (before its first match), or take a player off its boards."""
    from goledger.commands.teams import team_remove

    recorded(team_remove, team, player, round_, from_round, **shared)


@team_app.command("list")
def list_teams(
    round_: Annotated[int | None, typer.Option("--round", "-r", help="Composition of this round (default 1).")]
    = None,
    as_of: Annotated[int | None, typer.Option("--as-of", help="As of this event sequence number.")] = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """Every team with its number and its players board by board."""
    from goledger.teams.views import team_list

    data = team_list(db or default_db(), round_, as_of)
    if as_json:
        print_json(data)
        return
    rows = [[str(t["number"]), t["id"], t["name"], t["short_name"],
             ", ".join(f"{m['board']}: {m['name']}" for m in t["members"])] for t in data["teams"]]
    echo(render_text_table(["no", "id", "team", "short", f"boards in round {data['round']}"], rows, right={0}))


PrintFormat = Annotated[str, typer.Option("--format", "-f", help="table, csv, html (a printable page) or json.")]
AsOfOpt = Annotated[int | None, typer.Option("--as-of", help="As of this event sequence number.")]


def _emit(data: bytes) -> None:
    import sys

    sys.stdout.buffer.write(data)
    sys.stdout.flush()


def _printout(load: Callable[[], Any], sections: Callable[[Any], Any], fmt: str, as_json: bool,
              db: Path | None = None, language: str | None = None) -> None:
    """A team printout: what ``load`` reads, laid out in ``sections``, rendered as ``fmt``
    (``--json``: JSON) on stdout (a refusal: one line on stderr, exit 1), in ``language``, else
    the tournament's (JSON and CSV: English unless ``--language`` is given)."""
    from goledger.render.teams import render_team

    with output_language(db, language, as_json or fmt in ("json", "csv")):
        data = load()
        _emit(render_team(sections(data), "json" if as_json else fmt))


@team_app.command("pairings")
def pairings(
    round_: Annotated[int, typer.Option("--round", "-r", help="Round number (1-based).")],
    as_of: AsOfOpt = None,
    fmt: PrintFormat = "table",
    language: LanguageOption = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """The team pairing list of a round: match by match, boards in order, tables and results."""
    from goledger.render.teams import pairing_sections
    from goledger.teams.printouts import team_pairings

    _printout(lambda: team_pairings(db or default_db(), round_, as_of), pairing_sections, fmt, as_json, db, language)


@team_app.command("sheets")
def sheets(
    round_: Annotated[int, typer.Option("--round", "-r", help="Round number (1-based).")],
    as_of: AsOfOpt = None,
    fmt: PrintFormat = "html",
    language: LanguageOption = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """A result sheet per match of a round (HTML: one match per printed page)."""
    from goledger.render.teams import result_sheet_sections
    from goledger.teams.printouts import team_pairings

    _printout(lambda: team_pairings(db or default_db(), round_, as_of), result_sheet_sections, fmt, as_json, db,
              language)


@team_app.command("crosstable")
def crosstable(
    round_: Annotated[int | None, typer.Option("--round", "-r", help="After this round (default: latest).")] = None,
    as_of: AsOfOpt = None,
    fmt: PrintFormat = "table",
    language: LanguageOption = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """The team crosstable: every team against every other, board wins and team score."""
    from goledger.render.teams import crosstable_sections
    from goledger.teams.printouts import team_crosstable

    _printout(lambda: team_crosstable(db or default_db(), round_, as_of), crosstable_sections, fmt, as_json, db,
              language)


def show_team_standings(db: Any, round_: int | None, as_of: int | None, fmt: str, as_json: bool) -> None:
    """``goledger standings --teams``: the team standings as a table, JSON or CSV."""
    from goledger.teams.views import team_standings_at

    standings, data = team_standings_at(db or default_db(), round_, as_of)
    if as_json or fmt == "json":
        print_json(data)
        return
    if fmt == "html":
        from goledger.render.teams import render_team, standings_sections
        from goledger.replay.views import state_as_of

        settings = state_as_of(db or default_db(), as_of).settings
        name = settings.name if settings else ""
        _emit(render_team(standings_sections(standings, data, name), "html"))
        return
    crit = [c for c in standings.criteria if c != "NULL"]
    rows = []
    for row in standings.rows:
        shown = [s for c, s in zip(standings.criteria, standings.shown(row), strict=True) if c != "NULL"]
        rows.append([row.place_shown, row.name, *shown, *row.half_matches])
    headers = ["pl", "team", *crit, *[f"r{k}" for k in range(1, standings.round + 1)]]
    if fmt == "csv":
        from goledger.outputs import csv_text

        values = [[row.place, row.name, *[v for c, v in zip(standings.criteria, row.values, strict=True)
                                          if c != "NULL"], *row.half_matches] for row in standings.rows]
        echo(csv_text([headers, *values]).rstrip("\n"))
        return
    echo(render_text_table(headers, rows, right={0, *range(2, 2 + len(crit))},
                           title=f"Team standings after round {standings.round}"))


def show_team_explanation(db: Any, team: str, round_: int | None, as_of: int | None, as_json: bool) -> None:
    """``goledger explain --team NAME``: each team criterion term by term."""
    from goledger.teams.views import team_explanation

    data = team_explanation(db or default_db(), team, round_, as_of)
    if as_json:
        print_json(data)
        return
    from goledger.i18n import gettext

    echo(gettext("%(team)s (team %(number)s), place %(place)s after round %(round)s") % data)
    for c in data["criteria"]:
        echo(gettext("%(criterion)s = %(shown)s (raw %(value)s): %(rule)s") % c)
        for t in c["terms"]:
            where = gettext("round %(round)s: ") % t if t["round"] is not None else ""
            echo(f"  {where}{t['source']} → {t['value']}")


def _print_match(data: dict[str, Any]) -> None:
    rows = [[str(b["board"]), str(b["table"]), f"{b['white']} {b['white_name']}", f"{b['black']} {b['black_name']}",
             str(b["handicap"])] for b in data["boards"]]
    echo(render_text_table(["board", "table", "white", "black", "hcp"], rows, right={0, 1, 4}))
    echo(data["message"])


@shared_options(without=("retry",))
def pair_teams(
    round_: Annotated[int, typer.Argument(metavar="R", help="Round number (1-based).")],
    team_a: Annotated[str, typer.Argument(metavar="TEAM_A", help="One team (id, name, short name or number).")],
    team_b: Annotated[str, typer.Argument(metavar="TEAM_B", help="The other team.")],
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the boards, write nothing.")] = False,
    allow_repeat: Annotated[bool, typer.Option("--allow-repeat", help="Pair two teams that already met.")] = False,
    **shared: Unpack[Shared],
) -> None:
    """Pair one match by hand: board i against board i, OpenGotha's colour, handicap and tables."""
    from goledger.commands.teams import pair_teams as command

    recorded(command, round_, team_a, team_b, dry_run=dry_run, allow_repeat=allow_repeat,
             show=lambda outcome: outcome.to_dict(), text=lambda outcome: _print_match(outcome.to_dict()), **shared)
