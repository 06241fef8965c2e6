"""A done callback's error, any BaseException included, is issued as a warning, never raised."""

from __future__ import annotations

import warnings
from typing import Any

from conformance.adapter import Adapter
from reference_impl import _callbacks
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="FUTURE-ADD-DONE-CALLBACK-1",
    granted="Whether a BaseException that is not an Exception (KeyboardInterrupt, SystemExit) "
    "is raised to that code, once every callback has run, is left open. ... An implementation "
    "MAY report it, in any way that does not raise: ... a runtime may issue a warning.",
    reaches=("add_done_callback",),
    shows="""
def stops(f):
    raise KeyboardInterrupt("from a callback")

fut = fw.Future()
fut.add_done_callback(stops)
try:
    fut.set_result(1)
    print("set_result returned")
except BaseException as error:
    print("set_result raised", type(error).__name__)
""",
)

_reference_invoke = _callbacks.invoke


def _warning(func: Any) -> Any:
    def callback(future: Any) -> None:
        try:
            func(future)
        except BaseException as error:  # noqa: BLE001 - the reference raises non-Exceptions
            warnings.warn(f"a done callback raised {error!r}", RuntimeWarning, stacklevel=1)

    return callback


def invoke(future: Any, entry: Any) -> None:
    """The reference's ``invoke``; an ``add_done_callback`` callback's error only warned."""
    if entry.chained is None and entry.context is not None:
        entry = _callbacks.Entry(_warning(entry.func), None, entry.context)
    _reference_invoke(future, entry)


def adapter() -> Adapter:
    _callbacks.invoke = invoke
    return variant("callback-errors-warned")
