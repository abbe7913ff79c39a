"""Ledger state → an EGD result table the European Go Database accepts (spec ``formats/egd.md``).

:func:`write_egd` returns the file's bytes and an export report that lists everything the
file could not say as the ledger says it. The rules it follows, and why:

* **Header** (§2): ``CL`` from the EGF class rules of :mod:`~goledger.rating.classes`
  (``--class`` overrides; a ledger imported from an EGD file keeps the class it had; no
  ``CL`` when the time settings meet no class), ``EV``, ``PC[<country>,<city>]`` (``PC[,<city>]``
  when the country is unknown; the
  country from ``--country``, the location text, or else the country of more than half
  of the players, reported), ``DT`` (left out when the dates are impossible), ``HA``
  (``h9`` when no exported game has a handicap, else ``h<correction>``), ``KM``, ``TM``
  (adjusted minutes), ``CM`` (the time system). A tag that would break a rule of the
  format is left out (the upload form asks for it) and the report says why.
* **Rows** (§0.1, §3.1): players who have at least one game written as a game (a result
  the EGD can rate) in rounds 1..R, in the order of
  the standings at round R under the tournament's policy and criteria. Players equal on
  every criterion are ordered by surname, then first name (UTF-16 code units, as
  OpenGotha), then ledger id, and the report lists every such tie. Places are 1…N with no
  ex aequo: the EGD requires it.
* **Fields**: names with ``_`` for spaces (never truncated); lower-case rank; upper-case
  country (``XX`` when unknown, reported); a club of at most 4 characters: the club itself
  without spaces when short enough, else the first 4 letters of its first distinctive word
  (``Go Club de Lyon`` → ``Lyon``, ``75 Openers`` → ``75Op``), never its last letters; the
  tournament's tie-break values as exact decimals (never ``½``, which prints as ``?`` in
  ISO-8859-15 and makes ``408?`` look like a game); ``|PIN`` for an 8-digit EGD PIN.
* **Cells** (§3.2): ``opp+/w0``: opponent row, result, colour and handicap stones. A round
  without a game is ``0+``, ``0=`` or ``0-`` according to the points the policy gives it
  (McMahon values for a McMahon tournament, else NBW values). **Forfeits are never written
  as played games**: with ``forfeits="free"`` (default) each player gets the free-round cell
  worth what the forfeit gave him, with ``"marked"`` the game is written ``opp+!w0``
  (OpenGotha's marker). Results the EGD cannot rate — unknown, both win, both lose — are
  free rounds too. Every such game is listed in the report.
* **Encoding**: UTF-8, or ISO-8859-1 with every character it cannot hold transliterated
  (reported field by field).
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from fractions import Fraction
from typing import TYPE_CHECKING, Final, Literal

from goledger import __version__
from goledger.errors import CommandRejected, FormatError
from goledger.formats.carried import carried_lines
from goledger.formats.countries import UNKNOWN_COUNTRY, is_country_code
from goledger.formats.exporting import report_players_paired_twice
from goledger.formats.report import InterchangeReport
from goledger.formats.transliterate import to_charset
from goledger.i18n.messages import say
from goledger.ledger.domains import text_problem
from goledger.ledger.values import Rank, RankError, Result
from goledger.outputs import shown
from goledger.rating.classes import adjusted_minutes, describe_time, egf_class
from goledger.replay.scoring.criteria import get_criterion
from goledger.replay.scoring.rules import rules_for
from goledger.replay.scoring.scoring import RoundEntry, ScoringContext
from goledger.replay.scoring.standings import Standings, main_score, resolve_policy, standings
from goledger.teams.model import roster

if TYPE_CHECKING:
    from goledger.ledger.events import TournamentSettings
    from goledger.replay.fold.state import GameState, PlayerState, TournamentState
    from goledger.replay.scoring.policies import Policy

__all__ = ["ENCODINGS", "ForfeitMode", "club_code", "write_egd"]

ForfeitMode = Literal["free", "marked"]

ENCODINGS: Final = {"utf-8": "utf-8", "utf8": "utf-8", "latin-1": "latin-1", "latin1": "latin-1",
                    "iso-8859-1": "latin-1"}

_GENERIC_CLUB_WORDS: Final = frozenset({
    "go", "club", "clube", "klub", "klubu", "club's", "gc", "gk", "igo", "baduk", "weiqi", "wei", "qi",
    "association", "assoc", "society", "team", "of", "the", "de", "du", "des", "la", "le", "les", "der",
    "die", "das", "and", "et", "und", "y", "i", "e", "a", "di", "del", "della", "go-club", "goclub",
    "verein", "ev", "e.v",
})


def club_code(club: str) -> str:
    """A club name in at most 4 characters, chosen to stay recognisable.

    >>> [club_code(c) for c in ("75Op", "Go Club de Lyon", "75 Openers", "Brno Go Club", "Seoul", "", "Go Club")]
    ['75Op', 'Lyon', '75Op', 'Brno', 'Seou', '', 'GoCl']
    """
    compact = "".join(club.split())
    if len(compact) <= 4:
        return compact
    words = [w for w in re.split(r"[\s_\-./,'()&+]+", club) if w]
    kept = [w for w in words if w.casefold() not in _GENERIC_CLUB_WORDS] or words
    code = ""
    for word in kept:
        code += word[: 4 - len(code)]
        if len(code) >= 4:
            break
    return code or compact[:4]


def write_egd(
    state: TournamentState,
    round: int | None = None,  # noqa: A002 - the CLI option is --round
    encoding: str = "utf-8",
    forfeits: ForfeitMode = "free",
    egd_class: str | None = None,
    country: str | None = None,
    policy: str | Policy | None = None,
    source: str = "",
) -> tuple[bytes, InterchangeReport]:
    """The EGD table of ``state`` after ``round`` (default: the last round with a played
    game) and its export report. Refuses (``CommandRejected``) an unknown encoding, forfeit
    mode or class, and a tournament with nothing to export."""
    return _Writer(state, round, encoding, forfeits, egd_class, country, policy, source).write()


class _Writer:
    def __init__(self, state: TournamentState, round_: int | None, encoding: str, forfeits: str,
                 egd_class: str | None, country: str | None, policy: str | Policy | None, source: str) -> None:
        if state.settings is None:
            raise CommandRejected("the ledger has no tournament yet")
        codec = ENCODINGS.get(encoding.lower())
        if codec is None:
            raise CommandRejected(f"unknown encoding {encoding!r}; use utf-8 or latin-1")
        if forfeits not in ("free", "marked"):
            raise CommandRejected(f"unknown forfeit mode {forfeits!r}; use free or marked")
        if egd_class is not None and egd_class.upper() not in ("A", "B", "C", "D"):
            raise CommandRejected(f"class {egd_class!r} is not an EGF class; use A, B, C or D")
        if country is not None and not is_country_code(country.strip()):
            raise CommandRejected(f"country {country!r} is not a two-letter country code such as FR")
        self.state = state
        self.settings: TournamentSettings = state.settings
        self.codec = codec
        self.forfeits = forfeits
        self.egd_class = egd_class.upper() if egd_class else None
        self.country = country.strip().upper() if country else None
        self.round = self._round(round_)
        self.policy = resolve_policy(state, policy)
        self.report = InterchangeReport(format="egd", source=source, direction="export",
                                        dialect=f"{codec}, forfeits {forfeits}, round {self.round}")
        report_players_paired_twice(state, self.report, "an EGD table")
        self.reported_games: set[tuple[int, int]] = set()

    # ------------------------------------------------------------------ set-up

    def _round(self, round_: int | None) -> int:
        state = self.state
        if round_ is not None:
            if not 1 <= round_ <= state.rounds:
                raise CommandRejected(f"round {round_} is outside 1..{state.rounds} of this tournament")
            return round_
        played = [g.round for g in state.all_games() if g.result is not Result.UNKNOWN]
        if played:
            return max(played)
        if state.last_round_with_games():
            return state.last_round_with_games()
        raise CommandRejected(say("nothing to export: no round of this tournament has a game"))

    def _criteria(self) -> tuple[str, ...]:
        names = rules_for(self.policy, self.settings).criteria
        found: list[str] = []
        for name in names:
            if not name or name.upper() == "NULL":
                continue
            try:
                found.append(get_criterion(name).name)
            except CommandRejected:
                self.report.warning("not-written", f"criterion {name} is not available in this goledger: its "
                                                   f"column is left out and ties are broken without it")
        if not found:
            found.append("NBW")
            self.report.warning("not-written", "none of the tournament's criteria is available: players are "
                                               "ordered on NBW")
        return tuple(found)

    # ------------------------------------------------------------------ main

    def write(self) -> tuple[bytes, InterchangeReport]:
        criteria = self._criteria()
        table = standings(self.state, self.round, self.policy, criteria)
        ctx = ScoringContext(self.state, self.round, self.policy)
        self.family = "mms" if main_score(self.state) == "MMS" else "nbw"
        rows = self._rows(table, ctx)
        if not rows:
            forfeits = say("; nor are forfeits, unless --forfeits marked") if self.forfeits == "free" else ""
            raise CommandRejected(say("nothing to export: no game of rounds 1..%(round)d has a result the EGD can "
                                      "rate (unknown, both-win and both-lose results are not rated%(forfeits)s), and "
                                      "the EGD rejects a table without one", round=self.round, forfeits=forfeits))
        row_of = {pid: n for n, pid in enumerate(rows, start=1)}
        self._count_games(row_of)
        lines = self._header(rows, table)
        body = self._player_lines(rows, row_of, table, ctx)
        text = "\n".join(lines + body) + "\n"
        return text.encode(self.codec), self.report

    def _rows(self, table: Standings, ctx: ScoringContext) -> list[str]:
        """Player ids in export order: standings order, exact ties broken explicitly."""
        report = self.report
        players = self.state.players
        listed: list[str] = []
        for row in table.rows:
            report.count_read("players")
            entries = ctx.entries[row.player_id]
            if not any(e.game is not None and self._plays_as_game(e.game) for e in entries):
                report.info("not-written", f"{_name(players[row.player_id])} has no game the EGD can rate in rounds "
                                           f"1..{self.round}: not listed", row.player_id)
                continue
            listed.append(row.player_id)
            report.count_recorded("players")
        place = {row.player_id: row.place for row in table.rows}
        groups: dict[int, list[str]] = {}
        for pid in listed:
            groups.setdefault(place[pid], []).append(pid)
        ordered: list[str] = []
        names = ", ".join(table.criteria) or "no criterion"
        for shared, members in groups.items():
            members.sort(key=lambda pid: (_utf16(players[pid].surname), _utf16(players[pid].first_name), pid))
            if len(members) > 1:
                start = len(ordered) + 1
                report.info("tie-broken",
                            f"{len(members)} players share place {shared} on {names}; written as places "
                            f"{start}–{start + len(members) - 1} ordered by surname, first name, then ledger id: "
                            + "; ".join(_name(players[pid]) for pid in members))
            ordered.extend(members)
        return ordered

    def _count_games(self, row_of: dict[str, int]) -> None:
        for game in self.state.all_games():
            if game.round <= self.round:
                self.report.count_read("games")
                if self._plays_as_game(game):
                    self.report.count_recorded("games")

    def _unwritten(self) -> list[GameState]:
        """The games of rounds 1..round the table writes as free rounds (carried in a comment line)."""
        return [g for r in sorted(self.state.games) if r <= self.round for g in self.state.games_of_round(r)
                if not self._plays_as_game(g)]

    def _plays_as_game(self, game: GameState) -> bool:
        if game.result in (Result.UNKNOWN, Result.BOTH_WIN, Result.BOTH_LOSE):
            return False
        return not (game.by_default and self.forfeits == "free")

    # ------------------------------------------------------------------ header

    def _header(self, rows: list[str], table: Standings) -> list[str]:
        s = self.settings
        tags: list[tuple[str, str]] = []
        cl = self._class()
        if cl:
            tags.append(("CL", cl))
        tags.append(("EV", self._text(s.name, "event name")))
        pc = self._place(rows)
        if pc:
            tags.append(("PC", pc))
        dt = self._dates()
        if dt:
            tags.append(("DT", dt))
        tags.append(("HA", self._handicap_tag()))
        tags.append(("KM", s.komi))
        tm = self._adjusted_time()
        if tm:
            tags.append(("TM", tm))
        cm = s.extras.get("egd.CM") if "egd.CM" in s.extras else describe_time(s.time) if s.time else ""
        if cm:
            tags.append(("CM", self._text(cm, "comment")))
        lines = [f"; {name}[{value}]" for name, value in tags]
        lines += self._team_lines()
        lines += [f"; Generated by goledger {__version__}"]
        lines += self._carried_lines(rows)
        return [*lines, ";"]

    def _carried_lines(self, rows: list[str]) -> list[str]:
        """The rules behind the places as a comment line (:mod:`goledger.formats.carried`): an
        EGD table has no McMahon bar or floor, point values or policy, so reading it back
        would rebuild other standings (issue 40, item 5); and the withdrawals and absences,
        which the table writes as free rounds like a bye."""

        lines = [f"; {line}" for line in carried_lines(self.settings, state=self.state, order=rows,
                                                       last_round=self.round, corrections=True,
                                                       games=self._unwritten())]
        if lines:
            self.report.info("carried", "the rules behind the places (system, bar, floor, criteria, policy…) written "
                             "in a comment line, which goledger reads back")
        return lines

    def _team_lines(self) -> list[str]:
        """A team tournament's teams as comment lines (the T-file has no team field: its board
        games are ordinary individual games, and comments are the one place a team can be
        named): ``; Team Lions: 1 Sato Ken, 2 Ito Mai``, in team-number order, with the
        members of the last exported round."""
        if not self.state.teams:
            return []

        ro = roster(self.state)
        lines = ["; Team tournament: the board games below are individual games"]
        for tid in sorted(ro.ids, key=lambda t: ro.number[t]):
            members = ro.members(self.state, tid, max(self.round, 1))
            names = ", ".join(f"{b} {self.state.players[p].full_name}" for b, p in sorted(members.items()))
            lines.append("; " + self._text(f"Team {ro.name[tid]}: {names}", "team"))
        self.report.info("team", f"{len(ro.ids)} teams named in comment lines (the T-file has no team field)")
        return lines

    def _class(self) -> str:
        s, report = self.settings, self.report
        if self.egd_class:
            report.info("header", f"class {self.egd_class} given by --class")
            return self.egd_class
        if "egd.CL" in s.extras:
            kept = s.extras["egd.CL"].strip()
            if kept in ("A", "B", "C", "D"):
                report.info("header", f"class {kept} kept from the imported EGD file")
                return kept
            report.warning("header", f"the imported EGD file gave no valid class (CL[{kept}]) and its time settings "
                                     f"are unknown: no CL tag written; give one with --class")
            return ""
        if s.time is None:
            report.warning("header", "the tournament has no time settings (created without --time): no CL tag "
                                     "written; give the class with --class, or set the time with change-rules")
            return ""
        computed = egf_class(s.time, s.internet)
        at = adjusted_minutes(s.time)
        if computed == "X":
            report.warning("header", f"the time settings ({describe_time(s.time)}, adjusted {at} min"
                                     f"{', internet' if s.internet else ''}) meet no EGF class: no CL tag written; "
                                     f"give one with --class")
            return ""
        report.info("header", f"class {computed} computed from {describe_time(s.time)} (adjusted time {at} min"
                              f"{', internet' if s.internet else ''})")
        return computed

    def _place(self, rows: list[str]) -> str:
        s, report = self.settings, self.report
        city = s.location.strip()
        code = self.country or s.extras.get("egd.country", "").upper() or ""
        match = re.fullmatch(r"\s*([A-Za-z]{2})\s*,\s*(.+)", city) or re.fullmatch(r"(.+?)\s*,\s*([A-Za-z]{2})\s*",
                                                                                     city)
        if match:
            first, second = match.groups()
            cc, rest = (first, second) if len(first) == 2 and is_country_code(first) else (second, first)
            if is_country_code(cc):
                city = rest.strip()
                code = code or cc.upper()
        if not code:
            counts = Counter(self.state.players[pid].country.upper() for pid in rows
                             if is_country_code(self.state.players[pid].country))
            if counts and 2 * counts.most_common(1)[0][1] > len(rows):
                code, n = counts.most_common(1)[0]
                report.warning("header", f"the tournament's country is not recorded: PC uses {code}, the country of "
                                         f"{n} of {len(rows)} players; give it with --country")
        if not city:
            report.warning("header", "the tournament has no location: no PC tag written")
            return ""
        if not code:
            report.warning("header", "the tournament's country is unknown: PC gives the city only (PC[,city], as "
                                     "OpenGotha writes it; the EGD asks for the country at upload); give it with "
                                     "--country")
            return f",{self._text(city, 'location')}"
        return f"{code},{self._text(city, 'location')}"

    def _dates(self) -> str:
        s, report = self.settings, self.report
        begin, end = s.begin_date, s.end_date or s.begin_date
        if not begin:
            report.warning("header", "the tournament has no dates: no DT tag written")
            return ""
        if not all(_is_date(d) for d in (begin, end)):
            report.warning("header", f"the dates {begin!r}, {end!r} are not yyyy-mm-dd: no DT tag written")
            return ""
        if end < begin:
            report.warning("header", f"the last day {end} is before the first {begin}: no DT tag written; "
                                     f"correct the dates in the ledger")
            return ""
        return f"{begin},{end}"

    def _handicap_tag(self) -> str:
        games = [g for g in self.state.all_games() if g.round <= self.round]
        handicapped = sum(1 for g in games if g.handicap > 0)
        h = self.settings.handicap
        if not handicapped:
            self.report.info("header", "no exported game has a handicap: HA[h9] (no handicap)")
            return "h9"
        correction = max(0, min(9, h.correction))
        self.report.info("header", f"{handicapped} games have handicap stones, each written in its cells; "
                                   f"HA[h{correction}] is the tournament's handicap correction")
        return f"h{correction}"

    def _adjusted_time(self) -> str:
        s = self.settings
        if "egd.TM" in s.extras:
            kept = s.extras["egd.TM"].strip()
            if kept.isdigit():
                return kept
            self.report.warning("header", "the imported EGD file gave no adjusted time: no TM tag written")
            return ""
        if s.time is None:
            self.report.warning("header", "the tournament has no time settings: no TM tag written")
            return ""
        return str(adjusted_minutes(s.time))

    # ------------------------------------------------------------------ player lines

    def _player_lines(self, rows: list[str], row_of: dict[str, int], table: Standings,
                      ctx: ScoringContext) -> list[str]:
        players = self.state.players
        values = {row.player_id: row.values for row in table.rows}
        records = []
        for n, pid in enumerate(rows, start=1):
            p = players[pid]
            name = f"{self._name_token(p, p.surname, 'surname')} {self._name_token(p, p.first_name, 'first name')}"
            cols = [_decimal(values[pid][c], table.scales[c]) for c in table.criteria]
            cells = [self._cell(pid, e, row_of, ctx) for e in ctx.entries[pid][: self.round]]
            records.append((n, name, self._rank(p), self._country(p), self._club(p), cols, cells, self._pin(p)))
        seen: dict[tuple[str, str], int] = {}
        for n, name, rank, *_ in records:
            key = (name.casefold(), rank)
            if key in seen and "?" not in name:
                self.report.warning("name", f"{name} {rank} appears twice (places {seen[key]} and {n}); the EGD "
                                            f"tells players apart by name")
            seen.setdefault(key, n)
        place_w = max(4, len(str(len(rows))))
        name_w = max([len(r[1]) for r in records] + [4])
        col_w = [max([len(c)] + [len(r[5][i]) for r in records]) for i, c in enumerate(table.criteria)]
        cell_w = max([len(c) for r in records for c in r[6]] + [6])
        head = "; " + "Pl".rjust(place_w - 2) + " " + "Name".ljust(name_w) + "  Rk Co Club"
        head += "".join(" " + c.rjust(w) for c, w in zip(table.criteria, col_w, strict=True))
        head += "".join(" " + f"R{r}".rjust(cell_w) for r in range(1, self.round + 1))
        lines = [head.rstrip()]
        for n, name, rank, country, club, cols, cells, pin in records:
            line = f"{n:>{place_w}} {name:<{name_w}} {rank:>3} {country} {club:<4}"
            line += "".join(" " + v.rjust(w) for v, w in zip(cols, col_w, strict=True))
            line += "".join(" " + c.rjust(cell_w) for c in cells)
            if pin:
                line += f" |{pin}"
            lines.append(line.rstrip())
        return lines

    def _text(self, text: str, what: str, where: str = "") -> str:
        """Fit free text into the output encoding (transliterating, reported); a control or
        invisible character an old ledger may hold is written as its escape (``\\x1b``)."""
        clean = " ".join(shown(text).replace("]", ")").split())
        if self.codec != "utf-8":
            fitted = to_charset(clean, self.codec)
            if fitted != clean:
                self.report.info("transliterated", f"{what} {clean!r} written as {fitted!r}", where)
                clean = fitted
        return clean

    def _name_token(self, p: PlayerState, text: str, what: str) -> str:
        raw = text.strip()
        problem = text_problem(raw, f"{p.id}'s {what}")
        if problem:  # a fixed-width line cannot carry a control or invisible character
            raise FormatError(f"{problem}: an EGD table cannot hold it; correct it with update-player first")
        if not raw:
            self.report.warning("name", f"{_name(p)} has no {what}: written as '-'", p.id)
            return "-"
        token = re.sub(r"[\s_]+", "_", raw)
        if "?" in token:
            self.report.warning("name", f"{what} {raw!r} contains '?' (characters lost before they reached the "
                                        f"ledger?); written as is", p.id)
        if ";" in token or "|" in token.lstrip("_")[:1]:
            fixed = token.replace(";", ",")
            fixed = "_" + fixed[1:] if fixed.startswith("|") else fixed
            self.report.warning("name", f"{what} {raw!r} contains a character the format cannot hold: written "
                                        f"{fixed!r}", p.id)
            token = fixed
        return self._text(token, what, p.id)

    def _rank(self, p: PlayerState) -> str:
        try:
            return str(Rank.parse(p.rank))
        except RankError:
            self.report.error("rank", f"{_name(p)} has no valid rank ({p.rank!r})", p.id)
            return p.rank

    def _country(self, p: PlayerState) -> str:
        code = p.country.strip().upper()
        if is_country_code(code):
            return code
        why = "no country" if not code else f"country {p.country!r}, which is not a country code"
        self.report.warning("country", f"{_name(p)} has {why}: written as {UNKNOWN_COUNTRY}", p.id)
        return UNKNOWN_COUNTRY

    def _club(self, p: PlayerState) -> str:
        code = club_code(p.club)
        if not code:
            return "xxxx"
        if code != p.club:
            self.report.info("club", f"club {p.club!r} of {_name(p)} written as {code!r} (at most 4 characters)", p.id)
        return self._text(code, "club", p.id)

    def _pin(self, p: PlayerState) -> str:
        pin = p.egd_pin.strip()
        if not pin:
            return ""
        if re.fullmatch(r"\d{8}", pin):
            return pin
        self.report.warning("pin", f"{_name(p)}'s EGD PIN {pin!r} is not 8 digits: not written", p.id)
        return ""

    # ------------------------------------------------------------------ cells

    def _cell(self, pid: str, entry: RoundEntry, row_of: dict[str, int], ctx: ScoringContext) -> str:
        game = entry.game
        if game is None:
            return _free(ctx.unpaired_points2(pid, entry, self.family))
        white = game.white == pid
        points = game.points2(pid)
        self._report_game(game)
        if game.result is Result.UNKNOWN:
            return "0-"
        if game.result in (Result.BOTH_WIN, Result.BOTH_LOSE):
            return _free(points)
        if game.by_default and self.forfeits == "free":
            return _free(points)
        sign = "+" if points == 2 else "=" if points == 1 else "-"
        mark = "!" if game.by_default else "/"
        return f"{row_of[game.opponent(pid)]}{sign}{mark}{'w' if white else 'b'}{game.handicap}"

    def _report_game(self, game: GameState) -> None:
        key = (game.round, game.table)
        if key in self.reported_games:
            return
        self.reported_games.add(key)
        players = self.state.players
        who = f"round {game.round}, {_name(players[game.white])} (white) vs {_name(players[game.black])}"
        report = self.report
        if game.result is Result.UNKNOWN:
            report.warning("not-written", f"{who}: no result; written as a free round 0- for both")
        elif game.result in (Result.BOTH_WIN, Result.BOTH_LOSE):
            cell = "0+" if game.result is Result.BOTH_WIN else "0-"
            flag = " by default" if game.by_default else ""
            report.warning("not-written", f"{who}: {game.result.value}{flag} cannot be rated; written as free "
                                          f"rounds {cell} for both")
        elif game.by_default:
            if self.forfeits == "free":
                w, b = game.result.points2()
                report.warning("forfeit", f"{who}: {game.result.value} by default; written as free rounds "
                                          f"{_free(w)} (white) and {_free(b)} (black), not as a game")
            else:
                report.warning("forfeit", f"{who}: {game.result.value} by default; written as a game marked '!' "
                                          f"— the EGD administrator must not rate it")
        if not game.color_known and self._plays_as_game(game):
            report.info("colour", f"{who}: colour not known; written as recorded")
        if game.handicap > 9 and self._plays_as_game(game):
            report.warning("handicap", f"{who}: {game.handicap} handicap stones; the EGD rates 0 to 9")


def _is_date(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return bool(re.fullmatch(r"\d{4}-\d{2}-\d{2}", text))


def _free(points2: int) -> str:
    return "0+" if points2 >= 2 else "0=" if points2 == 1 else "0-"


def _name(p: PlayerState) -> str:
    return f"{p.surname} {p.first_name} ({p.id})".replace("  ", " ")


def _utf16(text: str) -> bytes:
    return text.encode("utf-16-be", "surrogatepass")


def _decimal(value: int, scale: int) -> str:
    """Exact decimal text for ``value / scale``: ``7/2`` → ``3.5``; never ``½``."""
    frac = Fraction(value, scale)
    if frac.denominator == 1:
        return str(frac.numerator)
    sign = "-" if frac < 0 else ""
    frac = abs(frac)
    whole, rest = divmod(frac, 1)
    digits = ""
    for _ in range(6):
        rest *= 10
        digit, rest = divmod(rest, 1)
        digits += str(int(digit))
        if rest == 0:
            return f"{sign}{whole}.{digits}"
    return f"{sign}{frac.numerator}/{frac.denominator}"

