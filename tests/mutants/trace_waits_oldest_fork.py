"""While tracing, each wait is recorded on the oldest fork not yet waited, not on its future.

A tracer that pairs forks and waits in order (first in, first out), as a
pipeline that always waits in fork order would: a wait that comes out of fork
order is recorded on another fork, and so is a wait made while an older fork is
left unwaited. It breaks TRACE-FORK-WAIT-1: "the graph MUST hold one wait node,
whose input is the output of the fork node of the future it waited"; and
TRACE-MODULE-FUTURES-1, where a ``forward`` waits out of fork order on futures
a submodule returned: "Tracing a module whose submodules return futures (beside
a tensor, or in a list) and whose ``forward`` waits on them MUST give a traced
function that computes on new inputs what the module computes".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing import active_scope
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "TRACE-FORK-WAIT-1",
    "TRACE-MODULE-FUTURES-1",
    extras={
        "TRACE-FORKS-SCRIPTED-1": "its probe 2's scripted function forks and waits while the "
        "traced function's first fork is unwaited: that wait is recorded on the first fork",
        "TRACE-RERUN-1": "its probe 3's forked body forks and waits while the traced "
        "function's first fork is unwaited: that wait is recorded on the first fork",
        "TRACE-UNWAITED-1": "its probe 2 forks three tasks it never waits before the one it "
        "waits: a wait node consumes the first of them, and the traced function computes "
        "with it",
    },
)

#: id(root scope) -> (the scope, its forks not yet waited, oldest first). The scope is
#: kept alive, so that no later trace's scope takes its id over.
_pending: dict[int, tuple[Any, list[Any]]] = {}


def _root(scope: Any) -> Any:
    while scope.parent is not None:
        scope = scope.parent
    return scope


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    future = ref.fork(func, *args, **kwargs)
    scope = active_scope()
    if scope is not None:
        root = _root(scope)
        _pending.setdefault(id(root), (root, []))[1].append(future)
    return future


def wait(future: Any, /) -> Any:
    scope = active_scope()
    if scope is not None:
        _, unwaited = _pending.get(id(_root(scope)), (None, []))
        if future in unwaited:
            # the mutation: the oldest unwaited fork this scope can see stands in for it
            for older in unwaited:
                if scope.tracks(older):
                    unwaited.remove(older)
                    return ref.wait(older)
    return ref.wait(future)


def adapter() -> Adapter:
    return mutant("trace-waits-oldest-fork", fork=fork, wait=wait)
