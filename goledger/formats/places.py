"""Does a migration keep the standings? The file's own places against goledger's (issue 40, item 5).

Every import rebuilds the standings from the games; a file that states places (an EGD table's
place column, a TRF's rank column, the places line goledger writes into its OpenGotha and
MacMahon files, :mod:`goledger.formats.carried`) is compared with them before the ledger is
written, and **each player placed differently is one warning line** of the import report:
a migration must say when the standings it rebuilds differ from the file's.

The rule of agreement: only the players the file places count (an EGD table leaves out the
players without a rated game, so goledger's places are taken among those players alone); a
place shared by several players covers the run of places they occupy, so a tie goledger
keeps and the file breaks (an EGD table has no ex aequo) is no disagreement. A player agrees
when his run in the file and his run in goledger's standings overlap.

>>> from goledger.formats.report import InterchangeReport
>>> from goledger.ledger import events as ev
>>> made = [ev.TournamentCreated(settings=ev.TournamentSettings(name="T", rounds=1, system="swiss",
...                                                                criteria=("NBW",))),
...         ev.PlayerRegistered(player_id="p0001", surname="A", first_name="a", rank="1d"),
...         ev.PlayerRegistered(player_id="p0002", surname="B", first_name="b", rank="1d"),
...         ev.GamePaired(round=1, table=1, white="p0001", black="p0002"),
...         ev.ResultRecorded(round=1, table=1, result="white")]
>>> report = InterchangeReport(format="egd", source="t.h9")
>>> compare_places(made, {"p0001": 2, "p0002": 1}, report, "the table")
2
>>> print(report.warnings[0].message)
places differ: A a is 2nd in the table, 1st in goledger's standings after round 1 (NBW, policy opengotha)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goledger.errors import GoledgerError
from goledger.ledger import events as ev
from goledger.replay.scoring.registries import check_registered

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from goledger.formats.report import InterchangeReport

__all__ = ["PLACE_EXTRAS", "compare_places", "ordinal", "stated_places", "stated_runs"]

PLACE_EXTRAS = ("egd.place", "file.place")
"""The player extras in which a reader keeps the place its file states (an EGD table's place
column; ``file.place``, where the FFG ``.tou`` reader of issue 47 keeps its file's places);
the other readers give their places beside the events (``ReadResult.places``)."""


def stated_places(events: Sequence[ev.Event]) -> dict[str, int]:
    """Player id → the place the file states (:data:`PLACE_EXTRAS`), for each registration
    that keeps one as a whole number (``"12"``; other texts, a blank, are no place).

    >>> stated_places([ev.PlayerRegistered(player_id="p0001", surname="A", first_name="", rank="1d",
    ...                                    extras={"egd.place": "3"}),
    ...                ev.PlayerRegistered(player_id="p0002", surname="B", first_name="", rank="1d")])
    {'p0001': 3}
    """
    places: dict[str, int] = {}
    for event in events:
        if isinstance(event, ev.PlayerRegistered):
            for key in PLACE_EXTRAS:
                text = event.extras.get(key, "").strip()
                if text.isascii() and text.isdigit() and 0 < int(text) <= 1_000_000:
                    places[event.player_id] = int(text)
                    break
    return places


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 102)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '102nd']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def stated_runs(places: Mapping[str, int]) -> dict[str, tuple[int, int]]:
    """Each player's run of places, first and last: a place ``p`` held by ``k`` players runs
    from ``p`` to ``p + k − 1``.

    >>> stated_runs({"a": 1, "b": 2, "c": 2, "d": 4})
    {'a': (1, 1), 'b': (2, 3), 'c': (2, 3), 'd': (4, 4)}
    """
    held: dict[int, int] = {}
    for place in places.values():
        held[place] = held.get(place, 0) + 1
    return {pid: (place, place + held[place] - 1) for pid, place in places.items()}


def _shown(run: tuple[int, int]) -> str:
    first, last = run
    return ordinal(first) if first == last else f"{ordinal(first)}–{ordinal(last)} (shared)"


def compare_places(events: Sequence[ev.Event], stated: Mapping[str, int], report: InterchangeReport,
                   what: str = "the file") -> int:
    """Compare the places ``what`` states (player id → place) with goledger's standings of
    ``events``; one warning per player placed differently, or one note that all agree.
    Returns the number of disagreements. A file that states no places gets a note saying so."""
    if not stated:
        report.info("places", f"{what} states no places: the standings are goledger's own, nothing to compare")
        return 0
    # the fold and the standings load late: only a file that states places needs them
    from goledger.replay.fold.state import fold
    from goledger.replay.scoring.standings import standings

    try:
        state = fold(events, check=check_registered)
        table = standings(state)
    except (ValueError, KeyError, GoledgerError) as exc:
        report.warning("places", f"goledger's standings could not be computed to compare with the places {what} "
                       f"states ({exc})")
        return 0
    ours = {row.player_id: row.place for row in table.rows if row.player_id in stated}
    # goledger's places among the players the file places: 1 + how many of them are ahead
    among = {pid: 1 + sum(1 for q in ours.values() if q < p) for pid, p in ours.items()}
    rebuilt = stated_runs(among)
    theirs = stated_runs(stated)
    rules = f"after round {table.round} ({', '.join(table.criteria)}, policy {table.policy})"
    differ = 0
    for row in table.rows:
        pid = row.player_id
        if pid not in theirs:
            continue
        if pid not in rebuilt:
            continue
        (f0, f1), (g0, g1) = theirs[pid], rebuilt[pid]
        if f1 < g0 or g1 < f0:
            differ += 1
            name = f"{row.surname} {row.first_name}".strip()
            report.warning("places", f"places differ: {name} is {_shown(theirs[pid])} in {what}, "
                           f"{_shown(rebuilt[pid])} in goledger's standings {rules}", pid)
    missing = [pid for pid in theirs if pid not in rebuilt]
    for pid in missing:
        differ += 1
        report.warning("places", f"places differ: {what} places {pid} {ordinal(stated[pid])}, goledger's standings "
                       "do not list him", pid)
    if not differ:
        report.info("places", f"the {len(theirs)} places {what} states agree with goledger's standings {rules}")
    return differ
