"""Direct confrontation inside a group of tied players: pure algorithms on a head-to-head
table (spec ``scoring.md`` §2.4, §6.3). No state, no policy: :mod:`criteria_dc` builds the
inputs.

``net[a][b]`` is the head-to-head balance of ``a`` against ``b`` (OpenGotha: +1 per
decisive win, −1 per loss, summed over repeated games; ``net[b][a] == -net[a][b]``).

* :func:`simplified_dc` — OpenGotha's SDC: if every pair of the group has a non-zero
  balance, a player's value is the number of members he beat; otherwise 0 for everyone.
* :func:`walraet_dc` — OpenGotha's DC (M. Walraet's topological ranking): a win graph
  (edge a → b when a's balance against b is +1 exactly under OpenGotha's quirk, or any
  positive balance), victory cycles collapsed into one node that inherits every external
  win and loss; then, repeatedly, among the remaining players whose node beats no other
  remaining node, those with the worst secondary rank (the rank by the criteria after DC)
  are placed last, together when equal. Value = worst rank − the player's rank.
* :func:`egf_dc` — the EGF Direct Comparison: each player's number-of-wins score counted
  over the games among the group only; all 0 unless every member played the same number of
  games against the others; applied again to each sub-group it leaves tied
  ("fine-tuning"). Values numbered like OpenGotha's DC (:func:`places_from_classes`).

Every function returns ``{player: int}``, higher is better, and costs time proportional to
the group and the games inside it.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence

__all__ = ["egf_dc", "places_from_classes", "simplified_dc", "strongly_connected", "walraet_dc"]

Net = Mapping[str, Mapping[str, int]]


def simplified_dc(group: Sequence[str], net: Net) -> dict[str, int]:
    """OpenGotha's SDC (spec §2.4.3).

    >>> net = {"A": {"B": 1, "C": 1}, "B": {"A": -1, "C": 1}, "C": {"A": -1, "B": -1}}
    >>> simplified_dc(["A", "B", "C"], net)
    {'A': 2, 'B': 1, 'C': 0}
    >>> simplified_dc(["A", "B", "C"], {"A": {"B": 1, "C": 1}, "B": {"A": -1}, "C": {"A": -1}})
    {'A': 0, 'B': 0, 'C': 0}
    """
    for i, a in enumerate(group):
        row = net.get(a, {})
        for b in group[i + 1 :]:
            if not row.get(b, 0):
                return dict.fromkeys(group, 0)
    return {a: sum(1 for b in group if b != a and net.get(a, {}).get(b, 0) > 0) for a in group}


def strongly_connected(nodes: Sequence[str], edges: Mapping[str, Sequence[str]]) -> dict[str, int]:
    """Tarjan's algorithm, iterative: node → component number."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    component: dict[str, int] = {}
    counter = 0
    components = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            targets = edges.get(node, ())
            descended = False
            while child < len(targets):
                nxt = targets[child]
                child += 1
                if nxt not in index:
                    work.append((node, child))
                    work.append((nxt, 0))
                    descended = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if descended:
                continue
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component[member] = components
                    if member == node:
                        break
                components += 1
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return component


def places_from_classes(classes_bottom_up: Sequence[Sequence[str]]) -> dict[str, int]:
    """DC values from tie classes listed worst first, as OpenGotha numbers them: rank = 1 +
    number of players in better classes, value = the worst class's rank − the player's rank
    (so the bottom class gets 0 and the top class ``size − len(bottom class)``).

    >>> places_from_classes([["D"], ["B", "C"], ["A"]])
    {'D': 0, 'B': 2, 'C': 2, 'A': 3}
    >>> places_from_classes([["E"], ["A", "B", "C"]])
    {'E': 0, 'A': 3, 'B': 3, 'C': 3}
    """
    size = sum(len(cls) for cls in classes_bottom_up)
    if not size:
        return {}
    worst_rank = size - len(classes_bottom_up[0]) + 1
    out: dict[str, int] = {}
    ahead = size
    for cls in classes_bottom_up:
        ahead -= len(cls)
        for p in cls:
            out[p] = worst_rank - (1 + ahead)
    return out


def walraet_dc(
    group: Sequence[str],
    net: Net,
    secondary: Mapping[str, int],
    *,
    net_one_edge: bool = True,
) -> dict[str, int]:
    """OpenGotha's DC (spec §2.4.4). ``secondary`` ranks players by the criteria after DC
    (1 = best, equal values share); ``net_one_edge`` keeps OpenGotha's quirk that only a net
    balance of exactly +1 makes an edge.

    >>> net = {"A": {"B": 1, "C": 1}, "B": {"A": -1, "C": 1}, "C": {"A": -1, "B": -1}}
    >>> walraet_dc(["A", "B", "C"], net, {"A": 3, "B": 2, "C": 1})
    {'C': 0, 'B': 1, 'A': 2}
    >>> cycle = {"A": {"B": 1, "C": -1}, "B": {"C": 1, "A": -1}, "C": {"A": 1, "B": -1}}
    >>> walraet_dc(["A", "B", "C"], cycle, {"A": 2, "B": 1, "C": 3})
    {'C': 0, 'A': 1, 'B': 2}
    """
    members = set(group)
    edges: dict[str, list[str]] = {}
    for a in group:
        row = net.get(a)
        if row:
            targets = [b for b, v in row.items() if (v == 1 if net_one_edge else v > 0) and b in members]
            if targets:
                edges[a] = targets
    comp = _components(group, edges)
    # Edges between components (a cycle's node inherits its members' external wins).
    out_edges: dict[int, set[int]] = {c: set() for c in comp.values()}
    for a, targets in edges.items():
        for b in targets:
            if comp[a] != comp[b]:
                out_edges[comp[a]].add(comp[b])
    # Bottom-up: the "available" players are those whose node beats no remaining node; a
    # heap keeps them by secondary rank (worst first) so the whole pass is O((n + e) log n).
    beats_remaining = {c: len(targets) for c, targets in out_edges.items()}
    beaten_by: dict[int, list[int]] = {c: [] for c in out_edges}
    for c, beaten in out_edges.items():
        for t in beaten:
            beaten_by[t].append(c)
    members_of: dict[int, list[str]] = {}
    for a in group:
        members_of.setdefault(comp[a], []).append(a)
    remaining_in_comp = {c: len(m) for c, m in members_of.items()}
    order = {p: i for i, p in enumerate(group)}
    heap = [(-secondary[p], order[p], p) for p in group if beats_remaining[comp[p]] == 0]
    heapq.heapify(heap)
    classes: list[list[str]] = []
    while heap:
        worst = heap[0][0]
        chosen = []
        while heap and heap[0][0] == worst:
            chosen.append(heapq.heappop(heap)[2])
        classes.append(chosen)
        for p in chosen:
            c = comp[p]
            remaining_in_comp[c] -= 1
            if remaining_in_comp[c] == 0:
                for winner in beaten_by[c]:
                    beats_remaining[winner] -= 1
                    if beats_remaining[winner] == 0:
                        for q in members_of[winner]:
                            heapq.heappush(heap, (-secondary[q], order[q], q))
    return places_from_classes(classes)


def _components(group: Sequence[str], edges: Mapping[str, Sequence[str]]) -> dict[str, int]:
    """Player → victory-cycle component number. A player who beats no one or whom no one
    beats inside the group cannot be on a cycle: such players are trimmed away repeatedly
    (O(n + e)) and Tarjan's algorithm runs on what is left, usually a small core."""
    out_degree = {a: len(t) for a, t in edges.items()}
    beaten_by: dict[str, list[str]] = {}
    for a, targets in edges.items():
        for b in targets:
            beaten_by.setdefault(b, []).append(a)
    in_degree = {b: len(w) for b, w in beaten_by.items()}
    trimmed: set[str] = set()
    todo = [a for a in group if not out_degree.get(a) or not in_degree.get(a)]
    while todo:
        a = todo.pop()
        if a in trimmed:
            continue
        trimmed.add(a)
        for w in beaten_by.get(a, ()):
            if w not in trimmed:
                out_degree[w] -= 1
                if out_degree[w] == 0:
                    todo.append(w)
        for b in edges.get(a, ()):
            if b not in trimmed:
                in_degree[b] -= 1
                if in_degree[b] == 0:
                    todo.append(b)
    comp: dict[str, int] = {}
    if len(trimmed) < len(group):
        core = [a for a in group if a not in trimmed]
        core_edges = {a: [b for b in edges[a] if b not in trimmed] for a in core}
        comp = strongly_connected(core, core_edges)
    number = max(comp.values(), default=-1) + 1
    for a in group:
        if a not in comp:
            comp[a] = number
            number += 1
    return comp


def egf_dc(
    group: Sequence[str],
    score: Callable[[Sequence[str]], tuple[dict[str, int], dict[str, int]]],
) -> tuple[dict[str, int], list[tuple[list[str], dict[str, int] | None]]]:
    """The EGF Direct Comparison (spec §6.3), iterated on the sub-groups it leaves tied.

    ``score(sub_group)`` returns (each member's score over games among the sub-group — in
    any unit, higher better —, each member's number of those games). Returns the values and
    the steps taken: ``(sub-group, scores)`` or ``(sub-group, None)`` when the sub-group was
    not all-played-the-same-number and so left tied.

    >>> games = {("A", "B"): "A", ("C", "D"): "C"}
    >>> def score(sub):
    ...     s = dict.fromkeys(sub, 0); n = dict.fromkeys(sub, 0)
    ...     for (x, y), w in games.items():
    ...         if x in s and y in s:
    ...             s[w] += 2; n[x] += 1; n[y] += 1
    ...     return s, n
    >>> egf_dc(["A", "B", "C", "D"], score)[0]
    {'B': 0, 'D': 0, 'A': 2, 'C': 2}
    >>> games = {("A", "B"): "A", ("A", "C"): "A"}
    >>> egf_dc(["A", "B", "C"], score)[0]
    {'A': 0, 'B': 0, 'C': 0}
    """
    steps: list[tuple[list[str], dict[str, int] | None]] = []

    def refine(sub: list[str]) -> list[list[str]]:
        """Tie classes of ``sub``, worst first."""
        scores, counts = score(sub)
        if len(set(counts.values())) > 1:
            steps.append((sub, None))
            return [sub]
        steps.append((sub, scores))
        levels = sorted(set(scores.values()))
        if len(levels) == 1:
            return [sub]
        out: list[list[str]] = []
        for level in levels:
            part = [p for p in sub if scores[p] == level]
            out.extend(refine(part) if len(part) > 1 else [part])
        return out

    classes = refine(list(group)) if len(group) > 1 else [list(group)]
    return places_from_classes(classes), steps
