"""Value types of the ratings store (issue 34): small immutable dataclasses (not msgspec
structs: a search at the desk's command line loads nothing it does not need).

>>> RatedPlayer(pin="13701534", surname="Celebican", first_name="Barkin", country="TR", club="Ist",
...             grade="1k", gor=2004).full_name
'Celebican Barkin'
>>> ListRef(source="egd", date="2019-02-17", sha256="ab" * 32).describe()
'egd list of 2019-02-17 (sha256 abababababab…)'
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MAX_UNPARSED_KEPT", "DuplicatePin", "ListInfo", "ListRef", "ParsedList", "RatedPlayer", "Row", "Unparsed"]

MAX_UNPARSED_KEPT = 1000
"""The most unparsed lines (and duplicate PINs) a list keeps with their text: the rest are
counted only, so a list of junk costs no more than a list (issue 41, item 6)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RatedPlayer:
    """One player of a rating list, as the list gives him. ``grade`` is the list's grade
    (``"1k"``, ``"3d"``, ``"2p"``), ``gor`` his rating on the EGF GoR scale, ``nt`` the
    number of tournaments he played, ``last_tournament`` the list's code of his last one
    (EGD: ``T190217A``, its date ``last_date``), ``line`` his line in the file (1-based)."""

    pin: str
    surname: str
    first_name: str = ""
    country: str = ""
    club: str = ""
    grade: str = ""
    promotion: str = ""
    gor: int | None = None
    nt: int = 0
    last_tournament: str = ""
    last_date: str = ""
    line: int = 0

    @property
    def full_name(self) -> str:
        return f"{self.surname} {self.first_name}".strip()

    def row(self) -> Row:
        """The player as a :data:`Row`."""
        return (self.pin, self.surname, self.first_name, self.country, self.club, self.grade, self.promotion,
                self.gor, self.nt, self.last_tournament, self.last_date, self.line)

    @classmethod
    def from_row(cls, row: Row) -> RatedPlayer:
        pin, surname, first, country, club, grade, promotion, gor, nt, last, date, line = row
        return cls(pin=pin, surname=surname, first_name=first, country=country, club=club, grade=grade,
                   promotion=promotion, gor=gor, nt=nt, last_tournament=last, last_date=date, line=line)


Row = tuple[str, str, str, str, str, str, str, "int | None", int, str, str, int]
"""A rated player as a plain tuple, in the order of :class:`RatedPlayer`'s fields: what a
reader makes of a line (45,000 tuples cost a fraction of 45,000 objects)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Unparsed:
    """A player line the reader could not read, with the reason: never guessed."""

    line: int
    text: str
    why: str


@dataclass(frozen=True, slots=True, kw_only=True)
class DuplicatePin:
    """A PIN that more than one player line of a list gives: ``lines`` (1-based). Both are
    stored; registering by that PIN is refused, naming the lines."""

    pin: str
    lines: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ListRef:
    """The identity of one rating list: its source (``egd``), its date (the newest "last
    appearance" it holds, ``YYYY-MM-DD``) and the SHA-256 of the file's bytes. A
    registration event carries it, so an audit can say where a rank or a rating came from."""

    source: str
    date: str
    sha256: str

    def describe(self) -> str:
        return f"{self.source} list of {self.date} (sha256 {self.sha256[:12]}…)"


@dataclass(frozen=True, slots=True, kw_only=True)
class ParsedList:
    """What a reader made of a list file: every player line is in ``rows`` (``players``) or
    in ``unparsed`` (``player_lines`` = both together)."""

    ref: ListRef
    rows: list[Row]
    unparsed: list[Unparsed]
    player_lines: int
    declared_players: int | None = None
    """The count the file states of itself (EGD: ``Number of players: 45524``), if any."""
    unparsed_lines: int = 0
    """How many lines are unparsed: ``unparsed`` keeps the first :data:`MAX_UNPARSED_KEPT`."""
    duplicate_pins: tuple[DuplicatePin, ...] = ()
    """The PINs given by more than one line (the first :data:`MAX_UNPARSED_KEPT`)."""

    @property
    def players(self) -> list[RatedPlayer]:
        return [RatedPlayer.from_row(r) for r in self.rows]


@dataclass(frozen=True, slots=True, kw_only=True)
class ListInfo:
    """A list as the store holds it (``goledger ratings info``)."""

    ref: ListRef
    players: int
    unparsed: list[Unparsed]
    file: str
    imported_at: str
    unparsed_lines: int = 0
    """How many lines are unparsed (``unparsed`` keeps the first :data:`MAX_UNPARSED_KEPT`)."""
    duplicate_pins: tuple[DuplicatePin, ...] = ()
