"""The worked examples of ../shared/seed-examples/ (FIDE side) as tests.

Each ``check_*`` function takes the example's JSON data. It runs twice: on the file from
``../shared`` (skipped when absent) and on a hand-written copy of the values it needs, so a
fresh clone still tests the FIDE rules.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction as F
from typing import Any

import pytest

from goledger.commands.schedule import berger_rounds
from goledger.replay.scoring.criteria import get_criterion
from goledger.replay.scoring.criteria.fide import de_order, direct_encounter_points, progressive
from goledger.replay.scoring.criteria.fide_rating import round_half_up
from goledger.replay.scoring.fide_unplayed import FideData
from goledger.replay.scoring.policies import get_policy
from goledger.replay.scoring.scoring import ScoringContext

from ..conftest import SHARED
from ..fide_build import Tourney, from_records

# --------------------------------------------------------------------------- fide2009-buchholz

FIDE2009_COPY: dict[str, Any] = {
    "rounds": 7,
    "player": {"id": 4, "score": "5.5"},
    "player_rounds": [
        {"round": 1, "opponent": 24, "colour": "white", "result": "W"},
        {"round": 2, "opponent": 13, "colour": "black", "result": "+"},
        {"round": 3, "opponent": 41, "colour": "black", "result": "W"},
        {"round": 4, "opponent": 1, "colour": "black", "result": "D"},
        {"round": 5, "opponent": 3, "colour": "white", "result": "W"},
        {"round": 6, "opponent": 2, "colour": "white", "result": "L"},
        {"round": 7, "opponent": 11, "colour": "black", "result": "W"},
    ],
    "opponents": {
        "24": {"results": ["L", "W", "D", "D", "D", "W", "L"], "score": "3.5", "adjusted": "3.5"},
        "13": {"results": ["W", "-", "ABS", "ABS", "ABS", "ABS", "ABS"], "score": "1"},
        "41": {"results": ["BYE", "W", "L", "D", "L", "W", "L"], "score": "3.5", "adjusted": "3"},
        "1": {"results": ["W", "W", "W", "D", "W", "D", "W"], "score": "6", "adjusted": "6"},
        "3": {"results": ["W", "W", "W", "-", "L", "W", "L"], "score": "4", "adjusted": "4.5"},
        "2": {"results": ["W", "W", "W", "+", "L", "W", "W"], "score": "6", "adjusted": "5.5"},
        "11": {"results": ["W", "L", "W", "W", "W", "D", "L"], "score": "4.5", "adjusted": "4.5"},
    },
    "expected": {
        "round_2_virtual_opponent": "3.5",
        "terms_by_round": ["3.5", "3.5", "3", "6", "4.5", "5.5", "4.5"],
        "buchholz": "30.5",
        "buchholz_median_1": "21.5",
        "buchholz_cut_1": "27.5",
        "buchholz_cut_2": "24",
        "sonneborn_berger": "22",
        "sonneborn_berger_terms": ["3.5", "3.5", "3", "3", "4.5", "0", "4.5"],
    },
}


def check_fide2009_buchholz(data: dict[str, Any]) -> None:
    me = str(data["player"]["id"])
    vs_me = {str(row["opponent"]): row for row in data["player_rounds"]}
    records: dict[str, list[tuple[str | None, str, str | None]]] = {
        me: [(str(row["opponent"]), row["result"], row["colour"]) for row in data["player_rounds"]]
    }
    for opp, info in data["opponents"].items():
        met = vs_me[opp]["round"]
        records[opp] = [(me if r == met else None, code, "white") for r, code in enumerate(info["results"], start=1)]
    t = from_records(data["rounds"], records, policy="fide-2009")
    state = t.state()
    policy = get_policy("fide-2009")
    fide = FideData(state, data["rounds"], policy)
    assert F(fide.score2[t.ids[me]], 2) == F(data["player"]["score"])
    for opp, info in data["opponents"].items():
        assert F(fide.score2[t.ids[opp]], 2) == F(info["score"]), opp
        if "adjusted" in info:
            assert F(fide.adjusted2[t.ids[opp]], 2) == F(info["adjusted"]), opp

    expected = data["expected"]
    values = t.values(["BH", "BH-C1", "BH-C2", "BH-M1", "SB"])[me]
    assert values["BH"] == F(expected["buchholz"])
    assert values["BH-C1"] == F(expected["buchholz_cut_1"])
    assert values["BH-C2"] == F(expected["buchholz_cut_2"])
    assert values["BH-M1"] == F(expected["buchholz_median_1"])
    assert values["SB"] == F(expected["sonneborn_berger"])

    ctx = ScoringContext(state, data["rounds"], policy)
    bh = get_criterion("BH").explain(ctx, t.ids[me])  # type: ignore[misc]
    assert [F(term.value, 2) for term in bh.terms] == [F(v) for v in expected["terms_by_round"]]
    assert F(bh.terms[1].value, 2) == F(expected["round_2_virtual_opponent"])
    assert "virtual opponent" in bh.terms[1].source
    sb = get_criterion("SB").explain(ctx, t.ids[me])  # type: ignore[misc]
    assert [F(term.value, 4) for term in sb.terms] == [F(v) for v in expected["sonneborn_berger_terms"]]


# --------------------------------------------------------------------------- progressive

PROGRESSIVE_COPY: dict[str, Any] = {
    "rounds": 7,
    "results": ["W", "L", "D", "+", "W", "L", "L"],
    "expected": {
        "score": "3.5",
        "running_scores": ["1", "1", "1.5", "2.5", "3.5", "3.5", "3.5"],
        "progressive": "16.5",
        "progressive_cut_first_3_rounds": "13",
        "adjusted_score_unplayed_as_half": "3",
        "kashdan_win4_draw2_loss1_unplayed2": "15",
        "wins_including_forfeit_wins": 3,
        "games_won_over_the_board": 2,
    },
}


def check_progressive(data: dict[str, Any]) -> None:
    t = from_records(data["rounds"], {"X": [(None, code, "white") for code in data["results"]]}, policy="fide-2009")
    pid = t.ids["X"]
    fide = FideData(t.state(), data["rounds"], get_policy("fide-2009"))
    expected = data["expected"]
    assert F(fide.score2[pid], 2) == F(expected["score"])
    assert [F(v, 2) for v in fide.running2[pid][1:]] == [F(v) for v in expected["running_scores"]]
    assert F(progressive(fide, pid), 2) == F(expected["progressive"])
    assert F(progressive(fide, pid, 3), 2) == F(expected["progressive_cut_first_3_rounds"])
    assert F(fide.adjusted2[pid], 2) == F(expected["adjusted_score_unplayed_as_half"])
    values = t.values(["PS", "KASHDAN", "WIN", "WON"])["X"]
    assert values["PS"] == F(expected["progressive"])
    assert values["KASHDAN"] == F(expected["kashdan_win4_draw2_loss1_unplayed2"])
    assert values["WIN"] == expected["wins_including_forfeit_wins"]
    assert values["WON"] == expected["games_won_over_the_board"]


# --------------------------------------------------------------------------- rating-average

RATING_COPY: dict[str, Any] = {
    "opponent_ratings": [2435, 2338, 2450, 2456, 2139, 2550, 2344, 2540, 2445],
    "expected": {"average": "2410.8 (... FIDE ARO rounds to a whole number: 2411)",
                 "average_cut_lowest": "2448.8 (2448.75; FIDE rounding 2449)"},  # sic, see check
}


def _last_int(text: str) -> int:
    return int(re.findall(r"\d+", text)[-1])


def check_rating_average(data: dict[str, Any]) -> None:
    ratings = data["opponent_ratings"]
    t = Tourney(len(ratings), policy="fide-2024")
    t.player("me", 2400)
    for r, rating in enumerate(ratings, start=1):
        t.player(f"o{r}", rating)
        t.game(r, "me", f"o{r}", "=")
    values = t.values(["ARO", "ARO-C1"])["me"]
    expected = data["expected"]
    assert round(F(sum(ratings), len(ratings)), 1) == F(expected["average"].split()[0])
    assert values["ARO"] == _last_int(expected["average"])
    # ARO-C1 drops the lowest rating (2139): 19558 / 8 = 2444.75 → 2445. The document's
    # "2448.75 → 2449" cannot come from these ratings (no single cut gives 2448.75): an
    # erratum in the source, kept visible here rather than reproduced.
    cut_exact = F(sum(ratings) - min(ratings), len(ratings) - 1)
    assert values["ARO-C1"] == round_half_up(cut_exact) == 2445
    stated = F(re.findall(r"\d+\.\d+", expected["average_cut_lowest"])[-1])
    if stated != cut_exact:
        assert all(F(sum(ratings) - x, len(ratings) - 1) != stated for x in ratings)
        assert _last_int(expected["average_cut_lowest"]) == round_half_up(stated)


# --------------------------------------------------------------------------- round robin, Koya

KOYA_COPY: dict[str, Any] = {
    "players": ["Ali", "Veli", "Huseyin", "Abidin", "Aysel", "Levent", "Hulya", "Necla", "Suat", "Melih", "Hakan",
                "Fatma"],
    "crosstable": [
        [None, "0.5", "0.5", "0.5", "0.5", "1", "0.5", "1", "0.5", "1", "0.5", "1"],
        ["0.5", None, "0.5", "0.5", "0.5", "0.5", "1", "1", "1", "0.5", "0.5", "1"],
        ["0.5", "0.5", None, "1", "1", "0.5", "0.5", "0", "1", "0.5", "1", "0.5"],
        ["0.5", "0.5", "0", None, "0.5", "1", "1", "0.5", "0.5", "0.5", "0.5", "1"],
        ["0.5", "0.5", "0", "0.5", None, "0", "0.5", "0.5", "0.5", "0.5", "1", "1"],
        ["0", "0.5", "0.5", "0", "1", None, "1", "1", "0.5", "0.5", "0", "0.5"],
        ["0.5", "0", "0.5", "0", "0.5", "0", None, "0.5", "0.5", "1", "1", "0.5"],
        ["0", "0", "1", "0.5", "0.5", "0", "0.5", None, "1", "0.5", "0", "1"],
        ["0.5", "0", "0", "0.5", "0.5", "0.5", "0.5", "0", None, "1", "1", "0"],
        ["0", "0.5", "0.5", "0.5", "0.5", "0.5", "0", "0.5", "0", None, "0.5", "1"],
        ["0.5", "0.5", "0", "0.5", "0", "1", "0", "1", "0", "0.5", None, "0"],
        ["0", "0", "0.5", "0", "0", "0.5", "0.5", "0", "1", "0", "1", None],
    ],
    "expected": {
        "scores": {"Ali": "7.5", "Veli": "7.5", "Huseyin": "7", "Abidin": "6.5", "Aysel": "5.5", "Levent": "5.5",
                   "Hulya": "5", "Necla": "5", "Suat": "4.5", "Melih": "4.5", "Hakan": "4", "Fatma": "3.5"},
        "koya": {"Ali": "3", "Veli": "2.5"},
        "order_of_Ali_and_Veli_by_koya": ["Ali", "Veli"],
    },
}

_CODE = {"1": "1-0", "0.5": "=", "0": "0-1"}


def round_robin_from_crosstable(players: list[str], crosstable: list[list[str | None]], policy: str) -> Tourney:
    """Record a round robin on the Berger schedule with the results of a crosstable."""
    rounds = berger_rounds(len(players))
    t = Tourney(len(rounds), system="round-robin", policy=policy)
    for name in players:
        t.player(name)
    for r, tables in enumerate(rounds, start=1):
        for white, black in tables:
            if white > len(players) or black > len(players):
                continue
            t.game(r, players[white - 1], players[black - 1], _CODE[crosstable[white - 1][black - 1]])  # type: ignore[index]
    return t


def check_round_robin_koya(data: dict[str, Any]) -> None:
    t = round_robin_from_crosstable(data["players"], data["crosstable"], "fide-2024")
    values = t.values(["PTS", "KS", "DE", "SB", "WIN"])
    expected = data["expected"]
    assert {name: v["PTS"] for name, v in values.items()} == {n: F(s) for n, s in expected["scores"].items()}
    for name, koya in expected["koya"].items():
        assert values[name]["KS"] == F(koya), name
    # Ali and Veli drew their game: direct encounter leaves them tied, Koya separates them.
    assert values["Ali"]["DE"] == values["Veli"]["DE"]
    order = [name for name, _ in sorted(values.items(), key=lambda kv: (-kv[1]["PTS"], -kv[1]["KS"]))][:2]
    assert order == expected["order_of_Ali_and_Veli_by_koya"]


# --------------------------------------------------------------------------- direct encounter

DE_COPY: dict[str, Any] = {
    "players": ["P1", "P2", "P3"],
    "mutual": [[None, "1", "0.5"], ["0", None, "1"], ["0.5", "0", None]],
    "expected": {"direct_encounter_points": {"P1": "1.5", "P2": "1", "P3": "0.5"}, "order": ["P1", "P2", "P3"]},
}


def check_direct_encounter(data: dict[str, Any]) -> None:
    t = round_robin_from_crosstable(data["players"], data["mutual"], "fide-2024")
    state = t.state()
    fide = FideData(state, state.rounds, get_policy("fide-2024"))
    group = [t.ids[name] for name in data["players"]]
    points, met = direct_encounter_points(fide, group)
    assert len(met) == 3
    names = {pid: name for name, pid in t.ids.items()}
    assert {names[pid]: v for pid, v in points.items()} == {
        n: F(v) for n, v in data["expected"]["direct_encounter_points"].items()
    }
    assert [[names[pid] for pid in cls] for cls in de_order(fide, group)] == [[n] for n in data["expected"]["order"]]


# --------------------------------------------------------------------------- runners

CASES = {
    "fide2009-buchholz.json": (check_fide2009_buchholz, FIDE2009_COPY),
    "progressive.json": (check_progressive, PROGRESSIVE_COPY),
    "rating-average.json": (check_rating_average, RATING_COPY),
    "round-robin-koya.json": (check_round_robin_koya, KOYA_COPY),
    "direct-encounter.json": (check_direct_encounter, DE_COPY),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_seed_example_hand_copy(name: str) -> None:
    check, copy = CASES[name]
    check(copy)


@pytest.mark.shared
@pytest.mark.skipif(SHARED is None, reason="../shared is not present")
@pytest.mark.parametrize("name", sorted(CASES))
def test_seed_example_from_shared(name: str) -> None:
    assert SHARED is not None
    check, _ = CASES[name]
    check(json.loads((SHARED / "seed-examples" / name).read_text(encoding="utf-8")))
