"""graph_nodes lists the fork nodes of each graph in reverse order.

A tracer that keeps its fork nodes on a stack, to close each as its body ends,
and lists them by popping it. It breaks TRACE-ONE-NODE-PER-FORK-1: "A trace MUST
hold one fork node for every fork that ran, in the order they ran".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract
from tests.mutants._graphs import reverse_forks

CONTRACT = contract(
    "TRACE-ONE-NODE-PER-FORK-1",
    extras={
        "TRACE-FORK-WAIT-1": "its probe matches waits to forks by their order",
        "TRACE-GRAPH-NODES-1": "nodes out of order: a fork reads a value before it exists",
    },
)


def graph_nodes(traced: Any) -> list[Any]:
    return reverse_forks(ref.graph_nodes(traced))


def adapter() -> Adapter:
    return mutant("forks-listed-in-reverse", graph_nodes=graph_nodes)
