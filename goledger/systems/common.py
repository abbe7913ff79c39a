"""What the tournament systems share: reading a system's options from the settings, the
seeding order, who won a game under the system's jigo rule, and the places table.

Every system keeps its settings in ``TournamentSettings.system_options`` (a plain mapping in
the ledger, which knows nothing of systems) and reads them into its own typed struct with
:func:`read_options`; an unknown or ill-typed option is refused with one sentence.

>>> class Demo(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
...     target: int = 3
>>> read_options(Demo, {"target": "5"}, "demo").target
5
"""

from __future__ import annotations

import itertools
import random
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n import gettext, pgettext
from goledger.i18n.messages import say, word
from goledger.ledger.values import Rank, Result

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence

    from goledger.replay.fold.state import PlayerState, TournamentState

__all__ = [
    "AT_DRAW",
    "JigoRule",
    "Place",
    "Places",
    "SeedingRule",
    "decided_winner",
    "engine_parameters",
    "entrants",
    "free_tables",
    "how_word",
    "out_of_round",
    "read_options",
    "seeded",
    "seeding_word",
]

T = TypeVar("T", bound=msgspec.Struct)

JigoRule = Literal["replay", "higher-seed", "white"]
"""What a jigo decides in an elimination game: ``replay`` (a jigo is not a result: the
replayed game's result is recorded at the same table), ``higher-seed`` (the better seed goes
on) or ``white`` (White goes on, as with a komi that allows no jigo)."""

SeedingRule = Literal["rank", "order", "lot"]
"""How the entrants are listed strongest first (spec ``pairing.md`` §1.1: "If players cannot be
ranked, round 1 is drawn by lot. Otherwise players are sorted by strength"): ``rank`` (rank,
then rating, then registration), ``order`` (start number, then registration: the director's
own list) or ``lot`` (a shuffle with the options' ``lot_seed``)."""


AT_DRAW = "rounds_at_draw"
"""The system option (``goledger new`` without ``--rounds``) saying that the round count is
computed from the entrants when the draw is made (issue 29): until then the tournament is set
up for round 1, and ``pair-round`` records the count with a ``RulesChanged`` at the draw."""


def engine_parameters(options: msgspec.Struct) -> dict[str, str]:
    """A system's options as a ``Pairing``'s parameters (texts), without :data:`AT_DRAW`
    (how the round count was set does not change a pairing)."""
    return {k: str(v) for k, v in msgspec.to_builtins(options).items() if k != AT_DRAW}


def free_tables(state: TournamentState, round_: int) -> Iterator[int]:
    """The table numbers of ``round_`` not taken yet, lowest first (a round paired in parts,
    ``pair-round --players`` then the rest, numbers its later games after the earlier ones)."""
    taken = set(state.games.get(round_, {}))
    return (t for t in itertools.count(1) if t not in taken)


def out_of_round(state: TournamentState, player_id: str, round_: int) -> str:
    """Why ``player_id`` cannot play ``round_`` in a few words (withdrew, absent), or ``""``."""
    p = state.players[player_id]
    if p.is_withdrawn(round_):
        return f"withdrew from round {p.withdrawn_from}"
    if round_ in p.absences:
        return f"is absent in round {round_}"
    return ""


def who(state: TournamentState, player_id: str) -> str:
    """``p0003 Surname First``: how a reason names a player."""
    p = state.players.get(player_id)
    return f"{player_id} {p.full_name}" if p is not None else player_id


def read_options(cls: type[T], raw: Mapping[str, Any], system: str) -> T:
    """The system's options struct from the stored mapping (texts from the command line are
    converted: ``"5"`` → 5, ``"yes"`` → True); a one-sentence refusal when an option is
    unknown or has the wrong type."""
    fields = {f.name: f.type for f in msgspec.structs.fields(cls)}
    data: dict[str, Any] = {}
    for key, value in raw.items():
        name = key.replace("-", "_")
        if name not in fields:
            known = ", ".join(n.replace("_", "-") for n in fields) or say("none")
            raise CommandRejected(say("a %(system)s tournament has no option %(option)r (its options: %(known)s)",
                                      system=system, option=key, known=known))
        data[name] = _coerce(value, fields[name])
    try:
        return msgspec.convert(data, cls, strict=False)
    except msgspec.ValidationError as exc:
        raise CommandRejected(say("the %(system)s options are not valid: %(problem)s", system=system,
                                  problem=str(exc))) from None


def _coerce(value: Any, annotation: Any) -> Any:
    if not isinstance(value, str):
        return value
    text = value.strip()
    if annotation is bool or annotation == "bool":
        if text.lower() in ("yes", "true", "1", "on"):
            return True
        if text.lower() in ("no", "false", "0", "off"):
            return False
    return text


def entrants(state: TournamentState) -> list[PlayerState]:
    """The players of a drawn event (bracket, ladder, match, Berger table): registered as final
    and not withdrawn before round 1 (a later withdrawal is a walkover, not an absence from the
    draw). Once round 1 has a game, the draw is fixed: a player registered after its first game
    was recorded is not an entrant."""
    first = min((g.paired_seq for g in state.games.get(1, {}).values()), default=None)
    return [p for p in state.players.values()
            if p.status == "final" and (p.withdrawn_from is None or p.withdrawn_from > 1)
            and (first is None or p.registered_seq < first)]


def seeded(players: Iterable[Any], rule: str, lot_seed: int = 0) -> list[Any]:
    """``players`` strongest first by ``rule`` (see :data:`SeedingRule`)."""
    base = sorted(players, key=lambda p: (p.start_number is None, p.start_number or 0, p.registered_seq))
    if rule == "order":
        return base
    if rule == "lot":
        random.Random(lot_seed).shuffle(base)
        return base
    return sorted(base, key=lambda p: (-Rank.parse(p.rank).value, -(p.rating or -10_000), p.registered_seq))


def decided_winner(game: Any, jigo: str, seed_of: Mapping[str, int]) -> str | None:
    """The player a game sends on (``None`` while it has no result). A by-default result
    counts as played: a forfeit is a walkover. Under ``higher-seed`` a jigo sends on the
    player with the smaller seed number; under ``white``, White."""
    result = game.result
    if result is Result.WHITE:
        return str(game.white)
    if result is Result.BLACK:
        return str(game.black)
    if result is Result.JIGO:
        if jigo == "white":
            return str(game.white)
        if jigo == "higher-seed":
            return str(min((game.white, game.black), key=lambda p: seed_of.get(p, 10**9)))
    return None


def refuse_undecided_result(result: Result, jigo: str, system: str) -> None:
    """An elimination game needs one winner: both-win and both-lose are refused, and so is a
    jigo under the ``replay`` rule (the replay's result is what the table records). ``system``
    is the system's name in English words, marked for the catalogs (``N_("knockout")``)."""
    if result in (Result.BOTH_WIN, Result.BOTH_LOSE):
        raise CommandRejected(say("a %(system)s game sends exactly one player on; %(result)s is not a result here",
                                  system=word(system), result=result.value))
    if result is Result.JIGO and jigo == "replay":
        raise CommandRejected(say("a jigo is replayed in this %(system)s (jigo rule 'replay'); record the replay's "
                                  "result", system=word(system)))


def refuse_rewriting(state: TournamentState, event: Any, jigo: str, seed_of: Mapping[str, int]) -> None:
    """Refuse a correction that changes who went on from a game once a later round is paired
    (the later pairings were made from it: unpair them first)."""
    game = state.games.get(event.round, {}).get(event.table)
    if game is None:
        return
    later = [r for r in range(event.round + 1, state.last_round_with_games() + 1) if state.games.get(r)]
    if not later:
        return
    before = decided_winner(game, jigo, seed_of)
    after = decided_winner(msgspec.structs.replace(game, result=event.result), jigo, seed_of)
    if before != after:
        raise CommandRejected(say("round %(round)d table %(table)d decided who went on, and round %(later)d was paired "
                                  "from it; unpair the later rounds before correcting it", round=event.round,
                                  table=event.table, later=later[0]))


class Place(msgspec.Struct, frozen=True, kw_only=True):
    """One line of a system's places: the place (shared places repeat the first number), the
    player, and why, in one sentence."""

    place: int
    player_id: str
    name: str
    why: str
    shared: bool = False
    active: bool = False


class Places(msgspec.Struct, frozen=True, kw_only=True):
    """A system's places after ``round`` (``finished`` when the system has decided them all)."""

    system: str
    round: int
    finished: bool
    rows: tuple[Place, ...]
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = msgspec.to_builtins(self)
        return data

    def explain(self, player_id: str) -> str:
        """Why ``player_id`` has his place, in one sentence."""
        for row in self.rows:
            if row.player_id == player_id:
                if row.active:
                    return gettext("%(name)s is still in: %(why)s") % {"name": row.name, "why": row.why}
                return gettext("%(name)s is placed %(place)s: %(why)s") % {"name": row.name, "place": _place_text(row),
                                                                         "why": row.why}
        raise CommandRejected(say("%(player)s has no place in this %(system)s", player=player_id, system=self.system))


def _place_text(row: Place) -> str:
    if row.active:
        return gettext("still in")
    return f"{'=' if row.shared else ''}{row.place}"


def how_word(how: str) -> str:
    """How a match was decided, in words: ``game``, ``walkover``, ``bye``."""
    return {"game": pgettext("a match decided by", "game"), "walkover": pgettext("a match decided by", "walkover"),
            "bye": pgettext("a match decided by", "bye")}.get(how, how)


def seeding_word(seeding: str) -> str:
    """A seeding rule (:data:`SeedingRule`) in words: by ``rank``, by registration ``order``, by ``lot``."""
    return {"rank": pgettext("seeding by", "rank"), "order": pgettext("seeding by", "registration order"),
            "lot": pgettext("seeding by", "lot")}.get(seeding, seeding)


def method_word(method: str) -> str:
    """A bracket's round-1 pairing method (``fold``, ``adjacent``, ``slide``) in words."""
    return {"fold": pgettext("pairing method", "fold"), "adjacent": pgettext("pairing method", "adjacent"),
            "slide": pgettext("pairing method", "slide")}.get(method, method)


def share_places(groups: Sequence[tuple[list[tuple[str, str, str]], bool]]) -> tuple[Place, ...]:
    """Number groups of (player id, name, why) in order: every member of a group gets the
    group's first place; ``active`` marks the group of players still in."""
    rows: list[Place] = []
    place = 1
    for members, active in groups:
        for pid, name, why in members:
            rows.append(Place(place=place, player_id=pid, name=name, why=why, shared=len(members) > 1,
                              active=active))
        place += len(members)
    return tuple(rows)
