"""fork of a traced function runs its graph as a fork node's subgraph is run: only the first output.

Forking a traced function (or a traced module) outside a trace hands its graph
to the runner of a fork node's subgraph, which gives the subgraph's first
output, since a forked body recorded by a trace returns one value: a traced
function that returns a tuple of tensors, forked, gives the first tensor alone.
It breaks SCRIPT-FORKS-TRACED-1: "Scripted code MUST be able to fork a traced
function, and a scripted module a traced module held as its attribute [...],
and get what calling them directly gives".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing import active_scope
from reference_impl.tracing.trace import _run_subgraph
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("SCRIPT-FORKS-TRACED-1")


def fork(func: Any, /, *args: Any, **kwargs: Any) -> Any:
    if isinstance(func, ref.TracedFunction) and not kwargs and active_scope() is None:
        # the mutation: the traced function's graph run as a fork's subgraph ([0] of its outputs)
        return ref.fork(_run_subgraph, func.graph, list(args))
    return ref.fork(func, *args, **kwargs)


def adapter() -> Adapter:
    return mutant("fork-traced-first-output", fork=fork)
