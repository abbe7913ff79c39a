"""The refusals the deciders share: a round of the tournament, a rank, a komi, a point
value, a name that is text, a player free to play, what the tournament system forbids.

Each raises :class:`~goledger.errors.CommandRejected` with one sentence; none reads a ledger.
"""

from __future__ import annotations

from goledger.errors import CommandRejected, Problem, said
from goledger.i18n import N_
from goledger.i18n.messages import say, say_at
from goledger.ledger import events as ev
from goledger.ledger.domains import text_problem
from goledger.ledger.values import Rank, RankError, parse_number, parse_points2
from goledger.replay.fold.state import GameState, PlayerState, TournamentState

__all__ = [
    "REPEATS_REFUSED",
    "check_available",
    "check_free",
    "check_handicap",
    "check_names",
    "check_round",
    "check_system",
    "check_table",
    "checked_text",
    "game_at",
    "parse_komi",
    "parse_points",
    "parse_rank",
    "refusal",
]

REPEATS_REFUSED = frozenset({"mcmahon", "swiss", "swisscat"})
"""Systems where a manual ``pair`` refuses a repeat and ``bye`` a player's second bye unless
``force`` (a match or a continuous handicap event repeats games by design; knockouts and the
other systems check their own rules)."""


FIELD_WORDS: tuple[str, ...] = (
    N_("name"), N_("short name"), N_("location"), N_("surname"), N_("first name"), N_("club"), N_("country"),
    N_("rank"), N_("rating"), N_("komi"), N_("handicap"), N_("round"), N_("table"), N_("points"),
    N_("team name"), N_("unit name"), N_("the begin date"), N_("the end date"), N_("begin date"), N_("end date"),
    N_("ratings date"), N_("category limit"), N_("rating clamp"), N_("mm bar"), N_("mm floor"), N_("rounds"),
)
"""The fields a domain problem names (:class:`~goledger.errors.Problem`'s ``what``),
as words of the catalogs: a refusal names them in the reader's language."""


def refusal(problem: str) -> CommandRejected:
    """The refusal of a value outside its domain, in the language written in: a
    :class:`~goledger.errors.Problem` said as its catalog message, the field it names
    translated with it (the ledger has no words; the commands have).

    >>> from goledger.i18n import use_language
    >>> from goledger.ledger.domains import text_problem
    >>> with use_language("tr"):
    ...     print(refusal(text_problem("Ay\u200bse", "surname")))
    soyad 'Ay\\u200bse' görünmeyen ya da denetim karakteri içeriyor (U+200B)
    """
    return CommandRejected(said(problem) if isinstance(problem, Problem) else problem)  # said now, not when read


def checked_text(text: str, what: str) -> str:
    """``text`` itself, or the refusal (:func:`refusal`) of a name that is not text
    (:func:`goledger.ledger.domains.text_problem`)."""
    problem = text_problem(text, what)
    if problem:
        raise refusal(problem)
    return text


def check_system(state: TournamentState, event: ev.Event) -> None:
    """What the tournament system forbids (a game for an eliminated player, beyond a cap…)."""
    from goledger.systems import check_event

    check_event(state, event)


def check_round(state: TournamentState, round_: int) -> None:
    """Refuse a round outside ``1..rounds`` of the tournament."""
    if not 1 <= round_ <= state.rounds:
        raise CommandRejected(say("round %(round)d is outside 1..%(rounds)d of this tournament", round=round_,
                                  rounds=state.rounds))


def check_handicap(handicap: int | None) -> None:
    """Refuse a handicap (given by hand) outside 0..9."""
    if handicap is not None and not 0 <= handicap <= 9:
        raise CommandRejected(say("handicap %(stones)d is outside 0..9", stones=handicap))


def check_table(table: int | None) -> None:
    """Refuse a table number below 1."""
    if table is not None and table < 1:
        raise CommandRejected(say("table %(table)d must be 1 or more", table=table))


def parse_rank(text: str) -> str:
    """The canonical text of a rank (``"3D"`` → ``"3d"``), or a refusal naming the forms."""
    try:
        return str(Rank.parse(text))
    except RankError:
        raise CommandRejected(say("%(rank)r is not a rank: use 30k..1k, 1d..9d or 1p..9p",
                                  rank=text.strip() if isinstance(text, str) else text)) from None


def parse_komi(komi: str | None) -> str | None:
    """A komi as recorded (``"6,5"`` → ``"6.5"``): a whole or half number, bounded as text."""
    if komi is None:
        return None
    try:
        value = parse_number(komi)  # bounded as text: Fraction("1e999999999") would take hours
    except ValueError:
        raise CommandRejected(say("komi %(komi)r is not a number such as 6.5 or 7", komi=komi[:32])) from None
    if (value * 2).denominator != 1:
        raise CommandRejected(say("komi %(komi)r must be a whole or half number", komi=komi))
    return komi.strip().replace(",", ".")


def parse_points(points: str | float | None) -> int | None:
    """Half points of a point value (``"0.5"`` → 1)."""
    if points is None:
        return None
    try:
        return parse_points2(str(points))
    except ValueError as exc:
        raise CommandRejected(str(exc)) from None


def check_names(**fields: str) -> None:
    """Names are text, not control (:func:`goledger.ledger.domains.text_problem`)."""
    for label, value in fields.items():
        problem = text_problem(value, label.replace("_", " "))
        if problem:
            raise refusal(problem)


def game_at(state: TournamentState, round_: int, table: int, name_tables: bool = False) -> GameState:
    """The game at (``round_``, ``table``), or a refusal: a round outside the tournament, not
    paired yet, or without that table (``name_tables``: the refusal lists the round's tables)."""
    check_round(state, round_)
    games = state.games.get(round_, {})
    if not games:
        raise CommandRejected(say("round %(round)d is not paired yet", round=round_))
    game = games.get(table)
    if game is None:
        if name_tables:
            raise CommandRejected(say("round %(round)d has no table %(table)d (its tables: %(tables)s)", round=round_,
                                      table=table, tables=_tables_text(games)))
        raise CommandRejected(say("round %(round)d has no table %(table)d", round=round_, table=table))
    return game


def _tables_text(games: dict[int, GameState], limit: int = 12) -> str:
    tables = sorted(games)
    text = ", ".join(str(t) for t in tables[:limit])
    return text + (" …" if len(tables) > limit else "")


def check_available(state: TournamentState, p: PlayerState, round_: int, overridden: list[str] | None = None) -> None:
    """Refuse a player who cannot take a game or the bye in ``round_``. With ``overridden``
    (``--force``), a withdrawal or an absence is noted there instead of refused."""
    if p.is_withdrawn(round_):
        if overridden is None:
            raise CommandRejected(say_at(
                "%(player)s withdrew from round %(round)d; use --force to pair him anyway",
                N_("%(player)s withdrew from round %(round)d; to pair him anyway, tick “Even so” or “Even if "
                   "forbidden or a repeat”"), player=f"{p.id} {p.full_name}", round=p.withdrawn_from))
        overridden.append(say("%(player)s withdrew", player=p.id))
    elif round_ in p.absences:
        if overridden is None:
            raise CommandRejected(say_at(
                "%(player)s is marked absent in round %(round)d; use --force to pair him anyway",
                N_("%(player)s is marked absent in round %(round)d; to pair him anyway, tick “Even so” or “Even if "
                   "forbidden or a repeat”"), player=f"{p.id} {p.full_name}", round=round_))
        overridden.append(say("%(player)s absent", player=p.id))
    game = state.game_of(p.id, round_)
    if game is not None:
        raise CommandRejected(say("%(player)s is already paired in round %(round)d (table %(table)d)",
                                  player=f"{p.id} {p.full_name}", round=round_, table=game.table))
    if p.id in state.byes.get(round_, {}):
        raise CommandRejected(say("%(player)s holds the bye of round %(round)d", player=f"{p.id} {p.full_name}",
                                  round=round_))


def check_free(state: TournamentState, p: PlayerState, round_: int) -> None:
    """Refuse while ``p`` is paired or holds the bye in ``round_`` (take it back first)."""
    game = state.game_of(p.id, round_)
    if game is not None:
        raise CommandRejected(say("%(player)s is paired in round %(round)d (table %(table)d); unpair that game first",
                                  player=f"{p.id} {p.full_name}", round=round_, table=game.table))
    if p.id in state.byes.get(round_, {}):
        raise CommandRejected(say("%(player)s holds the bye of round %(round)d; remove it first",
                                  player=f"{p.id} {p.full_name}", round=round_))
