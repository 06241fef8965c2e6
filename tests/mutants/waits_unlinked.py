"""In graph_nodes, a wait node's input is not the name its fork node's future has.

A tracer that names each node's values on its own, so a wait node names its
future otherwise than the fork that made it. It breaks TRACE-FORK-WAIT-1: "the
graph MUST hold one wait node, whose input is the output of the fork node of the
future it waited".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants._base import mutant
from tests.mutants._contract import contract
from tests.mutants._graphs import unlink_waits

CONTRACT = contract(
    "TRACE-FORK-WAIT-1",
    extras={
        "TRACE-UNWAITED-1": "its probe checks which fork outputs wait nodes read",
    },
)


def graph_nodes(traced: Any) -> list[Any]:
    return unlink_waits(ref.graph_nodes(traced))


def adapter() -> Adapter:
    return mutant("waits-unlinked", graph_nodes=graph_nodes)
