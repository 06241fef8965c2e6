"""The graph a trace records, its printed form, its neutral node view, and running it.

A graph has parameters, nodes in the order their operations ran, and an output
(a value name, or a tuple or list of them). A fork node holds its body's graph,
whose parameters take the fork node's inputs in order. Running a graph forks
each fork node's subgraph as a task on the pool, so recorded forks run
concurrently again.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import runtime

#: what an output is: one value name, or a tuple or list of outputs
Output = str | tuple["Output", ...] | list["Output"]

_OPERATIONS: dict[str, Callable[[Any, Any], Any]] = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
}


@dataclass(eq=False)
class Node:
    """One operation; ``inputs`` of a fork grow while its body imports outer values."""

    kind: str
    inputs: list[str]
    outputs: list[str]
    subgraph: Graph | None = None
    constant: object = None


@dataclass(eq=False)
class Graph:
    params: list[str] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)
    output: Output | None = None

    def __str__(self) -> str:
        return "\n".join(self._lines("graph", ""))

    def _lines(self, title: str, indent: str) -> list[str]:
        lines = [f"{indent}{title}({', '.join(self.params)}):"]
        for node in self.nodes:
            inputs = ", ".join(node.inputs)
            outputs = ", ".join(node.outputs)
            extra = f"[value={node.constant!r}]" if node.kind == "constant" else ""
            lines.append(f"{indent}  {outputs} = {node.kind}{extra}({inputs})")
            if node.subgraph is not None:
                lines.extend(node.subgraph._lines("block0", indent + "    "))
        lines.append(f"{indent}  return ({_describe(self.output)})")
        return lines


def _describe(output: Output | None) -> str:
    if output is None:
        return ""
    if isinstance(output, str):
        return output
    return ", ".join(_describe(item) for item in output)


@dataclass(frozen=True)
class GraphNode:
    """The neutral view of one node that ``graph_nodes`` gives."""

    kind: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    blocks: tuple[tuple[GraphNode, ...], ...]


def view(graph: Graph) -> list[GraphNode]:
    return [
        GraphNode(
            kind=node.kind,
            inputs=tuple(node.inputs),
            outputs=tuple(node.outputs),
            blocks=(tuple(view(node.subgraph)),) if node.subgraph is not None else (),
        )
        for node in graph.nodes
    ]


def run(graph: Graph, arguments: list[Any]) -> Any:
    """Compute ``graph`` on ``arguments`` (one per parameter)."""
    values: dict[str, Any] = dict(zip(graph.params, arguments, strict=True))
    for node in graph.nodes:
        if node.kind == "constant":
            values[node.outputs[0]] = node.constant
        elif node.kind == "fork":
            assert node.subgraph is not None
            inputs = [values[name] for name in node.inputs]
            values[node.outputs[0]] = runtime.fork(run, node.subgraph, inputs)
        elif node.kind == "wait":
            values[node.outputs[0]] = runtime.wait(values[node.inputs[0]])
        else:
            left, right = (values[name] for name in node.inputs)
            values[node.outputs[0]] = _OPERATIONS[node.kind](left, right)
    return _gather(graph.output, values)


def _gather(output: Output | None, values: dict[str, Any]) -> Any:
    if output is None:
        return None
    if isinstance(output, str):
        return values[output]
    items = [_gather(item, values) for item in output]
    return tuple(items) if isinstance(output, tuple) else items
