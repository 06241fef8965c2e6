"""collect_all completes at the first failure, with futures still running in its list.

Its countdown of futures still to complete is cut short by a failure: the
combined future completes then, with the list, though other futures in it are
not done yet. With every future done in time, as in the examples, nothing
shows.

It breaks FUTURE-COLLECT-ALL-FAIL-1: "The combined future completes once every
given future is done, failed or not".
"""

import contextlib
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FUTURE-COLLECT-ALL-FAIL-1",
    extras={
        "NEST-ANY-POOL-1": "its collect_all future lists no sources, so a wait on it runs no "
        "queued task: probe 3's waiting tasks hold every worker",
    },
)


def collect_all(futures: list[Any], /) -> Any:
    items = list(futures)
    for future in items:
        if not isinstance(future, ref.Future):
            raise TypeError(f"collect_all() expects futures, got {type(future).__name__}")
    combined: Any = ref.Future()
    remaining = [len(items)]

    def one_done(future: Any) -> None:
        remaining[0] -= 1
        failed = future._exception is not None
        if (failed or remaining[0] == 0) and not combined.done():
            with contextlib.suppress(RuntimeError):  # completed by another callback meanwhile
                combined.set_result(items)

    if not items:
        combined.set_result(items)
    for future in items:
        future.add_done_callback(one_done)
    return combined


def adapter() -> Adapter:
    return mutant("collect-all-ends-at-first-failure", collect_all=collect_all)
