"""In plain Python, fork raises the task's exception itself (as eager torch.jit.fork).

fork runs the task at once, which it may, but lets the task's exception out of
fork. It breaks ERR-AT-WAIT-1: "In plain Python, an exception raised by a forked
task MUST NOT be raised by fork, also when fork runs the task (which it may)".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from reference_impl.tracing.scope import active_scope
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "ERR-AT-WAIT-1",
    extras={
        "DET-PURE-1": reasons.FAILS_AT_FORK,
        "ERR-BASE-EXCEPTION-1": "the plain-Python example's tasks fail, which fork raises",
        "NEST-UNWAITED-1": "a failing fork the probe never waits on raises at the fork",
    },
)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    future = ref.fork(func, *args, **kwargs)
    if not local.state.scripted and active_scope() is None and future.done():
        ref.wait(future)  # re-raises here, at fork
    return future


def adapter() -> Adapter:
    return mutant("raises-at-fork", fork=fork)
