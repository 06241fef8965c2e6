"""Scripted code merges forks of one function with equal arguments: they share one task.

A compiler's common-subexpression elimination applied to ``fork``: within one
scripted function body (a top-level call, or one task), a fork of the same
function with equal, hashable arguments reuses the future of the first one
instead of starting a second task. Pure tasks give the same values either
way; a task that makes a new object, or has side effects, runs once for
several forks. Breaks NEST-LOOP-1: forks made in a loop "MUST each give their
own task's result".
"""

import threading
import weakref
from collections.abc import Callable
from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl._thread_state import local
from tests.mutants._base import TopLevelScript, mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "NEST-LOOP-1",
    extras={
        "NEST-UNWAITED-RUNS-1": "the probe's caller forks one unwaited task 50 times with the "
        "same argument: one of them runs",
        "ASYNC-STARTS-1": "the probe's task forks 20 subtasks with the same argument and counts "
        "their starts: one starts",
        "ASYNC-CONCURRENT-1": "the probe's task forks its two subtasks with the same argument: "
        "one task comes to the barrier, alone",
    },
)

_calls = threading.local()  # the memo of the top-level scripted call running on this thread
_tasks: weakref.WeakKeyDictionary[Any, dict[Any, Any]] = weakref.WeakKeyDictionary()


def _memo() -> dict[Any, Any] | None:
    if not local.state.scripted:
        return None
    task = local.state.current
    if task is not None:
        return _tasks.setdefault(task, {})
    memo: dict[Any, Any] | None = getattr(_calls, "memo", None)
    return memo


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    memo = _memo()
    if memo is None:
        return ref.fork(func, *args, **kwargs)
    try:
        key = (func, args, tuple(kwargs.items()))
        hash(key)
    except TypeError:  # unhashable arguments: not merged
        return ref.fork(func, *args, **kwargs)
    future = memo.get(key)
    if future is None:
        future = memo[key] = ref.fork(func, *args, **kwargs)
    return future  # the mutation: an equal fork shares the first one's task


def around(call: Callable[[], Any]) -> Any:
    outer = getattr(_calls, "memo", None)
    _calls.memo = {}
    try:
        return call()
    finally:
        _calls.memo = outer


def adapter() -> Adapter:
    return mutant("forks-merged-by-arguments", fork=fork, script=TopLevelScript(around))
