"""Registration edits: ``goledger register`` and ``update-player``.

A player gets a ledger id (``p0001``…, never given twice), and his names, rank, club,
country, EGD PIN and rating are attributes; an EGD PIN fills what was not typed from the
ratings store's list (:mod:`goledger.commands.registration`). Two players with one EGD PIN,
or with one name (folded: case and the identity key of names) unless forced, are refused. A
player registered after rounds were paired is absent in the rounds before he joins
(:func:`goledger.commands.hand.decide_late_absences`).
"""

from __future__ import annotations

import re
from typing import Any, Final, Unpack

from goledger.commands.checks import check_names, parse_rank
from goledger.commands.recording import Outcome, PathLike, Plumbing, first_event, record
from goledger.errors import CommandRejected
from goledger.i18n import N_, gettext
from goledger.i18n.messages import say, say_at
from goledger.ledger import events as ev
from goledger.ledger.domains import identity_key
from goledger.replay.fold.players import NameIndex, find_player, fold_name, short_reference_clash
from goledger.replay.fold.state import TournamentState

__all__ = [
    "Registered",
    "decide_register",
    "decide_update_player",
    "player_changes",
    "register",
    "register_message",
    "update_player",
]


def _next_player_id(state: TournamentState) -> str:
    """The next free id; a cancelled registration's id is never given again."""
    number = len(state.players) + len(state.unregistered) + 1
    while f"p{number:04d}" in state.players or f"p{number:04d}" in state.unregistered:
        number += 1
    return f"p{number:04d}"


class Registered:
    """The registered players by what :func:`decide_register` refuses twice: EGD PIN, name
    (spaces, NFC and case folded) and identity (:func:`~goledger.ledger.domains.identity_key`),
    and their names as references (:class:`~goledger.replay.fold.players.NameIndex`): built
    once from a state, then added to row by row, so a file of 3,000 rows is decided in linear
    time (issue 41, item 7). Each key names the first player registered with it, the one the
    scan in the players' order would find."""

    def __init__(self, players: Any = ()) -> None:
        self.pins: dict[str, Any] = {}
        self.names: dict[tuple[str, ...], tuple[int, Any]] = {}
        self._players: list[Any] = []
        self._references: NameIndex | None = None
        for p in players:
            self.add(p)

    def add(self, player: Any) -> None:
        """Add the next player (after every player added before)."""
        if player.egd_pin:
            self.pins.setdefault(player.egd_pin, player)
        place = (len(self.names), player)
        self.names.setdefault(("=", fold_name(player.surname), fold_name(player.first_name)), place)
        self.names.setdefault(("~", *identity_key(player.surname, player.first_name)), place)
        self._players.append(player)
        if self._references is not None:
            self._references.add(player)

    @property
    def references(self) -> NameIndex:
        """The players' names as references, indexed on first use (a single ``register``
        decides without them)."""
        if self._references is None:
            self._references = NameIndex(self._players)
        return self._references

    def namesake(self, surname: str, first_name: str) -> Any:
        """The first registered player with this name, exactly or as a Unicode twin."""
        found = [self.names.get(("=", fold_name(surname), fold_name(first_name))),
                 self.names.get(("~", *identity_key(surname, first_name)))]
        places = [f for f in found if f is not None]
        return min(places, key=lambda f: f[0])[1] if places else None


def decide_register(
    state: TournamentState, *, surname: str, first_name: str, rank: str, grade: str = "", rating: int | None = None,
    country: str = "", club: str = "", egd_pin: str = "", preliminary: bool = False, mm_correction: int = 0,
    force: bool = False, provenance: ev.ListProvenance | None = None, registered: Registered | None = None,
) -> list[ev.Event]:
    """The ``PlayerRegistered`` of one player whose fields were checked (:func:`register`),
    against ``state`` (its players looked up in ``registered`` when given, a
    :class:`Registered` of them): refuses a PIN already registered, a list newer than the
    ratings freeze, and unless ``force`` a namesake or a registration once the last round is
    paired (:func:`_check_rounds_left`)."""
    from goledger.commands.registration import check_freeze

    if provenance is not None:
        assert state.settings is not None
        check_freeze(state.settings, provenance)
    known = registered if registered is not None else Registered(state.players.values())
    if egd_pin and egd_pin in known.pins:
        p = known.pins[egd_pin]
        raise CommandRejected(say("EGD PIN %(pin)s is already registered for %(player)s", pin=egd_pin,
                                  player=f"{p.id} {p.full_name}"))
    if not force:
        _check_rounds_left(state)
        p = known.namesake(surname, first_name)
        if p is not None:
            raise CommandRejected(say_at("%(name)s is already registered as %(id)s; use --force to register a namesake",
                                         N_("%(name)s is already registered as %(id)s; tick “Register anyway” to "
                                         "register a namesake"), name=f"{surname} {first_name}", id=p.id))
    return [ev.PlayerRegistered(
        player_id=_next_player_id(state), surname=surname, first_name=first_name, rank=rank,
        grade=grade, rating=rating, country=country, club=club, egd_pin=egd_pin,
        status="preliminary" if preliminary else "final", mm_correction=mm_correction,
        start_number=len(state.players) + 1, rating_list=provenance,
    )]


def _check_rounds_left(state: TournamentState) -> None:
    """Refuse a registration once the last round has a game or a bye (issue 40, item 6): the
    player could play no game and would be placed on absences alone (``force`` registers him
    anyway, e.g. to correct the list of a finished tournament)."""
    last = state.rounds
    if last and (state.games.get(last) or state.byes.get(last)):
        raise CommandRejected(say_at("round %(round)d, the last round, is already paired: a player registered now "
                                     "plays no game and would be placed on absences alone; use --force to register "
                                     "him anyway",
                                     N_("round %(round)d, the last round, is already paired: a player registered now "
                                     "plays no game and would be placed on absences alone; tick “Register anyway” "
                                     "to register him anyway"), round=last))


def register_message(state: TournamentState, events: list[ev.Event], note: str = "",
                     registered: Registered | None = None) -> str:
    """``registered p0012 Abe Ann (3k)``, with ``note`` and a short reference it shares (the
    players looked up in ``registered`` when given)."""
    event = first_event(events, ev.PlayerRegistered)
    clash = short_reference_clash(state.players.values(), event.surname, event.first_name,
                                  registered.references if registered is not None else None)
    tail = say("; note: %(clash)s", clash=clash) if clash else ""
    if note:
        tail = f"; {note}{tail}"
    return say("registered %(player)s (%(rank)s)", player=f"{event.player_id} {event.surname} {event.first_name}",
               rank=event.rank) + tail


def register(
    db: PathLike,
    surname: str,
    first_name: str,
    rank: str,
    country: str = "",
    club: str = "",
    egd_pin: str = "",
    rating: int | None = None,
    grade: str = "",
    mm_correction: int = 0,
    preliminary: bool = False,
    force: bool = False,
    *,
    ratings: PathLike | None = None,
    joins_round: int | None = None,
    **plumbing: Unpack[Plumbing],
) -> Outcome:
    """Register a player (:func:`decide_register`). Refuses a second player with the same
    EGD PIN, or with the same surname and first name unless ``force``.

    With an ``egd_pin`` the PIN must be 8 digits, and when the machine has a ratings store
    (``ratings``, default ``$GOLEDGER_RATINGS`` or the user data directory) the fields not
    given are filled from the list, which the event names
    (:mod:`goledger.commands.registration`: its refusals, ``force`` for a name that differs).

    A player registered after rounds were paired (or with ``joins_round``) is absent in the
    rounds before he joins, in the same transaction
    (:func:`goledger.commands.hand.decide_late_absences`)."""
    from goledger.commands.hand import decide_late_absences, late_absences_text
    from goledger.commands.registration import check_pin, fill_from_list

    filled = None
    if egd_pin.strip():
        given = {"surname": surname.strip(), "first_name": first_name.strip(), "country": country.strip(),
                 "club": club.strip(), "rank": rank.strip(), "grade": grade.strip(), "rating": rating}
        filled = fill_from_list(given, check_pin(egd_pin), ratings, force)
        surname, first_name, country, club, rank, grade, rating = (
            filled.values[k] for k in ("surname", "first_name", "country", "club", "rank", "grade", "rating"))
    if not str(rank).strip():
        raise CommandRejected(say_at("a player needs a rank (--rank), or an EGD PIN of the rating list (--egd-pin)",
                                     N_("a player needs a rank, or an EGD PIN of the rating list")))
    fields: dict[str, Any] = {"rank": parse_rank(rank), "surname": surname.strip(), "first_name": first_name.strip()}
    if not fields["surname"]:
        raise CommandRejected(say("a player needs a surname"))
    check_names(surname=fields["surname"], first_name=fields["first_name"], club=club, grade=grade)
    code = country.strip().upper()
    if code and not re.fullmatch(r"[A-Z]{2}", code):
        raise CommandRejected(say("country %(country)r must be a two-letter code such as FR", country=country))
    if not -1 <= mm_correction <= 2:
        raise CommandRejected(say("McMahon correction %(correction)d is outside -1..2", correction=mm_correction))
    fields.update(grade=grade, rating=rating, country=code, club=club.strip(), egd_pin=egd_pin.strip(),
                  preliminary=preliminary, mm_correction=mm_correction, force=force,
                  provenance=filled.provenance if filled else None)

    def decide(state: TournamentState) -> list[ev.Event]:
        events = decide_register(state, **fields)
        registered = first_event(events, ev.PlayerRegistered)
        return [*events, *decide_late_absences(state, registered.player_id, joins_round)]

    def describe(state: TournamentState, events: list[ev.Event]) -> str:
        return (register_message(state, events[:1], filled.note if filled else "")
                + late_absences_text(state, events[1:]))

    return record(db, decide, describe, **plumbing)


def player_changes(
    surname: str | None = None, first_name: str | None = None, rank: str | None = None, country: str | None = None,
    club: str | None = None, egd_pin: str | None = None, rating: int | None = None,
    mm_correction: int | None = None, preliminary: bool | None = None,
) -> dict[str, Any]:
    """The fields :func:`update_player` is asked to set, checked and in their recorded form
    (``None``: not given)."""
    wanted: dict[str, Any] = {}
    if surname is not None:
        wanted["surname"] = surname.strip()
    if first_name is not None:
        wanted["first_name"] = first_name.strip()
    if rank is not None:
        wanted["rank"] = parse_rank(rank)
    if country is not None:
        wanted["country"] = country.strip().upper()
    if club is not None:
        wanted["club"] = club.strip()
    if egd_pin is not None:
        if egd_pin.strip() and not egd_pin.strip().isdigit():
            raise CommandRejected(say("EGD PIN %(pin)r must be digits only", pin=egd_pin))
        wanted["egd_pin"] = egd_pin.strip()
    if rating is not None:
        wanted["rating"] = rating
    if mm_correction is not None:
        if not -1 <= mm_correction <= 2:
            raise CommandRejected(say("McMahon correction %(correction)d is outside -1..2", correction=mm_correction))
        wanted["mm_correction"] = mm_correction
    if preliminary is not None:
        wanted["status"] = "preliminary" if preliminary else "final"
    if egd_pin is not None and egd_pin.strip():
        from goledger.commands.registration import check_pin

        check_pin(egd_pin)
    return wanted


def decide_update_player(state: TournamentState, player: str, wanted: dict[str, Any], *, from_ratings: bool = False,
                         ratings: PathLike | None = None) -> list[ev.Event]:
    """The ``PlayerUpdated`` of ``player`` with the fields of ``wanted``
    (:func:`player_changes`) that differ, and with ``from_ratings`` those of the ratings
    store's current list that were not given. Refuses a change that changes nothing, another
    player's name or EGD PIN."""
    p = find_player(state, player)
    changes = {k: v for k, v in wanted.items() if getattr(p, k) != v}
    if from_ratings:
        from goledger.commands.registration import refresh_changes

        listed = refresh_changes(p, ratings, state.settings)
        changes = {**{k: v for k, v in listed.items() if k not in wanted}, **changes}
        if set(changes) == {"rating_list"}:
            raise CommandRejected(say("%(player)s already agrees with the list; nothing to change",
                                      player=f"{p.id} {p.full_name}"))
    if not changes:
        raise CommandRejected(say("%(player)s already has these values; nothing to change",
                                  player=f"{p.id} {p.full_name}"))
    if "surname" in changes or "first_name" in changes:
        twin = identity_key(changes.get("surname", p.surname), changes.get("first_name", p.first_name))
        for other in state.players.values():
            if other.id != p.id and identity_key(other.surname, other.first_name) == twin:
                raise CommandRejected(say("%(player)s already has this name; refusing a duplicate",
                                          player=f"{other.id} {other.full_name}"))
    pin = changes.get("egd_pin")
    if pin:
        for other in state.players.values():
            if other.id != p.id and other.egd_pin == pin:
                raise CommandRejected(say("EGD PIN %(pin)s is already registered for %(player)s", pin=pin,
                                          player=f"{other.id} {other.full_name}"))
    return [ev.PlayerUpdated(player_id=p.id, changes=changes)]


_FIELD_WORDS: Final = {"surname": N_("surname"), "first_name": N_("first name"), "rank": N_("rank"),
                       "country": N_("country"), "club": N_("club"), "egd_pin": N_("EGD PIN"), "rating": N_("rating"),
                       "grade": N_("grade"), "status": N_("status"), "mm_correction": N_("McMahon correction")}
"""A player's fields in words, as an update names them."""


def _value(value: object) -> str:
    """A field's value in an update's message: quoted as typed, a dash for none (never ``None``)."""
    return "—" if value is None else repr(value)


def update_player_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``updated p0003: rank '2k' → '1k', club 'Par' → 'Lyon'`` (and the list it came from)."""
    event = first_event(events, ev.PlayerUpdated)
    p = state.players[event.player_id]
    changes = event.changes
    fields = ", ".join(f"{gettext(_FIELD_WORDS.get(k, k))} {_value(getattr(p, k))} → {_value(v)}"
                       for k, v in changes.items() if k != "rating_list")
    if "rating_list" in changes:
        fields += say(" (from the %(source)s list of %(date)s)", source=changes["rating_list"]["source"],
                      date=changes["rating_list"]["date"])
    return say("updated %(id)s: %(fields)s", id=p.id, fields=fields)


def update_player(
    db: PathLike,
    player: str,
    surname: str | None = None,
    first_name: str | None = None,
    rank: str | None = None,
    country: str | None = None,
    club: str | None = None,
    egd_pin: str | None = None,
    rating: int | None = None,
    mm_correction: int | None = None,
    preliminary: bool | None = None,
    *,
    from_ratings: bool = False,
    ratings: PathLike | None = None,
    **plumbing: Unpack[Plumbing],
) -> Outcome:
    """Change some attributes of a player (:func:`decide_update_player`); refuses a change
    that changes nothing.

    ``from_ratings``: refresh country, club, rank, grade and rating from the ratings store's
    current list (:func:`goledger.commands.registration.refresh_changes`); fields given as
    well win over the list's."""
    wanted = player_changes(surname, first_name, rank, country, club, egd_pin, rating, mm_correction, preliminary)
    if not wanted and not from_ratings:
        raise CommandRejected(say_at("update-player needs at least one field to change",
                                     N_("fill in at least one field of the player to change")))
    return record(db, lambda state: decide_update_player(state, player, wanted, from_ratings=from_ratings,
                                                         ratings=ratings), update_player_message, **plumbing)
