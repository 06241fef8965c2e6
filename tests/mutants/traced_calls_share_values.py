"""A traced function keeps the values of a run in one table of its own, shared by every call.

Memoised state: the table is cleared and refilled at each call instead of
made anew, so calls from several threads at once read each other's values.

It breaks TRACE-RERUN-1: "Calling a traced function on new inputs MUST give what
the function gives in plain Python on those inputs".
"""

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing.graph import CONSTANT, FORK, WAIT
from reference_impl.tracing.tensor import OPS, Tensor
from reference_impl.tracing.trace import _run_subgraph
from tests.mutants._base import mutant
from tests.mutants._contract import contract

CONTRACT = contract("TRACE-RERUN-1")


class Shared(ref.TracedFunction):
    table: dict[int, Any]

    def __call__(self, *inputs: Any) -> Any:
        env = self.table  # the mutation: one table for every call
        env.clear()
        env.update({id(v): x for v, x in zip(self.graph.inputs, inputs, strict=True)})
        for node in self.graph.nodes:
            args = [env[id(v)] for v in node.inputs]
            if node.kind == FORK:
                assert node.subgraph is not None
                result: Any = ref.fork(_run_subgraph, node.subgraph, args)
            elif node.kind == WAIT:
                result = ref.wait(args[0])
            elif node.kind == CONSTANT:
                data = node.attributes["value"]
                result = Tensor._wrap(data) if node.outputs[0].type == "Tensor" else data
            else:
                unwrapped = (a._data if isinstance(a, Tensor) else a for a in args)
                result = Tensor._wrap(OPS[node.kind](*unwrapped))
            env[id(node.outputs[0])] = result
        outputs = [env[id(v)] for v in self.graph.outputs]
        return tuple(outputs) if self._tuple_output else outputs[0]


def trace(func: Any, example_inputs: Any) -> Any:
    traced = ref.trace(func, example_inputs)
    traced.__class__ = Shared
    assert isinstance(traced, Shared)
    traced.table = {}
    return traced


def adapter() -> Adapter:
    return mutant("traced-calls-share-values", trace=trace)
