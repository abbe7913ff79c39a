"""What a goledger export carries beyond its format, so that reading it back keeps the winner.

An EGD table has no McMahon bar, a TRF has no Go rank and no McMahon rules, an OpenGotha or
MacMahon file states no places: a round trip through them used to rebuild other standings
(issue 40, item 5: an EGD table set the bar to 9d, a TRF made every rank 30k). Every format
has a comment syntax its own readers skip (``;`` in an EGD table, ``###`` in a TRF-2026 file,
``<!-- -->`` after an XML file's root element), so goledger writes what the format cannot hold there, as lines of text
that start with ``goledger``:

``goledger rules {json}``
    the settings that decide the standings (:data:`RULE_FIELDS`): system, bar, floor, point
    values, criteria and policy always, the others (overrides, groups…) when not the default
``goledger ranks 3p 5d 1d …``
    each player's Go rank, in the order the file lists its players (a TRF has no rank column)
``goledger places 2 1 3 …``
    each player's place in goledger's standings at the export, in the order the file lists
    its players (``-`` for a player without one): the places the import compares its own
    standings with (:mod:`goledger.formats.places`) when the format has no place column
``goledger status 6w2 4a3 5a1=1 7b2 …``
    every withdrawal (player 6 from round 2), announced absence (player 4 in round 3 at the
    policy's value, player 5 in round 1 worth 1 half point) and bye (player 7 in round 2),
    players numbered in the order the file lists them: a TRF writes a withdrawal and an
    absence as ``Z`` and its reader infers a withdrawal from zeros up to the last round (an
    absence in the last round came back a withdrawal); an EGD table writes all three as free
    rounds
``goledger corrections 3=1 7=-2 …``
    each McMahon start-score correction that is not 0, by player number (an EGD table and a
    TRF have none)
``goledger games 2.4-9/0=white! 3.1-5/2=both-lose …``
    the games an EGD table writes as free rounds (forfeits, both-win, both-lose, no result;
    ``none`` for a game without result), by round, white and black player's number, handicap,
    result and ``!`` for by default: the players' free-round cells are replaced by the game
``goledger handicaps 1.3=5 2.1=1 …``
    the handicap of each game that has one, by round and white player's number (a TRF has
    no handicap, and SOSM counts it)

Reading them back (:func:`apply_carried`) replaces what the reader inferred, each change said
in the import report; a line that cannot be read is ignored with a warning, and the values
go through the ledger's domain checks like every other imported value.

>>> from goledger.formats.report import InterchangeReport
>>> lines = carried_lines(TournamentSettings(name="T", rounds=3, mm_bar="1d", policy_overrides={"a": 1}),
...                       ranks=["3p", "1k"])
>>> print(lines[0][:80])
goledger rules {"system":"mcmahon","mm_bar":"1d","mm_floor":"30k","nbw2_bye":2,"
>>> lines[1]
'goledger ranks 3p 1k'
>>> carried = parse_carried(lines, InterchangeReport(format="egd"))
>>> carried.rules["mm_bar"], carried.rules["policy_overrides"], carried.ranks
('1d', {'a': 1}, ['3p', '1k'])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import msgspec

from goledger.ledger import events as ev
from goledger.ledger.events import TournamentSettings
from goledger.ledger.values import Rank, RankError, Result

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from goledger.formats.report import InterchangeReport
    from goledger.replay.fold.state import GameState, TournamentState

__all__ = ["PREFIX", "RULE_FIELDS", "Carried", "apply_carried", "carried_lines", "export_places", "parse_carried",
           "xml_carried", "xml_comments"]

PREFIX: Final = "goledger "
"""Every carried line starts with it (after the format's own comment marker)."""

RULE_FIELDS: Final = ("system", "mm_bar", "mm_floor", "mm_zero", "nbw2_bye", "nbw2_absent", "mms2_bye",
                      "mms2_absent", "round_down", "not_played_as_half", "mm_groups", "mm_super_group",
                      "category_limits", "criteria", "policy", "policy_overrides", "system_options")
"""The settings that decide who is placed where: a round trip keeps them."""

_DEFAULTS: Final = TournamentSettings(name="-", rounds=1)
_ALWAYS: Final = ("system", "mm_bar", "mm_floor", "nbw2_bye", "nbw2_absent", "mms2_bye", "mms2_absent", "round_down",
                  "criteria", "policy")
"""Written even at their default values: a format's reader sets its own (a TRF is read as
FIDE's, an EGD table's system comes from its column header)."""


@dataclass
class Carried:
    """What the carried lines of a file said (empty when it has none)."""

    rules: dict[str, Any] = field(default_factory=dict)
    ranks: list[str] | None = None
    places: list[int | None] | None = None
    status: list[tuple[int, str, int, int | None]] | None = None
    """(player number, ``w``, ``a`` or ``b``, round, half points of an absence or ``None``)."""
    handicaps: dict[tuple[int, int], int] | None = None
    """(round, white player's number) → handicap stones."""
    corrections: dict[int, int] | None = None
    """Player number → McMahon start-score correction."""
    games: list[tuple[int, int, int, int, str, bool]] | None = None
    """(round, white number, black number, handicap, result or ``none``, by default)."""


def carried_lines(settings: TournamentSettings, *, ranks: Sequence[str] | None = None,
                  places: Sequence[int | None] | None = None, state: TournamentState | None = None,
                  order: Sequence[str] = (), last_round: int | None = None, stones: bool = False,
                  corrections: bool = False, games: Sequence[GameState] = ()) -> list[str]:
    """The carried lines of an export: the rules that differ from the defaults (always the
    system, policy and criteria when a format may guess them otherwise), then the ranks and
    places when given, each list in the order the file writes its players; with ``state``,
    the withdrawals and absences (up to ``last_round``, default the tournament's last) of
    the players of ``order`` (the file's order), with ``stones`` their games' handicaps and with
    ``corrections`` their start-score corrections (for formats that hold neither); ``games``
    are games of those players the format writes as free rounds."""
    rules = {name: getattr(settings, name) for name in RULE_FIELDS
             if name in _ALWAYS or getattr(settings, name) != getattr(_DEFAULTS, name)}
    lines = [PREFIX + "rules " + msgspec.json.encode(rules).decode()]
    if ranks is not None:
        lines.append(PREFIX + "ranks " + " ".join(ranks))
    if places is not None:
        lines.append(PREFIX + "places " + " ".join("-" if p is None else str(p) for p in places))
    if state is not None:
        number = {pid: n for n, pid in enumerate(order, start=1)}
        last = settings.rounds if last_round is None else last_round
        status: list[str] = []
        for pid, n in number.items():
            player = state.players[pid]
            if player.withdrawn_from is not None and player.withdrawn_from <= last:
                status.append(f"{n}w{player.withdrawn_from}")
            status += [f"{n}a{r}" + ("" if v is None else f"={v}") for r, v in sorted(player.absences.items())
                       if r <= last and not player.is_withdrawn(r)]
            status += [f"{n}b{r}" for r in sorted(state.byes) if r <= last and pid in state.byes[r]]
        lines.append(PREFIX + "status " + " ".join(status))
        corrected = [f"{n}={state.players[pid].mm_correction}" for pid, n in number.items()
                     if state.players[pid].mm_correction]
        if corrections and corrected:
            lines.append(PREFIX + "corrections " + " ".join(corrected))
        unwritten = [f"{g.round}.{number[g.white]}-{number[g.black]}/{g.handicap}="
                     f"{'none' if g.result is Result.UNKNOWN else g.result.value}{'!' if g.by_default else ''}"
                     for g in games if g.white in number and g.black in number and g.round <= last]
        if unwritten:
            lines.append(PREFIX + "games " + " ".join(unwritten))
        handicaps = [f"{g.round}.{number[g.white]}={g.handicap}" for r in sorted(state.games) if r <= last
                     for g in state.games_of_round(r) if g.handicap and g.white in number]
        if stones and handicaps:
            lines.append(PREFIX + "handicaps " + " ".join(handicaps))
    return lines


def export_places(state: TournamentState, order: Sequence[str]) -> list[int | None]:
    """Each player's place in the standings of ``state`` (its policy and criteria, after the
    last paired round), in ``order``; ``None`` for a player the standings do not list."""
    # the standings load late: only an export places its players
    from goledger.replay.scoring.standings import standings

    placed = {row.player_id: row.place for row in standings(state).rows}
    return [placed.get(pid) for pid in order]


def xml_comments(lines: Sequence[str]) -> str:
    """Carried lines as XML comments, one a line (``--``, which a comment may not hold, can only
    stand inside a JSON string, where ``-\\u002d`` means the same).

    >>> print(xml_comments(["goledger places 2 1", 'goledger rules {"a":"x--y"}']), end="")
    <!-- goledger places 2 1 -->
    <!-- goledger rules {"a":"x-\\u002dy"} -->
    """
    safe = "-" + chr(92) + "u002d"
    return "".join(f"<!-- {line.replace('--', safe)} -->\n" for line in lines)


_XML_CARRIED = re.compile(rb"<!--\s*(goledger [^\n]*?)\s*-->")


def xml_carried(data: bytes) -> list[str]:
    """The carried lines of an XML file: goledger's comments after its root element (where
    OpenGotha and MacMahon skip them and a file still starts as theirs do), in file order.

    >>> xml_carried(b'<?xml version="1.0"?>\\n<T><!-- goledger x --></T>\\n<!-- goledger places 2 1 -->\\n')
    ['goledger places 2 1']
    """
    lines: list[str] = []
    rest = data.rstrip()
    while rest.endswith(b"-->"):
        start = rest.rfind(b"<!--")
        if start < 0:
            break
        match = _XML_CARRIED.fullmatch(rest[start:])
        if match:
            lines.append(match.group(1).decode("utf-8", "replace"))
        rest = rest[:start].rstrip()
    return lines[::-1]


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
            elif kind == "status":
                carried.status = [_status(token) for token in value.split()]
            elif kind == "corrections":
                carried.corrections = {}
                for token in value.split():
                    n, _, correction = token.partition("=")
                    if not n.isdigit() or not -100 <= int(correction) <= 100:
                        raise ValueError(f"{token!r} is not a correction (player=points)")
                    carried.corrections[int(n)] = int(correction)
            elif kind == "games":
                carried.games = [_game(token) for token in value.split()]
            elif kind == "handicaps":
                carried.handicaps = dict(_stones(token) for token in value.split())
            elif kind == "places":
                carried.places = [None if p == "-" else int(p) for p in value.split()]
                if any(p is not None and not 1 <= p <= 100_000 for p in carried.places):
                    raise ValueError("a place is out of range")
            else:
                raise ValueError(f"unknown kind {kind!r}")
        except (ValueError, msgspec.DecodeError, msgspec.ValidationError) as exc:
            report.warning("carried", f"goledger's line {text[:60]!r} cannot be read ({exc}); ignored", where)
    return carried


def apply_carried(events: list[ev.Event], carried: Carried, report: InterchangeReport,
                  where: str = "", *, exact_free_rounds: bool = False) -> dict[str, int]:
    """Put what ``carried`` says into ``events`` (in place): the rules into the tournament's
    settings, the ranks into the players' registrations in file order; each change named in
    the report. Returns the places the file states (player id → place). A list whose length
    is not the number of players is refused with a warning."""
    if carried.rules and events and isinstance(events[0], ev.TournamentCreated):
        settings = events[0].settings
        changed = {k: v for k, v in _rules_of(carried.rules).items() if getattr(settings, k) != v}
        if changed:
            events[0] = ev.TournamentCreated(settings=msgspec.structs.replace(settings, **changed))
            report.info("carried", "rules written by goledger read back: " + ", ".join(
                f"{k} {_shown(v)}" for k, v in changed.items()), where)
    players = [i for i, e in enumerate(events) if isinstance(e, ev.PlayerRegistered)]
    ids = [e.player_id for e in events if isinstance(e, ev.PlayerRegistered)]
    if carried.games:
        _apply_games(events, carried.games, ids, report, where)
    if carried.status is not None:
        _apply_status(events, carried.status, ids, report, where, exact=exact_free_rounds)
    if carried.corrections:
        _apply_corrections(events, carried.corrections, report, where)
    if carried.handicaps:
        _apply_stones(events, carried.handicaps, ids, report, where)
    places: dict[str, int] = {}
    if carried.places is not None:
        if len(carried.places) != len(players):
            report.warning("carried", f"goledger's places line lists {len(carried.places)} places for {len(players)} "
                           "players; ignored", where)
        else:
            for index, place in zip(players, carried.places, strict=True):
                player = events[index]
                assert isinstance(player, ev.PlayerRegistered)
                if place is not None:
                    places[player.player_id] = place
    if carried.ranks is not None:
        if len(carried.ranks) != len(players):
            report.warning("carried", f"goledger's ranks line lists {len(carried.ranks)} ranks for {len(players)} "
                           "players; ignored", where)
            return places

        try:
            ranks = [str(Rank.parse(r)) for r in carried.ranks]
        except RankError as exc:
            report.warning("carried", f"goledger's ranks line: {exc}; ignored", where)
            return places
        moved = 0
        for index, rank in zip(players, ranks, strict=True):
            player = events[index]
            assert isinstance(player, ev.PlayerRegistered)
            if player.rank != rank:
                events[index] = msgspec.structs.replace(player, rank=rank, grade=player.grade or rank)
                moved += 1
        if moved:
            report.info("carried", f"{moved} Go rank(s) written by goledger read back", where)
    return places


_STATUS = re.compile(r"([1-9][0-9]{0,5})([wab])([1-9][0-9]{0,3})(?:=([0-9]{1,2}))?")
_STONES = re.compile(r"([1-9][0-9]{0,3})\.([1-9][0-9]{0,5})=([0-9])")


def _status(token: str) -> tuple[int, str, int, int | None]:
    """``6w2`` → (6, "w", 2, None); ``5a1=1`` → (5, "a", 1, 1)."""
    match = _STATUS.fullmatch(token)
    if match is None or (match.group(2) != "a" and match.group(4) is not None):
        raise ValueError(f"{token!r} is not a withdrawal (6w2), an absence (4a3, 4a3=1) or a bye (7b2)")
    points = match.group(4)
    return int(match.group(1)), match.group(2), int(match.group(3)), None if points is None else int(points)


_GAME = re.compile(r"([1-9][0-9]{0,3})\.([1-9][0-9]{0,5})-([1-9][0-9]{0,5})/([0-9])=([a-z-]{4,9})(!?)")


def _game(token: str) -> tuple[int, int, int, int, str, bool]:
    """``2.4-9/0=white!`` → (2, 4, 9, 0, "white", True): round 2, white 4, black 9, even, by default."""
    match = _GAME.fullmatch(token)
    if match is None or (match.group(5) != "none" and match.group(5) not in {r.value for r in Result}):
        raise ValueError(f"{token!r} is not a game (round.white-black/handicap=result, ! for by default)")
    return (int(match.group(1)), int(match.group(2)), int(match.group(3)), int(match.group(4)), match.group(5),
            match.group(6) == "!")


def _apply_games(events: list[ev.Event], games: list[tuple[int, int, int, int, str, bool]], ids: list[str],
                 report: InterchangeReport, where: str) -> None:
    """Add the games goledger wrote a line for, each at the round's next table, in place of
    the free rounds the reader made of its two cells."""
    if any(max(w, b) > len(ids) for _, w, b, *_ in games):
        report.warning("carried", "goledger's games line names a player the file does not list; ignored", where)
        return
    cells = {(ids[n - 1], r) for r, w, b, *_ in games for n in (w, b)}

    def free(event: ev.Event) -> bool:
        return (isinstance(event, ev.ByeAssigned) or (isinstance(event, ev.ParticipationChanged)
                                                      and not event.participating)) \
            and (event.player_id, event.round) in cells

    events[:] = [e for e in events if not free(e)]
    tables: dict[int, int] = {}
    for event in events:
        if isinstance(event, ev.GamePaired):
            tables[event.round] = max(tables.get(event.round, 0), event.table)
    for round_, w, b, handicap, result, by_default in games:
        table = tables[round_] = tables.get(round_, 0) + 1
        events.append(ev.GamePaired(round=round_, table=table, white=ids[w - 1], black=ids[b - 1], handicap=handicap))
        if result != "none":
            events.append(ev.ResultRecorded(round=round_, table=table, result=Result(result), by_default=by_default))
    report.info("carried", f"{len(games)} game(s) the file writes as free rounds (forfeits, results the EGD does not "
                "rate) read back from goledger's line", where)


def _stones(token: str) -> tuple[tuple[int, int], int]:
    """``2.1=5`` → ((2, 1), 5): round 2, white player 1, five stones."""
    match = _STONES.fullmatch(token)
    if match is None:
        raise ValueError(f"{token!r} is not a handicap (round.white=stones)")
    return (int(match.group(1)), int(match.group(2))), int(match.group(3))


def _apply_corrections(events: list[ev.Event], corrections: dict[int, int], report: InterchangeReport,
                       where: str) -> None:
    """Give each player goledger wrote a start-score correction for that correction."""
    players = [i for i, e in enumerate(events) if isinstance(e, ev.PlayerRegistered)]
    if any(not 1 <= n <= len(players) for n in corrections):
        report.warning("carried", "goledger's corrections line names a player the file does not list; ignored", where)
        return
    for n, correction in corrections.items():
        player = events[players[n - 1]]
        assert isinstance(player, ev.PlayerRegistered)
        events[players[n - 1]] = msgspec.structs.replace(player, mm_correction=correction)
    report.info("carried", f"{len(corrections)} McMahon start-score correction(s) written by goledger read back", where)


def _apply_status(events: list[ev.Event], status: list[tuple[int, str, int, int | None]], ids: list[str],
                  report: InterchangeReport, where: str, *, exact: bool = False) -> None:
    """Make the withdrawals, absences and byes those goledger wrote. The withdrawals are
    exactly the line's (a TRF reader infers one from zeros up to the last round); a free
    round the reader made (an absence, a bye) is replaced only where the line speaks of that
    player and round (an absence or bye there, or a withdrawal before it): other free rounds
    stand for what the format could not hold (an EGD table writes a forfeit as one) — unless
    ``exact`` (a TRF, whose ``Z`` also marks a round the player was not paired in). An event
    the line confirms stays where it is, the missing ones are added at the end, so a file
    read twice gives the same events."""
    if any(n > len(ids) for n, *_ in status):
        report.warning("carried", "goledger's status line names a player the file does not list; ignored", where)
        return
    wanted = {(kind, ids[n - 1], round_, points) for n, kind, round_, points in status}
    named = {(pid, round_) for kind, pid, round_, _ in wanted if kind != "w"}
    left = {pid: round_ for kind, pid, round_, _ in wanted if kind == "w"}

    def key(event: ev.Event) -> tuple[str, str, int, int | None] | None:
        if isinstance(event, ev.PlayerWithdrew):
            return ("w", event.player_id, event.from_round, None)
        if isinstance(event, ev.ParticipationChanged) and not event.participating:
            return ("a", event.player_id, event.round, event.points2)
        if isinstance(event, ev.ByeAssigned):
            return ("b", event.player_id, event.round, None)
        return None

    def kept(k: tuple[str, str, int, int | None] | None) -> bool:
        if k is None or k in wanted:
            return True
        kind, pid, round_, _ = k
        return not exact and kind != "w" and (pid, round_) not in named and left.get(pid, round_ + 1) > round_

    read = [key(e) for e in events]
    dropped = sum(1 for k in read if not kept(k))
    events[:] = [e for e, k in zip(events, read, strict=True) if kept(k)]
    added = [k for n, kind, round_, points in status
             if (k := (kind, ids[n - 1], round_, points)) not in read]
    for kind, pid, round_, points in added:
        if kind == "w":
            events.append(ev.PlayerWithdrew(player_id=pid, from_round=round_, reason="written by goledger"))
        elif kind == "b":
            events.append(ev.ByeAssigned(round=round_, player_id=pid))
        else:
            events.append(ev.ParticipationChanged(player_id=pid, round=round_, participating=False, points2=points))
    if not (dropped or added):
        return
    withdrawn = sum(1 for _, kind, *_ in status if kind == "w")
    report.info("carried", f"withdrawals, absences and byes as goledger wrote them: {dropped} free round(s) or "
                f"withdrawal(s) read from the rounds replaced, {len(added)} added", where)
    if withdrawn or "withdrawals" in report.counts:
        report.counts["withdrawals"] = {"read": withdrawn, "recorded": withdrawn}


def _apply_stones(events: list[ev.Event], stones: dict[tuple[int, int], int], ids: list[str],
                  report: InterchangeReport, where: str) -> None:
    """Give each game goledger wrote a handicap for its stones."""
    number = {pid: n for n, pid in enumerate(ids, start=1)}
    given = 0
    for index, event in enumerate(events):
        if isinstance(event, ev.GamePaired):
            stones_ = stones.get((event.round, number.get(event.white, 0)))
            if stones_ is not None and stones_ != event.handicap:
                events[index] = msgspec.structs.replace(event, handicap=stones_)
                given += 1
    if given:
        report.info("carried", f"the handicap of {given} game(s) written by goledger read back", where)


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
