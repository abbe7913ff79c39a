"""A new tournament: ``goledger new``.

The one recording command with no state before it: it checks every setting, then creates the
ledger file holding one ``TournamentCreated`` event (``Ledger.create_complete``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from goledger.commands.checks import check_names, parse_komi, parse_rank, refusal
from goledger.commands.recording import Outcome, PathLike, default_actor
from goledger.errors import CommandRejected
from goledger.i18n import gettext, ngettext
from goledger.i18n.messages import say
from goledger.ledger import events as ev
from goledger.ledger.domains import date_problem, event_problem
from goledger.ledger.store import Ledger, utc_now
from goledger.ledger.values import Rank
from goledger.systems.registry import SYSTEMS

__all__ = ["new"]

_PRESETS: dict[str, Mapping[str, Any]] = {name: entry.preset for name, entry in SYSTEMS.items()}
"""Each system's settings at creation (:data:`goledger.systems.registry.SYSTEMS`)."""


def new(
    db: PathLike,
    name: str,
    rounds: int | None,
    system: str = "mcmahon",
    bar: str | None = None,
    floor: str | None = None,
    policy: str | None = None,
    criteria: Sequence[str] | None = None,
    komi: str = "7.5",
    short_name: str = "",
    location: str = "",
    begin_date: str = "",
    end_date: str = "",
    options: dict[str, Any] | None = None,
    time: str | None = None,
    main_time: int | None = None,
    byo_yomi: int | None = None,
    periods: int | None = None,
    stones: int | None = None,
    fischer: int | None = None,
    handicap_correction: int | None = None,
    handicap_ceiling: int | None = None,
    handicap_threshold: str | None = None,
    handicap_on: str | None = None,
    language: str | None = None,
    country: str = "",
    *,
    actor: str = "",
    reason: str = "",
    clock: Callable[[], str] = utc_now,
) -> Outcome:
    """Create a new ledger file holding one ``TournamentCreated`` event.

    Defaults follow OpenGotha's new-tournament presets per system (McMahon: bar 4d, floor
    20k, criteria MMS/SOSM/SOSOSM; Swiss: NBW/SOSW/SOSOSW; cup: byes and absences worth 0).
    ``options`` are the system's own settings (``goledger.systems``, e.g. ``{"method": "slide"}``
    for a knockout), refused when the system does not know them.

    Thinking time (``TimeSettings``): ``time`` is the overtime system (``sudden-death``,
    ``byo-yomi``, ``canadian``, ``fischer``) with ``main_time`` minutes and, per system,
    ``byo_yomi`` seconds (and ``periods``; Canadian: ``stones`` in ``byo_yomi`` seconds) or
    ``fischer`` seconds per move. Without ``time`` the tournament has no time settings (the
    EGD export then writes no class). Handicap (``HandicapSettings``, spec opengotha-xml
    §7.2): ``handicap_correction`` stones subtracted, ``handicap_ceiling`` (0: even games),
    ``handicap_threshold`` rank from which games are even, ``handicap_on`` ``mms`` or ``rank``.
    ``language`` (``en``, ``tr``, ``hu``, ``fr``, ``de``; default English) is the language of
    the printouts and the desk (``goledger.i18n``). ``country`` (a two-letter code) is where
    the tournament is played, kept for the EGD file's ``PC[]`` as an OpenGotha import keeps it.

    ``rounds`` ``None`` (no ``--rounds``) is for a system whose round count follows from its
    entrants (knockout, double knockout, Paramus, round robin: issue 29): the tournament is
    set up for round 1 with the system option ``rounds_at_draw``, and ``pair-round 1`` records
    the count when it makes the draw.
    """
    if system not in _PRESETS:
        raise CommandRejected(say("unknown system %(system)r; use one of %(systems)s", system=system,
                                  systems=", ".join(_PRESETS)))
    if not name.strip():
        raise CommandRejected(say("a tournament needs a name"))
    rounds, options = _rounds_of(system, rounds, options)
    unit_swiss = system in ("pairgo", "rengo2", "rengo3") and str((options or {}).get("pairing", "")) == "swiss"
    preset = _preset("swiss" if unit_swiss else system, bar, floor)
    policy_name = policy or "opengotha"
    preset["criteria"] = _criteria(policy_name, criteria) or preset["criteria"]
    for text, label in ((begin_date, "begin date"), (end_date, "end date")):
        problem = date_problem(text, f"the {label}")
        if problem:
            raise refusal(problem)
    from goledger.commands.settings import handicap_settings, time_settings
    from goledger.systems import system_options

    preset["time"] = time_settings(time, main_time, byo_yomi, periods, stones, fischer)
    preset["handicap"] = handicap_settings(handicap_correction, handicap_ceiling, handicap_threshold, handicap_on)
    check_names(name=name, short_name=short_name, location=location)
    preset.update(_language(language))
    preset["extras"] = _country(country)
    settings = ev.TournamentSettings(
        name=name.strip(), short_name=short_name, location=location, begin_date=begin_date,
        end_date=end_date, rounds=rounds, system=system,  # type: ignore[arg-type]
        komi=parse_komi(komi) or "7.5", policy=policy_name, **preset,
        system_options=system_options(system, dict(options or {})),
        # A tournament run here lists every registered player, before round 1 and before a
        # late arrival's first game (issue 20); OpenGotha's own files keep its "implied" list.
        policy_overrides={"listed_players": "all"} if policy_name == "opengotha" else {},
    )
    problem = event_problem(ev.TournamentCreated(settings=settings))
    if problem:
        raise refusal(problem)
    path = Path(db)
    records = Ledger.create_complete(path, [ev.TournamentCreated(settings=settings)],
                                     actor=actor or default_actor(), reason=reason, clock=clock)
    names = {"path": path, "name": settings.name, "system": system, "rounds": rounds}
    if settings.system_options.get("rounds_at_draw"):
        return Outcome(gettext("created %(path)s for %(name)s (%(system)s, rounds set at the draw)") % names, records)
    return Outcome(ngettext("created %(path)s for %(name)s (%(system)s, %(rounds)d round)",
                            "created %(path)s for %(name)s (%(system)s, %(rounds)d rounds)", rounds) % names, records)


def _rounds_of(system: str, rounds: int | None, options: dict[str, Any] | None) -> tuple[int, dict[str, Any] | None]:
    """The round count and system options of a new tournament: without ``rounds``, 1 and
    ``rounds_at_draw`` for a system that counts its rounds at the draw."""
    if rounds is None:
        from goledger.systems import ROUNDS_AT_DRAW

        if system not in ROUNDS_AT_DRAW:
            raise CommandRejected(say("a %(system)s tournament needs --rounds (only %(systems)s compute their rounds "
                                      "at the draw)", system=system, systems=", ".join(sorted(ROUNDS_AT_DRAW))))
        options = {**(options or {}), "rounds_at_draw": True}
        rounds = 1
    elif {"rounds_at_draw", "rounds-at-draw"} & set(options or {}):
        raise CommandRejected(say("give either --rounds or the option rounds-at-draw, not both"))
    if not 1 <= rounds <= 99:
        raise CommandRejected(say("a tournament has 1..99 rounds, not %(rounds)d", rounds=rounds))
    return rounds, options


def _preset(system: str, bar: str | None, floor: str | None) -> dict[str, Any]:
    """The system's preset with the McMahon bar and floor given."""
    preset = dict(_PRESETS[system])
    if bar is not None:
        preset["mm_bar"] = parse_rank(bar)
    if floor is not None:
        preset["mm_floor"] = parse_rank(floor)
    if Rank.parse(preset["mm_floor"]) > Rank.parse(preset["mm_bar"]):
        raise CommandRejected(say("the McMahon floor %(floor)s is above the bar %(bar)s", floor=preset["mm_floor"],
                                  bar=preset["mm_bar"]))
    return preset


def _criteria(policy_name: str, criteria: Sequence[str] | None) -> tuple[str, ...] | None:
    """The placement criteria by their registered names (the policy's names for them)."""
    from goledger.replay.scoring.policies import get_policy

    chosen = get_policy(policy_name)
    if not criteria:
        return None
    from goledger.replay.scoring.criteria import get_criterion

    return tuple(get_criterion(chosen.criterion_name(c)).name for c in criteria)


def _country(country: str) -> dict[str, str]:
    """The settings' extras for the country of play (``egd.country``, as the EGD writer reads
    it); refused in one sentence unless two letters (the EGD export checks the code itself)."""
    if not country.strip():
        return {}
    if not (len(country.strip()) == 2 and country.strip().isascii() and country.strip().isalpha()):
        raise CommandRejected(f"country {country.strip()!r} is not a two-letter country code such as FR")
    return {"egd.country": country.strip().upper()}


def _language(language: str | None) -> dict[str, str]:
    from goledger.i18n import LANGUAGES

    if language is not None and language not in LANGUAGES:
        raise CommandRejected(say("language %(language)r has no catalog; use one of %(languages)s", language=language,
                                  languages=", ".join(LANGUAGES)))
    return {"language": language} if language else {}
