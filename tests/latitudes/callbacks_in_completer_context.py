"""A callback runs in the context of the thread that completes the future, as torch's do."""

from __future__ import annotations

from typing import Any, cast

from conformance.adapter import Adapter
from reference_impl import _callbacks
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="futures-api.rst",
    granted="What a future's callbacks see of contextvars is left open too (a latitude, "
    "written as prose since nothing can fail it): torch runs a callback in the context of the "
    "thread that completes the future, the reference in a copy of the context of the code "
    "that added the callback",
    reaches=("add_done_callback", ".then("),
    shows="""
import contextvars
import threading

where = contextvars.ContextVar("where", default="unset")
fut, seen = fw.Future(), []
where.set("the adder's")
fut.add_done_callback(lambda f: seen.append(where.get()))
thread = threading.Thread(target=fut.set_result, args=(1,))
thread.start()
thread.join()
print(seen)
""",
)


class _Here:
    """Stands for a context: runs the callback in whatever context is current."""

    @staticmethod
    def run(func: Any, *args: Any) -> Any:
        return func(*args)


_reference_invoke = _callbacks.invoke


def invoke(future: Any, entry: Any) -> None:
    """The reference's ``invoke``, a user's callback run in the completing thread's context."""
    if entry.context is not None:
        entry = _callbacks.Entry(entry.func, entry.chained, cast("Any", _Here()))
    _reference_invoke(future, entry)


def adapter() -> Adapter:
    _callbacks.invoke = invoke
    return variant("callbacks-in-completer-context")
