"""The trace records nested forks beside their parent, not inside it.

A tracer that appends every fork and wait to the graph it records at the top,
whichever forked body they ran in. It breaks TRACE-NESTED-1: "A fork made inside
a forked body MUST be recorded inside that fork node's subgraph, not beside it".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract
from tests.mutants._graphs import flatten_nested

CONTRACT = contract(
    "TRACE-NESTED-1",
    extras={
        "TRACE-FORK-WAIT-1": "its probe waits, inside a forked body, on that body's own fork",
        "TRACE-FORKS-SCRIPTED-1": "the probe's scripted function forks a task of its own",
        "TRACE-GRAPH-NODES-1": "its probe lists the fork and wait of a forked body's subgraph",
        "TRACE-UNWAITED-1": "its probe forks a task never waited inside a forked body",
    },
)


def graph_nodes(traced: Any) -> list[Any]:
    return flatten_nested(ref.graph_nodes(traced))


def adapter() -> Adapter:
    return mutant("flattens-nested-forks", graph_nodes=graph_nodes)
