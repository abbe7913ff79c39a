"""Unit commands of a Pair Go or Rengo tournament (issue 47, docs/pairgo.md): ``unit add`` and
``unit remove``.

Each is a pure decider ``decide_unit_*(state, …) -> list[Event]`` refusing in one sentence what
the rules forbid, and a thin wrapper that appends its events. The rules:

* only a ``pairgo``, ``rengo2`` or ``rengo3`` tournament has units;
* a unit has exactly the system's number of members (2, 2, 3), registered players, all
  different, none already in another unit;
* a Pair Go pair is one woman and one man (the Pair Go rules; ``--sex F,M`` gives each member's
  sex in the order named); the woman is recorded first, as she plays first;
* a unit's name is unique (ignoring case), at most 80 characters;
* a unit that has played (a game or a bye under its first member) is not dissolved.

>>> from goledger.replay.fold.state import fold
>>> from goledger.ledger import events as ev
>>> state = fold([ev.TournamentCreated(settings=ev.TournamentSettings(name="T", rounds=3, system="rengo2")),
...               ev.PlayerRegistered(player_id="p0001", surname="A", rank="1d"),
...               ev.PlayerRegistered(player_id="p0002", surname="B", rank="2k")])
>>> decide_unit_add(state, "A+B", ["p0001", "p0002"])
[UnitFormed(unit_id='u001', name='A+B', members=('p0001', 'p0002'), sexes=())]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Unpack

from goledger.commands.checks import checked_text
from goledger.commands.recording import Outcome, PathLike, Plumbing, first_event, record
from goledger.errors import CommandRejected
from goledger.i18n import N_, gettext
from goledger.i18n.messages import say, say_at
from goledger.ledger import events as ev
from goledger.replay.fold.players import find_player
from goledger.replay.fold.state import TournamentState, UnitState
from goledger.replay.scoring.units import UNIT_SIZE, is_unit_tournament, unit_of_player, unit_player

__all__ = ["decide_unit_add", "decide_unit_remove", "find_unit", "unit_add", "unit_remove"]

_TITLE = {"pairgo": N_("Pair Go pair"), "rengo2": N_("Rengo unit"), "rengo3": N_("Rengo unit")}


def _next_id(state: TournamentState) -> str:
    used = {int(u[1:]) for u in state.units if u[1:].isdigit()}
    return f"u{max(used, default=0) + 1:03d}"


def find_unit(state: TournamentState, ref: str) -> UnitState:
    """A unit by id (``u001``) or name (ignoring case), or a one-sentence refusal."""
    text = ref.strip()
    if text in state.units:
        return state.units[text]
    found = [u for u in state.units.values() if u.name.casefold() == text.casefold()]
    if not found:
        raise CommandRejected(say_at("no unit %(unit)r (goledger unit list)",
                                     N_("no unit %(unit)r (see the list of units)"), unit=text))
    return found[0]


def _sexes(system: str, members: list[str], sexes: Sequence[str]) -> tuple[list[str], tuple[str, ...]]:
    """The members in their order of play and their sexes as stored (Pair Go: the woman first)."""
    given = tuple(s.strip().upper() for s in sexes if s.strip())
    if any(s not in ("F", "M") for s in given):
        raise CommandRejected(say("a member's sex is F or M"))
    if given and len(given) != len(members):
        raise CommandRejected(say("give one sex for each of the %(n)d members (F or M), in their order",
                                  n=len(members)))
    if system != "pairgo":
        return members, given
    if sorted(given) != ["F", "M"]:
        raise CommandRejected(say_at("a Pair Go pair is one woman and one man: give their sexes with --sex F,M",
                                     N_("a Pair Go pair is one woman and one man: choose each member's sex")))
    if given[0] == "M":
        return [members[1], members[0]], ("F", "M")
    return members, given


def decide_unit_add(state: TournamentState, name: str, members: Sequence[str], sexes: Sequence[str] = ()
                    ) -> list[ev.Event]:
    """A ``UnitFormed`` for the players ``members`` (ids, PINs or unique names) under ``name``."""
    if not is_unit_tournament(state):
        raise CommandRejected(say("only a pairgo, rengo2 or rengo3 tournament has units"))
    assert state.settings is not None
    system = state.settings.system
    text = checked_text(name.strip(), "unit name")
    if not text:
        raise CommandRejected(say("a unit needs a name"))
    if len(text) > 80:
        raise CommandRejected(say("a unit name has at most 80 characters"))
    taken = [u for u in state.units.values() if u.name.casefold() == text.casefold()]
    if taken:
        raise CommandRejected(say("unit %(unit)s is already called %(name)r", unit=taken[0].id, name=taken[0].name))
    size = UNIT_SIZE[system]
    if len(members) != size:
        raise CommandRejected(say("a %(unit)s has %(size)d players, not %(n)d", unit=gettext(_TITLE[system]),
                                  size=size, n=len(members)))
    ids = [find_player(state, m).id for m in members]
    if len(set(ids)) != len(ids):
        raise CommandRejected(say("a unit's members are different players"))
    for pid in ids:
        other = unit_of_player(state, pid)
        if other is not None:
            raise CommandRejected(say("%(player)s already plays in unit %(unit)s", player=f"{pid} "
                                      f"{state.players[pid].full_name}", unit=f"{other.id} {other.name}"))
        if state.table_of and any(pid in by for by in state.table_of.values()):
            raise CommandRejected(say("%(player)s already has a game of his own",
                                      player=f"{pid} {state.players[pid].full_name}"))
    ordered, stored = _sexes(system, ids, sexes)
    return [ev.UnitFormed(unit_id=_next_id(state), name=text, members=tuple(ordered), sexes=stored)]


def unit_add_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``unit u001 Ito/Sato formed: p0002 Ito Mai (F), p0001 Sato Ken (M); rank 2d``."""
    e = first_event(events, ev.UnitFormed)
    unit = UnitState(id=e.unit_id, name=e.name, members=e.members, sexes=e.sexes)
    sexes = e.sexes or ("",) * len(e.members)
    names = ", ".join(f"{p} {state.players[p].full_name}" + (f" ({s})" if s else "") for p, s in zip(e.members, sexes,
                                                                                                    strict=True))
    return say("unit %(unit)s formed: %(members)s; rank %(rank)s", unit=f"{e.unit_id} {e.name}", members=names,
               rank=unit_player(state, unit).rank)


def unit_add(db: PathLike, name: str, members: Sequence[str], sexes: Sequence[str] = (),
             **plumbing: Unpack[Plumbing]) -> Outcome:
    """Form a unit (``goledger unit add NAME PLAYER PLAYER [PLAYER] [--sex F,M]``)."""
    return record(db, lambda state: decide_unit_add(state, name, members, sexes), unit_add_message, **plumbing)


def decide_unit_remove(state: TournamentState, unit: str) -> list[ev.Event]:
    """A ``UnitDissolved`` for ``unit``, refused once it has a game or a bye."""
    found = find_unit(state, unit)
    rep = found.representative
    played = [r for r, by in state.table_of.items() if rep in by] + [r for r, by in state.byes.items() if rep in by]
    if played:
        raise CommandRejected(say("unit %(unit)s has played in round %(round)d; it stays",
                                  unit=f"{found.id} {found.name}", round=min(played)))
    return [ev.UnitDissolved(unit_id=found.id)]


def unit_remove_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``unit u002 dissolved``."""
    return say("unit %(unit)s dissolved", unit=first_event(events, ev.UnitDissolved).unit_id)


def unit_remove(db: PathLike, unit: str, **plumbing: Unpack[Plumbing]) -> Outcome:
    """Dissolve a unit that has not played (``goledger unit remove UNIT``)."""
    return record(db, lambda state: decide_unit_remove(state, unit), unit_remove_message, **plumbing)
