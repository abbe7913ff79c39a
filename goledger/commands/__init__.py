"""The recording commands: a director's intent → validated events (DESIGN §1, "commands").

Each command folds the ledger, checks the intent against the tournament as it stands and
either appends its events in one transaction or refuses with one sentence
(:class:`~goledger.errors.CommandRejected`) and writes nothing. The CLI's recording
commands are thin shells over these functions, with the same names and arguments.

Player references (``player``, ``white``, ``black``) accept the ledger id (``p0007``), an
EGD PIN, or a unique name (``"Surname First"``, ``"Surname, First"`` or a unique surname).
Common keyword arguments: ``db`` (path of the ledger file), ``actor`` and ``reason`` (kept in
the envelope), ``expected_head`` (the sequence number the caller last saw) and ``retry``
(see :func:`goledger.commands.recording.record`).

>>> from goledger import commands
>>> callable(commands.register) and callable(commands.result)
True
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any, Final

_HOMES: Final[dict[str, str]] = {
    **dict.fromkeys(("fix_pairing", "fix_table", "forbid"), "constraints"),
    **dict.fromkeys(("edit_game", "pair", "renumber_tables"), "hand"),
    **dict.fromkeys(("PairRoundOutcome", "check_pairings", "explain_pairing", "pair_round", "unpair_round"), "pairing"),
    **dict.fromkeys(("absent", "bye", "present", "unbye"), "absences"),
    "new": "creation",
    **dict.fromkeys(("register", "update_player"), "players"),
    **dict.fromkeys(("log", "repair_report", "verify"), "reading"),
    "Outcome": "recording",
    **dict.fromkeys(("correct", "result", "unpair"), "results"),
    "change_rules": "rules",
    **dict.fromkeys(("reinstate", "withdraw"), "withdrawals"),
    "find_player": "players",
    "unregister": "unregistration",
    **dict.fromkeys(("freeze", "unfreeze"), "freezing"),
    **dict.fromkeys(("absent_unchecked", "check_in"), "checking_in"),
    **dict.fromkeys(("approve_reports", "report_result"), "player_reports"),
}
"""Each command's module: the package imports one when one of its names is first asked for
(PEP 562), so a run of ``goledger result`` imports the results' deciders, not every command's
(nor the pairing engines). No module is named as a command: importing it would bind the
module, not the command, to the package's name (``unregister`` lives in ``unregistration``)."""

__all__ = [  # noqa: RUF022 (in the order of _HOMES)
    "fix_pairing", "fix_table", "forbid", "edit_game", "pair", "renumber_tables", "PairRoundOutcome",
    "check_pairings", "explain_pairing", "pair_round", "unpair_round", "absent", "bye", "present", "unbye", "new",
    "register", "update_player", "log", "repair_report", "verify", "Outcome", "correct", "result", "unpair",
    "change_rules", "reinstate", "withdraw", "find_player", "unregister", "freeze", "unfreeze",
    "absent_unchecked", "check_in",
    "approve_reports", "report_result",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"goledger.commands.{home}"), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from goledger.commands.absences import absent, bye, present, unbye
    from goledger.commands.checking_in import absent_unchecked, check_in
    from goledger.commands.constraints import fix_pairing, fix_table, forbid
    from goledger.commands.creation import new
    from goledger.commands.freezing import freeze, unfreeze
    from goledger.commands.hand import edit_game, pair, renumber_tables
    from goledger.commands.pairing import PairRoundOutcome, check_pairings, explain_pairing, pair_round, unpair_round
    from goledger.commands.player_reports import approve_reports, report_result
    from goledger.commands.players import find_player, register, update_player
    from goledger.commands.reading import log, repair_report, verify
    from goledger.commands.recording import Outcome
    from goledger.commands.results import correct, result, unpair
    from goledger.commands.rules import change_rules
    from goledger.commands.unregistration import unregister
    from goledger.commands.withdrawals import reinstate, withdraw
