"""Every nested task runs on the stack of the thread that waits on it, which bounds the depth.

The reference moves a chain of nested tasks on to a thread of its own every
``MAX_NESTED`` tasks. Without that, a wait runs the task it waits on inline, and
a plain fork runs its task at once, each a few frames deeper: a chain of forks
ends in ``RecursionError`` at about 170 levels, where a direct call reaches 990.

It breaks NEST-LEVELS-1 ("The depth MUST NOT be bounded by the stack of the
thread that forks or waits") and NEST-ANY-POOL-1 (tasks that fork subtasks and
wait on them "MUST all complete, for any depth of nesting").
"""

import sys

import reference_impl._core as core
import reference_impl._future as future
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("NEST-LEVELS-1", "NEST-ANY-POOL-1")


def adapter() -> Adapter:
    core.MAX_NESTED = sys.maxsize
    future.MAX_NESTED = sys.maxsize  # type: ignore[attr-defined]  # its own copy of the name
    return mutant("recurses-on-callers-stack")
