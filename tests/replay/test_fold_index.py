"""The fold keeps ``state.table_of`` (player → table of his first game, per round) equal to
an index rebuilt from the games after any event sequence, including removed and repeated
pairings (performance issue 9: unpairing does not rebuild the index each time)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from goledger.ledger import events as ev
from goledger.replay.fold.state import fold

from .test_snapshots import PLAYERS, START, event, pid, rnd, table

pairing = st.builds(ev.GamePaired, round=rnd, table=table, white=pid, black=pid)
removal = st.builds(ev.PairingRemoved, round=rnd, table=table)


def rebuilt(state) -> dict[int, dict[str, int]]:  # type: ignore[no-untyped-def]
    out: dict[int, dict[str, int]] = {}
    for round_, tables in state.games.items():
        index: dict[str, int] = {}
        for number in sorted(tables):
            index.setdefault(tables[number].white, number)
            index.setdefault(tables[number].black, number)
        if index:
            out[round_] = index
    return out


@st.composite
def proper_round(draw: st.DrawFn) -> list[ev.Event]:
    """A round paired as a director pairs it (each player once), then tables removed."""
    round_ = draw(rnd)
    order = draw(st.permutations(PLAYERS))
    events: list[ev.Event] = [ev.GamePaired(round=round_, table=i // 2 + 1, white=order[i], black=order[i + 1])
                              for i in range(0, len(order) - 1, 2)]
    removed = draw(st.lists(st.integers(1, len(order) // 2), max_size=len(order)))
    return events + [ev.PairingRemoved(round=round_, table=t) for t in removed]


@settings(max_examples=300, deadline=None)
@given(events=st.lists(st.one_of(pairing, removal, pairing, event), max_size=40))
def test_table_index_equals_a_rebuilt_one(events: list[ev.Event]) -> None:
    state = fold([*START, *events])
    assert state.table_of == rebuilt(state)


@settings(max_examples=150, deadline=None)
@given(rounds=st.lists(proper_round(), min_size=1, max_size=4),
       noise=st.lists(st.one_of(pairing, removal), max_size=4))
def test_unpairing_proper_rounds_keeps_the_index(rounds: list[list[ev.Event]], noise: list[ev.Event]) -> None:
    state = fold([*START, *(e for r in rounds for e in r), *noise])
    assert state.table_of == rebuilt(state)
