"""Waiting on collect_all's future blocks without running the futures still queued.

The combined future does not list the futures it was made from, so a wait on
it cannot help them along (help-while-waiting) as ``fw.wait`` on a task does:
it blocks until pool workers have run them, and tasks that wait so on
subtasks still queued behind them hold every worker.
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract(
    "NEST-ANY-POOL-1",
    slow=True,
)


def collect_all(futures: list[Any], /) -> Any:
    combined = ref.collect_all(futures)
    combined._args = ()  # the mutation: no sources, so waiting on it helps none
    return combined


def adapter() -> Adapter:
    return mutant("collect-all-blocks-without-helping", collect_all=collect_all)
