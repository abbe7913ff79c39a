"""Settings written as ``KEY=VALUE`` words → the ``changes`` of
:func:`~goledger.commands.change_rules` (``goledger change-rules`` and the desk's
settings page read them alike)."""

from __future__ import annotations

import json

from goledger.errors import CommandRejected

__all__ = ["parse_settings", "settings_words"]


def parse_settings(texts: list[str]) -> dict[str, object]:
    """``KEY=VALUE`` words to the ``changes`` of :func:`~goledger.commands.change_rules`:
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


def settings_words(changes: dict[str, object]) -> list[str]:
    """The ``KEY=VALUE`` words of ``changes``, as :func:`parse_settings` reads them back (a
    text as written, a list comma-separated, anything else JSON): what the desk's settings
    form records is the very change ``goledger change-rules`` takes in these words.

    >>> words = settings_words({"mm_bar": "2d", "criteria": ["MMS", "SOSM"], "nbw2_bye": 1, "withdrawn": "zero",
    ...                          "handicap": {"ceiling": 0}})
    >>> words
    ['mm_bar=2d', 'criteria=MMS,SOSM', 'nbw2_bye=1', 'withdrawn=zero', 'handicap={"ceiling":0}']
    >>> parse_settings(words)
    {'mm_bar': '2d', 'criteria': ['MMS', 'SOSM'], 'nbw2_bye': 1, 'withdrawn': 'zero', 'handicap': {'ceiling': 0}}
    """
    import msgspec.inspect

    from goledger.ledger import events as ev

    info = msgspec.inspect.type_info(ev.TournamentSettings)
    assert isinstance(info, msgspec.inspect.StructType)
    kinds = {f.name: f.type for f in info.fields}
    words: list[str] = []
    for key, value in changes.items():
        kind = kinds.get(key)
        if isinstance(value, str) and (isinstance(kind, msgspec.inspect.StrType) or not _reads_as_json(value)):
            words.append(f"{key}={value}")
        elif (isinstance(kind, msgspec.inspect.VarTupleType) and isinstance(value, (list, tuple))
              and all(isinstance(v, str) and v and "," not in v and v == v.strip() for v in value) and value
              and not str(value[0]).startswith("[")):
            words.append(f"{key}={','.join(str(v) for v in value)}")
        else:
            words.append(f"{key}={json.dumps(value, ensure_ascii=False, separators=(',', ':'))}")
    return words


def _reads_as_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True
