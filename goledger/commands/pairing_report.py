"""The pairing report of a round (issue 32, item 4): what a director checks before the players
walk to their tables, in the manner of OpenGotha's pairing report.

For each game: both players by name (rank, country, club), the score group each came from (his
main criterion — MMS in McMahon, the score in Swiss — after the round before), who was drawn up
or down, whether the two are of the same club or country, the handicap and the rule that gave
it, each player's colour history and balance, whether they met before (never, unless forced),
and — when the round was paired by ``pair-round`` — the weight terms in words beside their
numbers (:func:`goledger.commands.pairing.explain_pairing`). For the round: how many draw-ups,
same-club and same-country games, handicap games, colour imbalances and repeats; and, for an
automatic pairing, the other optimal pairings a check of every two games finds (swapping
opponents between two games without lowering the total weight): how many, and one.

The report reads the ledger; it never writes.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Final

import msgspec

from goledger.commands.pairing import PairingExplanation, explain_pairing
from goledger.commands.recording import PathLike
from goledger.errors import CommandRejected
from goledger.i18n import N_, gettext, ngettext
from goledger.ledger.values import format_points
from goledger.replay.fold.state import TournamentState
from goledger.replay.scoring.units import unit_state

__all__ = ["TERM_WORDS", "GameReport", "PairingReport", "PlayerInGame", "RoundNotPaired", "pairing_report",
           "report_lines"]

TERM_WORDS: Final = {
    # OpenGotha 3.51.02 (goledger.pairing.opengotha.costs.TERMS)
    "base": N_("base weight of every pair"),
    "duplicate": N_("not played before"),
    "random": N_("random part"),
    "balance_wb": N_("colour balance"),
    "categories": N_("same category"),
    "score": N_("close scores"),
    "dudd": N_("draw-up/draw-down rules"),
    "seeding": N_("place within the score group"),
    "handicap": N_("small handicap"),
    "geography": N_("different club and country"),
    # egf
    "no_repeat": N_("not played before"),
    "draw": N_("draw-up/draw-down rules"),
    "colour": N_("colour balance"),
    "rank_gap": N_("close ranks"),
    "favourites": N_("favourites kept apart"),
    "fixed": N_("fixed pairing (goledger fix-pairing)"),
    # the tournament systems' engines (goledger.systems)
    "bracket": N_("the bracket's next match"),
    "berger": N_("the Berger table's game"),
    "ladder": N_("the ladder's next game"),
    "match": N_("the match's next game"),
    "rematch": N_("a rematch of players who met"),
    "same team": N_("team-mates"),
    "games_together": N_("games already played together"),
    "rank": N_("close ranks"),
    "rank_difference": N_("rank difference"),
    # team rounds (goledger.teams.swiss)
    "boards": N_("close board points"),
    "club": N_("different clubs"),
    "fold": N_("place in the team order"),
    "repeat": N_("teams met before"),
}
"""A weight term's name → what it rewards, in words (translated where the report is made)."""

SWAP_WINDOW: Final = 4
"""Alternative optimal pairings are looked for between each game and the next this many tables."""

MAX_SEARCHED: Final = 120
"""Rounds of more matched players than this are not searched for alternatives (as the pairing
oracle's uniqueness check, which covered rounds of up to 120 players): each pair's weight is
the engine's own computation, and a congress round would take minutes."""


class PlayerInGame(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    rank: str
    country: str
    club: str
    score: str
    """His main criterion after the round before, as text (his score group)."""
    colours: str
    """His colours in the earlier rounds, one letter a round: ``w``, ``b``, ``-`` (no game)."""
    balance: int
    """Whites minus blacks in even games, this game included."""
    drawn: str
    """``up``, ``down`` or ``""``."""


class GameReport(msgspec.Struct, frozen=True, kw_only=True):
    table: int
    white: PlayerInGame
    black: PlayerInGame
    handicap: int
    handicap_why: str
    komi: str
    same_club: bool
    same_country: bool
    met_before: tuple[int, ...]
    total: str | None = None
    terms: tuple[tuple[str, str, str], ...] = ()
    """(term, its words, its value) of the pair's weight, when an engine paired the round."""
    why: tuple[str, ...] = ()


class PairingReport(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    criterion: str
    engine: str
    """The engine that paired the round (``"by hand"`` when no ``pair-round`` did)."""
    games: tuple[GameReport, ...]
    bye: str | None
    summary: dict[str, int]
    alternatives: int = 0
    """Other optimal pairings found by exchanging the opponents of two games (0: none found)."""
    alternative: tuple[str, ...] = ()
    """One of them, in words."""
    checked: str = ""
    """What the search for alternatives covered, in words."""
    searched: bool = True
    """``False`` when the round was too large to search for alternatives (``checked`` says why)."""
    seq: int | None = None
    """The ``RoundPaired`` event explained (``None``: paired by hand)."""
    bye_rule: str = ""
    bye_candidates: tuple[tuple[str, str, int], ...] = ()
    """(id, name, weight) of the bye's candidates, best first."""
    weights: dict[str, Any] | None = None
    """:meth:`goledger.commands.pairing.PairingExplanation.to_dict`, when an engine paired the round."""

    def to_dict(self) -> dict[str, Any]:
        """The report as ``explain-pairing --json`` prints it: each game with both players
        (``white``/``black``: id, name, …), its handicap and notes, and — for an automatic
        pairing — ``chosen``, the alternatives and ``why`` of the engine's explanation."""
        out: dict[str, Any] = msgspec.to_builtins(self)
        out.pop("searched")
        weights = out.pop("weights") or {}
        by_table = {g["table"]: g for g in weights.get("games", ())}
        for game in out["games"]:
            game["terms"] = [{"term": t, "words": w, "value": v} for t, w, v in game["terms"]]
            engine = by_table.get(game["table"])
            if engine is not None:
                game.update(chosen=engine["chosen"], white_alternative=engine["white_alternative"],
                            black_alternative=engine["black_alternative"])
        out["bye_candidates"] = [{"id": i, "name": n, "weight": w} for i, n, w in self.bye_candidates]
        return out


def _handicap_why(settings: Any, white: PlayerInGame, black: PlayerInGame, handicap: int, komi: str) -> str:
    """The handicap rule in words (spec opengotha-xml §7.2: the difference of the two
    pseudo-ranks, less the correction, within the ceiling; none at or above the threshold)."""
    hd = settings.handicap
    if hd.ceiling == 0:
        return gettext("even game: this tournament plays no handicap games (komi %(komi)s)") % {"komi": komi}
    if handicap == 0:
        return (gettext("even game: the McMahon scores differ by at most the correction (%(correction)s), or both "
                        "players are at or above %(threshold)s (komi %(komi)s)") if hd.based_on_mms
                else gettext("even game: the ranks differ by at most the correction (%(correction)s), or both "
                             "players are at or above %(threshold)s (komi %(komi)s)")) % {
            "correction": hd.correction, "threshold": hd.no_handicap_threshold, "komi": komi}
    mine, theirs = (white.score, black.score) if hd.based_on_mms else (white.rank, black.rank)
    names = {"stones": handicap, "white": white.name, "mine": mine, "black": black.name, "theirs": theirs,
             "threshold": hd.no_handicap_threshold, "correction": hd.correction, "ceiling": hd.ceiling, "komi": komi}
    if hd.based_on_mms:
        return ngettext("%(stones)d stone: the difference of the McMahon scores (%(white)s %(mine)s, %(black)s "
                        "%(theirs)s; counted at most at %(threshold)s), less the correction of %(correction)s, at "
                        "most %(ceiling)s; komi %(komi)s",
                        "%(stones)d stones: the difference of the McMahon scores (%(white)s %(mine)s, %(black)s "
                        "%(theirs)s; counted at most at %(threshold)s), less the correction of %(correction)s, at "
                        "most %(ceiling)s; komi %(komi)s", handicap) % names
    return ngettext("%(stones)d stone: the difference of the ranks (%(white)s %(mine)s, %(black)s %(theirs)s; "
                    "counted at most at %(threshold)s), less the correction of %(correction)s, at most %(ceiling)s; "
                    "komi %(komi)s",
                    "%(stones)d stones: the difference of the ranks (%(white)s %(mine)s, %(black)s %(theirs)s; "
                    "counted at most at %(threshold)s), less the correction of %(correction)s, at most %(ceiling)s; "
                    "komi %(komi)s", handicap) % names


def _colour_history(state: TournamentState, pid: str, round_: int) -> tuple[str, int]:
    """``pid``'s colours before ``round_``, one letter a round (``w``, ``b``, ``-``), and his colour
    balance (white minus black) over the even games up to and including it."""
    letters, balance = [], 0
    for r in range(1, round_ + 1):
        g = state.game_of(pid, r)
        if r < round_:
            letters.append("-" if g is None else "w" if g.white == pid else "b")
        if g is not None and g.handicap == 0 and g.color_known:
            balance += 1 if g.white == pid else -1
    return "".join(letters), balance


def _engine_explanation(db: PathLike, state: TournamentState, round_: int) -> PairingExplanation | None:
    """The engine's explanation of the round (:func:`goledger.commands.pairing.explain_pairing`),
    or None when no ``pair-round`` paired it or it cannot be re-derived."""
    if not state.round_pairings.get(round_):
        return None
    try:
        return explain_pairing(db, round_, None)
    except CommandRejected:
        return None


class RoundNotPaired(CommandRejected):
    """A report asked of a round with no games, no byes and no automatic pairing: the command
    line's sentence names ``goledger pair-round``; the desk says it its own way (:attr:`round`)."""

    def __init__(self, round_: int) -> None:
        super().__init__(f"round {round_} has no automatic pairing in force and no games: it is not paired yet "
                         "(goledger pair-round)")
        self.round = round_


def pairing_report(db: PathLike, round_: int, player: str | None = None) -> PairingReport:
    """The pairing report of round ``round_`` (only ``player``'s game when given)."""
    from goledger.ledger.values import effective_komi
    from goledger.replay.fold.players import find_player
    from goledger.replay.scoring.standings import standings
    from goledger.replay.views import state_as_of

    state = state_as_of(db)
    if state.settings is None:
        raise CommandRejected(f"{db} has no tournament")
    if not 1 <= round_ <= state.rounds:
        raise CommandRejected(f"round {round_} is outside 1..{state.rounds} of this tournament")
    games = state.games_of_round(round_)
    if not games and not state.byes.get(round_):
        raise RoundNotPaired(round_)
    who = find_player(state, player).id if player else None
    before = standings(state, round_ - 1)
    criterion = before.criteria[0] if before.criteria else ""
    score: dict[str, Fraction] = {r.player_id: before.value(r, criterion) for r in before.rows} if criterion else {}
    scale = before.scales.get(criterion, 2)

    def text(pid: str) -> str:
        value = score.get(pid)
        return format_points(int(value * scale), scale) if value is not None else ""

    explanation = _engine_explanation(db, state, round_)
    engine = explanation.engine if explanation is not None else gettext("by hand")
    explained: dict[int, Any] = {g.table: g for g in explanation.games} if explanation is not None else {}
    shown = unit_state(state)  # a Pair Go or Rengo round: the units' names and ranks
    name_of = {pid: p.full_name for pid, p in shown.players.items()}
    komi_default = state.settings_for_round(round_).komi
    reports = []
    summary = dict.fromkeys(("games", "draw_ups", "same_club", "same_country", "handicap_games",
                             "colour_imbalances", "repeats"), 0)
    for g in games:
        people = []
        for pid, other in ((g.white, g.black), (g.black, g.white)):
            p = shown.players[pid]
            colours, balance = _colour_history(state, pid, round_)
            mine, theirs = score.get(pid), score.get(other)
            drawn = "" if mine is None or theirs is None or mine == theirs else ("up" if mine < theirs else "down")
            people.append(PlayerInGame(id=pid, name=p.full_name, rank=p.rank, country=p.country, club=p.club,
                                       score=text(pid), colours=colours, balance=balance, drawn=drawn))
        white, black = people
        met = tuple(r for r in range(1, round_) if (x := state.game_of(g.white, r)) is not None
                    and g.black in (x.white, x.black))
        komi = effective_komi(komi_default, g.komi, g.handicap)
        same_club = bool(white.club and white.club.casefold() == black.club.casefold())
        same_country = bool(white.country and white.country.casefold() == black.country.casefold())
        summary["games"] += 1
        summary["draw_ups"] += white.drawn == "up" or black.drawn == "up"
        summary["same_club"] += same_club
        summary["same_country"] += same_country
        summary["handicap_games"] += g.handicap > 0
        summary["colour_imbalances"] += (abs(white.balance) >= 2) + (abs(black.balance) >= 2)
        summary["repeats"] += bool(met)
        terms: tuple[tuple[str, str, str], ...] = ()
        total: str | None = None
        why: tuple[str, ...] = ()
        if (e := explained.get(g.table)) is not None:
            terms = tuple((k, gettext(TERM_WORDS[k]) if k in TERM_WORDS else k.replace("_", " "), str(v))
                          for k, v in e.chosen.terms.items() if v != 0)
            total = str(e.chosen.total)
            why = tuple(_named(s, name_of) for s in e.sentences())
        if who is not None and who not in (g.white, g.black):
            continue
        reports.append(GameReport(
            table=g.table, white=white, black=black, handicap=g.handicap,
            handicap_why=_handicap_why(state.settings_for_round(round_), white, black, g.handicap, komi),
            komi=komi, same_club=same_club, same_country=same_country, met_before=met, total=total, terms=terms,
            why=why))
    byes = sorted(state.byes.get(round_, {}))
    count, checked, searched = 0, "", True
    example: tuple[str, ...] = ()
    if explanation is not None and who is None:
        count, example, checked, searched = _alternatives(db, state, round_, explanation, name_of)
    candidates: tuple[tuple[str, str, int], ...] = ()
    if explanation is not None:
        candidates = tuple((p, name_of.get(p, p), w) for p, w in explanation.bye_candidates)
    return PairingReport(round=round_, criterion=criterion, engine=engine, games=tuple(reports),
                         bye=name_of[byes[0]] if byes else None, summary=summary, alternatives=count,
                         alternative=example, checked=checked, searched=searched,
                         seq=explanation.seq if explanation is not None else None,
                         bye_rule=explanation.bye_rule if explanation is not None else "",
                         bye_candidates=candidates,
                         weights=explanation.to_dict() if explanation is not None else None)


def _named(sentence: str, name_of: dict[str, str]) -> str:
    """A sentence of the engine's explanation with player ids replaced by names."""
    import re

    return re.sub(r"\bp\d{4,}\b", lambda m: name_of.get(m.group(0), m.group(0)), sentence)


def _alternatives(db: PathLike, state: TournamentState, round_: int, explanation: Any,
                  name_of: dict[str, str]) -> tuple[int, tuple[str, ...], str, bool]:
    """Other optimal pairings: for each two games (a–b, c–d) within :data:`SWAP_WINDOW` tables,
    whether a–c + b–d or a–d + b–c weighs as much as a–b + c–d (the engine's own weights,
    :meth:`~goledger.pairing.engine.Engine.pair_terms`). Returns how many such exchanges keep
    the optimum, one of them in words, what was searched, and whether it was."""
    from goledger.commands.pairing import _load_events
    from goledger.ledger import events as ev
    from goledger.pairing.engine import PairingRequest
    from goledger.replay.fold.state import fold
    from goledger.systems import engine_for

    events = _load_events(db)
    stored = events[explanation.seq - 1]
    if not isinstance(stored, ev.RoundPaired):
        return 0, (), "", True
    if stored.engine == "teams":  # its weights are those of whole matches: swapping two boards is no alternative
        return 0, (), gettext("not searched: a team round pairs whole teams, not players"), False
    if len(stored.players) > MAX_SEARCHED:
        return 0, (), gettext("not searched: %(players)d players are more than %(most)d") % {
            "players": len(stored.players), "most": MAX_SEARCHED}, False
    before = fold(events[: explanation.seq - 1])
    engine = engine_for(before, stored.engine)
    request = PairingRequest(round=round_, players=stored.players, seed=stored.seed)
    games = [g for g in explanation.games if "fixed" not in g.chosen.terms]
    weight: dict[tuple[str, str], int] = {}

    def w(a: str, b: str) -> int:
        key = (a, b) if a < b else (b, a)
        if key not in weight:
            weight[key] = engine.pair_terms(before, request, key[0], key[1]).total
        return weight[key]

    found = 0
    example: tuple[str, ...] = ()
    for i, g in enumerate(games):
        for h in games[i + 1: i + 1 + SWAP_WINDOW]:
            now = g.chosen.total + h.chosen.total
            for (a, b), (c, d) in (((g.white, h.white), (g.black, h.black)), ((g.white, h.black), (g.black, h.white))):
                if w(a, b) + w(c, d) == now and frozenset((a, b)) != frozenset((g.white, g.black)):
                    found += 1
                    if not example:
                        example = (gettext(
                            "tables %(table)d and %(other)d: %(a)s – %(b)s and %(c)s – %(d)s weigh %(weight)s, as "
                            "much as the chosen %(e)s – %(f)s and %(g)s – %(h)s") % {
                                "table": g.table, "other": h.table, "a": name_of[a], "b": name_of[b],
                                "c": name_of[c], "d": name_of[d], "weight": now, "e": name_of[g.white],
                                "f": name_of[g.black], "g": name_of[h.white], "h": name_of[h.black]},)
    checked = gettext("every two games within %(window)d tables of each other (%(games)d games)") % {
        "window": SWAP_WINDOW, "games": len(games)}
    return found, example, checked, True


def report_lines(report: PairingReport) -> list[str]:
    """The report as text lines (``goledger explain-pairing R``), in the language written in."""
    s = report.summary
    lines = [gettext("round %(round)d: paired %(engine)s; score groups by %(criterion)s after round %(before)d") % {
                 "round": report.round, "engine": report.engine, "criterion": report.criterion or gettext("score"),
                 "before": report.round - 1},
             gettext("summary: %(games)s games, %(draw_ups)s with a draw-up, %(same_club)s same club, "
                     "%(same_country)s same country, %(handicap_games)s handicap games, %(colour_imbalances)s colour "
                     "imbalances (|whites − blacks| ≥ 2), %(repeats)s repeats") % s]
    if report.checked:
        if not report.searched:
            lines.append(gettext("other optimal pairings: %(checked)s") % {"checked": report.checked})
        elif report.alternatives:
            lines.append(gettext("other optimal pairings: %(count)d found (%(checked)s); for example %(example)s") % {
                "count": report.alternatives, "checked": report.checked, "example": report.alternative[0]})
        else:
            lines.append(gettext("other optimal pairings: none found (%(checked)s)") % {"checked": report.checked})
    for g in report.games:
        lines.append("")
        lines.append(gettext("table %(table)d: %(white)s (%(white_rank)s) white – %(black)s (%(black_rank)s) black") % {
            "table": g.table, "white": g.white.name, "white_rank": g.white.rank, "black": g.black.name,
            "black_rank": g.black.rank} + ("  " + gettext("weight %(weight)s") % {"weight": g.total}
                                           if g.total is not None else ""))
        for colour, p in ((gettext("white"), g.white), (gettext("black"), g.black)):
            where = ", ".join(x for x in (p.country, p.club) if x)
            drawn = {"up": ", " + gettext("drawn up"), "down": ", " + gettext("drawn down")}.get(p.drawn, "")
            lines.append(f"  {colour}: {p.name}{' (' + where + ')' if where else ''}, "
                         + gettext("score group %(score)s") % {"score": p.score} + drawn + "; "
                         + gettext("colours before %(colours)s, balance after this game %(balance)s") % {
                             "colours": p.colours or gettext("none"), "balance": f"{p.balance:+d}"})
        notes = []
        if g.same_club:
            notes.append(gettext("same club"))
        if g.same_country:
            notes.append(gettext("same country"))
        notes.append(gettext("met before in round %(rounds)s") % {"rounds": ", ".join(map(str, g.met_before))}
                     if g.met_before else gettext("never met before"))
        lines.append("  " + "; ".join(notes))
        lines.append("  " + gettext("handicap") + f": {g.handicap_why}")
        if g.terms:
            lines.append("  " + gettext("weight terms: %(terms)s") % {
                "terms": ", ".join(f"{words} ({term}) {value}" for term, words, value in g.terms)})
        lines.extend(f"  {line}" for line in g.why)
    if report.bye:
        lines.append("")
        rule = f" — {report.bye_rule}" if report.bye_rule else ""
        candidates = ", ".join(f"{name} ({w})" for _, name, w in report.bye_candidates)
        lines.append(gettext("bye: %(player)s") % {"player": report.bye} + rule
                     + ("; " + gettext("candidates best first: %(candidates)s") % {"candidates": candidates}
                        if candidates else ""))
    return lines
