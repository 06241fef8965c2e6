"""Tracer state: which graph is being recorded on this thread, and which object is which Value.

Objects are tracked by identity, as torch's tracer tracks tensors: the same
tensor object used twice is the same Value. An object an op meets that no
enclosing scope tracks becomes a constant. An object tracked by an *enclosing*
scope (a tensor captured by a forked closure) is lifted into the fork's
subgraph as an extra input, level by level.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from reference_impl._graph import CONSTANT, Graph, Value
from reference_impl._state import local


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
        # a traced value type offers ``_trace_constant() -> (data, type name)``
        as_constant = getattr(obj, "_trace_constant", None)
        if as_constant is not None:
            data, type_ = as_constant()
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


def active_scope() -> Scope | None:
    """The scope being recorded on this thread, or None outside any trace."""
    scope: Scope | None = local.context.scope
    return scope


@contextmanager
def recording(scope: Scope) -> Iterator[Scope]:
    context = local.context
    outer = context.scope
    context.scope = scope
    try:
        yield scope
    finally:
        context.scope = outer
