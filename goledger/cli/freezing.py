"""``goledger freeze`` and ``goledger unfreeze``: thin shells over
:mod:`goledger.commands.freezing` (same names, same arguments)."""

from __future__ import annotations

from typing import Unpack

from goledger.cli.common import Common, ReasonOption, recorded, shared_options


@shared_options()
def freeze(reason: ReasonOption = "", **shared: Unpack[Common]) -> None:
    """Freeze the standings after the last round: names, clubs and PINs can still be corrected,
    nothing that would change a standing is recorded until unfreeze."""
    from goledger.commands.freezing import freeze as freeze_command

    recorded(freeze_command, reason, **shared)


@shared_options()
def unfreeze(reason: ReasonOption = "", **shared: Unpack[Common]) -> None:
    """Unfreeze the standings (say why with --reason)."""
    from goledger.commands.freezing import unfreeze as unfreeze_command

    recorded(unfreeze_command, reason, **shared)
