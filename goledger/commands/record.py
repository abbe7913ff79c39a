"""Commands: a director's intent → validated events (DESIGN §8).

Each public function here is one CLI command with the same name and arguments
(``update_player`` is ``goledger update-player``). A command opens the ledger, takes the
write lock, folds the current state, validates, and appends its events in one
transaction. When it refuses it raises :class:`~goledger.errors.CommandRejected` with one
sentence naming the problem, and nothing is written.

Player references (``player``, ``white``, ``black``) accept the ledger id (``p0007``), an
EGD PIN, or a unique name (``"Surname First"``, ``"Surname, First"`` or a unique surname).

Common keyword arguments: ``db`` (path of the ledger file), ``actor`` and ``reason`` (kept in
the envelope), ``expected_head`` (the sequence number the caller last saw: a moved head is
refused unless ``retry``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from goledger.errors import CommandRejected, LedgerError, StaleHeadError
from goledger.ledger import events as ev
from goledger.ledger.describe import all_subjects, describe_event, describe_subject, names_from, subjects
from goledger.ledger.domains import date_problem, event_problem, identity_key, text_problem
from goledger.ledger.repair import RepairReport
from goledger.ledger.result_notation import margin_words, parse_result_notation
from goledger.ledger.store import Ledger, Record, VerifyReport, utc_now
from goledger.ledger.values import Rank, RankError, Result, parse_number, parse_points2
from goledger.outputs import one_line
from goledger.replay.players import find_player, fold_name, short_reference_clash

__all__ = [
    "Outcome",
    "absent",
    "bye",
    "change_rules",
    "correct",
    "decide_register",
    "find_player",
    "log",
    "new",
    "pair",
    "present",
    "register",
    "reinstate",
    "repair_report",
    "result",
    "unbye",
    "unpair",
    "update_player",
    "verify",
    "withdraw",
]

PathLike = str | os.PathLike[str]


class Outcome(msgspec.Struct, frozen=True):
    """What a command appended, with a one-line summary for the director."""

    message: str
    records: list[Record]

    @property
    def seqs(self) -> list[int]:
        return [r.seq for r in self.records]


# --------------------------------------------------------------------------- plumbing


def _run(
    db: PathLike,
    build: Callable[[Any], tuple[list[ev.Event], str]],
    *,
    actor: str,
    reason: str,
    expected_head: int | None,
    retry: bool,
) -> Outcome:
    """Lock the ledger, fold it, let ``build`` validate and produce events, append them.

    With ``expected_head`` (the last event the desk saw): a moved head is refused with a
    sentence naming what was recorded since; with ``retry`` the command is validated
    against the new state and appended unless the events since touch the same table,
    player-round, player or rules as the new ones (see :mod:`goledger.ledger.describe`).
    """
    from goledger.replay.load import load_state

    with Ledger.open(db) as ledger:
        try:
            with ledger.writing(expected_head, retry=retry) as tx:
                state = load_state(tx)
                if state.settings is None:
                    raise CommandRejected(f"{db} has no tournament (its log has no TournamentCreated event)")
                since: list[Record] = []
                if expected_head is not None and tx.head.seq != expected_head:
                    since = list(tx.records(after=expected_head))
                name_of = names_from(state.players)
                try:
                    events, message = build(state)
                except CommandRejected as exc:
                    if not since:
                        raise
                    raise CommandRejected(
                        f"{exc.message} (recorded since event {expected_head}: {_since_text(since, name_of)})"
                    ) from None
                for event in events:  # the declared domains: nothing outside them is appended
                    problem = event_problem(event)
                    if problem:
                        raise CommandRejected(problem)
                if since:
                    _refuse_conflicts(events, since, expected_head, name_of)
                records = tx.append(events, actor=actor or _default_actor(), reason=reason)
                return Outcome(message, records)
        except StaleHeadError as exc:
            if not exc.since:
                raise
            name_of = names_from(load_state(ledger).players)
            count = len(exc.since)
            raise StaleHeadError(
                f"the ledger changed since event {exc.expected}, the last one you saw: {count} "
                f"event{'s were' if count > 1 else ' was'} recorded since ({_since_text(exc.since, name_of)}); "
                "nothing was written: check them, then repeat with --retry to record yours against them",
                expected=exc.expected, since=exc.since,
            ) from None


def _since_text(records: Sequence[Record], name_of: Callable[[str], str], limit: int = 5) -> str:
    """``"813 round 4 table 12: result white (desk-b, 14:02 UTC); …"`` for the first ``limit``."""
    parts = [_record_text(r, name_of) for r in records[:limit]]
    more = f"; and {len(records) - limit} more" if len(records) > limit else ""
    return "; ".join(parts) + more


def _record_text(record: Record, name_of: Callable[[str], str]) -> str:
    try:
        what = describe_event(record.event, name_of)
    except (ValueError, msgspec.ValidationError, msgspec.DecodeError):
        what = record.type
    by = ", ".join(x for x in (record.actor, f"{record.recorded_at[11:16]} UTC" if record.recorded_at else "") if x)
    return f"{record.seq} {what}" + (f" ({by})" if by else "")


def _refuse_conflicts(
    events: Sequence[ev.Event], since: Sequence[Record], expected_head: int | None,
    name_of: Callable[[str], str],
) -> None:
    """Refuse (``--retry``) when an event recorded since the expected head touches what the
    new events touch."""
    mine = all_subjects(events)
    for record in since:
        try:
            theirs = subjects(record.event)
        except (ValueError, msgspec.ValidationError, msgspec.DecodeError):
            continue
        shared = mine & theirs
        if shared:
            what = describe_subject(sorted(shared, key=str)[0], name_of)
            raise CommandRejected(
                f"{what} changed since event {expected_head}, the last one you saw "
                f"({_record_text(record, name_of)}); nothing was written: check it, then repeat with "
                f"--expected-head {since[-1].seq} if your command still applies"
            )


def _default_actor() -> str:
    return os.environ.get("GOLEDGER_ACTOR") or os.environ.get("USER") or "director"


def _check_system(state: Any, event: ev.Event) -> None:
    """What the tournament system forbids (a game for an eliminated player, beyond a cap…)."""
    from goledger.systems import check_event

    check_event(state, event)


def _check_round(state: Any, round_: int) -> None:
    if not 1 <= round_ <= state.rounds:
        raise CommandRejected(f"round {round_} is outside 1..{state.rounds} of this tournament")


def _parse_rank(text: str) -> str:
    try:
        return str(Rank.parse(text))
    except RankError as exc:
        raise CommandRejected(str(exc)) from None


def _parse_komi(komi: str | None) -> str | None:
    if komi is None:
        return None
    try:
        value = parse_number(komi)  # bounded as text: Fraction("1e999999999") would take hours
    except ValueError:
        raise CommandRejected(f"komi {komi[:32]!r} is not a number such as 6.5 or 7") from None
    if (value * 2).denominator != 1:
        raise CommandRejected(f"komi {komi!r} must be a whole or half number")
    return komi.strip().replace(",", ".")


def _parse_points(points: str | float | None) -> int | None:
    if points is None:
        return None
    try:
        return parse_points2(str(points))
    except ValueError as exc:
        raise CommandRejected(str(exc)) from None


# --------------------------------------------------------------------------- new

_PRESETS: dict[str, dict[str, Any]] = {
    "mcmahon": {"mm_bar": "4d", "mm_floor": "20k", "criteria": ("MMS", "SOSM", "SOSOSM")},
    "swiss": {"mm_bar": "9d", "mm_floor": "30k", "criteria": ("NBW", "SOSW", "SOSOSW")},
    "swisscat": {"mm_bar": "9d", "mm_floor": "30k", "criteria": ("CAT", "NBW", "EXT", "EXR")},
    "cup": {"mm_bar": "9d", "mm_floor": "30k", "nbw2_bye": 0, "mms2_bye": 0, "mms2_absent": 0,
            "criteria": ("CPS",)},
    "round-robin": {"mm_bar": "9d", "mm_floor": "30k", "criteria": ("NBW", "DE", "SB", "KS", "WIN")},
    "team-swiss": {"mm_bar": "9d", "mm_floor": "30k", "criteria": ("NBW", "SOSW", "SOSOSW")},
    "team-mcmahon": {"mm_bar": "4d", "mm_floor": "20k", "criteria": ("MMS", "SOSM", "SOSOSM")},
    **{s: {"mm_bar": "9d", "mm_floor": "30k", "nbw2_bye": 2, "mms2_bye": 2, "criteria": ("NBW", "SOSW", "SOSOSW")}
       for s in ("knockout", "double-knockout", "paramus", "match", "handicap", "continuous-handicap")},
}


def new(
    db: PathLike,
    name: str,
    rounds: int | None,
    system: str = "mcmahon",
    bar: str | None = None,
    floor: str | None = None,
    policy: str | None = None,
    criteria: Sequence[str] | None = None,
    komi: str = "7.5",
    short_name: str = "",
    location: str = "",
    begin_date: str = "",
    end_date: str = "",
    options: dict[str, Any] | None = None,
    time: str | None = None,
    main_time: int | None = None,
    byo_yomi: int | None = None,
    periods: int | None = None,
    stones: int | None = None,
    fischer: int | None = None,
    handicap_correction: int | None = None,
    handicap_ceiling: int | None = None,
    handicap_threshold: str | None = None,
    handicap_on: str | None = None,
    language: str | None = None,
    *,
    actor: str = "",
    reason: str = "",
    clock: Callable[[], str] = utc_now,
) -> Outcome:
    """Create a new ledger file holding one ``TournamentCreated`` event.

    Defaults follow OpenGotha's new-tournament presets per system (McMahon: bar 4d, floor
    20k, criteria MMS/SOSM/SOSOSM; Swiss: NBW/SOSW/SOSOSW; cup: byes and absences worth 0).
    ``options`` are the system's own settings (``goledger.systems``, e.g. ``{"method": "slide"}``
    for a knockout), refused when the system does not know them.

    Thinking time (``TimeSettings``): ``time`` is the overtime system (``sudden-death``,
    ``byo-yomi``, ``canadian``, ``fischer``) with ``main_time`` minutes and, per system,
    ``byo_yomi`` seconds (and ``periods``; Canadian: ``stones`` in ``byo_yomi`` seconds) or
    ``fischer`` seconds per move. Without ``time`` the tournament has no time settings (the
    EGD export then writes no class). Handicap (``HandicapSettings``, spec opengotha-xml
    §7.2): ``handicap_correction`` stones subtracted, ``handicap_ceiling`` (0: even games),
    ``handicap_threshold`` rank from which games are even, ``handicap_on`` ``mms`` or ``rank``.
    ``language`` (``en``, ``tr``, ``hu``, ``fr``, ``de``; default English) is the language of
    the printouts and the desk (``goledger.i18n``).

    ``rounds`` ``None`` (no ``--rounds``) is for a system whose round count follows from its
    entrants (knockout, double knockout, Paramus, round robin: issue 29): the tournament is
    set up for round 1 with the system option ``rounds_at_draw``, and ``pair-round 1`` records
    the count when it makes the draw.
    """
    if system not in _PRESETS:
        raise CommandRejected(f"unknown system {system!r}; use one of {', '.join(_PRESETS)}")
    if not name.strip():
        raise CommandRejected("a tournament needs a name")
    if rounds is None:
        from goledger.systems import ROUNDS_AT_DRAW

        if system not in ROUNDS_AT_DRAW:
            raise CommandRejected(f"a {system} tournament needs --rounds (only {', '.join(sorted(ROUNDS_AT_DRAW))} "
                                  "compute their rounds at the draw)")
        options = {**(options or {}), "rounds_at_draw": True}
        rounds = 1
    elif {"rounds_at_draw", "rounds-at-draw"} & set(options or {}):
        raise CommandRejected("give either --rounds or the option rounds-at-draw, not both")
    if not 1 <= rounds <= 99:
        raise CommandRejected(f"a tournament has 1..99 rounds, not {rounds}")
    preset = dict(_PRESETS[system])
    if bar is not None:
        preset["mm_bar"] = _parse_rank(bar)
    if floor is not None:
        preset["mm_floor"] = _parse_rank(floor)
    if Rank.parse(preset["mm_floor"]) > Rank.parse(preset["mm_bar"]):
        raise CommandRejected(f"the McMahon floor {preset['mm_floor']} is above the bar {preset['mm_bar']}")
    from goledger.replay.policies import get_policy

    policy_name = policy or "opengotha"
    chosen = get_policy(policy_name)
    if criteria:
        from goledger.replay.criteria import get_criterion

        preset["criteria"] = tuple(get_criterion(chosen.criterion_name(c)).name for c in criteria)
    for text, label in ((begin_date, "begin date"), (end_date, "end date")):
        problem = date_problem(text, f"the {label}")
        if problem:
            raise CommandRejected(problem)
    from goledger.commands.settings import handicap_settings, time_settings
    from goledger.systems import system_options

    preset["time"] = time_settings(time, main_time, byo_yomi, periods, stones, fischer)
    preset["handicap"] = handicap_settings(handicap_correction, handicap_ceiling, handicap_threshold, handicap_on)
    _check_names(name=name, short_name=short_name, location=location)
    from goledger.i18n import LANGUAGES

    if language is not None and language not in LANGUAGES:
        raise CommandRejected(f"language {language!r} has no catalog; use one of {', '.join(LANGUAGES)}")
    if language:
        preset["language"] = language
    settings = ev.TournamentSettings(
        name=name.strip(), short_name=short_name, location=location, begin_date=begin_date,
        end_date=end_date, rounds=rounds, system=system,  # type: ignore[arg-type]
        komi=_parse_komi(komi) or "7.5", policy=policy_name, **preset,
        system_options=system_options(system, dict(options or {})),
        # A tournament run here lists every registered player, before round 1 and before a
        # late arrival's first game (issue 20); OpenGotha's own files keep its "implied" list.
        policy_overrides={"listed_players": "all"} if policy_name == "opengotha" else {},
    )
    problem = event_problem(ev.TournamentCreated(settings=settings))
    if problem:
        raise CommandRejected(problem)
    path = Path(db)
    records = Ledger.create_complete(path, [ev.TournamentCreated(settings=settings)],
                                     actor=actor or _default_actor(), reason=reason, clock=clock)
    count = "rounds set at the draw" if settings.system_options.get("rounds_at_draw") else f"{rounds} rounds"
    return Outcome(f"created {path} for {settings.name} ({system}, {count})", records)


# --------------------------------------------------------------------------- players


def _next_player_id(state: Any) -> str:
    """The next free id; a cancelled registration's id is never given again."""
    number = len(state.players) + len(state.unregistered) + 1
    while f"p{number:04d}" in state.players or f"p{number:04d}" in state.unregistered:
        number += 1
    return f"p{number:04d}"


def decide_register(
    state: Any, *, surname: str, first_name: str, rank: str, grade: str = "", rating: int | None = None,
    country: str = "", club: str = "", egd_pin: str = "", preliminary: bool = False, mm_correction: int = 0,
    force: bool = False, provenance: ev.ListProvenance | None = None, note: str = "",
) -> tuple[list[ev.Event], str]:
    """The registration of one player whose fields were checked (:func:`register`), against
    ``state``: refuses a PIN already registered, a list newer than the ratings freeze, and a
    namesake unless ``force``; ``note`` is added to the message."""
    from goledger.commands.registration import check_freeze

    if provenance is not None:
        check_freeze(state.settings, provenance)
    if egd_pin:
        for p in state.players.values():
            if p.egd_pin == egd_pin:
                raise CommandRejected(f"EGD PIN {egd_pin} is already registered for {p.id} {p.full_name}")
    if not force:
        wanted = (fold_name(surname), fold_name(first_name))
        twin = identity_key(surname, first_name)
        for p in state.players.values():
            if (fold_name(p.surname), fold_name(p.first_name)) == wanted or identity_key(
                    p.surname, p.first_name) == twin:
                raise CommandRejected(
                    f"{surname} {first_name} is already registered as {p.id}; use --force to register a namesake"
                )
    player_id = _next_player_id(state)
    event = ev.PlayerRegistered(
        player_id=player_id, surname=surname, first_name=first_name, rank=rank,
        grade=grade, rating=rating, country=country, club=club, egd_pin=egd_pin,
        status="preliminary" if preliminary else "final", mm_correction=mm_correction,
        start_number=len(state.players) + 1, rating_list=provenance,
    )
    clash = short_reference_clash(state.players.values(), surname, first_name)
    tail = f"; note: {clash}" if clash else ""
    if note:
        tail = f"; {note}{tail}"
    return [event], f"registered {player_id} {surname} {first_name} ({rank}){tail}"


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
    actor: str = "",
    reason: str = "",
    expected_head: int | None = None,
    retry: bool = False,
    ratings: PathLike | None = None,
    joins_round: int | None = None,
) -> Outcome:
    """Register a player. Refuses a second player with the same EGD PIN, or with the same
    surname and first name unless ``force``.

    With an ``egd_pin`` the PIN must be 8 digits, and when the machine has a ratings store
    (``ratings``, default ``$GOLEDGER_RATINGS`` or the user data directory) the fields not
    given are filled from the list, which the event names
    (:mod:`goledger.commands.registration`: its refusals, ``force`` for a name that differs).

    A player registered after rounds were paired (or with ``joins_round``) is absent in the
    rounds before he joins, in the same transaction
    (:func:`goledger.commands.hand.decide_late_absences`)."""
    from goledger.commands.registration import check_pin, fill_from_list

    filled = None
    if egd_pin.strip():
        given = {"surname": surname.strip(), "first_name": first_name.strip(), "country": country.strip(),
                 "club": club.strip(), "rank": rank.strip(), "grade": grade.strip(), "rating": rating}
        filled = fill_from_list(given, check_pin(egd_pin), ratings, force)
        surname, first_name, country, club, rank, grade, rating = (
            filled.values[k] for k in ("surname", "first_name", "country", "club", "rank", "grade", "rating"))
    if not str(rank).strip():
        raise CommandRejected("a player needs a rank (--rank), or an EGD PIN of the rating list (--egd-pin)")
    canonical_rank = _parse_rank(rank)
    surname, first_name = surname.strip(), first_name.strip()
    if not surname:
        raise CommandRejected("a player needs a surname")
    _check_names(surname=surname, first_name=first_name, club=club, grade=grade)
    pin = egd_pin.strip()
    code = country.strip().upper()
    if code and not re.fullmatch(r"[A-Z]{2}", code):
        raise CommandRejected(f"country {country!r} must be a two-letter code such as FR")
    if not -1 <= mm_correction <= 2:
        raise CommandRejected(f"McMahon correction {mm_correction} is outside -1..2")

    def build(state: Any) -> tuple[list[ev.Event], str]:
        events, message = decide_register(
            state, surname=surname, first_name=first_name, rank=canonical_rank, grade=grade, rating=rating,
            country=code, club=club.strip(), egd_pin=pin, preliminary=preliminary, mm_correction=mm_correction,
            force=force, provenance=filled.provenance if filled else None, note=filled.note if filled else "")
        from goledger.commands.hand import decide_late_absences, late_absences_text

        registered = events[0]
        assert isinstance(registered, ev.PlayerRegistered)
        late = decide_late_absences(state, registered.player_id, joins_round)
        return [*events, *late], message + late_absences_text(state, late)

    return _run(db, build, actor=actor, reason=reason, expected_head=expected_head, retry=retry)


def _check_names(**fields: str) -> None:
    """Names are text, not control (:func:`goledger.ledger.domains.text_problem`)."""
    for label, value in fields.items():
        problem = text_problem(value, label.replace("_", " "))
        if problem:
            raise CommandRejected(problem)


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
    actor: str = "",
    reason: str = "",
    expected_head: int | None = None,
    retry: bool = False,
    from_ratings: bool = False,
    ratings: PathLike | None = None,
) -> Outcome:
    """Change some attributes of a player; refuses a change that changes nothing.

    ``from_ratings``: refresh country, club, rank, grade and rating from the ratings store's
    current list (:func:`goledger.commands.registration.refresh_changes`); fields given as
    well win over the list's."""
    wanted: dict[str, Any] = {}
    if surname is not None:
        wanted["surname"] = surname.strip()
    if first_name is not None:
        wanted["first_name"] = first_name.strip()
    if rank is not None:
        wanted["rank"] = _parse_rank(rank)
    if country is not None:
        wanted["country"] = country.strip().upper()
    if club is not None:
        wanted["club"] = club.strip()
    if egd_pin is not None:
        if egd_pin.strip() and not egd_pin.strip().isdigit():
            raise CommandRejected(f"EGD PIN {egd_pin!r} must be digits only")
        wanted["egd_pin"] = egd_pin.strip()
    if rating is not None:
        wanted["rating"] = rating
    if mm_correction is not None:
        if not -1 <= mm_correction <= 2:
            raise CommandRejected(f"McMahon correction {mm_correction} is outside -1..2")
        wanted["mm_correction"] = mm_correction
    if preliminary is not None:
        wanted["status"] = "preliminary" if preliminary else "final"
    if egd_pin is not None and egd_pin.strip():
        from goledger.commands.registration import check_pin

        check_pin(egd_pin)
    if not wanted and not from_ratings:
        raise CommandRejected("update-player needs at least one field to change")

    def build(state: Any) -> tuple[list[ev.Event], str]:
        p = find_player(state, player)
        changes = {k: v for k, v in wanted.items() if getattr(p, k) != v}
        if from_ratings:
            from goledger.commands.registration import refresh_changes

            listed = refresh_changes(p, ratings, state.settings)
            changes = {**{k: v for k, v in listed.items() if k not in wanted}, **changes}
            if set(changes) == {"rating_list"}:
                raise CommandRejected(f"{p.id} {p.full_name} already agrees with the list; nothing to change")
        if not changes:
            raise CommandRejected(f"{p.id} {p.full_name} already has these values; nothing to change")
        if "surname" in changes or "first_name" in changes:
            twin = identity_key(changes.get("surname", p.surname), changes.get("first_name", p.first_name))
            for other in state.players.values():
                if other.id != p.id and identity_key(other.surname, other.first_name) == twin:
                    raise CommandRejected(f"{other.id} {other.full_name} already has this name; refusing a duplicate")
        pin = changes.get("egd_pin")
        if pin:
            for other in state.players.values():
                if other.id != p.id and other.egd_pin == pin:
                    raise CommandRejected(f"EGD PIN {pin} is already registered for {other.id} {other.full_name}")
        fields = ", ".join(f"{k} {getattr(p, k)!r} → {v!r}" for k, v in changes.items() if k != "rating_list")
        if "rating_list" in changes:
            fields += f" (from the {changes['rating_list']['source']} list of {changes['rating_list']['date']})"
        return [ev.PlayerUpdated(player_id=p.id, changes=changes)], f"updated {p.id}: {fields}"

    return _run(db, build, actor=actor, reason=reason, expected_head=expected_head, retry=retry)


def withdraw(
    db: PathLike,
    player: str,
    from_round: int,
    reason: str = "",
    *,
    actor: str = "",
    expected_head: int | None = None,
    retry: bool = False,
) -> Outcome:
    """The player leaves from ``from_round`` on. Refuses while he is still paired or holds a
    bye in that round or later (unpair first)."""

    def build(state: Any) -> tuple[list[ev.Event], str]:
        _check_round(state, from_round)
        p = find_player(state, player)
        if p.withdrawn_from is not None and p.withdrawn_from <= from_round:
            raise CommandRejected(f"{p.id} {p.full_name} already withdrew from round {p.withdrawn_from}")
        for r in range(from_round, state.rounds + 1):
            game = state.game_of(p.id, r)
            if game is not None:
                raise CommandRejected(
                    f"{p.id} {p.full_name} is paired in round {r} (table {game.table}); unpair that game first"
                )
            if p.id in state.byes.get(r, {}):
                raise CommandRejected(f"{p.id} {p.full_name} holds the bye of round {r}; remove it first")
        event = ev.PlayerWithdrew(player_id=p.id, from_round=from_round, reason=reason)
        from goledger.replay.standings import resolve_policy
        from goledger.replay.withdrawals import withdrawal_rule

        rule = withdrawal_rule(resolve_policy(state, None), state.settings_for_round(from_round))
        return [event], (f"{p.id} {p.full_name} withdraws from round {from_round}; {rule} "
                         f"(goledger explain {p.id} shows it)")

    return _run(db, build, actor=actor, reason=reason, expected_head=expected_head, retry=retry)


def reinstate(
    db: PathLike,
    player: str,
    from_round: int,
    *,
    actor: str = "",
    reason: str = "",
    expected_head: int | None = None,
    retry: bool = False,
) -> Outcome:
    """Undo a withdrawal from ``from_round`` on (rounds missed in between stay missed)."""

    def build(state: Any) -> tuple[list[ev.Event], str]:
        _check_round(state, from_round)
        p = find_player(state, player)
        if p.withdrawn_from is None:
            raise CommandRejected(f"{p.id} {p.full_name} has not withdrawn")
        event = ev.PlayerReinstated(player_id=p.id, from_round=from_round)
        return [event], f"{p.id} {p.full_name} plays again from round {from_round}"

    return _run(db, build, actor=actor, reason=reason, expected_head=expected_head, retry=retry)


def absent(
    db: PathLike,
    player: str,
    round: int,  # noqa: A002
    points: str | None = None,
    *,
    actor: str = "",
    reason: str = "",
    expected_head: int | None = None,
    retry: bool = False,
) -> Outcome:
    """Record an announced absence for one round. ``points`` (``0``, ``0.5``, ``1``) gives it
    its own value (a FIDE half- or zero-point bye); without it the policy decides."""
    points2 = _parse_points(points)
    if points2 is not None and not 0 <= points2 <= 2:
        raise CommandRejected(f"an absence is worth 0, 0.5 or 1 point, not {points}")

    def build(state: Any) -> tuple[list[ev.Event], str]:
        _check_round(state, round)
        p = find_player(state, player)
        if p.is_withdrawn(round):
            raise CommandRejected(f"{p.id} {p.full_name} withdrew from round {p.withdrawn_from}")
        game = state.game_of(p.id, round)
        if game is not None:
            raise CommandRejected(
                f"{p.id} {p.full_name} is paired in round {round} (table {game.table}); unpair that game first"
            )
        if p.id in state.byes.get(round, {}):
            raise CommandRejected(f"{p.id} {p.full_name} holds the bye of round {round}; remove it first")
        if round in p.absences and p.absences[round] == points2:
            raise CommandRejected(f"{p.id} {p.full_name} is already absent in round {round}")
        event = ev.ParticipationChanged(player_id=p.id, round=round, participating=False, points2=points2)
        worth = "" if points2 is None else f" worth {points}"
        return [event], f"{p.id} {p.full_name} absent in round {round}{worth}"

    return _run(db, build, actor=actor, reason=reason, expected_head=expected_head, retry=retry)


def present(
    db: PathLike,
    player: str,
    round: int,  # noqa: A002
    *,
    actor: str = "",
    reason: str = "",
    expected_head: int | None = None,
    retry: bool = False,
) -> Outcome:
    """Cancel an announced absence."""

    def build(state: Any) -> tuple[list[ev.Event], str]:
        _check_round(state, round)
        p = find_player(state, player)
        if round not in p.absences:
            raise CommandRejected(f"{p.id} {p.full_name} is not marked absent in round {round}")
        event = ev.ParticipationChanged(player_id=p.id, round=round, participating=True)
        return [event], f"{p.id} {p.full_name} present in round {round}"

    return _run(db, build, actor=actor, reason=reason, expected_head=expected_head, retry=retry)


_REPEATS_REFUSED = frozenset({"mcmahon", "swiss", "swisscat"})
"""Systems where a manual ``pair`` refuses a repeat and ``bye`` a player's second bye unless
``force`` (a match or a continuous handicap event repeats games by design; knockouts and the
other systems check their own rules)."""


def _check_available(state: Any, p: Any, round_: int, overridden: list[str] | None = None) -> None:
    """Refuse a player who cannot take a game or the bye in ``round_``. With ``overridden``
    (``--force``), a withdrawal or an absence is noted there instead of refused."""
    if p.is_withdrawn(round_):
        if overridden is None:
            raise CommandRejected(f"{p.id} {p.full_name} withdrew from round {p.withdrawn_from}; use --force to "
                                  "pair him anyway")
        overridden.append(f"{p.id} withdrew")
    elif round_ in p.absences:
        if overridden is None:
            raise CommandRejected(f"{p.id} {p.full_name} is marked absent in round {round_}; use --force to pair "
                                  "him anyway")
        overridden.append(f"{p.id} absent")
    game = state.game_of(p.id, round_)
    if game is not None:
        raise CommandRejected(f"{p.id} {p.full_name} is already paired in round {round_} (table {game.table})")
    if p.id in state.byes.get(round_, {}):
        raise CommandRejected(f"{p.id} {p.full_name} holds the bye of round {round_}")


def bye(
    db: PathLike,
    player: str,
    round: int,  # noqa: A002
    force: bool = False,
    *,
    actor: str = "",
    reason: str = "",
    expected_head: int | None = None,
    retry: bool = False,
) -> Outcome:
    """Give the pairing bye of a round. Unless ``force`` (then the event says ``forced``),
    refuses a second bye in the same round, an absent or withdrawn player, and in McMahon, Swiss
    and SwissCat tournaments a player who already had a bye in another round."""

    def build(state: Any) -> tuple[list[ev.Event], str]:
        _check_round(state, round)
        p = find_player(state, player)
        overridden: list[str] = []
        _check_available(state, p, round, overridden if force else None)
        holders = state.byes.get(round, {})
        if holders:
            other = state.players[next(iter(holders))]
            if not force:
                raise CommandRejected(
                    f"round {round} already has its bye ({other.id} {other.full_name}); use --force for a second bye"
                )
            overridden.append("a second bye in the round")
        earlier = sorted(r for r, byes in state.byes.items() if r != round and p.id in byes)
        if earlier and state.settings.system in _REPEATS_REFUSED:
            if not force:
                raise CommandRejected(f"{p.id} {p.full_name} already had the bye in round {earlier[0]}; use --force "
                                      "to give him another")
            overridden.append(f"{p.id}'s bye of round {earlier[0]}")
        _check_system(state, ev.ByeAssigned(round=round, player_id=p.id))
        forced = f" (forced: {', '.join(overridden)})" if overridden else ""
        return [ev.ByeAssigned(round=round, player_id=p.id, forced=bool(overridden))], (
            f"{p.id} {p.full_name} has the bye in round {round}{forced}")

    return _run(db, build, actor=actor, reason=reason, expected_head=expected_head, retry=retry)


def unbye(
    db: PathLike,
    player: str,
    round: int,  # noqa: A002
    *,
    actor: str = "",
    reason: str = "",
    expected_head: int | None = None,
    retry: bool = False,
) -> Outcome:
    """Take a bye back."""

    def build(state: Any) -> tuple[list[ev.Event], str]:
        _check_round(state, round)
        p = find_player(state, player)
        if p.id not in state.byes.get(round, {}):
            raise CommandRejected(f"{p.id} {p.full_name} has no bye in round {round}")
        return [ev.ByeRemoved(round=round, player_id=p.id)], f"bye of {p.id} {p.full_name} in round {round} removed"

    return _run(db, build, actor=actor, reason=reason, expected_head=expected_head, retry=retry)


# --------------------------------------------------------------------------- games


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
    *,
    actor: str = "",
    reason: str = "",
    expected_head: int | None = None,
    retry: bool = False,
) -> Any:
    """Pair two players at a table (:func:`goledger.commands.hand.pair`): the colours,
    handicap and komi come from the tournament's rule (the function ``pair-round``'s engine
    uses) unless given by hand (``white``/``black``, ``handicap``, ``komi``); without
    ``table``, the first free table. Unless ``force`` (then the event says ``forced``),
    refuses a pair forbidden in this round (``goledger forbid``), an absent or withdrawn
    player, and in McMahon, Swiss and SwissCat tournaments a repeat of a game of another round."""
    from goledger.commands.hand import pair as hand_pair

    return hand_pair(db, round, white, black, table, handicap, komi, color_known, force, players, dry_run,
                     actor=actor, reason=reason, expected_head=expected_head, retry=retry)


def _game(state: Any, round_: int, table: int) -> Any:
    _check_round(state, round_)
    games = state.games.get(round_, {})
    if not games:
        raise CommandRejected(f"round {round_} is not paired yet")
    game = games.get(table)
    if game is None:
        raise CommandRejected(f"round {round_} has no table {table}")
    return game


def unpair(
    db: PathLike,
    round: int,  # noqa: A002
    table: int,
    *,
    actor: str = "",
    reason: str = "",
    expected_head: int | None = None,
    retry: bool = False,
) -> Outcome:
    """Remove a pairing (its result, if any, goes with it; both stay in the log)."""

    def build(state: Any) -> tuple[list[ev.Event], str]:
        game = _game(state, round, table)
        return [ev.PairingRemoved(round=round, table=table)], (
            f"round {round} table {table} ({game.white} vs {game.black}) unpaired"
        )

    return _run(db, build, actor=actor, reason=reason, expected_head=expected_head, retry=retry)


def _check_result_players(state: Any, game: Any) -> None:
    for pid in (game.white, game.black):
        p = state.players[pid]
        if p.is_withdrawn(game.round):
            raise CommandRejected(f"{p.id} {p.full_name} withdrew from round {p.withdrawn_from}")


def _parse_notation(text: str | Result, by_default: bool) -> tuple[Result, str, bool]:
    """(result, margin, by_default) of a typed result (:mod:`goledger.ledger.result_notation`);
    ``W+F``/``B+F`` (won by forfeit) records the result by default."""
    if isinstance(text, Result):
        return text, "", by_default

    try:
        notation = parse_result_notation(text)
    except ValueError as exc:
        raise CommandRejected(str(exc)) from None
    return notation.result, notation.margin, by_default or notation.forfeit


def result(
    db: PathLike,
    round: int,  # noqa: A002
    table: int,
    result: str,
    by_default: bool = False,
    *,
    actor: str = "",
    reason: str = "",
    expected_head: int | None = None,
    retry: bool = False,
) -> Outcome:
    """Record the result of a game that has none yet (use :func:`correct` to change one).
    ``result`` takes every notation of :data:`~goledger.ledger.result_notation.RESULT_HELP`;
    a Go-style margin (``B+2.5``, ``W+R``) is kept on the event as an annotation."""
    outcome, margin, by_default = _parse_notation(result, by_default)
    if outcome is Result.UNKNOWN:
        raise CommandRejected("'unknown' is not a result to record; correct a wrong result instead")

    def build(state: Any) -> tuple[list[ev.Event], str]:
        game = _game(state, round, table)
        _check_result_players(state, game)
        if game.result is not Result.UNKNOWN:
            raise CommandRejected(
                f"round {round} table {table} already has a result ({game.result.value}); use `goledger correct`"
            )
        event = ev.ResultRecorded(round=round, table=table, result=outcome, by_default=by_default, margin=margin)
        _check_system(state, event)
        flag = " by default" if by_default and margin != "F" else ""
        return [event], f"round {round} table {table}: {outcome.value}{margin_words(margin)}{flag}"

    return _run(db, build, actor=actor, reason=reason, expected_head=expected_head, retry=retry)


def correct(
    db: PathLike,
    round: int,  # noqa: A002
    table: int,
    result: str,
    reason: str,
    by_default: bool = False,
    *,
    actor: str = "",
    expected_head: int | None = None,
    retry: bool = False,
) -> Outcome:
    """Replace a recorded result, with a reason; refuses a correction that changes nothing.
    ``result`` takes the notations of :func:`result` (the margin kept as an annotation)."""
    outcome, margin, by_default = _parse_notation(result, by_default)
    if not reason.strip():
        raise CommandRejected("a correction needs a reason")

    def build(state: Any) -> tuple[list[ev.Event], str]:
        game = _game(state, round, table)
        if game.result is Result.UNKNOWN:
            raise CommandRejected(
                f"round {round} table {table} has no result yet; record it with `goledger result`"
            )
        if game.result is outcome and game.by_default == by_default:
            raise CommandRejected(
                f"round {round} table {table} already has the result {outcome.value}"
                f"{' by default' if by_default else ''}; nothing to correct"
            )
        if outcome is not Result.UNKNOWN:
            _check_result_players(state, game)
        event = ev.ResultCorrected(round=round, table=table, result=outcome, by_default=by_default, reason=reason,
                                   margin=margin)
        _check_system(state, event)
        return [event], (f"round {round} table {table}: {game.result.value} → {outcome.value}{margin_words(margin)} "
                         f"({one_line(reason)})")

    return _run(db, build, actor=actor, reason=reason, expected_head=expected_head, retry=retry)


def change_rules(
    db: PathLike,
    changes: dict[str, Any],
    from_round: int | None = None,
    *,
    actor: str = "",
    reason: str = "",
    expected_head: int | None = None,
    retry: bool = False,
) -> Outcome:
    """Change tournament settings, retroactively unless ``from_round`` is given.

    ``changes`` names ``TournamentSettings`` fields or rule-policy fields (kept in
    ``policy_overrides``), as ``goledger settings`` lists them; every value is checked
    against the domain listed there (:mod:`goledger.commands.settings`), and the standings
    are computed once under the new rules before anything is appended. Refuses unknown
    fields, values outside their domain and no-op changes; the message says what changed."""
    from goledger.commands.settings import check_views_after, resolve_changes

    def build(state: Any) -> tuple[list[ev.Event], str]:
        if from_round is not None:
            _check_round(state, from_round)
        effective, phrases = resolve_changes(state, changes)
        if not effective:
            raise CommandRejected("these settings already have these values; nothing to change")
        if "policy" in effective:
            from goledger.replay.policies import get_policy

            get_policy(effective["policy"])
        if "pairing" in effective:
            from goledger.pairing import check_parameters

            check_parameters(effective["pairing"])
        event = ev.RulesChanged(changes=effective, from_round=from_round)
        check_views_after(state, event)
        scope = "retroactively" if from_round is None else f"from round {from_round}"
        return [event], f"rules changed {scope}: {'; '.join(phrases) or ', '.join(sorted(effective))}"

    return _run(db, build, actor=actor, reason=reason, expected_head=expected_head, retry=retry)


# --------------------------------------------------------------------------- reading


def log(db: PathLike, after: int = 0, upto: int | None = None, type: str | None = None) -> list[Record]:  # noqa: A002
    """The stored events (envelopes) with ``after < seq <= upto``, optionally of one type.
    Refuses a log holding an event this goledger cannot read (e.g. a newer event schema)."""
    with Ledger.open(db) as ledger:
        records = list(ledger.records(after=after, upto=upto))
        ledger.events(after=after, upto=upto)  # the check: raises naming the first unreadable event
    if type is not None:
        records = [r for r in records if r.type == type]
    return records


def verify(db: PathLike, published_head: str | None = None) -> VerifyReport:
    """Recompute the hash chain and check the schema whole (reporting on a ledger whose
    triggers were removed or which holds objects goledger did not create, instead of
    refusing it), then the cached snapshot and standings against a fresh fold of the log: a
    cache that differs fails the verification as tampering and is kept for inspection.

    ``published_head`` — a hash the director announced (a whole hash or its first 16 or
    more hex digits) — must be the hash of an event of the verified chain: the report says
    which one, or fails when it is not there (the log was rewritten after it was published,
    hashes included, or the head belongs to another ledger).

    A pseudonymised copy (``goledger export pseudonymised``) is also checked against the
    original chain it names (see :func:`goledger.ledger.copies.verify_copy`), and a
    published head is looked up on that original chain.
    """
    wanted = _published_head(published_head)
    with Ledger.open(db, check_protection=False) as ledger:
        report = ledger.verify()
        if report.ok:
            from goledger.replay.snapshots import check_snapshot
            from goledger.replay.standings_cache import check_cached_standings

            for problem in (check_snapshot(ledger), check_cached_standings(ledger)):
                if problem:  # a cache that differs from the log was tampered with: verify fails
                    return msgspec.structs.replace(report, ok=False, problem=problem)
        if report.ok:
            from goledger.ledger.copies import verify_copy

            copy = verify_copy(ledger, wanted)
            if copy is not None:
                notes = (*report.notes, *copy.sentences)
                if not copy.ok:
                    return msgspec.structs.replace(report, ok=False, problem=copy.problem, notes=notes)
                return msgspec.structs.replace(report, notes=notes)
        if wanted is None:
            return report
        found = next((r for r in ledger.records(upto=report.trusted_upto) if r.hash.startswith(wanted)), None)
    if found is None:
        return msgspec.structs.replace(
            report, ok=False, problem=(f"{report.problem}; " if report.problem else "") + (
                f"the published head {wanted[:16]}… is not the hash of any trusted event of this ledger: the log "
                "was rewritten after it was published, or the head belongs to another ledger"
            ),
        )
    after = report.trusted_upto - found.seq
    note = (f"the published head is event {found.seq}: events 1..{found.seq} are exactly what was published"
            + (f"; {after} event(s) were recorded after it" if after else ""))
    return msgspec.structs.replace(report, notes=(*report.notes, note))


def _published_head(text: str | None) -> str | None:
    if text is None:
        return None
    wanted = text.strip().lower()
    if not re.fullmatch(r"[0-9a-f]{16,64}", wanted):
        raise CommandRejected(
            f"published head {text!r} is not a hash (give the 64 hex digits, or at least the first 16)"
        )
    return wanted


def repair_report(db: PathLike, published_head: str | None = None, salvage: PathLike | None = None) -> RepairReport:
    """What can still be trusted in a damaged, truncated or tampered ledger, up to which
    event (see :mod:`goledger.ledger.repair`), with the checkpoints and the last event of
    the trusted part named for the director. Reads whatever can be read; never writes to
    ``db``.

    ``salvage``: a new ledger file receiving the trusted events verbatim — the same chain,
    so its head is the trusted head and a published head up to it still verifies. Record
    what came after on top of it (all or nothing, like an import)."""
    from goledger.ledger.repair import repair_report as store_report
    from goledger.ledger.store import Envelope

    wanted = _published_head(published_head)
    if salvage is not None and Path(salvage).exists():
        raise CommandRejected(f"{salvage} already exists; salvage into a new file")
    checkpoints: list[str] = []
    last: list[Record] = []
    kept: list[Envelope] = []

    def watch(record: Record) -> None:
        if record.type == "Checkpoint":
            checkpoints.append(_record_text(record, _plain_name))
        last[:] = [record]
        if salvage is not None:
            kept.append(Envelope(record.type, record.schema_version, record.payload, record.recorded_at,
                                 record.actor, record.reason))

    report = store_report(Path(db), wanted, watch)
    notes = list(report.notes)
    if salvage is not None:
        if not kept:
            raise CommandRejected(f"no event of {db} can be trusted: nothing to salvage")
        records = Ledger.create_complete_from(salvage, kept)
        if records[-1].hash != report.trusted_head:  # the same chain, or something is badly wrong
            Path(salvage).unlink(missing_ok=True)
            raise LedgerError(f"the salvaged events of {db} do not recompute to their trusted head; nothing was "
                              "written")
        notes.append(f"events 1..{len(records)} were salvaged into {salvage} (same hashes; its head is the trusted "
                     "head)")
    if last:
        notes.append(f"last trusted event: {_record_text(last[0], _plain_name)}")
    if checkpoints:
        notes.append("checkpoints in the trusted part: " + "; ".join(checkpoints))
    return msgspec.structs.replace(report, notes=tuple(notes))


def _plain_name(player_id: str) -> str:
    return player_id
