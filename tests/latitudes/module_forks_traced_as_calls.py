"""A traced fork of a module shows in its fork's subgraph as one call of the module, as
TorchScript records ``prim::CallMethod``, not as the module's inlined operations."""

from __future__ import annotations

from typing import Any

import reference_impl as ref
from conformance.adapter import Adapter
from reference_impl.tracing.graph import CONSTANT, FORK, WAIT, Graph
from reference_impl.tracing.scope import Scope
from tests.latitudes._variant import Latitude, variant

LATITUDE = Latitude(
    where="TRACE-MODULE-1",
    granted="Forking a fw.Module inside a traced function MUST record the module's computation "
    "in the fork's subgraph (inlined, or as a call of the module: either way the subgraph "
    "holds a node that is not a constant)",
    profiles=frozenset({"trace"}),
    shows="""
class Triple(fw.Module):
    def forward(self, x):
        return x * 3

triple = Triple()

def run(x):
    return fw.wait(fw.fork(triple, x))

fork = [n for n in fw.graph_nodes(fw.trace(run, fw.tensor(1))) if n.kind == "fork"][0]
print([n.kind for n in fork.blocks[0]])
""",
)

_reference_fork = Scope.fork


def _fork(self: Scope, func: Any, args: Any, kwargs: Any) -> Any:
    """The reference's traced fork; the node of a module's fork is marked as a call."""
    future = _reference_fork(self, func, args, kwargs)
    last = self.graph.nodes[-1] if self.graph.nodes else None
    if isinstance(func, ref.Module) and last is not None and last.kind == FORK:
        last.attributes["call"] = type(func).__name__
    return future


def _names(values: Any) -> tuple[str, ...]:
    return tuple(value.name for value in values)


def _view(graph: Graph) -> list[ref.GraphNode]:
    nodes = []
    for node in graph.nodes:
        kind = {FORK: "fork", WAIT: "wait", CONSTANT: "constant"}.get(node.kind, node.kind)
        blocks: tuple[tuple[ref.GraphNode, ...], ...] = ()
        sub = node.subgraph
        if sub is not None and "call" in node.attributes:  # one node: the module's call
            call = ref.GraphNode("CallMethod", _names(sub.inputs), _names(sub.outputs), ())
            blocks = ((call,),)
        elif sub is not None:
            blocks = (tuple(_view(sub)),)
        nodes.append(ref.GraphNode(kind.split("::")[-1], _names(node.inputs),
                                   _names(node.outputs), blocks))  # fmt: skip
    return nodes


def graph_nodes(traced: Any, /) -> list[ref.GraphNode]:
    return _view(traced.graph)


def adapter() -> Adapter:
    Scope.fork = _fork  # type: ignore[method-assign]
    return variant("module-forks-traced-as-calls", profiles=LATITUDE.profiles,
                   graph_nodes=graph_nodes)  # fmt: skip
