"""``goledger rating-preview``: a thin shell over :func:`goledger.rating.preview.rating_preview`
(same name, same arguments)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from goledger.cli.common import (
    DbOption,
    JsonOption,
    LanguageOption,
    default_db,
    echo,
    fail,
    output_language,
    print_json,
)


def rating_preview(
    egd_class: Annotated[str | None, typer.Option("--class", help="EGF class A, B, C or D (default: computed "
                                                                   "from the time settings).")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", help="A gor-2021 option NAME=VALUE (weight_on=change|con, loss_cap=N|none, "
                         "grade_reset=true|false, rounding=output|game); repeatable.")] = None,
    system: Annotated[str, typer.Option("--system", help="gor-2021 (the EGD's) or mge (Hungarian rules; needs "
                                                         "--parameters).")] = "gor-2021",
    parameters: Annotated[Path | None, typer.Option(
        "--parameters", help="mge: JSON with lower_limits, game_points and constant (not in the seed).")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="table, json, csv or html.")] = "table",
    language: LanguageOption = None,
    db: DbOption = None,  # type: ignore[assignment]
    as_json: JsonOption = False,
) -> None:
    """Every player's EGD rating (GoR 2021) after the tournament: rating before, each rated
    game's change, the total and the rating after; games the EGD does not rate, with why.
    With --system mge, the Hungarian federation's rules under the given parameters."""
    from goledger.rating.preview import rating_preview as preview

    options: dict[str, str] = {}
    for text in option or []:
        name, sep, value = text.partition("=")
        if not sep:
            fail(f"--option takes NAME=VALUE, not {text!r}", 2)
        options[name.strip()] = value.strip()
    if as_json:
        fmt = "json"
    if fmt not in ("table", "json", "csv", "html"):
        fail(f"unknown format {fmt!r}; use table, json, csv or html", 2)
    with output_language(db, language, fmt != "html"):  # the page in the tournament's language
        _show(preview, db, egd_class, options, system, parameters, fmt)


def _show(preview: Any, db: Path | None, egd_class: str | None, options: dict[str, str], system: str,
          parameters: Path | None, fmt: str) -> None:
    """Compute the preview and print it as ``fmt`` (in the language written in)."""
    from goledger.i18n import gettext

    result = preview(db or default_db(), egd_class, options, system, parameters)
    if fmt == "json":
        print_json(result.to_dict())
        return
    from goledger.rating.preview import RatingPreview
    from goledger.render import rating as render

    if not isinstance(result, RatingPreview):
        if fmt != "table":
            fail("an mge preview prints as a table or as JSON", 2)
        echo(render.mge_text(result))
        return

    if fmt == "csv":
        sys.stdout.write(render.preview_csv(result))
    elif fmt == "html":
        sys.stdout.buffer.write(render.preview_html(result, gettext("Rating preview")))
        sys.stdout.flush()
    else:
        echo(render.preview_text(result))
