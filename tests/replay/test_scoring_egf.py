"""The ``egf`` policy, checked against the EGF Tournament System Rules as quoted in spec
``scoring.md`` §1.3 and §6:

* a bye is a default win (1); an allowed (announced) absence is worth ½ in both the McMahon
  score and the Number of Wins score;
* "in a Swiss or McMahon the accumulated values are rounded down, and this also affects all
  tie-breakers" — the whole accumulated score, jigo halves included;
* SOS, SOS-1, SOS-2 receive the player's own start McMahon score (McMahon) or 0 (Swiss) for
  a round without opponent; SOS-x drops the smallest values; no handicap correction;
* Direct Comparison: the number-of-wins score over the games among the tied players,
  re-applied to sub-groups left tied, and 0 for everyone unless all played the same number
  of games against each other.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.replay.fold.state import TournamentState, fold
from goledger.replay.scoring.criteria import get_criterion
from goledger.replay.scoring.policies import get_policy
from goledger.replay.scoring.scoring import ScoringContext
from goledger.replay.scoring.standings import standings

from ..scoring_worked_example import points, worked_example


def value_of(state: TournamentState, round_: int, policy: str = "egf", criteria=None):
    ctx = ScoringContext(state, round_, get_policy(policy) if isinstance(policy, str) else policy, criteria)

    def value(criterion: str, player: str) -> Fraction:
        return Fraction(ctx.value(criterion)[player], get_criterion(criterion).scale)

    return value


# ----------------------------------------------------------------------------- scores


def test_bye_is_a_win_and_an_allowed_absence_half_in_both_scores() -> None:
    state = worked_example()  # the tournament itself says NBW absent 0: EGF overrides it
    value = value_of(state, 4)
    # C: loss, absent (½), loss, absent (½): NBW 0 → 0 → 0 → 1 (the two halves make one point).
    assert [value_of(state, r)("NBW", "C") for r in range(1, 5)] == [0, 0, 0, 1]
    assert value("MMS", "C") == 30
    # D: win, loss, bye (1), win → NBW 3; E: bye, jigo, forfeit win, loss.
    assert value("NBW", "D") == 3


def test_whole_accumulated_score_is_rounded_down_jigo_included() -> None:
    state = worked_example()
    # B: loss, jigo, win, loss → raw ½, 1½, 1½ after R2..R4 → 0, 1, 1.
    assert [value_of(state, r)("NBW", "B") for r in range(1, 5)] == [0, 0, 1, 1]
    assert [value_of(state, r)("MMS", "B") for r in range(1, 5)] == [30, 30, 31, 31]
    # E: bye 1, jigo ½ (→ 1), forfeit win (2½ → 2), loss (2½ → 2).
    assert [value_of(state, r)("NBW", "E") for r in range(1, 5)] == [1, 1, 2, 2]
    # OpenGotha keeps the jigo half: B has 1½ there.
    assert value_of(state, 4, "opengotha")("NBW", "B") == points("1½")


def test_sos_uses_own_start_score_for_rounds_without_opponent_and_no_handicap() -> None:
    value = value_of(worked_example(), 4)
    # MMS at R4 under egf: A 33, B 31, C 30, D 31, E 29.
    # C: D 31 (handicap game, no correction) + own 29 (absent) + B 31 + own 29 = 120.
    assert value("SOSM", "C") == 120
    # D: C 30 + A 33 + own 28 (bye) + E 29 = 120.
    assert value("SOSM", "D") == 120
    # E: own 27 (bye) + B 31 + A 33 (forfeit win: the scheduled opponent counts) + D 31.
    assert value("SOSM", "E") == 122
    # SOS-2 drops the two smallest: D [30, 33, 28, 29] → 63; E [27, 31, 33, 31] → 64.
    assert (value("SOSM-2", "D"), value("SOSM-2", "E")) == (63, 64)
    # Swiss family: rounds without opponent count 0. E: 0 + B 1 + A 3 + D 3 = 7.
    assert value("SOSW", "E") == 7


def test_sos_minus_one_has_no_early_round_quirk() -> None:
    value = value_of(worked_example(), 2)
    # A after R2: B 30 (the jigo half rounded down) and D 29: SOS-1 keeps 30.
    assert value("SOSM-1", "A") == 30
    assert value_of(worked_example(), 2, "opengotha")("SOSM-1", "A") == 0


def test_default_criteria_of_the_egf_policy() -> None:
    state = worked_example()
    result = standings(state, 4, "egf")
    assert result.criteria == ("MMS", "DC", "SOSM-2", "Rating")
    # B and D are tied on MMS 31 and never met: DC 0 for both, SOS-2 separates them.
    order = [(row.place, row.player_id, row.values["DC"]) for row in result.rows]
    assert order == [(1, "A", 0), (2, "B", 0), (3, "D", 0), (4, "C", 0), (5, "E", 0)]


# ----------------------------------------------------------------------------- direct comparison


def _tournament(games: list[tuple[int, str, str, Result]], players: str, byes: dict[int, str] | None = None,
                criteria: tuple[str, ...] = ("DC",)) -> TournamentState:
    events: list[ev.Event] = [ev.TournamentCreated(settings=ev.TournamentSettings(
        name="dc", rounds=max(r for r, *_ in games), system="swiss", criteria=criteria))]
    for p in players:
        events.append(ev.PlayerRegistered(player_id=p, surname=p, rank="1k"))
    tables: dict[int, int] = {}
    for r, white, black, result in games:
        tables[r] = tables.get(r, 0) + 1
        events.append(ev.GamePaired(round=r, table=tables[r], white=white, black=black))
        events.append(ev.ResultRecorded(round=r, table=tables[r], result=result))
    for r, p in (byes or {}).items():
        events.append(ev.ByeAssigned(round=r, player_id=p))
    return fold(events)


def dc(state: TournamentState, policy="egf", criteria=("DC",)) -> dict[str, int]:
    ctx = ScoringContext(state, state.rounds, get_policy(policy) if isinstance(policy, str) else policy, criteria)
    return ctx.value("DC")


def test_same_number_of_games_is_satisfied_without_everyone_meeting() -> None:
    # Four tied players; only A–B and C–D played (one game each): A and C 1, B and D 0.
    state = _tournament([(1, "A", "B", Result.WHITE), (1, "C", "D", Result.WHITE)], "ABCD")
    values = dc(state)
    assert values["A"] == values["C"] > values["B"] == values["D"] == 0


def test_override_gives_zero_to_all_when_the_number_of_games_differs() -> None:
    # Three tied players, A–B and A–C played, B–C not: A played 2, B and C 1 → all 0.
    state = _tournament([(1, "A", "B", Result.WHITE), (2, "A", "C", Result.WHITE)], "ABC", byes={1: "C", 2: "B"})
    assert dc(state) == {"A": 0, "B": 0, "C": 0}
    # OpenGotha's DC has no such override: A beat both, so A is placed first.
    assert dc(state, "opengotha")["A"] > dc(state, "opengotha")["B"] == dc(state, "opengotha")["C"]


def test_comparison_is_applied_again_to_the_sub_groups_left_tied() -> None:
    # Round robin of four: A beat B and C, D beat A, B beat C and D, C beat D.
    # Among all four: A 2, B 2, C 1, D 1; again among {A, B}: A beat B; among {C, D}: C beat D.
    games = [(1, "A", "B", Result.WHITE), (1, "C", "D", Result.WHITE), (2, "A", "C", Result.WHITE),
             (2, "B", "D", Result.WHITE), (3, "A", "D", Result.BLACK), (3, "B", "C", Result.WHITE)]
    state = _tournament(games, "ABCD")
    values = dc(state)
    assert values["A"] > values["B"] > values["C"] > values["D"] == 0
    # One step only would leave A = B and C = D; OpenGotha's DC sees one victory cycle
    # (A > B > D > A, A > C > D) and, with nothing after DC, ties all four.
    assert dc(state, "opengotha") == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_jigo_counts_half_and_is_rounded_down() -> None:
    # A–B jigo, A beat C, B–C jigo (each played 2 games among the group):
    # A 1½, B 1, C ½ → rounded down A 1, B 1, C 0; again among {A, B}: ½ each → 0: tied.
    games = [(1, "A", "B", Result.JIGO), (2, "A", "C", Result.WHITE), (3, "B", "C", Result.JIGO)]
    state = _tournament(games, "ABC", byes={1: "C", 2: "B", 3: "A"})
    values = dc(state)
    assert values["A"] == values["B"] > values["C"] == 0
    unrounded = get_policy("egf").with_overrides({"dc_round_down": False})
    values = dc(state, unrounded)
    assert values["A"] > values["B"] > values["C"] == 0


def test_dc_works_inside_the_groups_tied_on_the_earlier_criteria() -> None:
    games = [(1, "A", "B", Result.WHITE), (1, "C", "D", Result.WHITE), (2, "A", "C", Result.WHITE),
             (2, "B", "D", Result.WHITE), (3, "A", "D", Result.BLACK), (3, "B", "C", Result.WHITE)]
    state = _tournament(games, "ABCD", criteria=("NBW", "DC"))
    result = standings(state, 3, "egf")
    assert [(row.player_id, row.values["NBW"], row.values["DC"], row.place) for row in result.rows] == [
        ("A", 4, 1, 1), ("B", 4, 0, 2), ("C", 2, 1, 3), ("D", 2, 0, 4)]


@pytest.mark.parametrize("by_default", [True, False])
def test_by_default_results_count_in_egf_dc_only_when_the_policy_says(by_default: bool) -> None:
    events: list[ev.Event] = [ev.TournamentCreated(settings=ev.TournamentSettings(name="t", rounds=1, system="swiss"))]
    events += [ev.PlayerRegistered(player_id=p, surname=p, rank="1k") for p in "AB"]
    events += [ev.GamePaired(round=1, table=1, white="A", black="B"),
               ev.ResultRecorded(round=1, table=1, result=Result.WHITE, by_default=True)]
    policy = get_policy("egf").with_overrides({"dc_by_default": by_default})
    values = dc(fold(events), policy)
    assert (values["A"] > values["B"]) is by_default
