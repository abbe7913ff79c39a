"""Writing an output file without clobbering what must not be clobbered (issue 18, point 3).

Every report, export and page goledger writes goes through :func:`write_output`:

* an output that *is* a protected file — the ledger, its ``-wal``/``-shm``/``-journal``
  companions, or the input being read — is refused, whether named directly, through a
  symbolic link or through a hard link (same device and inode);
* an existing file (or a symbolic link, even a dangling one) is replaced only with
  ``force``; a symbolic link is then replaced itself, never followed;
* the bytes go to a temporary file created exclusively (``O_EXCL``, so a planted file or link
  of that name is never opened) under an unpredictable name in the target's folder, then
  renamed into place: a reader sees the old file or the new one, never a mixture.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_output(b"x", folder / "out.txt")
>>> write_output(b"y", folder / "out.txt")
Traceback (most recent call last):
...
goledger.errors.GoledgerError: ... already exists; give --force to replace it
"""

from __future__ import annotations

import csv
import io
import os
import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from goledger.errors import GoledgerError

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

__all__ = ["LEDGER_COMPANIONS", "check_output", "csv_cell", "csv_text", "ledger_files", "one_line", "shown",
           "shown_deep", "write_output"]

PathLike = str | os.PathLike[str]

LEDGER_COMPANIONS = ("-wal", "-shm", "-journal")
"""The files SQLite keeps beside a ledger: overwriting one corrupts the ledger."""


def ledger_files(db: PathLike) -> list[Path]:
    """The ledger file and its SQLite companions (existing or not)."""
    path = Path(db)
    return [path, *(path.with_name(path.name + suffix) for suffix in LEDGER_COMPANIONS)]


def _same(a: Path, b: Path) -> bool:
    if os.path.abspath(a) == os.path.abspath(b):
        return True
    try:
        if a.resolve() == b.resolve():
            return True
        sa, sb = a.stat(), b.stat()  # follows symbolic links
    except (OSError, RuntimeError):  # RuntimeError: a symbolic link loop (Python 3.11's resolve)
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def check_output(target: PathLike, protect: Iterable[PathLike] = (), *, force: bool = False,
                 what: str = "output") -> Path:
    """Refuse an output path that would clobber a protected file or (without ``force``) an
    existing one; returns the path. ``protect`` lists ledgers (their companions are protected
    with them) and input files."""
    path = Path(target)
    guarded: list[Path] = []
    for item in protect:
        guarded += ledger_files(item) if str(item).endswith(".db") or _is_sqlite(Path(item)) else [Path(item)]
    for guard in guarded:  # by name, through a symbolic link (resolved) or a hard link (inode)
        if _same(path, guard):
            raise GoledgerError(f"refusing to write the {what} to {path}: it is {guard}, which must not be "
                                "overwritten; choose another file")
    if path.is_dir():
        raise GoledgerError(f"cannot write the {what} to {path}: it is a folder")
    if not path.parent.is_dir():
        raise GoledgerError(f"cannot write {path}: folder {path.parent} does not exist")
    if (path.exists() or path.is_symlink()) and not force:
        raise GoledgerError(f"{path} already exists; give --force to replace it")
    return path


def _is_sqlite(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def write_output(data: bytes | Sequence[bytes], target: PathLike, protect: Iterable[PathLike] = (), *,
                 force: bool = False, what: str = "output") -> None:
    """Write ``data`` (bytes, or the parts of a large output one after the other) to
    ``target`` as the module says: protected files refused, an existing file replaced only
    with ``force``, exclusive unpredictable temporary file, then rename."""
    path = check_output(target, protect, force=force, what=what)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".writing", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            if isinstance(data, bytes):
                fh.write(data)
            else:
                fh.writelines(data)
            fh.flush()
            os.fsync(fh.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)
        if force:
            os.replace(temp, path)  # replaces a link itself, never its target
        else:
            try:
                os.link(temp, path, follow_symlinks=False)  # never replaces a file that appeared meanwhile
            except FileExistsError:
                raise GoledgerError(f"{path} appeared while it was being written; give --force to replace it") \
                    from None
            except OSError:  # no hard links on this file system
                if path.exists() or path.is_symlink():
                    raise GoledgerError(f"{path} already exists; give --force to replace it") from None
                os.replace(temp, path)
    except OSError as exc:
        raise GoledgerError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        Path(temp).unlink(missing_ok=True)


_CONTROL = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f"
    "\ufeff\ufff9-\ufffb\ufffe\uffff\ud800-\udfff]"
)
_LINE = re.compile("[\t\n\r]")


def shown(text: str, *, keep_lines: bool = False) -> str:
    """``text`` made safe to show: every control, line or paragraph separator, bidi embedding,
    override or isolate, zero-width or other invisible format character is written as its
    escape (``\\x1b``, ``\\u202e``), so an older ledger's hostile name can neither drive the
    terminal, reorder a line, nor break an XML/HTML page. Tabs and line breaks become spaces
    unless ``keep_lines``.

    >>> shown("Evil\\x1b[2J\\u202eeman")
    'Evil\\\\x1b[2J\\\\u202eeman'
    >>> shown("a\\nb"), shown("a\\nb", keep_lines=True)
    ('a b', 'a\\nb')
    """
    if text.isprintable():  # every character escaped or blanked below is unprintable
        return text
    return _escaped(text, keep_lines)


def _escaped(text: str, keep_lines: bool) -> str:
    """:func:`shown` of any text (its slow path)."""
    out = _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
    return out if keep_lines else _LINE.sub(" ", out)


def shown_deep(value: Any) -> Any:
    """:func:`shown` applied to every string inside ``value`` (lists, tuples, dicts)."""
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, dict):
        return {shown_deep(k): shown_deep(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(shown_deep(v) for v in value)
    return value


def csv_cell(text: str) -> str:
    """A text cell for a CSV file: :func:`shown`, and a cell a spreadsheet would run as a
    formula (leading ``=``, ``+``, ``-``, ``@``, tab or carriage return) is prefixed with
    ``'`` (OWASP's CSV-injection rule).

    >>> csv_cell("=HYPERLINK(\\"http://x\\")"), csv_cell("+cmd|' /C calc'!A0"), csv_cell("Müller")
    ('\\'=HYPERLINK("http://x")', "'+cmd|' /C calc'!A0", 'Müller')
    """
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        text = "'" + text
    return shown(text)


_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]{1,40}(?:[.,][0-9]{1,40})?[½¼¾]?")
"""A cell that is a number (a signed rating change, ``-1``, ``2½``): a spreadsheet reads it
as that number, never as a formula, so it is written as it is."""


def _csv_value(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(int(value))
    if not isinstance(value, str):
        return shown(str(value))  # numbers (int, Fraction, Decimal) are written as they print
    if _PLAIN_NUMBER.fullmatch(value):
        return value
    return csv_cell(value)


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """Rows as CSV (``\\n`` line ends): **the** CSV writer of every goledger output
    (standings, players, pairings, wall list, crosstable, rating preview, places). Every text
    cell goes through :func:`csv_cell` — shown safely, and prefixed with ``'`` when a
    spreadsheet would run it as a formula — except a cell that is a plain number, written as
    it is; ``None`` is an empty cell, a bool ``0``/``1``.

    >>> rows = [["place", "name", "delta"], [1, "=HYPERLINK(\\"x\\")", "-12.5"], [2, "@SUM(A1)", None]]
    >>> print(csv_text(rows), end="")
    place,name,delta
    1,"'=HYPERLINK(""x"")",-12.5
    2,'@SUM(A1),
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for row in rows:
        writer.writerow([_csv_value(cell) for cell in row])
    return buffer.getvalue()


_LINE_BREAKS = re.compile("[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]")


def one_line(text: str) -> str:
    """``text`` for an output that gives each record one line (``goledger log``, a summary):
    :func:`shown`, with every line break written as its escape (``\\n``), so free text (a
    ``--reason``) can never start a line of its own that looks like another record.

    >>> one_line("late\\n   7  ResultCorrected  forged"), one_line("plain")
    ('late\\\\n   7  ResultCorrected  forged', 'plain')
    """
    if text.isprintable():
        return text
    return shown(_LINE_BREAKS.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text))

