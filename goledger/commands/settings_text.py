"""Settings written as ``KEY=VALUE`` words → the ``changes`` of
:func:`~goledger.commands.record.change_rules` (``goledger change-rules`` and the desk's
settings page read them alike)."""

from __future__ import annotations

import json

from goledger.errors import CommandRejected

__all__ = ["parse_settings"]


def parse_settings(texts: list[str]) -> dict[str, object]:
    """``KEY=VALUE`` words to the ``changes`` of :func:`~goledger.commands.record.change_rules`:
    a text field keeps the text as written, a list field takes a comma-separated list, and any
    other field reads JSON (numbers, ``true``/``false``, objects); what is not JSON stays text,
    for ``change_rules`` to judge. A word without ``=`` is refused (:class:`CommandRejected`).

    >>> parse_settings(["policy=egf", "criteria=MMS, SOSM", "mms2_absent=0", "komi=6.5"])
    {'policy': 'egf', 'criteria': ['MMS', 'SOSM'], 'mms2_absent': 0, 'komi': '6.5'}
    """
    import msgspec.inspect

    from goledger.ledger import events as ev

    info = msgspec.inspect.type_info(ev.TournamentSettings)
    assert isinstance(info, msgspec.inspect.StructType)
    kinds = {f.name: f.type for f in info.fields}
    changes: dict[str, object] = {}
    for text in texts:
        key, sep, raw = text.partition("=")
        key = key.strip()
        if not sep or not key:
            raise CommandRejected(f"{text!r}: write each setting as KEY=VALUE, e.g. policy=egf")
        kind = kinds.get(key)
        if isinstance(kind, msgspec.inspect.StrType):
            changes[key] = raw
        elif isinstance(kind, msgspec.inspect.VarTupleType) and not raw.lstrip().startswith("["):
            changes[key] = [item.strip() for item in raw.split(",") if item.strip()]
        else:
            try:
                changes[key] = json.loads(raw)
            except (ValueError, RecursionError):  # RecursionError: nested thousands of levels deep
                changes[key] = raw
    return changes
