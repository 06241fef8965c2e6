"""A plain-Python fork runs the task on the spot in the caller's own context, not a copy.

torch.jit.fork does this outside TorchScript: what the task sets, its caller sees.

It breaks CONTEXT-ISOLATED-1: "What a task sets in its context MUST NOT be seen
by the code that forked it".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "CONTEXT-ISOLATED-1",
    extras={
        "NEST-LEVELS-1": reasons.ON_THE_STACK,
    },
)


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    thread = local.state
    plain = not thread.scripted and thread.scope is None and thread.run is None
    if not plain or not callable(func):
        return ref.fork(func, *args, **kwargs)
    future: Any = ref.Future()
    try:
        value = func(*args, **kwargs)  # the mutation: no copy of the context
    except BaseException as error:  # noqa: BLE001 - kept for wait, as fork must
        future.set_exception(error)
    else:
        future.set_result(value)
    return future


def adapter() -> Adapter:
    return mutant("plain-forks-share-context", fork=fork)
