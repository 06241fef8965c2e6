"""str(traced.graph) leaves fork nodes out of the printed graph.

A graph printer that shows the computation and leaves out the nodes it takes for
bookkeeping. It breaks TRACE-FORK-WAIT-1: "The graph's printed form,
str(traced.graph), MUST contain the text fork when the graph holds a fork node".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing.graph import Graph
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-FORK-WAIT-1")


class QuietGraph(Graph):
    def __str__(self) -> str:
        lines = super().__str__().splitlines()
        return "\n".join(line for line in lines if "fork" not in line)


def trace(func: Any, example_inputs: Any) -> Any:
    traced = ref.trace(func, example_inputs)
    traced.graph.__class__ = QuietGraph
    return traced


def adapter() -> Adapter:
    return mutant("graph-text-without-forks", trace=trace)
