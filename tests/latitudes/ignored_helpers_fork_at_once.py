"""An fw.ignore helper runs as plain Python: the forks it makes run at once, on its thread."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="SCRIPT-IGNORE-1",
    granted="Forks made inside f are plain-Python forks: they MAY run at once or in the "
    "background (plain-may-be-sync; the reference runs them on its worker threads, "
    "torch.jit.fork runs them on the spot)",
    schedules=True,
    shows="""
import time

@fw.ignore
def forks() -> bool:
    return fw.fork(time.sleep, 0.1).done()

@fw.script
def run() -> bool:
    return forks()

print(run())
""",
)


def ignore(func: Callable[..., Any], /) -> Callable[..., Any]:
    """``func``, called as plain Python: forks inside it run at once, as torch's do."""
    if not callable(func):
        raise TypeError(f"ignore() expects a function, got {type(func).__name__}")

    @functools.wraps(func)
    def plain(*args: Any, **kwargs: Any) -> Any:
        thread = local.state
        outer = thread.scripted
        thread.scripted = False
        try:
            return func(*args, **kwargs)
        finally:
            thread.scripted = outer

    return plain


def adapter() -> Adapter:
    return variant("ignored-helpers-fork-at-once", ignore=ignore)
