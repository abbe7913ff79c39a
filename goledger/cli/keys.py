"""The players' keys and check-in (issue 46): ``goledger keys issue|revoke|list|sheet``,
``goledger check-in``, ``check-ins`` and ``absent-unchecked``; thin shells over
:mod:`goledger.keys`, :mod:`goledger.render.welcome`, :mod:`goledger.commands.checking_in`
and :mod:`goledger.replay.views` (``check_ins``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Unpack

import typer

from goledger.cli.common import (
    DbOption,
    JsonOption,
    LanguageOption,
    PlayerArg,
    Shared,
    default_db,
    echo,
    fail,
    output_language,
    print_json,
    recorded,
    shared_options,
    warn,
)

UrlOption = Annotated[str, typer.Option(
    "--url", help="The address the players' phones reach the desk at (e.g. https://go.example.org).")]
RoundOption = Annotated[int, typer.Option("--round", "-r", help="Round number (1-based).")]

keys_app = typer.Typer(help="The players' personal keys: issue, revoke, list, print the welcome sheet.",
                       no_args_is_help=True)
"""``goledger keys``: its subcommands below."""


@keys_app.command("issue")
def issue(
    player: PlayerArg,
    url: Annotated[str | None, typer.Option("--url", help="Print the player's link at this address.")] = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """Give a player a new key: his old link (if any) stops working at once."""
    from goledger.keys import issue_key
    from goledger.render.welcome import key_link

    pid = _player_id(db, player)
    key = issue_key(db or default_db(), pid)
    link = key_link(url, key) if url else None
    if as_json:
        print_json({"player_id": pid, "key": key, "link": link})
        return
    echo(f"{pid}: new key {key}" + (f" ({link})" if link else "") + "; the old one no longer works")


@keys_app.command("revoke")
def revoke(player: PlayerArg, db: DbOption = None, as_json: JsonOption = False) -> None:  # type: ignore[assignment]
    """Revoke a player's key: his link stops working (reissue to give him a new one)."""
    from goledger.keys import revoke_key

    pid = _player_id(db, player)
    revoke_key(db or default_db(), pid)
    if as_json:
        print_json({"player_id": pid, "revoked": True})
        return
    echo(f"{pid}: key revoked")


@keys_app.command("list")
def list_keys(
    url: Annotated[str | None, typer.Option("--url", help="Show each link at this address.")] = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """The players who hold a key, with the key (and the link with --url); creates nothing."""
    from goledger.render.welcome import check_base_url

    base = check_base_url(url) if url else None
    keys = _checked_keys(db or default_db())
    rows = [{"player_id": pid, "key": key, "link": f"{base}/k/{key}" if base else None}
            for pid, key in keys.items()]
    if as_json:
        print_json({"keys": rows})
        return
    for row in rows:
        echo(f"{row['player_id']}  {row['link'] or row['key']}")
    if not rows:
        echo("no player holds a key yet (goledger keys sheet issues them)")


@keys_app.command("sheet")
def sheet(
    url: UrlOption,
    player: Annotated[list[str] | None, typer.Option(
        "--player", "-p", help="Only this player (repeat for several; default: every player).")] = None,
    layout: Annotated[str, typer.Option("--layout", help="a4 (a page per player) or a6 (a card per player).")]
    = "a4",
    language: LanguageOption = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """The welcome sheet (HTML with print CSS) on standard output: each player's personal link
    as a QR code and as text. Players without a key get one; the others keep theirs."""
    from goledger.render.welcome import LAYOUTS, Layout, key_links, welcome_sheet

    if layout not in LAYOUTS:
        fail(f"--layout {layout!r}: print the welcome sheet as a4 (a page each) or a6 (a card each)", 2)
    chosen: Layout = "a6" if layout == "a6" else "a4"
    if as_json:
        links = key_links(db or default_db(), url, player)
        print_json({"players": [{"player_id": c.player_id, "name": c.name, "link": c.link} for c in links]})
        return
    with output_language(db, language):
        page = welcome_sheet(db or default_db(), url, player, chosen)
    sys.stdout.buffer.write(page)
    sys.stdout.flush()


def _player_id(db: Path | None, ref: str) -> str:
    from goledger.keys import resolve_player

    return str(resolve_player(db or default_db(), ref))


@shared_options()
def check_in(player: PlayerArg, round_: RoundOption, **shared: Unpack[Shared]) -> None:
    """Record that a player will play a round (a CheckedIn event; his absence of the round,
    if any, is cancelled). Players do it themselves from the link on their welcome sheet."""
    from goledger.commands.checking_in import check_in as command

    recorded(command, player, round_, **shared)


def check_ins(
    round_: Annotated[int | None, typer.Option("--round", "-r", help="Round (default: the next to pair).")] = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """Who has checked in for a round, who is absent, who is still waited for."""
    import msgspec

    from goledger.replay.views import check_ins as view
    from goledger.replay.views import state_as_of

    status = view(db or default_db(), round_)
    if as_json:
        print_json(msgspec.to_builtins(status))
        return
    state = state_as_of(db or default_db())
    echo(f"round {status.round} (check-in required: {status.required}"
         + ("; already paired)" if status.paired else ")"))
    for label, ids in (("checked in", status.checked_in), ("absent", status.absent), ("waiting", status.waiting)):
        echo(f"{label}: {len(ids)}")
        for pid in ids:
            echo(f"  {pid}  {state.players[pid].full_name}")


@shared_options()
def absent_unchecked(round_: RoundOption, **shared: Unpack[Shared]) -> None:
    """Mark absent in a round every player who has not checked in for it (one absence each)."""
    from goledger.commands.checking_in import absent_unchecked as command

    recorded(command, round_, **shared)


def warn_unchecked(db: Path | None, round_: int) -> None:
    """Before ``pair-round``: when the tournament requires check-in (``check_in`` ``once`` or
    ``every``) and some players have not checked in for ``round_`` nor been marked absent, say
    so on stderr and how to mark them absent; the pairing goes on (the director knows who is
    in the hall). Silent when check-in is not required, or the round cannot be read."""
    from goledger.errors import GoledgerError
    from goledger.replay.views import check_ins, settings_as_of

    path = db or default_db()
    try:
        settings = settings_as_of(path)
        if settings is None or settings.check_in == "no":
            return
        status = check_ins(path, round_)
    except GoledgerError:
        return  # pair-round itself says what is wrong
    if status.waiting and not status.paired:
        warn(f"{len(status.waiting)} players have not checked in for round {round_} (check_in={status.required}); "
             f"`goledger absent-unchecked --round {round_}` marks them absent")


def _checked_keys(db: Path) -> dict[str, str]:
    """The keys of ``db``'s players, once the ledger itself has opened (a damaged or foreign
    ledger is refused before its keys are read)."""
    from goledger.keys import keys_for
    from goledger.replay.views import state_as_of

    state_as_of(db, None)
    return keys_for(db)
