"""``trace``: run a function on example tensors and record its forks and waits.

The recorder of the graph being built sits in the context (:mod:`.recording`):
tensor operations, forks and waits of the traced code report to it. A fork
gives its body a subgraph, in the copy of the context the body runs in, so
the body's own operations and forks land inside the fork node. ``trace``
returns once every fork of the traced code has ended, waited or not, and
refuses a recording that lost what a body did (a body that gave no tensor).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Mapping, Sequence
from contextvars import Context
from typing import Any

from . import recording, replay, waiting
from .futures import Future
from .graph import Graph, Node
from .modules import Module
from .tensors import Tensor


class TracingError(Exception):
    """What was traced cannot be recorded as a graph."""


class _Session:
    """What one ``trace`` call shares across its graphs."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self._numbers = itertools.count()
        self.forks: list[Future[Any]] = []
        self.errors: list[BaseException] = []
        #: keeps every named object alive, so that its id names it alone
        self.kept: list[object] = []

    def fresh(self) -> str:
        return f"v{next(self._numbers)}"


class _GraphRecorder:
    """The :class:`recording.Recorder` of one graph."""

    def __init__(self, graph: Graph, session: _Session) -> None:
        self.graph = graph
        self.session = session

    def bind(self, value: object, name: str) -> None:
        with self.session.lock:
            self.graph.names[id(value)] = name
            self.session.kept.append(value)

    def _emit(self, node: Node) -> None:
        with self.session.lock:
            self.graph.nodes.append(node)

    def name_of(self, value: object) -> str:
        """The name of a tensor or int here, recording a constant for one that has none."""
        name = None if isinstance(value, int) else self.graph.lookup(value)
        if name is None:
            name = self.session.fresh()
            self._emit(Node("constant", (), (name,), value=value))
            if not isinstance(value, int):
                self.bind(value, name)
        return name

    def operation(self, kind: str, operands: Sequence[object], result: object) -> None:
        inputs = tuple(self.name_of(operand) for operand in operands)
        name = self.session.fresh()
        self._emit(Node(kind, inputs, (name,)))
        self.bind(result, name)

    def forked(
        self,
        future: object,
        func: Callable[..., Any],
        args: Sequence[object],
        kwargs: Mapping[str, object],
        context: Context,
    ) -> Callable[[object, BaseException | None], None]:
        given = [*args, *kwargs.values()]
        inputs = tuple(
            name
            for name in (self.graph.lookup(v) for v in given if isinstance(v, Tensor | Future))
            if name is not None
        )
        body = Graph(parent=self.graph)
        name = self.session.fresh()
        self._emit(Node("fork", inputs, (name,), block=body))
        self.bind(future, name)
        assert isinstance(future, Future)
        with self.session.lock:
            self.session.forks.append(future)
        body_recorder = _GraphRecorder(body, self.session)
        context.run(recording.ACTIVE.set, body_recorder)

        def finished(value: object, error: BaseException | None) -> None:
            if error is not None:
                self._fail(error)
            elif not isinstance(value, Tensor):
                self._fail(
                    TracingError(
                        f"a forked {getattr(func, '__name__', func)!r} returned "
                        f"{type(value).__name__}, not a tensor: a graph cannot hold it"
                    )
                )
            else:
                body.result = ("tensor", body_recorder.name_of(value))

        return finished

    def _fail(self, error: BaseException) -> None:
        with self.session.lock:
            self.session.errors.append(error)

    def waited(self, future: object, value: object) -> None:
        source = self.graph.lookup(future)
        if source is None:
            self._fail(TracingError("a wait on a future that the traced code did not fork"))
            return
        name = self.session.fresh()
        self._emit(Node("wait", (source,), (name,)))
        self.bind(value, name)

    def template(self, value: object) -> Any:
        """How to rebuild ``value`` from a run's names."""
        if isinstance(value, Tensor):
            return ("tensor", self.name_of(value))
        if isinstance(value, Future):
            source = self.graph.lookup(value)
            if source is None:
                raise TracingError("the traced function returned a future it did not fork")
            return ("tensor", source)
        if isinstance(value, list | tuple):
            return (type(value).__name__, [self.template(item) for item in value])
        return ("value", value)


class TracedFunction:
    """What ``trace`` returns: runs the recorded graph on new tensors."""

    def __init__(self, graph: Graph, parameters: tuple[str, ...]) -> None:
        self.graph = graph
        self._parameters = parameters

    def __call__(self, *inputs: Tensor) -> Any:
        if len(inputs) != len(self._parameters):
            raise TypeError(f"the traced function takes {len(self._parameters)} tensors")
        for item in inputs:
            if not isinstance(item, Tensor):
                raise TypeError(f"a traced function takes tensors, got {type(item).__name__}")
        env: dict[str, Any] = dict(zip(self._parameters, inputs, strict=True))
        return replay.run(self.graph, env)


def trace(func: Any, example_inputs: Tensor | tuple[Tensor, ...]) -> TracedFunction:
    """Run ``func`` (a function, or a module's ``forward``) on ``example_inputs`` and
    return the traced function of what it did."""
    inputs = example_inputs if isinstance(example_inputs, tuple) else (example_inputs,)
    for item in inputs:
        if not isinstance(item, Tensor):
            raise TypeError(f"trace() example inputs must be tensors, got {item!r}")
    target = func.forward if isinstance(func, Module) else func
    if not callable(target):
        raise TypeError(f"trace() needs a function or a Module, got {type(func).__name__}")
    session = _Session()
    graph = Graph()
    recorder = _GraphRecorder(graph, session)
    parameters = tuple(f"input{i}" for i in range(len(inputs)))
    for item, name in zip(inputs, parameters, strict=True):
        recorder.bind(item, name)
    token = recording.ACTIVE.set(recorder)
    try:
        result = target(*inputs)
    finally:
        recording.ACTIVE.reset(token)
    _join(session)
    if session.errors:
        raise TracingError(f"cannot trace {func!r}: {session.errors[0]}") from session.errors[0]
    graph.result = recorder.template(result)
    return TracedFunction(graph, parameters)


def _join(session: _Session) -> None:
    """Wait for every fork of the traced code, also those forked while waiting."""
    joined = 0
    while True:
        with session.lock:
            pending = session.forks[joined:]
        if not pending:
            return
        for future in pending:
            waiting.block_until_done(future)
        joined += len(pending)
