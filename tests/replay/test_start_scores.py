"""Start-score variants of the founding documents: grouped McMahon, the EGF super-group rule,
the bar-size warning and the McMahon zero conventions (seed ``egf-rules.json``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from goledger import commands
from goledger.commands.start_rules import start_groups
from goledger.errors import CommandRejected
from goledger.ledger import events as ev
from goledger.replay.fold.state import TournamentState, fold
from goledger.replay.scoring.policies import get_policy
from goledger.replay.scoring.scoring import ScoringContext, start_mms
from goledger.replay.scoring.start_scores import bar_size_warning, parse_groups, start_score_table, start_scores
from goledger.replay.views import state_as_of

from ..conftest import SHARED

EGF_COPY: dict[str, Any] = {
    "super_group": "By default none. Rule quoted for 6-round tournaments with the bar at 4d: if more than 6(N-2) "
                   "players are above the bar, the 4(N-2) strongest get +1 starting score (N = rounds).",
    "bar_size_rule_hungarian": "The bar works best when 2^(rounds-1) < players above the bar < 2^rounds.",
    "mcmahon_zero_conventions": {"UK/US": "1d = 0, kyu negative, n dan = n-1",
                                 "Europe": "20k = 0 (dan players get double-digit starting scores)",
                                 "OpenGotha": "30k = 0, so 1d = 30"},
}


def field(ranks: list[str], rounds: int = 6, ratings: list[int] | None = None, **settings: Any) -> TournamentState:
    events: list[ev.Event] = [ev.TournamentCreated(settings=ev.TournamentSettings(
        name="t", rounds=rounds, mm_bar="4d", mm_floor="20k", **settings))]
    for i, rank in enumerate(ranks, start=1):
        events.append(ev.PlayerRegistered(player_id=f"p{i:04d}", surname=f"P{i}", rank=rank,
                                          rating=ratings[i - 1] if ratings else None))
    return fold(events)


def check_egf_rules(data: dict[str, Any]) -> None:
    """The super-group rule with the numbers of the text (N = 6, bar 4d), the bar-size range and
    the three McMahon zero conventions."""
    rule = data["super_group"]
    more_than = re.search(r"more than (\d+)\(N-2\)", rule)
    strongest = re.search(r"the (\d+)\(N-2\) strongest", rule)
    rounds = int(re.search(r"(\d+)-round", rule).group(1))  # type: ignore[union-attr]
    assert more_than and strongest and "4d" in rule and "By default none" in rule
    threshold = int(more_than.group(1)) * (rounds - 2)
    size = int(strongest.group(1)) * (rounds - 2)
    ranks = ["7d", "6d", "5d", "4d"] * 10
    ratings = list(range(2700, 2700 - 40 * 5, -5))
    # at the threshold: nobody gets the point; one more player: the `size` strongest do
    at = field(ranks[:threshold], rounds, ratings[:threshold], mm_super_group=True)
    assert set(start_scores(at, at.settings).values()) <= {33}  # type: ignore[arg-type]
    over = field(ranks[:threshold + 1], rounds, ratings[:threshold + 1], mm_super_group=True)
    scores = start_scores(over, over.settings)  # type: ignore[arg-type]
    lifted = sorted(pid for pid, s in scores.items() if s == 34)
    assert len(lifted) == size
    by_strength = sorted(over.players.values(), key=lambda p: (-int(p.rank[0]), -(p.rating or 0)))
    assert lifted == sorted(p.id for p in by_strength[:size])
    off = field(ranks[:threshold + 1], rounds, ratings[:threshold + 1])
    assert set(start_scores(off, off.settings).values()) == {33}  # type: ignore[arg-type]

    bar = data["bar_size_rule_hungarian"]
    assert "2^(rounds-1) < players above the bar < 2^rounds" in bar
    assert [bar_size_warning(n, rounds) is None for n in (32, 33, 63, 64)] == [False, True, True, False]

    zeros = data["mcmahon_zero_conventions"]
    assert "1d = 0" in zeros["UK/US"] and "20k = 0" in zeros["Europe"] and "1d = 30" in zeros["OpenGotha"]
    wide = {"name": "t", "rounds": 5, "mm_bar": "9d", "mm_floor": "30k"}
    uk = ev.TournamentSettings(mm_zero="1d", **wide)  # type: ignore[arg-type]
    assert (start_mms("1d", 0, uk), start_mms("3d", 0, uk), start_mms("5k", 0, uk)) == (0, 2, -5)
    europe = ev.TournamentSettings(mm_zero="20k", **wide)  # type: ignore[arg-type]
    assert (start_mms("20k", 0, europe), start_mms("1d", 0, europe), start_mms("3d", 0, europe)) == (0, 20, 22)
    opengotha = ev.TournamentSettings(mm_zero="30k", **wide)  # type: ignore[arg-type]
    assert (start_mms("30k", 0, opengotha), start_mms("1d", 0, opengotha)) == (0, 30)


def test_egf_rules_hand_copy() -> None:
    check_egf_rules(EGF_COPY)


@pytest.mark.shared
@pytest.mark.skipif(SHARED is None, reason="../shared is not present")
def test_egf_rules_from_shared() -> None:
    assert SHARED is not None
    check_egf_rules(json.loads((SHARED / "seed-examples" / "egf-rules.json").read_text(encoding="utf-8")))


def test_grouped_mcmahon() -> None:
    groups = parse_groups("4d-9d=33, 1d-3d=31, 5k-1k=29")
    state = field(["6d", "3d", "1d", "2k", "5k", "8k", "25k"], mm_groups=groups)
    scores = start_scores(state, state.settings)  # type: ignore[arg-type]
    assert list(scores.values()) == [33, 31, 31, 29, 29, 22, 10]  # 8k and 25k: rank and floor
    table = start_score_table(state)
    assert [r.source for r in table.rows] == ["group 4d–9d", "group 1d–3d", "group 1d–3d", "group 5k–1k",
                                              "group 5k–1k", "rank", "floor"]
    assert any("ranks in no start group" in w and "25k, 8k" in w for w in table.warnings)
    # the McMahon score starts there
    ctx = ScoringContext(state, 0, get_policy("opengotha"))
    assert ctx.smms == scores


def test_super_group_cut_between_equals_is_reported() -> None:
    # N = 3: more than 6 at or above the bar → the 4 strongest; the 4th and 5th are equal
    state = field(["6d", "5d", "5d", "4d", "4d", "4d", "4d"], rounds=3, mm_super_group=True)
    scores = start_scores(state, state.settings)  # type: ignore[arg-type]
    assert [scores[f"p{i:04d}"] for i in range(1, 8)] == [34, 34, 34, 34, 33, 33, 33]
    table = start_score_table(state)
    assert table.super_group_size == 4
    assert any("falls between players of equal rank 4d" in w for w in table.warnings)


def test_super_group_adds_to_the_personal_correction() -> None:
    state = field(["5d"] * 7, rounds=3, mm_super_group=True)
    state.players["p0001"].mm_correction = 1
    state.players["p0007"].mm_correction = -1
    scores = start_scores(state, state.settings)  # type: ignore[arg-type]
    assert scores["p0001"] == 35 and scores["p0007"] == 32 and scores["p0002"] == 34


def test_start_groups_command_and_views(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "mm.db"
    commands.new(db, "MM", 3, system="mcmahon")
    for i, rank in enumerate(["6d", "3d", "1k", "15k"]):
        commands.register(db, f"P{i}", "", rank)
    with pytest.raises(CommandRejected, match="overlap"):
        start_groups(db, "1d-3d=31, 2d-5d=32")
    with pytest.raises(CommandRejected, match="RANK-RANK=SCORE"):
        start_groups(db, "1d=31")
    with pytest.raises(CommandRejected, match="needs"):
        start_groups(db)
    start_groups(db, "1d-3d=31", super_group=True)
    state = state_as_of(db)
    assert state.settings is not None and state.settings.mm_super_group
    assert [(g.lowest, g.highest, g.score) for g in state.settings.mm_groups] == [("1d", "3d", 31)]
    start_groups(db, "5k-1k=28", from_round=2)
    state = state_as_of(db)
    assert start_scores(state, state.settings_for_round(1))["p0003"] == 29
    assert start_scores(state, state.settings_for_round(2))["p0003"] == 28
    result = cli("start-scores", "--json", "--db", db)
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["super_group_rule"] is True and data["at_or_above_bar"] == 1
    assert any("bar works best" in w for w in data["warnings"])
    text = cli("start-scores", "--round", "2", "--db", db)
    assert text.code == 0 and "group 5k–1k" in text.out and "bar works best" in text.err
    assert cli("start-groups", "--groups", "", "--db", db).code == 0
    assert state_as_of(db).settings.mm_groups == ()  # type: ignore[union-attr]
