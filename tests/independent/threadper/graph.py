"""The recording of a trace: nodes in the order their operations ran.

A node writes names no other node of its graph writes; a fork node holds its
body's graph as its one block, and that subgraph reads the enclosing graph's
names freely (they were written before the fork). ``graph_nodes`` gives the
neutral four-field view the spec's examples read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class GraphNode:
    """The portable view of a node: kind, inputs, outputs and blocks."""

    kind: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    blocks: tuple[tuple[GraphNode, ...], ...]


@dataclass(eq=False)
class Node:
    """A recorded operation; ``value`` is a constant's, ``block`` a fork's body."""

    kind: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    value: Any = None
    block: Graph | None = None


@dataclass(eq=False)
class Graph:
    """One graph: the traced function's, or a fork's body."""

    parent: Graph | None = None
    nodes: list[Node] = field(default_factory=list)
    #: id of a tensor or future -> its name in this graph
    names: dict[int, str] = field(default_factory=dict)
    #: what the graph gives: a template (see tracing.template)
    result: Any = None

    def lookup(self, value: object) -> str | None:
        """The name ``value`` has here or in an enclosing graph."""
        graph: Graph | None = self
        while graph is not None:
            name = graph.names.get(id(value))
            if name is not None:
                return name
            graph = graph.parent
        return None

    def view(self) -> list[GraphNode]:
        return [
            GraphNode(
                node.kind,
                node.inputs,
                node.outputs,
                (tuple(node.block.view()),) if node.block is not None else (),
            )
            for node in self.nodes
        ]

    def render(self, indent: str = "") -> list[str]:
        lines = []
        for node in self.nodes:
            outputs = ", ".join("%" + name for name in node.outputs)
            inputs = ", ".join("%" + name for name in node.inputs)
            constant = f"[value={node.value!r}]" if node.kind == "constant" else ""
            lines.append(f"{indent}{outputs} = {node.kind}{constant}({inputs})")
            if node.block is not None:
                lines.extend(node.block.render(indent + "    "))
                lines.append(f"{indent}    -> {node.block.result!r}")
        return lines

    def __str__(self) -> str:
        return "\n".join(["graph:", *self.render("  "), f"  return {self.result!r}"])


def graph_nodes(traced: Any) -> list[GraphNode]:
    """The nodes of ``traced.graph``, in the order their operations ran."""
    graph = getattr(traced, "graph", None)
    if not isinstance(graph, Graph):
        raise TypeError(f"graph_nodes() needs a traced function, got {type(traced).__name__}")
    return graph.view()
