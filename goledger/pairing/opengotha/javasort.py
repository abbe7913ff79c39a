"""Java's ``Collections.sort`` with a comparator (OpenJDK's TimSort), step for step.

OpenGotha sorts the games of a round with a comparator that answers "after" both ways for
two games that are equal on placement and rating (``GameComparator.BEST_SCR_ORDER``), so the
order of such games is whatever Java's TimSort makes of it: mostly the input order, except
where a merge gallops. To number tables as OpenGotha does, the same algorithm runs here on
the same comparator: runs found (descending ones reversed) and extended to ``minRun`` by
binary insertion, pushed on a stack kept balanced, merged low or high with galloping after
``MIN_GALLOP`` = 7 wins in a row (the threshold adapting as in Java). Arrays shorter than 32
are sorted by binary insertion alone.

>>> java_sort([3, 1, 2], lambda a, b: (a > b) - (a < b))
[1, 2, 3]
>>> ties_after = lambda a, b: -1 if a[0] < b[0] else 1  # never 0, like OpenGotha's
>>> java_sort([(1, "a"), (0, "b"), (1, "c")], ties_after)
[(0, 'b'), (1, 'a'), (1, 'c')]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

__all__ = ["JavaContractError", "java_sort"]


class JavaContractError(ValueError):
    """Where Java's TimSort throws ``IllegalArgumentException("Comparison method violates its
    general contract!")``: a merge found the comparator inconsistent (it answered "after"
    both ways for two elements and a gallop ran past the end of a run)."""

T = TypeVar("T")
Compare = Callable[[T, T], int]

MIN_MERGE = 32
MIN_GALLOP = 7


def java_sort(items: Sequence[T], compare: Compare[T]) -> list[T]:
    """A sorted copy of ``items`` exactly as ``java.util.Arrays.sort(T[], Comparator)`` leaves it."""
    a = list(items)
    n = len(a)
    if n < 2:
        return a
    if n < MIN_MERGE:
        run = _count_run(a, 0, n, compare)
        _binary_sort(a, 0, n, run, compare)
        return a
    _TimSort(a, compare).sort()
    return a


def _binary_sort(a: list[T], lo: int, hi: int, start: int, c: Compare[T]) -> None:
    if start == lo:
        start += 1
    while start < hi:
        pivot = a[start]
        left, right = lo, start
        while left < right:
            mid = (left + right) >> 1
            if c(pivot, a[mid]) < 0:
                right = mid
            else:
                left = mid + 1
        a[left + 1:start + 1] = a[left:start]
        a[left] = pivot
        start += 1


def _count_run(a: list[T], lo: int, hi: int, c: Compare[T]) -> int:
    run_hi = lo + 1
    if run_hi == hi:
        return 1
    if c(a[run_hi], a[lo]) < 0:
        run_hi += 1
        while run_hi < hi and c(a[run_hi], a[run_hi - 1]) < 0:
            run_hi += 1
        a[lo:run_hi] = a[lo:run_hi][::-1]
    else:
        run_hi += 1
        while run_hi < hi and c(a[run_hi], a[run_hi - 1]) >= 0:
            run_hi += 1
    return run_hi - lo


def _min_run(n: int) -> int:
    r = 0
    while n >= MIN_MERGE:
        r |= n & 1
        n >>= 1
    return n + r


def _gallop_left(key: T, a: list[T], base: int, length: int, hint: int, c: Compare[T]) -> int:
    last, ofs = 0, 1
    if c(key, a[base + hint]) > 0:
        max_ofs = length - hint
        while ofs < max_ofs and c(key, a[base + hint + ofs]) > 0:
            last, ofs = ofs, (ofs << 1) + 1
        ofs = min(ofs, max_ofs)
        last, ofs = last + hint, ofs + hint
    else:
        max_ofs = hint + 1
        while ofs < max_ofs and c(key, a[base + hint - ofs]) <= 0:
            last, ofs = ofs, (ofs << 1) + 1
        ofs = min(ofs, max_ofs)
        last, ofs = hint - ofs, hint - last
    last += 1
    while last < ofs:
        m = last + ((ofs - last) >> 1)
        if c(key, a[base + m]) > 0:
            last = m + 1
        else:
            ofs = m
    return ofs


def _gallop_right(key: T, a: list[T], base: int, length: int, hint: int, c: Compare[T]) -> int:
    last, ofs = 0, 1
    if c(key, a[base + hint]) < 0:
        max_ofs = hint + 1
        while ofs < max_ofs and c(key, a[base + hint - ofs]) < 0:
            last, ofs = ofs, (ofs << 1) + 1
        ofs = min(ofs, max_ofs)
        last, ofs = hint - ofs, hint - last
    else:
        max_ofs = length - hint
        while ofs < max_ofs and c(key, a[base + hint + ofs]) >= 0:
            last, ofs = ofs, (ofs << 1) + 1
        ofs = min(ofs, max_ofs)
        last, ofs = last + hint, ofs + hint
    last += 1
    while last < ofs:
        m = last + ((ofs - last) >> 1)
        if c(key, a[base + m]) < 0:
            ofs = m
        else:
            last = m + 1
    return ofs


class _TimSort:
    def __init__(self, a: list[T], c: Compare[T]) -> None:
        self.a: list[T] = a
        self.c: Compare[T] = c
        self.min_gallop = MIN_GALLOP
        self.run_base: list[int] = []
        self.run_len: list[int] = []

    def sort(self) -> None:
        a, c = self.a, self.c
        lo, remaining = 0, len(a)
        min_run = _min_run(remaining)
        while remaining:
            run = _count_run(a, lo, len(a), c)
            if run < min_run:
                force = remaining if remaining <= min_run else min_run
                _binary_sort(a, lo, lo + force, lo + run, c)
                run = force
            self.run_base.append(lo)
            self.run_len.append(run)
            self._collapse()
            lo += run
            remaining -= run
        while len(self.run_len) > 1:
            n = len(self.run_len) - 2
            if n > 0 and self.run_len[n - 1] < self.run_len[n + 1]:
                n -= 1
            self._merge_at(n)

    def _collapse(self) -> None:
        rl = self.run_len
        while len(rl) > 1:
            n = len(rl) - 2
            if (n > 0 and rl[n - 1] <= rl[n] + rl[n + 1]) or (n > 1 and rl[n - 2] <= rl[n] + rl[n - 1]):
                if rl[n - 1] < rl[n + 1]:
                    n -= 1
            elif rl[n] > rl[n + 1]:
                break
            self._merge_at(n)

    def _merge_at(self, i: int) -> None:
        a, c = self.a, self.c
        base1, len1 = self.run_base[i], self.run_len[i]
        base2, len2 = self.run_base[i + 1], self.run_len[i + 1]
        self.run_len[i] = len1 + len2
        del self.run_base[i + 1]
        del self.run_len[i + 1]
        k = _gallop_right(a[base2], a, base1, len1, 0, c)
        base1 += k
        len1 -= k
        if len1 == 0:
            return
        len2 = _gallop_left(a[base1 + len1 - 1], a, base2, len2, len2 - 1, c)
        if len2 == 0:
            return
        if len1 <= len2:
            self._merge_lo(base1, len1, base2, len2)
        else:
            self._merge_hi(base1, len1, base2, len2)

    def _merge_lo(self, base1: int, len1: int, base2: int, len2: int) -> None:
        a, c = self.a, self.c
        tmp = a[base1:base1 + len1]
        cur1, cur2, dest = 0, base2, base1
        a[dest] = a[cur2]
        dest += 1
        cur2 += 1
        len2 -= 1
        if len2 == 0:
            a[dest:dest + len1] = tmp[cur1:cur1 + len1]
            return
        if len1 == 1:
            a[dest:dest + len2] = a[cur2:cur2 + len2]
            a[dest + len2] = tmp[cur1]
            return
        min_gallop = self.min_gallop
        done = False
        while not done:
            count1 = count2 = 0
            while True:
                if c(a[cur2], tmp[cur1]) < 0:
                    a[dest] = a[cur2]
                    dest += 1
                    cur2 += 1
                    count2 += 1
                    count1 = 0
                    len2 -= 1
                    if len2 == 0:
                        done = True
                        break
                else:
                    a[dest] = tmp[cur1]
                    dest += 1
                    cur1 += 1
                    count1 += 1
                    count2 = 0
                    len1 -= 1
                    if len1 == 1:
                        done = True
                        break
                if (count1 | count2) >= min_gallop:
                    break
            if done:
                break
            while True:
                count1 = _gallop_right(a[cur2], tmp, cur1, len1, 0, c)
                if count1:
                    a[dest:dest + count1] = tmp[cur1:cur1 + count1]
                    dest += count1
                    cur1 += count1
                    len1 -= count1
                    if len1 <= 1:
                        done = True
                        break
                a[dest] = a[cur2]
                dest += 1
                cur2 += 1
                len2 -= 1
                if len2 == 0:
                    done = True
                    break
                count2 = _gallop_left(tmp[cur1], a, cur2, len2, 0, c)
                if count2:
                    a[dest:dest + count2] = a[cur2:cur2 + count2]
                    dest += count2
                    cur2 += count2
                    len2 -= count2
                    if len2 == 0:
                        done = True
                        break
                a[dest] = tmp[cur1]
                dest += 1
                cur1 += 1
                len1 -= 1
                if len1 == 1:
                    done = True
                    break
                min_gallop -= 1
                if not (count1 >= MIN_GALLOP or count2 >= MIN_GALLOP):
                    break
            if done:
                break
            min_gallop = max(min_gallop, 0) + 2
        self.min_gallop = max(min_gallop, 1)
        if len1 == 1:
            a[dest:dest + len2] = a[cur2:cur2 + len2]
            a[dest + len2] = tmp[cur1]
        elif len1 == 0:
            raise JavaContractError("Comparison method violates its general contract!")
        else:
            a[dest:dest + len1] = tmp[cur1:cur1 + len1]

    def _merge_hi(self, base1: int, len1: int, base2: int, len2: int) -> None:
        a, c = self.a, self.c
        tmp = a[base2:base2 + len2]
        cur1, cur2, dest = base1 + len1 - 1, len2 - 1, base2 + len2 - 1
        a[dest] = a[cur1]
        dest -= 1
        cur1 -= 1
        len1 -= 1
        if len1 == 0:
            a[dest - (len2 - 1):dest + 1] = tmp[0:len2]
            return
        if len2 == 1:
            dest -= len1
            cur1 -= len1
            a[dest + 1:dest + 1 + len1] = a[cur1 + 1:cur1 + 1 + len1]
            a[dest] = tmp[cur2]
            return
        min_gallop = self.min_gallop
        done = False
        while not done:
            count1 = count2 = 0
            while True:
                if c(tmp[cur2], a[cur1]) < 0:
                    a[dest] = a[cur1]
                    dest -= 1
                    cur1 -= 1
                    count1 += 1
                    count2 = 0
                    len1 -= 1
                    if len1 == 0:
                        done = True
                        break
                else:
                    a[dest] = tmp[cur2]
                    dest -= 1
                    cur2 -= 1
                    count2 += 1
                    count1 = 0
                    len2 -= 1
                    if len2 == 1:
                        done = True
                        break
                if (count1 | count2) >= min_gallop:
                    break
            if done:
                break
            while True:
                count1 = len1 - _gallop_right(tmp[cur2], a, base1, len1, len1 - 1, c)
                if count1:
                    dest -= count1
                    cur1 -= count1
                    len1 -= count1
                    a[dest + 1:dest + 1 + count1] = a[cur1 + 1:cur1 + 1 + count1]
                    if len1 == 0:
                        done = True
                        break
                a[dest] = tmp[cur2]
                dest -= 1
                cur2 -= 1
                len2 -= 1
                if len2 == 1:
                    done = True
                    break
                count2 = len2 - _gallop_left(a[cur1], tmp, 0, len2, len2 - 1, c)
                if count2:
                    dest -= count2
                    cur2 -= count2
                    len2 -= count2
                    a[dest + 1:dest + 1 + count2] = tmp[cur2 + 1:cur2 + 1 + count2]
                    if len2 <= 1:
                        done = True
                        break
                a[dest] = a[cur1]
                dest -= 1
                cur1 -= 1
                len1 -= 1
                if len1 == 0:
                    done = True
                    break
                min_gallop -= 1
                if not (count1 >= MIN_GALLOP or count2 >= MIN_GALLOP):
                    break
            if done:
                break
            min_gallop = max(min_gallop, 0) + 2
        self.min_gallop = max(min_gallop, 1)
        if len2 == 1:
            dest -= len1
            cur1 -= len1
            a[dest + 1:dest + 1 + len1] = a[cur1 + 1:cur1 + 1 + len1]
            a[dest] = tmp[cur2]
        elif len2 == 0:
            raise JavaContractError("Comparison method violates its general contract!")
        else:
            a[dest - (len2 - 1):dest + 1] = tmp[0:len2]
