"""Checking an EGD result table before it is uploaded (spec ``formats/egd.md``).

:func:`validate_table` checks every rule of the format and returns each problem with the
line it is on. Two severities:

* ``error`` — a rule of the format is broken: the EGD will reject the file, misread it, or
  rate something that must not be rated (``goledger validate egd`` exits 1);
* ``warning`` — the file is accepted but something is probably wrong or lost (a forfeit
  marked only with ``!``, an unknown country, a tie-break value shaped like a round cell).

A file with neither is *clean*. Problem codes are stable (tests and scripts rely on them):

==========================  =======  ==========================================================
code                        sev.     rule (spec section)
==========================  =======  ==========================================================
``no-players``              error    at least one player line (§3)
``no-rounds``               error    at least one round column (§3.2)
``junk-line``               error    a line is a comment or a player line, nothing else (§1)
``tag-missing``             warning  CL EV PC DT HA KM TM present (§2; the upload form asks)
``tag-unknown``             warning  only TC CL EV PC DT HA KM TM CM (``TA`` is OpenGotha 3.45.0x)
``tag-repeated``            warning  one of each tag except CM
``tag-stray-text``          warning  nothing after the closing ``]``
``tag-value``               error    TC ``T160130A``; CL A–D; EV not empty; PC ``CC,city``;
                                     DT ``yyyy-mm-dd,yyyy-mm-dd`` with end ≥ begin; HA ``h0``–``h9``;
                                     KM decimal; TM whole minutes (§2, §6)
``class-time``              warning  TM reaches the least adjusted time of the CL class (§6)
``place-blank``             error    every line has a place (OpenGotha blanks ties) (§0.1)
``place-sequence``          error    places are 1, 2, 3… in line order: no ex aequo, no jump (§0.1)
``name-tokens``             warning  exactly two name tokens, spaces written ``_`` (§3.1, §3.3)
``name-lost-characters``    warning  no ``?`` in names (characters lost in encoding) (§8)
``rank``                    error    rank 30k–1k, 1d–9d or 1p–9p (§3.1 item 4)
``rank-no-suffix``          warning  a rank with no k/d (``10``) is read as kyu (§3.1 item 4)
``pc-country-missing``      warning  ``PC[,city]``: no country (OpenGotha's way; the upload asks)
``country``                 error    a two-letter country code (§3.1 item 5)
``country-unknown``         warning  ``XX``: the EGD administrator must find the country
``country-missing``         error    the line has no country token (columns shift)
``club-missing``            error    the line has no club token (columns shift) (§9)
``club-length``             error    club at most 4 characters (§3.1 item 6)
``columns``                 warning  the same number of columns on every line
``tiebreak-cell-shaped``    warning  no tie-break value shaped like a round cell (``408?``) (§9)
``rounds-count``            error    the same number of round cells on every line (§1)
``cell-syntax``             error    cells ``opp±/c h``, ``opp±`` or ``0±`` (§3.2)
``result-unknown``          error    result ``?`` is not defined by the EGD (§3.2)
``colour-unknown``          error    colour ``?`` is not defined by the EGD (§3.2)
``handicap-range``          error    handicap 0–9 (§3.2)
``forfeit-marked``          warning  a ``!`` forfeit must not be rated: only the organiser's
                                     word keeps the EGD from rating it; prefer a free round (§0.1)
``free-cell-extra``         warning  a free round is just ``0+``, ``0-`` or ``0=`` (§3.2)
``short-cells``             warning  cells without colour let the EGD compute colour and handicap
                                     from the ranks and HA (§5)
``empty-round``             warning  a round with no game in it (OpenGotha writes future rounds) (§4)
``opponent-range``          error    the opponent is a line of the table (§3.2)
``opponent-self``           error    a player does not play himself
``pair-missing``            error    the opponent's cell in that round names this player (§3.3)
``pair-result``             error    opposite results (``+``/``-`` or ``=``/``=``) (§3.3)
``pair-colour``             error    opposite colours (§3.3)
``pair-handicap``           error    the same handicap on both cells (§3.3)
``pair-forfeit``            warning  ``!`` on both cells or on neither
``pin``                     error    ``|`` followed by an 8-digit EGD PIN (§3.1 item 10, §10)
``pin-duplicate``           error    a PIN appears once
``duplicate-player``        warning  the same name and rank on two lines
==========================  =======  ==========================================================
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from typing import Any, Final, Literal

import msgspec

from goledger.formats.countries import UNKNOWN_COUNTRY, is_country_code
from goledger.formats.egd.syntax import CELL_RE, RANK_RE, Cell, EgdTable, PlayerLine
from goledger.formats.numbers import is_ascii_number
from goledger.ledger.values import Rank, RankError
from goledger.rating.classes import CLASS_MIN_ADJUSTED_MINUTES

__all__ = ["KNOWN_TAGS", "Problem", "ValidationResult", "validate_table"]

Severity = Literal["error", "warning"]

KNOWN_TAGS: Final = ("TC", "CL", "EV", "PC", "DT", "HA", "KM", "TM", "CM")
EXPECTED_TAGS: Final = ("CL", "EV", "PC", "DT", "HA", "KM", "TM")
_DATE_RE: Final = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class Problem(msgspec.Struct, frozen=True):
    """One broken rule: where (1-based line, ``None`` for the file as a whole), how bad, which
    rule (a stable code) and a sentence saying what is wrong."""

    line: int | None
    severity: Severity
    code: str
    message: str


class ValidationResult(msgspec.Struct, kw_only=True):
    """What :func:`validate_table` found in one file."""

    source: str
    encoding: str
    generator: str = ""
    players: int = 0
    rounds: int = 0
    games: int = 0
    problems: list[Problem] = msgspec.field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def ok(self) -> bool:
        """No rule broken (warnings allowed)."""
        return not self.errors

    @property
    def clean(self) -> bool:
        """Neither errors nor warnings."""
        return not self.problems

    def codes(self) -> Counter[str]:
        """How many problems of each code."""
        return Counter(p.code for p in self.problems)

    def to_dict(self) -> dict[str, Any]:
        data = msgspec.to_builtins(self)
        data["ok"] = self.ok
        data["clean"] = self.clean
        data["counts"] = {"errors": len(self.errors), "warnings": len(self.warnings)}
        return data

    def render(self, limit: int | None = None) -> str:
        """Plain text: a summary line, then one line per problem."""
        gen = f", written by {self.generator}" if self.generator else ""
        verdict = "clean" if self.clean else "ok (warnings only)" if self.ok else "rules broken"
        lines = [
            f"{self.source}: {self.players} players, {self.rounds} rounds, {self.games} games, {self.encoding}{gen}: "
            f"{verdict} ({len(self.errors)} errors, {len(self.warnings)} warnings)"
        ]
        shown = self.problems if limit is None else self.problems[:limit]
        for p in shown:
            where = f"line {p.line}" if p.line is not None else "file"
            lines.append(f"  {where}: {p.severity}: {p.code}: {p.message}")
        if limit is not None and len(self.problems) > limit:
            lines.append(f"  … and {len(self.problems) - limit} more (use --json for all)")
        return "\n".join(lines)


class _Checker:
    def __init__(self, table: EgdTable) -> None:
        self.table = table
        self.problems: list[Problem] = []

    def add(self, line: int | None, severity: Severity, code: str, message: str) -> None:
        self.problems.append(Problem(line, severity, code, message))

    def error(self, line: int | None, code: str, message: str) -> None:
        self.add(line, "error", code, message)

    def warning(self, line: int | None, code: str, message: str) -> None:
        self.add(line, "warning", code, message)

    # ------------------------------------------------------------------ file level

    def check_structure(self) -> None:
        table = self.table
        for number, text in table.junk:
            self.error(number, "junk-line",
                       f"{text.strip()[:40]!r} is neither a comment (starting with ';') nor a player line")
        if not table.players:
            self.error(None, "no-players", "the file has no player line")
        elif table.rounds == 0:
            self.error(table.players[0].line, "no-rounds", "no round cell found at the end of the player lines")

    def check_tags(self) -> None:
        table = self.table
        seen: Counter[str] = Counter()
        for tag in table.tags:
            seen[tag.name] += 1
            if tag.name not in KNOWN_TAGS:
                hint = (" (OpenGotha 3.45.0x writes TA for the adjusted time; the EGD reads TM)"
                        if tag.name == "TA" else "")
                self.warning(tag.line, "tag-unknown", f"{tag.name}[] is not an EGD tag{hint}")
            elif tag.name != "CM" and seen[tag.name] == 2:
                self.warning(tag.line, "tag-repeated", f"{tag.name}[] appears more than once")
            if tag.trailing:
                self.warning(tag.line, "tag-stray-text", f"text {tag.trailing!r} follows {tag.name}[…]")
            if tag.name == "PC" and (message := place_without_country(tag.value)):
                self.warning(tag.line, "pc-country-missing", message)
                continue
            message = _tag_value_problem(tag.name, tag.value)
            if message:
                self.error(tag.line, "tag-value", message)
        for name in EXPECTED_TAGS:
            if name not in seen:
                self.warning(None, "tag-missing",
                             f"no {name}[] tag ({_TAG_MEANING[name]}); the EGD upload form will ask")
        cl, tm = table.tag("CL"), table.tag("TM")
        if cl and tm and cl.value in CLASS_MIN_ADJUSTED_MINUTES and is_ascii_number(tm.value):
            need = CLASS_MIN_ADJUSTED_MINUTES[cl.value]
            if int(tm.value) < need:
                self.warning(tm.line, "class-time",
                             f"class {cl.value} needs an adjusted time of at least {need} minutes, TM is {tm.value}")

    # ------------------------------------------------------------------ lines

    def check_places(self) -> None:
        for player in self.table.players:
            if player.place is None:
                self.error(player.line, "place-blank",
                           f"row {player.row} has no place (a tie left blank); places must be 1…N, one per line")
            elif player.place != player.row:
                self.error(player.line, "place-sequence",
                           f"place {player.place} on row {player.row}: places must run 1, 2, 3… with no tie or jump")

    def check_player_fields(self) -> None:
        pins: dict[str, int] = {}
        names: dict[tuple[str, str], int] = {}
        for p in self.table.players:
            self._check_name(p)
            self._check_rank(p)
            self._check_country_club(p)
            if p.pin is not None:
                if not re.fullmatch(r"\d{8}", p.pin):
                    self.error(p.line, "pin", f"EGD PIN {'|' + p.pin!r} is not '|' followed by 8 digits")
                elif p.pin in pins:
                    self.error(p.line, "pin-duplicate", f"EGD PIN {p.pin} is already on line {pins[p.pin]}")
                else:
                    pins[p.pin] = p.line
            key = (" ".join(p.name_tokens).casefold(), p.rank_text.casefold())
            if key in names and "?" not in key[0]:
                self.warning(p.line, "duplicate-player", f"{p.name} {p.rank_text} is already on line {names[key]}")
            names.setdefault(key, p.line)

    def _check_name(self, p: PlayerLine) -> None:
        if len(p.name_tokens) != 2:
            what = "one name token" if len(p.name_tokens) == 1 else f"{len(p.name_tokens)} name tokens"
            self.warning(p.line, "name-tokens",
                         f"{what} ({p.name!r}): write surname and first name as two tokens, spaces as '_'")
        if "?" in p.name:
            self.warning(p.line, "name-lost-characters",
                         f"name {p.name!r} contains '?': characters were probably lost in encoding")

    def _check_rank(self, p: PlayerLine) -> None:
        match = RANK_RE.match(p.rank_text)
        if match is None:
            self.warning(p.line, "rank-no-suffix", f"rank {p.rank_text!r} has no k or d; the EGD reads it as kyu")
            text = p.rank_text + "k"
        else:
            text = p.rank_text
        try:
            Rank.parse(text)
        except RankError:
            self.error(p.line, "rank", f"rank {p.rank_text!r} is not 30k…1k, 1d…9d or 1p…9p")

    def _check_country_club(self, p: PlayerLine) -> None:
        if "country" in p.missing:
            self.error(p.line, "country-missing", "the line has no country token: its columns are shifted")
        elif p.country is not None:
            if p.country.upper() == UNKNOWN_COUNTRY:
                self.warning(p.line, "country-unknown", f"country {p.country!r} is the unknown-country placeholder")
            elif not re.fullmatch(r"[A-Za-z]{2}", p.country) or not is_country_code(p.country):
                self.error(p.line, "country", f"country {p.country!r} is not a two-letter country code")
        if "club" in p.missing:
            following = f" (the next column {p.columns[0]!r} would be read as the club)" if p.columns else ""
            self.error(p.line, "club-missing", f"the line has no club token{following}")
        elif p.club is not None and len(p.club) > 4:
            self.error(p.line, "club-length", f"club {p.club!r} is longer than 4 characters")
        if "columns" in p.missing:
            self.warning(p.line, "columns", "the line has fewer columns than the others")
        elif p.extra_tokens:
            self.warning(p.line, "columns",
                         f"the line has {p.extra_tokens} more column(s) than the others before its round cells "
                         f"(a club or country containing a space?)")
        shaped = [c for c in p.columns if CELL_RE.match(c)]
        if shaped:
            self.warning(p.line, "tiebreak-cell-shaped",
                         f"tie-break value(s) {' '.join(shaped)} look like round cells; a reader counting from "
                         f"the left would take them for games")

    # ------------------------------------------------------------------ cells

    def check_cells(self) -> int:
        table = self.table
        short_cells: list[int] = []
        for p in table.players:
            if p.short:
                self.error(p.line, "rounds-count",
                           f"the line has {len(p.cells)} round cells where the table has {table.rounds}")
            for round_, cell in enumerate(p.cells, start=1):
                self._check_cell(p, round_, cell, short_cells)
        if short_cells:
            ha = table.tag("HA")
            if ha is None or ha.value.strip() != "h9":
                how = "no HA[] tag: the EGD assumes full handicap" if ha is None else f"HA[{ha.value}]"
                self.warning(short_cells[0], "short-cells",
                             f"{len(short_cells)} game cells give no colour or handicap (e.g. '12+'); with {how}, "
                             f"the EGD computes handicaps from the rank difference; write '/w0' or HA[h9]")
        empty = [r for r in range(1, table.rounds + 1)
                 if not any(len(p.cells) >= r and not p.cells[r - 1].is_free for p in table.players)]
        if empty and table.players:
            self.warning(None, "empty-round", f"round(s) {_ranges(empty)} have no game (rounds not played "
                                              f"should not be listed)")
        return self._check_pairs()

    def _check_cell(self, p: PlayerLine, round_: int, cell: Cell, short_cells: list[int]) -> None:
        where = f"round {round_}: {cell.text!r}"
        if cell.forfeit:
            self.warning(p.line, "forfeit-marked",
                         f"{where} is marked '!' (result by default): the EGD must not rate it, but only the "
                         f"organiser's word stops it; write a free round instead")
        if cell.result == "?":
            self.error(p.line, "result-unknown", f"{where} has result '?', which the EGD does not define")
        if cell.is_free:
            if cell.text.replace("!", "") != f"0{cell.result}":
                self.warning(p.line, "free-cell-extra", f"{where}: a free round is written 0+, 0- or 0=")
            return
        if cell.colour == "?":
            self.error(p.line, "colour-unknown", f"{where} has colour '?', which the EGD does not define")
        elif cell.colour is None:
            if cell.handicap is not None or cell.slash:
                self.error(p.line, "cell-syntax", f"{where} has a handicap or '/' but no colour w or b")
            else:
                short_cells.append(p.line)
        elif not cell.slash and not cell.forfeit:
            self.error(p.line, "cell-syntax", f"{where} lacks the '/' before the colour")
        if cell.handicap is not None and cell.handicap > 9:
            self.error(p.line, "handicap-range", f"{where}: the EGD rates games of 0 to 9 handicap stones")

    def _check_pairs(self) -> int:
        table = self.table
        index = table.opponent_index()
        games = 0
        for p in table.players:
            if p.short:
                continue
            for round_, cell in enumerate(p.cells, start=1):
                if cell.is_free:
                    continue
                where = f"round {round_}: {cell.text!r}"
                q = index.get(cell.opponent)
                if q is None:
                    self.error(p.line, "opponent-range", f"{where} names opponent {cell.opponent}, who is not in "
                                                         f"the table")
                    continue
                if q is p:
                    self.error(p.line, "opponent-self", f"{where} names the player himself")
                    continue
                if q.short:
                    continue
                other = q.cells[round_ - 1]
                if other.is_free or index.get(other.opponent) is not p:
                    self.error(p.line, "pair-missing",
                               f"{where} names {q.name} (line {q.line}), whose round-{round_} cell {other.text!r} "
                               f"does not name this player")
                    continue
                if q.row < p.row:
                    continue  # each mutual pair is checked once, on the first line
                games += 1
                self._check_pair(p, q, round_, cell, other)
        return games

    def _check_pair(self, p: PlayerLine, q: PlayerLine, round_: int, mine: Cell, theirs: Cell) -> None:
        where = f"round {round_}: {mine.text!r} and {theirs.text!r} on line {q.line}"
        results = mine.result + theirs.result
        if results == "++":
            self.error(p.line, "pair-result", f"{where}: both players win (a both-win result cannot be rated)")
        elif results == "--":
            self.error(p.line, "pair-result", f"{where}: both players lose (a both-lose result cannot be rated)")
        elif results not in ("+-", "-+", "==", "??"):
            self.error(p.line, "pair-result", f"{where}: the results do not match")
        if "?" not in (mine.colour, theirs.colour) and (mine.colour, theirs.colour) not in (
            ("w", "b"), ("b", "w"), (None, None)
        ):
            self.error(p.line, "pair-colour", f"{where}: the colours are not opposite")
        if (mine.handicap or 0) != (theirs.handicap or 0):
            self.error(p.line, "pair-handicap", f"{where}: the handicaps differ")
        if mine.forfeit != theirs.forfeit:
            self.warning(p.line, "pair-forfeit", f"{where}: only one half is marked '!' (by default)")


_TAG_MEANING: Final = {
    "CL": "tournament class", "EV": "event name", "PC": "country and city", "DT": "dates",
    "HA": "handicap reduction; h9 = no handicap", "KM": "komi", "TM": "adjusted time in minutes",
}


def place_country_city(value: str) -> tuple[str, str] | None:
    """The (country, city) of a ``PC`` value: ``TR,Istanbul``; OpenGotha's ``,city`` with a
    country inside the city text (``,TR, Istanbul`` or ``,Istanbul, TR``) is recognised too.
    ``None`` when there is no comma; the country is ``""`` when none is found.

    >>> place_country_city("TR,Istanbul"), place_country_city(",TR, Istanbul"), place_country_city(",Paris")
    (('TR', 'Istanbul'), ('TR', 'Istanbul'), ('', 'Paris'))
    """
    country, comma, city = value.strip().partition(",")
    if not comma:
        return None
    country, city = country.strip(), city.strip()
    if not country:
        match = re.fullmatch(r"([A-Za-z]{2})\s*,\s*(.+)", city) or re.fullmatch(r"(.+?)\s*,\s*([A-Za-z]{2})", city)
        if match:
            first, second = match.groups()
            code, rest = (first, second) if len(first) == 2 and is_country_code(first) else (second, first)
            if is_country_code(code):
                return code.upper(), rest.strip()
    return country, city


def place_without_country(value: str) -> str:
    """The warning for a ``PC[,city]`` tag (a city, no country anywhere): OpenGotha has written
    PC this way in every EGD export since 2015, and the EGD accepts such tables and asks for
    the country at upload; ``""`` for any other value."""
    parts = place_country_city(value)
    if parts is None or parts[0] or not parts[1]:
        return ""
    return f"PC[{value}] gives no country; the EGD upload form will ask for it"


def _tag_value_problem(name: str, value: str) -> str:
    """A sentence when a known tag's value breaks its syntax, else ``""``."""
    v = value.strip()
    if name == "TC" and not re.fullmatch(r"[WEGT]\d{6}[A-Z]", v):
        return f"TC[{value}] is not an EGD tournament code such as T160130A"
    if name == "CL" and v not in ("A", "B", "C", "D"):
        extra = " (X: the time settings meet no EGF class)" if v == "X" else ""
        return f"CL[{value}] is not a class A, B, C or D{extra}"
    if name == "EV" and not v:
        return "EV[] is empty: give the event name"
    if name == "PC":
        parts = place_country_city(v)
        if parts is None or not parts[0] or not parts[1]:
            return f"PC[{value}] is not '<country>,<city>'"
        if not is_country_code(parts[0]):
            return f"PC[{value}]: {parts[0]!r} is not a two-letter country code"
    if name == "DT":
        return _dates_problem(value)
    if name == "HA" and not re.fullmatch(r"h[0-9]", v):
        return f"HA[{value}] is not h0…h9"
    if name == "KM" and not re.fullmatch(r"-?\d+(\.\d+)?", v):
        return f"KM[{value}] is not a komi such as 6.5 or 7.5"
    if name == "TM" and not re.fullmatch(r"\d+", v):
        return f"TM[{value}] is not a number of minutes"
    return ""


def _dates_problem(value: str) -> str:
    parts = [p.strip() for p in value.split(",")]
    if len(parts) not in (1, 2) or not all(_DATE_RE.match(p) for p in parts):
        return f"DT[{value}] is not 'yyyy-mm-dd,yyyy-mm-dd'"
    try:
        days = [date.fromisoformat(p) for p in parts]
    except ValueError:
        return f"DT[{value}] holds an impossible date"
    if len(days) == 2 and days[1] < days[0]:
        return f"DT[{value}]: the last day is before the first"
    return ""


def _ranges(rounds: list[int]) -> str:
    """``[1, 2, 3, 5]`` → ``"1–3, 5"``."""
    parts: list[str] = []
    start = prev = rounds[0]
    for r in [*rounds[1:], None]:
        if r is not None and r == prev + 1:
            prev = r
            continue
        parts.append(str(start) if start == prev else f"{start}–{prev}")
        if r is not None:
            start = prev = r
    return ", ".join(parts)


def validate_table(table: EgdTable) -> ValidationResult:
    """Check a tokenised table against every rule of the format (see the module docstring)."""
    checker = _Checker(table)
    checker.check_structure()
    checker.check_tags()
    checker.check_places()
    checker.check_player_fields()
    games = checker.check_cells()
    problems = sorted(checker.problems, key=lambda p: (p.line or 0, p.severity != "error"))
    return ValidationResult(
        source=table.source, encoding=table.encoding, generator=table.generator, players=len(table.players),
        rounds=table.rounds, games=games, problems=problems,
    )
