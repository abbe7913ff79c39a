"""The desk's settings page as a form (issue 43, item 2): ``GET /desk/settings``
(``&format=json``: the rules in force, the preview and the ``KEY=VALUE`` words as data; a
refusal as ``{"error": SENTENCE}`` with 400).

The form shows the rules in force with typed inputs: the placement criteria picked and ordered
from OpenGotha's list (each with its meaning), the McMahon bar and floor, the handicap rule,
the bye and absence values, the withdrawn-player policy and OpenGotha's pairing parameters as
its own dialog shows them. Submitting it (``GET /desk/settings?preview=1&…``, a read) turns the
fields that differ from the rules in force into ``change-rules`` changes
(:func:`form_changes`) and shows their preview
(:func:`goledger.commands.rules_preview.preview_change_rules`: who changes place, which
round's pairing is affected); a refusal is its one sentence in the page. "Record" posts the
same changes, in ``change-rules``'s ``KEY=VALUE`` words
(:func:`goledger.commands.settings_text.settings_words`), to ``/desk/do/change-rules`` with
the head the preview was computed at: what is recorded is what was previewed, or the write is
refused as stale. The raw ``KEY=VALUE`` box stays under "Advanced".

The handicap rule and the pairing parameters shown are the ones the ``opengotha`` engine (and
hand pairing's rule) reads: OpenGotha's defaults for the system while the tournament has none
of its own. Once one of them is changed, both sets are written whole, so every other value in
force stays as it was.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from goledger.errors import CommandRejected, GoledgerError
from goledger.i18n import N_, gettext
from goledger.replay.fold.state import TournamentState
from goledger.web.forms import Form, flag, optional_number, text, whole
from goledger.web.routing import Pages, json_response

__all__ = ["CRITERIA_SLOTS", "PAIRING_FIELDS", "RANKS", "current_values", "form_changes", "settings_routes"]

RANKS: tuple[str, ...] = (*(f"{k}k" for k in range(30, 0, -1)), *(f"{d}d" for d in range(1, 10)))
"""The ranks a rank select offers, weakest first."""
CRITERIA_SLOTS = 6
"""How many criteria the form lets a director order (OpenGotha's dialog has six)."""

PAIRING_FIELDS: tuple[tuple[str, str, str, str], ...] = (
    ("base", "paiBaAvoidDuplGame", "weight", N_("Avoid pairing the same players twice")),
    ("base", "paiBaRandom", "weight", N_("Random")),
    ("base", "paiBaDeterministic", "flag", N_("Deterministic (the same pairing every time)")),
    ("base", "paiBaBalanceWB", "weight", N_("Balance white and black")),
    ("main", "paiMaAvoidMixingCategories", "weight", N_("Avoid mixing categories")),
    ("main", "paiMaMinimizeScoreDifference", "weight", N_("Minimise the score difference")),
    ("main", "paiMaDUDDWeight", "weight", N_("Draw-up/draw-down")),
    ("main", "paiMaDUDDUpperMode", "mode", N_("Draw-up: the player drawn from the upper group")),
    ("main", "paiMaDUDDLowerMode", "mode", N_("Draw-down: the player drawn from the lower group")),
    ("main", "paiMaCompensateDUDD", "flag", N_("Compensate an earlier draw-up or draw-down")),
    ("main", "paiMaMaximizeSeeding", "weight", N_("Seeding")),
    ("main", "paiMaLastRoundForSeedSystem1", "round", N_("Last round of the first seeding system")),
    ("main", "paiMaSeedSystem1", "seed", N_("First seeding system")),
    ("main", "paiMaSeedSystem2", "seed", N_("Second seeding system")),
    ("main", "paiMaAdditionalPlacementCritSystem1", "crit", N_("Additional criterion, first system")),
    ("main", "paiMaAdditionalPlacementCritSystem2", "crit", N_("Additional criterion, second system")),
    ("secondary", "paiSeRankThreshold", "rank", N_("Secondary criteria below this rank only")),
    ("secondary", "paiSeNbWinsThresholdActive", "flag", N_("… and only below half the rounds won")),
    ("secondary", "paiSeBarThresholdActive", "flag", N_("… and only below the McMahon bar")),
    ("secondary", "paiSeDefSecCrit", "weight", N_("Secondary criteria's weight")),
    ("secondary", "paiSeMinimizeHandicap", "weight", N_("Minimise the handicap")),
    ("secondary", "paiSeAvoidSameGeo", "weight", N_("Avoid pairing players of the same country or club")),
    ("secondary", "paiSePreferMMSDiffRatherThanSameCountry", "small",
     N_("Prefer a score difference of up to this rather than the same country")),
    ("secondary", "paiSePreferMMSDiffRatherThanSameClub", "small",
     N_("Prefer a score difference of up to this rather than the same club")),
)
"""OpenGotha's pairing parameters as its dialog groups them (base, main, secondary criteria):
the group, OpenGotha's name, the kind of input (``weight`` a whole number 0..10¹⁸, ``flag`` a
check box, ``mode`` TOP/MID/BOT, ``seed`` a seeding system, ``crit`` an additional criterion,
``rank``, ``round`` a round number 1..99, ``small`` 0..99) and its label."""

SEED_SYSTEMS = (("SPLITANDRANDOM", N_("split and random")), ("SPLITANDFOLD", N_("split and fold")),
                ("SPLITANDSLIP", N_("split and slip")))
DUDD_MODES = (("TOP", N_("the top of the group")), ("MID", N_("the middle of the group")),
              ("BOT", N_("the bottom of the group")))
ADDITIONAL_CRITERIA = (("NULL", N_("none")), ("Rating", N_("rating")), ("Rank", N_("declared rank")))
POINTS = (0, 1, 2)
"""A bye's or an absence's value in half points (0, ½, 1)."""
_SCORES = ("nbw2_bye", "mms2_bye", "nbw2_absent", "mms2_absent")


def current_values(state: TournamentState) -> dict[str, Any]:
    """Every field of the form with the value in force
    (:func:`goledger.commands.settings_form.rules_in_force`): the form's names → values."""
    from goledger.commands.settings_form import rules_in_force

    rules = rules_in_force(state)
    values: dict[str, Any] = {f"criterion{i + 1}": (rules.criteria[i] if i < len(rules.criteria) else "")
                              for i in range(max(CRITERIA_SLOTS, len(rules.criteria)))}
    values.update(mm_bar=rules.mm_bar, mm_floor=rules.mm_floor, mm_super_group=rules.mm_super_group,
                  withdrawn=rules.withdrawn, hd_based_on="mms" if rules.handicap["based_on_mms"] else "rank",
                  hd_threshold=rules.handicap["no_handicap_threshold"], hd_correction=rules.handicap["correction"],
                  hd_ceiling=rules.handicap["ceiling"])
    values.update({name: getattr(rules, name) for name in _SCORES})
    for _, name, kind, _ in PAIRING_FIELDS:
        raw = rules.pairing.get(name, "")
        values[name] = raw.lower() == "true" if kind == "flag" else raw.lower() if kind == "rank" else raw
    return values


def _choice(form: Form, name: str, allowed: tuple[str, ...], label: str) -> str:
    value = text(form, name)
    if value not in allowed:
        raise CommandRejected(gettext("%(label)s %(value)r is not one of the values offered")
                              % {"label": label, "value": value[:40]})
    return value


def _pairing_text(form: Form, kind: str, name: str) -> str:
    """Pairing parameter ``name`` from the form, as OpenGotha writes it in its file."""
    if kind == "flag":
        return "true" if flag(form, name) else "false"
    if kind == "weight":
        return str(whole(text(form, name), name, signed=False, low=0, high=10**18 - 1))
    if kind == "small":
        return str(whole(text(form, name), name, signed=False, low=0, high=99))
    if kind == "round":
        return str(whole(text(form, name), name, signed=False, low=1, high=99))  # OpenGotha's default 2 in any
    if kind == "rank":
        return _choice(form, name, RANKS, name).upper()
    words = {"mode": DUDD_MODES, "seed": SEED_SYSTEMS, "crit": ADDITIONAL_CRITERIA}[kind]
    return _choice(form, name, tuple(w for w, _ in words), name)


def form_changes(state: TournamentState, form: Form) -> dict[str, Any]:
    """The ``change-rules`` changes the form asks for
    (:func:`goledger.commands.settings_form.changes_from`): every field typed and within its
    domain, refused in one sentence naming it otherwise."""
    from goledger.commands.settings_form import changes_from

    wanted: dict[str, Any] = {
        "criteria": [text(form, f"criterion{i + 1}") for i in range(CRITERIA_SLOTS * 2)
                     if text(form, f"criterion{i + 1}")],
        "mm_bar": _choice(form, "mm_bar", RANKS, "mm_bar"), "mm_floor": _choice(form, "mm_floor", RANKS, "mm_floor"),
        "mm_super_group": flag(form, "mm_super_group"),
        "withdrawn": _choice(form, "withdrawn", ("absent", "zero"), "withdrawn"),
        "handicap": {"based_on_mms": _choice(form, "hd_based_on", ("mms", "rank"), "hd_based_on") == "mms",
                     "no_handicap_threshold": _choice(form, "hd_threshold", RANKS, "hd_threshold"),
                     "correction": whole(text(form, "hd_correction"), "hd_correction", low=-9, high=9),
                     "ceiling": whole(text(form, "hd_ceiling"), "hd_ceiling", signed=False, low=0, high=9)},
        "pairing": {name: _pairing_text(form, kind, name) for _, name, kind, _ in PAIRING_FIELDS},
    }
    for name in _SCORES:
        wanted[name] = whole(text(form, name), name, signed=False, low=0, high=2)
    return changes_from(state, wanted)


def settings_routes(pages: Pages) -> list[Route]:
    """``GET /desk/settings``: the form, and with ``?preview=1`` the preview of its changes."""

    async def settings_page(request: Request) -> Response:
        query = request.query_params

        def build() -> dict[str, Any]:
            import msgspec

            from goledger.commands.rules_preview import preview_change_rules
            from goledger.commands.settings_text import settings_words
            from goledger.describe.criteria import criterion_choices

            state = pages.desk.state()
            if state.settings is None:
                raise CommandRejected(gettext("this ledger has no tournament yet"))
            now = current_values(state)
            data: dict[str, Any] = {"state": state, "head": state.seq, "values": now, "now": now, "preview": None,
                                    "problem": "", "words": [], "from_round": "", "reason": "",
                                    "settings": msgspec.to_builtins(state.settings)}
            own = tuple(v for k, v in now.items() if k.startswith("criterion") and v)
            data["criteria"] = criterion_choices(own)
            data["slots"] = max(CRITERIA_SLOTS, len(own))
            data["engines"] = _engines(state)
            if query.get("preview"):
                data["values"] = {**now, **_typed_back(query)}
                data["from_round"], data["reason"] = text(query, "from_round"), text(query, "reason")
                try:
                    from_round = optional_number(query, "from_round", "from round", signed=False, low=1,
                                                 high=state.rounds)
                    changes = form_changes(state, query)
                    if not changes:
                        raise CommandRejected(gettext("nothing changes: every value is the one in force"))
                    data["preview"] = preview_change_rules(state, changes, from_round)
                    data["words"] = settings_words(changes)
                except GoledgerError as exc:  # its one sentence in the page, the form as typed
                    data["problem"] = exc.message
            return data

        data = await pages.read(request, build)
        if query.get("format") == "json":  # the preview as data: what would be recorded, and what it moves
            import msgspec

            if data["problem"]:
                return json_response({"error": data["problem"]}, 400)
            preview = msgspec.to_builtins(data["preview"]) if data["preview"] is not None else None
            return json_response({"rules": data["now"], "preview": preview, "settings": data["words"]})
        return pages.render(request, "settings.html", **data, groups=_groups(), ranks=RANKS,
                            seed_systems=SEED_SYSTEMS, dudd_modes=DUDD_MODES, additional=ADDITIONAL_CRITERIA,
                            points=POINTS)

    return [Route("/desk/settings", pages.director_only(settings_page))]


def _engines(state: TournamentState) -> list[str]:
    from goledger.commands.pairing import engines_for

    return engines_for(state)


def _typed_back(query: Form) -> dict[str, Any]:
    """The fields as the director typed them, to show the form again as it was sent."""
    typed: dict[str, Any] = {}
    for key in query:
        if key.startswith("criterion") or key in ("mm_bar", "mm_floor", "withdrawn", "hd_based_on", "hd_threshold",
                                                  "hd_correction", "hd_ceiling", *_SCORES):
            typed[key] = text(query, key)
    for name in (*_SCORES, "hd_correction", "hd_ceiling"):
        if name in typed and typed[name].lstrip("-").isdigit() and len(typed[name]) < 4:
            typed[name] = int(typed[name])
    typed["mm_super_group"] = flag(query, "mm_super_group")
    for _, name, kind, _ in PAIRING_FIELDS:
        typed[name] = flag(query, name) if kind == "flag" else text(query, name)
    return typed


def _groups() -> list[tuple[str, list[tuple[str, str, str]]]]:
    """The pairing parameters by group, with their labels in the page's language."""
    titles = {"base": gettext("Base criteria"), "main": gettext("Main criteria"),
              "secondary": gettext("Secondary criteria")}
    return [(titles[group], [(name, kind, gettext(label)) for g, name, kind, label in PAIRING_FIELDS if g == group])
            for group in ("base", "main", "secondary")]
