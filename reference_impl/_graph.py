"""A small graph IR for traces: Values flow between Nodes; a fork Node owns a subgraph.

The printed form follows TorchScript's so that a reader who knows
``torch.jit.trace`` output can read it::

    graph(%x : Tensor):
      %1 : Future[Tensor] = prim::fork_0(%x)
      %2 : Tensor = aten::wait(%1)
      return (%2)
    with prim::fork_0 = graph(%x : Tensor):
      ...

Unlike TorchScript's printer, a nested fork's section is printed *inside* its
parent's section (indented), so nesting is visible in the text.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

FORK = "prim::fork"
WAIT = "aten::wait"
CONSTANT = "prim::Constant"


@dataclass(eq=False)
class Value:
    """One value in one graph; ``name`` is unique within that graph."""

    name: str
    type: str = "Tensor"

    def __repr__(self) -> str:
        return f"%{self.name}"


@dataclass(eq=False)
class Node:
    kind: str
    inputs: list[Value]
    outputs: list[Value]
    attributes: dict[str, Any] = field(default_factory=dict)
    subgraph: Graph | None = None


@dataclass(eq=False)
class Graph:
    inputs: list[Value] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)
    outputs: list[Value] = field(default_factory=list)
    _next_id: int = 1

    def new_value(self, type_: str = "Tensor", name: str | None = None) -> Value:
        if name is None or any(v.name == name for v in self.inputs):
            name = str(self._next_id)
            self._next_id += 1
        return Value(name, type_)

    def add_input(self, name: str | None = None) -> Value:
        value = self.new_value("Tensor", name)
        self.inputs.append(value)
        return value

    def add_node(
        self,
        kind: str,
        inputs: list[Value],
        output_types: list[str],
        attributes: dict[str, Any] | None = None,
        subgraph: Graph | None = None,
    ) -> Node:
        node = Node(kind, inputs, [self.new_value(t) for t in output_types], attributes or {})
        node.subgraph = subgraph
        self.nodes.append(node)
        return node

    def forks(self) -> Iterator[Node]:
        """This graph's own fork nodes (not those of subgraphs), in order."""
        return (node for node in self.nodes if node.kind == FORK)

    def __str__(self) -> str:
        return "\n".join(_print_graph(self, "graph", ""))


def _print_graph(graph: Graph, header: str, indent: str, *, root: bool = True) -> list[str]:
    params = ", ".join(f"%{v.name} : {v.type}" for v in graph.inputs)
    lines = [f"{indent}{header}({params}):"]
    fork_names: dict[int, str] = {}
    for node in graph.nodes:
        kind = node.kind
        if kind == FORK:
            kind = fork_names[id(node)] = f"{FORK}_{len(fork_names)}"
        outputs = ", ".join(f"%{v.name} : {v.type}" for v in node.outputs)
        attributes = "".join(f"[{k}={v!r}]" for k, v in node.attributes.items())
        inputs = ", ".join(f"%{v.name}" for v in node.inputs)
        lines.append(f"{indent}  {outputs} = {kind}{attributes}({inputs})")
    lines.append(f"{indent}  return ({', '.join(f'%{v.name}' for v in graph.outputs)})")
    # the root's sections stand at the margin, as TorchScript prints them;
    # a subgraph's own forks are indented under it, so nesting shows
    section_indent = indent if root else indent + "  "
    for node in graph.nodes:
        if node.subgraph is not None:
            lines += _print_graph(
                node.subgraph, f"with {fork_names[id(node)]} = graph", section_indent, root=False
            )
    return lines
