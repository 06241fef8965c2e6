"""Tracing, an extension of the reference: ``trace`` records forks and waits as a graph.

Modules: ``scope`` (the trace being recorded on a thread: the interceptor
``fork`` and ``wait`` hand over to while it is set), ``graph`` (the graph IR, printed
as TorchScript prints its graphs, and drawn as DOT), ``tensor`` (the small
value type whose operations a trace records) and ``trace`` (``trace`` itself,
the traced function that interprets its graph, and the portable view of its
nodes, ``graph_nodes``).
"""

from reference_impl.tracing.scope import TracingError, active_scope
from reference_impl.tracing.tensor import Tensor, TracerWarning, tensor
from reference_impl.tracing.trace import GraphNode, TracedFunction, graph_nodes, trace

__all__ = [
    "GraphNode",
    "Tensor",
    "TracedFunction",
    "TracerWarning",
    "TracingError",
    "active_scope",
    "graph_nodes",
    "tensor",
    "trace",
]
