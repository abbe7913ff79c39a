"""``goledger egd-check``: a thin shell over :func:`goledger.formats.egd.egd_check`."""

from __future__ import annotations

from goledger.cli.common import DbOption, JsonOption, default_db, echo, print_json
from goledger.cli.ratings import RatingsOption


def egd_check(
    db: DbOption = None,  # type: ignore[assignment]
    ratings: RatingsOption = None,
    as_json: JsonOption = False,
) -> None:
    """Check every player against the EGD list (PIN, name, grade, country, club, homonyms) and
    the class against the time settings: one line per thing the EGD would reject, with its fix."""
    from goledger.formats import egd

    result = egd.egd_check(db or default_db(), ratings)
    print_json(result.to_dict()) if as_json else echo(result.render())
