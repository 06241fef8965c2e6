"""In plain Python, fork raises the task's exception itself (as eager torch.jit.fork)."""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from reference_impl.tracing.scope import active_scope
from tests.mutants._base import mutant


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    future = ref.fork(func, *args, **kwargs)
    if not local.state.scripted and active_scope() is None and future.done():
        ref.wait(future)  # re-raises here, at fork
    return future


def adapter() -> Adapter:
    return mutant("raises-at-fork", fork=fork)
