"""Single knockout ("tek elek", spec ``pairing.md`` §1.1): the loser is out.

The bracket is a pure function of the entrants (final registrations not withdrawn before
round 1), the seeding rule and the pairing method (:mod:`goledger.systems.bracket`); the
ledger holds only games and results, and the bracket is read back from them:

* a match is decided by its game's result (a forfeit counts: it is a walkover), by a bye
  (no opponent in the bracket), or, when there is no game, by the opponent's withdrawal or
  announced absence in that round (a walkover);
* a jigo follows the options' ``jigo`` rule (:data:`goledger.systems.common.JigoRule`);
* with ``third_place`` the semi-final losers play for third place in the last round.

Places (the seed's rule): 1 and 2 from the final; 3 and 4 from the third-place game when it
is played, else the semi-final loser who lost to the winner is 3rd and the other 4th; then
the losers of each earlier round share the places below: 5–8, 9–16, …

>>> KnockoutOptions().method, KnockoutOptions().jigo
('fold', 'replay')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from goledger.errors import CommandRejected, EventDecided
from goledger.i18n import N_, gettext
from goledger.i18n.messages import say
from goledger.ledger import events as ev
from goledger.pairing.engine import PairedGame, Pairing, PairingRequest, PairTerms
from goledger.systems.bracket import Method, first_round, knockout_rounds
from goledger.systems.common import (
    JigoRule,
    Place,
    Places,
    SeedingRule,
    decided_winner,
    engine_parameters,
    entrants,
    free_tables,
    how_word,
    method_word,
    out_of_round,
    read_options,
    refuse_rewriting,
    refuse_undecided_result,
    seeded,
    seeding_word,
    share_places,
    who,
)

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from goledger.replay.fold.state import TournamentState

__all__ = ["ENGINE", "Bracket", "KnockoutEngine", "KnockoutOptions", "Match", "build_bracket", "check", "decided",
           "places", "rounds_needed"]

PENDING = "?"
"""A bracket slot whose player is not known yet (the match feeding it is undecided)."""


class KnockoutOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``goledger new --system knockout --option NAME=VALUE``: the seeding rule, the round-1
    pairing method, what a jigo decides, whether a third-place game is played, and the seed of
    a seeding by lot."""

    seeding: SeedingRule = "rank"
    method: Method = "fold"
    jigo: JigoRule = "replay"
    third_place: bool = False
    lot_seed: int = 0
    rounds_at_draw: bool = False
    """Set by ``goledger new`` without ``--rounds``: the draw sets ⌈log₂ N⌉ rounds."""


class Match(msgspec.Struct, frozen=True, kw_only=True):
    """One match of the bracket: round, position in the round (0-based, bracket order), the
    two players (``None``: nobody, a bye; ``"?"``: not known yet), the winner (``None`` while
    undecided) and how it was decided (``game``, ``bye``, ``walkover``, ``pending``,
    ``empty``)."""

    round: int
    slot: int
    top: str | None
    bottom: str | None
    winner: str | None = None
    how: str = "pending"
    table: int | None = None

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        other = self.bottom if self.winner == self.top else self.top
        return other if other not in (None, PENDING) else None

    def players(self) -> tuple[str, ...]:
        return tuple(p for p in (self.top, self.bottom) if p not in (None, PENDING))


class Bracket(msgspec.Struct, frozen=True, kw_only=True):
    """The whole bracket as the ledger decides it: the seeding (player ids, best first), each
    round's matches in bracket order, the third-place game (when the options want one) and the
    champion once the final is decided."""

    seeds: tuple[str, ...]
    rounds: tuple[tuple[Match, ...], ...]
    third_place: Match | None = None
    champion: str | None = None

    def seed_of(self) -> dict[str, int]:
        return {p: i for i, p in enumerate(self.seeds, start=1)}

    def match_of(self, player_id: str, round_: int) -> Match | None:
        if not 1 <= round_ <= len(self.rounds):
            return None
        for m in self.rounds[round_ - 1]:
            if player_id in (m.top, m.bottom):
                return m
        return None

    def eliminated_in(self, player_id: str) -> Match | None:
        for matches in self.rounds:
            for m in matches:
                if m.loser == player_id:
                    return m
        return None


OPTIONS = KnockoutOptions


def options_of(state: TournamentState) -> KnockoutOptions:
    assert state.settings is not None
    return read_options(KnockoutOptions, state.settings.system_options, "knockout")


def _unavailable(state: TournamentState, player_id: str, round_: int) -> bool:
    p = state.players[player_id]
    return bool(p.is_withdrawn(round_) or round_ in p.absences)


def decide(state: TournamentState, round_: int, top: str | None, bottom: str | None, jigo: str,
           seed_of: Mapping[str, int], slot: int) -> Match:
    """Decide one match of ``round_`` from the ledger (see the module docstring)."""
    if PENDING in (top, bottom):
        return Match(round=round_, slot=slot, top=top, bottom=bottom)
    if top is None or bottom is None:
        alone = top or bottom
        return Match(round=round_, slot=slot, top=top, bottom=bottom, winner=alone,
                     how="bye" if alone else "empty")
    game = state.game_of(top, round_)
    if game is not None and game.opponent(top) == bottom:
        return Match(round=round_, slot=slot, top=top, bottom=bottom, table=game.table,
                     winner=decided_winner(game, jigo, seed_of), how="game")
    out_top, out_bottom = _unavailable(state, top, round_), _unavailable(state, bottom, round_)
    if out_top and out_bottom:
        return Match(round=round_, slot=slot, top=top, bottom=bottom, how="empty")
    if out_top or out_bottom:
        return Match(round=round_, slot=slot, top=top, bottom=bottom, winner=bottom if out_top else top,
                     how="walkover")
    return Match(round=round_, slot=slot, top=top, bottom=bottom)


def bracket_from(state: TournamentState, seeds: Sequence[str], method: str, jigo: str, third_place: bool) -> Bracket:
    """Decide the bracket of ``seeds`` (ids, best first) round by round from ``state``."""
    seed_of = {p: i for i, p in enumerate(seeds, start=1)}
    total = knockout_rounds(len(seeds))
    slots: list[tuple[str | None, str | None]] = [
        (seeds[a - 1], seeds[b - 1] if b is not None else None) for a, b in first_round(len(seeds), method)
    ]
    rounds: list[tuple[Match, ...]] = []
    for r in range(1, total + 1):
        matches = tuple(decide(state, r, a, b, jigo, seed_of, i) for i, (a, b) in enumerate(slots))
        rounds.append(matches)
        nxt = [m.winner if m.winner is not None or m.how == "empty" else PENDING for m in matches]
        slots = [(nxt[i], nxt[i + 1]) for i in range(0, len(nxt) - 1, 2)]
    third: Match | None = None
    if third_place and total >= 2:
        semis = rounds[-2]
        a, b = (m.loser if m.winner is not None else PENDING for m in semis)
        third = decide(state, total, a, b, jigo, seed_of, -1)
    champion = rounds[-1][0].winner if rounds else None
    return Bracket(seeds=tuple(seeds), rounds=tuple(rounds), third_place=third, champion=champion)


def build_bracket(state: TournamentState, options: KnockoutOptions | None = None) -> Bracket:
    """The knockout bracket of ``state`` under its options."""
    opts = options or options_of(state)
    seeds = [p.id for p in seeded(entrants(state), opts.seeding, opts.lot_seed)]
    if len(seeds) < 2:
        raise CommandRejected(say("a knockout needs at least two entrants; this one has %(count)d", count=len(seeds)))
    return bracket_from(state, seeds, opts.method, opts.jigo, opts.third_place)


def _name(state: TournamentState, pid: str) -> str:
    return f"{pid} {state.players[pid].full_name}"


def round_games(state: TournamentState, matches: Sequence[Match], round_: int, allowed: set[str],
                seed_of: Mapping[str, int], engine: str) -> list[PairedGame]:
    """The games of ``matches`` whose two players are both to be paired, better seed first (a
    match with a negative slot, the third-place game, after the others); White goes to whoever
    has had White less often (the better seed on a tie)."""
    games: list[tuple[int, int, str, str]] = []
    for m in matches:
        if m.top in (None, PENDING) or m.bottom in (None, PENDING):
            continue
        assert m.top is not None and m.bottom is not None
        if m.top not in allowed or m.bottom not in allowed:
            continue
        first, second = sorted((m.top, m.bottom), key=lambda p: seed_of[p])
        whites = {p: sum(1 for g in state.all_games() if g.white == p and g.round < round_) for p in (first, second)}
        blacks = {p: sum(1 for g in state.all_games() if g.black == p and g.round < round_) for p in (first, second)}
        balance = {p: whites[p] - blacks[p] for p in (first, second)}
        white, black = (second, first) if balance[second] < balance[first] else (first, second)
        games.append((int(m.slot < 0), seed_of[first], white, black))
    games.sort()
    tables = free_tables(state, round_)
    return [PairedGame(table=next(tables), white=w, black=b) for _, _, w, b in games]


def refuse_pending(state: TournamentState, round_: int, matches: Sequence[Match]) -> None:
    """Refuse to pair ``round_`` while a match of the round before has no winner."""
    if any(PENDING in (m.top, m.bottom) for m in matches):
        raise CommandRejected(say("round %(previous)d is not decided yet: every game of it needs a result before round "
                                  "%(round)d can be paired", previous=round_ - 1, round=round_))


def rounds_needed(state: TournamentState) -> tuple[int, str]:
    """The rounds the knockout of ``state``'s entrants needs, and why in a few words
    (spec ``pairing.md`` §1.1: ⌈log₂ N⌉; the third-place game is played beside the final)."""
    count = len(entrants(state))
    if count < 2:
        raise CommandRejected(say("a knockout needs at least two entrants; this one has %(count)d", count=count))
    total = knockout_rounds(count)
    return total, f"a knockout of {count} entrants has ⌈log₂ {count}⌉ = {total} rounds"


def decided(state: TournamentState) -> str:
    """``"the knockout is decided: … won the final"`` once the final (and the third-place
    game, when there is one) has a winner; ``""`` while it goes on."""
    if len(entrants(state)) < 2:
        return ""
    bracket = build_bracket(state)
    if bracket.champion is None:
        return ""
    tp = bracket.third_place
    if tp is not None and tp.winner is None and tp.how != "empty":
        return ""
    final = bracket.rounds[-1][0]
    name = state.players[bracket.champion].full_name
    if final.how == "walkover":
        return say("the knockout is decided: %(name)s won the final by walk-over", name=name)
    return say("the knockout is decided: %(name)s won the final", name=name)


def not_paired_why(state: TournamentState, bracket: Bracket, pid: str, round_: int, allowed: set[str]) -> str:
    """Why ``pid`` has no game in ``round_`` of ``bracket`` (a few words, naming players by id
    and name): not in the draw, eliminated, a bye or a walk-over into the next round."""
    total = len(bracket.rounds)
    if pid not in bracket.seed_of():
        return "not in the bracket: registered after the draw"
    tp = bracket.third_place if round_ == total else None
    in_tp = tp is not None and pid in (tp.top, tp.bottom)
    lost = bracket.eliminated_in(pid)
    if lost is not None and lost.round < round_ and not in_tp:
        how = "gave a walk-over" if lost.how == "walkover" else "lost"
        return f"eliminated: {how} in round {lost.round} to {who(state, lost.winner or '')}"
    match = tp if in_tp else bracket.match_of(pid, round_)
    if match is None:
        return "out of the bracket"
    other = match.bottom if match.top == pid else match.top
    onward = f"into round {round_ + 1}" if round_ < total else "to win the final"
    if other is None:
        size = 1 << total
        return (f"a bye: the bracket has {size} places for {len(bracket.seeds)} entrants, a walk-over {onward}")
    absent = out_of_round(state, other, round_)
    if absent:
        return f"a walk-over {onward}: {who(state, other)} {absent}"
    if other not in allowed:
        return f"his bracket opponent {who(state, other)} is not among the players to pair"
    return "his match is already decided"


class KnockoutEngine:
    """The next round of a single knockout: the bracket decides (no weights, no choices).
    Every requested player without a game is listed in ``Pairing.unpaired`` with the reason
    (eliminated, a bye, a walk-over); once the final is decided it refuses with
    :class:`~goledger.errors.EventDecided`."""

    name = "knockout"
    version = "1"

    def pair(self, state: TournamentState, request: PairingRequest) -> Pairing:
        opts = options_of(state)
        bracket = build_bracket(state, opts)
        over = decided(state)
        if over:
            raise EventDecided(over)
        total = len(bracket.rounds)
        if not 1 <= request.round <= total:
            raise CommandRejected(say("a knockout of %(players)d players has %(total)d rounds, not %(round)d",
                                      players=len(bracket.seeds), total=total, round=request.round))
        matches = list(bracket.rounds[request.round - 1])
        if request.round == total and bracket.third_place is not None:
            matches.append(bracket.third_place)
        refuse_pending(state, request.round, matches)
        allowed = set(request.players)
        games = round_games(state, matches, request.round, allowed, bracket.seed_of(), self.name)
        placed = {p for g in games for p in (g.white, g.black)}
        unpaired = tuple((p, not_paired_why(state, bracket, p, request.round, allowed))
                         for p in request.players if p not in placed)
        return Pairing(engine=self.name, version=self.version, round=request.round, games=tuple(games),
                       parameters=engine_parameters(opts), seed=request.seed,
                       unpaired=unpaired)

    def pair_terms(self, state: TournamentState, request: PairingRequest, first: str, second: str) -> PairTerms:
        bracket = build_bracket(state)
        m = bracket.match_of(first, request.round)
        meets = 1 if m is not None and second in (m.top, m.bottom) else 0
        return PairTerms(first=first, second=second, total=meets, terms={"bracket": meets})


ENGINE = KnockoutEngine()


def check(state: TournamentState, event: ev.Event) -> None:
    """Refuse a game, bye or result the bracket does not allow (one sentence)."""
    opts = options_of(state)
    if isinstance(event, (ev.ResultRecorded, ev.ResultCorrected)):
        refuse_undecided_result(event.result, opts.jigo, N_("knockout"))
        if isinstance(event, ev.ResultCorrected):
            refuse_rewriting(state, event, opts.jigo, build_bracket(state, opts).seed_of())
        return
    if not isinstance(event, (ev.GamePaired, ev.ByeAssigned)):
        return
    bracket = build_bracket(state, opts)
    total = len(bracket.rounds)
    if event.round > total:
        raise CommandRejected(say("a knockout of %(players)d players has %(total)d rounds; round %(round)d has no "
                                  "match",
                                  players=len(bracket.seeds), total=total, round=event.round))
    people: tuple[str, ...] = (event.white, event.black) if isinstance(event, ev.GamePaired) else (event.player_id,)
    seed_of = bracket.seed_of()
    tp = bracket.third_place if event.round == total else None
    for pid in people:
        if pid not in seed_of:
            raise CommandRejected(say("%(player)s is not in the bracket (drawn from the final registrations before "
                                      "round 1's first game)", player=_name(state, pid)))
        lost = bracket.eliminated_in(pid)
        if tp is not None and pid in (tp.top, tp.bottom):
            continue
        if lost is not None and lost.round < event.round:
            winner = lost.winner or ""
            raise CommandRejected(say("%(player)s was eliminated in round %(round)d (by %(winner)s)",
                                      player=_name(state, pid), round=lost.round, winner=_name(state, winner)))
    matches = list(bracket.rounds[event.round - 1])
    if event.round == total and bracket.third_place is not None:
        matches.append(bracket.third_place)
    mine = next((m for m in reversed(matches) if people[0] in (m.top, m.bottom)), None)
    if mine is None or PENDING in (mine.top, mine.bottom):
        raise CommandRejected(say("round %(previous)d has not decided yet whom %(player)s meets in round %(round)d",
                                  previous=event.round - 1, player=_name(state, people[0]), round=event.round))
    if isinstance(event, ev.ByeAssigned):
        other = mine.bottom if mine.top == people[0] else mine.top
        if other is not None and not _unavailable(state, other, event.round):
            raise CommandRejected(say("%(player)s has no bye in round %(round)d: the bracket pairs him with %(other)s",
                                      player=_name(state, people[0]), round=event.round,
                                      other=_name(state, other)))
        return
    if people[1] not in (mine.top, mine.bottom):
        other = mine.bottom if mine.top == people[0] else mine.top
        whom = _name(state, other) if other else say("nobody (a bye)")
        raise CommandRejected(say("the bracket pairs %(player)s with %(whom)s in round %(round)d, not %(other)s",
                                  player=_name(state, people[0]), whom=whom, round=event.round,
                                  other=_name(state, people[1])))


def places(state: TournamentState) -> Places:
    """The knockout's places (see the module docstring), with one reason per player."""
    opts = options_of(state)
    bracket = build_bracket(state, opts)
    total = len(bracket.rounds)
    name = {p: state.players[p].full_name for p in bracket.seeds}
    groups: list[tuple[list[tuple[str, str, str]], bool]] = []
    final = bracket.rounds[-1][0]
    placed: set[str] = set()
    if final.winner is not None:
        won_final = gettext("won the final (%(how)s)") % {"how": how_word(final.how)}
        groups.append(([(final.winner, name[final.winner], won_final)], False))
        placed.add(final.winner)
        if final.loser:
            groups.append(([(final.loser, name[final.loser], gettext("lost the final"))], False))
            placed.add(final.loser)
    if total >= 2:
        semis = bracket.rounds[-2]
        losers = [m for m in semis if m.loser is not None]
        tp = bracket.third_place
        if tp is not None and tp.winner is not None and tp.how == "game":
            groups.append(([(tp.winner, name[tp.winner], gettext("won the third-place game"))], False))
            if tp.loser:
                groups.append(([(tp.loser, name[tp.loser], gettext("lost the third-place game"))], False))
        elif final.winner is not None and len(losers) == 2:
            by_winner = sorted(losers, key=lambda m: 0 if m.winner == final.winner else 1)
            for m, text in zip(by_winner, (gettext("lost the semi-final to the winner"),
                                         gettext("lost the semi-final to the runner-up")),
                               strict=True):
                assert m.loser is not None
                groups.append(([(m.loser, name[m.loser], text)], False))
        placed.update(pid for members, _ in groups for pid, _, _ in members)
    still_in = [p for p in bracket.seeds if p not in placed and bracket.eliminated_in(p) is None
                and not _out_without_loss(bracket, p)]
    if final.winner is None:
        rows_active = [(p, name[p], gettext("still in the bracket")) for p in still_in]
        if rows_active:
            groups.insert(0, (rows_active, True))
    for r in range(total, 0, -1):
        lost_r = [m for m in bracket.rounds[r - 1] if m.loser is not None and m.loser not in placed]
        members = [(m.loser, name[m.loser], (gettext("gave a walkover in round %(round)d of %(rounds)d")
                                        if m.how == "walkover" else gettext("lost in round %(round)d of %(rounds)d"))
                    % {"round": r, "rounds": total}) for m in lost_r if m.loser is not None]
        if members:
            groups.append((members, False))
            placed.update(pid for pid, _, _ in members)
    gone = [p for p in bracket.seeds if p not in placed and p not in still_in]
    if gone:
        groups.append(([(p, name[p], gettext("withdrew")) for p in gone], False))
    rows: tuple[Place, ...] = share_places(groups)
    notes = (gettext("%(entrants)d entrants, %(rounds)d rounds, pairing method %(method)s, seeding by %(seeding)s")
             % {"entrants": len(bracket.seeds), "rounds": total, "method": method_word(opts.method),
                "seeding": seeding_word(opts.seeding)},)
    done = final.winner is not None
    return Places(system="knockout", round=state.last_round_with_games(), finished=done, rows=rows, notes=notes)


def _out_without_loss(bracket: Bracket, player: str) -> bool:
    """Both players of an empty match are out (both withdrew)."""
    return any(m.how == "empty" and player in (m.top, m.bottom) for ms in bracket.rounds for m in ms)
