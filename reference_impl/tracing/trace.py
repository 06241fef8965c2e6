"""``trace``: run a function once on example tensors, recording forks and waits in a Graph.

While tracing, ``fork`` runs its function synchronously in a child scope whose
graph becomes the fork node's subgraph, and ``wait`` records a node consuming
the fork's future. Calling the traced function interprets the graph on new
inputs, forks running asynchronously on the worker pool, as a traced
TorchScript module does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from reference_impl._api import fork, wait
from reference_impl._errors import describe_callable
from reference_impl._script import _scripted
from reference_impl.tracing.graph import CONSTANT, FORK, WAIT, Graph, Node, Value
from reference_impl.tracing.scope import (
    Scope,
    TracingError,
    active_scope,
    parameter_names,
    recording,
)
from reference_impl.tracing.tensor import OPS, Tensor


class TracedFunction:
    """What :func:`trace` returns: call it like the function; ``graph`` is the recording."""

    def __init__(self, func: Callable[..., Any], graph: Graph, tuple_output: bool) -> None:
        self._func = func
        self.graph = graph
        self._tuple_output = tuple_output
        self._run = _scripted(run_graph)
        self.__name__ = getattr(func, "__name__", type(func).__name__)
        self.__doc__ = getattr(func, "__doc__", None)

    def __call__(self, *inputs: Any) -> Any:
        if active_scope() is not None:  # traced inside another trace: record the original
            return self._func(*inputs)
        tensors = _check_inputs(inputs, len(self.graph.inputs), "traced function")
        outputs = self._run(self.graph, tensors)
        return tuple(outputs) if self._tuple_output else outputs[0]

    def __repr__(self) -> str:
        return f"<traced {self.__name__}>"


def _check_inputs(inputs: Sequence[Any], expected: int | None, what: str) -> list[Tensor]:
    if expected is not None and len(inputs) != expected:
        raise TypeError(f"{what} takes {expected} tensor inputs, got {len(inputs)}")
    for index, value in enumerate(inputs):
        if not isinstance(value, Tensor):
            raise TypeError(
                f"{what}: input {index} is {type(value).__name__} ({value!r}); traced inputs "
                "must be tensors, made with tensor(...)"
            )
    return list(inputs)


def trace(func: Callable[..., Any], example_inputs: Any) -> TracedFunction:
    """Run ``func(*example_inputs)`` once, synchronously, and return it traced.

    ``example_inputs`` is a tensor or a tuple of tensors. ``func`` must return a
    tensor or a tuple of tensors computed from them.

    Raises:
        TypeError: ``func`` is not callable, or an input is not a tensor.
        TracingError: a fork or the result cannot be recorded.
    """
    if not callable(func):
        raise TypeError(f"trace() expects a function or a Module, got {type(func).__name__}")
    inputs = example_inputs if isinstance(example_inputs, tuple) else (example_inputs,)
    tensors = _check_inputs(inputs, None, "trace()")
    if active_scope() is not None:
        raise TracingError("trace() cannot be called while another trace is being recorded")
    scope = Scope(Graph())
    names = parameter_names(func)
    for index, tensor in enumerate(tensors):
        scope.bind(tensor, scope.graph.add_input(names[index] if index < len(names) else None))
    with recording(scope):
        result = func(*tensors)
    tuple_output = isinstance(result, tuple | list)
    outputs = list(result) if tuple_output else [result]
    if not outputs or not all(isinstance(out, Tensor) for out in outputs):
        raise TracingError(
            f"trace() needs {describe_callable(func)} to return a tensor or a tuple of "
            f"tensors, got {type(result).__name__}"
        )
    scope.graph.outputs = [scope.value_of(out) for out in outputs]
    return TracedFunction(func, scope.graph, tuple_output)


def run_graph(graph: Graph, inputs: Sequence[Any]) -> list[Any]:
    """Interpret ``graph`` on ``inputs``; fork nodes fork (asynchronously in script mode)."""
    env: dict[int, Any] = {id(v): x for v, x in zip(graph.inputs, inputs, strict=True)}
    for node in graph.nodes:
        args = [env[id(v)] for v in node.inputs]
        if node.kind == FORK:
            assert node.subgraph is not None
            result: Any = fork(_run_subgraph, node.subgraph, args)
        elif node.kind == WAIT:
            result = wait(args[0])
        elif node.kind == CONSTANT:
            data = node.attributes["value"]
            result = Tensor._wrap(data) if node.outputs[0].type == "Tensor" else data
        else:
            result = Tensor._wrap(
                OPS[node.kind](*(a._data if isinstance(a, Tensor) else a for a in args))
            )
        env[id(node.outputs[0])] = result
    return [env[id(v)] for v in graph.outputs]


def _run_subgraph(graph: Graph, inputs: list[Any]) -> Any:
    return run_graph(graph, inputs)[0]


class GraphNode(NamedTuple):
    """A node as the spec's examples see it, on any implementation.

    ``kind`` is ``"fork"``, ``"wait"``, ``"constant"`` or an op name such as
    ``"add"``; ``inputs``/``outputs`` name values (unique within one graph);
    ``blocks`` holds a fork's subgraph as a tuple of GraphNodes.
    """

    kind: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    blocks: tuple[tuple[GraphNode, ...], ...]


def _normalise(node: Node) -> GraphNode:
    kind = node.kind
    short = {FORK: "fork", WAIT: "wait", CONSTANT: "constant"}.get(kind, kind.split("::")[-1])
    blocks = (tuple(graph_nodes_of(node.subgraph)),) if node.subgraph is not None else ()
    return GraphNode(short, _names(node.inputs), _names(node.outputs), blocks)


def _names(values: list[Value]) -> tuple[str, ...]:
    return tuple(value.name for value in values)


def graph_nodes_of(graph: Graph) -> Iterator[GraphNode]:
    return (_normalise(node) for node in graph.nodes)


def graph_nodes(traced: TracedFunction) -> list[GraphNode]:
    """The top-level nodes of a traced function's graph, normalised (see GraphNode)."""
    if not isinstance(traced, TracedFunction):
        raise TypeError(f"graph_nodes() expects a traced function, got {type(traced).__name__}")
    return list(graph_nodes_of(traced.graph))
