"""Library views of the tournament systems by ledger path: ``goledger standings`` for a
system with places of its own (:func:`places`), its wall list (:func:`wall_list`), and
``goledger bracket`` (:func:`bracket`):
the knockout bracket, both brackets of a double knockout, or the Paramus ladder, as plain
boxes that :mod:`goledger.render.bracket` draws as text or as an HTML/SVG page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n import gettext, pgettext
from goledger.i18n.messages import say
from goledger.ledger.values import Result
from goledger.replay.fold.players import find_player
from goledger.replay.scoring.printouts import WallList, wall_list_of
from goledger.systems import has_places, places_of

if TYPE_CHECKING:
    import os
    from collections.abc import Sequence

    from goledger.replay.fold.state import TournamentState
    from goledger.systems.common import Places

__all__ = ["Box", "BracketView", "Column", "Section", "bracket", "bracket_of", "explain_place", "places",
           "system_order", "through_round", "wall_list"]


class Box(msgspec.Struct, frozen=True, kw_only=True):
    """One match: the two sides (names with seed numbers; ``""`` for a bye, ``"?"`` not known
    yet), which side won (``0`` top, ``1`` bottom, ``None`` undecided) and a note (table,
    walkover, bye)."""

    top: str
    bottom: str
    winner: int | None = None
    note: str = ""


class Column(msgspec.Struct, frozen=True, kw_only=True):
    label: str
    boxes: tuple[Box, ...]


class Section(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    columns: tuple[Column, ...]


class BracketView(msgspec.Struct, frozen=True, kw_only=True):
    """What ``goledger bracket`` shows: the system, a title, sections of columns of boxes,
    and the champion (or ``""``)."""

    system: str
    title: str
    sections: tuple[Section, ...]
    champion: str = ""
    as_of_seq: int = 0

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = msgspec.to_builtins(self)
        return data


def through_round(state: TournamentState, round_: int | None) -> TournamentState:
    """``state`` as if nothing of rounds after ``round_`` had been recorded (``None``: all)."""
    if round_ is None:
        return state
    keep = {r: t for r, t in state.games.items() if r <= round_}
    return msgspec.structs.replace(
        state, games=keep, byes={r: b for r, b in state.byes.items() if r <= round_},
        table_of={r: t for r, t in state.table_of.items() if r <= round_},
    )


def places(db: str | os.PathLike[str], round: int | None = None, as_of: int | None = None,  # noqa: A002
           ) -> Places | None:
    """``goledger standings`` for a system with places of its own; ``None`` for the others,
    told by the settings alone (the tournament is loaded only for places)."""
    # the read views load late: only a listing by ledger path needs them
    from goledger.replay.views import settings_as_of, state_as_of

    settings = settings_as_of(db, as_of)
    if settings is None or not has_places(settings.system):
        return None
    return places_of(through_round(state_as_of(db, as_of), round))


def explain_place(db: str | os.PathLike[str], player: str, round: int | None = None,  # noqa: A002
                  as_of: int | None = None) -> str:
    """``goledger place PLAYER``: why the player has his place in the system's places, in one
    sentence (refused for systems whose places are the standings: use ``goledger explain``)."""
    from goledger.replay.views import state_as_of

    state = through_round(state_as_of(db, as_of), round)
    found = places_of(state)
    if found is None:
        system = state.settings.system if state.settings else "tournament"
        raise CommandRejected(say("a %(system)s tournament's places are its standings; use goledger explain",
                                  system=system))
    return str(found.explain(find_player(state, player).id))


def _label(state: TournamentState, pid: str | None, seed_of: dict[str, int]) -> str:
    if pid is None:
        return ""
    if pid == "?":
        return "?"
    return f"[{seed_of[pid]}] {state.players[pid].full_name}" if pid in seed_of else state.players[pid].full_name


def _box(state: TournamentState, m: Any, seed_of: dict[str, int]) -> Box:
    winner = None if m.winner is None else (0 if m.winner == m.top else 1)
    note = {"game": _table(m.table) if m.table else "", "bye": gettext("bye"), "walkover": gettext("walkover"),
            "pending": "", "empty": gettext("both out")}.get(m.how, "")
    return Box(top=_label(state, m.top, seed_of), bottom=_label(state, m.bottom, seed_of), winner=winner, note=note)


def bracket_of(state: TournamentState) -> BracketView:
    """The bracket (or ladder) of ``state``'s knockout, double knockout or Paramus."""
    system = state.settings.system if state.settings else ""
    title = state.settings.name if state.settings else ""
    if system == "knockout":
        # a system's own module loads only for a tournament of that system
        from goledger.systems.knockout import build_bracket

        b = build_bracket(state)
        seed_of = b.seed_of()
        total = len(b.rounds)
        cols = []
        for r, matches in enumerate(b.rounds, start=1):
            label = {total: gettext("Final"), total - 1: gettext("Semi-finals"),
                     total - 2: gettext("Quarter-finals")}.get(r) or gettext("Round %(round)d") % {"round": r}
            cols.append(Column(label=f"{label} ({_round(r)})", boxes=tuple(_box(state, m, seed_of) for m in matches)))
        if b.third_place is not None:
            third = gettext("Third place")
            cols.append(Column(label=f"{third} ({_round(total)})",
                               boxes=(_box(state, b.third_place, seed_of),)))
        champion = _label(state, b.champion, seed_of) if b.champion else ""
        return BracketView(system=system, title=title,
                           sections=(Section(name=gettext("Bracket"), columns=tuple(cols)),),
                           champion=champion, as_of_seq=state.seq)
    if system == "double-knockout":
        from goledger.systems.double_knockout import resolve

        st = resolve(state)
        seed_of = {p: i for i, p in enumerate(st.seeds, start=1)}
        wb = [Column(label=_round(r), boxes=tuple(_box(state, m, seed_of) for m in ms))
              for r, ms in sorted(st.wb_matches.items()) if ms]
        lb: list[Column] = []
        finals: list[Column] = []
        for r in range(1, st.decided + 1):
            boxes = []
            for g in state.games_of_round(r):
                in_wb = any(g.white in (m.top, m.bottom) for m in st.wb_matches.get(r, ()))
                if in_wb:
                    continue
                won = decided(g)
                boxes.append(Box(top=_label(state, g.white, seed_of), bottom=_label(state, g.black, seed_of),
                                 winner=won, note=_table(g.table)))
            if boxes:
                (finals if r in st.final_rounds else lb).append(Column(label=_round(r), boxes=tuple(boxes)))
        sections = [Section(name=gettext("Winners' bracket"), columns=tuple(wb)),
                    Section(name=gettext("Losers' bracket"), columns=tuple(lb))]
        if finals:
            sections.append(Section(name=gettext("Grand final"), columns=tuple(finals)))
        return BracketView(system=system, title=title, sections=tuple(sections),
                           champion=_label(state, st.champion, seed_of) if st.champion else "", as_of_seq=state.seq)
    if system == "paramus":
        from goledger.systems.paramus import ladder

        lad = ladder(state)
        seed_of = {p: i for i, p in enumerate(lad.order, start=1)}
        cols = []
        for rung in lad.rungs:
            winner = None if rung.winner is None else (0 if rung.winner == rung.holder else 1)
            cols.append(Column(label=_round(rung.round), boxes=(Box(
                top=_label(state, rung.holder, seed_of), bottom=_label(state, rung.entrant, seed_of), winner=winner,
                note=gettext("walkover") if rung.how == "walkover" else (_table(rung.table) if rung.table else "")),)))
        return BracketView(system=system, title=title,
                           sections=(Section(name=gettext("Ladder"), columns=tuple(cols)),),
                           champion=_label(state, lad.winner, seed_of) if lad.winner else "", as_of_seq=state.seq)
    if system == "cup":
        return _cup_bracket(state)
    raise CommandRejected(say("a %(system)s tournament has no bracket; see its standings (goledger standings)",
                              system=system or "goledger"))


def _cup_bracket(state: TournamentState) -> BracketView:
    """OpenGotha's Cup (every player plays every round, winners meet winners): each round's
    games grouped by the path of wins (W) and losses (L) that led to them, the main bracket
    (all wins) first, as an imported Cup tournament keeps them."""

    path: dict[str, str] = dict.fromkeys(state.players, "")
    cols = []
    last = state.last_round_with_games()
    for r in range(1, last + 1):
        games = sorted(state.games_of_round(r), key=lambda g: (path[g.white].replace("W", "0").replace("L", "1"),
                                                                g.table))
        boxes = [Box(top=state.players[g.white].full_name, bottom=state.players[g.black].full_name,
                     winner=decided(g), note=(path[g.white] or gettext("start")) + f" · {_table(g.table)}")
                 for g in games]
        cols.append(Column(label=_round(r), boxes=tuple(boxes)))
        for g in games:
            for pid in (g.white, g.black):
                won = g.points2(pid) == 2 if g.result is not Result.UNKNOWN else None
                path[pid] += "?" if won is None else ("W" if won else "L")
    unbeaten = [p for p, text in path.items() if text and set(text) == {"W"} and len(text) == last]
    champion = state.players[unbeaten[0]].full_name if len(unbeaten) == 1 else ""
    assert state.settings is not None
    return BracketView(system="cup", title=state.settings.name, as_of_seq=state.seq, champion=champion,
                       sections=(Section(name=gettext("Cup (paths of wins and losses)"), columns=tuple(cols)),))


def _round(round_: int) -> str:
    """A round's short name as column heads write it (``R3``; Turkish ``3.Tur``)."""
    return pgettext("column head of round N", "R%(round)d") % {"round": round_}


def _table(table: int) -> str:
    return gettext("table %(table)d") % {"table": table}


def decided(game: Any) -> int | None:
    """0 when White won, 1 when Black won, else ``None``."""

    return {Result.WHITE: 0, Result.BLACK: 1}.get(game.result)


def bracket(db: str | os.PathLike[str], as_of: int | None = None, round: int | None = None,  # noqa: A002
            ) -> BracketView:
    """``goledger bracket``: the bracket of a ledger (as of an event, after a round)."""
    from goledger.replay.views import state_as_of

    return bracket_of(through_round(state_as_of(db, as_of), round))


def wall_list(db: str | os.PathLike[str], round: int | None = None, as_of: int | None = None,  # noqa: A002
              policy: str | None = None, criteria: Sequence[str] | None = None,
              alphabet: str | None = None) -> WallList:
    """``goledger wall-list``: the wall list after ``round``, in the system's own places for a
    system that has them (a knockout, a Paramus, a match…: :func:`places_of`, as ``goledger
    standings`` and ``goledger place`` give them, without criteria columns), else in the
    standings of ``policy`` and ``criteria`` (:func:`goledger.replay.views.wall_list`)."""
    from goledger.replay.views import state_as_of

    state = state_as_of(db, as_of)
    return wall_list_of(state, round, policy, criteria, alphabet, system_order(state, round, policy, criteria))


def system_order(state: TournamentState, round_: int | None, policy: str | None = None,
                 criteria: Sequence[str] | None = None) -> list[tuple[str, int]] | None:
    """The system's own places after ``round_`` as ``(player id, place)`` in order, or ``None``
    when the places are the standings (or a policy or criteria were asked for explicitly)."""
    if policy is not None or criteria is not None:
        return None
    found = places_of(through_round(state, round_))
    return None if found is None else [(row.player_id, row.place) for row in found.rows]
