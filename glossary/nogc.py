"""Pausing the cycle collector while large, acyclic structures are built.

Python's collector runs every 700 new container objects and, now and then, walks every
object alive. Building a terms file's values or unpickling an index makes tens of thousands of
objects and no cyclic garbage, so those walks are pure cost (about half the time of
loading terms.yaml). Mercurial's ``util.nogc`` does the same for the same reason.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """Collector off inside the block, back to what it was after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
