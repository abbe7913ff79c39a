"""Hand edits that follow the rules (issue 31): pairing two players by hand, editing a game,
renumbering a round's tables.

Each command is a pure decider (``decide_*``: state + intent → events, or a one-sentence
:class:`~goledger.errors.CommandRejected`) and a thin wrapper that appends its events in one
transaction (:func:`goledger.commands.recording.record`).

* :func:`decide_pair` — ``goledger pair --round R A B``: colours, handicap and komi from
  :class:`~goledger.commands.hand_rules.GameRule`, the function ``pair-round``'s engine uses;
  ``--white A --black B`` fixes the colours, ``--handicap``/``--komi`` override the rule, and
  ``GamePaired.by_hand`` names what was given by hand. Without ``--table`` the game takes the
  table fixed for one of its players (``goledger fix-table``) when free, else the first free
  table of the round.
* :func:`decide_edit_game` — ``goledger edit-game --round R --table T``: one event per edit
  (``GameEdited`` for ``--swap-colours``, ``--handicap``, ``--komi``; ``GameMoved`` for
  ``--move-to``, swapping with a game already there). A game with a result is refused unless
  ``force``; the result then stays with the players (a swapped white win is a black win).
* :func:`decide_renumber_tables` — ``goledger renumber-tables --round R``: OpenGotha's order
  (``renumberTablesByBestScoreThenRating``: each game by its better player, placement on the
  tournament's criteria before the round, then rating), numbered from ``start`` skipping
  ``skip`` and the tables fixed for a player of another game; ``keep_order`` only shifts.
  One ``TablesRenumbered`` event: results follow their game.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, Final, Unpack

from goledger.commands.checks import (
    REPEATS_REFUSED,
    check_available,
    check_handicap,
    check_round,
    check_system,
    check_table,
    game_at,
    parse_komi,
)
from goledger.commands.hand_rules import GOTHA_RULE, GameRule, RuledGame
from goledger.commands.recording import Outcome, PathLike, Plumbing, first_event, record
from goledger.describe.events import edit_words, result_word
from goledger.errors import CommandRejected
from goledger.i18n import N_, gettext
from goledger.i18n.messages import nsay, say, say_at
from goledger.i18n.numbers import decimal
from goledger.ledger import events as ev
from goledger.ledger.values import Result, effective_komi
from goledger.replay.fold.players import find_player
from goledger.replay.fold.state import GameState, TournamentState

__all__ = [
    "PairOutcome",
    "decide_edit_game",
    "decide_late_absences",
    "decide_pair",
    "decide_renumber_tables",
    "edit_game",
    "first_free_table",
    "game_json",
    "late_absences_text",
    "pair",
    "renumber_tables",
]


class PairOutcome(Outcome, frozen=True, kw_only=True):
    """What ``pair`` decided: ``game`` as :func:`game_json` shows it; ``dry_run``: nothing
    was written (``records`` is empty)."""

    game: dict[str, Any]
    dry_run: bool = False


def game_json(state: TournamentState, event: ev.GamePaired) -> dict[str, Any]:
    """A game as the JSON of ``pair`` and ``pair-round`` shows it (players with their names,
    the komi it is played with, and what was given by hand)."""

    def who(pid: str) -> dict[str, str]:
        p = state.players[pid]
        return {"id": pid, "surname": p.surname, "first_name": p.first_name}

    assert state.settings is not None
    komi = effective_komi(state.settings_for_round(event.round).komi, event.komi, event.handicap)
    return {"round": event.round, "table": event.table, "white": who(event.white), "black": who(event.black),
            "handicap": event.handicap, "komi": komi, "by_hand": list(event.by_hand), "forced": event.forced}


def first_free_table(state: TournamentState, round_: int, players: Iterable[str] = ()) -> int:
    """The table a new game of ``players`` takes in ``round_``: one fixed for one of them
    (``TableFixed``) when free, else the lowest table that has no game and is fixed for no
    other player.

    >>> from goledger.replay.fold.state import fold
    >>> first_free_table(fold([]), 1)
    1
    """
    used = set(state.games.get(round_, {}))
    mine = set(players)
    for pid in mine:
        fixed = state.fixed_table(pid, round_)
        if fixed is not None and fixed not in used:
            return fixed
    reserved = {t for pid in state.fixed_tables if pid not in mine
                if (t := state.fixed_table(pid, round_)) is not None}
    table = 1
    while table in used or table in reserved:
        table += 1
    return table


def _name(state: TournamentState, pid: str) -> str:
    return state.players[pid].full_name


def decide_pair(
    state: TournamentState,
    round_: int,
    first: str,
    second: str,
    *,
    colours_by_hand: bool = False,
    table: int | None = None,
    handicap: int | None = None,
    komi: str | None = None,
    color_known: bool = True,
    force: bool = False,
    rule: GameRule | None = None,
) -> list[ev.Event]:
    """The ``GamePaired`` of ``first`` and ``second`` (player references) in ``round_``.

    Without ``colours_by_hand`` the rule (``rule``, else :class:`GameRule` of the round)
    chooses the colours; with it ``first`` is White and ``second`` Black. The handicap and
    komi are the rule's for the pair unless given; when the rule gives a handicap game with
    the other colours, hand colours are refused unless the handicap is given too. Unless
    ``force`` (then the event says ``forced``), refuses a forbidden pair, an absent or
    withdrawn player, and in McMahon, Swiss and SwissCat a repeat of a game of another round.
    """
    check_round(state, round_)
    assert state.settings is not None
    check_handicap(handicap)
    komi_text = parse_komi(komi)
    a = find_player(state, first)
    b = find_player(state, second)
    if a.id == b.id:
        raise CommandRejected(say("%(player)s cannot play himself", player=f"{a.id} {a.full_name}"))
    overridden: list[str] = []
    check_available(state, a, round_, overridden if force else None)
    check_available(state, b, round_, overridden if force else None)
    met = sorted(g.round for g in state.all_games() if g.round != round_ and {g.white, g.black} == {a.id, b.id})
    if met and state.settings.system in REPEATS_REFUSED:
        if not force:
            raise CommandRejected(say_at("%(a)s and %(b)s already played in round %(round)d; use --force to pair them "
                                         "again", N_("%(a)s and %(b)s already played in round %(round)d; tick “Even if "
                                         "forbidden or a repeat” to pair them again"), a=f"{a.id} {a.full_name}",
                                         b=f"{b.id} {b.full_name}", round=met[0]))
        overridden.append(say("a repeat of round %(round)d", round=met[0]))
    if state.constraint_in(a.id, b.id, round_) == "forbidden":
        if not force:
            raise CommandRejected(say_at("%(a)s and %(b)s must not be paired in round %(round)d (goledger forbid); "
                                         "use --force to pair them anyway",
                                         N_("%(a)s and %(b)s must not be paired in round %(round)d; tick “Even if "
                                         "forbidden or a repeat” to pair them anyway"), a=f"{a.id} {a.full_name}",
                                         b=f"{b.id} {b.full_name}", round=round_))
        overridden.append("a forbidden pair")
    if colours_by_hand and handicap is not None and komi_text is not None:
        ruled = RuledGame(white=a.id, black=b.id, handicap=handicap, komi=komi_text, rule="hand")  # nothing to ask
    else:
        ruled = (rule or GameRule(state, round_)).game(a.id, b.id)
    by_hand: list[str] = []
    white, black = ruled.white, ruled.black
    if colours_by_hand:
        by_hand.append("colours")
        white, black = a.id, b.id
        if (white, black) != (ruled.white, ruled.black) and ruled.handicap and handicap is None:
            raise CommandRejected(say_at(
                "the tournament's rule gives %(ruled)s White with handicap %(stones)d; with %(white)s White give the "
                "handicap by hand (--handicap 0 for an even game)",
                N_("the tournament's rule gives %(ruled)s White with handicap %(stones)d; with %(white)s White give "
                   "the handicap by hand (0 for an even game)"), ruled=_name(state, ruled.white),
                stones=ruled.handicap, white=_name(state, white)))
    if handicap is not None:
        by_hand.append("handicap")
    if komi_text is not None:
        by_hand.append("komi")
    number = table if table is not None else first_free_table(state, round_, (a.id, b.id))
    check_table(number)
    games = state.games.get(round_, {})
    if number in games:
        g = games[number]
        raise CommandRejected(say("table %(table)d of round %(round)d is taken (%(white)s vs %(black)s)", table=number,
                                  round=round_, white=g.white, black=g.black))
    event = ev.GamePaired(
        round=round_, table=number, white=white, black=black,
        handicap=ruled.handicap if handicap is None else handicap,
        komi=ruled.komi if komi_text is None else komi_text,
        color_known=color_known, forced=bool(overridden), by_hand=tuple(by_hand),  # type: ignore[arg-type]
    )
    check_system(state, event)
    return [event]


def pair_message(state: TournamentState, event: ev.GamePaired, ruled: str, forced: Sequence[str] = ()) -> str:
    """``round 1 table 3: Fischer Ann (W) – Smet Bo (B), handicap 4, komi 0.5 (rule …)``."""
    data = game_json(state, event)
    rule = _rule_words(ruled)
    hand = ", ".join(gettext(_BY_HAND.get(part, part)) for part in event.by_hand)
    how = (rule if not event.by_hand else say("%(parts)s by hand", parts=hand) if len(event.by_hand) >= 3
           else say("%(parts)s by hand, the rest by %(rule)s", parts=hand, rule=rule))
    if forced:
        how = say("%(how)s; forced: %(forced)s", how=how, forced=", ".join(forced))
    game = {"round": event.round, "table": event.table, "white": _name(state, event.white),
            "black": _name(state, event.black), "komi": decimal(str(data["komi"])), "how": how}
    if event.handicap:
        return say("round %(round)d table %(table)d: %(white)s (W) – %(black)s (B), handicap %(stones)d, komi %(komi)s "
                   "(%(how)s)", stones=event.handicap, **game)
    return say("round %(round)d table %(table)d: %(white)s (W) – %(black)s (B), komi %(komi)s (%(how)s)", **game)


_BY_HAND: Final = {"colours": N_("colours"), "handicap": N_("handicap"), "komi": N_("komi")}
"""What a hand-paired game's ``by_hand`` names, in words."""


def _rule_words(ruled: str) -> str:
    """The rule that gave the rest of a hand-paired game, in the language written in."""
    if ruled == GOTHA_RULE:
        return gettext("OpenGotha's gameBetween")
    engine = re.fullmatch(r"the (\S+) engine's rule", ruled)
    return say("the %(engine)s engine's rule", engine=engine.group(1)) if engine else ruled


def _forced_reasons(state: TournamentState, event: ev.GamePaired) -> list[str]:
    """Why a forced game needed ``--force`` (for the message)."""
    out: list[str] = []
    for pid in (event.white, event.black):
        p = state.players[pid]
        if p.is_withdrawn(event.round):
            out.append(say("%(player)s withdrew", player=pid))
        elif event.round in p.absences:
            out.append(say("%(player)s absent", player=pid))
    met = sorted(g.round for g in state.all_games()
                 if g.round != event.round and {g.white, g.black} == {event.white, event.black})
    if met:
        out.append(say("a repeat of round %(round)d", round=met[0]))
    if state.constraint_in(event.white, event.black, event.round) == "forbidden":
        out.append(say("a forbidden pair"))
    return out


def _pair_players(players: Sequence[str], white: str | None, black: str | None) -> tuple[str, str, bool]:
    """(first, second, colours by hand) of ``pair``'s two ways of naming the players."""
    refs = [r for r in players if r]
    if refs and (white or black):
        raise CommandRejected(say("name the two players either as PLAYER PLAYER or as --white and --black, not both"))
    if refs:
        if len(refs) != 2:
            raise CommandRejected(say("pair takes two players, not %(n)d", n=len(refs)))
        return refs[0], refs[1], False
    if not white or not black:
        raise CommandRejected(say("pair needs two players: PLAYER PLAYER, or --white PLAYER --black PLAYER"))
    return white, black, True


def pair(
    db: PathLike,
    round: int,  # noqa: A002
    white: str | None = None,
    black: str | None = None,
    table: int | None = None,
    handicap: int | None = None,
    komi: str | None = None,
    color_known: bool = True,
    force: bool = False,
    players: Sequence[str] = (),
    dry_run: bool = False,
    **plumbing: Unpack[Plumbing],
) -> PairOutcome:
    """Pair two players in ``round`` (:func:`decide_pair`): ``players`` (two references) lets
    the rule choose the colours, ``white`` and ``black`` fix them. ``dry_run``: the game as it
    would be recorded, nothing written."""
    one, other, by_hand = _pair_players(players, white, black)
    rules: list[GameRule] = []
    games: list[dict[str, Any]] = []

    def decide(state: TournamentState) -> list[ev.Event]:
        rules[:] = [GameRule(state, round)]
        return decide_pair(state, round, one, other, colours_by_hand=by_hand, table=table, handicap=handicap,
                           komi=komi, color_known=color_known, force=force, rule=rules[0])

    def describe(state: TournamentState, events: list[ev.Event]) -> str:
        event = first_event(events, ev.GamePaired)
        games[:] = [game_json(state, event)]
        how = "hand" if len(event.by_hand) == 3 else rules[0].game(event.white, event.black).rule
        return pair_message(state, event, how, _forced_reasons(state, event) if event.forced else ())

    outcome = record(db, decide, describe, dry_run=dry_run, **plumbing)
    return PairOutcome(message=outcome.message, records=outcome.records, game=games[0], dry_run=dry_run)


# --------------------------------------------------------------------------- edit-game


def _check_result(game: GameState, force: bool, what: str) -> bool:
    """Whether the edit is forced: refuses an edit of a game with a result unless ``force``."""
    if game.result is Result.UNKNOWN:
        return False
    if not force:
        raise CommandRejected(say_at(
            "round %(round)d table %(table)d already has a result (%(result)s); use --force to %(what)s anyway (the "
            "result stays with the players)",
            N_("round %(round)d table %(table)d already has a result (%(result)s); tick “Even with a result” to "
               "%(what)s anyway (the result stays with the players)"), round=game.round, table=game.table,
            result=result_word(game.result.value), what=what))
    return True


def decide_edit_game(
    state: TournamentState,
    round_: int,
    table: int,
    *,
    swap_colours: bool = False,
    handicap: int | None = None,
    komi: str | None = None,
    move_to: int | None = None,
    force: bool = False,
) -> list[ev.Event]:
    """One event per edit of the game at (``round_``, ``table``), in the order colours,
    handicap, komi, table. Refuses no edit at all, an edit that changes nothing, a handicap
    outside 0..9, a komi that is not a whole or half number, a table below 1, and a game
    with a result (or, for a move, a game at ``move_to`` with one) unless ``force``."""
    game = game_at(state, round_, table, name_tables=True)
    if not swap_colours and handicap is None and komi is None and move_to is None:
        raise CommandRejected(say_at("edit-game needs an edit: --swap-colours, --handicap, --komi or --move-to",
                                     N_("choose an edit of the game: swap its colours, change its handicap or komi, or "
                                     "move it to another table")))
    check_handicap(handicap)
    komi_text = parse_komi(komi)
    out: list[ev.Event] = []
    if swap_colours:
        out.append(ev.GameEdited(round=round_, table=table, swap_colours=True,
                                 forced=_check_result(game, force, say("swap its colours"))))
    if handicap is not None:
        if handicap == game.handicap:
            raise CommandRejected(say("round %(round)d table %(table)d already has handicap %(stones)d", round=round_,
                                      table=table, stones=handicap))
        out.append(ev.GameEdited(round=round_, table=table, handicap=handicap,
                                 forced=_check_result(game, force, say("change its handicap"))))
    if komi_text is not None:
        if game.komi is not None and game.komi == komi_text:
            raise CommandRejected(say("round %(round)d table %(table)d already has komi %(komi)s", round=round_,
                                      table=table, komi=decimal(komi_text)))
        out.append(ev.GameEdited(round=round_, table=table, komi=komi_text,
                                 forced=_check_result(game, force, say("change its komi"))))
    if move_to is not None:
        check_table(move_to)
        if move_to == table:
            raise CommandRejected(say("round %(round)d table %(table)d is already at table %(to)d", round=round_,
                                      table=table, to=move_to))
        forced = _check_result(game, force, say("move it to table %(to)d", to=move_to))
        other = state.games.get(round_, {}).get(move_to)
        if other is not None:
            forced = _check_result(other, force, say("swap it with table %(table)d", table=table)) or forced
        out.append(ev.GameMoved(round=round_, table=table, to_table=move_to, forced=forced))
    return out


def _edit_message(state: TournamentState, game: GameState, events: Sequence[ev.Event]) -> str:
    parts: list[str] = []
    for e in events:
        if isinstance(e, ev.GameEdited):
            parts.append(edit_words(e))
        elif isinstance(e, ev.GameMoved):
            other = state.games.get(e.round, {}).get(e.to_table)
            moved = (say("moved to table %(to)d, swapped with %(white)s – %(black)s", to=e.to_table,
                         white=_name(state, other.white), black=_name(state, other.black)) if other is not None
                     else say("moved to table %(to)d", to=e.to_table))
            parts.append(moved + (" " + gettext("(forced: it had a result)") if e.forced else ""))
    return say("round %(round)d table %(table)d (%(white)s – %(black)s): %(edits)s", round=game.round,
               table=game.table, white=_name(state, game.white), black=_name(state, game.black), edits="; ".join(parts))


def edit_game(
    db: PathLike,
    round: int,  # noqa: A002
    table: int,
    swap_colours: bool = False,
    handicap: int | None = None,
    komi: str | None = None,
    move_to: int | None = None,
    force: bool = False,
    **plumbing: Unpack[Plumbing],
) -> Outcome:
    """Edit a game by hand (:func:`decide_edit_game`), one event per edit."""
    return record(db, lambda state: decide_edit_game(state, round, table, swap_colours=swap_colours,
                                                     handicap=handicap, komi=komi, move_to=move_to, force=force),
                  lambda state, events: _edit_message(state, state.games[round][table], events), **plumbing)


# --------------------------------------------------------------------------- renumber-tables


def _parse_skip(skip: str | Sequence[int] | None) -> set[int]:
    if skip is None:
        return set()
    if isinstance(skip, str):
        words = [w.strip() for w in skip.split(",") if w.strip()]
        out: set[int] = set()
        for w in words:
            if not (w.isascii() and w.isdigit() and len(w) <= 5):
                raise CommandRejected(f"--skip {w!r} is not a table number (give tables like 3,7)")
            out.add(int(w))
        return out
    return {int(t) for t in skip}


def best_score_order(state: TournamentState, round_: int) -> list[GameState]:
    """The games of ``round_`` in OpenGotha's ``renumberTablesByBestScoreThenRating`` order,
    compared on the placement before round ``round_`` is played (its games taken out), with
    the current table order as the order the sort starts from (where OpenGotha's sort fails,
    the fallback order of :mod:`goledger.pairing.opengotha.tables`)."""
    return _best_score_numbering(state, round_)[0]


def _best_score_numbering(state: TournamentState, round_: int) -> tuple[list[GameState], str]:
    """:func:`best_score_order` and the table numbering's note (empty, or the fallback's)."""
    from goledger.pairing.opengotha.tables import number_tables
    from goledger.replay.fold.state import fold

    games = state.games_of_round(round_)
    before = fold([], start=state)
    before.games.pop(round_, None)
    before.table_of.pop(round_, None)
    facts = GameRule(before, round_).facts()
    numbered, note = number_tables([(g.white, g.black) for g in games], facts.placement_now(), facts.rating)
    by_pair = {(g.white, g.black): g for g in games}
    return [by_pair[(w, b)] for _, w, b in numbered], note


def decide_renumber_tables(
    state: TournamentState,
    round_: int,
    start: int = 1,
    skip: str | Sequence[int] | None = None,
    keep_order: bool = False,
) -> list[ev.Event]:
    """One ``TablesRenumbered`` for ``round_``: the games in OpenGotha's order (or their
    current order with ``keep_order``), numbered from ``start`` skipping ``skip``; a game
    with a player fixed to a table (``fix-table``) keeps that table, and no other game takes
    it. Results follow their game. Refuses a round without games, a start below 1, and a
    renumbering that moves nothing."""
    check_round(state, round_)
    if not 1 <= start <= 99_999:
        raise CommandRejected(f"--start {start} is outside 1..99999")
    skipped = _parse_skip(skip)
    games = state.games_of_round(round_)
    if not games:
        raise CommandRejected(say("round %(round)d is not paired yet", round=round_))
    ordered, note = (games, "") if keep_order else _best_score_numbering(state, round_)
    pinned: dict[int, int] = {}  # game's table now → its fixed table
    for g in ordered:
        fixed = [t for pid in (g.white, g.black) if (t := state.fixed_table(pid, round_)) is not None]
        if fixed:
            pinned[g.table] = fixed[0]
    reserved = set(pinned.values()) | skipped
    moves: list[tuple[int, int]] = []
    number = start - 1
    for g in ordered:
        if g.table in pinned:
            new = pinned[g.table]
        else:
            number += 1
            while number in reserved:
                number += 1
            new = number
        if new > 99_999:
            raise CommandRejected(f"renumbering from {start} needs table {new}, beyond 99999")
        if new != g.table:
            moves.append((g.table, new))
    if not moves:
        raise CommandRejected(say("the tables of round %(round)d are already numbered this way; nothing to change",
                                  round=round_))
    order = "kept" if keep_order else "best score, then rating"
    if note:
        order += " (equal games in their current order: OpenGotha's table sort fails on this round)"
    return [ev.TablesRenumbered(round=round_, tables=tuple(moves), order=order)]


def renumber_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``round 4: 12 of 30 games change tables (best score, then rating; first moved game now at table 3)``."""
    event = first_event(events, ev.TablesRenumbered)
    lowest = min(new for _, new in event.tables)
    base, _, note = event.order.partition(" (")
    order = gettext(_ORDER_WORDS.get(base, base))
    if note:
        order += " " + gettext("(equal games in their current order: OpenGotha's table sort fails on this round)")
    games = len(state.games_of_round(event.round))
    return nsay("round %(round)d: %(n)d of %(games)d game changes tables (%(order)s; first moved game now at table "
                "%(table)d)", "round %(round)d: %(n)d of %(games)d games change tables (%(order)s; first moved game "
                "now at table %(table)d)", len(event.tables), round=event.round, n=len(event.tables), games=games,
                order=order, table=lowest)


_ORDER_WORDS: Final = {"kept": N_("kept"), "best score, then rating": N_("best score, then rating")}
"""The renumbering's order as the event records it (English, the ledger's) → its words."""


def renumber_tables(
    db: PathLike,
    round: int,  # noqa: A002
    start: int = 1,
    skip: str | Sequence[int] | None = None,
    keep_order: bool = False,
    **plumbing: Unpack[Plumbing],
) -> Outcome:
    """Renumber the tables of a round (:func:`decide_renumber_tables`)."""
    return record(db, lambda state: decide_renumber_tables(state, round, start, skip, keep_order),
                  renumber_message, **plumbing)


# --------------------------------------------------------------------------- late registration


def paired_rounds(state: TournamentState) -> list[int]:
    """The rounds that have a game or a bye."""
    return [r for r in range(1, state.rounds + 1) if state.games.get(r) or state.byes.get(r)]


def decide_late_absences(state: TournamentState, player_id: str, joins_round: int | None = None
                         ) -> list[ev.Event]:
    """The absences of a player registered now (``player_id``, not yet in ``state``): every
    round before ``joins_round`` (``--joins-round``), else every round already paired. What
    each counts is the tournament's absence rule, as for any announced absence."""
    if joins_round is not None:
        check_round(state, joins_round)
        missed = list(range(1, joins_round))
    else:
        missed = paired_rounds(state)
    return [ev.ParticipationChanged(player_id=player_id, round=r, participating=False) for r in missed]


def _rounds_text(rounds: Sequence[int]) -> str:
    """``[1, 2, 3, 5]`` → ``"1–3, 5"``.

    >>> _rounds_text([1, 2, 3, 5]), _rounds_text([4])
    ('1–3, 5', '4')
    """
    rs = list(rounds)
    parts: list[str] = []
    i = 0
    while i < len(rs):
        j = i
        while j + 1 < len(rs) and rs[j + 1] == rs[j] + 1:
            j += 1
        parts.append(str(rs[i]) if i == j else f"{rs[i]}–{rs[j]}")
        i = j + 1
    return ", ".join(parts)


def late_absences_text(state: TournamentState, absences: Sequence[ev.Event]) -> str:
    """``"; absent in rounds 1–2 (registered late): each counts as …"`` (empty without)."""
    rounds = [e.round for e in absences if isinstance(e, ev.ParticipationChanged)]
    if not rounds:
        return ""
    from goledger.replay.scoring.choices import rules_at
    from goledger.replay.scoring.withdrawals import absence_rule

    return "; " + nsay("absent in round %(rounds)s (registered late): %(rule)s",
                       "absent in rounds %(rounds)s (registered late): %(rule)s", len(rounds),
                       rounds=_rounds_text(rounds), rule=absence_rule(rules_at(state, rounds[0])))
