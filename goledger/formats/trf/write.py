"""Writing a ledger as a FIDE Tournament Report File (spec ``formats/trf.md`` §10).

* Tournament records ``012`` … ``132``, ``XXR`` and ``142``; ``XXS`` when the point system
  is not the standard one; ``212`` from the placement criteria when they all have FIDE names;
  records an import kept (``trf.<code>`` extras) are written back.
* One ``001`` line per registered player in pairing-number order, exact columns, points from
  the policy's point system, rank from the standings.
* One block per round up to the last paired round: games with the opponent's pairing number,
  colour and ``1 = 0`` (``W D L`` for games an import marked unrated), forfeits ``+``/``-``,
  ``U`` for the pairing bye, ``F``/``H``/``Z`` for absences worth 1 / ½ / 0, ``Z`` for every
  round after a withdrawal and for unpaired rounds; ``?`` for a game without result.
* Announced absences after the last paired round go to ``240`` records.
* What a TRF cannot hold (Go ranks, handicaps, komi, McMahon settings, by-default jigo, EGD
  ratings, both-win/both-lose games) is listed in the export report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goledger.errors import FormatError
from goledger.formats.carried import carried_lines
from goledger.formats.exporting import report_players_paired_twice
from goledger.formats.report import InterchangeReport
from goledger.ledger.domains import text_problem
from goledger.replay.scoring.criteria.names import trf_code
from goledger.replay.scoring.fide_unplayed import FideData, FideRound, Kind
from goledger.replay.scoring.scoring import ScoringContext

if TYPE_CHECKING:
    from collections.abc import Sequence

    from goledger.replay.fold.state import PlayerState, TournamentState
    from goledger.replay.scoring.policies import Policy

__all__ = ["player_line", "write_trf"]

_HEADER_ORDER = ("012", "022", "032", "042", "052", "062", "072", "092", "102", "112", "122", "132")


def _points_text(value2: int) -> str:
    whole, half = divmod(value2, 2)
    return f"{whole}.{5 if half else 0}"


def player_line(number: int, sex: str, title: str, name: str, rating: str, federation: str, fide_id: str, birth: str,
                points: str, rank: str, blocks: Sequence[tuple[int, str, str]]) -> str:
    """A ``001`` line with TRF's exact columns (§3); ``blocks`` are (opponent, colour, result).

    >>> player_line(1, "w", "FM", "Adams, Anna", "2310", "ENG", "412345", "1990/04/12", "2.5", "1",
    ...             [(4, "w", "1"), (0, "-", "U")])[80:]
    ' 2.5    1  0004 w 1  0000 - U'
    """
    head = (f"001 {number:>4} {sex[:1]:1}{title[:3]:>3} {name[:33]:<33} {rating[:4]:>4} {federation[:3]:<3} "
            f"{fide_id[:11]:>11} {birth[:10]:<10} {points:>4} {rank:>4}")
    return head + "".join(f"  {opp:04d} {colour} {result}" for opp, colour, result in blocks)


def _result_code(fr: FideRound, unrated: bool, report: InterchangeReport, who: str) -> str:
    kind = fr.kind
    if kind is Kind.PENDING:
        report.warning("lossy", f"{who}: round {fr.round} has no result yet; written as '?'")
        return "?"
    if kind is Kind.FORFEIT_WIN:
        return "+"
    if kind is Kind.FORFEIT_LOSS:
        return "-"
    if kind is Kind.FORFEIT_DRAW:
        report.warning("lossy", f"{who}: the by-default jigo of round {fr.round} has no TRF code; written as '='")
        return "D" if unrated else "="
    codes = {"win": ("1", "W"), "draw": ("=", "D"), "loss": ("0", "L")}[fr.outcome]
    return codes[1] if unrated else codes[0]


def _unplayed_code(fr: FideRound) -> str:
    return {Kind.PAB: "U", Kind.FULL_BYE: "F", Kind.HALF_BYE: "H"}.get(fr.kind, "Z")


def write_trf(
    state: TournamentState,
    policy: str | Policy | None = None,
    lossless: bool = False,
    crlf: bool = False,
    write_ratings: bool = False,
    source: str = "",
) -> tuple[bytes, InterchangeReport]:
    """The TRF text of ``state`` (UTF-8, no BOM) and the export report.

    ``policy`` (default: the tournament's) gives the points and ranks; ``lossless`` writes
    back the records an import could not map; ``write_ratings`` writes ratings that are not
    FIDE ratings (EGD GoR…) in the rating column.
    """
    # the standings and FIDE's rules load late: the write path alone needs them
    from goledger.replay.scoring.fide_unplayed import fide_data
    from goledger.replay.scoring.standings import rank_players, resolve_criteria, resolve_policy

    assert state.settings is not None
    settings = state.settings
    report = InterchangeReport(format="trf", source=source, direction="export")
    report_players_paired_twice(state, report, "a TRF")
    pol = resolve_policy(state, policy)
    last = state.last_round_with_games()
    ctx = ScoringContext(state, last, pol)
    data: FideData = fide_data(ctx)
    table = rank_players(ctx, resolve_criteria(state, pol, None))
    place = {row.player_id: row.place for row in table.rows}
    extras = settings.extras

    numbers = _pairing_numbers(state, report)
    by_id = {pid: n for n, pid in numbers.items()}
    players = [state.players[numbers[n]] for n in sorted(numbers)]

    lines = _header_lines(state, players, pol, report, write_ratings)
    player_lines, non_fide, non_ascii = _player_lines(players, data, by_id, place, report, write_ratings, extras)
    lines.extend(_carried(state, players, report))
    lines.extend(player_lines)
    lines.extend(_lines_240(state, data, by_id, last))
    if lossless:
        for key in ("trf.unmapped", "trf.comments"):
            if extras.get(key):
                lines.extend(extras[key].split("\n"))
    elif extras.get("trf.unmapped"):
        report.info("lossy", "records the import could not map were not written (use --lossless to write them back)")
    _go_report(state, non_fide, non_ascii, report)
    eol = "\r\n" if crlf else "\n"
    return (eol.join(lines) + eol).encode("utf-8"), report


def _carried(state: TournamentState, players: Sequence[PlayerState], report: InterchangeReport) -> list[str]:
    """The Go ranks (in pairing-number order) and the rules behind the places as TRF-2026
    comment lines (``### goledger …``, :mod:`goledger.formats.carried`): a TRF has no rank
    column and no McMahon rules, so reading it back would rebuild other standings (issue 40)."""

    assert state.settings is not None
    settings = state.settings
    ranks = [p.rank for p in players]
    lines = carried_lines(settings, ranks=None if all(r == "30k" for r in ranks) else ranks, state=state,
                          order=[p.id for p in players], stones=True,
                          corrections=True)
    report.info("carried", "the rules behind the places (and the Go ranks) written in '### goledger' comment lines, "
                "which other programs skip and goledger reads back")
    return [f"### {line}" for line in lines]


def _header_lines(state: TournamentState, players: Sequence[PlayerState], pol: Policy, report: InterchangeReport,
                  write_ratings: bool) -> list[str]:
    """The tournament records (§2): ``012`` … ``132`` in TRF's order, ``XXR``, ``142``, ``XXS`` for a
    point system that is not the standard one, ``212`` when every placement criterion has a FIDE name,
    then the records an import kept."""
    from goledger.replay.scoring.fide_unplayed import PointSystem

    settings = state.settings
    assert settings is not None
    extras = settings.extras
    lines: list[str] = []
    header: dict[str, list[str]] = {}
    header["012"] = [f"012 {settings.name}"]
    if settings.location:
        header["022"] = [f"022 {settings.location}"]
    for code, value in (("042", settings.begin_date), ("052", settings.end_date)):
        if value:
            header[code] = [f"{code} {value.replace('-', '/')}"]
        elif f"trf.{code}" in extras:
            header[code] = [extras[f"trf.{code}"]]
    header["062"] = [f"062 {len(players)}"]
    fide_rated = [p for p in players if p.rating and (write_ratings or p.rating_origin == "FIDE")]
    header["072"] = [f"072 {len(fide_rated)}"]
    if "trf.092" not in extras:
        kind = "Round Robin" if settings.system == "round-robin" else "Swiss-System"
        header["092"] = [f"092 Individual: {kind}"]
    if settings.director:
        header["102"] = [f"102 {settings.director}"]
    for key, text in extras.items():
        code = key.removeprefix("trf.")
        if len(code) == 3 and (code.isdigit() or code.startswith("XX")) and code not in ("042", "052"):
            header.setdefault(code, []).extend(text.split("\n"))
    for code in _HEADER_ORDER:
        lines.extend(header.pop(code, []))
    lines.append(f"XXR {settings.rounds}")
    lines.append(f"142 {settings.rounds}")
    points = PointSystem.parse(pol.point_system)
    if not points.is_standard:
        lines.append(f"XXS {points.to_text()}")
    codes = [trf_code(name) for name in settings.criteria]
    if settings.criteria and all(codes):
        header.pop("212", None)
        lines.append("212 " + ",".join(code for code in codes if code))
    elif "212" not in header and settings.criteria:
        report.info("lossy", f"placement criteria {', '.join(settings.criteria)} are not all FIDE tie-breaks; no 212 "
                    "record written")
    for code in sorted(header):
        lines.extend(header[code])

    return lines


def _player_lines(players: Sequence[PlayerState], data: FideData, by_id: dict[str, int], place: dict[str, int],
                  report: InterchangeReport, write_ratings: bool, extras: dict[str, str]) -> tuple[list[str], int, int]:
    """One ``001`` line per player (§3), with how many carry a rating that is not FIDE's and how many a
    name that is not ASCII."""
    lines: list[str] = []
    unrated = set(extras.get("trf.unrated", "").split())
    non_fide = 0
    non_ascii = 0
    for player in players:
        pid = player.id
        who = f"{pid} {player.full_name}"
        blocks: list[tuple[int, str, str]] = []
        for fr in data.rounds[pid]:
            if fr.kind.has_opponent and fr.opponent is not None:
                colour = "-" if fr.white is None else ("w" if fr.white else "b")
                is_unrated = f"{fr.round}.{fr.table}" in unrated
                blocks.append((by_id[fr.opponent], colour, _result_code(fr, is_unrated, report, who)))
            else:
                blocks.append((0, "-", _unplayed_code(fr)))
        rating = ""
        if player.rating:
            if write_ratings or player.rating_origin == "FIDE":
                rating = str(player.rating)
            else:
                non_fide += 1
        name = f"{player.surname}, {player.first_name}" if player.first_name else player.surname
        problem = text_problem(name, f"{pid}'s name")
        if problem:  # a fixed-width line cannot carry a control or invisible character
            raise FormatError(f"{problem}: a TRF file cannot hold it; correct it with update-player first")
        if len(name) > 33:
            report.warning("lossy", f"{who}: name longer than 33 characters, truncated")
        if not name.isascii():
            non_ascii += 1
        x = player.extras
        lines.append(player_line(
            by_id[pid], x.get("trf.sex", ""), x.get("trf.title", ""), name, rating, x.get("trf.federation", ""),
            player.ids.get("fide_id", ""), x.get("trf.birth", ""), _points_text(data.score2[pid]),
            str(place.get(pid, "")), blocks,
        ))
        report.count_read("players")
        report.count_recorded("players")
    return lines, non_fide, non_ascii


MAX_PLAYERS = 9999
"""Pairing numbers have four columns in a TRF player line."""


def _pairing_numbers(state: TournamentState, report: InterchangeReport) -> dict[int, str]:
    """Pairing number → player id: the ledger's start numbers when they are unique, else the
    registration order (reported)."""
    if len(state.players) > MAX_PLAYERS:
        raise FormatError(f"a TRF file holds at most {MAX_PLAYERS:,} players (four-digit pairing numbers); this "
                          f"tournament has {len(state.players):,}")
    given = [(p.start_number, p.id) for p in state.players.values()]
    numbers = [n for n, _ in given if n]
    if len(numbers) == len(given) and len(set(numbers)) == len(numbers) and max(numbers, default=0) <= MAX_PLAYERS:
        return {n: pid for n, pid in given if n}
    report.warning("normalised", "start numbers are missing or repeated; players are numbered 1… in registration "
                   "order")
    ordered = sorted(state.players.values(), key=lambda p: p.registered_seq)
    return {i: p.id for i, p in enumerate(ordered, start=1)}


def _lines_240(state: TournamentState, data: FideData, by_id: dict[str, int], last: int) -> list[str]:
    """Announced absences in rounds after the last paired one (TRF-2026 ``240``)."""
    groups: dict[tuple[str, int], list[int]] = {}
    for pid, player in state.players.items():
        if player.withdrawn_from is not None and player.withdrawn_from <= last + 1:
            continue
        for round_, points2 in sorted(player.absences.items()):
            if round_ <= last or points2 is None:
                continue
            kind = {2: "F", 1: "H"}.get(points2, "Z")
            groups.setdefault((kind, round_), []).append(by_id[pid])
    return [f"240 {kind} {round_:03d} " + " ".join(f"{n:>4}" for n in sorted(numbers))
            for (kind, round_), numbers in sorted(groups.items(), key=lambda item: (item[0][1], item[0][0]))]


def _go_report(state: TournamentState, non_fide: int, non_ascii: int, report: InterchangeReport) -> None:
    assert state.settings is not None
    games = list(state.all_games())
    handicap = sum(1 for g in games if g.handicap)
    komi = sum(1 for g in games if g.komi is not None)
    if non_fide:
        report.info("lossy", f"{non_fide} rating(s) are not FIDE ratings and were not written (write them with "
                    "--ratings)")
    if non_ascii:
        report.warning("encoding", f"{non_ascii} name(s) are not ASCII: written in UTF-8, which older TRF readers "
                       "may show wrongly")
    ranks = sum(1 for p in state.players.values() if p.rank != "30k")
    if ranks:
        report.info("lossy", f"Go ranks of {ranks} player(s) have no TRF column: written in a '### goledger ranks' "
                    "comment line, which other programs skip")
    if handicap:
        report.info("lossy", f"{handicap} handicap game(s): TRF has no handicap; written as even games")
    if komi:
        report.info("lossy", f"{komi} game(s) with their own komi: TRF has no komi")
    if state.settings.system in ("knockout", "double-knockout", "paramus", "match", "continuous-handicap"):
        report.warning("lossy", f"the {state.settings.system} system (bracket, ladder or target, and its places) "
                       "has no TRF record; the games are written and the points are the number of wins")
    if state.settings.system in ("mcmahon", "swisscat", "cup"):
        report.info("lossy", f"the tournament system {state.settings.system} (McMahon bar, floor, scores) has no "
                    "TRF record; points are the number of wins")
    both = sum(1 for g in games if g.result.value in ("both-win", "both-lose") and not g.by_default)
    if both:
        report.warning("lossy", f"{both} game(s) where both won or both lost have no chess result; written as 1/1 "
                       "or 0/0")
