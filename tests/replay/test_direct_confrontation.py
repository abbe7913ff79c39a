"""OpenGotha's DC and SDC (spec ``scoring.md`` §2.4): the pure algorithms and their use as
criteria through events."""

from __future__ import annotations

from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.replay.fold.state import fold
from goledger.replay.scoring.criteria.dc import DcLayout, with_dc_variant
from goledger.replay.scoring.criteria.direct_confrontation import simplified_dc, strongly_connected, walraet_dc
from goledger.replay.scoring.policies import get_policy
from goledger.replay.scoring.scoring import ScoringContext
from goledger.replay.scoring.standings import standings


def net_of(*wins: tuple[str, str]) -> dict[str, dict[str, int]]:
    net: dict[str, dict[str, int]] = {}
    for winner, loser in wins:
        net.setdefault(winner, {})[loser] = net.get(winner, {}).get(loser, 0) + 1
        net.setdefault(loser, {})[winner] = net.get(loser, {}).get(winner, 0) - 1
    return net


def test_spec_example_transitive_wins() -> None:
    net = net_of(("A", "B"), ("A", "C"), ("B", "C"))
    assert simplified_dc(["A", "B", "C"], net) == {"A": 2, "B": 1, "C": 0}
    assert walraet_dc(["A", "B", "C"], net, {"A": 1, "B": 1, "C": 1}) == {"A": 2, "B": 1, "C": 0}


def test_spec_example_cycle_is_ordered_by_the_criteria_after_dc() -> None:
    net = net_of(("A", "B"), ("B", "C"), ("C", "A"))
    assert simplified_dc(["A", "B", "C"], net) == {"A": 1, "B": 1, "C": 1}
    assert walraet_dc(["A", "B", "C"], net, {"A": 3, "B": 1, "C": 2}) == {"A": 0, "B": 2, "C": 1}
    assert walraet_dc(["A", "B", "C"], net, {"A": 1, "B": 1, "C": 1}) == {"A": 0, "B": 0, "C": 0}


def test_spec_example_incomplete_meetings() -> None:
    net = net_of(("A", "B"), ("A", "C"))
    assert simplified_dc(["A", "B", "C"], net) == {"A": 0, "B": 0, "C": 0}
    # A first; B and C by the later criteria (C better), or tied when equal.
    assert walraet_dc(["A", "B", "C"], net, {"A": 3, "B": 2, "C": 1}) == {"A": 2, "B": 0, "C": 1}
    assert walraet_dc(["A", "B", "C"], net, {"A": 3, "B": 1, "C": 1}) == {"A": 1, "B": 0, "C": 0}


def test_a_cycle_inherits_the_wins_and_losses_of_its_members() -> None:
    # A > B > C > A is one node; C beat D, D beat E: the cycle stays above D even though
    # D's secondary rank is the best, and E is last.
    net = net_of(("A", "B"), ("B", "C"), ("C", "A"), ("C", "D"), ("D", "E"))
    secondary = {"A": 2, "B": 3, "C": 4, "D": 1, "E": 5}
    values = walraet_dc(list("ABCDE"), net, secondary)
    assert values == {"E": 0, "D": 1, "C": 2, "B": 3, "A": 4}


def test_a_double_win_makes_no_edge_under_the_opengotha_quirk() -> None:
    net = net_of(("A", "B"), ("A", "B"))
    assert net["A"]["B"] == 2
    assert walraet_dc(["A", "B"], net, {"A": 2, "B": 1}) == {"A": 0, "B": 1}
    assert walraet_dc(["A", "B"], net, {"A": 2, "B": 1}, net_one_edge=False) == {"A": 1, "B": 0}
    assert simplified_dc(["A", "B"], net) == {"A": 1, "B": 0}


def test_strongly_connected_components() -> None:
    comp = strongly_connected(list("ABCDE"), {"A": ["B"], "B": ["C"], "C": ["A", "D"], "D": ["E"]})
    assert comp["A"] == comp["B"] == comp["C"]
    assert len({comp["A"], comp["D"], comp["E"]}) == 3


def test_layout_of_dc_in_a_placement_list() -> None:
    layout = DcLayout(["NBW", "SOSW", "SDC", "EXR"])
    assert (layout.before, layout.after, layout.variant) == (("NBW", "SOSW"), (), False)
    layout = DcLayout(["NBW", "DC", "SOSW", "SOSOSW"])
    assert (layout.before, layout.after) == (("NBW",), ("SOSW", "SOSOSW"))
    layout = DcLayout(["MMS", "SOSM"])
    assert (layout.names, layout.variant) == (("MMS", "DC", "SOSM"), True)
    assert with_dc_variant(["Rating", "SOSW"]) == ("Rating", "DC", "SOSW")


def _two_games(by_default: bool = False):
    events: list[ev.Event] = [ev.TournamentCreated(settings=ev.TournamentSettings(name="t", rounds=2, system="swiss"))]
    events += [ev.PlayerRegistered(player_id="A", surname="A", rank="1k", rating=1900),
               ev.PlayerRegistered(player_id="B", surname="B", rank="1k", rating=2000)]
    for r in (1, 2):
        events += [ev.GamePaired(round=r, table=1, white="A", black="B"),
                   ev.ResultRecorded(round=r, table=1, result=Result.WHITE, by_default=by_default and r == 2)]
    return fold(events)


def test_dc_criterion_with_a_double_win_and_with_a_forfeit() -> None:
    state = _two_games()
    # OpenGotha: two wins of A over B make no edge; B is placed first by Rating.
    rows = standings(state, 2, "opengotha", ["DC", "Rating"]).rows
    assert [(r.player_id, r.values["DC"]) for r in rows] == [("B", 1), ("A", 0)]
    # The same after round 1 only (a net +1): A first.
    rows = standings(state, 1, "opengotha", ["DC", "Rating"]).rows
    assert [(r.player_id, r.values["DC"]) for r in rows] == [("A", 1), ("B", 0)]
    # A forfeit in R2 is ignored by OpenGotha's DC: the net balance stays +1.
    state = _two_games(by_default=True)
    rows = standings(state, 2, "opengotha", ["DC", "Rating"]).rows
    assert [(r.player_id, r.values["DC"]) for r in rows] == [("A", 1), ("B", 0)]


def test_dc_is_zero_outside_tied_groups_and_sdc_fills_without_secondary() -> None:
    state = _two_games()
    ctx = ScoringContext(state, 1, get_policy("opengotha"), ["NBW", "SDC"])
    # After R1: A 1, B 0 → no tied group at all.
    assert ctx.value("DC") == {"A": 0, "B": 0}
    assert ctx.value("SDC") == {"A": 0, "B": 0}
