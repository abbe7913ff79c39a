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
from typing import TYPE_CHECKING, Any

from goledger.commands.table import library_names

__all__ = list(library_names())
"""Each name the package lends: every command with a library function here, by its Python name,
and a few names no command line types (:func:`goledger.commands.table.library_names`). The
package imports a name's module when the name is first asked for (PEP 562), so a run of
``goledger result`` imports the results' deciders, not every command's (nor the pairing
engines). No module is named as a command: importing it would bind the module, not the
command, to the package's name (``unregister`` lives in ``unregistration``)."""


def __getattr__(name: str) -> Any:
    home = library_names().get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"goledger.commands.{home}"), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:  # what static tools read; tests/commands/test_table.py checks it names the table's names
    from goledger.commands.absences import absent as absent
    from goledger.commands.absences import bye as bye
    from goledger.commands.absences import present as present
    from goledger.commands.absences import unbye as unbye
    from goledger.commands.checking_in import absent_unchecked as absent_unchecked
    from goledger.commands.checking_in import check_in as check_in
    from goledger.commands.constraints import fix_pairing as fix_pairing
    from goledger.commands.constraints import fix_table as fix_table
    from goledger.commands.constraints import forbid as forbid
    from goledger.commands.creation import new as new
    from goledger.commands.freezing import freeze as freeze
    from goledger.commands.freezing import unfreeze as unfreeze
    from goledger.commands.hand import edit_game as edit_game
    from goledger.commands.hand import pair as pair
    from goledger.commands.hand import renumber_tables as renumber_tables
    from goledger.commands.pairing import PairRoundOutcome as PairRoundOutcome
    from goledger.commands.pairing import check_pairings as check_pairings
    from goledger.commands.pairing import explain_pairing as explain_pairing
    from goledger.commands.pairing import pair_round as pair_round
    from goledger.commands.pairing import unpair_round as unpair_round
    from goledger.commands.player_reports import approve_reports as approve_reports
    from goledger.commands.player_reports import report_result as report_result
    from goledger.commands.players import find_player as find_player
    from goledger.commands.players import register as register
    from goledger.commands.players import update_player as update_player
    from goledger.commands.reading import log as log
    from goledger.commands.reading import repair_report as repair_report
    from goledger.commands.reading import verify as verify
    from goledger.commands.recording import Outcome as Outcome
    from goledger.commands.results import correct as correct
    from goledger.commands.results import result as result
    from goledger.commands.results import unpair as unpair
    from goledger.commands.rules import change_rules as change_rules
    from goledger.commands.unregistration import unregister as unregister
    from goledger.commands.withdrawals import reinstate as reinstate
    from goledger.commands.withdrawals import withdraw as withdraw
