"""The cyclic garbage collector held off while one document is turned into tests.

Loading a document's doctree (unpickling thousands of docutils nodes, each
pointing at its parent) and building its groups allocates enough to set off
full collections, which walk every object alive in the process: Sphinx's
environment, the doctrees and items built so far, so that a project's
collection time would grow with the square of its documents. All of one
document's objects stay alive until the tests have run, so there is nothing
for the collector to find meanwhile; holding it off per document bounds what
waits for it to one document. Reference counting still frees everything else
at once.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic collection inside the block; the collector as it was after it."""
    if not gc.isenabled():  # someone else holds it off: leave it to them
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


__all__ = ["collector_paused"]
