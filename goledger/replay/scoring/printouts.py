"""What a director pins on the wall: the pairing list, the player list and the wall list
(issue 20, item 1). Pure functions of the state; :mod:`goledger.render.printouts` turns them
into text, CSV, HTML or JSON for the command line and the desk.

* :func:`pairing_list_of` — one round's tables: white and black by name with their ranks, the
  handicap, the komi and the result (``goledger pairings --round R``); the bye and the
  players not paired (absent, withdrawn, waiting) below.
* :func:`player_list_of` — every registered player with his registration status, rank,
  country, club and the rounds he plays (``goledger players``).
* :func:`wall_list_of` — the standings with the tournament's name and round in the title,
  country, club, status (withdrawn from round R, absent in round R) and OpenGotha-style
  per-round cells (``goledger wall-list``): ``12+/w2`` is a win against the player on line
  12 of the list, with white, at handicap 2 (see :data:`WALL_LEGEND`).

>>> from goledger.ledger import events as ev
>>> from goledger.ledger.values import Result
>>> from goledger.replay.fold.state import fold
>>> state = fold([ev.TournamentCreated(settings=ev.TournamentSettings(name="Cup", rounds=2)),
...               ev.PlayerRegistered(player_id="p0001", surname="Sato", first_name="Ken", rank="2d"),
...               ev.PlayerRegistered(player_id="p0002", surname="Ito", first_name="Mai", rank="1k"),
...               ev.GamePaired(round=1, table=1, white="p0001", black="p0002", handicap=0),
...               ev.ResultRecorded(round=1, table=1, result=Result.WHITE)])
>>> [row.cells for row in wall_list_of(state).rows]
[['2+/w'], ['1-/b']]
>>> pairing_list_of(state, 1).rows[0].result
'1-0'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n import N_, gettext, ngettext
from goledger.i18n.collation import sorted_by_name
from goledger.i18n.messages import say
from goledger.ledger.values import Result, effective_komi
from goledger.replay.scoring.standings import Standings, check_round, json_number, standings
from goledger.replay.scoring.units import unit_state

if TYPE_CHECKING:
    from collections.abc import Sequence

    from goledger.replay.fold.state import GameState, TournamentState

__all__ = [
    "PAIRING_LEGEND",
    "WALL_LEGEND",
    "PairingList",
    "PairingRow",
    "PlayerList",
    "PlayerRow",
    "WallList",
    "WallRow",
    "pairing_list_of",
    "player_list_of",
    "registration_text",
    "standings_heading",
    "standings_title",
    "status_text",
    "wall_list_of",
    "withdrawn_note",
]

RESULT_TEXT: Final[dict[Result, str]] = {
    Result.WHITE: "1-0", Result.BLACK: "0-1", Result.JIGO: "½-½", Result.BOTH_LOSE: "0-0",
    Result.BOTH_WIN: "1-1", Result.UNKNOWN: "",
}
"""A result as the pairing list prints it, white first (``!`` is added for a forfeit)."""

PAIRING_LEGEND: Final[tuple[tuple[str, str], ...]] = (
    ("1-0 / 0-1", N_("white / black won")),
    ("½-½", N_("jigo")),
    ("0-0 / 1-1", N_("both lose / both win")),
    ("!", N_("by default (forfeit)")),
    ("H", N_("handicap stones (0: even game)")),
)
"""The pairing list's notation, in English (the printouts show each meaning translated, and
``H`` as the handicap column's header writes it: Hungarian ``E``)."""

WALL_LEGEND: Final[tuple[tuple[str, str], ...]] = (
    ("12+/w2", N_("won against the player on line 12, with white, handicap 2 stones")),
    ("12-/b", N_("lost against line 12, with black, no handicap")),
    ("=", N_("jigo")),
    ("?", N_("no result yet")),
    ("!", N_("by default (forfeit), e.g. 12+!/w")),
    ("/-", N_("colour not known")),
    ("bye", N_("the bye of the round")),
    ("abs", N_("announced absence")),
    ("wd", N_("withdrawn from this round on")),
    ("-", N_("not paired in this round")),
)
"""What the wall list's per-round cells mean (OpenGotha's notation, with words for the
rounds without a game). The notation is the same in every language, as MMS and SOS are; the
meanings are written in the page's language (in English in JSON)."""


def _name(state: TournamentState, player_id: str) -> str:
    player = state.players.get(player_id)
    return player.full_name if player is not None else player_id


def _rank(state: TournamentState, player_id: str) -> str:
    player = state.players.get(player_id)
    return player.rank if player is not None else ""


def status_text(state: TournamentState, player_id: str, round_: int) -> str:
    """A player's status for a printout after/for ``round_``: ``"withdrawn from round 3"``,
    ``"absent in round 2"`` (an absence of that round, or else the next one announced),
    ``"preliminary"``, or ``""``."""
    p = state.players[player_id]
    if p.withdrawn_from is not None:
        return gettext("withdrawn from round %(round)d") % {"round": p.withdrawn_from}
    if round_ in p.absences:
        return gettext("absent in round %(round)d") % {"round": round_}
    later = sorted(r for r in p.absences if r > round_)
    if later:
        return gettext("absent in round %(round)d") % {"round": later[0]} if len(later) == 1 else (
            gettext("absent in rounds %(rounds)s") % {"rounds": ", ".join(str(r) for r in later)})
    if p.status != "final":
        return registration_text(p.status)
    return ""


def registration_text(status: str) -> str:
    """A registration status in words: ``final``, ``preliminary``."""
    return {"final": gettext("final"), "preliminary": gettext("preliminary")}.get(status, status)


# --------------------------------------------------------------------------- pairing list


class PairingRow(msgspec.Struct, frozen=True, kw_only=True):
    """One table of a round: names (not ids) and ranks, handicap, komi and result."""

    table: int
    white_id: str
    white: str
    white_rank: str
    black_id: str
    black: str
    black_rank: str
    handicap: int
    komi: str
    result: str
    by_default: bool


class PairingList(msgspec.Struct, frozen=True, kw_only=True):
    """The pairings of ``round``; ``bye`` and ``unpaired`` name who does not play (with why)."""

    tournament: str
    round: int
    rounds: int
    as_of_seq: int
    rows: list[PairingRow]
    bye: list[tuple[str, str]]
    unpaired: list[tuple[str, str, str]]

    @property
    def title(self) -> str:
        return gettext("%(tournament)s · pairings of round %(round)d of %(rounds)d") % {
            "tournament": self.tournament, "round": self.round, "rounds": self.rounds}

    def to_dict(self) -> dict[str, Any]:
        return {
            "tournament": self.tournament, "round": self.round, "rounds": self.rounds, "as_of_seq": self.as_of_seq,
            "tables": [msgspec.to_builtins(row) for row in self.rows],
            "bye": [{"player_id": pid, "name": name} for pid, name in self.bye],
            "not_paired": [{"player_id": pid, "name": name, "status": why} for pid, name, why in self.unpaired],
        }


def _komi(state: TournamentState, game: GameState) -> str:
    return effective_komi(state.settings_for_round(game.round).komi, game.komi, game.handicap)


def pairing_list_of(state: TournamentState, round: int) -> PairingList:  # noqa: A002
    """The pairing list of ``round`` in table order (spec ``pairing.md``: a table's komi is the
    game's own, else the tournament's for an even game and ½ point at handicap, as OpenGotha
    prints it)."""
    if state.settings is None:
        raise CommandRejected(say("the ledger has no tournament yet"))
    if not 1 <= round <= state.rounds:
        raise CommandRejected(say("round %(round)d is outside 1..%(rounds)d of this tournament", round=round,
                                  rounds=state.rounds))
    state = unit_state(state)
    assert state.settings is not None
    rows = [
        PairingRow(
            table=g.table, white_id=g.white, white=_name(state, g.white), white_rank=_rank(state, g.white),
            black_id=g.black, black=_name(state, g.black), black_rank=_rank(state, g.black), handicap=g.handicap,
            komi=_komi(state, g), result=RESULT_TEXT[g.result] + ("!" if g.by_default else ""),
            by_default=g.by_default,
        )
        for g in state.games_of_round(round)
    ]
    bye = [(pid, _name(state, pid)) for pid in state.byes.get(round, {}) if pid in state.players]
    unpaired = []
    for pid in state.players:
        status = state.status(pid, round)
        if status in ("absent", "withdrawn", "not-assigned"):
            why = {"not-assigned": gettext("not paired"), "absent": gettext("absent"),
                   "withdrawn": gettext("withdrawn")}[status]
            unpaired.append((pid, _name(state, pid), why))
    return PairingList(tournament=state.settings.name, round=round, rounds=state.rounds, as_of_seq=state.seq,
                       rows=rows, bye=bye, unpaired=unpaired)


# --------------------------------------------------------------------------- player list


class PlayerRow(msgspec.Struct, frozen=True, kw_only=True):
    """A registered player: ``registration`` is ``final`` or ``preliminary``; ``rounds`` are
    the rounds he is expected at (not absent, not withdrawn)."""

    player_id: str
    surname: str
    first_name: str
    rank: str
    country: str
    club: str
    egd_pin: str
    registration: str
    status: str
    rounds: list[int]
    rank_source: str = "given"
    """Where the rank came from: ``given`` (typed, or read from an imported file) or the
    rating list it was taken from (``egd 2019-02-22``; issue 34)."""
    pin_in_list: bool | None = None
    """Whether the rating list held the EGD PIN (``None``: not checked against a list)."""
    rating: int | None = None
    """His rating (the GoR, when it was taken from the EGD list; ``None``: none recorded)."""
    rating_source: str = ""
    """Where the rating came from: the rating list (``egd 2019-02-22``), ``given``, or ``""``
    when there is none (issue 43: the GoR recorded from the list was not shown)."""
    plays: list[int] = msgspec.field(default_factory=list)
    """Rounds he is paired in, or expected at (a round not paired yet, no absence)."""
    byes: list[int] = msgspec.field(default_factory=list)
    absent: list[int] = msgspec.field(default_factory=list)
    withdrawn: list[int] = msgspec.field(default_factory=list)
    not_paired: list[int] = msgspec.field(default_factory=list)
    """Paired rounds in which he has no game, bye, absence or withdrawal."""


class PlayerList(msgspec.Struct, frozen=True, kw_only=True):
    tournament: str
    rounds: int
    as_of_seq: int
    rows: list[PlayerRow]

    @property
    def title(self) -> str:
        return ngettext("%(tournament)s · %(n)d player registered", "%(tournament)s · %(n)d players registered",
                        len(self.rows)) % {"tournament": self.tournament, "n": len(self.rows)}

    def to_dict(self) -> dict[str, Any]:
        return {"tournament": self.tournament, "rounds": self.rounds, "as_of_seq": self.as_of_seq,
                "players": [msgspec.to_builtins(row) for row in self.rows]}


def _rank_source(p: Any) -> str:
    """``egd 2019-02-22`` when the rank came from that list, else ``given``."""
    origin = p.rating_list
    if origin is not None and "rank" in origin.fields:
        return f"{origin.source} {origin.date}"
    return "given"


def _rating_source(p: Any) -> str:
    """``egd 2019-02-22`` when the rating came from that list, ``given`` when typed or read
    from a file, ``""`` without a rating."""
    if p.rating is None:
        return ""
    origin = p.rating_list
    if origin is not None and "rating" in origin.fields:
        return f"{origin.source} {origin.date}"
    return "given"


_PER_ROUND = {"paired": "plays", "not-assigned": "plays", "bye": "byes", "absent": "absent",
              "withdrawn": "withdrawn", "not-paired": "not_paired"}
"""A round's status → the :class:`PlayerRow` list it is shown in."""


def player_list_of(state: TournamentState) -> PlayerList:
    """Every registered player (a cancelled registration is not one), by surname then first
    name in the alphabet of the language written in (:mod:`goledger.i18n.collation`: Turkish
    puts Çelebi after Cem, Hungarian Csányi after Cukor), with the rounds he plays."""
    if state.settings is None:
        raise CommandRejected(say("the ledger has no tournament yet"))
    rows = []
    now = state.last_round_with_games() or 1
    for p in sorted_by_name(state.players.values(), lambda p: p.surname, lambda p: p.first_name, lambda p: p.id):
        present = [r for r in range(1, state.rounds + 1) if not p.is_withdrawn(r) and r not in p.absences]
        per_round: dict[str, list[int]] = {"plays": [], "byes": [], "absent": [], "withdrawn": [], "not_paired": []}
        for r in range(1, state.rounds + 1):
            status: str = state.status(p.id, r)
            if status == "not-assigned" and (state.games.get(r) or state.byes.get(r)):
                status = "not-paired"
            per_round[_PER_ROUND[status]].append(r)
        rows.append(PlayerRow(**per_round,
            player_id=p.id, surname=p.surname, first_name=p.first_name, rank=p.rank, country=p.country, club=p.club,
            egd_pin=p.egd_pin, registration=p.status, status=status_text(state, p.id, now) if p.status == "final"
            else p.status, rounds=present, rank_source=_rank_source(p),
            pin_in_list=p.rating_list.listed if p.rating_list is not None else None,
            rating=p.rating, rating_source=_rating_source(p),
        ))
    return PlayerList(tournament=state.settings.name, rounds=state.rounds, as_of_seq=state.seq, rows=rows)


# --------------------------------------------------------------------------- wall list


class WallRow(msgspec.Struct, frozen=True, kw_only=True):
    """A line of the wall list: ``number`` is the line (cells refer to it), ``place`` the
    place (shared by exact ties)."""

    number: int
    place: int
    player_id: str
    name: str
    rank: str
    country: str
    club: str
    status: str
    cells: list[str]
    values: dict[str, int]


class WallList(msgspec.Struct, frozen=True, kw_only=True):
    tournament: str
    round: int
    rounds: int
    as_of_seq: int
    policy: str
    criteria: tuple[str, ...]
    scales: dict[str, int]
    rows: list[WallRow]

    @property
    def title(self) -> str:
        return standings_heading(self.tournament, self.round, self.rounds)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tournament": self.tournament, "round": self.round, "rounds": self.rounds, "as_of_seq": self.as_of_seq,
            "policy": self.policy, "criteria": list(self.criteria),
            "legend": dict(WALL_LEGEND),
            "rows": [{**msgspec.to_builtins(row),
                      "values": {c: json_number(row.values[c], self.scales[c]) for c in self.criteria}}
                     for row in self.rows],
        }


def _cell(state: TournamentState, pid: str, round_: int, number: dict[str, int]) -> str:
    game = state.game_of(pid, round_)
    if game is None:
        status = state.status(pid, round_)
        return {"bye": "bye", "absent": "abs", "withdrawn": "wd"}.get(status, "-")
    white = game.white == pid
    opponent = game.black if white else game.white
    w2, b2 = game.result.points2()
    mine, theirs = (w2, b2) if white else (b2, w2)
    if game.result is Result.UNKNOWN:
        outcome = "?"
    elif mine == theirs and game.result is Result.JIGO:
        outcome = "="
    else:
        outcome = "+" if mine > 1 else "-"
    if game.by_default:
        outcome += "!"
    colour = ("w" if white else "b") if game.color_known else "-"
    return f"{number.get(opponent, 0)}{outcome}/{colour}{game.handicap or ''}"


def wall_list_of(state: TournamentState, round: int | None = None, policy: str | None = None,  # noqa: A002
                 criteria: Sequence[str] | None = None, alphabet: str | None = None,
                 places: Sequence[tuple[str, int]] | None = None) -> WallList:
    """The standings after ``round`` (default: the latest paired) as a wall list: every
    listed player with country, club, status and one cell per round 1..R (:data:`WALL_LEGEND`).
    Places, values and order are those of :func:`~goledger.replay.scoring.standings.standings`;
    with ``alphabet`` (a language) players sharing a place are listed in its alphabet
    (:meth:`~goledger.replay.scoring.standings.Standings.in_alphabet`), numbered as listed.
    ``places`` — ``(player id, place)`` in order — are a system's own places (a knockout's,
    a Paramus's…: :func:`goledger.systems.views.wall_list`): they replace the standings, and
    the list has no criteria columns (a knockout's 3rd place is not its SOS)."""
    if state.settings is None:
        raise CommandRejected(say("the ledger has no tournament yet"))
    state = unit_state(state)
    assert state.settings is not None
    round_ = check_round(state, round)
    order: list[tuple[str, int, dict[str, int]]]
    used_criteria: tuple[str, ...]
    if places is not None:
        order = [(pid, place, {}) for pid, place in places if pid in state.players]
        used_policy, used_criteria, scales = state.settings.policy, (), {}
    else:
        table = standings(state, round_, policy, criteria)
        if alphabet is not None:
            table = table.in_alphabet(alphabet)
        order = [(row.player_id, row.place, row.values) for row in table.rows]
        used_policy, used_criteria, scales = table.policy, table.criteria, table.scales
    number = {pid: i for i, (pid, _, _) in enumerate(order, start=1)}
    rows = []
    for i, (pid, place, values) in enumerate(order, start=1):
        p = state.players[pid]
        rows.append(WallRow(
            number=i, place=place, player_id=p.id, name=p.full_name, rank=p.rank, country=p.country,
            club=p.club, status=status_text(state, p.id, max(round_, 1)),
            cells=[_cell(state, p.id, r, number) for r in range(1, round_ + 1)], values=values,
        ))
    return WallList(tournament=state.settings.name, round=round_, rounds=state.rounds, as_of_seq=state.seq,
                    policy=used_policy, criteria=tuple(used_criteria), scales=scales, rows=rows)


def withdrawn_note(state: TournamentState, table: Standings) -> str:
    """The line ``goledger standings`` prints under its table for the withdrawn players it
    lists (``withdrawn: p0003 Chen Li from round 3``), or ``""``; ``state`` is the one the
    standings were computed from (:func:`goledger.replay.views.standings_page`)."""
    marks = [gettext("%(id)s %(name)s from round %(round)d") % {
                 "id": row.player_id, "name": state.players[row.player_id].full_name,
                 "round": state.players[row.player_id].withdrawn_from}
             for row in table.rows
             if row.player_id in state.players and state.players[row.player_id].withdrawn_from is not None]
    return (gettext("withdrawn: %(players)s") % {"players": "; ".join(marks)}) if marks else ""


def standings_title(state: TournamentState, table: Standings) -> str:
    """The title of a standings page: ``"Club Cup · standings after round 2 of 3"``; ``state``
    is the one the standings were computed from."""
    assert state.settings is not None
    return standings_heading(state.settings.name, table.round, state.rounds)


def standings_heading(tournament: str, round_: int, rounds: int) -> str:
    """``"Club Cup · standings after round 2 of 3"`` (``before round 1`` for round 0), in the
    language written in."""
    if round_ == 0:
        return gettext("%(tournament)s · standings before round 1") % {"tournament": tournament}
    return gettext("%(tournament)s · standings after round %(round)d of %(rounds)d") % {
        "tournament": tournament, "round": round_, "rounds": rounds}
