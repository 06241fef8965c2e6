"""A forked task's tuple or dict result has the futures in it replaced by their values.

A runtime that materialises a task's result before completing its future, as
Dask computes the futures nested in what a task returns, waits on each future
the tuple or dict holds and puts its value in its place. It breaks
FUTURE-CONTAINERS-1: futures "MUST be usable inside tuples
(``tuple[int, fw.Future[int]]``), dicts (``dict[str, fw.Future[int]]``) [...]:
as values of functions and tasks [...]. Each future in them stays the future
it was".
"""

from conformance.adapter import Adapter
from tests.mutants._base import ForkChangingResults, futures_waited_in_containers, mutant
from tests.mutants._contract import contract

CONTRACT = contract("FUTURE-CONTAINERS-1")


def adapter() -> Adapter:
    # the mutation: a task's tuple or dict result holds the values, not the futures
    fork = ForkChangingResults(futures_waited_in_containers)
    return mutant("task-results-resolve-contained-futures", fork=fork)
