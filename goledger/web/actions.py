"""The desk's writing forms → the same library functions as the CLI (issue 17: no second
code path for any rule; issue 48, item 2: one command table).

:data:`ACTIONS` is derived, not kept: its names and library functions are the table's
(:func:`goledger.commands.table.desk_actions`), each action's form type is the one naming it
(:func:`goledger.web.form_types.form_of`). An :class:`Action` decodes its form once into its
type (the command's keyword arguments, read by one rule, a bad field refused in one sentence)
and calls the table's library function with them and the form's ``expected_head`` and
``retry``; the command validates and refuses with its own sentence. The few forms that need
more than decode and call have a runner of their own here (:func:`_runs`), each saying why;
what a form's writing touches (:attr:`Action.subjects`, for the stale-head retry) is kept
beside them.

>>> sorted(ACTIONS)[:4]
['absent', 'absent-unchecked', 'approve-reports', 'bulk-register']
>>> ACTIONS["unpair"].function, ACTIONS["unpair"].form.__name__, ACTIONS["unpair"].special is None
('results.unpair', 'Unpair', True)
>>> parse_entry("12 w"), parse_entry("3=!"), parse_entry("7 both-lose")
((12, 'w', False), (3, '=', True), (7, 'both-lose', False))
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

from goledger.commands import table as command_table
from goledger.errors import CommandRejected, GoledgerError
from goledger.i18n import current_language, gettext, ngettext
from goledger.i18n.messages import nsay, say
from goledger.web import form_types as ft
from goledger.web.form_types import arguments, decode, form_of
from goledger.web.forms import number_or_none, whole
from goledger.web.forms import text as _text

__all__ = ["ACTIONS", "Action", "CorrectionOffered", "library_function", "parse_entry", "table_subject"]

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


Subjects = Callable[[Form], set[tuple[Any, ...]]]


def _nothing(form: Form) -> set[tuple[Any, ...]]:
    """No subject the form alone names."""
    return set()


def library_function(path: str) -> Runner:
    """The library function the table names as ``module.function`` of :mod:`goledger.commands`:
    the package's lazy name when it lends the name (the very function), else from its module
    (``publish.publish``: a module's name the package cannot lend).

    >>> from goledger import commands
    >>> library_function("results.result") is commands.result
    True
    """
    home, name = path.split(".")
    if name in command_table.library_names():
        from goledger import commands

        found: Runner = getattr(commands, name)
        return found
    found = getattr(import_module(f"goledger.commands.{home}"), name)
    return found


@dataclass(frozen=True)
class Action:
    """A writing form of the desk, ``POST /desk/do/NAME``: ``run(db, form, actor=…,
    expected_head=…, retry=…)`` → the command's outcome.

    ``function`` is the table's library function (``module.function``, ``""``: none), ``form``
    the form's type; ``special`` a runner of its own for a form that needs more than decoding and
    calling it, called with the action; ``subjects(form)`` what it touches, when the form alone
    says so (a stale head whose events since touch it is not offered a retry)."""

    name: str
    function: str
    form: type[ft.DeskForm]
    special: Runner | None = None
    subjects: Subjects = _nothing

    def library(self) -> Runner:
        """The library function the table names for this action."""
        if not self.function:
            raise LookupError(f"the desk action {self.name!r} calls no one library function")
        return library_function(self.function)

    def run(self, db: Path, form: Form, **kw: Any) -> Any:
        """The form decoded as :attr:`form`, the table's function called with its keyword
        arguments and ``kw`` (the plumbing); a special action's own runner instead."""
        if self.special is not None:
            return self.special(self, db, form, **kw)
        return self.library()(db, **decode(form, self.form).keywords(), **kw)


_SPECIAL: dict[str, Runner] = {}
"""The runners of the forms that need more than decode and call, by action (:func:`_runs`)."""


def _runs(name: str) -> Callable[[Runner], Runner]:
    """Make the decorated function the runner of the desk action ``name``."""
    def register(runner: Runner) -> Runner:
        _SPECIAL[name] = runner
        return runner

    return register


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


@_runs("bulk-register")
def _bulk_register(action: Action, db: Path, form: Form, *, actor: str, reason: str, expected_head: int | None,
                   retry: bool) -> Any:
    """Special: the pasted list, one player a line (``surname|first name|rank|country|club|rating|EGD
    PIN``; tab-separated lines from a spreadsheet are read with tabs as ``|``), registered by
    :func:`goledger.formats.macmahon.players.import_macmahon_players` in one transaction, its
    report counted in the desk's words."""
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


@_runs("withdraw")
def _withdraw(action: Action, db: Path, form: Form, *, reason: str, **kw: Any) -> Any:
    """Special: :func:`goledger.commands.withdraw`'s decision, confirmed in the desk's words;
    the reason typed, else the desk's."""
    from goledger.commands.recording import record
    from goledger.commands.withdrawals import decide_withdraw, desk_withdraw_message

    fields = decode(form, ft.Withdraw)
    why = fields.reason or reason
    return record(db, lambda state: decide_withdraw(state, fields.player, fields.from_round, why),
                  desk_withdraw_message, reason=why, **kw)


@_runs("player")
def _player_action(action: Action, db: Path, form: Form, **kw: Any) -> Any:
    """Special: one form for a player in a round, whose ``what`` names the action it runs
    (:data:`goledger.commands.table.PLAYER_FORM`: withdraw, reinstate, absent, present, bye or
    unbye)."""
    what = decode(form, ft.PlayerAction).what
    if what not in command_table.PLAYER_FORM:
        raise CommandRejected(say("%(what)r is not a player action of the desk", what=what))
    return ACTIONS[what].run(db, form, **kw)


@_runs("edit-games")
def _edit_games(action: Action, db: Path, form: Form, **kw: Any) -> Any:
    """Special: the games selected in the round's table, several edits in one transaction
    (:func:`goledger.web.hand_edits.edit_games_action`)."""
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


def _round_subject(form: Form) -> set[tuple[Any, ...]]:
    """The ``("round", round)`` the form names (empty when none)."""
    return {("round", r)} if (r := number_or_none(form, "round")) is not None else set()


def _rules_subject(form: Form) -> set[tuple[Any, ...]]:
    """The tournament's rules."""
    return {("rules",)}


@_runs("result")
def _result(action: Action, db: Path, form: Form, **kw: Any) -> Any:
    """Special: the keyboard entry ``TABLE RESULT[!]`` (:func:`parse_entry`) or the form's fields
    (:class:`~goledger.web.form_types.ResultForm`), a letter the page's language reads otherwise
    refused, and a table that has a result answered with the correction form."""
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
        return action.library()(db, round=round_, table=table, result=word, by_default=by_default, **kw)
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


@_runs("correct")
def _correct(action: Action, db: Path, form: Form, *, reason: str, **kw: Any) -> Any:
    """Special: a letter the page's language reads otherwise refused; the reason typed, else the
    desk's."""
    fields = decode(form, ft.Correct)
    _check_letter(fields.result)
    return action.library()(db, **arguments(fields, without=("reason",)), reason=fields.reason or reason, **kw)


@_runs("change-rules")
def _change_rules(action: Action, db: Path, form: Form, **kw: Any) -> Any:
    """Special: the ``KEY=VALUE`` lines read as the command line reads them
    (:func:`goledger.commands.settings_text.parse_settings`); none refused."""
    from goledger.commands.settings_text import parse_settings

    fields = decode(form, ft.ChangeRules)
    words = [line.strip() for line in fields.settings.splitlines() if line.strip()]
    if not words:
        raise CommandRejected(say("write the settings to change, one KEY=VALUE a line (e.g. policy=egf)"))
    return action.library()(db, parse_settings(words), from_round=fields.from_round, **kw)


class ConfirmPairing(CommandRejected):
    """The desk's "Pair round R" on a round that already has games: asked first (issue 43.4)."""

    code = "confirm"


@_runs("pair-round")
def _pair_round(action: Action, db: Path, form: Form, **kw: Any) -> Any:
    """Special: ``pair-round R`` (:func:`goledger.commands.pairing.pair_round`) with the form's
    ``engine`` (empty: the system's) and ``force`` (an out-of-order round). A round that
    already has games or byes is paired only with ``confirm``: else the desk asks first,
    saying how many games it has and how many players are still to pair (none: refused)."""
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
    return action.library()(db, **arguments(fields, without=("confirm",)), expected_head=kw.pop("expected_head"),
                            actor=kw.pop("actor"), reason=kw.pop("reason"))


@_runs("unpair-round")
def _unpair_round(action: Action, db: Path, form: Form, **kw: Any) -> Any:
    """Special: :func:`goledger.commands.pairing.unpair_round` takes the reason (the one typed,
    else the desk's) as an argument, and no ``retry``; the actor is the desk's, as for every action."""
    fields = decode(form, ft.UnpairRound)
    return action.library()(db, fields.round_, fields.reason or kw["reason"], expected_head=kw["expected_head"],
                            actor=kw["actor"])


_SUBJECTS: dict[str, Subjects] = {
    "unpair": table_subject, "edit-game": table_subject, "edit-games": _games_subjects, "result": table_subject,
    "correct": table_subject, "renumber-tables": _round_subject, "absent-unchecked": _round_subject,
    "approve-reports": _round_subject, "change-rules": _rules_subject,
}
"""What each action touches, where the form says so (the others: nothing it alone names)."""


def _actions() -> dict[str, Action]:
    """Every action of the table (:func:`goledger.commands.table.desk_actions`), with its form
    type, its special runner if it has one, and its subjects."""
    forms = form_of()
    return {name: Action(name, function, forms[name], _SPECIAL.get(name), _SUBJECTS.get(name, _nothing))
            for name, function in command_table.desk_actions().items()}


ACTIONS: dict[str, Action] = _actions()
"""Form name (``POST /desk/do/NAME``) → action, derived from the table of commands."""
