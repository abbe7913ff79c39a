"""The Hungarian federation's handicap-equalised rating difference (seed ``mge-rating.json``)."""

from __future__ import annotations

import json
import re

import pytest

from goledger.ledger.values import Rank
from goledger.replay.scoring.mge_rating import equalised_difference

from ..conftest import SHARED

EXAMPLE = ("A 1 dan rated 1910 plays a 3 dan rated 2020 with 2 handicap stones. Raw difference 110 points; the "
           "handicap compensation is the difference of the lower rating limits of 1 dan and 3 dan, 140 points; "
           "equalised difference = 30 points in favour of the 3 dan.")


def check(example: str) -> None:
    """The numbers of the example text, recomputed by the rule: the raw difference, the
    compensation and the size of the equalised difference; the 3 dan is the underdog."""
    found = re.search(r"A (\d) dan rated (\d+) plays a (\d) dan rated (\d+) with (\d) handicap stones", example)
    assert found is not None, example
    weak_dan, weak_rating, strong_dan, strong_rating, stones = (int(n) for n in found.groups())
    raw, compensation, equalised = (int(n) for n in re.findall(r"(\d+) points", example))
    weak, strong = (weak_rating, Rank.parse(f"{weak_dan}d")), (strong_rating, Rank.parse(f"{strong_dan}d"))
    # Only the gap between the two ranks' lower limits is given; the base 1900 is a placeholder.
    limits = {weak[1]: 1900, strong[1]: 1900 + compensation}
    assert equalised_difference(strong, weak, 0, limits.__getitem__) == raw == strong_rating - weak_rating
    difference = equalised_difference(strong, weak, stones, limits.__getitem__)
    assert difference == raw - compensation == -equalised == -30


def test_the_example_as_written_here() -> None:
    check(EXAMPLE)


@pytest.mark.skipif(SHARED is None, reason="../shared is not present")
def test_the_example_from_shared() -> None:
    assert SHARED is not None
    data = json.loads((SHARED / "seed-examples" / "mge-rating.json").read_text(encoding="utf-8"))
    check(data["equalised_rating_difference"]["example"])


def test_stones_are_worth_the_limits_they_span_and_refusals() -> None:
    limits = {Rank.parse(r): v for r, v in (("5k", 1500), ("4k", 1560), ("3k", 1620), ("2k", 1700))}
    assert equalised_difference((1690, Rank.parse("2k")), (1500, Rank.parse("5k")), 2, limits.__getitem__) == 70
    assert equalised_difference((1690, Rank.parse("2k")), (1500, Rank.parse("5k")), 3, limits.__getitem__) == -10
    with pytest.raises(ValueError, match="give the stronger-ranked player first"):
        equalised_difference((1500, Rank.parse("5k")), (1690, Rank.parse("2k")), 2, limits.__getitem__)
    with pytest.raises(ValueError, match="beyond 9d"):
        equalised_difference((2700, Rank.parse("9d")), (2600, Rank.parse("8d")), 3, limits.__getitem__)
