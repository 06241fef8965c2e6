"""Waiting on collect_all's future blocks without running the futures still queued.

The combined future does not list the futures it was made from, so a wait on
it cannot help them along (help-while-waiting) as ``fw.wait`` on a task does:
it blocks until pool workers have run them, and tasks that wait so on
subtasks still queued behind them hold every worker.

It breaks NEST-ANY-POOL-1: "In scripted code, tasks that fork subtasks and wait
on them MUST all complete, [...] however many threads the implementation runs
tasks on".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "NEST-ANY-POOL-1",
    slow=True,  # its deadlocked pools hang until their deadline
)


def collect_all(futures: list[Any], /) -> Any:
    combined = ref.collect_all(futures)
    combined._args = ()  # the mutation: no sources, so waiting on it helps none
    return combined


def adapter() -> Adapter:
    return mutant("collect-all-blocks-without-helping", collect_all=collect_all)
