"""Traces without fork nodes: forked bodies are inlined.

A tracer that records a fork as a plain call. It breaks TRACE-FORK-WAIT-1 ("the
graph MUST hold one wait node, whose input is the output of the fork node of the
future it waited") and TRACE-ONE-NODE-PER-FORK-1 ("A trace MUST hold one fork
node for every fork that ran").
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from tests.mutants import _reasons as reasons
from tests.mutants._base import mutant
from tests.mutants._contract import contract
from tests.mutants._graphs import inline_forks

CONTRACT = contract(
    "TRACE-FORK-WAIT-1",
    "TRACE-ONE-NODE-PER-FORK-1",
    extras={
        "TRACE-FORKS-SCRIPTED-1": reasons.LOOKS_FOR_FORK_NODE,
        "TRACE-GRAPH-NODES-1": "the example expects fork and wait nodes",
        "TRACE-MODULE-1": reasons.LOOKS_FOR_FORK_NODE,
        "TRACE-NESTED-1": "the example looks for the fork nodes",
        "TRACE-UNWAITED-1": reasons.LOOKS_FOR_FORK_NODE,
    },
)


def graph_nodes(traced: Any) -> list[Any]:
    return inline_forks(ref.graph_nodes(traced))


def adapter() -> Adapter:
    return mutant("trace-without-fork-nodes", graph_nodes=graph_nodes)
