"""What a goledger export carries beyond its format, so that reading it back keeps the winner.

An EGD table has no McMahon bar, a TRF has no Go rank and no McMahon rules, an OpenGotha or
MacMahon file states no places: a round trip through them used to rebuild other standings
(issue 40, item 5: an EGD table set the bar to 9d, a TRF made every rank 30k). Every format
has a comment syntax its own readers skip (``;`` in an EGD table, ``###`` in a TRF-2026 file,
``<!-- -->`` in XML), so goledger writes what the format cannot hold there, as lines of text
that start with ``goledger``:

``goledger rules {json}``
    the settings that decide the standings (:data:`RULE_FIELDS`) whose value is not the
    default: system, bar, floor, point values, criteria, policy and its overrides…
``goledger ranks 3p 5d 1d …``
    each player's Go rank, in the order the file lists its players (a TRF has no rank column)
``goledger places 2 1 3 …``
    each player's place in goledger's standings at the export, in the order the file lists
    its players (``-`` for a player without one): the places the import compares its own
    standings with (:mod:`goledger.formats.places`) when the format has no place column

Reading them back (:func:`apply_carried`) replaces what the reader inferred, each change said
in the import report; a line that cannot be read is ignored with a warning, and the values
go through the ledger's domain checks like every other imported value.

>>> lines = carried_lines(TournamentSettings(name="T", rounds=3, mm_bar="1d"), ranks=["3p", "1k"])
>>> lines
['goledger rules {"mm_bar":"1d"}', 'goledger ranks 3p 1k']
>>> carried = parse_carried(lines, InterchangeReport(format="egd"))
>>> carried.rules, carried.ranks
({'mm_bar': '1d'}, ['3p', '1k'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import msgspec

from goledger.formats.report import InterchangeReport
from goledger.ledger import events as ev
from goledger.ledger.events import TournamentSettings

__all__ = ["PREFIX", "RULE_FIELDS", "Carried", "apply_carried", "carried_lines", "parse_carried"]

PREFIX: Final = "goledger "
"""Every carried line starts with it (after the format's own comment marker)."""

RULE_FIELDS: Final = ("system", "mm_bar", "mm_floor", "mm_zero", "nbw2_bye", "nbw2_absent", "mms2_bye",
                      "mms2_absent", "round_down", "not_played_as_half", "mm_groups", "mm_super_group",
                      "criteria", "policy", "policy_overrides", "system_options")
"""The settings that decide who is placed where: a round trip keeps them."""

_DEFAULTS: Final = TournamentSettings(name="-", rounds=1)


@dataclass
class Carried:
    """What the carried lines of a file said (empty when it has none)."""

    rules: dict[str, Any] = field(default_factory=dict)
    ranks: list[str] | None = None
    places: list[int | None] | None = None

    def __bool__(self) -> bool:
        return bool(self.rules) or self.ranks is not None or self.places is not None


def carried_lines(settings: TournamentSettings, *, ranks: Sequence[str] | None = None,
                  places: Sequence[int | None] | None = None) -> list[str]:
    """The carried lines of an export: the rules that differ from the defaults (always the
    system, policy and criteria when a format may guess them otherwise), then the ranks and
    places when given, each list in the order the file writes its players."""
    rules = {name: getattr(settings, name) for name in RULE_FIELDS
             if getattr(settings, name) != getattr(_DEFAULTS, name)}
    lines = [PREFIX + "rules " + msgspec.json.encode(rules).decode()] if rules else []
    if ranks is not None:
        lines.append(PREFIX + "ranks " + " ".join(ranks))
    if places is not None:
        lines.append(PREFIX + "places " + " ".join("-" if p is None else str(p) for p in places))
    return lines


def parse_carried(lines: Iterable[str], report: InterchangeReport, where: str = "") -> Carried:
    """The carried lines among ``lines`` (comment texts with the format's marker removed;
    other lines are skipped); a line that cannot be read gets a warning and is ignored."""
    carried = Carried()
    for line in lines:
        text = line.strip()
        if not text.startswith(PREFIX):
            continue
        kind, _, value = text[len(PREFIX):].partition(" ")
        try:
            if kind == "rules":
                rules = msgspec.json.decode(value)
                if not isinstance(rules, dict) or set(rules) - set(RULE_FIELDS):
                    raise ValueError(f"only {', '.join(RULE_FIELDS)} may be carried")
                msgspec.convert({"name": "-", "rounds": 1, **rules}, TournamentSettings)
                carried.rules = rules
            elif kind == "ranks":
                carried.ranks = value.split()
            elif kind == "places":
                carried.places = [None if p == "-" else int(p) for p in value.split()]
                if any(p is not None and not 1 <= p <= 100_000 for p in carried.places):
                    raise ValueError("a place is out of range")
            else:
                raise ValueError(f"unknown kind {kind!r}")
        except (ValueError, msgspec.DecodeError, msgspec.ValidationError) as exc:
            report.warning("carried", f"goledger's line {text[:60]!r} cannot be read ({exc}); ignored", where)
    return carried


def apply_carried(events: list[ev.Event], carried: Carried, report: InterchangeReport, where: str = "") -> None:
    """Put what ``carried`` says into ``events`` (in place): the rules into the tournament's
    settings, the ranks into the players' registrations in file order; each change named in
    the report. Counts that do not match the players are refused with a warning."""
    if carried.rules and events and isinstance(events[0], ev.TournamentCreated):
        settings = events[0].settings
        changed = {k: v for k, v in _rules_of(carried.rules).items() if getattr(settings, k) != v}
        if changed:
            events[0] = ev.TournamentCreated(settings=msgspec.structs.replace(settings, **changed))
            report.info("carried", "rules written by goledger read back: " + ", ".join(
                f"{k} {_shown(v)}" for k, v in changed.items()), where)
    players = [i for i, e in enumerate(events) if isinstance(e, ev.PlayerRegistered)]
    if carried.ranks is not None:
        if len(carried.ranks) != len(players):
            report.warning("carried", f"goledger's ranks line lists {len(carried.ranks)} ranks for {len(players)} "
                           "players; ignored", where)
            return
        from goledger.ledger.values import Rank, RankError

        try:
            ranks = [str(Rank.parse(r)) for r in carried.ranks]
        except RankError as exc:
            report.warning("carried", f"goledger's ranks line: {exc}; ignored", where)
            return
        moved = 0
        for index, rank in zip(players, ranks, strict=True):
            player = events[index]
            assert isinstance(player, ev.PlayerRegistered)
            if player.rank != rank:
                events[index] = msgspec.structs.replace(player, rank=rank, grade=player.grade or rank)
                moved += 1
        if moved:
            report.info("carried", f"{moved} Go rank(s) written by goledger read back", where)


def _rules_of(rules: dict[str, Any]) -> dict[str, Any]:
    """The carried rules as the settings' own typed values (tuples, start groups)."""
    typed = msgspec.convert({"name": "-", "rounds": 1, **rules}, TournamentSettings)
    return {k: getattr(typed, k) for k in rules}


def _shown(value: object) -> str:
    if isinstance(value, tuple | list):
        return ", ".join(map(str, value)) or "(none)"
    if isinstance(value, dict):
        return msgspec.json.encode(value).decode()
    return str(value)
