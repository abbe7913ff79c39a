"""Events in a director's words (DESIGN §8): the phrases refusals, conflicts, reports and the
desk's log show, in the language written in (``goledger.i18n``).

:func:`describe_event` turns an event into a short phrase (``"round 4 table 12: result
white by default"``); :func:`describe_subject` names what an event touches
(:func:`goledger.ledger.subjects.subjects`: a table of a round, a player in a round, a player,
the rules, a team) for a ``--retry`` conflict. The ledger itself holds no words: this module
stands above it and above ``replay`` (``tests/test_layers.py``).

>>> from goledger.ledger import events as ev
>>> from goledger.ledger.values import Result
>>> describe_event(ev.ResultRecorded(round=4, table=12, result=Result.WHITE, by_default=True))
'round 4 table 12: result white by default'
>>> describe_event(ev.ResultRecorded(round=1, table=2, result=Result.BLACK, margin="R"))
'round 1 table 2: result black by resignation'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from goledger.i18n import gettext, pgettext
from goledger.i18n.numbers import decimal, numeric_date
from goledger.ledger import events as ev

if TYPE_CHECKING:
    from goledger.ledger.subjects import Subject

__all__ = ["NameOf", "board_words", "describe_event", "describe_subject", "edit_words", "margin_words",
           "origin_text", "result_word"]


def origin_text(origin: ev.ListProvenance | None) -> str:
    """Where a registration's fields came from (issue 34), as a clause to append, or ``""``.

    >>> origin_text(ev.ListProvenance(source="egd", date="2019-02-22", sha256="0" * 64, fields=("rank", "rating")))
    '; rank, rating from the egd list of 2019-02-22'
    """
    if origin is None:
        return ""

    names = {"fields": ", ".join(origin.fields), "source": origin.source, "date": numeric_date(origin.date)}
    if origin.fields:
        return "; " + gettext("%(fields)s from the %(source)s list of %(date)s") % names
    if not origin.listed:
        return "; " + gettext("PIN not in the %(source)s list of %(date)s") % names
    return "; " + gettext("checked against the %(source)s list of %(date)s") % names

NameOf = Callable[[str], str]


def _plain(player_id: str) -> str:
    return player_id


def describe_event(event: ev.Event, name_of: NameOf | None = None) -> str:
    """A short phrase for ``event``; ``name_of`` turns a player id into ``"p0007 Sato Ken"``."""
    who = name_of or _plain
    forced = " " + gettext("(forced)")
    phrase = _player_phrase(event, who, forced) or _game_phrase(event, who, forced)
    if phrase:
        return phrase
    match event:
        case ev.TournamentCreated(settings=s):
            if s.system_options.get("rounds_at_draw"):
                return gettext("tournament %(name)s created (rounds set at the draw)") % {"name": repr(s.name)}
            return gettext("tournament %(name)s created (%(rounds)d rounds)") % {"name": repr(s.name),
                                                                                 "rounds": s.rounds}
        case ev.RulesChanged(changes=changes, from_round=from_round):
            names = {"changes": ", ".join(sorted(changes)), "round": from_round}
            if from_round is None:
                return gettext("rules changed: %(changes)s") % names
            return gettext("rules changed from round %(round)d: %(changes)s") % names
        case ev.SourceImported(format=fmt, filename=filename):
            return gettext("imported from %(format)s file %(file)s") % {"format": fmt, "file": filename}
        case ev.Checkpoint(label=label, event_count=count):
            return gettext("checkpoint %(label)s (vouches for events 1..%(count)d)") % {"label": repr(label),
                                                                                        "count": count}
        case ev.PseudonymisedCopy(original_events=count):
            return gettext("pseudonymised copy of %(count)d events") % {"count": count}
    return event.type_name()


def _player_phrase(event: ev.Event, who: NameOf, forced: str) -> str | None:
    """The phrase of a player's or a team's event (registration, presence, bye, table, board)."""
    match event:
        case ev.PlayerRegistered(player_id=pid, surname=surname, first_name=first, rank=rank, rating_list=origin):
            return gettext("%(player)s registered (%(rank)s)") % {
                "player": f"{pid} {surname} {first}".rstrip(), "rank": rank} + origin_text(origin)
        case ev.PlayerUpdated(player_id=pid, changes=changes):
            return gettext("%(player)s updated: %(changes)s") % {"player": who(pid),
                                                                 "changes": ", ".join(sorted(changes))}
        case ev.PlayerWithdrew(player_id=pid, from_round=r):
            return gettext("%(player)s withdrew from round %(round)d") % {"player": who(pid), "round": r}
        case ev.PlayerReinstated(player_id=pid, from_round=r):
            return gettext("%(player)s reinstated from round %(round)d") % {"player": who(pid), "round": r}
        case ev.PlayerUnregistered(player_id=pid):
            return gettext("registration of %(player)s cancelled") % {"player": who(pid)}
        case ev.ParticipationChanged(player_id=pid, round=r, participating=participating):
            return (gettext("%(player)s present in round %(round)d") if participating
                    else gettext("%(player)s absent in round %(round)d")) % {"player": who(pid), "round": r}
        case ev.CheckedIn(player_id=pid, round=r):
            return gettext("%(player)s checked in for round %(round)d") % {"player": who(pid), "round": r}
        case ev.ByeAssigned(player_id=pid, round=r, forced=is_forced):
            return gettext("%(player)s has the bye in round %(round)d") % {"player": who(pid), "round": r} + (
                forced if is_forced else "")
        case ev.ByeRemoved(player_id=pid, round=r):
            return gettext("bye of %(player)s in round %(round)d removed") % {"player": who(pid), "round": r}
        case ev.TableFixed(player_id=pid, table=t, from_round=r):
            names = {"player": who(pid), "table": t, "round": r}
            return (gettext("%(player)s plays at table %(table)d from round %(round)d") if t is not None
                    else gettext("%(player)s no longer fixed to a table from round %(round)d")) % names
        case ev.TeamRegistered(team_id=tid, name=name):
            return gettext("team %(team)s %(name)s registered") % {"team": tid, "name": name}
        case ev.TeamMemberAssigned(team_id=tid, player_id=pid, board=board, round=r, from_round=start):
            return gettext("%(player)s on board %(board)d of team %(team)s") % {
                "player": who(pid), "board": board, "team": tid} + _rounds_phrase(r, start)
        case ev.TeamMemberRemoved(team_id=tid, player_id=pid, round=r, from_round=start):
            return gettext("%(player)s off team %(team)s") % {"player": who(pid), "team": tid} + _rounds_phrase(
                r, start)
        case ev.TeamRemoved(team_id=tid):
            return gettext("team %(team)s removed") % {"team": tid}
        case ev.UnitFormed(unit_id=uid, name=name, members=members):
            return gettext("unit %(unit)s %(name)s formed: %(members)s") % {
                "unit": uid, "name": name, "members": ", ".join(who(p) for p in members)}
        case ev.UnitDissolved(unit_id=uid):
            return gettext("unit %(unit)s dissolved") % {"unit": uid}
    return None


def _game_phrase(event: ev.Event, who: NameOf, forced: str) -> str | None:
    """The phrase of a game's or a round's event (pairing, result, edit, constraint)."""
    match event:
        case ev.GamePaired(round=r, table=t, white=w, black=b, forced=is_forced):
            return gettext("round %(round)d table %(table)d: %(white)s (W) – %(black)s (B) paired") % {
                "round": r, "table": t, "white": who(w), "black": who(b)} + (forced if is_forced else "")
        case ev.PairingRemoved(round=r, table=t):
            return gettext("round %(round)d table %(table)d: unpaired") % {"round": r, "table": t}
        case ev.ResultRecorded(round=r, table=t, result=result, by_default=by_default, margin=margin):
            return (gettext("round %(round)d table %(table)d: result %(result)s") % {
                "round": r, "table": t, "result": result_word(result.value)} + margin_words(margin)
                + (" " + gettext("by default") if by_default and margin != "F" else ""))
        case ev.ResultCorrected(round=r, table=t, result=result, by_default=by_default, margin=margin):
            return (gettext("round %(round)d table %(table)d: result corrected to %(result)s") % {
                "round": r, "table": t, "result": result_word(result.value)} + margin_words(margin)
                + (" " + gettext("by default") if by_default and margin != "F" else ""))
        case ev.ResultClaimed(round=r, table=t, player_id=pid, outcome=outcome, margin=margin):
            return board_words(r, t) + ": " + _CLAIM_WORDS[outcome]() % {"player": who(pid)} + margin_words(margin)
        case ev.GameEdited():
            return board_words(event.round, event.table) + f": {edit_words(event)}"
        case ev.GameMoved(round=r, table=t, to_table=to, forced=is_forced):
            return gettext("round %(round)d table %(table)d: moved to table %(to)d") % {
                "round": r, "table": t, "to": to} + (forced if is_forced else "")
        case ev.TablesRenumbered(round=r, tables=tables, order=order):
            how = f" ({order})" if order else ""
            return gettext("round %(round)d: %(count)d tables renumbered") % {"round": r, "count": len(tables)} + how
        case ev.PairingAnnotated(round=r, table=t, bye=bye):
            if bye:
                return gettext("bye of %(player)s in round %(round)d annotated") % {"player": who(bye), "round": r}
            return gettext("round %(round)d table %(table)d: pairing annotated") % {"round": r, "table": t}
        case ev.PairingConstraintSet(player_a=a, player_b=b, constraint=constraint, from_round=low, until_round=high):
            names = {"a": who(a), "b": who(b), "constraint": constraint, "from": low, "until": high}
            if constraint == "none":
                return gettext("%(a)s and %(b)s: pairing constraint lifted") % names
            scope = ((" " + gettext("from round %(round)d") % {"round": low} if low is not None else "")
                     + (" " + gettext("until round %(round)d") % {"round": high} if high is not None else ""))
            return gettext("%(a)s and %(b)s: pairing %(constraint)s") % names + scope
        case ev.PairingFixed(round=r, player_a=a, player_b=b, table=t, lifted=lifted):
            names = {"round": r, "a": who(a), "b": who(b), "table": t}
            if lifted:
                return gettext("round %(round)d: fixed pairing of %(a)s and %(b)s lifted") % names
            if t is not None:
                return gettext("round %(round)d: %(a)s and %(b)s fixed to play at table %(table)d") % names
            return gettext("round %(round)d: %(a)s and %(b)s fixed to play") % names
        case ev.RoundPaired(round=r, engine=engine, tables=tables, bye=bye):
            return gettext("round %(round)d paired by %(engine)s: %(games)d games") % {
                "round": r, "engine": engine, "games": len(tables)} + (
                ", " + gettext("bye %(player)s") % {"player": who(bye)} if bye else "")
        case ev.RoundUnpaired(round=r):
            return gettext("round %(round)d: pairing withdrawn") % {"round": r}
        case ev.RoundShown(round=r):
            return gettext("round %(round)d: pairing shown to the players") % {"round": r}
        case ev.StandingsFrozen(reason=why):
            return gettext("standings frozen: %(reason)s") % {"reason": why}
        case ev.StandingsUnfrozen(reason=why):
            return gettext("standings unfrozen: %(reason)s") % {"reason": why}
    return None


_CLAIM_WORDS: Final[dict[str, Callable[[], str]]] = {
    "won": lambda: gettext("%(player)s reports a win"), "lost": lambda: gettext("%(player)s reports a loss"),
    "jigo": lambda: gettext("%(player)s reports a jigo")}
"""A player's own report (``ResultClaimed``, issue 46), by its outcome."""


def _rounds_phrase(round_: int | None, from_round: int | None) -> str:
    if round_ is not None:
        return " " + gettext("in round %(round)d") % {"round": round_}
    return " " + gettext("from round %(round)d") % {"round": from_round} if from_round is not None else ""


def margin_words(margin: str) -> str:
    """The margin annotation in words, to follow a result: ``" by resignation"``, ``" on
    time"``, ``" by forfeit"``, ``" by 2.5"`` (``""`` without a margin).

    >>> margin_words("R"), margin_words("2.5"), margin_words("")
    (' by resignation', ' by 2.5', '')
    """
    if not margin:
        return ""
    words = {"R": gettext("by resignation"), "T": gettext("on time"), "F": gettext("by forfeit")}
    return " " + words.get(margin, gettext("by %(margin)s") % {"margin": margin})


def board_words(round_: int, table: int) -> str:
    """``round 4 table 12``, in the language written in."""
    return gettext("round %(round)d table %(table)d") % {"round": round_, "table": table}


_RESULT_WORDS: Final[dict[str, Callable[[], str]]] = {
    "white": lambda: pgettext("the result", "white"), "black": lambda: pgettext("the result", "black"),
    "jigo": lambda: pgettext("the result", "jigo"), "both-win": lambda: pgettext("the result", "both win"),
    "both-lose": lambda: pgettext("the result", "both lose"), "unknown": lambda: pgettext("the result", "unknown")}
"""Each stored result's words, translated when asked for (one lookup, not six: an audit report
describes some 20,000 results)."""


def result_word(result: str) -> str:
    """A result as stored (``white``, ``black``, ``jigo``, ``both-win``, ``both-lose``, ``unknown``)
    in words.

    >>> result_word("both-win"), result_word("?")
    ('both win', '?')
    """
    word = _RESULT_WORDS.get(result)
    return word() if word is not None else result


def edit_words(event: ev.GameEdited) -> str:
    """What one hand edit changed, in words: ``"colours swapped"``, ``"handicap 2"``…

    >>> edit_words(ev.GameEdited(round=1, table=2, komi="6.5", forced=True))
    'komi 6.5 (forced: it had a result)'
    """
    parts = ([gettext("colours swapped")] if event.swap_colours else []) + (
        [gettext("handicap %(stones)s") % {"stones": event.handicap}] if event.handicap is not None else []) + (
        [gettext("komi %(komi)s") % {"komi": decimal(event.komi)}] if event.komi is not None else [])
    return (", ".join(parts) or gettext("edited")) + (" " + gettext("(forced: it had a result)") if event.forced
                                                      else "")


def describe_subject(subject: Subject, name_of: NameOf | None = None) -> str:
    """``("table", 4, 12)`` → ``"round 4 table 12"``."""
    who = name_of or _plain
    kind = subject[0]
    if kind == "table":
        return board_words(subject[1], subject[2])
    if kind == "player in round":
        return gettext("%(player)s in round %(round)d") % {"player": who(subject[1]), "round": subject[2]}
    if kind == "player":
        return who(subject[1])
    if kind == "team":
        return gettext("team %(team)s") % {"team": subject[1]}
    if kind == "round":
        return gettext("the pairing of round %(round)d") % {"round": subject[1]}
    if kind == "report":
        return gettext("the report of %(player)s in round %(round)d") % {"player": who(subject[1]),
                                                                           "round": subject[2]}
    if kind == "round shown":
        return gettext("showing round %(round)d to the players") % {"round": subject[1]}
    return gettext("the tournament rules")


def names_from(players: Mapping[str, Any]) -> NameOf:
    """A ``name_of`` for a state's ``players`` mapping (unknown ids stay ids)."""

    def name_of(player_id: str) -> str:
        p = players.get(player_id)
        return f"{player_id} {p.full_name}" if p is not None else player_id

    return name_of


__all__ += ["names_from"]
