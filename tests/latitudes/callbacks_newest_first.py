"""Callbacks added to a future before it completes run newest first."""

from __future__ import annotations

from typing import Any

from conformance.adapter import Adapter
from reference_impl import _callbacks
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="FUTURE-CALLBACK-ORDER-1",
    granted="The callbacks added to one future while it is not done ... SHOULD run in the "
    "order they were added.",
    may_fail={"FUTURE-CALLBACK-ORDER-1": "its callbacks run in the reverse of that order"},
    reaches=("add_done_callback", ".then(", "collect_all", "wait_all"),
)


def run_all_newest_first(future: Any) -> None:
    """The reference's ``run_all``, popping the newest entry first."""
    callbacks = future._callbacks
    escaped: BaseException | None = None
    while True:
        try:
            entry = callbacks.pop()
        except IndexError:
            break
        try:
            _callbacks.invoke(future, entry)
        except BaseException as error:  # noqa: BLE001 - raised below, as the reference does
            if escaped is None:
                escaped = error
    if escaped is not None:
        raise escaped


def adapter() -> Adapter:
    _callbacks.run_all = run_all_newest_first  # the executor's process is this variant's own
    return variant("callbacks-newest-first")
