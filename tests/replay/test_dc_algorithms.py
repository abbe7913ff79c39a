"""The fast direct-confrontation pass agrees with the rule read literally (spec ``scoring.md``
§2.4.4) on random tied groups, cycles and repeated games included (performance issue 9:
DC must stay near-linear in the tied groups without changing a single value)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from goledger.replay.scoring.criteria.direct_confrontation import places_from_classes, walraet_dc


def literal_walraet(group: Sequence[str], net: Mapping[str, Mapping[str, int]], secondary: Mapping[str, int],
                    net_one_edge: bool = True) -> dict[str, int]:
    """Walraet's DC as the spec words it, with no care for speed: an edge a → b for a
    balance of +1 (or any positive one); players who reach each other form one node; then,
    while players remain, the remaining players whose node beats no node with a remaining
    member, and among them those with the worst secondary rank, are placed last together."""
    beats = {a: {b for b in group if b != a and (
        net.get(a, {}).get(b, 0) == 1 if net_one_edge else net.get(a, {}).get(b, 0) > 0)} for a in group}
    reach: dict[str, set[str]] = {}
    for a in group:
        seen, todo = set(), [a]
        while todo:
            for b in beats[todo.pop()]:
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
        reach[a] = seen
    node = {a: frozenset([a, *(b for b in group if b in reach[a] and a in reach[b])]) for a in group}
    remaining = set(group)
    classes: list[list[str]] = []
    while remaining:
        available = [p for p in group if p in remaining and not any(
            node[y] != node[p] and node[y] & remaining for x in node[p] for y in beats[x])]
        worst = max(secondary[p] for p in available)
        chosen = [p for p in available if secondary[p] == worst]
        classes.append(chosen)
        remaining -= set(chosen)
    return places_from_classes(classes)


@st.composite
def tied_groups(draw: st.DrawFn) -> tuple[list[str], dict[str, dict[str, int]], dict[str, int]]:
    size = draw(st.integers(1, 9))
    group = [f"P{i}" for i in range(size)]
    net: dict[str, dict[str, int]] = {p: {} for p in group}
    pairs = [(a, b) for i, a in enumerate(group) for b in group[i + 1:]]
    games = draw(st.lists(st.sampled_from(pairs), max_size=3 * size)) if pairs else []
    for a, b in games:
        delta = draw(st.sampled_from([1, -1, 0]))  # 0: a jigo, counted in neither direction
        net[a][b] = net[a].get(b, 0) + delta
        net[b][a] = net[b].get(a, 0) - delta
    secondary = {p: draw(st.integers(1, 4)) for p in group}
    return group, net, secondary


@settings(max_examples=400, deadline=None)
@given(case=tied_groups(), one_edge=st.booleans())
def test_walraet_dc_equals_the_literal_rule(case: tuple[list[str], dict[str, dict[str, int]], dict[str, int]],
                                            one_edge: bool) -> None:
    group, net, secondary = case
    assert walraet_dc(group, net, secondary, net_one_edge=one_edge) == literal_walraet(group, net, secondary,
                                                                                      one_edge)
