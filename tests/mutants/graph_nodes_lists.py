"""graph_nodes gives inputs, outputs and blocks as lists, not tuples.

graph_nodes collects each node's fields in lists, the natural way to build them,
and never freezes them. It breaks TRACE-GRAPH-NODES-1: "inputs and outputs:
tuples of strings", "blocks: a tuple".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract
from tests.mutants._graphs import as_lists

CONTRACT = contract("TRACE-GRAPH-NODES-1")


def graph_nodes(traced: Any) -> list[Any]:
    return as_lists(ref.graph_nodes(traced))


def adapter() -> Adapter:
    return mutant("graph-nodes-lists", graph_nodes=graph_nodes)
