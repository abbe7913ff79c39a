"""``goledger ratings import|drop|info|search``: thin shells over the ratings store
(:func:`goledger.formats.ratinglists.import_list`, :func:`goledger.ratings.store.drop_list`,
:func:`goledger.ratings.store.list_info`, :func:`goledger.ratings.store.search`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from goledger.cli.common import JsonOption, echo, print_json, render_text_table

if TYPE_CHECKING:
    from goledger.ratings.model import ListInfo

RatingsOption = Annotated[Path | None, typer.Option(
    "--ratings", help="Ratings store (default: $GOLEDGER_RATINGS, else ratings.db in the user data directory).",
    show_default=False)]
SourceOption = Annotated[str, typer.Option("--source", help="List source (egd).")]

ratings_app = typer.Typer(help="The rating lists on this machine (EGD): import, drop, info, search.",
                          no_args_is_help=True)
"""``goledger ratings``: its subcommands below."""


@ratings_app.command("import")
def import_list(
    file: Annotated[Path, typer.Argument(help="The list file (EGD: allworld_lp.html).")],
    source: SourceOption = "egd",
    ratings: RatingsOption = None,
    replace: Annotated[bool, typer.Option("--replace", help="Put this list in the place of the store's "
                                                              "even when that one is newer.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Import a rating list into the store: a no-op for the same file, an atomic replacement
    of an older list (of a newer one with --replace); every player line is read or counted as
    unparsed, and PINs given by two lines are reported."""
    from goledger.formats.ratinglists import import_list as library
    from goledger.ratings.store import import_json

    outcome = library(file, source, ratings, replace)
    if as_json:
        print_json(import_json(outcome))
        return
    info = outcome.info
    verb = {"imported": "imported", "replaced": "replaced the previous list with",
            "unchanged": "already current, nothing written:"}[outcome.status]
    echo(f"{verb} {info.ref.source} list of {info.ref.date}: {info.players} players, "
         f"{_unparsed_count(info)} (sha256 {info.ref.sha256}) in {outcome.path}")
    for u in info.unparsed:
        echo(f"  line {u.line}: {u.why}: {u.text.strip()}")
    _echo_duplicates(info)


@ratings_app.command("drop")
def drop(
    source: SourceOption = "egd",
    ratings: RatingsOption = None,
    as_json: JsonOption = False,
) -> None:
    """Remove the store's list of a source (a wrong list, or one dated in the future)."""
    from goledger.ratings.store import drop_list, ratings_path, ref_json

    dropped = drop_list(source, ratings)
    if as_json:
        print_json({"dropped": ref_json(dropped.ref), "store": str(ratings_path(ratings))})
        return
    echo(f"dropped the {dropped.ref.source} list of {dropped.ref.date} ({dropped.players} players, "
         f"sha256 {dropped.ref.sha256}) from {ratings_path(ratings)}")


@ratings_app.command("info")
def info(
    source: SourceOption = "egd",
    ratings: RatingsOption = None,
    as_json: JsonOption = False,
) -> None:
    """The list in the store: its date, SHA-256, players and unparsed lines."""
    from goledger.ratings.store import info_json, list_info, ratings_path

    found = list_info(ratings, source)
    if as_json:
        print_json(info_json(found, str(ratings_path(ratings))))
        return
    echo(f"{found.ref.source} list of {found.ref.date} ({found.file}, imported {found.imported_at})\n"
         f"players: {found.players}, unparsed lines: {_unparsed_count(found, words=False)}\n"
         f"sha256: {found.ref.sha256}\nstore: {ratings_path(ratings)}")
    _echo_duplicates(found)


@ratings_app.command("search")
def search(
    query: Annotated[str, typer.Argument(help="A name as the player says it (any order, accents, a typo), "
                                              "or a PIN.")],
    limit: Annotated[int, typer.Option("--limit", help="Most results (1..1000).")] = 10,
    country: Annotated[str | None, typer.Option("--country", help="Only this country (two letters).")] = None,
    source: SourceOption = "egd",
    ratings: RatingsOption = None,
    as_json: JsonOption = False,
) -> None:
    """Find players in the list by name: best first, homonyms together."""
    from goledger.ratings.store import search as library
    from goledger.ratings.store import search_json

    result = library(query, limit, country, ratings, source)
    if as_json:
        print_json(search_json(result))
        return
    if not result.matches:
        echo(f"no player of the {result.ref.source} list of {result.ref.date} matches {query!r}")
        return
    rows = [[m.player.pin, m.player.full_name, m.player.country, m.player.club, m.player.grade,
             "" if m.player.gor is None else str(m.player.gor), m.player.last_tournament, str(m.score)]
            for m in result.matches]
    echo(render_text_table(["PIN", "Name", "Country", "Club", "Grade", "GoR", "Last", "Score"], rows,
                           right={5, 7}, title=f"{result.ref.source} list of {result.ref.date}"))


def _unparsed_count(info: ListInfo, words: bool = True) -> str:
    """``N unparsed lines`` (``N`` alone without ``words``), saying how many were kept when
    not all were."""
    count = max(info.unparsed_lines, len(info.unparsed))
    kept = f" (the first {len(info.unparsed)} kept)" if count > len(info.unparsed) else ""
    return f"{count}{' unparsed lines' if words else ''}{kept}"


def _echo_duplicates(info: ListInfo) -> None:
    for d in info.duplicate_pins:
        lines = [str(n) for n in d.lines]
        echo(f"  duplicate PIN {d.pin} on lines {', '.join(lines[:-1])} and {lines[-1]}: registering by it is refused")
