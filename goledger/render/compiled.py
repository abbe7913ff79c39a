"""Templates compiled once and kept, sealed, in the user's own cache folder (issue 41, items 1
and 2).

A kept template is code that goledger runs, so nothing is read from the cache unless goledger
wrote it, in this account, and nobody else could have:

* **The folder is the user's own.** The cache lives in ``goledger/`` of the user's cache folder
  (``platformdirs.user_cache_path``: ``$XDG_CACHE_HOME`` or ``~/.cache`` on Linux). It and its
  ``templates-…`` folder are made with permissions 0700, and used only when each is a real
  folder (not a link), owned by the user running goledger and writable by nobody else: a folder
  another user made first (``XDG_CACHE_HOME`` or ``HOME`` on ``/tmp`` or a lab machine's shared
  disk) or one that others may write in means compiling on start, every time, and writing
  nothing there.
* **Every entry is sealed.** A file is ``GLTC1`` followed by an HMAC-SHA256, under a per-user
  key of 32 random bytes kept in that folder (``templates.key``, a regular file of the user's
  with one link), of the entry's claim (the template's key, this Python's
  version, the fingerprint of the code that compiles) and of its payload: the template source's
  checksum and the code, marshalled. The seal is compared first; only then is the code
  unmarshalled, and only when the checksum is that of the template as it is now. There is no
  pickle at all (Jinja2's own bucket format unpickles the checksum before anything is compared).
* **Anything else is compiled again and replaced.** A file cut short, a foreign or damaged seal,
  a key that cannot be read, a folder that cannot be written: the template is compiled as if
  there were no cache (and the entry written again where the folder allows it). A cache is
  never a reason for a page to fail.

Each file is written as every file goledger writes (:mod:`goledger.outputs`).
"""

from __future__ import annotations

import hashlib
import hmac
import marshal
import os
import secrets
import stat
import sys
from pathlib import Path
from types import CodeType
from typing import TYPE_CHECKING, Final

from jinja2 import BytecodeCache

from goledger.errors import GoledgerError
from goledger.outputs import write_output

if TYPE_CHECKING:
    from collections.abc import Iterable

    from jinja2.bccache import Bucket

__all__ = ["MAGIC", "CompiledTemplates", "compiled_templates", "own_folder"]

MAGIC: Final = b"GLTC1"
"""The first bytes of a kept template: goledger's sealed format, version 1."""

_KEY_BYTES: Final = 32
_KEY_NAME: Final = "templates.key"


def _mine(info: os.stat_result) -> bool:
    """Whether a file's status says it is the current user's."""
    return not hasattr(os, "geteuid") or info.st_uid == os.geteuid()  # Windows: the profile's own folder


def own_folder(folder: Path) -> bool:
    """Make ``folder`` (permissions 0700) if it is missing, and say whether it is a real folder,
    not a link, of the current user's, that nobody else may write in."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.lstat()
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and _mine(info) and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _read_own_file(path: Path, limit: int) -> bytes | None:
    """The bytes of ``path`` when it is a regular file (never followed through a link) of the
    current user's, with one name, and at most ``limit`` bytes (in a folder :func:`own_folder`
    has checked: nobody else can reach it)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1 or not _mine(info) or info.st_size > limit:
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def _key(root: Path) -> bytes | None:
    """The per-user key in ``root`` (already checked as the user's own), made on first use
    exclusively (two processes starting at once agree on one key); ``None`` when it can be
    neither read nor made (then nothing is read or written: every template is compiled)."""

    path = root / _KEY_NAME
    key = _read_own_file(path, _KEY_BYTES)
    if key is None and not (path.exists() or path.is_symlink()):
        try:
            write_output(secrets.token_bytes(_KEY_BYTES), path, what="template cache key")
        except GoledgerError:  # another process made it meanwhile, or the disk refuses
            pass
        key = _read_own_file(path, _KEY_BYTES)
    return key if key is not None and len(key) == _KEY_BYTES else None


class CompiledTemplates(BytecodeCache):
    """Templates compiled once and kept in ``folder`` (a ``templates-…`` folder of ``root``),
    sealed with ``root``'s key, so a command does not compile its page's templates again in
    every process (a congress's audit report: 40 ms of its second). ``fingerprint`` names the
    code the compiled templates depend on; it is part of every seal. See the module."""

    _LIMIT: Final = 16 << 20  # no template of goledger compiles to more

    def __init__(self, folder: Path, root: Path | None = None, fingerprint: str = "") -> None:
        self.folder = folder
        self.root = root if root is not None else folder.parent
        self.fingerprint = fingerprint
        self._checked: bytes | bool | None = False  # False: not looked at yet

    def _sealing_key(self) -> bytes | None:
        """The key, once the root and the folder are checked as the user's own; ``None`` when
        they are not (nothing is then read or written)."""
        if self._checked is False:
            self._checked = _key(self.root) if own_folder(self.root) and own_folder(self.folder) else None
        return self._checked  # type: ignore[return-value]

    def _claim(self, bucket: Bucket) -> bytes:
        return f"{bucket.key}|{sys.version}|{sys.implementation.cache_tag}|{self.fingerprint}".encode()

    def _seal(self, key: bytes, bucket: Bucket, payload: bytes) -> bytes:
        return hmac.new(key, self._claim(bucket) + b"\0" + payload, hashlib.sha256).digest()

    def load_bytecode(self, bucket: Bucket) -> None:
        """The bucket's code from its file when the file is the user's, its seal is this
        key's and its checksum that of the template now; else nothing (compiled again)."""
        bucket.reset()
        key = self._sealing_key()
        if key is None:
            return
        data = _read_own_file(self.folder / f"{bucket.key}.jinja", self._LIMIT)
        if data is None or not data.startswith(MAGIC):
            return
        mark, payload = data[len(MAGIC):len(MAGIC) + 32], data[len(MAGIC) + 32:]
        if len(mark) != 32 or not hmac.compare_digest(mark, self._seal(key, bucket, payload)):
            return
        size = int.from_bytes(payload[:2], "big")
        checksum, code = payload[2:2 + size], payload[2 + size:]
        if checksum != bucket.checksum.encode():
            return
        try:
            loaded = marshal.loads(code)
        except (EOFError, ValueError, TypeError):  # pragma: no cover (sealed, so written whole)
            return
        if isinstance(loaded, CodeType):
            bucket.code = loaded

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Write the bucket's code, sealed, when the folder is the user's own."""

        key = self._sealing_key()
        if key is None or bucket.code is None:
            return
        checksum = bucket.checksum.encode()
        payload = len(checksum).to_bytes(2, "big") + checksum + marshal.dumps(bucket.code)
        try:
            write_output([MAGIC, self._seal(key, bucket, payload), payload], self.folder / f"{bucket.key}.jinja",
                         force=True, what="compiled template")
        except GoledgerError:  # a read-only or full disk: compiled again next time
            return


def compiled_templates(extensions: Iterable[str], compiler: Path | None = None) -> CompiledTemplates:
    """The templates' cache in the user's cache folder (``~/.cache/goledger/templates-…`` on
    Linux), under a fingerprint of ``compiler`` (the module that compiles ``{{ }}`` its own
    way: :mod:`goledger.render.html`), this module, Jinja2's version and ``extensions``."""
    # Jinja2 and platformdirs load late: only a template compiled needs them
    import jinja2
    import platformdirs

    compiler = compiler if compiler is not None else Path(__file__).with_name("html.py")
    fingerprint = hashlib.sha256(compiler.read_bytes() + Path(__file__).read_bytes())
    fingerprint.update(f"|{jinja2.__version__}|{'|'.join(sorted(extensions))}".encode())
    name = fingerprint.hexdigest()[:16]
    root = platformdirs.user_cache_path("goledger", appauthor=False)
    return CompiledTemplates(root / f"templates-{name}", root, fingerprint.hexdigest())
