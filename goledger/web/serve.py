"""Running the desk with uvicorn (``goledger serve``)."""

from __future__ import annotations

import multiprocessing
import multiprocessing.process
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from goledger.errors import CommandRejected
from goledger.web.guard import GuardLimits
from goledger.web.security import new_token

if TYPE_CHECKING:
    from goledger.web.connections import ConnectionLimits

__all__ = ["MAX_WORKERS", "serve", "serve_public"]

MAX_WORKERS = 64
"""Processes serving the players' port at most (``--workers``)."""


def read_token_file(path: str | os.PathLike[str]) -> str:
    """The director token in file ``path``: its first line, without surrounding blanks.

    A token on the command line can be read by every user of the computer (``ps``,
    ``/proc/PID/cmdline``); a file only readable by the director, or ``$GOLEDGER_TOKEN``, cannot.
    """
    source = Path(path)
    try:
        if source.stat().st_size > 4096:
            raise CommandRejected(f"the token file {source} is larger than 4 KB; it should hold one line")
        lines = source.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandRejected(f"cannot read the token file {source}: {getattr(exc, 'strerror', None) or exc}") from None
    token = lines[0].strip() if lines else ""
    if not token:
        raise CommandRejected(f"the token file {source} is empty")
    return token


def serve(db: str | os.PathLike[str], host: str = "127.0.0.1", port: int = 8000, token: str | None = None,
          *, say: Callable[[str], None] = print, token_file: str | os.PathLike[str] | None = None,
          work_timeout: float = 120.0, header_timeout: float = 10.0, max_connections: int | None = None,
          guard: GuardLimits | None = None, public_port: int | None = None, new: bool = False,
          workers: int = 1) -> None:
    """Serve the desk over ledger ``db`` on ``host:port`` until interrupted.

    The director token is read from ``token_file``, else is ``token``, else
    ``$GOLEDGER_TOKEN``, else a new random one (printed, ``say``, with the address at
    start-up; a token given is never printed). A ledger that does not exist yet is served only
    when asked with ``new`` (``serve --new``), to be created from the desk (a new tournament or
    an import): a mistyped path is refused in one sentence instead of an empty desk (issue 40,
    item 6), and ``new`` on a file that exists is refused too. One that exists is read once
    first, so that a damaged, foreign or newer file is refused with its sentence.

    Connections are guarded by :mod:`goledger.web.connections` (headers within
    ``header_timeout`` seconds, at most ``max_connections``, by default below the descriptor
    limit), requests by :mod:`goledger.web.guard` (``guard``), writes run in worker processes stopped
    after ``work_timeout`` seconds (:mod:`goledger.web.isolate`).

    With ``public_port``, the players' view (public pages, their live stream, the public JSON
    reads) is also served on that port by a process of its own (:func:`serve_public`), so a hall
    of phones loading it never queues the director's pages and writes behind their requests:
    give the players that address, and keep ``port`` for the desks. ``workers`` such processes
    share that port (at most one per core but one, which the desk keeps for the director's
    writes): the kernel spreads the connections over them (``SO_REUSEPORT``), each has its own
    head watcher and kept pages.
    """
    from goledger.web.app import create_app
    from goledger.web.connections import ConnectionLimits, default_limits
    from goledger.web.connections import serve as serve_behind_the_door

    if not 0 < port < 65536:
        raise CommandRejected(f"port {port} is outside 1..65535")
    if public_port is not None and not (0 < public_port < 65536 and public_port != port):
        raise CommandRejected(f"the players' port {public_port} must be in 1..65535 and differ from the desk's {port}")
    if not 1 <= workers <= MAX_WORKERS:
        raise CommandRejected(f"--workers {workers} is outside 1..{MAX_WORKERS}")
    if workers > 1 and public_port is None:
        raise CommandRejected("--workers needs --public-port: they are the processes serving the players' port")
    if token_file is not None and token:
        raise CommandRejected("give the director token once: --token-file or --token, not both")
    given = token_file is not None or bool(token or os.environ.get("GOLEDGER_TOKEN"))
    token = (read_token_file(token_file) if token_file is not None else None) or token or \
        os.environ.get("GOLEDGER_TOKEN") or new_token()
    if len(token) < 8:
        raise CommandRejected("the director token must have at least 8 characters")
    target = Path(db)
    if not target.parent.exists():
        raise CommandRejected(f"cannot serve {target}: folder {target.parent} does not exist")
    if new and target.exists():
        raise CommandRejected(f"{target} already exists; serve it without --new")
    if not new and not target.exists():
        raise CommandRejected(f"{target} does not exist; check the path, or give serve --new to start a desk that "
                              "creates this tournament")
    if target.exists():
        from goledger.replay.views import state_as_of

        state_as_of(target)  # a damaged, foreign or newer ledger is refused before the desk starts
    limits = default_limits(header_timeout)
    if max_connections is not None:  # a lower cap (tests); never one past the descriptor limit
        limits = ConnectionLimits(min(max_connections, limits.max_connections), header_timeout)
    players = _start_public(target, host, public_port, limits, guard, workers) if public_port is not None else []
    app = create_app(target, token, work_timeout=work_timeout, limits=guard)
    from goledger.web.isolate import warm

    warm()
    shown = f"[{host}]" if ":" in host else host
    told = "the one given" if given else token
    say(f"goledger desk for {target} at http://{shown}:{port}/  (director token: {told})")
    if host not in ("127.0.0.1", "localhost", "::1"):
        say(f"note: listening on {host}: other computers on the network can reach the desk")
    if players:
        own = "a process of its own" if workers == 1 else f"{workers} processes of their own"
        say(f"players' view at http://{shown}:{public_port}/ ({own})")
    try:
        serve_behind_the_door(app, host, port, limits, log_level="warning", timeout_graceful_shutdown=3,
                              timeout_keep_alive=5, lifespan="off")
    finally:
        for process in players:
            process.terminate()
        for process in players:
            process.join(5)


def serve_public(db: str | os.PathLike[str], host: str, port: int, limits: ConnectionLimits,
                 guard: GuardLimits | None = None, sock: socket.socket | None = None) -> None:
    """Serve the players' view of ledger ``db`` alone on ``host:port`` (on ``sock`` when it is
    bound already) until stopped (:func:`goledger.web.app.create_app` with ``public_only``): no
    director token is accepted there, and nothing there writes. A simple request for a kept page
    is answered before uvicorn (:mod:`goledger.web.fast_path`). Ends with its parent (the desk)
    on Linux."""
    from goledger.web.app import create_app
    from goledger.web.cached_front import CachedFront
    from goledger.web.connections import Door
    from goledger.web.connections import serve as serve_behind_the_door
    from goledger.web.fast_asgi import Asker
    from goledger.web.fast_path import FastProtocol

    _end_with_parent()
    app = create_app(Path(db), new_token(), limits=guard, public_only=True)
    cached = app.app
    assert isinstance(cached, CachedFront)
    ask = Asker(app, cached)

    def front(uvicorn_protocol: Callable[[], Any], door: Door) -> Callable[[], FastProtocol]:
        return lambda: FastProtocol(cached.wire, uvicorn_protocol, door, limits.header_timeout, ask)

    serve_behind_the_door(app, host, port, limits, fast=True, front=front, sock=sock, log_level="warning",
                          timeout_graceful_shutdown=1, timeout_keep_alive=5, lifespan="off")


def _start_public(db: Path, host: str, port: int, limits: ConnectionLimits, guard: GuardLimits | None,
                  workers: int = 1) -> list[multiprocessing.process.BaseProcess]:
    """The players' view's ``workers`` processes, started before the desk has threads (forked),
    each on a socket bound here (so a port in use is refused in a sentence, not in a child):
    with more than one, each socket is bound with ``SO_REUSEPORT`` and the kernel spreads the
    connections over them."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    shared = workers > 1 and hasattr(socket, "SO_REUSEPORT")
    sockets: list[socket.socket] = []
    try:
        for _ in range(workers if shared else 1):
            sock = socket.socket(family)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if shared:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind((host, port))
            sock.set_inheritable(True)
    except OSError as exc:
        for sock in sockets:
            sock.close()
        raise CommandRejected(f"cannot serve the players' view on port {port}: {exc.strerror}") from None
    context = multiprocessing.get_context("fork")
    processes: list[multiprocessing.process.BaseProcess] = []
    for index in range(workers):
        sock = sockets[index % len(sockets)]
        process = context.Process(target=serve_public, args=(db, host, port, limits, guard, sock),
                                  name=f"goledger-players-{index + 1}", daemon=True)
        process.start()
        processes.append(process)
    for sock in sockets:
        sock.close()  # the children have theirs
    return processes


def _end_with_parent() -> None:
    """Ask Linux to stop this process when its parent dies (``PR_SET_PDEATHSIG``); elsewhere nothing."""
    import ctypes
    import signal
    import sys

    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG
        except OSError:
            pass
