"""The desk's New tournament form (issue 43 item 1): every system of
:data:`goledger.systems.registry.SYSTEMS`, named in the page's language, with the options that
system asks for; dates, place, country, the thinking time with the EGD class it implies
(:func:`goledger.rating.classes.egf_class`, OpenGotha's rule), komi and the handicap rule. A
system whose round count follows from its entrants shows how it is computed instead of a
rounds field. The form's fields become the arguments of :func:`goledger.commands.new`
(:func:`new_arguments`), which checks every value; ``GET /desk/new/class`` answers the EGD
class of the time fields as they are typed (htmx)."""

from __future__ import annotations

from typing import Any, get_args, get_type_hints

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from goledger.errors import CommandRejected, GoledgerError
from goledger.i18n import gettext
from goledger.ledger.events import TimeSettings
from goledger.systems.registry import SYSTEMS, SystemEntry
from goledger.web import forms

__all__ = ["TIME_SYSTEMS", "egd_class_text", "form_context", "new_arguments", "new_tournament_routes"]

TIME_SYSTEMS: tuple[str, ...] = get_args(get_type_hints(TimeSettings)["system"])
"""The overtime systems ``TimeSettings.system`` knows (the form offers each, Canadian first)."""

_OPTION_FIELDS: dict[str, tuple[str, str]] = {
    # form field → (system option name, kind: flag / text / number)
    "third_place": ("third_place", "flag"),
    "reset": ("reset", "flag"),
    "method": ("method", "text"),
    "jigo": ("jigo", "text"),
    "seeding": ("seeding", "text"),
    "target": ("target", "text"),
    "max_games": ("max_games", "number"),
    "max_rank_difference": ("max_rank_difference", "number"),
    "cycles": ("cycles", "number"),
    "max_games_per_pair": ("max_games_per_pair", "number"),
    "ranking": ("ranking", "text"),
    "handicap_correction_stones": ("handicap_correction", "number"),
    "max_handicap": ("max_handicap", "number"),
    "handicap_komi": ("handicap_komi", "text"),
}
_GROUPS: dict[str, tuple[str, ...]] = {
    "handicap_stones": ("handicap_correction_stones", "max_handicap", "handicap_komi"),
}
"""A form field of the registry that stands for several inputs of the form."""


def chosen_system(name: str) -> SystemEntry:
    """The system named by the form (McMahon when none), refused in one sentence when unknown."""
    entry = SYSTEMS.get(name or "mcmahon")
    if entry is None:
        raise CommandRejected(f"unknown system {name!r}; choose one of the list")
    return entry


def time_of(form: forms.Form) -> TimeSettings | None:
    """The thinking time the form's fields give (``None`` when the overtime is "not known"),
    every number bounded before it is read."""
    system = forms.text(form, "time")
    if not system:
        return None
    if system not in TIME_SYSTEMS:
        raise CommandRejected(f"unknown overtime {system!r}; choose one of the list")
    main = forms.number(form, "main_time", "main time", signed=False, low=0, high=10000)
    seconds = forms.optional_number(form, "byo_yomi", "byo-yomi seconds", signed=False, low=0, high=36000)
    stones = forms.optional_number(form, "stones", "stones", signed=False, low=1, high=1000)
    fischer = forms.optional_number(form, "fischer", "Fischer increment", signed=False, low=0, high=3600)
    base = TimeSettings()
    return TimeSettings(basic_minutes=main, system=system,  # type: ignore[arg-type]
                        byo_yomi_seconds=seconds if seconds is not None and system == "byo-yomi"
                        else base.byo_yomi_seconds,
                        canadian_seconds=seconds if seconds is not None and system == "canadian"
                        else base.canadian_seconds,
                        canadian_stones=stones or base.canadian_stones,
                        fischer_seconds=fischer if fischer is not None else base.fischer_seconds)


def egd_class_text(time: TimeSettings | None) -> str:
    """The EGD class these settings imply, in one line ("class A: adjusted time 80 min")."""
    from goledger.rating.classes import adjusted_minutes, egf_class

    if time is None:
        return gettext("no EGD class: the thinking time is not known")
    found = egf_class(time)
    if found == "X":
        return gettext("no EGD class (adjusted time %(minutes)s min): too short for class C") % {
            "minutes": adjusted_minutes(time)}
    return gettext("EGD class %(cls)s (adjusted time %(minutes)s min)") % {"cls": found,
                                                                           "minutes": adjusted_minutes(time)}


def new_arguments(form: forms.Form) -> dict[str, Any]:
    """The keyword arguments of :func:`goledger.commands.new` from the form's fields: the
    system's own options by the names its options struct uses; numbers read as text first.
    ``commands.new`` checks every value (ranks, dates, komi, country, options)."""
    entry = chosen_system(forms.text(form, "system"))
    options: dict[str, Any] = {}
    for field in (name for f in entry.fields for name in _GROUPS.get(f, (f,))):
        if field in _OPTION_FIELDS:
            option, kind = _OPTION_FIELDS[field]
            if kind == "flag":
                options[option] = forms.flag(form, field)
            elif kind == "number":
                value = forms.optional_number(form, field, field.replace("_", " "), signed=False, high=1000)
                if value is not None:
                    options[option] = value
            elif forms.text(form, field):
                options[option] = forms.text(form, field)
    if "boards" in entry.fields:
        options["boards"] = forms.number(form, "boards", "boards", signed=False, low=1, high=20)
    rounds = None if entry.rounds_at_draw else forms.number(form, "rounds", "rounds", signed=False,
                                                             low=1, high=99)
    time = time_of(form)
    based_on = forms.text(form, "handicap_on")
    return {
        "name": forms.text(form, "name"), "rounds": rounds, "system": entry.name,
        "bar": forms.optional(form, "bar") if "bar_floor" in entry.fields else None,
        "floor": forms.optional(form, "floor") if "bar_floor" in entry.fields else None,
        "komi": forms.text(form, "komi") or "7.5", "location": forms.text(form, "location"),
        "begin_date": forms.text(form, "begin_date"), "end_date": forms.text(form, "end_date"),
        "options": options,
        "time": time.system if time else None, "main_time": time.basic_minutes if time else None,
        "byo_yomi": (time.byo_yomi_seconds if time.system == "byo-yomi" else time.canadian_seconds
                     if time.system == "canadian" else None) if time else None,
        "stones": time.canadian_stones if time and time.system == "canadian" else None,
        "fischer": time.fischer_seconds if time and time.system == "fischer" else None,
        "handicap_correction": forms.optional_number(form, "handicap_correction", "handicap correction",
                                                     signed=False, high=9),
        "handicap_ceiling": forms.optional_number(form, "handicap_ceiling", "handicap ceiling",
                                                  signed=False, high=9),
        "handicap_threshold": forms.optional(form, "handicap_threshold"),
        "handicap_on": based_on or None,
        "language": forms.optional(form, "language"), "country": forms.text(form, "country"),
    }


def form_context(system: str) -> dict[str, Any]:
    """What ``new.html`` shows for ``system``: the systems in words, the chosen one's entry,
    and the EGD class of the form's default time."""
    entry = chosen_system(system)
    default_time = TimeSettings(basic_minutes=60, system="canadian", canadian_stones=15, canadian_seconds=300)
    return {"systems": [(name, gettext(e.label)) for name, e in SYSTEMS.items()], "entry": entry,
            "entry_label": gettext(entry.label), "rounds_rule": gettext(entry.rounds_rule) if entry.rounds_rule else "",
            "egd_class": egd_class_text(default_time)}


def new_tournament_routes(pages: Any) -> list[Route]:
    """``GET /desk/new/class``: the EGD class line of the time fields (the New form asks as
    they change)."""

    async def egd_class(request: Request) -> Response:
        from markupsafe import escape
        from starlette.responses import HTMLResponse

        try:
            line = egd_class_text(time_of(request.query_params))
        except GoledgerError as exc:
            line = exc.message
        return HTMLResponse(str(escape(line)))

    return [Route("/desk/new/class", pages.director_only(egd_class))]
