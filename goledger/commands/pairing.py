"""Automatic pairing: ``pair-round``, ``unpair-round``, ``explain-pairing`` and ``pair-round
--check`` (DESIGN §8, spec ``pairing.md``; issue 15).

:func:`pair_round` folds the ledger, asks the tournament's engine
(:func:`goledger.systems.engine_for`: ``--engine``, else the system's default) to pair the
players who still have no game or bye in the round
(:func:`goledger.pairing.participants.players_to_pair`, or ``players``), and appends in one
transaction one ``RoundPaired`` event — the engine's name and version, every parameter it used,
the seed, the chunks, the total weight, the bye's candidates and rule, the players it was asked
to pair — followed by the ``GamePaired``/``ByeAssigned`` events. The engine is a pure function
of the log before that event, so :func:`check_pairings` can ask it again and compare, and
:func:`explain_pairing` can show the weights it compared.

Tournament systems (issue 29): the engine is asked to pair every player free in the round and
states who is in the event this round — it places those players and lists every other one in
``Pairing.unpaired`` with the reason (eliminated, a bye that is a walk-over into the next
round, waiting on a Paramus ladder). :func:`_check_output` checks exactly that account, and
``RoundPaired.not_paired`` records why each registered player without a game or bye was not
paired (the system's reasons, and withdrawals, absences and preliminary entries). When the
event is decided, ``pair-round`` refuses with one sentence (:class:`~goledger.errors.EventDecided`,
code ``decided``): "the knockout is decided: P1 won the final". A system whose round count
follows from its entrants (:func:`goledger.systems.rounds_needed`) gets it at the draw: a
tournament created without ``--rounds`` records it with a ``RulesChanged`` in the draw's
transaction, and an explicit count too small for the entrants is refused then.

Rounds in order (issue 40, item 2; ``docs/pairing-rounds.md``): round R is refused, with
:class:`RoundOutOfOrder` (code ``out-of-order``) and one sentence naming the round or the
tables, while an earlier round is not paired at all or a game of an earlier round has no
result (:func:`order_problem`); ``force`` (``--force``, the desk's "pair anyway") pairs it
all the same. A continuous handicap tournament, whose rounds are only slots, is exempt, and a
round robin (a fixed schedule) from the results rule. The engines count the games of every
other round as already played, later rounds included, and :func:`check_pairings` reports
every game repeated between rounds. An engine that breaks on a round (a bug, not a refusal)
is :class:`EngineFailed`, one sentence naming the other engines (:func:`engines_for`).

The JSON of an outcome (``PairRoundOutcome.to_dict``, also with ``--dry-run``)::

    {"round": 3, "engine": "egf", "total_weight": "1500223…", "bye": PLAYER | null,
     "games": [{"table": 1, "white": PLAYER, "black": PLAYER, "handicap": 0, "komi": "7.5"}],
     "not_paired": [{"player": PLAYER, "why": "eliminated: lost in round 1 to p0001 …"}],
     "rounds": 4, "note": ""}

where PLAYER is ``{"id": "p0001", "surname": "…", "first_name": "…"}``, ``rounds`` the
tournament's round count after this pairing (set at the draw for a knockout without ``--rounds``)
and ``note`` the engine's note (:attr:`goledger.pairing.engine.Pairing.note`; empty, or e.g.
that the tables were numbered by the fallback rule because OpenGotha's table sort fails on
this round), also appended to the message.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from goledger.commands.checks import check_available, check_round
from goledger.commands.recording import PathLike, first_event, record
from goledger.errors import CommandRejected, EventDecided, GoledgerError, LedgerError
from goledger.i18n import N_, gettext
from goledger.i18n.messages import nsay, say, say_at
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger, Record
from goledger.ledger.values import effective_komi
from goledger.outputs import one_line
from goledger.pairing.engine import Pairing, PairingRequest, PairTerms
from goledger.replay.fold.state import TournamentState

__all__ = [
    "EngineFailed",
    "GameExplanation",
    "PairRoundOutcome",
    "PairingCheck",
    "PairingExplanation",
    "RepeatedGame",
    "RoundCheck",
    "RoundOutOfOrder",
    "check_pairings",
    "engines_for",
    "explain_pairing",
    "order_problem",
    "pair_round",
    "repeated_games",
    "unpair_round",
]


class RoundOutOfOrder(CommandRejected):
    """A round paired before an earlier one is paired or fully played (:func:`order_problem`);
    ``force`` pairs it all the same."""

    code = "out-of-order"


class EngineFailed(CommandRejected):
    """An engine broke on a round (a bug, not a refusal): nothing was written; the message
    names the engine, the round and the engines that can pair it instead (:func:`engines_for`)."""

    code = "engine-failed"


def engines_for(state: TournamentState) -> list[str]:
    """The engines that can pair this tournament's rounds, its system's default first: for the
    McMahon and Swiss family ``opengotha`` and ``egf``; for any other system its own engine."""
    from goledger.systems import DEFAULT_ENGINE, known_engines

    system = state.settings.system if state.settings is not None else ""
    default = DEFAULT_ENGINE.get(system)
    if default is None:
        return []
    if default not in known_engines():
        return [default]
    return [default, *(name for name in known_engines() if name != default)]


UNORDERED_SYSTEMS = frozenset({"continuous-handicap"})
"""Systems whose round numbers are only slots of the log: no order rule applies."""

SCHEDULED_SYSTEMS = frozenset({"round-robin"})
"""Systems whose every round is fixed by a schedule (Berger tables), whatever the results:
a round may be paired while an earlier one still has games without a result."""


def order_problem(state: TournamentState, round_: int) -> str:
    """Why round ``round_`` cannot be paired yet, in one sentence, or ``""``: an earlier round
    with no game, no bye and no automatic pairing in force (a Paramus round can be a lone
    walk-over) — the lowest is named —, else the tables of earlier rounds with no result (the
    first round that has any, up to five tables named; not in a round robin, whose schedule
    does not depend on results)."""
    from goledger.ledger.values import Result

    if state.settings is None or state.settings.system in UNORDERED_SYSTEMS:
        return ""
    for r in range(1, round_):
        if not state.games.get(r) and not state.byes.get(r) and not state.round_pairings.get(r):
            return gettext("round %(round)d cannot be paired before round %(earlier)d: round %(earlier)d is not "
                           "paired yet (pair the rounds in order, or force it)") % {"round": round_, "earlier": r}
    if state.settings.system in SCHEDULED_SYSTEMS:
        return ""
    for r in range(1, round_):
        open_tables = [g.table for g in state.games_of_round(r) if g.result is Result.UNKNOWN]
        if open_tables:
            shown = ", ".join(str(t) for t in open_tables[:5]) + (" …" if len(open_tables) > 5 else "")
            if len(open_tables) == 1:
                return say("round %(round)d cannot be paired yet: in round %(earlier)d, table %(tables)s has no "
                           "result (record the results first, or force it)", round=round_, earlier=r, tables=shown)
            return say("round %(round)d cannot be paired yet: in round %(earlier)d, %(n)d tables (%(tables)s) have no "
                       "result (record the results first, or force it)", round=round_, earlier=r,
                       n=len(open_tables), tables=shown)
    return ""


def _player_json(state: TournamentState, pid: str) -> dict[str, str]:
    p = state.players[pid]
    return {"id": pid, "surname": p.surname, "first_name": p.first_name}


class PairRoundOutcome(msgspec.Struct, frozen=True, kw_only=True):
    """What ``pair-round`` decided (and, unless ``dry_run``, appended: ``records``).
    ``names`` maps every placed player to ``{"id", "surname", "first_name"}``; ``komi`` is
    the tournament's komi, which a game without its own komi plays."""

    round: int
    pairing: Pairing
    names: dict[str, dict[str, str]]
    komi: str
    not_paired: tuple[tuple[str, str], ...] = ()
    """Every registered player left without a game or bye, with the reason (as recorded)."""
    rounds: int = 0
    """The tournament's round count once this pairing is written."""
    dry_run: bool = False
    records: list[Record] = msgspec.field(default_factory=list)
    message: str = ""

    @property
    def seqs(self) -> list[int]:
        return [r.seq for r in self.records]

    def to_dict(self) -> dict[str, Any]:
        """The issue's JSON shape (see the module docstring)."""
        bye = self.pairing.bye
        return {
            "round": self.round,
            "engine": self.pairing.engine,
            "total_weight": str(self.pairing.total_weight),
            "bye": self.names[bye.player] if bye is not None else None,
            "games": [
                {"table": g.table, "white": self.names[g.white], "black": self.names[g.black],
                 "handicap": g.handicap, "komi": effective_komi(self.komi, g.komi, g.handicap)}
                for g in self.pairing.games
            ],
            "not_paired": [{"player": self.names[pid], "why": why} for pid, why in self.not_paired],
            "rounds": self.rounds,
            "note": self.pairing.note,
        }


def _request(state: TournamentState, round_: int, players: Sequence[str] | None, seed: int | None) -> PairingRequest:
    from goledger.pairing.participants import players_to_pair
    from goledger.replay.fold.players import find_player

    ids: list[str] = []
    if players is None:
        ids = list(players_to_pair(state, round_))
    else:
        for ref in players:
            p = find_player(state, ref)
            if p.status != "final":
                raise CommandRejected(say("%(player)s is a preliminary entry; confirm him before pairing",
                                          player=f"{p.id} {p.full_name}"))
            check_available(state, p, round_)
            if p.id in ids:
                raise CommandRejected(say("%(player)s is named twice in --players", player=f"{p.id} {p.full_name}"))
            ids.append(p.id)
    if not ids:
        raise CommandRejected(say("round %(round)d has nobody left to pair (every player has a game, the bye, an "
                                  "absence or has withdrawn)", round=round_))
    return PairingRequest(round=round_, players=tuple(ids), seed=0 if seed is None else seed)


def _check_output(request: PairingRequest, pairing: Pairing, state: TournamentState) -> None:
    """An engine's answer must account for every requested player exactly once — placed in a
    game or the bye, or listed in ``unpaired`` with a reason (the players the tournament
    system does not pair this round) — on free tables."""
    placed = pairing.players()
    listed = [pid for pid, _ in pairing.unpaired]
    if sorted([*placed, *listed]) != sorted(request.players):
        raise LedgerError(say("engine %(engine)s did not place every player once; nothing was written",
                               engine=pairing.engine))
    if any(not why.strip() for _, why in pairing.unpaired):
        raise LedgerError(say("engine %(engine)s left a player unpaired without a reason; nothing was written",
                               engine=pairing.engine))
    tables = [g.table for g in pairing.games]
    if len(set(tables)) != len(tables) or set(tables) & set(state.games.get(request.round, {})) or (
            tables and min(tables) < 1):
        raise LedgerError(say("engine %(engine)s used a table twice; nothing was written", engine=pairing.engine))
    # Constraints bind every engine: the command checks what the engine promised.
    pairs = {frozenset((g.white, g.black)) for g in pairing.games}
    for g in pairing.games:
        if state.constraint_in(g.white, g.black, request.round) == "forbidden":
            raise CommandRejected(say("engine %(engine)s paired %(white)s with %(black)s, a forbidden pair; "
                                      "nothing was written", engine=pairing.engine, white=g.white, black=g.black))
    wanted = set(request.players) - set(listed)
    for a, (b, _) in state.fixed_pairs.get(request.round, {}).items():
        if a in wanted and b in wanted and frozenset((a, b)) not in pairs:
            raise CommandRejected(say("engine %(engine)s did not place the fixed pairing of %(a)s and %(b)s; "
                                      "nothing was written", engine=pairing.engine, a=a, b=b))


def _not_paired(state: TournamentState, request: PairingRequest, pairing: Pairing) -> tuple[tuple[str, str], ...]:
    """Every registered player the round leaves without a game or bye, with the reason: the
    engine's (``Pairing.unpaired``) for the players it was asked to pair, else why he was not
    asked (withdrawn, absent, a preliminary entry); in registration order."""
    round_ = request.round
    engine_says = dict(pairing.unpaired)
    busy = set(state.table_of.get(round_, {})) | set(state.byes.get(round_, {})) | set(pairing.players())
    out: list[tuple[str, str]] = []
    for p in state.players.values():
        if p.id in busy:
            continue
        if p.id in engine_says:
            out.append((p.id, engine_says[p.id]))
        elif p.status != "final":
            out.append((p.id, "a preliminary entry (confirm him to pair him)"))
        elif p.is_withdrawn(round_):
            out.append((p.id, f"withdrew from round {p.withdrawn_from}"))
        elif round_ in p.absences:
            out.append((p.id, f"announced absent in round {round_}"))
        elif p.id not in request.players:
            out.append((p.id, "not among the players named to pair"))
    return tuple(out)


def _events(request: PairingRequest, pairing: Pairing, not_paired: tuple[tuple[str, str], ...] = ()) -> list[ev.Event]:
    bye = pairing.bye
    out: list[ev.Event] = [ev.RoundPaired(
        round=request.round, engine=pairing.engine, version=pairing.version, parameters=dict(pairing.parameters),
        seed=request.seed, players=request.players, chunks=pairing.chunks, total_weight=str(pairing.total_weight),
        tables=tuple(g.table for g in pairing.games), bye=bye.player if bye else None,
        bye_candidates=bye.candidates if bye else (), bye_rule=bye.rule if bye else "", not_paired=not_paired,
    )]
    out += [ev.GamePaired(round=request.round, table=g.table, white=g.white, black=g.black, handicap=g.handicap,
                          komi=g.komi) for g in pairing.games]
    if bye is not None:
        out.append(ev.ByeAssigned(round=request.round, player_id=bye.player))
    return out


def _draw(state: TournamentState, round_: int) -> list[ev.Event]:
    """The round count at the draw (issue 29): for a system whose rounds follow from its
    entrants, a ``RulesChanged`` setting them when the tournament was created without
    ``--rounds`` (and they differ from what is recorded); a refusal when the draw is made
    (round 1 has no game yet) and an explicit count cannot hold the event."""
    from goledger.systems import rounds_at_draw, rounds_needed

    need = rounds_needed(state)
    if need is None:
        return []
    count, why = need
    if rounds_at_draw(state):
        if count != state.rounds and 1 <= count <= 99:
            return [ev.RulesChanged(changes={"rounds": count})]
        return []
    if round_ == 1 and not state.games.get(1) and state.rounds < count:
        raise CommandRejected(say_at("%(why)s, but this tournament was created with %(rounds)d; set "
                                     "goledger change-rules rounds=%(count)d before the draw",
                                     N_("%(why)s, but this tournament was created with %(rounds)d; set the rounds to "
                                        "%(count)d on the tournament settings page before the draw"),
                                     why=why, rounds=state.rounds, count=count))
    return []


def _over(state: TournamentState, round_: int, rounds: int) -> str:
    """``"the tournament is over: …"`` when ``round_`` lies past the last round and every
    round is paired and played (the fixed-count systems' "decided"); ``""`` otherwise."""
    from goledger.ledger.values import Result

    if round_ <= rounds or rounds < 1:
        return ""
    for r in range(1, rounds + 1):
        games = state.games_of_round(r)
        if not (games or state.byes.get(r)) or any(g.result is Result.UNKNOWN for g in games):
            return ""
    return nsay("the tournament is over: its %(n)d round is paired and played",
                "the tournament is over: its %(n)d rounds are paired and played", rounds, n=rounds)


def plan_round(state: TournamentState, round_: int, engine: str | None = None, seed: int | None = None,
               players: Sequence[str] | None = None, force: bool = False) -> tuple[PairRoundOutcome, list[ev.Event]]:
    """The decider of ``pair-round``, with the outcome it reports (nothing appended yet):
    ``RoundPaired`` (engine, parameters, seed, weight, who was not paired and why) followed by
    the ``GamePaired``/``ByeAssigned`` of round ``round_`` by the tournament's engine (or
    ``engine``), after the round count set at the draw (:func:`_draw`). Refuses a round out of
    range, a round out of order unless ``force`` (:func:`order_problem`), nobody to pair, an
    unknown engine, and whatever the engine refuses; refuses with
    :class:`~goledger.errors.EventDecided` once the system has decided the event."""
    from goledger.systems import decided, engine_for

    chosen = engine_for(state, engine)
    over = decided(state)
    if over:
        raise EventDecided(over)
    before = _draw(state, round_)
    rounds = before[0].changes["rounds"] if before else state.rounds  # type: ignore[attr-defined]
    over = _over(state, round_, rounds)
    if over:
        raise EventDecided(over)
    if not 1 <= round_ <= rounds:
        raise CommandRejected(say("round %(round)d is outside 1..%(rounds)d of this tournament", round=round_,
                                  rounds=rounds))
    if not force:
        problem = order_problem(state, round_)
        if problem:
            raise RoundOutOfOrder(problem)
    # An engine that chooses whom it places (the team engine: whole teams) makes its own request.
    own_request = getattr(chosen, "request", None)
    request = own_request(state, round_, players, seed) if own_request else _request(state, round_, players, seed)
    try:
        pairing = chosen.pair(state, request)
    except GoledgerError:
        raise
    except Exception as exc:  # a bug in an engine: a sentence, never a traceback or a 500
        others = [name for name in engines_for(state) if name != chosen.name]
        failure = f"{type(exc).__name__}: {exc}"
        if others:
            raise EngineFailed(say("the %(engine)s engine failed on round %(round)d (%(failure)s); nothing was "
                                   "written; pair it with another engine (%(others)s)", engine=chosen.name,
                                   round=round_, failure=failure, others=", ".join(others))) from exc
        raise EngineFailed(say("the %(engine)s engine failed on round %(round)d (%(failure)s); nothing was written",
                               engine=chosen.name, round=round_, failure=failure)) from exc
    _check_output(request, pairing, state)
    if not pairing.games and pairing.bye is None and (state.games.get(round_) or state.round_pairings.get(round_)):
        pid, why = pairing.unpaired[0] if pairing.unpaired else ("", "")
        if pid:
            raise CommandRejected(say("round %(round)d is already paired: nobody left to pair (%(player)s: %(why)s)",
                                      round=round_, player=f"{pid} {state.players[pid].full_name}", why=why))
        raise CommandRejected(say("round %(round)d is already paired: nobody left to pair", round=round_))
    if players is not None and pairing.unpaired:
        pid, why = pairing.unpaired[0]
        raise CommandRejected(say("%(player)s is not paired in round %(round)d: %(why)s",
                                  player=f"{pid} {state.players[pid].full_name}", round=round_, why=why))
    not_paired = _not_paired(state, request, pairing)
    from goledger.replay.scoring.units import unit_state

    shown = unit_state(state)  # a Pair Go or Rengo round: the placed players are units, named as such
    names = {**{pid: _player_json(state, pid) for pid, _ in not_paired},
             **{pid: _player_json(shown, pid) for pid in pairing.players()}}
    bye = gettext(", bye %(player)s") % {"player": pairing.bye.player} if pairing.bye else ""
    out = gettext(", %(count)d not paired") % {"count": len(not_paired)} if not_paired else ""
    drawn = (gettext("; %(rounds)d rounds set at the draw") % {"rounds": before[0].changes["rounds"]}  # type: ignore[attr-defined]
             if before else "")
    note = gettext("; note: %(note)s") % {"note": pairing.note} if pairing.note else ""
    message = (gettext("round %(round)d paired by %(engine)s: %(games)d games")
               % {"round": round_, "engine": pairing.engine, "games": len(pairing.games)}
               + bye + out + gettext(", total weight %(weight)d") % {"weight": pairing.total_weight} + drawn + note)
    planned = PairRoundOutcome(round=round_, pairing=pairing, names=names, komi=state.settings_for_round(round_).komi,
                               not_paired=not_paired, rounds=rounds, message=message)
    return planned, [*before, *_events(request, pairing, not_paired)]


def pair_round(
    db: PathLike,
    round_: int,
    *,
    dry_run: bool = False,
    engine: str | None = None,
    seed: int | None = None,
    players: Sequence[str] | None = None,
    force: bool = False,
    expected_head: int | None = None,
    actor: str = "",
    reason: str = "",
) -> PairRoundOutcome:
    """Pair round ``round_`` (:func:`plan_round`) and append its events in one
    transaction; ``dry_run`` writes nothing. ``players`` (references) pairs only these;
    ``seed`` (default 0) seeds every random choice; ``force`` pairs a round out of order
    (:func:`order_problem`)."""
    found: list[PairRoundOutcome] = []

    def decide(state: TournamentState) -> list[ev.Event]:
        planned, events = plan_round(state, round_, engine, seed, players, force)
        found[:] = [planned]
        return events

    outcome = record(db, decide, lambda state, events: found[0].message, dry_run=dry_run, expected_head=expected_head,
                     actor=actor, reason=reason)
    return msgspec.structs.replace(found[0], message=outcome.message, records=outcome.records, dry_run=dry_run)


def decide_unpair_round(state: TournamentState, round_: int, reason: str) -> list[ev.Event]:
    """``RoundUnpaired`` then a ``PairingRemoved`` per table and a ``ByeRemoved`` per bye of
    round ``round_``. Refuses without a reason, a round with nothing paired, or a round with a
    recorded result (unpair those tables one by one if that is really meant)."""
    from goledger.ledger.values import Result

    _reason_for_unpairing(reason)
    check_round(state, round_)
    games = state.games_of_round(round_)
    byes = list(state.byes.get(round_, {}))
    if not games and not byes:
        raise CommandRejected(say("round %(round)d has no pairing to remove", round=round_))
    done = [g.table for g in games if g.result is not Result.UNKNOWN]
    if done:
        listed = ", ".join(str(t) for t in done[:5]) + (" …" if len(done) > 5 else "")
        raise CommandRejected(say("round %(round)d already has results (tables %(tables)s); unpair those tables with "
                                  "goledger unpair if they really must go", round=round_, tables=listed))
    events: list[ev.Event] = [ev.RoundUnpaired(round=round_, reason=reason)]
    events += [ev.PairingRemoved(round=round_, table=g.table) for g in games]
    events += [ev.ByeRemoved(round=round_, player_id=p) for p in byes]
    return events


def _reason_for_unpairing(reason: str) -> None:
    if not reason.strip():
        raise CommandRejected(say_at("unpair-round needs a reason", N_("unpairing a round needs a reason")))


def unpair_round_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``round 3 unpaired: 12 games and 1 byes removed (wrong bar)``."""
    unpaired = first_event(events, ev.RoundUnpaired)
    games = sum(isinstance(e, ev.PairingRemoved) for e in events)
    byes = sum(isinstance(e, ev.ByeRemoved) for e in events)
    return say("round %(round)d unpaired: %(games)d games and %(byes)d byes removed (%(reason)s)", round=unpaired.round,
               games=games, byes=byes, reason=one_line(unpaired.reason))


def unpair_round(
    db: PathLike,
    round_: int,
    reason: str,
    *,
    expected_head: int | None = None,
    actor: str = "",
) -> Any:
    """Withdraw every pairing of round ``round_`` (:func:`decide_unpair_round`) so that it can
    be paired again."""
    _reason_for_unpairing(reason)  # refused before the ledger is opened
    return record(db, lambda state: decide_unpair_round(state, round_, reason), unpair_round_message,
                  expected_head=expected_head, actor=actor, reason=reason)


# --------------------------------------------------------------------------- check


class RoundCheck(msgspec.Struct, frozen=True, kw_only=True):
    """One stored ``RoundPaired`` (event ``seq``) re-derived: ``differences`` in sentences
    (empty: the engine gives exactly what the log says). ``in_force``: no later
    ``RoundUnpaired`` withdrew it, so the round's current games were compared too."""

    round: int
    seq: int
    engine: str
    in_force: bool
    differences: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.differences


class RepeatedGame(msgspec.Struct, frozen=True, kw_only=True):
    """A game at ``round``/``table`` between two players who already met at
    ``earlier_round``/``earlier_table``."""

    round: int
    table: int
    white: str
    black: str
    earlier_round: int
    earlier_table: int

    @property
    def sentence(self) -> str:
        """"round 4 table 2 (p0001–p0003) repeats the game of round 3 table 1"."""
        return (f"round {self.round} table {self.table} ({self.white}–{self.black}) repeats the game of round "
                f"{self.earlier_round} table {self.earlier_table}")


class PairingCheck(msgspec.Struct, frozen=True, kw_only=True):
    """Every stored ``RoundPaired`` re-derived from the log before it, and every game the log
    now holds that repeats a game of another round (``repeats``, one sentence each; see
    :func:`repeated_games`)."""

    rounds: tuple[RoundCheck, ...] = ()
    repeats: tuple[RepeatedGame, ...] = ()

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.rounds) and not self.repeats

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "rounds": [
            {"round": r.round, "seq": r.seq, "engine": r.engine, "in_force": r.in_force, "ok": r.ok,
             "differences": list(r.differences)} for r in self.rounds],
            "repeats": [r.sentence for r in self.repeats]}


def _repeats_allowed(state: TournamentState) -> bool:
    """Systems in which two players meet again by design: a match, a continuous handicap
    tournament (up to its cap), a double knockout (the grand final), a round robin of more
    than one cycle."""
    settings = state.settings
    if settings is None:
        return True
    if settings.system in ("match", "continuous-handicap", "double-knockout"):
        return True
    return settings.system == "round-robin" and int(settings.system_options.get("cycles", 1)) > 1


def repeated_games(state: TournamentState, round_: int | None = None) -> list[RepeatedGame]:
    """Each game of ``state`` (of round ``round_`` and any other round, or of all rounds) whose
    two players already met in an earlier round ("round 4 table 2 (p0001–p0003) repeats the
    game of round 3 table 1"). Empty in a system where players meet again by design
    (:func:`_repeats_allowed`)."""
    if _repeats_allowed(state):
        return []
    first: dict[frozenset[str], tuple[int, int]] = {}
    out: list[RepeatedGame] = []
    for r in sorted(state.games):
        for g in state.games_of_round(r):
            if g.white == g.black:
                continue
            pair = frozenset((g.white, g.black))
            earlier = first.get(pair)
            if earlier is None:
                first[pair] = (r, g.table)
            elif round_ is None or round_ in (r, earlier[0]):
                out.append(RepeatedGame(round=r, table=g.table, white=g.white, black=g.black,
                                        earlier_round=earlier[0], earlier_table=earlier[1]))
    return out


def _games_text(game: tuple[int, str, str, int, str | None]) -> str:
    table, white, black, handicap, komi = game
    extra = (f", handicap {handicap}" if handicap else "") + (f", komi {komi}" if komi is not None else "")
    return f"table {table}: {white} (W) – {black} (B){extra}"


def _compare(derived: Pairing, games: set[tuple[int, str, str, int, str | None]], bye: str | None,
             where: str) -> list[str]:
    out: list[str] = []
    expected = {(g.table, g.white, g.black, g.handicap, g.komi) for g in derived.games}
    for game in sorted(expected - games):
        out.append(f"the engine gives {_games_text(game)}, but {where} does not have it")
    for game in sorted(games - expected):
        out.append(f"{where} has {_games_text(game)}, which the engine does not give")
    want = derived.bye.player if derived.bye else None
    if want != bye:
        out.append(f"the engine gives the bye to {want or 'nobody'}, {where} to {bye or 'nobody'}")
    return out


def _load_events(db: PathLike) -> list[ev.Event]:
    with Ledger.open(db) as ledger:
        return ledger.events()


def _stored_games(events: Sequence[ev.Event], start: int, count: int) -> tuple[
        set[tuple[int, str, str, int, str | None]], str | None]:
    """The games and bye that followed a ``RoundPaired`` at list index ``start``."""
    games: set[tuple[int, str, str, int, str | None]] = set()
    bye: str | None = None
    for e in events[start + 1: start + 1 + count + 1]:
        if isinstance(e, ev.GamePaired) and len(games) < count:
            games.add((e.table, e.white, e.black, e.handicap, e.komi))
        elif isinstance(e, ev.ByeAssigned) and bye is None:
            bye = e.player_id
        else:
            break
    return games, bye


def check_pairings(db: PathLike, round_: int | None = None) -> PairingCheck:
    """Re-derive every stored ``RoundPaired`` (of ``round_``, or all) from the log before it
    with the engine and seed it names, and compare the parameters, total weight, chunks and
    bye it recorded, the games that followed it, and — while it is in force — the round's
    current games of its players (a game swapped by hand after it shows here); and report
    every game now in the log that repeats a game of another round (:func:`repeated_games`)."""
    from goledger.replay.fold.state import apply, fold
    from goledger.replay.scoring.registries import check_registered
    from goledger.systems import engine_for

    events = _load_events(db)
    final = fold(events, check=check_registered)
    if final.settings is None:
        raise CommandRejected(say("%(db)s has no tournament (its log has no TournamentCreated event)", db=str(db)))
    if round_ is not None:
        check_round(final, round_)
    wanted = [k for k, e in enumerate(events) if isinstance(e, ev.RoundPaired)
              and (round_ is None or e.round == round_)]
    checks: list[RoundCheck] = []
    state = fold([])
    done = 0
    for k in wanted:
        for e in events[done:k]:
            apply(state, e, check_registered)
        done = k
        stored = events[k]
        assert isinstance(stored, ev.RoundPaired)
        seq = k + 1
        in_force = seq in final.round_pairings.get(stored.round, [])
        diffs: list[str] = []
        try:
            engine = engine_for(state, stored.engine)
            if engine.version != stored.version:
                diffs.append(f"recorded by {stored.engine} version {stored.version}; this goledger has version "
                             f"{engine.version}, which may pair differently")
            request = PairingRequest(round=stored.round, players=stored.players, seed=stored.seed)
            derived = engine.pair(state, request)
        except CommandRejected as exc:
            checks.append(RoundCheck(round=stored.round, seq=seq, engine=stored.engine, in_force=in_force,
                                     differences=(*diffs, f"the engine now refuses this round: {exc.message}")))
            continue
        if dict(derived.parameters) != dict(stored.parameters):
            changed = sorted(set(derived.parameters.items()) ^ set(stored.parameters.items()))
            diffs.append(f"the parameters differ: {', '.join(sorted({name for name, _ in changed}))}")
        if str(derived.total_weight) != stored.total_weight:
            diffs.append(f"the total weight is {derived.total_weight}, the log says {stored.total_weight}")
        if tuple(derived.chunks) != tuple(stored.chunks):
            diffs.append(f"the chunks are {list(derived.chunks)}, the log says {list(stored.chunks)}")
        games, bye = _stored_games(events, k, len(stored.tables))
        diffs += _compare(derived, games, bye, f"event {seq}'s pairing")
        recorded: dict[str, str] = {pid: why for pid, why in stored.not_paired if pid in stored.players}
        now_unpaired: dict[str, str] = dict(derived.unpaired)
        if now_unpaired != recorded:
            moved = sorted(pid for pid in set(now_unpaired) | set(recorded)
                           if now_unpaired.get(pid) != recorded.get(pid))
            diffs.append(f"the engine leaves other players unpaired or for other reasons: {', '.join(moved)}")
        if in_force:
            mine = set(stored.players)
            now = {(g.table, g.white, g.black, g.handicap, g.komi) for g in final.games_of_round(stored.round)
                   if g.white in mine or g.black in mine}
            holder = next((p for p in final.byes.get(stored.round, {}) if p in mine), None)
            diffs += [d for d in _compare(derived, now, holder, "the log now")
                      if d not in diffs]
        checks.append(RoundCheck(round=stored.round, seq=seq, engine=stored.engine, in_force=in_force,
                                 differences=tuple(diffs)))
    return PairingCheck(rounds=tuple(checks), repeats=tuple(repeated_games(final, round_)))


# --------------------------------------------------------------------------- explain


class GameExplanation(msgspec.Struct, frozen=True, kw_only=True):
    """Why a game was paired: its weight term by term, and each player's heaviest other
    opponent in the same request (``None``: nobody else could be paired with him)."""

    table: int
    white: str
    black: str
    chosen: PairTerms
    white_alternative: PairTerms | None = None
    black_alternative: PairTerms | None = None

    def sentences(self) -> list[str]:
        """Why A met B and not C, one sentence per player (in the language written in)."""
        if "fixed" in self.chosen.terms:
            return [gettext("a fixed pairing (goledger fix-pairing): placed before the matching")]
        out = []
        for who, alt in ((self.white, self.white_alternative), (self.black, self.black_alternative)):
            opponent = self.black if who == self.white else self.white
            if alt is None:
                out.append(gettext("%(player)s: no other opponent was possible") % {"player": who})
                continue
            other = alt.second if alt.first == who else alt.first
            gap = alt.total - self.chosen.total
            names = {"player": who, "other": other, "opponent": opponent, "gap": abs(gap)}
            if gap > 0:
                out.append(gettext("%(player)s: %(other)s weighs %(gap)d more than %(opponent)s, but the matching as "
                                   "a whole was heavier with %(other)s elsewhere") % names)
            elif gap == 0:
                out.append(gettext("%(player)s: %(opponent)s weighs as much as his best other choice, %(other)s")
                           % names)
            else:
                out.append(gettext("%(player)s: %(opponent)s weighs %(gap)d more than his best other choice, "
                                   "%(other)s") % names)
        return out


class PairingExplanation(msgspec.Struct, frozen=True, kw_only=True):
    """The weights behind a round's automatic pairing (event ``seq``)."""

    round: int
    seq: int
    engine: str
    games: tuple[GameExplanation, ...] = ()
    bye: str | None = None
    bye_candidates: tuple[tuple[str, int], ...] = ()
    bye_rule: str = ""

    def to_dict(self) -> dict[str, Any]:
        def terms(t: PairTerms | None) -> dict[str, Any] | None:
            if t is None:
                return None
            return {"first": t.first, "second": t.second, "total": str(t.total),
                    "terms": {k: str(v) for k, v in t.terms.items()}}

        return {
            "round": self.round, "seq": self.seq, "engine": self.engine,
            "games": [{"table": g.table, "white": g.white, "black": g.black, "chosen": terms(g.chosen),
                       "white_alternative": terms(g.white_alternative),
                       "black_alternative": terms(g.black_alternative), "why": g.sentences()} for g in self.games],
            "bye": self.bye, "bye_candidates": [[p, w] for p, w in self.bye_candidates], "bye_rule": self.bye_rule,
        }


NEIGHBOUR_TABLES = 3
"""Without the engine's own ``best_alternative``, a player's alternatives are the players of
the tables this many above and below his (the scores nearest his) and the bye."""


def _alternative(engine: Any, state: TournamentState, request: PairingRequest, player: str, exclude: str,
                 near: Sequence[str]) -> PairTerms | None:
    best = getattr(engine, "best_alternative", None)
    if best is not None:
        result: PairTerms | None = best(state, request, player, (exclude,))
        return result
    options = [engine.pair_terms(state, request, player, other) for other in near if other not in (player, exclude)]
    return max(options, key=lambda t: t.total, default=None)


def explain_pairing(db: PathLike, round_: int, player: str | None = None) -> PairingExplanation:
    """The cost terms of round ``round_``'s automatic pairing (its last ``RoundPaired`` in
    force): for each of its games (or ``player``'s only) the chosen pair's terms and each
    player's heaviest alternative (among all the players the engine matched when it offers
    ``best_alternative``, else among the neighbouring tables), and the bye's candidates and rule."""
    from goledger.replay.fold.players import find_player
    from goledger.replay.fold.state import fold
    from goledger.replay.scoring.registries import check_registered
    from goledger.systems import engine_for

    events = _load_events(db)
    final = fold(events, check=check_registered)
    if final.settings is None:
        raise CommandRejected(say("%(db)s has no tournament (its log has no TournamentCreated event)", db=str(db)))
    check_round(final, round_)
    in_force = final.round_pairings.get(round_, [])
    if not in_force:
        raise CommandRejected(say_at("round %(round)d has no automatic pairing in force (pair it with goledger "
                                     "pair-round)", N_("round %(round)d has no automatic pairing in force (pair it "
                                                       "with “Pair round %(round)d”)"), round=round_))
    who = find_player(final, player).id if player is not None else None
    chosen_seq = in_force[-1]
    if who is not None:
        for seq in in_force:
            stored_event = events[seq - 1]
            if isinstance(stored_event, ev.RoundPaired) and who in stored_event.players:
                chosen_seq = seq
    stored = events[chosen_seq - 1]
    assert isinstance(stored, ev.RoundPaired)
    explained: list[GameExplanation] = []
    if who is not None and who not in stored.players:
        raise CommandRejected(say_at("%(player)s was not paired by pair-round in round %(round)d",
                                     N_("%(player)s was not paired automatically in round %(round)d"),
                                     player=who, round=round_))
    state = fold(events[: chosen_seq - 1], check=check_registered)
    engine = engine_for(state, stored.engine)
    request = PairingRequest(round=round_, players=stored.players, seed=stored.seed)
    mine = set(stored.players)
    games = [g for g in final.games_of_round(round_) if g.white in mine and g.black in mine]
    for k, g in enumerate(games):
        if who is not None and who not in (g.white, g.black):
            continue
        near = [p for h in games[max(0, k - NEIGHBOUR_TABLES): k + NEIGHBOUR_TABLES + 1] for p in (h.white, h.black)]
        near += [stored.bye] if stored.bye else []
        explained.append(GameExplanation(
            table=g.table, white=g.white, black=g.black,
            chosen=engine.pair_terms(state, request, g.white, g.black),
            white_alternative=_alternative(engine, state, request, g.white, g.black, near),
            black_alternative=_alternative(engine, state, request, g.black, g.white, near),
        ))
    return PairingExplanation(round=round_, seq=chosen_seq, engine=stored.engine, games=tuple(explained),
                              bye=stored.bye, bye_candidates=stored.bye_candidates, bye_rule=stored.bye_rule)
