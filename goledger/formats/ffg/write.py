"""Ledger state → an FFG ``.tou`` results file (docs/formats/ffg-tou.md).

The rules :func:`write_tou` follows, and why:

* **Lines**: the players who have a game in rounds 1..R, in the order of the standings at R
  under the tournament's policy and criteria (``FilePlace`` for a ledger imported from a
  ``.tou``: its own places again). The place column is the line number, blank for a player
  equal on every criterion with the line above — OpenGotha's writing — so reading the file
  back gives the same places. Opponents are line numbers.
* **Fields**: ``Surname First`` with blanks inside each part written ``_``, in 25 columns
  (a longer name is cut, reported); the rank upper case (``3D``, ``10K``); the FFG licence
  (``ids["ffg_licence"]``, 7 characters, else blank, reported); the club in 4 characters
  (the EGD writer's :func:`~goledger.formats.egd.write.club_code`).
* **Cells**: ``opp`` + ``+``/``-``/``=`` + colour + handicap (``2+w0``); an unknown result
  ``?`` (as OpenGotha writes it); both win ``+``/``+``, both lose ``-``/``-``. **A forfeit is
  never written as a game** (the FFG would rate it; OpenGotha only drops its ``!``): each
  player gets the free-round cell worth what it gave him, reported. A round without a game
  is ``0+``, ``0=`` or ``0-`` by the points the policy gives it.
* **Header**: ``;name`` (short name, else name), ``;date`` (first day, dd/mm/yyyy),
  ``;vill``, ``;comm`` (name), ``;prog``, ``;size``, ``;time`` (basic minutes, ``+b`` with
  overtime), ``;ta`` (EGF adjusted minutes), ``;komi``; what the ledger does not know is
  taken from an imported file's header (``ffg.time``, ``ffg.ta``) or left out, reported.
* **Encoding**: ISO-8859-15, every character it cannot hold transliterated (reported).
"""

from __future__ import annotations

import re
from datetime import date
from typing import TYPE_CHECKING

from goledger import __version__
from goledger.errors import CommandRejected, FormatError
from goledger.formats.egd.write import club_code
from goledger.formats.exporting import report_players_paired_twice
from goledger.formats.ffg.syntax import CELL_WIDTH
from goledger.formats.report import InterchangeReport
from goledger.formats.transliterate import to_charset
from goledger.i18n.messages import say
from goledger.ledger.domains import text_problem
from goledger.ledger.values import Rank, RankError, Result
from goledger.outputs import shown
from goledger.rating.classes import adjusted_minutes
from goledger.replay.scoring.choices import main_score, resolve_policy
from goledger.replay.scoring.scoring import RoundEntry, ScoringContext
from goledger.replay.scoring.standings import standings

if TYPE_CHECKING:
    from goledger.replay.fold.state import GameState, PlayerState, TournamentState

__all__ = ["ENCODING", "NAME_WIDTH", "write_tou"]

ENCODING = "iso-8859-15"
NAME_WIDTH = 25


def write_tou(state: TournamentState, round: int | None = None,  # noqa: A002 - the CLI option is --round
              source: str = "") -> tuple[bytes, InterchangeReport]:
    """The ``.tou`` file of ``state`` after ``round`` (default: the last round with a game)
    and its export report; ``CommandRejected`` for a round outside the tournament or a
    tournament without a game."""
    settings = state.settings
    if settings is None:
        raise CommandRejected("the ledger has no tournament yet")
    last = state.last_round_with_games()
    if round is None:
        if not last:
            raise CommandRejected(say("nothing to export: no round of this tournament has a game"))
        round = last  # noqa: A001
    elif not 1 <= round <= state.rounds:
        raise CommandRejected(f"round {round} is outside 1..{state.rounds} of this tournament")
    report = InterchangeReport(format="ffg", source=source, direction="export", dialect=f"{ENCODING}, round {round}")
    report_players_paired_twice(state, report, "a .tou file")
    policy = resolve_policy(state, None)
    table = standings(state, round, policy)
    ctx = ScoringContext(state, round, policy)
    family = "mms" if main_score(state) == "MMS" else "nbw"
    rows = [r for r in table.rows if any(e.game is not None for e in ctx.entries[r.player_id][:round])]
    for r in table.rows:
        report.count_read("players")
        if r in rows:
            report.count_recorded("players")
        else:
            report.info("not-written", f"{_name(state.players[r.player_id])} has no game in rounds 1..{round}: not "
                                       "listed (as OpenGotha)", r.player_id)
    if not rows:
        raise CommandRejected(f"nothing to export: no player has a game in rounds 1..{round}")
    line_of = {r.player_id: n for n, r in enumerate(rows, start=1)}
    lines = _header(state, report)
    forfeits: set[tuple[int, int]] = set()
    previous = None
    for n, row in enumerate(rows, start=1):
        p = state.players[row.player_id]
        place = "" if previous is not None and previous.place == row.place else str(n)
        previous = row
        cells = "".join(_cell(ctx, p.id, e, line_of, family, report, forfeits).rjust(CELL_WIDTH)
                        for e in ctx.entries[p.id][:round])
        lines.append(f"{place:>4} {_name_field(p, report)}{_rank(p, report):>3} {_licence(p, report):>7} "
                     f"{_fit(club_code(p.club), report, 'club'):>4}{cells}")
    for game in state.all_games():
        if game.round <= round:
            report.count_read("games")
            if not game.by_default:
                report.count_recorded("games")
    return ("\n".join(lines) + "\n").encode(ENCODING), report


def _header(state: TournamentState, report: InterchangeReport) -> list[str]:
    s = state.settings
    assert s is not None
    fields: list[tuple[str, str]] = [("name", s.short_name or s.name)]
    if s.begin_date:
        try:
            fields.append(("date", date.fromisoformat(s.begin_date).strftime("%d/%m/%Y")))
        except ValueError:
            report.warning("header", f"the first day {s.begin_date!r} is not yyyy-mm-dd: no ;date= line")
    else:
        report.warning("header", "the tournament has no dates: no ;date= line (the FFG asks for it)")
    fields += [("vill", s.location), ("comm", s.name), ("prog", f"goledger {__version__}"),
               ("size", str(s.board_size))]
    if s.time is not None:
        overtime = s.time.system != "sudden-death"
        fields += [("time", f"{s.time.basic_minutes}{'+b' if overtime else ''}"),
                   ("ta", str(adjusted_minutes(s.time)))]
    elif "ffg.time" in s.extras:
        fields.append(("time", s.extras["ffg.time"]))
        if "ffg.ta" in s.extras:
            fields.append(("ta", s.extras["ffg.ta"]))
        report.info("header", "time and adjusted time kept from the imported .tou file")
    else:
        report.warning("header", "the tournament has no time settings: no ;time= and ;ta= lines")
    fields.append(("komi", s.komi))
    lines = [f";{key}={_fit(' '.join(shown(value).split()), report, key)}" for key, value in fields]
    lines += [f"; Generated by goledger {__version__}", ";Num Nom Prenom               Niv Licence Club"]
    return lines


def _fit(text: str, report: InterchangeReport, what: str, where: str = "") -> str:
    fitted = to_charset(text, ENCODING)
    if fitted != text:
        report.info("transliterated", f"{what} {text!r} written as {fitted!r}", where)
    return fitted


def _name_field(p: PlayerState, report: InterchangeReport) -> str:
    for part, what in ((p.surname, "surname"), (p.first_name, "first name")):
        problem = text_problem(part, f"{p.id}'s {what}")
        if problem:
            raise FormatError(f"{problem}: a .tou file cannot hold it; correct it with update-player first")
    surname = re.sub(r"\s+", "_", p.surname.strip()) or "-"
    first = re.sub(r"\s+", "_", p.first_name.strip())
    name = _fit(f"{surname} {first}".strip(), report, "name", p.id)
    if len(name) > NAME_WIDTH:
        report.warning("name", f"{name!r} is longer than the {NAME_WIDTH} columns of the format: cut to "
                               f"{name[:NAME_WIDTH]!r}", p.id)
        name = name[:NAME_WIDTH]
    return name.ljust(NAME_WIDTH)


def _rank(p: PlayerState, report: InterchangeReport) -> str:
    try:
        return str(Rank.parse(p.rank)).upper()
    except RankError:
        report.error("rank", f"{_name(p)} has no valid rank ({p.rank!r})", p.id)
        return "30K"


def _licence(p: PlayerState, report: InterchangeReport) -> str:
    licence = p.ids.get("ffg_licence", "").strip()
    if re.fullmatch(r"[0-9A-Za-z]{7}", licence):
        return licence
    if licence:
        report.warning("licence", f"{_name(p)}'s FFG licence {licence!r} is not 7 letters or digits: not written",
                       p.id)
    else:
        report.info("licence", f"{_name(p)} has no FFG licence (ids.ffg_licence): the column is blank", p.id)
    return ""


def _cell(ctx: ScoringContext, pid: str, entry: RoundEntry, line_of: dict[str, int], family: str,
          report: InterchangeReport, forfeits: set[tuple[int, int]]) -> str:
    game = entry.game
    if game is None:
        return _free(ctx.unpaired_points2(pid, entry, family))
    points = game.points2(pid)
    if game.by_default:
        if (game.round, game.table) not in forfeits:
            forfeits.add((game.round, game.table))
            _report_forfeit(ctx, game, report)
        return _free(points)
    white = game.white == pid
    sign = "?" if game.result is Result.UNKNOWN else "+" if points == 2 else "=" if points == 1 else "-"
    return f"{line_of[game.opponent(pid)]}{sign}{'w' if white else 'b'}{game.handicap}"


def _report_forfeit(ctx: ScoringContext, game: GameState, report: InterchangeReport) -> None:
    players = ctx.state.players
    w, b = game.result.points2()
    report.warning("forfeit", f"round {game.round}, {_name(players[game.white])} (white) vs "
                              f"{_name(players[game.black])}: {game.result.value} by default; written as free "
                              f"rounds {_free(w).strip()} and {_free(b).strip()}, not as a game the FFG would rate")


def _free(points2: int) -> str:
    """A free-round cell, padded as OpenGotha pads it (``   0=   `` in its 8 columns)."""
    return ("0+" if points2 >= 2 else "0=" if points2 == 1 else "0-").ljust(5)


def _name(p: PlayerState) -> str:
    return f"{p.surname} {p.first_name} ({p.id})".replace("  ", " ")
