"""The recording commands by their CLI names: ``goledger.commands.record.<name>(db, …)``.

Each command is a pure decider (``decide_<command>(state, …) -> list[Event]``, refusing with
:class:`~goledger.errors.CommandRejected` and one sentence) in the module of its job, and a
thin wrapper with the CLI command's name and arguments (``update_player`` is ``goledger
update-player``) that hands the decider to :func:`goledger.commands.recording.record`: one
transaction under the write lock, the folded state, the declared domains, the envelope.

* :mod:`~goledger.commands.creation` — ``new``
* :mod:`~goledger.commands.players` — ``register``, ``update_player``
* :mod:`~goledger.commands.withdrawals` — ``withdraw``, ``reinstate``
* :mod:`~goledger.commands.absences` — ``absent``, ``present``, ``bye``, ``unbye``
* :mod:`~goledger.commands.hand` — ``pair`` (and the other hand edits)
* :mod:`~goledger.commands.results` — ``result``, ``correct``, ``unpair``
* :mod:`~goledger.commands.rules` — ``change_rules``
* :mod:`~goledger.commands.reading` — ``log``, ``verify``, ``repair_report`` (no writes)

Player references (``player``, ``white``, ``black``) accept the ledger id (``p0007``), an
EGD PIN, or a unique name (``"Surname First"``, ``"Surname, First"`` or a unique surname).

Common keyword arguments: ``db`` (path of the ledger file), ``actor`` and ``reason`` (kept in
the envelope), ``expected_head`` (the sequence number the caller last saw: a moved head is
refused unless ``retry``).
"""

from __future__ import annotations

from goledger.commands.absences import absent, bye, present, unbye
from goledger.commands.creation import new
from goledger.commands.hand import pair
from goledger.commands.players import decide_register, register, update_player
from goledger.commands.reading import log, repair_report, verify
from goledger.commands.recording import Outcome, PathLike
from goledger.commands.results import correct, result, unpair
from goledger.commands.rules import change_rules
from goledger.commands.withdrawals import reinstate, withdraw
from goledger.replay.fold.players import find_player

__all__ = [
    "Outcome",
    "PathLike",
    "absent",
    "bye",
    "change_rules",
    "correct",
    "decide_register",
    "find_player",
    "log",
    "new",
    "pair",
    "present",
    "register",
    "reinstate",
    "repair_report",
    "result",
    "unbye",
    "unpair",
    "update_player",
    "verify",
    "withdraw",
]

