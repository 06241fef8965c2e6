"""Whether code runs scripted is one process-wide flag, not one per thread.

A scripted call sets the flag on entry and puts back what it saw on exit, as the
reference does per thread; but with one flag for every thread, a call that ends on
one thread turns it off under another thread's call still running, whose later
forks then run on the spot, as plain Python's do (and a worker's task turns it on
for plain Python on other threads meanwhile).

It breaks ASYNC-CONCURRENT-1: "In scripted code at least two forked tasks MUST
be able to run at the same time".
"""

from typing import Any

from conformance.adapter import Adapter
from reference_impl._thread_state import ThreadState
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("ASYNC-CONCURRENT-1")

_flag = [False]  # the mutation: shared by every thread


def _get(self: Any) -> bool:
    return _flag[0]


def _set(self: Any, value: bool) -> None:
    _flag[0] = value


def _init(self: Any) -> None:
    self.current = None
    self.depth = 0
    self.scope = None
    self.run = None


def adapter() -> Adapter:
    ThreadState.scripted = property(_get, _set)  # type: ignore[assignment, misc]
    ThreadState.__init__ = _init  # type: ignore[method-assign]
    return mutant("scripted-flag-process-wide")
