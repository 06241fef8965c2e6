"""fork returns its own handle type, which is not an fw.Future.

A runtime built on another library's futures returns a thin handle of its own,
which its wait and collect_all unwrap. It breaks FORK-RETURNS-FUTURE-1: "fork
MUST return an instance of fw.Future, in plain Python and in scripted code".
"""

from __future__ import annotations

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "FORK-RETURNS-FUTURE-1",
    extras={
        "ASYNC-CONCURRENT-1": reasons.NO_FUTURE_METHODS,
        "NEST-ANY-POOL-1": reasons.NO_FUTURE_METHODS,
        "FUTURE-THEN-1": reasons.NO_PROBED_METHODS,
        "FUTURE-ADD-DONE-CALLBACK-1": reasons.NO_PROBED_METHODS,
        "FUTURE-CALLBACK-ORDER-1": reasons.NO_PROBED_METHODS,
        "FUTURE-COLLECT-ALL-1": "the probe checks collect_all gives back the very futures fork "
        "returned, which this mutant wraps",
        "FUTURE-FORKED-METHODS-1": reasons.NO_FUTURE_METHODS,
        "FUTURE-THEN-ERROR-1": reasons.NO_PROBED_METHODS,
        "FUTURE-VALUE-NOT-DONE-1": reasons.NO_PROBED_METHODS,
        "MODULE-RETURNS-FUTURES-1": reasons.NO_FUTURE_METHODS,
    },
    maybe={
        "SCRIPT-MODULE-1": "on the whole spec, the probes above that fail at a missing method "
        "leave their tasks blocked on events they never set; those tasks hold the pool's "
        "threads, so probe 4's two forks run one after the other and miss their barrier "
        "(alone, it passes)",
    },
)


class Handle:
    def __init__(self, inner: ref.Future[Any]) -> None:
        self.inner = inner

    def done(self) -> bool:
        return self.inner.done()


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    return Handle(ref.fork(func, *args, **kwargs))


def wait(future: Any) -> Any:
    return ref.wait(future.inner if isinstance(future, Handle) else future)


def unwrap(futures: list[Any]) -> list[Any]:
    return [f.inner if isinstance(f, Handle) else f for f in futures]


def adapter() -> Adapter:
    return mutant(
        "wrong-future-type",
        fork=fork,
        wait=wait,
        collect_all=lambda futures: ref.collect_all(unwrap(futures)),
        wait_all=lambda futures: ref.wait_all(unwrap(futures)),
    )
