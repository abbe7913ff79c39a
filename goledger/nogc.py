"""Pausing the cyclic garbage collector while a projection is built.

CPython runs a collection every few hundred new container objects, and an old-generation
collection walks every live object: folding a congress or building its round tables
allocates hundreds of thousands of lists, dicts and structs, none of them garbage yet, and
would trigger many collections that find nothing. :func:`nogc` pauses the collector for the
duration of one call (Mercurial's ``util.nogc`` does the same for its index parsing); objects
left unreachable meanwhile are collected at the next collection after it.

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
from collections.abc import Callable
from typing import ParamSpec, TypeVar

__all__ = ["nogc"]

P = ParamSpec("P")
R = TypeVar("R")


def nogc(func: Callable[P, R]) -> Callable[P, R]:
    """``func`` with the garbage collector paused while it runs (left alone when already paused)."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        if not gc.isenabled():
            return func(*args, **kwargs)
        gc.disable()
        try:
            return func(*args, **kwargs)
        finally:
            gc.enable()

    return wrapper
