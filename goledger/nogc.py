"""Pausing the cyclic garbage collector while a projection is built.

CPython runs a collection every few hundred new container objects, and an old-generation
collection walks every live object: folding a congress or building its round tables
allocates hundreds of thousands of lists, dicts and structs, none of them garbage yet, and
would trigger many collections that find nothing. :func:`nogc` pauses the collector for the
duration of one call (Mercurial's ``util.nogc`` does the same for its index parsing); objects
left unreachable meanwhile are collected at the next collection after it.

That next collection walks everything made while the collector was paused and is still alive
or in a cycle: after a congress's audit report some 150,000 objects, 80 ms. A process that
ends as soon as its one command returns (the command line, :func:`goledger.cli.main.main`,
which leaves with ``os._exit``) has nothing to gain from it: it says so with
:func:`exit_follows`, and a command wrapped in :func:`one_shot` then leaves the collector
paused for the little that remains of the process.

>>> import gc
>>> @nogc
... def busy() -> bool:
...     return gc.isenabled()
>>> busy(), gc.isenabled()
(False, True)
"""

from __future__ import annotations

import functools
import gc
from typing import TYPE_CHECKING, ParamSpec, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["exit_follows", "nogc", "one_shot"]

P = ParamSpec("P")
R = TypeVar("R")

_exit_follows = False
"""Whether this process ends (``os._exit``) once its command returns: :func:`exit_follows`."""


def _paused(func: Callable[P, R], resume: Callable[[], bool]) -> Callable[P, R]:
    """``func`` with the collector paused while it runs (left alone when already paused), and
    resumed after it when ``resume()`` says so."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        if not gc.isenabled():
            return func(*args, **kwargs)
        gc.disable()
        try:
            return func(*args, **kwargs)
        finally:
            if resume():
                gc.enable()

    return wrapper


def _always() -> bool:
    return True


def _unless_exit_follows() -> bool:
    return not _exit_follows


def nogc(func: Callable[P, R]) -> Callable[P, R]:
    """``func`` with the garbage collector paused while it runs (left alone when already paused)."""
    return _paused(func, _always)


def exit_follows() -> None:
    """Say that this process ends, without tearing the interpreter down, as soon as the
    command it runs returns (:func:`goledger.cli.main.main`): a :func:`one_shot` command then
    leaves the collector paused behind it."""
    global _exit_follows
    _exit_follows = True


def one_shot(func: Callable[P, R]) -> Callable[P, R]:
    """``func`` as :func:`nogc` runs it, but the collector is left paused after it when the
    process exits right after (:func:`exit_follows`): for a command that reads a whole log once
    and is the last thing its process does (``goledger report``, ``diff``, ``history``).
    Anywhere else, in a test or the desk, it is :func:`nogc`.

    >>> @one_shot
    ... def report() -> bool:
    ...     return gc.isenabled()
    >>> report(), gc.isenabled()
    (False, True)
    """
    return _paused(func, _unless_exit_follows)
