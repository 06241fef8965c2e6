"""collect_all's future fails with a failure of the given futures (the last failed in the list)."""

from __future__ import annotations

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="FUTURE-COLLECT-ALL-FAIL-1",
    granted="then waiting on it MAY raise the failure of one of the failed futures, or MAY give "
    "the list ... Which failure the combined future raises when several failed is left open.",
    reaches=("collect_all",),
    shows="""
def fails() -> int:
    raise ValueError("failed")

try:
    fw.wait(fw.collect_all([fw.fork(fails)]))
    print("the list")
except ValueError:
    print("raised")
""",
)


def _fail_or_list(combined: Any) -> list[Any]:
    futures = combined.value()
    for future in reversed(futures):
        if future._exception is not None:
            future.wait()  # raises it: the combined future fails with it
    return futures  # type: ignore[no-any-return]


def collect_all(futures: list[Any], /) -> Any:
    """The reference's combined future, failed once all are done if one of them failed."""
    return ref.collect_all(futures).then(_fail_or_list)


def adapter() -> Adapter:
    return variant("collect-all-fails", collect_all=collect_all)
