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

    def to_dot(self) -> str:
        """The graph in Graphviz's DOT language, for a picture of what a trace recorded.

        Each fork node is drawn as a box (a cluster) holding its subgraph, the
        fork's inputs flowing into the subgraph's parameters; the fork's future
        leaves the box as a bold arrow into the wait nodes that consume it.
        Labels are those of the printed form, so the picture and ``str(graph)``
        can be read side by side. The docs draw their trace pictures from this.
        """
        lines = [_DOT_HEADER]
        _dot_graph(self, "g", "  ", lines)
        lines.append("}")
        return "\n".join(lines) + "\n"


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


# to_dot's look. Colours are light, so that the drawing also reads where a dark
# page inverts it (the docs do: conf/_static/forkwait.css).
_DOT_HEADER = """\
digraph traced {
  graph [compound=true, rankdir=TB, nodesep=0.3, ranksep=0.3, fontname="Helvetica",
         fontsize=11, bgcolor="transparent", labeljust=l];
  node [shape=box, style="rounded,filled", fillcolor="#ffffff", color="#5f6368",
        fontname="Helvetica", fontsize=11, margin="0.12,0.04", height=0.3];
  edge [color="#5f6368", arrowsize=0.7, fontname="Helvetica", fontsize=11];"""
_DOT_STYLES = {
    "input": 'shape=oval, fillcolor="#e8f0fe", color="#1a56c4"',
    CONSTANT: 'fillcolor="#f1f3f4", color="#9aa0a6", fontcolor="#5f6368"',
    WAIT: 'fillcolor="#fde2c4", color="#b35c00"',
    "return": 'shape=oval, style="dashed", color="#5f6368"',
    FORK: 'style="rounded,filled", fillcolor="#e6f4ea", color="#1e7e45", penwidth=1.5',
    "future": 'color="#1e7e45", fontcolor="#1e7e45", style=bold',
}


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


class _DotScope:
    """Which DOT node writes each value of one graph, and which cluster each future leaves."""

    def __init__(self) -> None:
        self.producer: dict[int, str] = {}
        self.cluster: dict[int, str] = {}

    def edge(self, value: Value, target: str, comment: str = "") -> str:
        source = self.producer.get(id(value), _quote(f"%{value.name}"))
        cluster = self.cluster.get(id(value))
        extra = f" // {comment}" if comment else ""
        if cluster is None:
            return f"{source} -> {target};{extra}"
        label = _quote(f"%{value.name}")
        return f"{source} -> {target} [ltail={cluster}, label={label}, {_DOT_STYLES['future']}];"


def _dot_graph(graph: Graph, prefix: str, indent: str, lines: list[str]) -> str:
    """Emit ``graph``'s values and nodes as DOT under ``prefix``; return its return node."""
    scope = _DotScope()
    for index, value in enumerate(graph.inputs):
        scope.producer[id(value)] = f"{prefix}_in{index}"
        label = _quote(f"%{value.name} : {value.type}")
        lines.append(f"{indent}{prefix}_in{index} [label={label}, {_DOT_STYLES['input']}];")
    forks = 0
    for index, node in enumerate(graph.nodes):
        node_id = f"{prefix}_n{index}"
        if node.subgraph is not None:  # a fork: a box holding its body
            cluster, future = f"cluster_{node_id}", node.outputs[0]
            arguments = ", ".join(f"%{v.name}" for v in node.inputs)
            header = f"%{future.name} : {future.type} = {FORK}_{forks}({arguments})"
            forks += 1
            lines.append(f"{indent}subgraph {cluster} {{")
            lines.append(f"{indent}  graph [label={_quote(header)}, {_DOT_STYLES[FORK]}];")
            returned = _dot_graph(node.subgraph, node_id, indent + "  ", lines)
            lines.append(f"{indent}}}")
            for position, value in enumerate(node.inputs[: len(node.subgraph.inputs)]):
                lines.append(indent + scope.edge(value, f"{node_id}_in{position}"))
            scope.producer[id(future)], scope.cluster[id(future)] = returned, cluster
            continue
        lines += [indent + scope.edge(value, node_id) for value in node.inputs]
        attributes = "".join(f"[{k}={v!r}]" for k, v in node.attributes.items())
        outputs = ", ".join(f"%{v.name} : {v.type}" for v in node.outputs)
        style = _DOT_STYLES.get(node.kind)
        label = _quote(f"{node.kind}{attributes}\n{outputs}")
        lines.append(f"{indent}{node_id} [label={label}" + (f", {style}];" if style else "];"))
        scope.producer.update((id(value), node_id) for value in node.outputs)
    returned = f"{prefix}_return"
    names = ", ".join(f"%{v.name}" for v in graph.outputs)
    label = _quote(f"return ({names})")
    lines.append(f"{indent}{returned} [label={label}, {_DOT_STYLES['return']}];")
    lines += [indent + scope.edge(value, returned) for value in graph.outputs]
    return returned
