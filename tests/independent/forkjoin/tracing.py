"""``trace``: run a function on example tensors and record its forks, waits and operations.

The traced call runs for real, its forks as tasks on the pool. Each graph has a
builder that names the values its code made. A value a body uses but did not
make (a closure's capture, a future from outside) is looked up in the enclosing
graphs and passed in as one more input of the fork; a value no graph made is a
constant. The trace ends when the call has returned and every fork it made, at
any depth, waited or not, has finished, so every subgraph is whole.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable
from typing import Any

from . import graph as graph_module
from . import trace_hooks
from .future import Future
from .graph import Graph, GraphNode, Node, Output
from .scripted import Module
from .tensor import Tensor


class TracingError(RuntimeError):
    """What the trace cannot record faithfully."""


class _Session:
    """One call of ``trace``: the lock all its builders share, its forks, its errors."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.forks: list[Future[Any]] = []
        self.errors: list[str] = []

    def finish(self) -> None:
        """Wait for every fork made while tracing, including forks made by forks."""
        seen = 0
        while True:
            with self.lock:
                pending = self.forks[seen:]
                seen = len(self.forks)
            if not pending:
                return
            for fut in pending:
                try:
                    fut.wait()
                except BaseException as error:  # noqa: BLE001 - recorded, raised by trace
                    self.errors.append(f"a traced fork failed: {error!r}")


class _Builder:
    """Records the nodes of one graph (the traced function's, or one fork's body)."""

    def __init__(
        self, session: _Session, parent: _Builder | None = None, at: Node | None = None
    ) -> None:
        self.session = session
        self.graph = Graph()
        self.parent = parent
        self.fork_node = at
        #: where ``at`` stands among the parent's nodes
        self.fork_index = len(parent.graph.nodes) if parent is not None else 0
        self._names: dict[int, tuple[object, str]] = {}
        self._written_at: dict[str, int] = {}
        self._count = 0

    # -- names ------------------------------------------------------------------------

    def _new_name(self) -> str:
        self._count += 1
        return f"%{self._count}"

    def bind(self, value: object, name: str) -> None:
        self._names[id(value)] = (value, name)

    def param(self, value: object) -> str:
        name = self._new_name()
        self.graph.params.append(name)
        self._written_at[name] = -1
        self.bind(value, name)
        return name

    def _add(self, node: Node) -> None:
        for name in node.outputs:
            self._written_at[name] = len(self.graph.nodes)
        self.graph.nodes.append(node)

    def _known(self, value: object) -> str | None:
        """Its name here, importing it from an enclosing graph if one made it."""
        entry = self._names.get(id(value))
        if entry is not None:
            return entry[1]
        if self.parent is None or self.fork_node is None:
            return None
        outer = self.parent._known(value)
        if outer is None:
            return None
        if self.parent._written_at.get(outer, len(self.parent.graph.nodes)) >= self.fork_index:
            return None  # made after the fork: not an input the fork could have had
        self.fork_node.inputs.append(outer)
        return self.param(value)

    def name_of(self, value: object) -> str:
        """The name of ``value`` in this graph; a constant if no graph made it."""
        with self.session.lock:
            known = self._known(value)
            if known is not None:
                return known
            name = self._new_name()
            self._add(Node("constant", [], [name], constant=value))
            self.bind(value, name)
            return name

    # -- what the traced code does ------------------------------------------------------

    def operation(self, kind: str, operands: tuple[object, ...], result: object) -> None:
        with self.session.lock:
            inputs = [self.name_of(operand) for operand in operands]
            name = self._new_name()
            self._add(Node(kind, inputs, [name]))
            self.bind(result, name)

    def fork(
        self,
        func: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        start: Callable[[Callable[[], Any]], Future[Any]],
    ) -> Future[Any]:
        carried = [v for v in (*args, *kwargs.values()) if isinstance(v, Tensor | Future)]
        with self.session.lock:
            node = Node("fork", [self.name_of(value) for value in carried], [])
            body = _Builder(self.session, self, node)
            node.subgraph = body.graph
            for value in carried:
                body.param(value)
            node.outputs.append(self._new_name())
            self._add(node)

        def run_body() -> Any:
            trace_hooks.current.set(body)
            result = func(*args, **kwargs)
            if isinstance(result, Tensor):
                body.graph.output = body.name_of(result)
            else:
                self.session.errors.append(
                    f"the forked function {getattr(func, '__name__', func)!r} returned "
                    f"{type(result).__name__}, not a tensor: a graph cannot hold what it did"
                )
            return result

        fut = start(run_body)
        with self.session.lock:
            self.bind(fut, node.outputs[0])
            self.session.forks.append(fut)
        return fut

    def waited(self, fut: Future[Any], value: object) -> None:
        with self.session.lock:
            source = self._known(fut)
            if source is None:
                return  # a future from outside every trace: its value is a constant
            name = self._new_name()
            self._add(Node("wait", [source], [name]))
            self.bind(value, name)

    def output(self, value: object) -> Output:
        if isinstance(value, tuple | list):
            items = [self.output(item) for item in value]
            return tuple(items) if isinstance(value, tuple) else items
        if not isinstance(value, Tensor):
            raise TracingError(f"the traced function returned {type(value).__name__}, not a tensor")
        return self.name_of(value)


class TracedFunction:
    """What ``trace`` returns: calling it runs the recorded graph on new tensors."""

    def __init__(self, graph: Graph, name: str) -> None:
        self.graph = graph
        self.__name__ = name

    def __call__(self, *inputs: Any) -> Any:
        _check_inputs(inputs)
        if len(inputs) != len(self.graph.params):
            raise TypeError(
                f"traced {self.__name__} takes {len(self.graph.params)} tensor(s), "
                f"got {len(inputs)}"
            )
        return graph_module.run(self.graph, list(inputs))

    def forward(self, *inputs: Any) -> Any:
        return self(*inputs)


def _check_inputs(inputs: tuple[Any, ...]) -> None:
    for index, value in enumerate(inputs):
        if not isinstance(value, Tensor):
            raise TypeError(f"input {index} is {type(value).__name__} {value!r}, not a tensor")


def trace(func: Callable[..., Any] | Module, example_inputs: Any) -> TracedFunction:
    """Record ``func`` (a function, or a module's ``forward``) run on ``example_inputs``."""
    inputs = example_inputs if isinstance(example_inputs, tuple) else (example_inputs,)
    _check_inputs(inputs)
    target = func.forward if isinstance(func, Module) else func
    if not callable(target):
        raise TypeError(f"trace needs a function or a Module instance, got {func!r}")
    session = _Session()
    root = _Builder(session)
    for value in inputs:
        root.param(value)

    def traced_call() -> Any:
        trace_hooks.current.set(root)
        return target(*inputs)

    result = contextvars.copy_context().run(traced_call)
    session.finish()
    if session.errors:
        raise TracingError("; ".join(session.errors))
    root.graph.output = root.output(result)
    name = getattr(target, "__name__", type(func).__name__)
    return TracedFunction(root.graph, name)


def graph_nodes(traced: TracedFunction) -> list[GraphNode]:
    """The nodes of ``traced.graph``, in the order their operations ran."""
    if not isinstance(traced, TracedFunction):
        raise TypeError(f"graph_nodes needs what trace returned, got {traced!r}")
    return graph_module.view(traced.graph)
