"""A fork made by plain Python runs on the worker pool, in the background, as a scripted one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="script.rst, Plain Python may run forks at once",
    granted="In plain Python, fork MAY run the task to completion before it returns, or MAY "
    "start it in the background as scripted code does.",
    shows="""
import time

print(fw.fork(time.sleep, 0.1).done())
""",
)


def fork(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """The reference's fork, as if every plain-Python caller were scripted code."""
    thread = local.state
    if thread.scripted or thread.scope is not None or thread.run is not None:
        return ref.fork(func, *args, **kwargs)
    thread.scripted = True
    try:
        return ref.fork(func, *args, **kwargs)
    finally:
        thread.scripted = False


def adapter() -> Adapter:
    return variant("plain-forks-in-background", fork=fork)
