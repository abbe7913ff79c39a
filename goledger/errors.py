"""Errors that reach the user as one clear sentence (CLI exit code 1).

Every refusal in goledger raises a :class:`GoledgerError` whose message names the problem;
the CLI prints it on stderr and exits with status 1. Nothing is written when one is raised.
"""

from __future__ import annotations

__all__ = ["CommandRejected", "FormatError", "GoledgerError", "LedgerError", "StaleHeadError"]


class GoledgerError(Exception):
    """Base class: an expected failure with a message meant for the user."""

    exit_code = 1

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else self.__class__.__name__


class CommandRejected(GoledgerError):
    """A command that does not fit the tournament as it stands (unknown player, bad round…)."""


class LedgerError(GoledgerError):
    """The ledger file is missing, damaged, foreign, newer, or cannot be locked."""


class StaleHeadError(LedgerError):
    """The caller's expected head is not the ledger's head any more."""


class FormatError(GoledgerError):
    """An input file that cannot be read as the format it claims to be."""
