"""``goledger settings``: every setting with its value, its allowed values and its spec rule
(a thin shell over :func:`goledger.commands.settings.settings`)."""

from __future__ import annotations

from goledger.cli.common import DbOption, JsonOption, default_db, echo, print_json, render_text_table


def settings(
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """List every tournament setting and rule-policy field: value, allowed values, spec rule
    (each is settable with `goledger change-rules NAME=VALUE`; * marks a policy override)."""
    import msgspec

    from goledger.commands import settings as catalogue

    values = catalogue.settings(db or default_db())
    if as_json:
        print_json(msgspec.to_builtins(values))
        return
    echo(render_text_table(["Setting", "Value", "Allowed values", "Spec"], catalogue.describe(values)))
