"""The trace being recorded: an interceptor, where fork and wait are recorded, not run.

Objects are tracked by identity, as torch's tracer tracks tensors: the same
tensor object used twice is the same Value. An object an op meets that no
enclosing scope tracks becomes a constant. An object tracked by an *enclosing*
scope (a tensor captured by a forked closure) is lifted into the fork's
subgraph as an extra input, level by level.

While a scope is set on the thread (``recording``), it is the interceptor
``fork`` and ``wait`` hand over to (``_interceptors.Interceptor``): a fork
runs its function at once in a child scope, whose graph becomes the fork
node's subgraph; a wait records a node consuming the fork's future.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from reference_impl._errors import describe_callable
from reference_impl._future import Future, run_now
from reference_impl._thread_state import local
from reference_impl.tracing.graph import CONSTANT, FORK, WAIT, Graph, Value


class TracingError(RuntimeError):
    """A program that cannot be recorded as a graph."""


class Traced:
    """A value a trace records as data (``tensor.Tensor``), by identity.

    Its ``_trace_constant()`` gives ``(data, type name)`` when it is met as a
    constant.
    """

    __slots__ = ()

    def _trace_constant(self) -> tuple[object, str]:
        raise NotImplementedError


def parameter_names(func: Callable[..., Any]) -> list[str]:
    """Positional parameter names, to name subgraph inputs as TorchScript does.

    Read from the code object rather than ``inspect.signature``, which costs
    more than the rest of recording a fork.
    """
    target: Any = func
    if not inspect.isroutine(target):  # a Module or another callable object
        target = getattr(target, "forward", None) or type(target).__call__.__get__(target)
    bound = inspect.ismethod(target)
    code = getattr(getattr(target, "__func__", target), "__code__", None)
    if code is None:  # builtins
        return []
    names = list(code.co_varnames[: code.co_argcount])
    return names[1:] if bound else names


@dataclass(eq=False)
class Scope:
    """One graph under construction: the trace itself, or a fork's subgraph."""

    graph: Graph
    parent: Scope | None = None
    #: id(obj) -> (obj, its Value); holding obj keeps its id from being reused
    values: dict[int, tuple[object, Value]] = field(default_factory=dict)
    #: objects of enclosing scopes lifted into this graph's inputs, in input order
    captures: list[object] = field(default_factory=list)

    def bind(self, obj: object, value: Value) -> None:
        self.values[id(obj)] = (obj, value)

    def tracks(self, obj: object) -> bool:
        scope: Scope | None = self
        while scope is not None:
            if id(obj) in scope.values:
                return True
            scope = scope.parent
        return False

    def value_of(self, obj: object) -> Value:
        """The Value of ``obj`` here: tracked, lifted from outside, or a new constant."""
        entry = self.values.get(id(obj))
        if entry is not None:
            return entry[1]
        if self.parent is not None and self.parent.tracks(obj):
            outer = self.parent.value_of(obj)
            inner = self.graph.new_value(outer.type)
            self.graph.inputs.append(inner)
            self.captures.append(obj)
            self.bind(obj, inner)
            return inner
        return self._constant(obj)

    def _constant(self, obj: object) -> Value:
        if isinstance(obj, Traced):
            data, type_ = obj._trace_constant()
        elif isinstance(obj, bool | int | float):
            data, type_ = obj, type(obj).__name__
        else:
            raise TypeError(
                f"cannot record {type(obj).__name__} {obj!r} in a trace: only tensors "
                "(fw.tensor) and numbers can flow into traced operations"
            )
        node = self.graph.add_node(CONSTANT, [], [type_], {"value": data})
        self.bind(obj, node.outputs[0])
        return node.outputs[0]

    def record(self, kind: str, operands: list[object], result: object, type_: str) -> None:
        """Append ``result = kind(*operands)`` to this scope's graph."""
        inputs = [self.value_of(operand) for operand in operands]
        node = self.graph.add_node(kind, inputs, [type_])
        self.bind(result, node.outputs[0])

    # -- the interceptor: fork and wait, recorded -----------------------------------

    def fork(
        self, func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Future[Any]:
        """Record ``fork(func, *args, **kwargs)``: run it now, in a subgraph of its own."""
        child = Scope(Graph(), parent=self)
        names = parameter_names(func)
        explicit: list[Traced] = []
        for index, arg in enumerate(args):
            if isinstance(arg, Traced):
                name = names[index] if index < len(names) else None
                child.bind(arg, child.graph.add_input(name))
                explicit.append(arg)
        for key, arg in kwargs.items():
            if isinstance(arg, Traced):
                child.bind(arg, child.graph.add_input(key))
                explicit.append(arg)

        def body() -> Any:
            with recording(child):
                return func(*args, **kwargs)

        future: Future[Any] = run_now(body, (), {})
        if future._exception is not None:
            # the trace fails where the program waits for it, as the spec requires of fork;
            # the future is known to this trace, but no node is recorded for it
            self.bind(future, self.graph.new_value("Future[Tensor]"))
            return future
        result = future._value
        if not isinstance(result, Traced):
            raise TracingError(
                f"the forked {describe_callable(func)} returned {type(result).__name__}, "
                "not a tensor computed from its inputs: a trace can only record a fork whose "
                "result depends on data (side effects alone, such as appending to a global, "
                "leave nothing to record)"
            )
        child.graph.outputs = [child.value_of(result)]
        inputs = [self.value_of(obj) for obj in (*explicit, *child.captures)]
        node = self.graph.add_node(FORK, inputs, ["Future[Tensor]"], subgraph=child.graph)
        self.bind(future, node.outputs[0])
        return future

    def wait(self, future: Future[Any]) -> Any:
        """Record ``wait(future)`` for a future forked inside this trace."""
        if not self.tracks(future):
            raise TracingError(
                "wait() on a future that was not forked inside this trace: a trace can only "
                "record futures it saw being created"
            )
        result = future._outcome()  # done already: a traced fork runs on the spot
        node = self.graph.add_node(WAIT, [self.value_of(future)], ["Tensor"])
        self.bind(result, node.outputs[0])
        return result


def active_scope() -> Scope | None:
    """The scope being recorded on this thread, or None outside any trace."""
    scope = local.state.scope
    return scope if isinstance(scope, Scope) else None


@contextmanager
def recording(scope: Scope) -> Iterator[Scope]:
    thread = local.state
    outer = thread.scope
    thread.scope = scope
    try:
        yield scope
    finally:
        thread.scope = outer
