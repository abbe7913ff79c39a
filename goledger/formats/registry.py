"""The formats a whole tournament is read from and written to, by name (issue 28, item 3).

The desk's import and export pages find a format here, not by building a module and function
name from a string. Each entry names the format, the media type and file extension of what it
writes, and two functions: ``read(source, db, *, actor)`` (the format's ``import_*`` into a new
ledger) and ``write(db)`` (its ``export_*``: an outcome whose ``data`` is the file's bytes or
text). The formats' modules are imported when a function is called, so this registry costs
nothing at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

__all__ = ["FORMATS", "Format"]


@dataclass(frozen=True)
class Format:
    """One format of a whole tournament: its name, what its export is, and how to read and write it."""

    name: str
    media_type: str
    extension: str
    read: Callable[..., Any]
    write: Callable[[Path], Any]


def _read_opengotha(source: Path, db: Path, *, actor: str = "") -> Any:
    # each format loads when used: the desk lists them without loading any
    from goledger.formats.opengotha import import_opengotha

    return import_opengotha(source, db, actor=actor)


def _write_opengotha(db: Path) -> Any:
    from goledger.formats.opengotha import export_opengotha

    return export_opengotha(db)


def _read_macmahon(source: Path, db: Path, *, actor: str = "") -> Any:
    from goledger.formats.macmahon import import_macmahon

    return import_macmahon(source, db, actor=actor)


def _write_macmahon(db: Path) -> Any:
    from goledger.formats.macmahon import export_macmahon

    return export_macmahon(db)


def _read_egd(source: Path, db: Path, *, actor: str = "") -> Any:
    from goledger.formats.egd import import_egd

    return import_egd(source, db, actor=actor)


def _write_egd(db: Path) -> Any:
    from goledger.formats.egd import export_egd

    return export_egd(db)


def _read_trf(source: Path, db: Path, *, actor: str = "") -> Any:
    from goledger.formats.trf import import_trf

    return import_trf(source, db, actor=actor)


def _write_trf(db: Path) -> Any:
    from goledger.formats.trf import export_trf

    return export_trf(db)


def _read_ffg(source: Path, db: Path, *, actor: str = "") -> Any:
    from goledger.formats.ffg import import_ffg

    return import_ffg(source, db, actor=actor)


def _write_ffg(db: Path) -> Any:
    from goledger.formats.ffg import export_ffg

    return export_ffg(db)


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("opengotha", "application/xml", "xml", _read_opengotha, _write_opengotha),
    Format("macmahon", "application/xml", "xml", _read_macmahon, _write_macmahon),
    Format("egd", "text/plain; charset=utf-8", "h9", _read_egd, _write_egd),
    Format("trf", "text/plain; charset=utf-8", "trf", _read_trf, _write_trf),
    Format("ffg", "text/plain; charset=iso-8859-15", "tou", _read_ffg, _write_ffg),
)}
"""Every format the desk imports and exports, in the order its pages list them."""
