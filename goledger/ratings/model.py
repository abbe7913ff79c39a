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

__all__ = ["ListInfo", "ListRef", "ParsedList", "RatedPlayer", "Unparsed"]


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


@dataclass(frozen=True, slots=True, kw_only=True)
class Unparsed:
    """A player line the reader could not read, with the reason: never guessed."""

    line: int
    text: str
    why: str


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
    """What a reader made of a list file: every player line is in ``players`` or in
    ``unparsed`` (``player_lines`` = both together)."""

    ref: ListRef
    players: list[RatedPlayer]
    unparsed: list[Unparsed]
    player_lines: int
    declared_players: int | None = None
    """The count the file states of itself (EGD: ``Number of players: 45524``), if any."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ListInfo:
    """A list as the store holds it (``goledger ratings info``)."""

    ref: ListRef
    players: int
    unparsed: list[Unparsed]
    file: str
    imported_at: str
