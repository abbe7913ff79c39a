"""Ledger state → the AGA rating report (docs/formats/aga.md).

The report the AGA's ratings coordinator takes (usgo.org, "Qualifications for rated games";
OpenGotha's ``generateAGAResultsFile`` writes the same sections)::

    TOURNEY <name>, <location>, <first day>
    \\tstart=YYYY-MM-DD
    \\tfinish=YYYY-MM-DD
    \\trules=AGA
    PLAYERS
    <AGA ID>\\t<Surname>, <First name>\\t<rank>
    GAMES <round>
    <white ID>\\t<black ID>\\t<W|B>\\t<handicap>\\t<komi>
    END

Rules: the players are every player with a rated game, by AGA ID (``ids["aga_id"]``, digits);
a player without one gets a temporary ID counting down from 99999, as OpenGotha does, which
the report lists — the AGA asks for a real one. Only **played games with a winner** are
rated: an unknown result, a jigo, both win, both lose and a forfeit are left out, each
reported. Handicap and komi as the AGA counts them: an even game has the tournament's komi
truncated to whole points (7.5 → 7), a one-stone game is written handicap 0 with komi 0, a
game of 2 stones or more has komi 0. Text is UTF-8 (the AGA's rating system reads it).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

from goledger.errors import CommandRejected
from goledger.formats.report import InterchangeReport
from goledger.ledger.values import Rank, RankError, Result
from goledger.outputs import shown

if TYPE_CHECKING:
    from goledger.replay.fold.state import GameState, PlayerState, TournamentState

__all__ = ["TEMPORARY_TOP", "aga_komi", "write_aga"]

TEMPORARY_TOP = 99999
"""Temporary AGA IDs count down from here (OpenGotha's rule)."""


def aga_komi(handicap: int, komi: str) -> tuple[int, int]:
    """The handicap and komi as the AGA report writes them.

    >>> aga_komi(0, "7.5"), aga_komi(1, "0.5"), aga_komi(3, "0.5"), aga_komi(0, "6.5")
    ((0, 7), (0, 0), (3, 0), (0, 6))
    """
    if handicap == 1:
        return 0, 0
    if handicap >= 2:
        return handicap, 0
    try:
        return 0, int(Decimal(komi))
    except InvalidOperation:
        return 0, 7


def write_aga(state: TournamentState, rules: str = "AGA", source: str = "") -> tuple[bytes, InterchangeReport]:
    """The AGA report of ``state`` and its export report; ``CommandRejected`` when no game
    can be rated or ``rules`` is not one word of letters."""
    settings = state.settings
    if settings is None:
        raise CommandRejected("the ledger has no tournament yet")
    if not rules.isascii() or not rules.replace("-", "").isalpha() or len(rules) > 20:
        raise CommandRejected(f"rules {rules!r} are not a name such as AGA, Japanese or Ing")
    report = InterchangeReport(format="aga", source=source, direction="export", dialect=f"rules {rules}")
    games = [g for g in sorted(state.all_games(), key=lambda g: (g.round, g.table)) if _rated(g, state, report)]
    if not games:
        raise CommandRejected("nothing to export: no game has a winner the AGA can rate")
    ids = _ids(state, {pid for g in games for pid in (g.white, g.black)}, report)
    begin, end = settings.begin_date, settings.end_date or settings.begin_date
    title = ", ".join(part for part in (settings.name, settings.location, begin) if part)
    lines = [f"TOURNEY {_text(title)}"]
    if begin:
        lines += [f"\tstart={begin}", f"\tfinish={end}"]
    else:
        report.warning("header", "the tournament has no dates: no start= and finish= (the AGA asks for them)")
    lines += [f"\trules={rules}", "PLAYERS"]
    for pid in sorted(ids, key=lambda p: (ids[p], p)):
        p = state.players[pid]
        lines.append(f"{ids[pid]}\t{_text(p.surname)}, {_text(p.first_name)}\t{_rank(p, report)}")
        report.count_recorded("players")
    for round_ in sorted({g.round for g in games}):
        lines.append(f"GAMES {round_}")
        for g in (g for g in games if g.round == round_):
            handicap, komi = aga_komi(g.handicap, settings.komi)
            winner = "W" if g.result is Result.WHITE else "B"
            lines.append(f"{ids[g.white]}\t{ids[g.black]}\t{winner}\t{handicap}\t{komi}")
            report.count_recorded("games")
    lines.append("END")
    return ("\n".join(lines) + "\n").encode("utf-8"), report


def _rated(game: GameState, state: TournamentState, report: InterchangeReport) -> bool:
    report.count_read("games")
    if game.result in (Result.WHITE, Result.BLACK) and not game.by_default:
        return True
    white, black = state.players[game.white], state.players[game.black]
    what = "by default" if game.by_default else f"result {game.result.value}"
    report.info("not-written", f"round {game.round}, table {game.table} ({_name(white)} vs {_name(black)}): {what}, "
                               "not a game the AGA rates", f"round {game.round}")
    return False


def _ids(state: TournamentState, players: set[str], report: InterchangeReport) -> dict[str, int]:
    ids: dict[str, int] = {}
    holders: dict[int, str] = {}
    for pid in sorted(players):
        report.count_read("players")
        p = state.players[pid]
        text = p.ids.get("aga_id", "").strip()
        if text.isascii() and text.isdigit() and 0 < len(text) <= 6 and int(text) < TEMPORARY_TOP:
            if int(text) in holders:
                report.error("aga-id", f"{_name(p)} and {_name(state.players[holders[int(text)]])} share AGA ID "
                                       f"{text}: correct one with update-player", pid)
                continue
            holders[int(text)] = pid
            ids[pid] = int(text)
        elif text:
            report.warning("aga-id", f"{_name(p)}'s AGA ID {text!r} is not a number: a temporary ID is written", pid)
    temporary = TEMPORARY_TOP
    for pid in sorted(players):
        if pid in ids:
            continue
        while temporary in holders:
            temporary -= 1
        holders[temporary] = pid
        ids[pid] = temporary
        report.warning("aga-id", f"{_name(state.players[pid])} has no AGA ID: written with the temporary ID "
                                 f"{temporary}; the AGA asks for the member's ID", pid)
    return ids


def _rank(p: PlayerState, report: InterchangeReport) -> str:
    try:
        return str(Rank.parse(p.rank))
    except RankError:
        report.error("rank", f"{_name(p)} has no valid rank ({p.rank!r})", p.id)
        return p.rank


def _text(text: str) -> str:
    """One line of text: no TAB, no line break, no control character."""
    return " ".join(shown(text).replace("\t", " ").split())


def _name(p: PlayerState) -> str:
    return f"{p.surname} {p.first_name} ({p.id})".replace("  ", " ")
