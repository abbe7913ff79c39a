"""Import and export reports: what a reader or writer could not map, normalised or found odd.

Every reader returns its events **and** an :class:`InterchangeReport`; every writer returns
its bytes and one. Nothing is dropped silently: an item that could not be recorded is an
``error`` entry, a value changed on the way in (upper-cased country, renumbered table…) a
``normalised`` entry, a source field with no place in the ledger an ``unmapped`` entry, a
contradiction in the source (a player paired in a round where he is marked absent) an
``inconsistency``.

>>> r = InterchangeReport(format="opengotha", source="t.xml")
>>> r.add("warning", "unmapped", "attribute not mapped", "Tournament/@macAddress")
>>> r.count_read("games", 3); r.count_recorded("games", 3)
>>> r.has_warnings, r.has_errors, r.counts["games"]
(True, False, {'read': 3, 'recorded': 3})
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

__all__ = ["Entry", "InterchangeReport", "Severity"]

Severity = Literal["error", "warning", "info"]


class Entry(msgspec.Struct, frozen=True):
    """One thing worth telling: severity, kind, a sentence, and where in the source."""

    severity: Severity
    kind: str
    message: str
    where: str = ""


class InterchangeReport(msgspec.Struct, kw_only=True):
    """The report of one import or export."""

    format: str
    source: str = ""
    direction: Literal["import", "export"] = "import"
    dialect: str = ""
    counts: dict[str, dict[str, int]] = msgspec.field(default_factory=dict)
    entries: list[Entry] = msgspec.field(default_factory=list)

    def add(self, severity: Severity, kind: str, message: str, where: str = "") -> None:
        """One entry; a catalog message (:func:`goledger.i18n.messages.say`) is kept as the
        text it was rendered in, a plain ``str`` the report's JSON can hold."""
        self.entries.append(Entry(severity, kind, str(message), str(where)))

    def error(self, kind: str, message: str, where: str = "") -> None:
        self.add("error", kind, message, where)

    def warning(self, kind: str, message: str, where: str = "") -> None:
        self.add("warning", kind, message, where)

    def info(self, kind: str, message: str, where: str = "") -> None:
        self.add("info", kind, message, where)

    def count_read(self, kind: str, n: int = 1) -> None:
        self.counts.setdefault(kind, {"read": 0, "recorded": 0})["read"] += n

    def count_recorded(self, kind: str, n: int = 1) -> None:
        self.counts.setdefault(kind, {"read": 0, "recorded": 0})["recorded"] += n

    @property
    def errors(self) -> list[Entry]:
        return [e for e in self.entries if e.severity == "error"]

    @property
    def warnings(self) -> list[Entry]:
        return [e for e in self.entries if e.severity == "warning"]

    @property
    def has_errors(self) -> bool:
        return any(e.severity == "error" for e in self.entries)

    @property
    def has_warnings(self) -> bool:
        return any(e.severity == "warning" for e in self.entries)

    def to_dict(self) -> dict[str, Any]:
        return msgspec.to_builtins(self)

    def to_json(self) -> bytes:
        return msgspec.json.format(msgspec.json.encode(self), indent=2)

    def summary(self) -> str:
        """The recorded counts in one phrase, players, games and byes first: ``"2 players, 1 games"``
        (empty when nothing was recorded)."""
        counts = self.counts
        return ", ".join(f"{counts[k]['recorded']} {k}" for k in self.summary_order() if counts[k]["recorded"])

    def summary_order(self) -> list[str]:
        """The counted kinds in the order :meth:`summary` names them: players, games, results,
        byes and absences first, then the others as counted."""
        first = ("players", "games", "results", "byes", "absences")
        return [k for k in first if k in self.counts] + [k for k in self.counts if k not in first]

    def render(self, limit: int | None = None) -> str:
        """Plain text for the terminal: the counts (recorded, and read when they differ), the
        number of entries per severity, then every entry (or the first ``limit``), errors first.

        >>> r = InterchangeReport(format="egd", source="t.h9")
        >>> r.count_read("games", 3); r.count_recorded("games", 2); r.warning("unmapped", "no PC tag")
        >>> print(r.render())
        import egd: t.h9
          games 2 (of 3 read)
          0 error(s), 1 warning(s), 0 note(s)
          warning: no PC tag
        """
        order = {"error": 0, "warning": 1, "info": 2}
        lines = [f"{self.direction} {self.format}: {self.source}" + (f" ({self.dialect})" if self.dialect else "")]
        counts = ", ".join(f"{kind} {c['recorded']}" + ("" if c["read"] == c["recorded"] else f" (of {c['read']} read)")
                           for kind, c in self.counts.items())
        if counts:
            lines.append(f"  {counts}")
        severities = {s: sum(1 for e in self.entries if e.severity == s) for s in order}
        lines.append(f"  {severities['error']} error(s), {severities['warning']} warning(s), "
                     f"{severities['info']} note(s)")
        entries = sorted(self.entries, key=lambda e: order.get(e.severity, 3))
        for e in entries if limit is None else entries[:limit]:
            lines.append(f"  {e.severity}: {e.message}" + (f" [{e.where}]" if e.where else ""))
        if limit is not None and len(entries) > limit:
            lines.append(f"  … {len(entries) - limit} more (use --report FILE for all)")
        return "\n".join(lines)
