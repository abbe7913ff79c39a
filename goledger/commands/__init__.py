"""The recording commands: a director's intent → validated events (DESIGN §1, "commands").

Each command folds the ledger, checks the intent against the tournament as it stands and
either appends its events in one transaction or refuses with one sentence
(:class:`~goledger.errors.CommandRejected`) and writes nothing. The CLI's recording
commands are thin shells over these functions, with the same names and arguments.

>>> from goledger import commands
>>> callable(commands.register) and callable(commands.result)
True
"""

from goledger.commands.constraints import fix_pairing, fix_table, forbid
from goledger.commands.hand import edit_game, pair, renumber_tables
from goledger.commands.pairing import (
    PairRoundOutcome,
    check_pairings,
    explain_pairing,
    pair_round,
    unpair_round,
)
from goledger.commands.record import (
    Outcome,
    absent,
    bye,
    change_rules,
    correct,
    find_player,
    log,
    new,
    present,
    register,
    reinstate,
    repair_report,
    result,
    unbye,
    unpair,
    update_player,
    verify,
    withdraw,
)
from goledger.commands.unregister import unregister

__all__ = [
    "Outcome",
    "PairRoundOutcome",
    "absent",
    "bye",
    "change_rules",
    "check_pairings",
    "correct",
    "edit_game",
    "explain_pairing",
    "find_player",
    "fix_pairing",
    "fix_table",
    "forbid",
    "log",
    "new",
    "pair",
    "pair_round",
    "present",
    "register",
    "reinstate",
    "renumber_tables",
    "repair_report",
    "result",
    "unbye",
    "unpair",
    "unpair_round",
    "unregister",
    "update_player",
    "verify",
    "withdraw",
]
