"""collect_all never completes when a given future fails with a BaseException.

Its callback on each given future reads the outcome first (``value()``, with
Exception suppressed, so that a failure counts as done too), then
counts the future down. A future failed by KeyboardInterrupt, SystemExit or a
BaseException subclass of the program's own raises past the ``except``: the
callback ends before it counts, and the combined future never completes: a
wait on it blocks until the suite's deadline. With
failures that are Exceptions, as in the examples, nothing shows.

It breaks FUTURE-COLLECT-ALL-FAIL-1: "The combined future completes once every
given future is done, failed or not".
"""

import contextlib
import threading
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-COLLECT-ALL-FAIL-1", slow=True)  # the probe's wait blocks for good


def collect_all(futures: list[Any], /) -> Any:
    items = list(futures)
    for future in items:
        if not isinstance(future, ref.Future):
            raise TypeError(f"collect_all() expects futures, got {type(future).__name__}")
    combined: Any = ref.Future()
    combined._args = tuple(items)  # its sources, as the reference's: a wait on it helps them
    remaining = [len(items)]
    lock = threading.Lock()

    def one_done(future: Any) -> None:
        with contextlib.suppress(Exception):  # a failure counts as done, too
            future.value()
        with lock:
            remaining[0] -= 1
            last = remaining[0] == 0
        if last:
            combined.set_result(items)

    if not items:
        combined.set_result(items)
    for future in items:
        future.add_done_callback(one_done)
    return combined


def adapter() -> Adapter:
    return mutant("collect-all-misses-base-exceptions", collect_all=collect_all)
