"""Rule policies: every scoring choice on which programs and rule books disagree, named
(spec ``scoring.md`` §7).

A :class:`Policy` is an immutable value. ``None`` in a value field means "take the
tournament's own parameter" (an imported OpenGotha file brings its bye and absent values,
its round-down flag and its half-point option). Policies are looked up by name in a
registry; a tournament names its default policy (``TournamentSettings.policy``, plus
``policy_overrides``) and any view may override it (``--policy``).

Two Go policies ship here:

* ``opengotha`` — bit-exact with OpenGotha 3.51.02 (spec §1.1, §2, and the quirks of §2.7,
  each an explicit ``quirk_*`` flag), honouring the tournament's own parameters; only
  players "implied" in a game or bye are listed.
* ``egf`` — the EGF Tournament System Rules as written (spec §1.3, §6): bye 1, allowed
  absence ½ in both scores, the whole accumulated score rounded down, own start score (0 in
  the NBW family) for rounds without opponent, EGF direct comparison, no quirks.

Other modules register more policies (FIDE, MacMahon…) through :func:`register_policy`,
listed in :data:`BUILTIN_MODULES` so that they load on first lookup.

>>> get_policy("opengotha").name
'opengotha'
>>> get_policy("egf").mms2_absent
1
>>> {"egf", "opengotha"} <= set(known_policies())
True
>>> get_policy("egf").criteria_for("swiss")
('NBW', 'DC', 'SOSW-2', 'Rating')
"""

from __future__ import annotations

import importlib
from typing import Any, Literal

import msgspec

from goledger.errors import CommandRejected

__all__ = ["POLICIES", "Policy", "get_policy", "known_policies", "register_policy"]


class Policy(msgspec.Struct, frozen=True, kw_only=True):
    """One named set of rule choices. Field comments cite spec ``scoring.md`` §7 rows."""

    name: str
    description: str = ""

    # §7.1–2: points for a bye and an announced absence, in half-points (None: tournament's).
    nbw2_bye: int | None = None
    mms2_bye: int | None = None
    nbw2_absent: int | None = None
    mms2_absent: int | None = None

    # §7.3: a participating player left unpaired without a bye ("not assigned"): 0 points
    # (OpenGotha, quirk §2.7.3) or the absent value (pairgoth).
    not_assigned: Literal["zero", "absent"] = "zero"

    # Rounds at or after a withdrawal: worth the absent value, or nothing (FIDE zero-point bye).
    withdrawn: Literal["absent", "zero"] = "absent"

    # §7.4: what is rounded down. "unpaired-part": only the cumulative bye/absent points
    # (OpenGotha); "whole-score": the accumulated score (EGF literal); "none".
    # None: the tournament's round_down flag chooses between "unpaired-part" and "none".
    round_down: Literal["unpaired-part", "whole-score", "none"] | None = None

    # §7.5: half-points for a jigo (1 = ½ point; pairgoth ≤ 0.26 used 0).
    jigo2: int = 1

    # §7.9: opponents' not-played rounds count ½ in SOS (OpenGotha option). None: tournament's.
    not_played_as_half: bool | None = None

    # §7.7: what the player's own round without opponent adds to SOS: "start-score" = own
    # start McMahon score in the MMS family and 0 in the NBW family (OpenGotha, EGF);
    # "zero" = 0 in both. (FIDE variants belong to the FIDE criteria.)
    sos_own_unplayed: Literal["start-score", "zero", "virtual-opponent", "dummy", "capped-dummy"] = "start-score"

    # §7.11: ±handicap on the opponent's score in the McMahon SOS family (SOSM, SOSM-x,
    # SODOSM, SOSTS; never SOSOSM — spec §2.7.6).
    sos_handicap_correction: bool = True

    # §7.13: OpenGotha's SOSM-1/-2 = 0 after rounds 1 and 2 (spec §2.7.1).
    quirk_sosm_cut_early_rounds: bool = False

    # §7.15: SOSOS for a round without opponent: own start score × R (OpenGotha, MMS family
    # only; bye included) or 0.
    sosos_unplayed: Literal["start-score-times-round", "zero"] = "start-score-times-round"

    # §7.17: direct comparison flavour ("fide" is provided by the FIDE criteria modules).
    direct_comparison: Literal["opengotha", "egf", "fide"] = "opengotha"
    # OpenGotha DC/SDC: an edge only for a net +1 head-to-head (spec §2.7.4); off: any net win.
    quirk_dc_net_one_edge: bool = False
    # Which head-to-head results count in DC/SDC: "decisive" = plain white/black wins
    # (OpenGotha); "scored" = every known result with its points (jigo ½; EGF).
    dc_results: Literal["decisive", "scored"] = "decisive"
    # Whether by-default (forfeit) results count in DC/SDC (OpenGotha: no).
    dc_by_default: bool = False
    # EGF DC: the "accumulated values are rounded down" sentence applied to DC (spec §7.24).
    dc_round_down: bool = False

    # OpenGotha's STS bonus uses a hard-coded McMahon zero of 30k (oracle README item 11);
    # off: the tournament's McMahon zero.
    quirk_sts_zero_30k: bool = False
    # OpenGotha 3.51.02's setter of genMMZero ignores its argument and stores 30k, so every
    # start score (MMS, the McMahon SOS family, STS, places) uses zero 30k whatever the file
    # says (issue 19.1; the file's text is kept for export). Off: the tournament's zero.
    quirk_mm_zero_30k: bool = False
    # OpenGotha's STS checks read the MMS after rounds n−2 and n−1 through an array index
    # n−3 and n−2; an index below 0 reads 0, so with 1 or 2 rounds the check never fires on
    # the start score (issue 19.2). Off: the start score is compared like any other round.
    quirk_sts_short_tournament: bool = False
    # A player with several games in one round (an invalid file): "first" = only his first
    # game (table order) counts; "opengotha" = every game adds its points to NBW, MMS and
    # CPS, and the SOS family, SODOS and EXT/EXR use the one game OpenGotha's
    # HashMap<Integer, Game> iterates last (issue 19.3; goledger.replay.scoring.hashmap_order).
    several_games_in_round: Literal["first", "opengotha"] = "first"
    # With the half-point option OpenGotha never fills the virtual STS, so every opponent's
    # STS counts 0 in SOSTS (oracle README item 8).
    quirk_sosts_virtual_zero: bool = False

    # OpenGotha keeps one bye per round, the last one listed (oracle README, import
    # behaviour); earlier bye players of that round are then merely "not assigned".
    quirk_last_bye_only: bool = False
    # OpenGotha clamps ratings to −900..2949 when it loads them; the Rating criterion uses
    # the clamped value (None: the rating as registered).
    rating_clamp: tuple[int, int] | None = None

    # §7.18: who shares a place.
    place_sharing: Literal["all-criteria", "none"] = "all-criteria"

    # OpenGotha shows only players "implied" in some game or bye of the tournament (oracle
    # README, Placement 16); "all" lists every registered player. Criteria (and DC groups)
    # are always computed over every registered player, as OpenGotha does.
    listed_players: Literal["implied", "all"] = "all"

    # Placement criteria used when neither the view nor the tournament names any:
    # per system first, then ``default_criteria``, then the system's main score.
    default_criteria: tuple[str, ...] = ()
    default_criteria_by_system: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def go_criterion_hint(self) -> str:
        """What to ask for instead when this (FIDE) policy meets a Go criterion it cannot
        compute: its own default criteria, or a Go policy."""
        default = ",".join(self.default_criteria)
        return (f"give FIDE criteria, e.g. --criteria {default}, or a Go policy, e.g. --policy opengotha"
                if default else "use a Go policy, e.g. --policy opengotha")

    def criteria_for(self, system: str) -> tuple[str, ...]:
        """The default placement criteria of this policy for a tournament system."""
        for name, criteria in self.default_criteria_by_system:
            if name == system:
                return criteria
        return self.default_criteria

    # ----- FIDE C.07 tie-breaks (goledger.replay.scoring.fide_unplayed, criteria_fide; spec §4, §7).
    # §7.8: a forfeit round in the player's own BH/SB: "scheduled-opponent" (counted like a
    # game, OpenGotha/EGF) or "unplayed" (FIDE: the sos_own_unplayed substitute of §7.7).
    sos_own_forfeit_round: Literal["scheduled-opponent", "unplayed"] = "scheduled-opponent"
    # §7.9: opponents' scores in BH/SB: "none"; "all-unplayed-as-draw" (FIDE 2009, OpenGotha's
    # option); "withdrawal-as-draw" (FIDE 2023+, 16.3: only category-5 rounds count ½).
    # None: "all-unplayed-as-draw" if not_played_as_half (policy's, else tournament's), else "none".
    opponent_score_adjustment: Literal["none", "all-unplayed-as-draw", "withdrawal-as-draw"] | None = None
    # §7.10: opponents' values taken at the standings round R, or at the latest round with
    # games ("final" scores; the 2009 formula's n follows it).
    opponent_score_time: Literal["standings-round", "latest-round"] = "standings-round"
    # §7.13: cuts drop the lowest values ("lowest") or voluntary unplayed rounds first
    # (FIDE 2023+, 16.5: "vur-first").
    cut_rule: Literal["lowest", "vur-first"] = "lowest"
    # §7.14: Sonneborn-Berger factor: the points scored in the round (FIDE, OpenGotha SODOS)
    # or 1 for a won game and 0 otherwise ("decisive-wins", pairgoth <= 0.26).
    sodos_weighting: Literal["points-scored", "decisive-wins"] = "points-scored"
    # §7.21: the 2009 virtual opponent also replaces own unplayed rounds in SB (common reading).
    virtual_opponent_for_sb: bool = True
    # §7.22: which trailing unplayed rounds count ½ for opponents: requested byes only
    # (TieBreakServer, C.07 text) or trailing forfeit losses too (`tiebreak` npm).
    fide_withdrawal_detection: Literal["requested-byes", "trailing-forfeits-too"] = "requested-byes"
    # §7.23: "the last round" (category 5, the 2026 cap's number of rounds) in standings after
    # round R < rounds: R itself ("standings-round") or the scheduled last round ("scheduled").
    fide_last_round: Literal["standings-round", "scheduled"] = "standings-round"
    # Article 15/16 apply to Swiss events; with pre-determined pairings forfeits are games.
    # "auto": round-robin rules when the tournament system is round-robin.
    fide_event_type: Literal["auto", "swiss", "round-robin"] = "auto"
    # Points of each outcome, in TRF(x) XXS syntax ("W=3 D=1 PAB=3"; codes WW BW WD BD WL BL
    # ZPB HPB FPB PAB FW FL, shortcuts W and D). "": standard 1 / ½ / 0; byes and absences
    # without their own value keep the bye/absent values above.
    point_system: str = ""
    # §7.17 for FIDE DE (article 6): forfeited games count as encounters.
    fide_de_forfeits: bool = False
    # Koya (9.2): opponents with at least this percentage of the maximum score.
    koya_limit_percent: int = 50
    # Koya: a forfeit round against a qualifying opponent counts ("count", TieBreakServer:
    # every round with a scheduled opponent) or is left out ("exclude"); separate from the
    # BH/SB forfeit switch sos_own_forfeit_round (C.07 16.4 is a rule of that family only).
    koya_forfeits: Literal["count", "exclude"] = "count"
    # Kashdan: points for a win, a draw, a loss and an unplayed round.
    kashdan_points: tuple[int, int, int, int] = (4, 2, 1, 2)
    # Rating-based tie-breaks (article 10): rating given to unrated opponents (None: left out).
    unrated_opponent_rating: int | None = None
    # ARO-C1 of a player who met an unrated opponent over the board (and unrated opponents are
    # left out): the unrated opponent is the value cut ("unrated-first", TieBreakServer, so
    # ARO-C1 = ARO) or the lowest rated opponent is cut as well ("rated-only"). C.07 is silent.
    aro_cut_unrated: Literal["unrated-first", "rated-only"] = "unrated-first"

    # Criterion names this policy understands besides the registry's (case-insensitive), e.g.
    # MacMahon's own "SOS" for MM-SOS under the macmahon policy; they win over global aliases.
    criterion_aliases: tuple[tuple[str, str], ...] = ()

    def criterion_name(self, name: str) -> str:
        """The registry name a criterion name means under this policy (its own aliases first).

        >>> get_policy("macmahon").criterion_name("sos"), get_policy("egf").criterion_name("sos")
        ('MM-SOS', 'sos')
        """
        wanted = name.strip().upper()
        for alias, target in self.criterion_aliases:
            if alias.upper() == wanted:
                return target
        return name

    # Order inside a tie on every criterion (it never changes who shares a place): "name" =
    # surname then first name, Java String.compareTo (OpenGotha). Other orders are registered
    # with goledger.replay.scoring.standings.register_tie_order (e.g. "macmahon-weak").
    tie_order: str = "name"

    def with_overrides(self, overrides: dict[str, Any]) -> Policy:
        """A copy with some options replaced (unknown option names are refused)."""
        if not overrides:
            return self
        known = set(self.__struct_fields__)
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise CommandRejected(f"unknown policy option(s): {', '.join(unknown)}")
        data = msgspec.structs.asdict(self) | overrides
        try:
            return msgspec.convert(data, Policy)
        except msgspec.ValidationError as exc:
            raise CommandRejected(f"invalid policy option: {exc}") from None


POLICIES: dict[str, Policy] = {}


def register_policy(policy: Policy) -> Policy:
    """Add a policy to the registry under its name (later registrations replace earlier)."""
    POLICIES[policy.name] = policy
    return policy


BUILTIN_MODULES: tuple[str, ...] = ("goledger.replay.scoring.policies.fide",
                                    "goledger.replay.scoring.policies.macmahon")
"""Modules that register further policies when imported (loaded on first lookup)."""

_LOADED = False


def _load_builtin() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True

    for module in BUILTIN_MODULES:
        importlib.import_module(module)


def known_policies() -> list[str]:
    _load_builtin()
    return sorted(POLICIES)


def get_policy(name: str) -> Policy:
    """The policy registered under ``name``; refuses unknown names with the list of known ones."""
    _load_builtin()
    try:
        return POLICIES[name]
    except KeyError:
        known = ", ".join(sorted(POLICIES))
        raise CommandRejected(f"unknown policy {name!r}; known policies: {known}") from None


register_policy(
    Policy(
        name="opengotha",
        description=(
            "Bit-exact with OpenGotha 3.51.02: the tournament's own bye/absent values, round-down "
            "flag and half-point option; only bye/absent points rounded down; not-assigned rounds "
            "0; ±handicap in the McMahon SOS family; OpenGotha DC/SDC; every quirk of spec §2.7; "
            "only players implied in a game or bye are listed."
        ),
        quirk_sosm_cut_early_rounds=True,
        quirk_dc_net_one_edge=True,
        quirk_sts_zero_30k=True,
        quirk_mm_zero_30k=True,
        quirk_sts_short_tournament=True,
        several_games_in_round="opengotha",
        quirk_sosts_virtual_zero=True,
        quirk_last_bye_only=True,
        rating_clamp=(-900, 2949),
        listed_players="implied",
        default_criteria=("MMS", "SOSM", "SOSOSM"),
        default_criteria_by_system=(
            ("mcmahon", ("MMS", "SOSM", "SOSOSM")),
            ("swiss", ("NBW", "SOSW", "SOSOSW")),
            ("swisscat", ("CAT", "NBW", "EXT", "EXR")),
            ("cup", ("CPS",)),
            ("round-robin", ("NBW", "SOSW", "SOSOSW")),
        ),
    )
)

register_policy(
    Policy(
        name="egf",
        description=(
            "EGF Tournament System Rules as written: bye 1, allowed absence ½ in both scores, "
            "accumulated score rounded down, own start score (McMahon) or 0 (Swiss) for rounds "
            "without opponent, no handicap correction, EGF direct comparison (NBW among the tied "
            "players, iterated, 0 for all unless all played the same number of games against "
            "each other), no OpenGotha quirks."
        ),
        nbw2_bye=2,
        mms2_bye=2,
        nbw2_absent=1,
        mms2_absent=1,
        round_down="whole-score",
        not_played_as_half=False,
        sos_handicap_correction=False,
        direct_comparison="egf",
        dc_results="scored",
        dc_by_default=True,
        dc_round_down=True,
        default_criteria=("MMS", "DC", "SOSM-2", "Rating"),
        default_criteria_by_system=(
            ("mcmahon", ("MMS", "DC", "SOSM-2", "Rating")),
            ("swiss", ("NBW", "DC", "SOSW-2", "Rating")),
            ("swisscat", ("NBW", "DC", "SOSW-2", "Rating")),
            ("cup", ("CPS",)),
            ("round-robin", ("NBW", "DC", "SOSW", "Rating")),
        ),
    )
)
