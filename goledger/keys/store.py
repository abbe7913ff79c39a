"""The players' keys (issue 46, point 1): one unguessable personal key per player, kept
beside the ledger, never in it.

A key is 18 random bytes from :mod:`secrets` (144 bits, above the 128 the issue asks),
written as 24 URL-safe base64 characters (``A–Z a–z 0–9 - _``, no padding), so it fits a
short link ``/k/<key>`` and a small QR code.

**Where.** In a sidecar SQLite file beside the ledger, ``<ledger>.keys`` (``cup.db`` →
``cup.db.keys``), created with permissions 0600. Not in the ledger's events: the log is
hash-chained and append-only, so a secret written there could never be revoked or removed,
and every export, pseudonymised copy, archive, audit report and copy of the file would carry
it. Not in a side table of the ledger file either: the store reports any table it did not
create as a foreign object (:func:`goledger.ledger.store.foreign_objects`), and a ledger is
copied, mailed and archived whole. The sidecar travels only when someone copies it on
purpose; a ledger copied without it simply has no keys (every key is then unknown).

**What is stored.** The key itself (the welcome sheet, the table cards and the result slips
print it again every round, so it must be readable; a reprint is not a reissue) and its
SHA-256, by which a presented key is looked up: the lookup compares digests through SQLite's
index, never the secret character by character, so its time says nothing about how much of a
guess was right. Revoking deletes the row: nothing remembers a revoked key, so it is unknown.

**One answer for every wrong key.** :func:`player_for_key` answers ``None`` for a revoked,
unknown or malformed key (wrong length or alphabet, any length up to the caller's bound) and
takes the same path for all: a malformed key is replaced by a well-formed key nobody holds
and looked up like any other.

**Whose key.** A key names one player id; whether that player is still in the tournament
(not unregistered) is the caller's question, asked of the state it already holds. Issuing
checks that the player is registered now.

API (stable; colleagues build on it): :func:`issue_key`, :func:`revoke_key`,
:func:`player_for_key`, :func:`keys_for`, :func:`ensure_keys`, :func:`keys_path`,
:func:`well_formed`, :func:`player_actor` (the envelope's actor of what a key records) and
:func:`resolve_player` (a player reference as the command line takes it → his id); and
:func:`kept_figures`/:func:`keep_figures`, the QR codes drawn of the printed links, kept beside
their keys and dropped with them (a congress's slips are drawn once, not every round).
"""

from __future__ import annotations

import base64
import contextlib
import datetime
import hashlib
import os
import re
import secrets
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Final

from goledger.errors import CommandRejected, GoledgerError
from goledger.i18n.messages import say
from goledger.ledger.store import Ledger
from goledger.replay.fold.players import find_player
from goledger.replay.loading.load import load_state

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

__all__ = [
    "KEYS_SUFFIX",
    "KEY_BYTES",
    "KEY_LENGTH",
    "ensure_keys",
    "issue_key",
    "keep_figures",
    "kept_figures",
    "keys_for",
    "keys_path",
    "player_actor",
    "player_for_key",
    "resolve_player",
    "revoke_key",
    "well_formed",
]

KEY_BYTES: Final = 18
"""Random bytes in a key: 144 bits."""

KEY_LENGTH: Final = 24
"""Characters of a key: 18 bytes in URL-safe base64, no padding."""

KEYS_SUFFIX: Final = ".keys"
"""The sidecar's name is the ledger's name and this suffix."""

_SHAPE: Final = re.compile(r"[A-Za-z0-9_-]{24}")
_NOBODY: Final = "A" * KEY_LENGTH
"""The key looked up in place of a malformed one (its digest is never stored: it is not a
key :func:`_new_key` can make with any real chance, and :func:`issue_key` never stores it)."""

_SCHEMA: Final = (
    "CREATE TABLE IF NOT EXISTS player_keys ("
    " player_id TEXT PRIMARY KEY,"
    " key TEXT NOT NULL,"
    " digest BLOB NOT NULL UNIQUE,"
    " issued_at TEXT NOT NULL)"
)
_FIGURES: Final = "CREATE TABLE IF NOT EXISTS figures (link TEXT PRIMARY KEY, key TEXT NOT NULL, figure TEXT NOT NULL)"
"""What a printed link was drawn as (its QR code, :func:`kept_figures`): as secret as the key it
holds, so kept here and dropped with the key."""


def player_actor(player_id: str) -> str:
    """The envelope's actor of what a player's key records for him: ``player p0001``."""
    return f"player {player_id}"


def keys_path(ledger_path: str | os.PathLike[str]) -> Path:
    """The sidecar file of a ledger: ``<ledger>.keys``."""
    path = Path(ledger_path)
    return path.with_name(path.name + KEYS_SUFFIX)


def well_formed(key: str) -> bool:
    """Whether ``key`` has a key's shape (24 URL-safe base64 characters)."""
    return _SHAPE.fullmatch(key) is not None


def _digest(key: str) -> bytes:
    return hashlib.sha256(key.encode("ascii")).digest()


def _new_key() -> str:
    while True:
        key = base64.urlsafe_b64encode(secrets.token_bytes(KEY_BYTES)).decode("ascii")
        if key != _NOBODY:
            return key


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _create_file(path: Path) -> None:
    """Create the sidecar exclusively with permissions 0600 (never through a planted link)."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600))
    except FileExistsError:
        pass
    except OSError as exc:
        raise GoledgerError(say("cannot create the players' keys file %(path)s: %(why)s", path=str(path),
                                why=str(exc.strerror))) from None


@contextlib.contextmanager
def _open(ledger_path: str | os.PathLike[str], *, write: bool) -> Iterator[sqlite3.Connection | None]:
    """A connection to the sidecar (``None`` when reading and there is none yet)."""
    path = keys_path(ledger_path)
    if not write and not path.is_file():
        yield None
        return
    if write:
        _create_file(path)
    try:
        conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    except sqlite3.Error as exc:
        raise GoledgerError(say("cannot open the players' keys file %(path)s: %(why)s", path=str(path),
                                why=str(exc))) from None
    try:
        conn.execute("PRAGMA busy_timeout = 30000")
        if write:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute(_SCHEMA)
            conn.execute(_FIGURES)
        yield conn
    except sqlite3.DatabaseError as exc:
        raise GoledgerError(say("the players' keys file %(path)s cannot be used: %(why)s", path=str(path),
                                why=str(exc))) from None
    finally:
        conn.close()


def _registered(ledger_path: str | os.PathLike[str]) -> list[str]:
    """The ids of the players registered now."""
    with Ledger.open(ledger_path) as ledger:
        state = load_state(ledger)
    return list(state.players)


def resolve_player(ledger_path: str | os.PathLike[str], reference: str) -> str:
    """The id of the registered player ``reference`` names (an id, an EGD PIN or a unique
    name), or a refusal in one sentence: what the command line's ``keys`` commands take."""
    with Ledger.open(ledger_path) as ledger:
        state = load_state(ledger)
    return find_player(state, reference).id


def _check_player(ledger_path: str | os.PathLike[str], player_id: str) -> None:
    if player_id not in _registered(ledger_path):
        raise CommandRejected(say("no registered player has the id %(player)r", player=player_id))


def issue_key(ledger_path: str | os.PathLike[str], player_id: str) -> str:
    """A new key for a registered player; his previous key, if any, no longer works."""
    _check_player(ledger_path, player_id)
    key = _new_key()
    with _open(ledger_path, write=True) as conn:
        assert conn is not None
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("DELETE FROM figures WHERE key IN (SELECT key FROM player_keys WHERE player_id = ?)", (player_id,))
        conn.execute("INSERT OR REPLACE INTO player_keys (player_id, key, digest, issued_at) VALUES (?, ?, ?, ?)",
                     (player_id, key, _digest(key), _now()))
        conn.execute("COMMIT")
    return key


def revoke_key(ledger_path: str | os.PathLike[str], player_id: str) -> None:
    """Revoke a player's key: from now on it is an unknown key. A player without a key is
    left as he is; an id that is not a registered player is refused (a typo would otherwise
    revoke nothing silently). An unregistered player's key may be revoked too."""
    held = player_id in keys_for(ledger_path)
    if not held:
        _check_player(ledger_path, player_id)
        return
    with _open(ledger_path, write=True) as conn:
        assert conn is not None
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("DELETE FROM figures WHERE key IN (SELECT key FROM player_keys WHERE player_id = ?)", (player_id,))
        conn.execute("DELETE FROM player_keys WHERE player_id = ?", (player_id,))
        conn.execute("COMMIT")


def player_for_key(ledger_path: str | os.PathLike[str], key: str) -> str | None:
    """The player a key acts for, or ``None`` for a revoked, unknown or malformed key (one
    path for all three: a malformed key is looked up as a key nobody holds). The caller bounds
    the length of what it reads before it gets here."""
    presented = key if isinstance(key, str) and well_formed(key) else _NOBODY
    digest = _digest(presented)
    with _open(ledger_path, write=False) as conn:
        if conn is None:
            return None
        try:
            row = conn.execute("SELECT player_id FROM player_keys WHERE digest = ?", (digest,)).fetchone()
        except sqlite3.OperationalError:  # a file without the table yet
            return None
    return None if row is None or presented == _NOBODY else str(row[0])


def keys_for(ledger_path: str | os.PathLike[str]) -> dict[str, str]:
    """Every key issued and not revoked, player id → key (nothing is created)."""
    with _open(ledger_path, write=False) as conn:
        if conn is None:
            return {}
        try:
            rows = conn.execute("SELECT player_id, key FROM player_keys ORDER BY player_id").fetchall()
        except sqlite3.OperationalError:
            return {}
    return {str(pid): str(key) for pid, key in rows}


def ensure_keys(ledger_path: str | os.PathLike[str], player_ids: Iterable[str] | None = None) -> dict[str, str]:
    """A key for each of ``player_ids`` (default: every registered player), issuing one to
    each that has none and keeping those that exist; answers player id → key for them. An id
    that is not a registered player is refused, and nothing is issued then."""
    registered = _registered(ledger_path)
    wanted = list(registered) if player_ids is None else list(dict.fromkeys(player_ids))
    unknown = [pid for pid in wanted if pid not in registered]
    if unknown:
        raise CommandRejected(say("no registered player has the id %(player)r", player=unknown[0]))
    with _open(ledger_path, write=True) as conn:
        assert conn is not None
        conn.execute("BEGIN IMMEDIATE")
        held = {str(pid): str(key) for pid, key in conn.execute("SELECT player_id, key FROM player_keys")}
        fresh = {pid: _new_key() for pid in wanted if pid not in held}
        now = _now()
        conn.executemany("INSERT INTO player_keys (player_id, key, digest, issued_at) VALUES (?, ?, ?, ?)",
                         [(pid, key, _digest(key), now) for pid, key in fresh.items()])
        conn.execute("COMMIT")
    held.update(fresh)
    return {pid: held[pid] for pid in wanted}


def kept_figures(ledger_path: str | os.PathLike[str], links: dict[str, str]) -> dict[str, str]:
    """The figures kept for ``links`` (link → the key it holds), link → figure: what
    :func:`keep_figures` stored for a link whose key is still held (a QR code costs some 15 ms
    to draw, 11 s for a congress's slips)."""
    if not links:
        return {}
    with _open(ledger_path, write=False) as conn:
        if conn is None:
            return {}
        try:
            rows = conn.execute("SELECT f.link, f.figure FROM figures f JOIN player_keys k ON k.key = f.key").fetchall()
        except sqlite3.OperationalError:  # a file without the table yet
            return {}
    return {str(link): str(figure) for link, figure in rows if link in links}


def keep_figures(ledger_path: str | os.PathLike[str], figures: dict[str, tuple[str, str]]) -> None:
    """Keep ``figures`` (link → (the key it holds, figure)) for links whose key is still held."""
    if not figures:
        return
    with _open(ledger_path, write=True) as conn:
        assert conn is not None
        conn.execute("BEGIN IMMEDIATE")
        held = {str(k) for (k,) in conn.execute("SELECT key FROM player_keys")}
        conn.executemany("INSERT OR REPLACE INTO figures (link, key, figure) VALUES (?, ?, ?)",
                         [(link, key, figure) for link, (key, figure) in figures.items() if key in held])
        conn.execute("COMMIT")
