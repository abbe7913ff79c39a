"""Domain values: ranks, results, points (issue 2, item 6: malformed ranks refused)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from goledger.ledger.values import Rank, RankError, Result, format_points, parse_points2


@pytest.mark.parametrize(
    ("text", "canonical", "value"),
    [("30k", "30k", -30), ("1K", "1k", -1), ("1d", "1d", 0), ("9D", "9d", 8), (" 5k ", "5k", -5),
     ("1p", "1p", 6), ("3P", "3p", 6), ("4p", "4p", 7), ("9p", "9p", 8)],
)
def test_rank_parses_any_case(text: str, canonical: str, value: int) -> None:
    rank = Rank.parse(text)
    assert str(rank) == canonical
    assert rank.value == value


@pytest.mark.parametrize("text", ["31k", "0k", "10d", "0d", "10p", "3x", "", "k", "3", "3 dan", "1.5k", "-2k"])
def test_malformed_ranks_are_refused(text: str) -> None:
    with pytest.raises(RankError, match="is not a rank"):
        Rank.parse(text)


def test_ranks_order_weakest_to_strongest() -> None:
    ranks = [Rank.parse(t) for t in ("2d", "30k", "1p", "1k", "9d", "1d")]
    # pros fold into 7d-9d (OpenGotha reader): 1p sorts just above 7d, below 9d
    assert [str(r) for r in sorted(ranks)] == ["30k", "1k", "1d", "2d", "1p", "9d"]
    assert Rank.from_value(-30) == Rank.parse("30k") and Rank.from_value(99) == Rank.parse("9d")


def test_rank_is_immutable() -> None:
    with pytest.raises(AttributeError):
        Rank.parse("1d").number = 2  # type: ignore[misc]


def test_results_points_and_aliases() -> None:
    assert Result.parse("W") is Result.WHITE and Result.parse("0-1") is Result.BLACK
    assert Result.parse("both_lose") is Result.BOTH_LOSE
    assert [r.points2() for r in Result] == [(2, 0), (0, 2), (1, 1), (0, 0), (2, 2), (0, 0)]
    with pytest.raises(ValueError, match="is not a result"):
        Result.parse("draw-ish")


def test_points_are_exact() -> None:
    assert parse_points2("0") == 0 and parse_points2("½") == 1 and parse_points2("2,5") == 5
    with pytest.raises(ValueError):
        parse_points2("0.25")
    assert format_points(Fraction(9, 4)) == "2¼" and format_points(-1, 2) == "-½"
