"""Events in a director's words, and what each one touches (DESIGN §8, concurrent desks).

:func:`describe_event` turns an event into a short phrase (``"round 4 table 12: result
white by default"``) for refusals and reports; :func:`subjects` names what an event is
about — a table of a round, a player in a round, a player, the rules, a team — so that a
command repeated with ``--retry`` can tell whether the events another desk appended since
its expected head concern the same thing (a conflict) or something else (safe to append).

>>> from goledger.ledger import events as ev
>>> from goledger.ledger.values import Result
>>> describe_event(ev.ResultRecorded(round=4, table=12, result=Result.WHITE, by_default=True))
'round 4 table 12: result white by default'
>>> sorted(subjects(ev.GamePaired(round=2, table=3, white="p0001", black="p0002")))
[('player in round', 'p0001', 2), ('player in round', 'p0002', 2), ('table', 2, 3)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from goledger.ledger import events as ev
from goledger.ledger.result_notation import margin_words

__all__ = ["Subject", "describe_event", "describe_subject", "edit_words", "origin_text", "subjects"]


def origin_text(origin: ev.ListProvenance | None) -> str:
    """Where a registration's fields came from (issue 34), as a clause to append, or ``""``.

    >>> origin_text(ev.ListProvenance(source="egd", date="2019-02-22", sha256="0" * 64, fields=("rank", "rating")))
    '; rank, rating from the egd list of 2019-02-22'
    """
    if origin is None:
        return ""
    if origin.fields:
        return f"; {', '.join(origin.fields)} from the {origin.describe()}"
    if not origin.listed:
        return f"; PIN not in the {origin.describe()}"
    return f"; checked against the {origin.describe()}"

Subject = tuple[Any, ...]
"""``("table", round, table)``, ``("player in round", id, round)``, ``("player", id)``,
``("team", id)``, ``("round", round)`` (a whole round's pairing), ``("round shown", round)``
(showing it to the players) or ``("rules",)``."""

NameOf = Callable[[str], str]


def _plain(player_id: str) -> str:
    return player_id


def describe_event(event: ev.Event, name_of: NameOf | None = None) -> str:
    """A short phrase for ``event``; ``name_of`` turns a player id into ``"p0007 Sato Ken"``."""
    who = name_of or _plain
    match event:
        case ev.TournamentCreated(settings=s):
            count = "rounds set at the draw" if s.system_options.get("rounds_at_draw") else f"{s.rounds} rounds"
            return f"tournament {s.name!r} created ({count})"
        case ev.RulesChanged(changes=changes, from_round=from_round):
            scope = "" if from_round is None else f" from round {from_round}"
            return f"rules changed{scope}: {', '.join(sorted(changes))}"
        case ev.PlayerRegistered(player_id=pid, surname=surname, first_name=first, rank=rank, rating_list=origin):
            return f"{pid} {surname} {first}".rstrip() + f" registered ({rank})" + origin_text(origin)
        case ev.PlayerUpdated(player_id=pid, changes=changes):
            return f"{who(pid)} updated: {', '.join(sorted(changes))}"
        case ev.PlayerWithdrew(player_id=pid, from_round=r):
            return f"{who(pid)} withdrew from round {r}"
        case ev.PlayerReinstated(player_id=pid, from_round=r):
            return f"{who(pid)} reinstated from round {r}"
        case ev.PlayerUnregistered(player_id=pid):
            return f"registration of {who(pid)} cancelled"
        case ev.ParticipationChanged(player_id=pid, round=r, participating=participating):
            return f"{who(pid)} {'present' if participating else 'absent'} in round {r}"
        case ev.ByeAssigned(player_id=pid, round=r, forced=forced):
            return f"{who(pid)} has the bye in round {r}" + (" (forced)" if forced else "")
        case ev.ByeRemoved(player_id=pid, round=r):
            return f"bye of {who(pid)} in round {r} removed"
        case ev.GamePaired(round=r, table=t, white=w, black=b, forced=forced):
            return f"round {r} table {t}: {who(w)} (W) – {who(b)} (B) paired" + (" (forced)" if forced else "")
        case ev.PairingRemoved(round=r, table=t):
            return f"round {r} table {t}: unpaired"
        case ev.ResultRecorded(round=r, table=t, result=result, by_default=by_default, margin=margin):
            return (f"round {r} table {t}: result {result.value}" + margin_words(margin)
                    + (" by default" if by_default and margin != "F" else ""))
        case ev.ResultCorrected(round=r, table=t, result=result, by_default=by_default, margin=margin):
            return (f"round {r} table {t}: result corrected to {result.value}" + margin_words(margin)
                    + (" by default" if by_default and margin != "F" else ""))
        case ev.GameEdited():
            return f"round {event.round} table {event.table}: {edit_words(event)}"
        case ev.GameMoved(round=r, table=t, to_table=to, forced=forced):
            return f"round {r} table {t}: moved to table {to}" + (" (forced)" if forced else "")
        case ev.TablesRenumbered(round=r, tables=tables, order=order):
            how = f" ({order})" if order else ""
            return f"round {r}: {len(tables)} tables renumbered{how}"
        case ev.PairingAnnotated(round=r, table=t, bye=bye):
            return f"bye of {who(bye)} in round {r} annotated" if bye else f"round {r} table {t}: pairing annotated"
        case ev.PairingConstraintSet(player_a=a, player_b=b, constraint=constraint, from_round=low, until_round=high):
            scope = (f" from round {low}" if low is not None else "") + (f" until round {high}" if high is not None
                                                                         else "")
            return f"{who(a)} and {who(b)}: pairing {constraint}{scope}" if constraint != "none" else (
                f"{who(a)} and {who(b)}: pairing constraint lifted")
        case ev.PairingFixed(round=r, player_a=a, player_b=b, table=t, lifted=lifted):
            at = f" at table {t}" if t is not None else ""
            return (f"round {r}: fixed pairing of {who(a)} and {who(b)} lifted" if lifted
                    else f"round {r}: {who(a)} and {who(b)} fixed to play{at}")
        case ev.TableFixed(player_id=pid, table=t, from_round=r):
            return (f"{who(pid)} plays at table {t} from round {r}" if t is not None
                    else f"{who(pid)} no longer fixed to a table from round {r}")
        case ev.RoundPaired(round=r, engine=engine, tables=tables, bye=bye):
            return f"round {r} paired by {engine}: {len(tables)} games" + (f", bye {who(bye)}" if bye else "")
        case ev.RoundUnpaired(round=r):
            return f"round {r}: pairing withdrawn"
        case ev.RoundShown(round=r):
            return f"round {r}: pairing shown to the players"
        case ev.TeamRegistered(team_id=tid, name=name):
            return f"team {tid} {name} registered"
        case ev.TeamMemberAssigned(team_id=tid, player_id=pid, board=board, round=r, from_round=start):
            return f"{who(pid)} on board {board} of team {tid}" + _rounds_phrase(r, start)
        case ev.TeamMemberRemoved(team_id=tid, player_id=pid, round=r, from_round=start):
            return f"{who(pid)} off team {tid}" + _rounds_phrase(r, start)
        case ev.TeamRemoved(team_id=tid):
            return f"team {tid} removed"
        case ev.SourceImported(format=fmt, filename=filename):
            return f"imported from {fmt} file {filename}"
        case ev.Checkpoint(label=label, event_count=count):
            return f"checkpoint {label!r} (vouches for events 1..{count})"
        case ev.PseudonymisedCopy(original_events=count):
            return f"pseudonymised copy of {count} events"
    return event.type_name()


def _rounds_phrase(round_: int | None, from_round: int | None) -> str:
    if round_ is not None:
        return f" in round {round_}"
    return f" from round {from_round}" if from_round is not None else ""


def edit_words(event: ev.GameEdited) -> str:
    """What one hand edit changed, in words: ``"colours swapped"``, ``"handicap 2"``…

    >>> edit_words(ev.GameEdited(round=1, table=2, komi="6.5", forced=True))
    'komi 6.5 (forced: it had a result)'
    """
    parts = (["colours swapped"] if event.swap_colours else []) + (
        [f"handicap {event.handicap}"] if event.handicap is not None else []) + (
        [f"komi {event.komi}"] if event.komi is not None else [])
    return (", ".join(parts) or "edited") + (" (forced: it had a result)" if event.forced else "")


def subjects(event: ev.Event) -> set[Subject]:
    """What ``event`` is about (see :data:`Subject`); provenance events touch nothing."""
    match event:
        case ev.GamePaired(round=r, table=t, white=w, black=b):
            return {("table", r, t), ("player in round", w, r), ("player in round", b, r)}
        case ev.PairingRemoved(round=r, table=t) | ev.ResultRecorded(round=r, table=t) | ev.ResultCorrected(
            round=r, table=t
        ):
            return {("table", r, t)}
        case ev.GameEdited(round=r, table=t):
            return {("table", r, t)}
        case ev.GameMoved(round=r, table=t, to_table=to):
            return {("table", r, t), ("table", r, to)}
        case ev.TablesRenumbered(round=r):
            return {("round", r)}
        case ev.ByeAssigned(player_id=pid, round=r) | ev.ByeRemoved(player_id=pid, round=r):
            return {("player in round", pid, r)}
        case ev.ParticipationChanged(player_id=pid, round=r):
            return {("player in round", pid, r)}
        case ev.PlayerRegistered(player_id=pid) | ev.PlayerUpdated(player_id=pid):
            return {("player", pid)}
        case ev.PlayerWithdrew(player_id=pid) | ev.PlayerReinstated(player_id=pid):
            return {("player", pid)}
        case ev.PlayerUnregistered(player_id=pid):
            return {("player", pid)}
        case ev.TournamentCreated() | ev.RulesChanged():
            return {("rules",)}
        case ev.TeamRegistered(team_id=tid) | ev.TeamMemberAssigned(team_id=tid) | ev.TeamMemberRemoved(
            team_id=tid
        ) | ev.TeamRemoved(team_id=tid):
            return {("team", tid)}
        case ev.PairingAnnotated(round=r, table=t, bye=bye):
            return {("player in round", bye, r)} if bye else {("table", r, t)}
        case ev.PairingConstraintSet(player_a=a, player_b=b):
            return {("player", a), ("player", b)}
        case ev.PairingFixed(round=r, player_a=a, player_b=b):
            return {("player in round", a, r), ("player in round", b, r)}
        case ev.TableFixed(player_id=pid):
            return {("player", pid)}
        case ev.RoundPaired(round=r, players=players):
            return {("player in round", p, r) for p in players}
        case ev.RoundUnpaired(round=r):
            return {("round", r)}
        case ev.RoundShown(round=r):
            return {("round shown", r)}
    return set()


def describe_subject(subject: Subject, name_of: NameOf | None = None) -> str:
    """``("table", 4, 12)`` → ``"round 4 table 12"``."""
    who = name_of or _plain
    kind = subject[0]
    if kind == "table":
        return f"round {subject[1]} table {subject[2]}"
    if kind == "player in round":
        return f"{who(subject[1])} in round {subject[2]}"
    if kind == "player":
        return who(subject[1])
    if kind == "team":
        return f"team {subject[1]}"
    if kind == "round":
        return f"the pairing of round {subject[1]}"
    if kind == "round shown":
        return f"showing round {subject[1]} to the players"
    return "the tournament rules"


def names_from(players: Mapping[str, Any]) -> NameOf:
    """A ``name_of`` for a state's ``players`` mapping (unknown ids stay ids)."""

    def name_of(player_id: str) -> str:
        p = players.get(player_id)
        return f"{player_id} {p.full_name}" if p is not None else player_id

    return name_of


def all_subjects(events: Iterable[ev.Event]) -> set[Subject]:
    out: set[Subject] = set()
    for event in events:
        out |= subjects(event)
    return out


__all__ += ["all_subjects", "names_from"]
