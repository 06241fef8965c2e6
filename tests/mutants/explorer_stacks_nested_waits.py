"""The explorer runs every waited task inline, on its waiter's stack, however deep.

A controlled run starts a waited task right above the task that waits on it,
on the same stack, with no bound: a chain of nested waits a few hundred deep
reaches the recursion limit, and the run stops with a RecursionError where the
same call without a schedule gives its value.

It breaks EXPLORER-FINISHES-1: "Under every schedule, a top-level scripted call
MUST give what it gives without one".
"""

from conformance.adapter import Adapter
from conformance.adapters.reference import adapter as reference_adapter
from reference_impl.schedules import controlled
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("EXPLORER-FINISHES-1")


def adapter() -> Adapter:
    controlled.MAX_INLINE = 10**9  # the mutation: no bound on a carrier's stack of tasks
    return mutant("explorer-stacks-nested-waits", explorer=reference_adapter().explorer)
