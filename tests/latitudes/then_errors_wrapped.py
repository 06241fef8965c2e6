"""A then() callback's error fails its future as a RuntimeError that wraps it, as torch's."""

from __future__ import annotations

from typing import Any

from conformance.adapter import Adapter
from reference_impl import _callbacks
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="FUTURE-THEN-ERROR-1",
    granted="The exception MAY be the callback's own or MAY wrap it: torch runs callbacks "
    "from C++, which re-raises a callback's error as RuntimeError",
    reaches=(".then(",),
    shows="""
def fails(f):
    raise KeyError("k")

fut = fw.Future()
chained = fut.then(fails)
fut.set_result(1)
try:
    chained.wait()
except BaseException as error:
    print(type(error).__name__)
""",
)

_reference_invoke = _callbacks.invoke


def _wrapping(func: Any) -> Any:
    def callback(future: Any) -> Any:
        try:
            return func(future)
        except BaseException as error:  # noqa: BLE001 - torch wraps any error of a callback
            raise RuntimeError(
                f"Got the following error when running the callback: "
                f"{type(error).__name__}: {error}"
            ) from None

    return callback


def invoke(future: Any, entry: Any) -> None:
    """The reference's ``invoke``; a ``then`` callback's error wrapped in a RuntimeError."""
    if entry.chained is not None and entry.context is not None:
        entry = _callbacks.Entry(_wrapping(entry.func), entry.chained, entry.context)
    _reference_invoke(future, entry)


def adapter() -> Adapter:
    _callbacks.invoke = invoke
    return variant("then-errors-wrapped")
