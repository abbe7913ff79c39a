"""The seal on the caches goledger keeps inside a ledger file (issue 27, point 9).

A cache entry stored with the SHA-256 of its bytes proves nothing against someone who can
write the file: he changes the bytes and writes their new digest beside them. So an entry is
also **sealed**: an HMAC-SHA256, under a key that lives outside the ledger, of what the entry
claims (the code, the head) and of its bytes. A reader serves an entry only when the seal
is its own; anything else is recomputed from the log (and compared, see
:mod:`goledger.replay.views.standings_cache`).

The key is 32 random bytes in ``$XDG_DATA_HOME/goledger/cache-seal.key`` (default
``~/.local/share/goledger/``), created on first use with permissions 0600, exclusively and
under a temporary name (two processes starting at once agree on one key). Where it can be
neither read nor made, nothing is sealed, so nothing is served from a cache: the views are
computed, which is always correct.

The seal binds a cache to the account that wrote it: a desk and a command line run by two
accounts, or a ledger copied to another computer, recompute what the other cached (and
replace it when it agrees with the log).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from functools import cache
from pathlib import Path
from typing import Final

__all__ = ["KEY_BYTES", "key_path", "seal", "sealed"]

KEY_BYTES: Final = 32


def key_path() -> Path:
    """Where the key lives (``$XDG_DATA_HOME/goledger/cache-seal.key``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "goledger" / "cache-seal.key"


@cache
def _key() -> bytes | None:
    path = key_path()
    data: bytes | None
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        data = _create(path)
    except OSError:
        return None
    return data if data is not None and len(data) == KEY_BYTES else None


def _create(path: Path) -> bytes | None:
    """Make the key exclusively: written under a temporary name, then linked into place (a
    second process racing this one reads the key the first one linked)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(secrets.token_bytes(KEY_BYTES))
                fh.flush()
                os.fsync(fh.fileno())
            try:
                os.link(temp, path)
            except FileExistsError:
                pass
        finally:
            temp.unlink(missing_ok=True)
        return path.read_bytes()
    except OSError:
        return None


def seal(data: bytes, claim: str) -> str | None:
    """The seal of ``data`` stored under ``claim`` (the entry's code fingerprint and head),
    or ``None`` when there is no key (then nothing may be served from a cache)."""
    key = _key()
    if key is None:
        return None
    return hmac.new(key, claim.encode("utf-8") + b"\0" + data, hashlib.sha256).hexdigest()


def sealed(data: bytes, claim: str, mark: str) -> bool:
    """Whether ``mark`` is this account's seal of ``data`` under ``claim``."""
    expected = seal(data, claim)
    return expected is not None and hmac.compare_digest(expected, mark)
