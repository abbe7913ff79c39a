"""Every player of a tournament checked against the EGD's own list before the results are
sent (issue 47, item 3; ``goledger egd-check``, the desk's EGD check page; docs/egd-check.md).

The EGD's administrators hand-check each submission and send back what they reject:
misspelt names, a player entered twice, "weird grade declarations", a class that does not
match the time settings, homonyms without PINs. :func:`check_tournament` looks for the same
things with the EGD list of the ratings store (:mod:`goledger.ratings`), and says each
finding in one line with its fix. It refuses nothing: the export writes what the ledger holds.

The kinds of finding (:data:`KINDS`):

* ``pin-missing`` — no EGD PIN: when the list has exactly one player of that name the fix
  is his PIN; when it has none, the EGD will create a new player (say so, or check the
  spelling);
* ``pin-unknown`` — a PIN the list does not hold;
* ``pin-duplicate`` — one PIN given to two players; ``duplicate`` — two players of the
  tournament with the same name (folded: case, accents, word order);
* ``homonym`` — no PIN, and the list has several players of that name: the PIN decides;
* ``name`` — the name is not the list's: with a PIN, the list spells it otherwise; without
  one, the name is no name of the list but one typo away from one (fix: the list's spelling);
* ``grade`` — the declared rank is 4 grades or more from the player's GoR (GoR 2100 is 1d,
  100 points a grade), or 3 or more from the grade the list last saw (a "weird grade
  declaration");
* ``country``, ``club`` — the player's country or club (as the export writes it) is not the
  list's, or is missing;
* ``class`` — the tournament's class does not follow from its time settings: time settings
  that meet no class, no time settings at all, or — for a tournament imported from an EGD
  table, whose class (``CL``) and adjusted time (``TM``) are the file's facts — a class that
  is no EGF class, comes without an adjusted time, or needs more adjusted time than ``TM``.

Names are compared folded (:func:`goledger.ratings.names.name_key`): the EGD list is ASCII
and the export transliterates, so ``Müller`` is ``Mueller`` and only a different name is a
finding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from goledger.errors import CommandRejected
from goledger.formats.countries import is_country_code
from goledger.formats.egd.write import club_code
from goledger.ledger.values import Rank, RankError
from goledger.rating.classes import CLASS_MIN_ADJUSTED_MINUTES, adjusted_minutes, describe_time, egf_class
from goledger.ratings.names import name_key

if TYPE_CHECKING:
    from collections.abc import Iterable

    from goledger.ratings.model import ListRef, RatedPlayer
    from goledger.ratings.store import RatingsStore
    from goledger.replay.fold.state import PlayerState, TournamentState

__all__ = ["KINDS", "EgdCheck", "Finding", "check_tournament"]

KINDS: Final = ("pin-missing", "pin-unknown", "pin-duplicate", "duplicate", "homonym", "name", "grade", "country",
                "club", "class")
GOR_GRADES: Final = 4
"""A declared rank this many grades or more from the GoR's is a weird declaration."""
LIST_GRADES: Final = 3
"""A declared rank this many grades or more from the list's last grade is one too."""
_UNKNOWN_CLUBS: Final = frozenset({"", "-", "xxx", "xxxx"})


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing the EGD would reject: its kind, the player (``""`` for the tournament), the
    problem and the fix, in one line (:meth:`line`)."""

    kind: str
    player_id: str
    player: str
    problem: str
    fix: str

    def line(self) -> str:
        who = f"{self.player} ({self.player_id}): " if self.player_id else ""
        return f"{self.kind}: {who}{self.problem}; fix: {self.fix}"

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "player_id": self.player_id, "player": self.player, "problem": self.problem,
                "fix": self.fix, "line": self.line()}


@dataclass(frozen=True, slots=True)
class EgdCheck:
    """The findings of one check, with the list they were checked against."""

    tournament: str
    players: int
    ref: ListRef
    findings: list[Finding]

    def render(self) -> str:
        head = (f"{self.tournament}: {self.players} players checked against the {self.ref.describe()}: "
                f"{len(self.findings)} finding(s)")
        return "\n".join([head, *(f.line() for f in self.findings)])

    def to_dict(self) -> dict[str, Any]:
        return {"tournament": self.tournament, "players": self.players,
                "list": {"source": self.ref.source, "date": self.ref.date, "sha256": self.ref.sha256},
                "findings": [f.to_dict() for f in self.findings]}


def check_tournament(state: TournamentState, store: RatingsStore) -> EgdCheck:
    """The findings for every player of ``state`` who has a game (the players the EGD table
    lists) and for the tournament's class, in that order."""
    if state.settings is None:
        raise CommandRejected("the ledger has no tournament yet")
    playing = {pid for g in state.all_games() for pid in (g.white, g.black)}
    players = [p for pid, p in sorted(state.players.items()) if pid in playing]
    findings: list[Finding] = []
    findings += _duplicates(players)
    ref = store.info("egd").ref
    for p in players:
        findings += _player(p, store)
    findings += _class(state)
    return EgdCheck(state.settings.name, len(players), ref, findings)


def _who(p: PlayerState) -> str:
    return p.full_name


def _listed(r: RatedPlayer) -> str:
    gor = f", GoR {r.gor}" if r.gor is not None else ""
    return f"{r.full_name} (PIN {r.pin}, {r.country} {r.club}, {r.grade}{gor})"


def _duplicates(players: list[PlayerState]) -> Iterable[Finding]:
    by_pin: dict[str, PlayerState] = {}
    by_name: dict[str, PlayerState] = {}
    for p in players:
        pin = p.egd_pin.strip()
        if pin:
            other = by_pin.setdefault(pin, p)
            if other is not p:
                yield Finding("pin-duplicate", p.id, _who(p), f"has PIN {pin}, as {_who(other)} ({other.id})",
                              f"give each his own PIN (goledger update-player {p.id} --egd-pin PIN)")
        key = " ".join(sorted(name_key(p.full_name).split()))
        if not key:
            continue
        other = by_name.setdefault(key, p)
        if other is not p:
            yield Finding("duplicate", p.id, _who(p), f"has the name of {other.id} ({_who(other)}, {other.rank}): "
                          "the EGD takes them for one player entered twice",
                          f"unregister the duplicate, or give each his EGD PIN (update-player {p.id} --egd-pin PIN)")


def _player(p: PlayerState, store: RatingsStore) -> list[Finding]:
    pin = p.egd_pin.strip()
    if not name_key(p.full_name):
        return [Finding("name", p.id, _who(p), "the name has no letter the EGD can read (characters lost when a file "
                        "was written?)", f"write the name again (update-player {p.id} --surname S --first-name F)")]
    if pin:
        listed = store.lookup(pin, "egd")[1]
        if listed is None:
            return [Finding("pin-unknown", p.id, _who(p), f"PIN {pin} is not in the EGD list",
                            f"check the PIN (goledger ratings search \"{p.full_name}\"), or remove it "
                            f"(update-player {p.id} --egd-pin '')")]
        findings = []
        if sorted(name_key(p.full_name).split()) != sorted(name_key(listed.full_name).split()):
            findings.append(Finding("name", p.id, _who(p), f"PIN {pin} is {_listed(listed)} in the EGD list",
                                    f"write the name as the EGD does (update-player {p.id} --surname "
                                    f"\"{listed.surname}\" --first-name \"{listed.first_name}\"), or correct "
                                    "the PIN"))
        return findings + _compare(p, listed)
    exact, close = _candidates(p, store)
    if len(exact) == 1:
        listed = exact[0]
        return [Finding("pin-missing", p.id, _who(p), f"has no EGD PIN; the list has {_listed(listed)}",
                        f"if it is him, goledger update-player {p.id} --egd-pin {listed.pin}"),
                *_compare(p, listed)]
    if len(exact) > 1:
        pins = "; ".join(_listed(r) for r in exact[:6])
        more = f" and {len(exact) - 6} more" if len(exact) > 6 else ""
        return [Finding("homonym", p.id, _who(p), f"has no EGD PIN and the list has {len(exact)} players of that "
                        f"name: {pins}{more}", f"ask the player which one he is and give his PIN "
                        f"(update-player {p.id} --egd-pin PIN)")]
    if close:
        listed = close[0]
        return [Finding("name", p.id, _who(p), f"is not in the EGD list as written; the list has {_listed(listed)}",
                        f"if it is him, write the name as the EGD does and give his PIN (update-player {p.id} "
                        f"--surname \"{listed.surname}\" --first-name \"{listed.first_name}\" --egd-pin "
                        f"{listed.pin})")]
    return [Finding("pin-missing", p.id, _who(p), "has no EGD PIN and no one of that name is in the EGD list",
                    "check the spelling; a first tournament is fine: the EGD creates the player")]


def _candidates(p: PlayerState, store: RatingsStore) -> tuple[list[RatedPlayer], list[RatedPlayer]]:
    """The list's players with exactly the player's name (folded, any order), and those one
    typo away when none has it."""
    wanted = sorted(name_key(p.full_name).split())
    if not wanted:
        return [], []
    found = store.search(p.full_name, limit=40, prefix=False).matches
    exact = [m.player for m in found if sorted(name_key(m.player.full_name).split()) == wanted]
    close = [m.player for m in found if m.score >= 80 and len(name_key(m.player.full_name).split()) == len(wanted)]
    return exact, close if not exact else []


def _grade(text: str) -> int | None:
    try:
        return Rank.parse(text).value
    except RankError:
        return None


def _compare(p: PlayerState, listed: RatedPlayer) -> list[Finding]:
    findings: list[Finding] = []
    declared = _grade(p.rank)
    if declared is not None and not p.rank.endswith("p"):
        if listed.gor is not None:
            implied = (listed.gor + 50 - 2100) // 100
            if abs(declared - implied) >= GOR_GRADES:
                about = Rank.from_value(max(-30, min(8, implied)))
                findings.append(Finding("grade", p.id, _who(p), f"declares {p.rank} but his GoR {listed.gor} is "
                                        f"about {about}: the EGD queries such a declaration",
                                        f"check the rank with the player (update-player {p.id} --rank R)"))
                return findings + _places(p, listed)
        last = _grade(listed.grade) if listed.grade else None
        if last is not None and abs(declared - last) >= LIST_GRADES:
            findings.append(Finding("grade", p.id, _who(p), f"declares {p.rank} but the EGD list last saw him at "
                                    f"{listed.grade}", f"check the rank with the player (update-player {p.id} "
                                    "--rank R)"))
    return findings + _places(p, listed)


def _places(p: PlayerState, listed: RatedPlayer) -> list[Finding]:
    findings: list[Finding] = []
    country = p.country.strip().upper()
    if listed.country and listed.country != "XX" and country != listed.country:
        problem = "has no country" if not country else f"has country {country}"
        if country and not is_country_code(country):
            problem += ", which is not a country code"
        findings.append(Finding("country", p.id, _who(p), f"{problem}; the EGD list says {listed.country}",
                                f"update-player {p.id} --country {listed.country}, if he still plays for it"))
    club = club_code(p.club)
    if listed.club.lower() not in _UNKNOWN_CLUBS and club.lower() != listed.club.lower():
        problem = "has no club" if not club else f"has club {p.club!r} (written {club!r})"
        findings.append(Finding("club", p.id, _who(p), f"{problem}; the EGD list says {listed.club}",
                                f"update-player {p.id} --club {listed.club}, if he is still a member"))
    return findings


def _class(state: TournamentState) -> list[Finding]:
    s = state.settings
    assert s is not None
    kept = s.extras.get("egd.CL", "").strip() if "egd.CL" in s.extras else None
    tm = s.extras.get("egd.TM", "").strip()
    fix_time = "set the time settings (change-rules time=…) or export with --class A|B|C|D"
    if s.time is not None and kept is None:
        computed = egf_class(s.time, s.internet)
        at = adjusted_minutes(s.time)
        if computed == "X":
            return [Finding("class", "", "", f"the time settings ({describe_time(s.time)}, adjusted {at} min) meet "
                            "no EGF class: the EGD cannot weigh the games", fix_time)]
        return []
    if kept is None:
        return [Finding("class", "", "", "the tournament has no time settings: the export writes no class (CL) "
                        "and the EGD asks for one", fix_time)]
    if kept not in ("A", "B", "C", "D"):
        return [Finding("class", "", "", f"the imported class CL[{kept}] is no EGF class and the time settings are "
                        "unknown", fix_time)]
    if not tm.isdigit():
        return [Finding("class", "", "", f"class {kept} comes with no adjusted time (TM[{tm}]): the EGD cannot "
                        "check it", fix_time)]
    if int(tm) < CLASS_MIN_ADJUSTED_MINUTES[kept]:
        return [Finding("class", "", "", f"class {kept} needs an adjusted time of {CLASS_MIN_ADJUSTED_MINUTES[kept]} "
                        f"min or more, the file says TM[{tm}]", "export with the class the time gives (--class)")]
    return []
