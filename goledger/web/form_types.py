"""The desk's forms as types (issue 48, item 3): one frozen :class:`msgspec.Struct` per desk
action, whose fields are the keyword arguments of the library command it calls, decoded once
by :func:`decode`. Each type names the actions it is the form of (:attr:`DeskForm.actions`,
the form names of :func:`goledger.commands.table.desk_actions`); :func:`form_of` finds them.

A field's name is the command's keyword (``from_round``, ``round_``…); the name the form
posts, where it differs, is the field's ``name`` (``msgspec.field(name="round")``). Its type
is the command's: ``int`` (a number the action cannot do without), ``int | None`` (empty:
not given), ``str``, ``str | None`` (empty: not given), ``bool`` (a check box) or a
``Literal`` of the values the command accepts; ``msgspec.Meta`` declares its bounds (``ge``,
``le``, ``max_length``: the static part of the domain the command checks) and, in ``extra``,
its ``label``: the field in the desk's words, marked for the catalogs.

:func:`decode` reads every field the same way: blanks around a text are dropped; a number is
read by the desk's one integer rule (:func:`goledger.web.forms.whole`: ASCII digits, at most
18, checked as text before ``int()`` sees them), then checked against its bounds; a check box
is ``1``, ``on``, ``true`` or ``yes``. A field it cannot read is refused in one sentence of
the page's language naming the field (a :class:`~goledger.errors.CommandRejected`: 400 at the
desk), never anything else.

>>> decode({"round": "3", "table": " 12 "}, Unpair)
Unpair(round=3, table=12)
>>> decode({"round": "3"}, Unpair)
Traceback (most recent call last):
...
goledger.errors.CommandRejected: give the table
>>> decode({"round": "3", "table": "١٢"}, Unpair)
Traceback (most recent call last):
...
goledger.errors.CommandRejected: table '١٢' is not a whole number (ASCII digits, at most 18)
>>> arguments(decode({"player": "p0001", "round": "2"}, Reinstate))
{'player': 'p0001', 'from_round': 2}
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Final, Literal, TypeVar

import msgspec
import msgspec.inspect as mi

from goledger.errors import CommandRejected
from goledger.i18n import N_, gettext
from goledger.i18n.messages import say, word
from goledger.web.forms import missing, whole

__all__ = [
    "CHOICE_WORDS",
    "MOVE_TO",
    "ApproveReports",
    "BulkRegister",
    "ChangeRules",
    "Correct",
    "DeskForm",
    "EditGame",
    "EditGames",
    "FixPairing",
    "FixTable",
    "Forbid",
    "PairGame",
    "PairRound",
    "PlayerAbsent",
    "PlayerAction",
    "PlayerBye",
    "PlayerRound",
    "Publish",
    "RefreshRatings",
    "Register",
    "Reinstate",
    "RenumberTables",
    "ResultEntry",
    "ResultForm",
    "RoundOnly",
    "TeamAdd",
    "TeamAssign",
    "TeamRemove",
    "UnitAdd",
    "UnitRemove",
    "Unpair",
    "UnpairRound",
    "UpdatePlayer",
    "Withdraw",
    "arguments",
    "decode",
    "form_of",
]

MAX_ROUNDS: Final = 99
"""A tournament has 1..99 rounds (:func:`goledger.commands.new`)."""
MAX_TABLE: Final = 99_999
"""The highest table number (``renumber-tables``' bound)."""
MAX_BOARDS: Final = 10
"""The most boards of a team (:data:`goledger.teams.model.MAX_BOARDS`)."""
MAX_NAME: Final = 200
"""A name, an id, a rank, a country, a club, a PIN, a komi, an engine's or a policy's name."""
MAX_UNIT_NAME: Final = 80
"""A team's or a unit's name (:mod:`goledger.commands.teams`, :mod:`goledger.commands.units`)."""
MAX_WORDS: Final = 2_000
"""A reason, a note, a result as typed, the settings to change."""
MAX_LIST: Final = 4 * 1024 * 1024
"""A pasted participant list (a file of the same list is read up to 4 MiB: ``goledger.commands.bulk``)."""


def _number(english: str, low: int, high: int) -> msgspec.Meta:
    """A number's bounds and label."""
    return msgspec.Meta(ge=low, le=high, extra={"label": english})


def _text(english: str, longest: int) -> msgspec.Meta:
    """A text's longest length and label."""
    return msgspec.Meta(max_length=longest, extra={"label": english})


def _label(english: str) -> msgspec.Meta:
    """A label alone (a ``Literal``'s)."""
    return msgspec.Meta(extra={"label": english})


CHOICE_WORDS: Final = (N_("final"), N_("preliminary"), N_("forbidden"), N_("unwanted"))
"""The values of the forms' ``Literal`` fields, marked for the catalogs: a refusal lists
them in the page's language."""


Round = Annotated[int, _number(N_("round"), 1, MAX_ROUNDS)]
FromRound = Annotated[int, _number(N_("from round"), 1, MAX_ROUNDS)]
UntilRound = Annotated[int, _number(N_("until round"), 1, MAX_ROUNDS)]
FirstRound = Annotated[int, _number(N_("first round"), 1, MAX_ROUNDS)]
Table = Annotated[int, _number(N_("table"), 1, MAX_TABLE)]
MOVE_TO: Final = N_("table to move to")
MoveTo = Annotated[int, _number(MOVE_TO, 1, MAX_TABLE)]
FirstTable = Annotated[int, _number(N_("first table"), 1, MAX_TABLE)]
Handicap = Annotated[int, _number(N_("handicap"), 0, 9)]
Board = Annotated[int, _number(N_("board"), 1, MAX_BOARDS)]
Rating = Annotated[int, _number(N_("rating"), -10_000, 10_000)]
Surname = Annotated[str, _text(N_("surname"), MAX_NAME)]
FirstName = Annotated[str, _text(N_("first name"), MAX_NAME)]
Rank = Annotated[str, _text(N_("rank"), MAX_NAME)]
Country = Annotated[str, _text(N_("country"), MAX_NAME)]
Club = Annotated[str, _text(N_("club"), MAX_NAME)]
EgdPin = Annotated[str, _text(N_("EGD PIN"), MAX_NAME)]
Komi = Annotated[str, _text(N_("komi"), MAX_NAME)]
Player = Annotated[str, _text(N_("player"), MAX_NAME)]
Team = Annotated[str, _text(N_("team"), MAX_NAME)]
TeamName = Annotated[str, _text(N_("name"), MAX_UNIT_NAME)]
Sex = Annotated[str, _text(N_("sex"), MAX_NAME)]
Reason = Annotated[str, _text(N_("reason"), MAX_WORDS)]


class DeskForm(msgspec.Struct, frozen=True, kw_only=True):
    """A desk action's form: its fields are its command's keyword arguments.

    :attr:`actions` names the desk actions (``POST /desk/do/NAME``) whose form this is, each
    named by one type alone (a subclass names its own); :meth:`keywords` gives the command's
    keyword arguments, the fields themselves unless the type says otherwise."""

    actions: ClassVar[tuple[str, ...]] = ()

    def keywords(self) -> dict[str, Any]:
        """The keyword arguments of the command the form calls: its fields."""
        return arguments(self)


# ---------------------------------------------------------------------------- players


class Register(DeskForm, frozen=True, kw_only=True):
    """``register`` (:func:`goledger.commands.register`)."""

    actions = ("register",)

    surname: Surname = ""
    first_name: FirstName = ""
    rank: Rank = ""
    country: Country = ""
    club: Club = ""
    egd_pin: EgdPin = ""
    rating: Rating | None = None
    preliminary: bool = False
    force: bool = False


class UpdatePlayer(DeskForm, frozen=True, kw_only=True):
    """``update-player`` (:func:`goledger.commands.update_player`): the fields filled in
    change; ``status`` final or preliminary (empty: unchanged) is the command's ``preliminary``."""

    player: Player = ""
    surname: Surname | None = None
    first_name: FirstName | None = None
    rank: Rank | None = None
    country: Country | None = None
    club: Club | None = None
    egd_pin: EgdPin | None = None
    rating: Rating | None = None
    status: Annotated[Literal["final", "preliminary"], _label(N_("status"))] | None = None

    actions = ("update-player",)

    @property
    def preliminary(self) -> bool | None:
        """The command's ``preliminary``: ``None`` (unchanged) when no status is given."""
        return None if self.status is None else self.status == "preliminary"

    def keywords(self) -> dict[str, Any]:
        """The fields, ``status`` as the command's ``preliminary``."""
        return {**arguments(self, without=("status",)), "preliminary": self.preliminary}


class BulkRegister(DeskForm, frozen=True, kw_only=True):
    """``bulk-register``: the pasted list (``list``) and ``force``."""

    entries: Annotated[str, _text(N_("list"), MAX_LIST)] = msgspec.field(default="", name="list")
    force: bool = False

    actions = ("bulk-register",)


class RefreshRatings(DeskForm, frozen=True, kw_only=True):
    """``refresh-ratings`` (:func:`goledger.commands.refresh_ratings.refresh_ratings`): no field,
    the rating list the desk was started with."""

    actions = ("refresh-ratings",)


class PlayerAction(DeskForm, frozen=True, kw_only=True):
    """The one form for a player in a round (``player``): ``what`` names the action it runs
    (:data:`goledger.commands.table.PLAYER_FORM`), whose form the rest is."""

    what: str = ""

    actions = ("player",)


class PlayerRound(DeskForm, frozen=True, kw_only=True):
    """A player in a round: ``present``, ``unbye``, ``check-in``."""

    player: Player = ""
    round: Round

    actions: ClassVar[tuple[str, ...]] = ("present", "unbye", "check-in")


class PlayerAbsent(PlayerRound, frozen=True, kw_only=True):
    """``absent`` (:func:`goledger.commands.absent`): the points, when not the rule's."""

    points: Annotated[str, _text(N_("points"), MAX_NAME)] | None = None

    actions = ("absent",)


class PlayerBye(PlayerRound, frozen=True, kw_only=True):
    """``bye`` (:func:`goledger.commands.bye`)."""

    force: bool = False

    actions = ("bye",)


class Withdraw(DeskForm, frozen=True, kw_only=True):
    """``withdraw`` (:func:`goledger.commands.withdraw`): from the form's round, for its reason."""

    player: Player = ""
    from_round: Round = msgspec.field(name="round")
    reason: Reason = ""

    actions = ("withdraw",)


class Reinstate(DeskForm, frozen=True, kw_only=True):
    """``reinstate`` (:func:`goledger.commands.reinstate`) from the form's round."""

    player: Player = ""
    from_round: Round = msgspec.field(name="round")

    actions = ("reinstate",)


# ---------------------------------------------------------------------------- games


class PairGame(DeskForm, frozen=True, kw_only=True):
    """``pair`` (:func:`goledger.commands.pair`): ``colours`` = ``rule`` pairs the two
    players by the tournament's rule, else with the colours as picked."""

    round: Round
    white: Player = ""
    black: Player = ""
    colours: Annotated[str, _text(N_("colours"), MAX_NAME)] = ""
    table: Table | None = None
    handicap: Handicap | None = None
    komi: Komi | None = None
    force: bool = False

    actions = ("pair",)

    def keywords(self) -> dict[str, Any]:
        """``colours`` = ``rule``: the two players as ``players``, their colours the rule's;
        else ``white`` and ``black`` as picked."""
        by_rule = self.colours == "rule"
        return {**arguments(self, without=("white", "black", "colours")), "white": None if by_rule else self.white,
                "black": None if by_rule else self.black, "players": [self.white, self.black] if by_rule else []}


class Unpair(DeskForm, frozen=True, kw_only=True):
    """``unpair`` (:func:`goledger.commands.unpair`)."""

    round: Round
    table: Table

    actions = ("unpair",)


class EditGame(DeskForm, frozen=True, kw_only=True):
    """``edit-game`` (:func:`goledger.commands.edit_game`): the fields filled in are the edits."""

    round: Round
    table: Table
    swap_colours: bool = False
    handicap: Handicap | None = None
    komi: Komi | None = None
    move_to: MoveTo | None = None
    force: bool = False

    actions = ("edit-game",)


class EditGames(DeskForm, frozen=True, kw_only=True):
    """The games selected in a round's table (``edit-games``): ``what`` to do with them."""

    round: Round
    what: Annotated[str, _text(N_("edit"), MAX_NAME)] = ""
    move_to: MoveTo | None = None
    force: bool = False

    actions = ("edit-games",)


class RenumberTables(DeskForm, frozen=True, kw_only=True):
    """``renumber-tables`` (:func:`goledger.commands.renumber_tables`)."""

    round: Round
    start: FirstTable = 1
    skip: Annotated[str, _text(N_("tables to skip"), MAX_NAME)] | None = None
    keep_order: bool = False

    actions = ("renumber-tables",)


class ResultEntry(DeskForm, frozen=True, kw_only=True):
    """A result typed on the keyboard (``entry``: ``TABLE RESULT[!]``, read by
    :func:`goledger.web.actions.parse_entry`)."""

    round: Round
    entry: Annotated[str, _text(N_("result"), MAX_WORDS)] = ""

    actions = ("result",)


class ResultForm(DeskForm, frozen=True, kw_only=True):
    """``result`` (:func:`goledger.commands.result`) from its fields, when the form has no
    ``entry`` (:class:`ResultEntry` is the action's form)."""

    round: Round
    table: Table
    result: Annotated[str, _text(N_("result"), MAX_WORDS)] = ""
    by_default: bool = False


class Correct(ResultForm, frozen=True, kw_only=True):
    """``correct`` (:func:`goledger.commands.correct`): the reason typed, else the desk's."""

    reason: Reason = ""

    actions = ("correct",)


class RoundOnly(DeskForm, frozen=True, kw_only=True):
    """A round alone: ``show-round``, ``absent-unchecked``."""

    round: Round

    actions = ("show-round", "absent-unchecked")


class PairRound(DeskForm, frozen=True, kw_only=True):
    """``pair-round`` (:func:`goledger.commands.pairing.pair_round`): ``confirm`` pairs a round
    that already has games."""

    round_: Round = msgspec.field(name="round")
    engine: Annotated[str, _text(N_("engine"), MAX_NAME)] | None = None
    force: bool = False
    confirm: bool = False

    actions = ("pair-round",)


class UnpairRound(DeskForm, frozen=True, kw_only=True):
    """``unpair-round``: the reason typed, else the desk's."""

    round_: Round = msgspec.field(name="round")
    reason: Reason = ""

    actions = ("unpair-round",)


class Publish(DeskForm, frozen=True, kw_only=True):
    """``publish`` (:func:`goledger.commands.publish.publish`)."""

    round: Round
    note: Annotated[str, _text(N_("note"), MAX_WORDS)] = ""
    policy: Annotated[str, _text(N_("policy"), MAX_NAME)] | None = None

    actions = ("publish",)


class ApproveReports(DeskForm, frozen=True, kw_only=True):
    """``approve-reports``: the round's agreeing reports, or those of ``table`` alone."""

    round: Round
    table: Table | None = None

    actions = ("approve-reports",)

    def keywords(self) -> dict[str, Any]:
        """The round, and ``table`` as the command's ``tables`` (none: every agreeing report)."""
        return {"round": self.round, "tables": () if self.table is None else (self.table,)}


class ChangeRules(DeskForm, frozen=True, kw_only=True):
    """``change-rules``: ``KEY=VALUE`` lines, from a round or from the start."""

    settings: Annotated[str, _text(N_("settings"), MAX_WORDS * 10)] = ""
    from_round: FromRound | None = None

    actions = ("change-rules",)


# ---------------------------------------------------------------------------- constraints


class Forbid(DeskForm, frozen=True, kw_only=True):
    """``forbid`` (:func:`goledger.commands.constraints.forbid`); ``kind`` forbidden or unwanted."""

    player_a: Player = ""
    player_b: Player = ""
    from_round: FromRound | None = None
    until_round: UntilRound | None = None
    lift: bool = False
    kind: Annotated[Literal["forbidden", "unwanted"], _label(N_("constraint"))] = "forbidden"

    actions = ("forbid",)

    def keywords(self) -> dict[str, Any]:
        """The fields, ``kind`` as the command's ``unwanted``."""
        return {**arguments(self, without=("kind",)), "unwanted": self.kind == "unwanted"}


class FixPairing(DeskForm, frozen=True, kw_only=True):
    """``fix-pairing`` (:func:`goledger.commands.constraints.fix_pairing`)."""

    player_a: Player = ""
    player_b: Player = ""
    round: Round
    table: Table | None = None
    lift: bool = False

    actions = ("fix-pairing",)


class FixTable(DeskForm, frozen=True, kw_only=True):
    """``fix-table`` (:func:`goledger.commands.constraints.fix_table`): an empty table, or
    ``lift``, frees the player."""

    player: Player = ""
    table: Table | None = None
    from_round: FromRound = 1
    lift: bool = False

    actions = ("fix-table",)

    def keywords(self) -> dict[str, Any]:
        """The player and the first round; the table, or none when ``lift`` is ticked."""
        return {"player": self.player, "table": None if self.lift else self.table, "from_round": self.from_round}


# ---------------------------------------------------------------------------- units and teams


class UnitAdd(DeskForm, frozen=True, kw_only=True):
    """``unit add``: the name, the members ``member1`` … ``member3`` and their sexes ``sex1`` …"""

    name: TeamName = ""
    member1: Player = ""
    member2: Player = ""
    member3: Player = ""
    sex1: Sex = ""
    sex2: Sex = ""
    sex3: Sex = ""

    actions = ("unit-add",)

    @property
    def members(self) -> list[str]:
        """The members filled in, in order."""
        return [m for m in (self.member1, self.member2, self.member3) if m]

    @property
    def sexes(self) -> list[str]:
        """The sexes filled in, in order."""
        return [s for s in (self.sex1, self.sex2, self.sex3) if s]

    def keywords(self) -> dict[str, Any]:
        """The name, the members filled in and their sexes."""
        return {"name": self.name, "members": self.members, "sexes": self.sexes}


class UnitRemove(DeskForm, frozen=True, kw_only=True):
    """``unit remove``."""

    unit: Annotated[str, _text(N_("unit"), MAX_NAME)] = ""

    actions = ("unit-remove",)


class TeamAdd(DeskForm, frozen=True, kw_only=True):
    """``team add``: the name and short name."""

    name: TeamName = ""
    short_name: Annotated[str, _text(N_("short name"), MAX_UNIT_NAME)] = ""

    actions = ("team-add",)


class TeamAssign(DeskForm, frozen=True, kw_only=True):
    """``team assign``: the team, the player and the board, from the round given."""

    team: Team = ""
    player: Player = ""
    board: Board
    from_round: FirstRound | None = None

    actions = ("team-assign",)


class TeamRemove(DeskForm, frozen=True, kw_only=True):
    """``team remove``: the team, or one player off its boards."""

    team: Team = ""
    player: Player | None = None

    actions = ("team-remove",)


# ---------------------------------------------------------------------------- decoding

Form = Mapping[str, Any]
S = TypeVar("S", bound=DeskForm)


@dataclass(frozen=True)
class _Field:
    """How :func:`decode` reads one field: from the form's ``key``, of ``kind`` (``int``,
    ``str``, ``bool`` or ``literal``), with its bounds and its label."""

    key: str
    kind: str
    required: bool
    label: str
    low: int | None = None
    high: int | None = None
    longest: int | None = None
    choices: tuple[str, ...] = ()


@functools.cache
def _fields(kind: type[DeskForm]) -> tuple[_Field, ...]:
    """``kind``'s fields as :func:`decode` reads them (worked out once per form type)."""
    info = mi.type_info(kind)
    assert isinstance(info, mi.StructType)
    fields = []
    for field in info.fields:
        core: mi.Type = field.type
        if isinstance(core, mi.UnionType):  # X | None: empty is None
            core = next(t for t in core.types if not isinstance(t, mi.NoneType))
        extra = core.extra or {} if isinstance(core, mi.Metadata) else {}
        if isinstance(core, mi.Metadata):
            core = core.type
        label = str(extra.get("label", field.encode_name.replace("_", " ")))
        if isinstance(core, mi.IntType):
            fields.append(_Field(field.encode_name, "int", field.required, label, core.ge, core.le))
        elif isinstance(core, mi.StrType):
            fields.append(_Field(field.encode_name, "str", field.required, label, longest=core.max_length))
        elif isinstance(core, mi.BoolType):
            fields.append(_Field(field.encode_name, "bool", field.required, label))
        elif isinstance(core, mi.LiteralType):
            fields.append(_Field(field.encode_name, "literal", field.required, label,
                                 choices=tuple(str(v) for v in core.values)))
        else:  # pragma: no cover - a form type declared with a type the desk does not read
            raise TypeError(f"{kind.__name__}.{field.name}: a desk form reads int, str, bool and Literal fields")
    return tuple(fields)


def _read(field: _Field, text: str) -> object:
    """One field's non-empty ``text`` as its type, or its refusal."""
    if field.kind == "int":
        return whole(text, field.label, low=field.low, high=field.high)
    if field.kind == "bool":
        return text.lower() in ("1", "on", "true", "yes")
    if field.longest is not None and len(text) > field.longest:
        raise CommandRejected(say("%(field)s is longer than %(limit)d characters", field=word(field.label),
                                  limit=field.longest))
    if field.kind == "literal" and text not in field.choices:
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise CommandRejected(say("%(field)s %(typed)s is not one of %(choices)s", field=word(field.label),
                                  typed=repr(shown), choices=", ".join(gettext(c) for c in field.choices)))
    return text


def decode(form: Form, kind: type[S]) -> S:
    """The form's fields as ``kind``: each read as its type (see the module's rule), an empty
    or absent field as its default (``None``, ``""``, ``False``…); a field that cannot be read,
    or an empty one without a default, refused in one sentence naming it.

    >>> decode({"player_a": "p1", "player_b": "p2", "kind": "maybe"}, Forbid)
    Traceback (most recent call last):
    ...
    goledger.errors.CommandRejected: constraint 'maybe' is not one of forbidden, unwanted
    >>> decode({"round": "0", "table": "1"}, Unpair)
    Traceback (most recent call last):
    ...
    goledger.errors.CommandRejected: round '0' is not a whole number in 1..99
    """
    values: dict[str, object] = {}
    for field in _fields(kind):
        raw = form.get(field.key, "")
        text = raw.strip() if isinstance(raw, str) else ""
        if field.kind == "bool" or text:
            values[field.key] = _read(field, text)
        elif field.required:
            raise missing(field.label)
    return msgspec.convert(values, kind)


def arguments(form: DeskForm, *, without: tuple[str, ...] = ()) -> dict[str, Any]:
    """The form's fields as the command's keyword arguments (``without`` those it does not take)."""
    return {k: v for k, v in msgspec.structs.asdict(form).items() if k not in without}


@functools.cache
def form_of() -> dict[str, type[DeskForm]]:
    """Each desk action with its form type: the type whose own :attr:`~DeskForm.actions` names it
    (a subclass's, not inherited). An action two types name is a mistake, refused here.

    >>> form_of()["unpair"].__name__, form_of()["check-in"].__name__, form_of()["absent"].__name__
    ('Unpair', 'PlayerRound', 'PlayerAbsent')
    """
    found: dict[str, type[DeskForm]] = {}
    kinds: list[type[DeskForm]] = [DeskForm]
    while kinds:
        kind = kinds.pop()
        for name in kind.__dict__.get("actions", ()):
            if name in found:
                raise TypeError(f"{found[name].__name__} and {kind.__name__} both name the desk action {name!r}")
            found[name] = kind
        kinds += kind.__subclasses__()
    return found
