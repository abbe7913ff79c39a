"""The event vocabulary of a tournament ledger (DESIGN §3).

Every fact of a tournament is one of these immutable ``msgspec`` structs. They form a
tagged union: the JSON object carries ``"type": "<stable name>"`` (never a module path),
and every type has its own ``schema_version``. Old payloads are brought up to date by
*upcasters* before they are decoded (:func:`register_upcaster`).

Rules for the vocabulary:

* an event carries only what is new (a ``PlayerUpdated`` names the changed fields);
* rounds and tables are 1-based; players are referred to by ledger ids (``p0001``),
  never by name or PIN;
* no floats: points are integer half-points (``points2``), komi is an exact string.

>>> e = GamePaired(round=1, table=3, white="p0001", black="p0002", handicap=2)
>>> canonical_bytes(e)[:76]
b'{"black":"p0002","by_hand":[],"color_known":true,"forced":false,"handicap":2'
>>> decode_event("GamePaired", 1, canonical_bytes(e)) == e
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Final, Literal

import msgspec

from goledger.ledger.values import Result

__all__ = [
    "EVENT_TYPES",
    "PLAYER_FIELDS",
    "ByeAssigned",
    "ByeRemoved",
    "CheckedIn",
    "Checkpoint",
    "Event",
    "GameEdited",
    "GameMoved",
    "GamePaired",
    "HandicapSettings",
    "HiddenEvent",
    "ListProvenance",
    "PairingAnnotated",
    "PairingConstraintSet",
    "PairingFixed",
    "PairingRemoved",
    "ParticipationChanged",
    "PlayerRegistered",
    "PlayerReinstated",
    "PlayerUnregistered",
    "PlayerUpdated",
    "PlayerWithdrew",
    "PseudonymisedCopy",
    "ResultClaimed",
    "ResultCorrected",
    "ResultRecorded",
    "RoundPaired",
    "RoundShown",
    "RoundUnpaired",
    "RulesChanged",
    "SourceImported",
    "StandingsFrozen",
    "StandingsUnfrozen",
    "StartGroup",
    "TableFixed",
    "TablesRenumbered",
    "TeamMemberAssigned",
    "TeamMemberRemoved",
    "TeamRegistered",
    "TeamRemoved",
    "TimeSettings",
    "TournamentCreated",
    "TournamentSettings",
    "UnitDissolved",
    "UnitFormed",
    "canonical_bytes",
    "decode_event",
    "decode_rows",
    "event_from_json",
    "register_upcaster",
]

System = Literal["mcmahon", "swiss", "swisscat", "cup", "round-robin", "knockout", "double-knockout", "paramus",
                 "match", "handicap", "continuous-handicap", "team-swiss", "team-mcmahon",
                 "pairgo", "rengo2", "rengo3"]
RegistrationStatus = Literal["final", "preliminary"]
Language = Literal["en", "tr", "hu", "fr", "de"]
"""The languages printouts and pages are written in (``goledger.i18n.LANGUAGES``)."""


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    """Base of every event. ``schema_version`` is per type and bumped on any payload change."""

    schema_version: ClassVar[int] = 1

    @classmethod
    def type_name(cls) -> str:
        return cls.__struct_config__.tag  # type: ignore[return-value]


# --------------------------------------------------------------------------- tournament


class HandicapSettings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """How handicaps are derived (OpenGotha ``HandicapParameterSet``; spec opengotha-xml §7.2).

    ``correction`` stones are subtracted from the raw difference; ``ceiling`` 0 means
    even games only; a player at or above ``no_handicap_threshold`` plays even.
    """

    based_on_mms: bool = True
    no_handicap_threshold: str = "1d"
    correction: int = 1
    ceiling: int = 9


class TimeSettings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Thinking time: main time in minutes plus the overtime system (used for the EGD class)."""

    basic_minutes: int = 60
    system: Literal["sudden-death", "byo-yomi", "canadian", "fischer"] = "canadian"
    byo_yomi_seconds: int = 30
    byo_yomi_periods: int | None = None
    canadian_stones: int = 15
    canadian_seconds: int = 300
    fischer_seconds: int = 10


class StartGroup(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Grouped McMahon (founding documents): every rank from ``lowest`` to ``highest``
    starts on ``score`` (whole points, on the tournament's McMahon scale)."""

    lowest: str
    highest: str
    score: int


class TournamentSettings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Everything that defines a tournament and its scoring parameters.

    Point values are half-points: ``bye_mms2 = 2`` means a bye is worth 1 McMahon point.
    ``criteria`` are placement criterion names (OpenGotha long names or FIDE names),
    strongest first. ``policy`` names the rule policy used when a view does not choose
    one; ``policy_overrides`` adjusts single options of it. ``pairing`` keeps the source
    program's pairing weights verbatim; ``extras`` keeps any other source attribute as
    ``"format.name" -> text`` so that exports can write it back.
    """

    name: str
    short_name: str = ""
    location: str = ""
    director: str = ""
    begin_date: str = ""
    end_date: str = ""
    rounds: int
    system: System = "mcmahon"
    mm_bar: str = "9d"
    mm_floor: str = "30k"
    mm_zero: str = "30k"
    nbw2_bye: int = 2
    nbw2_absent: int = 0
    mms2_bye: int = 2
    mms2_absent: int = 1
    round_down: bool = True
    not_played_as_half: bool = False
    komi: str = "7.5"
    board_size: int = 19
    internet: bool = False
    handicap: HandicapSettings = msgspec.field(default_factory=HandicapSettings)
    time: TimeSettings | None = msgspec.field(default_factory=TimeSettings)
    """``None``: the thinking time is not known (``goledger new`` without ``--time``; the EGD
    export then writes no ``CL``/``TM``). Older payloads always carry a value."""
    category_limits: tuple[str, ...] = ()
    mm_groups: tuple[StartGroup, ...] = ()
    """Grouped McMahon: start scores by rank range; ranks in no group use bar and floor."""
    mm_super_group: bool = False
    """EGF super-group rule: +1 start point for the 4(N−2) strongest when more than 6(N−2)
    players are at or above the bar (N = rounds)."""
    criteria: tuple[str, ...] = ()
    policy: str = "opengotha"
    policy_overrides: dict[str, Any] = msgspec.field(default_factory=dict)
    pairing: dict[str, str] = msgspec.field(default_factory=dict)
    extras: dict[str, str] = msgspec.field(default_factory=dict)
    system_options: dict[str, Any] = msgspec.field(default_factory=dict)
    """The tournament system's own settings by name (``goledger.systems``: each system reads
    them into its typed options struct); empty means the system's defaults."""
    language: Language = "en"
    """The language of the printouts, the report and the desk (issue 33); the players' view
    follows each browser and falls back to it. Payloads written before it read as English."""
    ratings_date: str = ""
    """The ratings freeze (issue 34): registrations from a rating list refuse a list newer
    than this date (``YYYY-MM-DD``); empty: any list."""
    pairings_visible: Literal["auto", "manual"] = "auto"
    """When a round's pairing reaches the players' view: ``auto`` as soon as it is paired;
    ``manual`` only once the director shows it (``goledger show-round R``, a ``RoundShown``
    event), so that tables can be fixed before anyone walks to them. (Added later with its
    default: payloads written before it read unchanged.)"""
    check_in: Literal["no", "once", "every"] = "no"
    """Whether players must check in before a round is paired (issue 46): ``no``; ``once``
    (a check-in for any round up to R counts for R: the player has arrived); ``every`` (a
    check-in for round R itself). The desk's round page lists who has not, and marks them
    absent in one click; pairing never waits for it. (Added later with its default.)"""
    player_reports: Literal["approve", "record", "off"] = "approve"
    """What two players' agreeing reports of their game do (issue 46, ``ResultClaimed``):
    ``approve`` (the default) queues the result for the desk's one-click approval; ``record``
    records it at once, with both players as the actors; ``off`` refuses players' reports.
    (Added later with its default: older payloads read unchanged.)"""


class TournamentCreated(Event, frozen=True, kw_only=True, tag="TournamentCreated"):
    """The first event of every ledger. (``mm_groups`` and ``mm_super_group`` were added to
    the settings later, with defaults: payloads written before them read unchanged.)"""

    settings: TournamentSettings


class RulesChanged(Event, frozen=True, kw_only=True, tag="RulesChanged"):
    """Some tournament settings changed. ``changes`` maps ``TournamentSettings`` field names
    to new values. Changes are retroactive (OpenGotha's behaviour, spec scoring §2.7.8)
    unless ``from_round`` is given."""

    changes: dict[str, Any]
    from_round: int | None = None


# --------------------------------------------------------------------------- players

PLAYER_FIELDS: tuple[str, ...] = (
    "surname",
    "first_name",
    "rank",
    "grade",
    "rating",
    "rating_origin",
    "country",
    "club",
    "egd_pin",
    "status",
    "mm_correction",
    "ids",
    "start_number",
    "extras",
    "rating_list",
)
"""Player attributes that ``PlayerUpdated`` may change."""


class ListProvenance(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The rating list a registration was checked against (issue 34): its ``source``
    (``egd``), ``date`` (``YYYY-MM-DD``, the list's newest last appearance) and the SHA-256
    of its file; ``fields`` names the attributes taken from it (``surname``, ``rank``,
    ``rating``…; the others were given by the director), ``listed`` is false for a PIN the
    list does not hold (registered on the director's word, with the names he gave)."""

    source: str
    date: str
    sha256: str
    fields: tuple[str, ...] = ()
    listed: bool = True

    def describe(self) -> str:
        return f"{self.source} list of {self.date}"


class PlayerRegistered(Event, frozen=True, kw_only=True, tag="PlayerRegistered"):
    """A player joins. ``rank`` is the canonical rank used for pairing and the McMahon
    start score (``"3d"``); ``grade`` is the rank as professed, verbatim. ``ids`` holds
    other identifiers (``ffg_licence``, ``aga_id``, ``fide_id``…); ``start_number`` is the
    source file's pairing number when imported. ``rating_list`` (schema 2, optional) names
    the rating list the player was registered from (``register --egd-pin``)."""

    schema_version: ClassVar[int] = 2

    player_id: str
    surname: str
    first_name: str = ""
    rank: str
    grade: str = ""
    rating: int | None = None
    rating_origin: str = ""
    country: str = ""
    club: str = ""
    egd_pin: str = ""
    status: RegistrationStatus = "final"
    mm_correction: int = 0
    ids: dict[str, str] = msgspec.field(default_factory=dict)
    start_number: int | None = None
    extras: dict[str, str] = msgspec.field(default_factory=dict)
    rating_list: ListProvenance | None = None


class PlayerUpdated(Event, frozen=True, kw_only=True, tag="PlayerUpdated"):
    """Some attributes of a player changed (names from :data:`PLAYER_FIELDS`)."""

    player_id: str
    changes: dict[str, Any]


class PlayerWithdrew(Event, frozen=True, kw_only=True, tag="PlayerWithdrew"):
    """The player leaves: from ``from_round`` on he plays no more (FIDE: zero-point byes)."""

    player_id: str
    from_round: int
    reason: str = ""


class PlayerUnregistered(Event, frozen=True, kw_only=True, tag="PlayerUnregistered"):
    """A registration is cancelled: the entry was a mistake and the player never played.

    Unlike a withdrawal, the player leaves every view (standings, lists, exports); his id
    is never given to anyone else. Commands accept it only while he has no game and no bye.

    >>> PlayerUnregistered(player_id="p0013", reason="registered twice").player_id
    'p0013'
    """

    player_id: str
    reason: str = ""


class PlayerReinstated(Event, frozen=True, kw_only=True, tag="PlayerReinstated"):
    """A withdrawal is undone from ``from_round`` on."""

    player_id: str
    from_round: int


class ParticipationChanged(Event, frozen=True, kw_only=True, tag="ParticipationChanged"):
    """An announced absence (``participating=False``) or its cancellation for one round.

    ``points2`` gives the absence its own value (a FIDE half-point bye is ``1``, a
    zero-point bye ``0``); ``None`` leaves the value to the rule policy."""

    player_id: str
    round: int
    participating: bool
    points2: int | None = None


class ByeAssigned(Event, frozen=True, kw_only=True, tag="ByeAssigned"):
    """The pairing bye of a round (OpenGotha's ``ByePlayer``; FIDE's pairing-allocated bye).
    ``forced``: the director overrode a refusal (a second bye, an absent or withdrawn player)."""

    round: int
    player_id: str
    points2: int | None = None
    forced: bool = False


class ByeRemoved(Event, frozen=True, kw_only=True, tag="ByeRemoved"):
    round: int
    player_id: str


# --------------------------------------------------------------------------- games


class GamePaired(Event, frozen=True, kw_only=True, tag="GamePaired"):
    """A game of a round. ``handicap`` stones go to Black; ``komi`` overrides the
    tournament's komi when set; ``color_known=False`` when the source did not know who
    had White."""

    round: int
    table: int
    white: str
    black: str
    handicap: int = 0
    komi: str | None = None
    color_known: bool = True
    forced: bool = False
    """The director overrode a refusal (a repeat, a forbidden pair, an absent or withdrawn
    player: ``goledger pair --force``); added later with a default, old payloads read unchanged."""
    by_hand: tuple[Literal["colours", "handicap", "komi"], ...] = ()
    """The values the director gave by hand (``goledger pair --white/--black``, ``--handicap``,
    ``--komi``); the others come from the tournament's rule, as ``pair-round`` takes them
    (issue 31). Added later with a default: old payloads read unchanged."""


class GameEdited(Event, frozen=True, kw_only=True, tag="GameEdited"):
    """One hand edit of the game at (``round``, ``table``) (``goledger edit-game``): its colours
    swapped, or its ``handicap`` or ``komi`` set (``None``: unchanged). A recorded result stays
    with the players, not the colour: swapping the colours of a white win makes it a black win.
    ``forced``: the game already had a result (``--force``)."""

    round: int
    table: int
    swap_colours: bool = False
    handicap: int | None = None
    komi: str | None = None
    forced: bool = False


class GameMoved(Event, frozen=True, kw_only=True, tag="GameMoved"):
    """The game at (``round``, ``table``) moves to ``to_table`` with its result; a game already
    at ``to_table`` takes ``table`` (the two swap) (``goledger edit-game --move-to``).
    ``forced``: one of them already had a result (``--force``)."""

    round: int
    table: int
    to_table: int
    forced: bool = False


class TablesRenumbered(Event, frozen=True, kw_only=True, tag="TablesRenumbered"):
    """The games of ``round`` change tables at once, each with its result: ``tables`` lists
    (old table, new table) for every game that moves (``goledger renumber-tables``); ``order``
    says how (``"best score, then rating"`` or ``"kept"``)."""

    round: int
    tables: tuple[tuple[int, int], ...]
    order: str = ""


class PairingRemoved(Event, frozen=True, kw_only=True, tag="PairingRemoved"):
    round: int
    table: int


class ResultRecorded(Event, frozen=True, kw_only=True, tag="ResultRecorded"):
    """The result of the game at (round, table). ``by_default`` marks a forfeit/administrative
    result: it scores the same but was not played (spec scoring §1.1). ``margin`` is an
    annotation of how it was won, never scored: ``R`` resignation, ``T`` time, ``F``
    forfeit, or points (``2.5``); schema 2 added it (schema 1 payloads decode unchanged)."""

    schema_version: ClassVar[int] = 2

    round: int
    table: int
    result: Result
    by_default: bool = False
    margin: str = ""


class ResultCorrected(Event, frozen=True, kw_only=True, tag="ResultCorrected"):
    """A result replaced after the fact; the old one stays in the log (``margin`` as in
    :class:`ResultRecorded`, schema 2)."""

    schema_version: ClassVar[int] = 2

    round: int
    table: int
    result: Result
    by_default: bool = False
    reason: str = ""
    margin: str = ""


class ResultClaimed(Event, frozen=True, kw_only=True, tag="ResultClaimed"):
    """A player's own report of his game (issue 46), sent from his phone with his key (the key
    is never in the log: the envelope's actor is ``player <id>``). ``player_id`` says he
    ``won``, ``lost`` or that the game was a ``jigo``, against ``opponent`` at (``round``,
    ``table``); ``margin`` as in :class:`ResultRecorded` (``R`` resignation, or points).

    A claim is not a result: it never scores. When both players' claims agree the result is
    recorded (or approved at the desk, ``player_reports``) as a ``ResultRecorded`` whose actor
    names both players; a later claim of the same player replaces his earlier one; no claim
    changes a recorded result (:mod:`goledger.commands.player_reports`)."""

    round: int
    table: int
    player_id: str
    opponent: str
    outcome: Literal["won", "lost", "jigo"]
    margin: str = ""


class PairingAnnotated(Event, frozen=True, kw_only=True, tag="PairingAnnotated"):
    """Details of one pairing of a round that are not the game itself.

    Without ``bye`` it annotates the game at (``round``, ``table``); with ``bye`` (a player
    id) it annotates that player's bye of ``round``, which the source program placed at
    board ``table`` (MacMahon gives byes a board, spec macmahon.md §B.4).

    ``result_points`` is MacMahon's per-game ``ResultPoints`` (the source of its SORP
    criterion, spec macmahon.md §A): a fact of play. ``extras`` keeps the source program's
    other pairing attributes as ``"format.Name" -> text`` (MacMahon: ``ForcedPairing``,
    ``AllowJigo``, ``BoardNumberFixed``, ``Comment``, ``CreationTime``) so that exports
    can write them back. A later annotation of the same pairing replaces the earlier one;
    re-pairing a table drops its annotation with the old game.
    """

    round: int
    table: int
    bye: str | None = None
    result_points: int = 0
    extras: dict[str, str] = msgspec.field(default_factory=dict)


class PairingConstraintSet(Event, frozen=True, kw_only=True, tag="PairingConstraintSet"):
    """Two players should not (``"unwanted"``) or must not (``"forbidden"``) be paired
    together; ``"none"`` lifts a constraint (MacMahon's ``UnwantedPairing``, spec
    macmahon.md §1.1). It binds future pairings only, not games already played."""

    player_a: str
    player_b: str
    constraint: Literal["unwanted", "forbidden", "none"]
    from_round: int | None = None
    """The first round it binds (``None``: every round); ``goledger forbid --from-round``."""
    until_round: int | None = None
    """The last round it binds (``None``: to the end): "not before round R" is ``until_round = R − 1``."""


class PairingFixed(Event, frozen=True, kw_only=True, tag="PairingFixed"):
    """In ``round``, ``player_a`` must play ``player_b`` (at ``table`` when given; the engine
    still chooses colours and handicap). ``lifted=True`` takes the fixed pairing back. Every
    pairing engine places fixed pairs first (``goledger fix-pairing``)."""

    round: int
    player_a: str
    player_b: str
    table: int | None = None
    lifted: bool = False


class TableFixed(Event, frozen=True, kw_only=True, tag="TableFixed"):
    """From ``from_round`` on, ``player_id`` plays at ``table`` (``None``: the engine chooses
    again), e.g. a player who cannot move between tables (``goledger fix-table``)."""

    player_id: str
    table: int | None
    from_round: int = 1


class RoundPaired(Event, frozen=True, kw_only=True, tag="RoundPaired"):
    """An engine paired round ``round`` (``goledger pair-round``); the ``GamePaired`` and
    ``ByeAssigned`` events it produced follow in the same transaction, at ``tables``.

    It keeps everything needed to re-derive the decision from the log before it: the engine's
    ``name`` and ``version``, every ``parameters`` value it used (defaults included), the
    ``seed``, the ``players`` it was asked to pair, and what it found: the sizes of the groups
    it matched (``chunks``), the matching's ``total_weight`` (an integer, as text: it may
    exceed 64 bits), the ``bye`` with its ``bye_candidates`` (best first, each with the
    integer the rule compared) and the ``bye_rule`` in one sentence (DESIGN §8)."""

    round: int
    engine: str
    version: str
    parameters: dict[str, str] = msgspec.field(default_factory=dict)
    seed: int = 0
    players: tuple[str, ...] = ()
    chunks: tuple[int, ...] = ()
    total_weight: str = "0"
    tables: tuple[int, ...] = ()
    bye: str | None = None
    bye_candidates: tuple[tuple[str, int], ...] = ()
    bye_rule: str = ""
    not_paired: tuple[tuple[str, str], ...] = ()
    """Every registered player the round leaves without a game or bye, with the reason
    (player id, reason): withdrawn or absent, or — for a tournament system — eliminated, a
    bye that is a walk-over into the next round, waiting for his turn (issue 29). Added with a
    default: older ``RoundPaired`` payloads read unchanged."""


class RoundUnpaired(Event, frozen=True, kw_only=True, tag="RoundUnpaired"):
    """The pairing of round ``round`` is withdrawn so that it can be paired again
    (``goledger unpair-round``): the ``PairingRemoved``/``ByeRemoved`` events of its games and
    byes follow in the same transaction; earlier ``RoundPaired`` events of the round stop
    being in force."""

    round: int
    reason: str = ""


class RoundShown(Event, frozen=True, kw_only=True, tag="RoundShown"):
    """The director showed round ``round``'s pairing to the players (``goledger show-round``;
    with ``pairings_visible=manual`` the players' view shows a round only after this)."""

    round: int


class CheckedIn(Event, frozen=True, kw_only=True, tag="CheckedIn"):
    """``player_id`` says he will play round ``round`` (issue 46): from his phone, through
    his personal key (the envelope's actor is then ``player <id>``), or at the desk
    (``goledger check-in``). An announced absence of that round, recorded later, takes it back."""

    player_id: str
    round: int


class StandingsFrozen(Event, frozen=True, kw_only=True, tag="StandingsFrozen"):
    """The director froze the standings (``goledger freeze``, issue 47, pairgoth's "freeze"):
    from here on a correction of a name, club, country, PIN or other identifier is recorded,
    and anything that would change a standing is refused until ``StandingsUnfrozen``."""

    reason: str


class StandingsUnfrozen(Event, frozen=True, kw_only=True, tag="StandingsUnfrozen"):
    """The director unfroze the standings (``goledger unfreeze``), saying why."""

    reason: str


# --------------------------------------------------------------------------- teams


class TeamRegistered(Event, frozen=True, kw_only=True, tag="TeamRegistered"):
    """A team of a team tournament (OpenGotha ``Team``; ``goledger team add``).

    ``number`` is the source file's team number (OpenGotha ``teamNumber``); ``short_name``
    a short name for printouts; ``boards`` the team's own number of boards when it differs
    from the tournament's team size (``None``: the tournament's). Schema 2 added
    ``short_name`` and ``boards`` with defaults: schema 1 payloads decode unchanged."""

    schema_version: ClassVar[int] = 2

    team_id: str
    name: str
    number: int | None = None
    short_name: str = ""
    boards: int | None = None


class TeamMemberAssigned(Event, frozen=True, kw_only=True, tag="TeamMemberAssigned"):
    """A player plays on ``board`` for a team in ``round`` only; without ``round``, in every
    round from ``from_round`` on (``None``: every round). A later assignment of the same
    board or player overrides an earlier one for the rounds it covers. Schema 2 added
    ``from_round`` (default ``None``): schema 1 payloads decode unchanged."""

    schema_version: ClassVar[int] = 2

    team_id: str
    player_id: str
    board: int
    round: int | None = None
    from_round: int | None = None


class TeamMemberRemoved(Event, frozen=True, kw_only=True, tag="TeamMemberRemoved"):
    """A player leaves his board of a team in ``round`` only, or in every round from
    ``from_round`` on (both ``None``: every round); ``goledger team remove TEAM --player``."""

    team_id: str
    player_id: str
    round: int | None = None
    from_round: int | None = None


class TeamRemoved(Event, frozen=True, kw_only=True, tag="TeamRemoved"):
    """A team is deleted (registered by mistake); its players stay registered
    (``goledger team remove TEAM``). Commands accept it only while the team has no match."""

    team_id: str
    reason: str = ""


class UnitFormed(Event, frozen=True, kw_only=True, tag="UnitFormed"):
    """A unit of a Pair Go or Rengo tournament (``goledger unit add``; docs/pairgo.md): the
    registered players ``members`` play one game together as one side, in that order of play
    (Pair Go: the woman first). ``sexes`` gives each member's sex (``F`` or ``M``) where the
    rules need it (Pair Go), else is empty. The unit is paired as one player: its first
    member stands for it in the games the ledger records."""

    unit_id: str
    name: str
    members: tuple[str, ...]
    sexes: tuple[str, ...] = ()


class UnitDissolved(Event, frozen=True, kw_only=True, tag="UnitDissolved"):
    """A unit is dissolved (formed by mistake); its players stay registered
    (``goledger unit remove UNIT``). Commands accept it only while the unit has no game."""

    unit_id: str
    reason: str = ""


# --------------------------------------------------------------------------- provenance


class SourceImported(Event, frozen=True, kw_only=True, tag="SourceImported"):
    """The events that follow (up to the next ``SourceImported``) came from a file."""

    format: str
    filename: str
    sha256: str
    summary: dict[str, int] = msgspec.field(default_factory=dict)


class Checkpoint(Event, frozen=True, kw_only=True, tag="Checkpoint"):
    """A point the director vouches for (round closed, standings published, EGD submitted).

    ``head`` is the hash of the last event before the checkpoint and ``event_count`` its
    sequence number; ``digest`` is a SHA-256 of the standings as shown."""

    label: str
    round: int | None = None
    event_count: int
    head: str
    digest: str = ""
    policy: str = ""
    criteria: tuple[str, ...] = ()
    note: str = ""


class HiddenEvent(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An event of the original ledger whose content a pseudonymised copy changed: its
    sequence number, its original hash, and the fields that were replaced."""

    seq: int
    original_hash: str
    fields: tuple[str, ...] = ()


class PseudonymisedCopy(Event, frozen=True, kw_only=True, tag="PseudonymisedCopy"):
    """The events before this one are events ``1..original_events`` of another ledger, in
    order, with personal data replaced by stable pseudonyms (``goledger export
    pseudonymised``, see SECURITY.md). Every event not listed in ``hidden`` is stored
    exactly as in the original (payload, time, actor, reason), so its original hash can be
    recomputed; a listed one carries its original hash. ``original_head`` is the hash of
    original event ``original_events``. ``key_check`` identifies the director's secret key
    without revealing it. The fold ignores this event."""

    original_head: str
    original_events: int
    hash_algorithm: str = "sha256-chain-v1"
    scheme: str = "hmac-sha256/1"
    key_check: str
    hidden: tuple[HiddenEvent, ...] = ()
    withheld_text: bool = False


EVENT_TYPES: tuple[type[Event], ...] = (
    TournamentCreated,
    RulesChanged,
    PlayerRegistered,
    PlayerUpdated,
    PlayerWithdrew,
    PlayerReinstated,
    ParticipationChanged,
    ByeAssigned,
    ByeRemoved,
    GamePaired,
    PairingRemoved,
    ResultRecorded,
    ResultCorrected,
    GameEdited,
    GameMoved,
    TablesRenumbered,
    PairingAnnotated,
    PairingConstraintSet,
    PairingFixed,
    TableFixed,
    RoundPaired,
    RoundUnpaired,
    RoundShown,
    TeamRegistered,
    TeamMemberAssigned,
    SourceImported,
    Checkpoint,
    PseudonymisedCopy,
    PlayerUnregistered,
    TeamMemberRemoved,
    TeamRemoved,
    UnitFormed,
    UnitDissolved,
    StandingsFrozen,
    StandingsUnfrozen,
    CheckedIn,
    ResultClaimed,
)
"""Every event type; a new type must be added here (and keep its tag forever)."""

_BY_NAME: dict[str, type[Event]] = {t.type_name(): t for t in EVENT_TYPES}
_DECODERS: dict[str, msgspec.json.Decoder[Any]] = {
    name: msgspec.json.Decoder(t) for name, t in _BY_NAME.items()
}
_ENCODER = msgspec.json.Encoder(order="sorted")

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
_UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def register_upcaster(type_name: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register a function turning a payload of ``from_version`` into ``from_version + 1``.

    Decoding applies the chain of upcasters until the type's current ``schema_version``.
    """

    def decorator(fn: Upcaster) -> Upcaster:
        _UPCASTERS[(type_name, from_version)] = fn
        return fn

    return decorator


def event_type(name: str) -> type[Event]:
    """The event class for a stable type name (``KeyError`` when unknown)."""
    return _BY_NAME[name]


def canonical_bytes(event: Event) -> bytes:
    """The canonical JSON of an event: sorted keys, no whitespace, UTF-8. These bytes are
    what the ledger stores and hashes."""
    return _ENCODER.encode(event)


@register_upcaster("ResultRecorded", 1)
@register_upcaster("ResultCorrected", 1)
@register_upcaster("TeamRegistered", 1)
@register_upcaster("TeamMemberAssigned", 1)
def _results_without_margin(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 → 2 of the result events (``margin`` is new and optional, default "") and of
    the team events (``short_name``/``boards``, ``from_round``: new, optional)."""
    return data


@register_upcaster("PlayerRegistered", 1)
def _registration_without_list(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 → 2 of ``PlayerRegistered``: ``rating_list`` is new and optional (default none)."""
    return data


_DECODES_AS_CURRENT: Final = frozenset({("ResultRecorded", 1), ("ResultCorrected", 1), ("PlayerRegistered", 1),
                                        ("TeamRegistered", 1), ("TeamMemberAssigned", 1)})
"""Older schemas whose payloads the current type decodes as they are (the newer schema only
added optional fields), so old ledgers keep the one-array fast path of :func:`decode_rows`."""


def decode_event(type_name: str, schema_version: int, payload: bytes | str) -> Event:
    """Decode a stored payload, upcasting it first when it was written by an older schema.

    Raises ``ValueError`` for an unknown type or a version newer than this program knows.
    """
    cls = _BY_NAME.get(type_name)
    if cls is None:
        raise ValueError(f"unknown event type {type_name!r}")
    if schema_version == cls.schema_version:
        return _DECODERS[type_name].decode(payload)
    if schema_version > cls.schema_version:
        raise ValueError(
            f"event type {type_name} has schema version {schema_version}, newer than this "
            f"goledger knows ({cls.schema_version}); upgrade goledger"
        )
    data: dict[str, Any] = msgspec.json.decode(payload)
    for version in range(schema_version, cls.schema_version):
        upcaster = _UPCASTERS.get((type_name, version))
        if upcaster is None:
            raise ValueError(f"no upcaster for {type_name} from schema version {version}")
        data = upcaster(data)
    return msgspec.convert(data, cls)


_BATCH_DECODER: msgspec.json.Decoder[list[Any]] | None = None


def decode_rows(rows: list[tuple[str, int, str]]) -> list[Event]:
    """Decode stored ``(type, schema_version, payload)`` rows in order.

    When every row is at its type's current schema version (the usual case) the payloads are
    decoded as one JSON array by a single tagged-union decoder, which is several times faster
    than decoding them one by one; otherwise each row goes through :func:`decode_event`.
    """
    global _BATCH_DECODER
    current = {name: cls.schema_version for name, cls in _BY_NAME.items()}
    if not all(current.get(t) == v or (t, v) in _DECODES_AS_CURRENT for t, v, _ in rows):
        return [decode_event(t, v, p) for t, v, p in rows]
    if _BATCH_DECODER is None:
        union = EVENT_TYPES[0]
        for cls in EVENT_TYPES[1:]:
            union = union | cls  # type: ignore[assignment]
        _BATCH_DECODER = msgspec.json.Decoder(list[union])  # type: ignore[valid-type]
    events = _BATCH_DECODER.decode("[" + ",".join(p for _, _, p in rows) + "]")
    if any(e.type_name() != t for e, (t, _, _) in zip(events, rows, strict=True)):
        raise ValueError("a stored payload's type tag differs from its envelope type")
    return events


def event_from_json(data: bytes | str | dict[str, Any]) -> Event:
    """Decode one event given as a JSON object with its ``type`` tag (current schema)."""
    obj: dict[str, Any] = msgspec.json.decode(data) if isinstance(data, (bytes, str)) else data
    name = obj.get("type")
    if not isinstance(name, str) or name not in _BY_NAME:
        raise ValueError(f"unknown event type {name!r}")
    return msgspec.convert(obj, _BY_NAME[name])
