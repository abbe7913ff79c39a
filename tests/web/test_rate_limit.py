"""The report page's rate limits (:mod:`goledger.web.rate_limit`): token buckets refilled with
time, bounded in the names they keep."""

from __future__ import annotations

from goledger.web.rate_limit import ADDRESS_LIMIT, KEY_LIMIT, RateLimit


def test_a_bucket_refills_with_time_and_never_beyond_its_burst() -> None:
    now = [0.0]
    limit = RateLimit(per_minute=6, burst=3, max_names=10, clock=lambda: now[0])
    assert [limit.allow("k") for _ in range(4)] == [True, True, True, False]
    now[0] += 10  # one token a ten seconds
    assert [limit.allow("k") for _ in range(2)] == [True, False]
    now[0] += 3600
    assert [limit.allow("k") for _ in range(4)] == [True, True, True, False]


def test_the_buckets_kept_are_bounded_least_recently_used_first() -> None:
    limit = RateLimit(per_minute=1, burst=1, max_names=100, clock=lambda: 0.0)
    for n in range(1000):
        limit.allow(f"address {n}")
    assert len(limit) == 100
    assert not limit.allow("address 999"), "the most recent ones are kept"
    assert limit.allow("address 0"), "the oldest was forgotten: a fresh bucket"


def test_the_desks_limits_allow_a_hall_behind_one_address() -> None:
    per_minute, burst, kept = ADDRESS_LIMIT
    assert burst >= 2 * 760 and per_minute >= 2 * 760 and kept <= 100_000, "760 players' GET + POST at once"
    assert KEY_LIMIT[:2] == (6, 6)
