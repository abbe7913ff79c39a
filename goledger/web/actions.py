"""The desk's writing forms → the same library functions as the CLI (issue 17: no second
code path for any rule).

Each :class:`Action` decodes its form once into its type (:mod:`goledger.web.form_types`:
the command's keyword arguments, read by one rule, a bad field refused in one sentence) and
calls one recording command of :mod:`goledger.commands` (or ``publish``, or the
participant-list import) with them and the form's ``expected_head`` and ``retry``; the
command validates and refuses with its own sentence.

>>> sorted(ACTIONS)[:4]
['absent', 'absent-unchecked', 'approve-reports', 'bulk-register']
>>> parse_entry("12 w"), parse_entry("3=!"), parse_entry("7 both-lose")
((12, 'w', False), (3, '=', True), (7, 'both-lose', False))
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from goledger.errors import CommandRejected, GoledgerError
from goledger.i18n import current_language, gettext, ngettext
from goledger.i18n.messages import nsay, say
from goledger.web import form_types as ft
from goledger.web.form_types import arguments, decode
from goledger.web.forms import number_or_none, whole
from goledger.web.forms import text as _text

__all__ = ["ACTIONS", "Action", "CorrectionOffered", "parse_entry", "table_subject"]

Form = Mapping[str, Any]
Runner = Callable[..., Any]


_ENTRY = re.compile(r"^\s*(\d{1,5})(?:\s*[.:/]\s*|\s+|(?=[^\W\d_]|=))(\S.{0,30}?)\s*(!?)\s*$")


def parse_entry(text: str) -> tuple[int, str, bool]:
    """A keyboard result entry ``TABLE RESULT[!]`` → (table, result as typed, by default).

    The result is any notation ``goledger result`` reads (one parser for both:
    :func:`goledger.ledger.result_notation.parse_result_notation`): ``w``, ``b``, ``=``,
    ``W+R``, ``B+2.5``, ``0-0``, ``1-0``, ``both-lose``…; a final ``!`` marks a result by
    default. The table and the result are separated by a space, ``.``, ``:`` or ``/``, or
    not at all when the result starts with a letter or ``=``.

    >>> parse_entry("8 W+R"), parse_entry("9 B+2.5"), parse_entry("10 0-0")
    ((8, 'W+R', False), (9, 'B+2.5', False), (10, '0-0', False))
    >>> parse_entry("12w!"), parse_entry("4: 1-0")
    ((12, 'w', True), (4, '1-0', False))
    >>> parse_entry("1-0")  # no table: never table 1 with the result "-0"
    Traceback (most recent call last):
    ...
    goledger.errors.CommandRejected: '1-0' is not a result entry: type the table, then the result ...
    >>> parse_entry("12 maybe")
    Traceback (most recent call last):
    ...
    goledger.errors.CommandRejected: 'maybe' is not a result: use white: w, white, 1-0, ...
    """
    from goledger.ledger.result_notation import parse_result_notation

    not_an_entry = CommandRejected(gettext("%(typed)s is not a result entry: type the table, then the result "
                                           "(e.g. 12 w, 8 W+R, 9 B+2.5, 10 0-0; add ! for a result by default)")
                                   % {"typed": repr(text.strip())})
    found = _ENTRY.match(text)
    if not found:
        raise not_an_entry
    word = found.group(2).strip()
    try:
        parse_result_notation(word)
    except ValueError as exc:  # its own sentence: a bare 0 says what it could mean (issue 40, item 4)
        if current_language() != "en":  # the notation's list is English: the page's language says it its way
            raise not_an_entry from None
        raise CommandRejected(str(exc)) from None
    return whole(found.group(1), "table", signed=False), word, bool(found.group(3))  # ASCII digits only


def table_subject(form: Form) -> set[tuple[Any, ...]]:
    """The ``("table", round, table)`` a result form is about (empty when it names none)."""
    try:
        table = parse_entry(_text(form, "entry"))[0] if _text(form, "entry") else number_or_none(form, "table")
    except CommandRejected:
        return set()
    round_ = number_or_none(form, "round")
    return {("table", round_, table)} if round_ is not None and table is not None else set()


@dataclass(frozen=True)
class Action:
    """A writing form: ``run(db, form, actor=…, expected_head=…, retry=…)`` → the command's
    outcome; ``subjects(form)`` what it touches, when the form alone says so (a stale head
    whose events since touch it is not offered a retry)."""

    run: Runner
    subjects: Callable[[Form], set[tuple[Any, ...]]] = lambda form: set()


def _register(db: Path, form: Form, **kw: Any) -> Any:
    from goledger import commands

    return commands.register(db, **arguments(decode(form, ft.Register)), **kw)


def _update_player(db: Path, form: Form, **kw: Any) -> Any:
    """``update-player``: only the fields filled in change; ``status`` is ``final`` or
    ``preliminary`` (empty: unchanged)."""
    from goledger import commands

    fields = decode(form, ft.UpdatePlayer)
    return commands.update_player(db, **arguments(fields, without=("status",)), preliminary=fields.preliminary,
                                  **kw)


class _BulkOutcome:
    def __init__(self, outcome: Any) -> None:
        self.records = outcome.records
        self.report = outcome.report
        skipped = sum(1 for e in outcome.report.entries if e.severity == "warning")
        registered = sum(1 for r in outcome.records if r.type == "PlayerRegistered")
        self.message = ngettext("registered %(n)d player from the pasted list",
                                "registered %(n)d players from the pasted list", registered) % {"n": registered}
        if skipped:
            self.message += ngettext("; %(n)d line skipped with a warning", "; %(n)d lines skipped with a warning",
                                     skipped) % {"n": skipped}


def _bulk_register(db: Path, form: Form, *, actor: str, reason: str, expected_head: int | None,
                   retry: bool) -> Any:
    """The pasted list, one player a line (``surname|first name|rank|country|club|rating|EGD
    PIN``; tab-separated lines from a spreadsheet are read with tabs as ``|``), registered by
    :func:`goledger.formats.macmahon.players.import_macmahon_players` in one transaction."""
    from goledger.formats.macmahon.players import import_macmahon_players

    fields = decode(form, ft.BulkRegister)
    if not fields.entries:
        raise CommandRejected(say("paste one player a line: surname|first name|rank|country|club"))
    lines = [line.replace("\t", "|") if "|" not in line else line for line in fields.entries.splitlines()]
    with tempfile.TemporaryDirectory(prefix="goledger-desk-") as folder:
        name = Path(folder) / gettext("pasted list")  # the list's name in the refusals
        name.write_text("\n".join(lines) + "\n", encoding="utf-8")
        try:
            outcome = import_macmahon_players(name, db, None, False, False, fields.force, actor=actor,
                                              reason=reason or gettext("players pasted at the desk"),
                                              expected_head=None if retry else expected_head)
        except GoledgerError as exc:  # the reader names its file: the list, not the desk's temporary folder
            if exc.args:
                exc.args = (str(exc.args[0]).replace(f"{folder}{os.sep}", ""), *exc.args[1:])
            raise
    return _BulkOutcome(outcome)


def _player_round(command: str, kind: type[ft.PlayerRound] = ft.PlayerRound) -> Runner:
    """``command`` (``absent``, ``present``, ``bye``, ``unbye``, ``check_in``) with the form as ``kind``."""
    def run(db: Path, form: Form, **kw: Any) -> Any:
        from goledger import commands

        return getattr(commands, command)(db, **arguments(decode(form, kind)), **kw)

    return run


def _withdraw(db: Path, form: Form, *, reason: str, **kw: Any) -> Any:
    """:func:`goledger.commands.withdraw`'s decision, confirmed in the desk's words."""
    from goledger.commands.recording import record
    from goledger.commands.withdrawals import decide_withdraw, desk_withdraw_message

    fields = decode(form, ft.Withdraw)
    why = fields.reason or reason
    return record(db, lambda state: decide_withdraw(state, fields.player, fields.from_round, why),
                  desk_withdraw_message, reason=why, **kw)


def _reinstate(db: Path, form: Form, **kw: Any) -> Any:
    from goledger import commands

    return commands.reinstate(db, **arguments(decode(form, ft.Reinstate)), **kw)


def _player_action(db: Path, form: Form, **kw: Any) -> Any:
    """One form for a player in a round: ``what`` is withdraw, reinstate, absent, present, bye
    or unbye."""
    what = _text(form, "what")
    runner = _PLAYER_ACTIONS.get(what)
    if runner is None:
        raise CommandRejected(say("%(what)r is not a player action of the desk", what=what))
    return runner(db, form, **kw)


def _pair(db: Path, form: Form, **kw: Any) -> Any:
    from goledger.web.hand_edits import pair_action

    return pair_action(db, form, **kw)


def _edit_game(db: Path, form: Form, **kw: Any) -> Any:
    from goledger.web.hand_edits import edit_game_action

    return edit_game_action(db, form, **kw)


def _edit_games(db: Path, form: Form, **kw: Any) -> Any:
    from goledger.web.hand_edits import edit_games_action

    return edit_games_action(db, form, **kw)


def _games_subjects(form: Form) -> set[tuple[Any, ...]]:
    """The ``("table", round, table)`` of every game selected in the round's table."""
    from goledger.web.hand_edits import selected_tables

    round_ = number_or_none(form, "round")
    try:
        return {("table", round_, t) for t in selected_tables(form)} if round_ is not None else set()
    except CommandRejected:
        return set()


def _constraint(name: str) -> Runner:
    """The constraints page's forms (:mod:`goledger.web.constraint_forms`): ``forbid``,
    ``fix-pairing``, ``fix-table``."""
    def run(db: Path, form: Form, **kw: Any) -> Any:
        from goledger.web import constraint_forms

        runner: Runner = {"forbid": constraint_forms.forbid_action, "fix-pairing": constraint_forms.fix_pairing_action,
                          "fix-table": constraint_forms.fix_table_action}[name]
        return runner(db, form, **kw)

    return run


def _renumber_tables(db: Path, form: Form, **kw: Any) -> Any:
    from goledger.web.hand_edits import renumber_action

    return renumber_action(db, form, **kw)


def _unpair(db: Path, form: Form, **kw: Any) -> Any:
    from goledger import commands

    return commands.unpair(db, **arguments(decode(form, ft.Unpair)), **kw)


def _result(db: Path, form: Form, **kw: Any) -> Any:
    from goledger import commands
    from goledger.commands.results import ResultAlreadyRecorded

    entry = decode(form, ft.ResultEntry)
    round_ = entry.round
    if entry.entry:
        try:
            table, word, by_default = parse_entry(entry.entry)
        except CommandRejected:
            typed = _ENTRY.match(entry.entry)
            if typed:  # a letter of the page's language: its words, in its language
                _check_letter(typed.group(2).strip())
            raise
    else:
        fields = decode(form, ft.ResultForm)
        table, word, by_default = fields.table, fields.result, fields.by_default
    _check_letter(word)
    try:
        return commands.result(db, round=round_, table=table, result=word, by_default=by_default, **kw)
    except ResultAlreadyRecorded as exc:  # the desk's own answer: the correction form, never a command line
        raise CorrectionOffered(exc.round, exc.table, exc.result.value, word, by_default) from None


class CorrectionOffered(CommandRejected):
    """A result entered for a table that already has one (issue 43, item 6): the desk answers
    with the correction form in the page (``templates/_correction.html``: what is recorded →
    what was typed, a reason to give), whether the other desk recorded it a second or an
    hour before. :attr:`correction` holds the form's fields and the two results in words;
    when the typed result is the one recorded, there is nothing to correct and no form."""

    code = "result-exists"

    def __init__(self, round_: int, table: int, recorded: str, typed: str, by_default: bool) -> None:
        from goledger.commands.results import parse_notation

        new, _, new_default = parse_notation(typed, by_default)
        old = result_label(recorded)
        if new.value == recorded:
            super().__init__(gettext("round %(round)d table %(table)d already has this result (%(result)s); "
                                     "nothing was changed") % {"round": round_, "table": table, "result": old})
            self.correction: dict[str, str] = {}
            return
        label = result_label(new.value) + (" " + gettext("by default") if new_default else "")
        super().__init__(gettext("round %(round)d table %(table)d already has a result (%(result)s); to make it "
                                 "%(new)s, give the reason and correct it here") % {
            "round": round_, "table": table, "result": old, "new": label})
        self.correction = {"round": str(round_), "table": str(table), "result": typed,
                           "by_default": "1" if by_default else "", "old": old, "new": label}


def result_label(result: str) -> str:
    """A result in the desk's words (the labels of its result tables)."""
    return {"white": gettext("white won"), "black": gettext("black won"), "jigo": gettext("jigo"),
            "both-lose": gettext("both lose"), "both-win": gettext("both win")}.get(result, gettext("no result"))


def _check_letter(word: str) -> None:
    """Refuse a result typed as one letter that the page's language reads otherwise than
    goledger (Turkish ``b`` is *beyaz*, white; issue 40, item 4), with the words to type
    (:func:`goledger.describe.results.letter_problem`). The worker runs in the page's language."""
    from goledger.describe.results import ambiguous_problem, letter_problem
    from goledger.i18n import current_language

    problem = letter_problem(word, current_language()) or ambiguous_problem(word, current_language())
    if problem is not None:
        raise CommandRejected(problem)


def _correct(db: Path, form: Form, *, reason: str, **kw: Any) -> Any:
    from goledger import commands

    fields = decode(form, ft.Correct)
    _check_letter(fields.result)
    return commands.correct(db, **arguments(fields, without=("reason",)), reason=fields.reason or reason, **kw)


def _change_rules(db: Path, form: Form, **kw: Any) -> Any:
    from goledger import commands
    from goledger.commands.settings_text import parse_settings

    fields = decode(form, ft.ChangeRules)
    words = [line.strip() for line in fields.settings.splitlines() if line.strip()]
    if not words:
        raise CommandRejected(say("write the settings to change, one KEY=VALUE a line (e.g. policy=egf)"))
    return commands.change_rules(db, parse_settings(words), from_round=fields.from_round, **kw)


def _publish(db: Path, form: Form, **kw: Any) -> Any:
    from goledger.commands.publish import publish

    return publish(db, **arguments(decode(form, ft.Publish)), **kw)


def _approve_reports(db: Path, form: Form, **kw: Any) -> Any:
    """``approve-reports``: the round's agreeing players' reports, or those of ``table`` alone
    (:func:`goledger.commands.approve_reports`)."""
    from goledger.commands.player_reports import approve_reports

    fields = decode(form, ft.ApproveReports)
    return approve_reports(db, fields.round, () if fields.table is None else (fields.table,), **kw)


def _show_round(db: Path, form: Form, **kw: Any) -> Any:
    from goledger.commands.show_round import show_round

    return show_round(db, **arguments(decode(form, ft.RoundOnly)), **kw)


class ConfirmPairing(CommandRejected):
    """The desk's "Pair round R" on a round that already has games: asked first (issue 43.4)."""

    code = "confirm"


def _pair_round(db: Path, form: Form, **kw: Any) -> Any:
    """``pair-round R`` (:func:`goledger.commands.pairing.pair_round`) with the form's
    ``engine`` (empty: the system's) and ``force`` (an out-of-order round). A round that
    already has games or byes is paired only with ``confirm``: else the desk asks first,
    saying how many games it has and how many players are still to pair (none: refused)."""
    from goledger.commands import pairing

    fields = decode(form, ft.PairRound)
    round_ = fields.round_
    if not fields.confirm:
        from goledger.ledger.values import Result
        from goledger.pairing.participants import players_to_pair
        from goledger.replay.views import state_as_of

        state = state_as_of(db)
        games = state.games_of_round(round_) if 1 <= round_ <= state.rounds else []
        if games or state.byes.get(round_):
            played = sum(g.result is not Result.UNKNOWN for g in games)
            left = len(players_to_pair(state, round_))
            if not left:
                raise CommandRejected(nsay("round %(round)d is already paired: %(n)d game (%(played)d played), "
                                           "nobody is left to pair",
                                           "round %(round)d is already paired: %(n)d games (%(played)d played), "
                                           "nobody is left to pair", len(games), round=round_, n=len(games),
                                           played=played))
            raise ConfirmPairing(nsay("round %(round)d already has %(games)d games (%(played)d played); pairing it "
                                      "again pairs only the %(n)d player still without a game or bye: confirm to "
                                      "go on",
                                      "round %(round)d already has %(games)d games (%(played)d played); pairing it "
                                      "again pairs only the %(n)d players still without a game or bye: confirm to "
                                      "go on", left, round=round_, games=len(games), played=played, n=left))
    kw.pop("retry", None)
    return pairing.pair_round(db, **arguments(fields, without=("confirm",)), expected_head=kw.pop("expected_head"),
                              actor=kw.pop("actor"), reason=kw.pop("reason"))


def _unpair_round(db: Path, form: Form, **kw: Any) -> Any:
    try:
        from goledger.commands import pairing  # type: ignore[attr-defined, unused-ignore]
    except ImportError:
        raise CommandRejected(say("this goledger has no pairing engine yet; unpair the tables one by one")) from None
    fields = decode(form, ft.UnpairRound)
    return pairing.unpair_round(db, fields.round_, fields.reason or kw["reason"], expected_head=kw["expected_head"])


def _absent_unchecked(db: Path, form: Form, **kw: Any) -> Any:
    """"Mark the others absent" on the round page (issue 46)."""
    from goledger import commands

    return commands.absent_unchecked(db, **arguments(decode(form, ft.RoundOnly)), **kw)


def _unit_add(db: Path, form: Form, **kw: Any) -> Any:
    """``unit add``: the name, the members ``member1`` … ``member3`` filled in, their sexes
    ``sex1`` … where the form has them (Pair Go)."""
    from goledger.commands.units import unit_add

    fields = decode(form, ft.UnitAdd)
    return unit_add(db, name=fields.name, members=fields.members, sexes=fields.sexes, **kw)


def _unit_remove(db: Path, form: Form, **kw: Any) -> Any:
    from goledger.commands.units import unit_remove

    return unit_remove(db, **arguments(decode(form, ft.UnitRemove)), **kw)


def _team_add(db: Path, form: Form, **kw: Any) -> Any:
    """``team add``: the name and short name."""
    from goledger.commands.teams import team_add

    return team_add(db, **arguments(decode(form, ft.TeamAdd)), **kw)


def _team_assign(db: Path, form: Form, **kw: Any) -> Any:
    """``team assign``: the team, the player (picked from the list by name: his id) and the
    board, for every round (or from the round given)."""
    from goledger.commands.teams import team_assign

    return team_assign(db, **arguments(decode(form, ft.TeamAssign)), **kw)


def _team_remove(db: Path, form: Form, **kw: Any) -> Any:
    """``team remove``: the team, or one player off its boards."""
    from goledger.commands.teams import team_remove

    return team_remove(db, **arguments(decode(form, ft.TeamRemove)), **kw)


_PLAYER_ACTIONS: dict[str, Runner] = {
    "withdraw": _withdraw, "reinstate": _reinstate, "absent": _player_round("absent", ft.PlayerAbsent),
    "present": _player_round("present"), "bye": _player_round("bye", ft.PlayerBye), "unbye": _player_round("unbye"),
}

def _refresh_ratings(db: Path, form: Form, **kw: Any) -> Any:
    from goledger.commands.refresh_ratings import refresh_ratings

    return refresh_ratings(db, **kw)


ACTIONS: dict[str, Action] = {
    "register": Action(_register),
    "bulk-register": Action(_bulk_register),
    "update-player": Action(_update_player),
    "refresh-ratings": Action(_refresh_ratings),
    "player": Action(_player_action),
    "pair": Action(_pair),
    "unpair": Action(_unpair, table_subject),
    "edit-game": Action(_edit_game, table_subject),
    "edit-games": Action(_edit_games, _games_subjects),
    **{name: Action(_constraint(name)) for name in ("forbid", "fix-pairing", "fix-table")},
    "renumber-tables": Action(_renumber_tables, lambda form: {("round", r)} if (r := number_or_none(form, "round"))
                              is not None else set()),
    "result": Action(_result, table_subject),
    "correct": Action(_correct, table_subject),
    "change-rules": Action(_change_rules, lambda form: {("rules",)}),
    "publish": Action(_publish),
    "pair-round": Action(_pair_round),
    "show-round": Action(_show_round),
    "unpair-round": Action(_unpair_round),
    "unit-add": Action(_unit_add),
    "absent-unchecked": Action(_absent_unchecked, lambda form: {("round", r)} if (r := number_or_none(form, "round"))
                               is not None else set()),
    "check-in": Action(_player_round("check_in")),
    "unit-remove": Action(_unit_remove),
    "team-add": Action(_team_add),
    "team-assign": Action(_team_assign),
    "team-remove": Action(_team_remove),
    "approve-reports": Action(_approve_reports, lambda form: {("round", r)} if (r := number_or_none(form, "round"))
                              is not None else set()),
    **{name: Action(runner) for name, runner in _PLAYER_ACTIONS.items()},
}
"""Form name (``POST /desk/do/NAME``) → action."""
