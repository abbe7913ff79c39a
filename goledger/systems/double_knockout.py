"""Double knockout ("çift elek", spec ``pairing.md`` §1.1): a winners' bracket and a losers'
bracket; a first loss drops a player into the losers' bracket, a second loss eliminates him.

Round by round, read back from the ledger's games and results:

* the **winners' bracket** is a single-knockout bracket of all entrants
  (:mod:`goledger.systems.bracket`: seeding, method, round-1 byes for the top seeds);
* the **losers' bracket** of round R holds everyone with exactly one loss (the players who
  dropped in round R − 1 included). Its pairing puts players who dropped earlier against the
  new drop-downs first, avoids rematches (a pair that already met is taken only when nothing
  else pairs the pool), and keeps seeds close; in an odd pool the player who has sat out least
  (then the best seed) sits the round out, as the seed says;
* when one unbeaten player and one losers'-bracket survivor are left, they play the **grand
  final**; if the survivor wins and ``reset`` is on, a second game decides (both then have one
  loss). Without ``reset`` the grand final decides alone, and its loser is second with one loss.

Nobody is eliminated with fewer than two losses (except the grand final's loser without
reset), and the champion has at most one. A withdrawal or an announced absence is a walkover
(a loss) in whichever bracket the player stands. Places: the champion, the runner-up, then the
others by the round of their elimination, later first, sharing a place within a round.

>>> DoubleKnockoutOptions().reset
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from goledger.errors import CommandRejected, EventDecided
from goledger.i18n import N_, gettext, ngettext
from goledger.i18n.messages import say, word
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
    out_of_round,
    read_options,
    refuse_rewriting,
    refuse_undecided_result,
    seeded,
    share_places,
    who,
)
from goledger.systems.knockout import Match, decide
from goledger.systems.matching import pair_in_order

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from goledger.replay.fold.state import TournamentState

__all__ = ["ENGINE", "DoubleKnockoutOptions", "DoubleStatus", "check", "decided", "double_knockout_rounds", "places",
           "resolve", "rounds_needed"]


class DoubleKnockoutOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``goledger new --system double-knockout --option NAME=VALUE``: seeding, the winners'
    bracket's round-1 method, the jigo rule, the grand final's reset game, the lot's seed."""

    seeding: SeedingRule = "rank"
    method: Method = "fold"
    jigo: JigoRule = "replay"
    reset: bool = True
    lot_seed: int = 0
    rounds_at_draw: bool = False
    """Set by ``goledger new`` without ``--rounds``: the draw sets :func:`double_knockout_rounds`."""


OPTIONS = DoubleKnockoutOptions


class DoubleStatus(msgspec.Struct, kw_only=True):
    """Where a double knockout stands after ``decided`` rounds, and what round ``decided + 1``
    must be: ``phase`` is ``brackets``, ``grand-final``, ``reset`` or ``over``; ``wb_slots`` the
    winners' bracket in bracket order; ``lb_pool`` the losers' bracket; ``final`` the pair of a
    grand final or reset (unbeaten or first-final winner first)."""

    seeds: tuple[str, ...]
    decided: int = 0
    losses: dict[str, int] = msgspec.field(default_factory=dict)
    out: dict[str, tuple[int, str]] = msgspec.field(default_factory=dict)
    """player → (round of elimination, why)."""
    dropped: dict[str, int] = msgspec.field(default_factory=dict)
    """player → the round of his first loss."""
    sat_out: dict[str, int] = msgspec.field(default_factory=dict)
    met: set[frozenset[str]] = msgspec.field(default_factory=set)
    phase: str = "brackets"
    wb_slots: list[tuple[str | None, str | None]] = msgspec.field(default_factory=list)
    lb_pool: list[str] = msgspec.field(default_factory=list)
    final: tuple[str, str] | None = None
    champion: str | None = None
    runner_up: str | None = None
    wb_matches: dict[int, tuple[Match, ...]] = msgspec.field(default_factory=dict)
    final_rounds: list[int] = msgspec.field(default_factory=list)
    """The rounds of the grand final and of its reset game."""
    stopped: str = ""
    """Why the next round cannot be paired yet (an undecided game), or ``""``."""

    def alive(self) -> list[str]:
        return [p for p in self.seeds if p not in self.out and p != self.champion]


def options_of(state: TournamentState) -> DoubleKnockoutOptions:
    assert state.settings is not None
    return read_options(DoubleKnockoutOptions, state.settings.system_options, "double-knockout")


def _unavailable(state: TournamentState, pid: str, round_: int) -> bool:
    p = state.players[pid]
    return bool(p.is_withdrawn(round_) or round_ in p.absences)


def _lose(st: DoubleStatus, pid: str, round_: int, why: str) -> None:
    st.losses[pid] = st.losses.get(pid, 0) + 1
    if st.losses[pid] == 1:
        st.dropped[pid] = round_
    else:
        st.out[pid] = (round_, why)


def resolve(state: TournamentState, opts: DoubleKnockoutOptions | None = None, upto: int | None = None) -> DoubleStatus:
    """Fold the double knockout's rounds ``1..upto`` (default: every round with a game) from
    ``state``; stops at the first round that is not decided."""
    opts = opts or options_of(state)
    seeds = [p.id for p in seeded(entrants(state), opts.seeding, opts.lot_seed)]
    if len(seeds) < 2:
        raise CommandRejected(say("a double knockout needs at least two entrants; this one has %(count)d",
                                  count=len(seeds)))
    seed_of = {p: i for i, p in enumerate(seeds, start=1)}
    st = DoubleStatus(seeds=tuple(seeds))
    st.wb_slots = [(seeds[a - 1], seeds[b - 1] if b is not None else None)
                   for a, b in first_round(len(seeds), opts.method)]
    last = state.last_round_with_games() if upto is None else upto
    for r in range(1, last + 1):
        _set_phase(st)
        if st.phase == "over":
            break
        if not _decide_round(state, st, r, opts.jigo, seed_of, opts.reset):
            break
        st.decided = r
    _set_phase(st)
    return st


def _set_phase(st: DoubleStatus) -> None:
    if st.champion is not None:
        st.phase = "over"
        return
    if st.phase == "reset" and st.final is not None:
        return
    wb = [p for p in st.alive() if st.losses.get(p, 0) == 0]
    lb = [p for p in st.alive() if st.losses.get(p, 0) == 1]
    if len(wb) + len(lb) == 1:
        st.champion = (wb + lb)[0]
        st.phase = "over"
    elif len(wb) == 1 and len(lb) == 1:
        st.phase = "grand-final"
        st.final = (wb[0], lb[0])
    elif not wb and len(lb) == 2 and st.final is not None:
        st.phase = "reset"
    else:
        st.phase = "brackets"
        st.lb_pool = lb
        st.final = None


def _decide_round(state: TournamentState, st: DoubleStatus, r: int, jigo: str, seed_of: Mapping[str, int],
                  reset: bool) -> bool:
    if st.phase in ("grand-final", "reset"):
        assert st.final is not None
        a, b = st.final
        m = decide(state, r, a, b, jigo, seed_of, 0)
        if m.winner is None:
            st.stopped = (say("the reset game of round %(round)d has no result", round=r) if st.phase == "reset"
                          else say("the grand final of round %(round)d has no result", round=r))
            return False
        loser = b if m.winner == a else a
        st.met.add(frozenset((a, b)))
        st.final_rounds.append(r)
        if st.phase == "grand-final" and m.winner == b and reset:
            _lose(st, a, r, "")
            st.phase, st.final = "reset", (b, a)
            return True
        st.losses[loser] = st.losses.get(loser, 0) + 1
        st.champion, st.runner_up = m.winner, loser
        st.out[loser] = (r, gettext("lost the reset game") if st.phase == "reset" else gettext("lost the grand final"))
        return True
    matches: list[Match] = []
    if any(a is not None and b is not None for a, b in st.wb_slots):
        matches = [decide(state, r, a, b, jigo, seed_of, i) for i, (a, b) in enumerate(st.wb_slots)]
    pending = [m for m in matches if m.winner is None and m.how != "empty"]
    lb_results: list[tuple[str, str | None, str]] = []
    pool = set(st.lb_pool)
    for pid in st.lb_pool:
        game = state.game_of(pid, r)
        if game is not None and game.opponent(pid) in pool:
            winner = decided_winner(game, jigo, seed_of)
            if winner is None:
                pending.append(Match(round=r, slot=-1, top=game.white, bottom=game.black))
            elif winner == pid:
                lb_results.append((game.opponent(pid), pid, "game"))
        elif _unavailable(state, pid, r):
            lb_results.append((pid, None, "walkover"))
        elif game is None:
            st.sat_out[pid] = st.sat_out.get(pid, 0) + 1
    if pending or (r > state.last_round_with_games()):
        st.stopped = (say("round %(round)d is not decided yet: every game of it needs a result", round=r) if pending
                      else say("round %(round)d is not paired yet", round=r))
        return False
    st.wb_matches[r] = tuple(matches)
    for m in matches:
        if m.loser is not None:
            _lose(st, m.loser, r, "")
            if m.top and m.bottom:
                st.met.add(frozenset((m.top, m.bottom)))
    for loser, winner, how in lb_results:
        if winner is not None:
            st.met.add(frozenset((loser, winner)))
        why = (gettext("gave a walkover in round %(round)d") if how == "walkover"
               else gettext("second loss in round %(round)d")) % {"round": r}
        _lose(st, loser, r, why)
    winners = [m.winner if m.how != "empty" else None for m in matches]
    if len(winners) >= 2:
        st.wb_slots = [(winners[i], winners[i + 1]) for i in range(0, len(winners) - 1, 2)]
    else:
        st.wb_slots = [(winners[0], None)] if winners else []
    for pid, (when, why) in list(st.out.items()):
        if not why:
            st.out[pid] = (when, gettext("second loss in round %(round)d") % {"round": when})
    return True


def expected_round(state: TournamentState, round_: int, opts: DoubleKnockoutOptions | None = None,
                   ) -> tuple[DoubleStatus, list[Match], list[str]]:
    """The status before ``round_``, its winners'-bracket matches and its losers' pool;
    refuses while an earlier round is undecided."""
    opts = opts or options_of(state)
    st = resolve(state, opts, round_ - 1)
    if st.decided < round_ - 1:
        raise CommandRejected(say("%(why)s; round %(round)d cannot be paired before", why=st.stopped, round=round_))
    if st.phase == "over":
        raise EventDecided(_decided_text(state, st))
    wb: list[Match] = []
    if st.phase == "brackets":
        wb = [Match(round=round_, slot=i, top=a, bottom=b) for i, (a, b) in enumerate(st.wb_slots)
              if a is not None and b is not None]
    return st, wb, list(st.lb_pool)


def _decided_text(state: TournamentState, st: DoubleStatus) -> str:
    name = state.players[st.champion].full_name if st.champion in state.players else st.champion
    if len(st.final_rounds) > 1:
        return say("the double knockout is decided: %(name)s won the reset game", name=name)
    return say("the double knockout is decided: %(name)s won the grand final", name=name)


def decided(state: TournamentState) -> str:
    """``"the double knockout is decided: … won the grand final"`` (or the reset game) once
    there is a champion; ``""`` while it goes on."""
    if len(entrants(state)) < 2:
        return ""
    st = resolve(state)
    return _decided_text(state, st) if st.phase == "over" else ""


def double_knockout_rounds(n: int, method: str = "fold", reset: bool = True) -> int:
    """The rounds a double knockout of ``n`` entrants needs when nobody withdraws: the
    winners' bracket's ⌈log₂ n⌉ rounds run beside the losers' bracket (its pool of one-loss
    players halves each round, the new drop-downs join it the round after, an odd pool leaves
    one player out) until one unbeaten player and one survivor are left; then the grand final
    and, with ``reset``, the reset game it may need. A withdrawal only shrinks the pools, so
    the count is an upper bound of the rounds an event takes.

    >>> [double_knockout_rounds(n) for n in (2, 4, 8, 13, 16)]
    [3, 5, 7, 8, 8]
    """
    slots = first_round(n, method)
    first_games = sum(1 for _, b in slots if b is not None)
    wb_rounds = knockout_rounds(n)
    size = 1 << wb_rounds
    unbeaten, pool, r = n, 0, 0
    while not (unbeaten == 1 and pool <= 1):
        r += 1
        wb_games = (first_games if r == 1 else size >> r) if r <= wb_rounds else 0
        pool = pool - pool // 2 + wb_games
        unbeaten -= wb_games
    return r + (1 + int(reset) if pool == 1 else 0)


def rounds_needed(state: TournamentState) -> tuple[int, str]:
    """The rounds the double knockout of ``state``'s entrants needs (grand final and reset
    game included), and why in a few words."""
    opts = options_of(state)
    count = len(entrants(state))
    if count < 2:
        raise CommandRejected(say("a double knockout needs at least two entrants; this one has %(count)d", count=count))
    total = double_knockout_rounds(count, opts.method, opts.reset)
    extra = " and its reset game" if opts.reset else ""
    return total, f"a double knockout of {count} entrants needs {total} rounds with the grand final{extra}"


def not_paired_why(state: TournamentState, st: DoubleStatus, wb: Sequence[Match], sitter: str | None, pid: str,
                   round_: int, allowed: set[str]) -> str:
    """Why ``pid`` has no game in ``round_`` (a few words)."""
    if pid not in st.seeds:
        return "not in the brackets: registered after the draw"
    if pid in st.out:
        when, why = st.out[pid]
        return f"eliminated in round {when}: {why}"
    if pid == sitter:
        return "sits the round out: the losers' bracket has an odd number of players"
    mine = next((m for m in wb if pid in (m.top, m.bottom)), None)
    other = None if mine is None else (mine.bottom if mine.top == pid else mine.top)
    if st.losses.get(pid, 0) == 0 and st.phase == "brackets" and mine is None:
        alone = any(pid in (a, b) and None in (a, b) for a, b in st.wb_slots)
        unbeaten = [p for p in st.alive() if st.losses.get(p, 0) == 0]
        if len(unbeaten) == 1:
            return "the last unbeaten player: waits for the grand final"
        if alone:
            return f"a bye in the winners' bracket: a walk-over into round {round_ + 1}"
    if other is not None:
        absent = out_of_round(state, other, round_)
        if absent:
            return f"a walk-over in the winners' bracket: {who(state, other)} {absent}"
        if other not in allowed:
            return f"his opponent {who(state, other)} is not among the players to pair"
    return "no opponent among the players to pair this round"


def _name(state: TournamentState, pid: str) -> str:
    return f"{pid} {state.players[pid].full_name}" if pid in state.players else pid


def lb_pairs(state: TournamentState, st: DoubleStatus, pool: Sequence[str], round_: int,
             ) -> tuple[list[tuple[str, str]], str | None]:
    """The losers' bracket pairing of ``pool`` for ``round_`` and who sits out (see the
    module docstring)."""
    seed_of = {p: i for i, p in enumerate(st.seeds, start=1)}
    players = [p for p in pool if not _unavailable(state, p, round_)]
    sitter: str | None = None
    if len(players) % 2:
        sitter = min(players, key=lambda p: (st.sat_out.get(p, 0), seed_of[p]))
        players = [p for p in players if p != sitter]
    newest = max((st.dropped.get(p, 0) for p in players), default=0)
    old = sorted((p for p in players if st.dropped.get(p, 0) < newest), key=lambda p: seed_of[p])
    new = sorted((p for p in players if st.dropped.get(p, 0) == newest), key=lambda p: -seed_of[p])
    order = old + new

    def cost(a: str, b: str) -> int:
        rematch = 1000 if frozenset((a, b)) in st.met else 0
        same_side = 100 if (st.dropped.get(a, 0) == newest) == (st.dropped.get(b, 0) == newest) and old else 0
        return rematch + same_side

    pairs = pair_in_order(order, cost) or []
    return pairs, sitter


class DoubleKnockoutEngine:
    """The next round of a double knockout: the winners' bracket as the bracket says, the
    losers' bracket by :func:`lb_pairs`, or the grand final / reset game."""

    name = "double-knockout"
    version = "1"

    def pair(self, state: TournamentState, request: PairingRequest) -> Pairing:
        opts = options_of(state)
        st, wb, pool = expected_round(state, request.round, opts)
        seed_of = {p: i for i, p in enumerate(st.seeds, start=1)}
        allowed = set(request.players)
        pairs: list[tuple[str, str]] = []
        sitter: str | None = None
        if st.phase in ("grand-final", "reset"):
            assert st.final is not None
            pairs = [st.final]
        else:
            pairs = [(m.top, m.bottom) for m in wb if m.top and m.bottom
                     and not _unavailable(state, m.top, request.round)
                     and not _unavailable(state, m.bottom, request.round)]
            lb, sitter = lb_pairs(state, st, pool, request.round)
            pairs += lb
        pairs = [(a, b) for a, b in pairs if a in allowed and b in allowed]
        placed = {p for ab in pairs for p in ab}
        unpaired = tuple((p, not_paired_why(state, st, wb, sitter, p, request.round, allowed))
                         for p in request.players if p not in placed)
        pairs.sort(key=lambda ab: min(seed_of[ab[0]], seed_of[ab[1]]))
        games = []
        tables = free_tables(state, request.round)
        for a, b in pairs:
            first, second = sorted((a, b), key=lambda p: seed_of[p])
            games.append(PairedGame(table=next(tables), white=first, black=second))
        return Pairing(engine=self.name, version=self.version, round=request.round, games=tuple(games),
                       parameters=engine_parameters(opts), seed=request.seed, unpaired=unpaired)

    def pair_terms(self, state: TournamentState, request: PairingRequest, first: str, second: str) -> PairTerms:
        st, _, _ = expected_round(state, request.round)
        rematch = 1000 if frozenset((first, second)) in st.met else 0
        return PairTerms(first=first, second=second, total=rematch, terms={"rematch": rematch})


ENGINE = DoubleKnockoutEngine()


def check(state: TournamentState, event: ev.Event) -> None:
    """Refuse what the two brackets do not allow (one sentence)."""
    opts = options_of(state)
    if isinstance(event, (ev.ResultRecorded, ev.ResultCorrected)):
        refuse_undecided_result(event.result, opts.jigo, N_("double knockout"))
        if isinstance(event, ev.ResultCorrected):
            seeds = [p.id for p in seeded(entrants(state), opts.seeding, opts.lot_seed)]
            refuse_rewriting(state, event, opts.jigo, {p: i for i, p in enumerate(seeds, start=1)})
        return
    if isinstance(event, ev.ByeAssigned):
        raise CommandRejected(say("a double knockout has no byes: a player without a game sits the round out"))
    if not isinstance(event, ev.GamePaired):
        return
    st = resolve(state, opts, event.round - 1)
    for pid in (event.white, event.black):
        if pid not in st.seeds:
            raise CommandRejected(say("%(player)s is not in the brackets (drawn from the final registrations before "
                                      "round 1's first game)", player=_name(state, pid)))
        if pid in st.out:
            when, why = st.out[pid]
            raise CommandRejected(say("%(player)s was eliminated in round %(round)d (%(why)s)",
                                      player=_name(state, pid), round=when, why=why))
    _, wb, _pool = expected_round(state, event.round, opts)
    pair = {event.white, event.black}
    if st.phase in ("grand-final", "reset"):
        assert st.final is not None
        if pair != set(st.final):
            raise CommandRejected(say("round %(round)d is the %(game)s: %(a)s against %(b)s", round=event.round,
                                      game=word(N_("reset game")) if st.phase == "reset" else word(N_("grand final")),
                                      a=_name(state, st.final[0]), b=_name(state, st.final[1])))
        return
    side = {p: (N_("winners' bracket") if st.losses.get(p, 0) == 0 else N_("losers' bracket")) for p in pair}
    if len(set(side.values())) == 2:
        raise CommandRejected(say("%(white)s (%(white_side)s) and %(black)s (%(black_side)s) can meet only in the "
                                  "grand final", white=_name(state, event.white), white_side=word(side[event.white]),
                                  black=_name(state, event.black), black_side=word(side[event.black])))
    if side[event.white] == "winners' bracket":
        mine = next((m for m in wb if event.white in (m.top, m.bottom)), None)
        if mine is None or pair != {mine.top, mine.bottom}:
            other = None if mine is None else (mine.bottom if mine.top == event.white else mine.top)
            raise CommandRejected(say("the winners' bracket pairs %(player)s with %(other)s in round %(round)d",
                                      player=_name(state, event.white),
                                      other=_name(state, other) if other else say("nobody"), round=event.round))


def places(state: TournamentState) -> Places:
    """Champion, runner-up, then by elimination round (later first), shared within a round."""
    opts = options_of(state)
    st = resolve(state, opts)
    name = {p: state.players[p].full_name for p in st.seeds}
    groups: list[tuple[list[tuple[str, str, str]], bool]] = []
    if st.champion is not None:
        lost = st.losses.get(st.champion, 0)
        groups.append(([(st.champion, name[st.champion],
                         ngettext("champion with %(losses)d loss", "champion with %(losses)d losses", lost)
                         % {"losses": lost})], False))
    if st.runner_up is not None:
        groups.append(([(st.runner_up, name[st.runner_up], st.out[st.runner_up][1])], False))
    alive = [p for p in st.alive() if p != st.runner_up]
    if alive:
        groups.insert(0, ([(p, name[p], gettext("still in, one loss") if st.losses.get(p)
                            else gettext("still in, unbeaten")) for p in alive], True))
    by_round: dict[int, list[str]] = {}
    for pid, (when, _) in st.out.items():
        if pid != st.runner_up:
            by_round.setdefault(when, []).append(pid)
    for when in sorted(by_round, reverse=True):
        members = sorted(by_round[when], key=lambda p: st.seeds.index(p))
        groups.append(([(p, name[p], st.out[p][1]) for p in members], False))
    rows: tuple[Place, ...] = share_places(groups)
    return Places(system="double-knockout", round=st.decided, finished=st.champion is not None, rows=rows,
                  notes=((gettext("%(entrants)d entrants; reset game on") if opts.reset
                          else gettext("%(entrants)d entrants; reset game off")) % {"entrants": len(st.seeds)},))
